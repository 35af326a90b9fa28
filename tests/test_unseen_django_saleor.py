"""Misleading on saleor (a Django + GraphQL app in no data set), asked how webhooks are sent to apps: "``Meta``
(``saleor/graphql/webhook/subscription_types.py:298-363``) is the closest match found: ``description = "Event sent
when new app is installed."``" and "[2] ``Meta`` (…:486-523) defines a class" for a chunk of five GraphQL types, each
with its own nested ``class Meta:`` (five classes named after one of them). A nested class is named with the class
holding it (``AppInstalled.Meta``), and a method of a chunk of several classes with the class its lines show
(``AppBase.resolve_app``, not ``AddressCreated.resolve_app`` after the chunk's first).

Asked how user authentication flows: "4. ``update_user_search_vector`` (``saleor/account/search.py:17-35``) stores with
``user.save(update_fields=[…])``" after "3. ``_update_user_details`` … calls ``update_user_search_vector``", whose call
``update_user_search_vector(user, save=False)`` switches that branch (``if save:``) off: a walk does not end in it."""

from __future__ import annotations

from codeqa.answer.explanation.code.linenames import holder_at, name_at
from codeqa.answer.explanation.code.switches import switched_off
from codeqa.answer.explanation.story.endings import outcome_of
from codeqa.records import Chunk

# saleor/graphql/webhook/subscription_types.py:298-340 (shortened), one chunk as the index holds it; its symbol is
# cut short the way the chunker cuts a long list (`…`), so `AppBase.resolve_app` is not in it
TYPES = '''class AddressCreated(SubscriptionObjectType, AddressBase):
    class Meta:
        root_type = "Address"
        description = "Event sent when new address is created."


class AddressUpdated(SubscriptionObjectType, AddressBase):
    class Meta:
        root_type = "Address"
        description = "Event sent when address is updated."


class AppBase(AbstractType):
    app = graphene.Field(
        "saleor.graphql.app.types.App",
        description="The application the event relates to.",
    )

    @staticmethod
    def resolve_app(root, _info: ResolveInfo):
        _, app = root
        return app


class AppInstalled(SubscriptionObjectType, AppBase):
    class Meta:
        root_type = "App"
        description = "Event sent when new app is installed."'''
NAMES = "AddressCreated, AddressUpdated, AppBase, AppInstalled, …"


def _chunk() -> Chunk:
    path = "saleor/graphql/webhook/subscription_types.py"
    return Chunk(path, "python", 298, 298 + TYPES.count("\n"), TYPES, NAMES, "class", "api")


def _line(chunk: Chunk, text: str) -> int:
    return chunk.start_line + chunk.text.split("\n").index(text)


def test_a_nested_class_is_named_with_the_class_holding_it():
    chunk = _chunk()
    installed = _line(chunk, '        description = "Event sent when new app is installed."')
    updated = _line(chunk, '        description = "Event sent when address is updated."')
    assert holder_at(chunk, installed) == "AppInstalled.Meta"
    assert holder_at(chunk, updated) == "AddressUpdated.Meta"


def test_a_method_is_named_with_the_class_its_lines_show():
    chunk = _chunk()
    line = _line(chunk, "        return app")
    assert name_at(chunk, line) == "AppBase.resolve_app"
    assert holder_at(chunk, _line(chunk, "    app = graphene.Field(")) == "AppBase"


# saleor/account/search.py:17-35 (its docstring shortened)
SEARCH_VECTOR = '''def update_user_search_vector(
    user: "User", *, attach_addresses_data: bool = True, save: bool = True
) -> None:
    """Update the user's search vector for full-text search."""
    user.search_vector = FlatConcatSearchVector(
        *generate_user_search_vector_value(
            user, attach_addresses_data=attach_addresses_data
        )
    )
    if save:
        user.save(update_fields=["search_vector", "updated_at"])'''


def test_a_walk_does_not_end_in_a_branch_its_call_switches_off():
    chunk = Chunk("saleor/account/search.py", "python", 17, 27, SEARCH_VECTOR, "update_user_search_vector",
                  "function", "service")  # fmt: skip
    off = switched_off("update_user_search_vector(user, save=False)")
    assert off == frozenset({"save"})
    assert outcome_of(chunk, "update_user_search_vector", off=off) is None
    stored = outcome_of(chunk, "update_user_search_vector", off=switched_off("update_user_search_vector(user)"))
    assert stored is not None and stored.verb == "stores with" and stored.line == 27
