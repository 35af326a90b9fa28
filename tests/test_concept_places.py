"""The places an app names after the question's concept (issue #35, class 7: words instead of the code's own shape).

Taiga (a dev app of ``bench/data``) was asked "When a story changes, how are outside services told about it, and
where can I see afterwards whether each delivery worked?". The thesaurus read *webhooks* in it, but the question's
own words ("story", "delivery") ruled retrieval: the answer opened on ``taiga/projects/translations.py`` (a module of
bare ``_("…")`` strings kept for the string extractor, one of which says "just-in-time delivery"), and
``taiga/webhooks/`` was 57th. Its "where can I see" was also read as a permission question. Fixtures are Taiga's
own paths and code.
"""

from __future__ import annotations

from codeqa.answer.explanation.code.poorcode import answers_poorly
from codeqa.answer.explanation.pool import CONCEPT_AT, _with_concept_places
from codeqa.config import Settings
from codeqa.index import Index
from codeqa.records import Chunk
from codeqa.retrieve import Filters, retrieve
from codeqa.retrieve.concept_paths import concept_places
from codeqa.retrieve.thesaurus import expand

QUESTION = (
    "When a story changes, how are outside services told about it, and where can I see afterwards whether each "
    "delivery worked?"
)
TAIGA_PATHS = [  # a sample of taiga-back's tree
    "taiga/hooks/api.py", "taiga/hooks/event_hooks.py", "taiga/hooks/github/api.py",
    "taiga/webhooks/tasks.py", "taiga/webhooks/signal_handlers.py", "taiga/webhooks/models.py",
    "taiga/webhooks/migrations/0001_initial.py", "tests/integration/test_webhooks_signals.py",
    "taiga/projects/translations.py", "taiga/projects/userstories/services.py", "taiga/projects/signals.py",
    "taiga/projects/userstories/api.py", "taiga/projects/notifications/services.py", "taiga/base/response.py",
]  # fmt: skip

# taiga-back taiga/webhooks/tasks.py, lines 67-73 and 92-99
SEND = """def _send_request(webhook_id, url, key, data):
    serialized_data = UnicodeJSONRenderer().render(data)
    signature = _generate_signature(serialized_data, key)
    headers = {
        "X-TAIGA-WEBHOOK-SIGNATURE": signature,        # For backward compatibility
        "X-Hub-Signature": "sha1={}".format(signature),
        "Content-Type": "application/json"
    }
    request = requests.Request('POST', url, data=serialized_data, headers=headers)
    prepared_request = request.prepare()
    with requests.Session() as session:
        response = session.send(prepared_request, allow_redirects=settings.WEBHOOKS_ALLOW_REDIRECTS)
        webhook_log = WebhookLog.objects.create(webhook_id=webhook_id, url=url, status=response.status_code)
    return webhook_log
"""
# taiga-back taiga/projects/translations.py, lines 11-26
TRANSLATIONS = """from django.utils.translation import gettext as _

# Translators: Name of scrum project template.
_("Scrum")
# Translators: Description of scrum project template.
_("The agile product backlog in Scrum is a prioritized features list, containing short descriptions of all ...")
# Translators: Name of kanban project template.
_("Kanban")
# Translators: Description of kanban project template.
_("Kanban is a method for managing knowledge work with an emphasis on just-in-time delivery while not ...")
"""
STORIES = '''from django.utils.translation import gettext as _


def update_story_status(story, status, user):
    """A user story changes status: the story's delivery date moves with it."""
    story.status = status
    story.delivery_date = status.delivery_date
    story.save(update_fields=["status", "delivery_date"])
    raise ValueError(_("A story whose delivery is closed cannot change"))
'''
APP = {
    "requirements.txt": "Django==4.2.0\nrequests==2.31.0\n",
    "taiga/webhooks/tasks.py": SEND,
    "taiga/projects/translations.py": TRANSLATIONS,
    "taiga/projects/userstories/services.py": STORIES,
    "taiga/projects/userstories/api.py": STORIES.replace("update_story_status", "change_story"),
    "taiga/projects/notifications/services.py": STORIES.replace("update_story_status", "notify_story_change"),
}
INDEXED_APPS = {"taiga": APP}  # indexed once by apps_home (conftest)


def test_the_concepts_own_word_names_the_place_before_a_looser_one() -> None:
    places = {p.concept: p.paths for p in concept_places(QUESTION, TAIGA_PATHS)}
    assert places.get("webhooks") == ("taiga/webhooks/",), places  # not taiga/hooks/ (incoming GitHub hooks)
    assert "taiga/projects/signals.py" in places.get("events and signals", ()), places
    assert "permissions" not in places  # "where can I see" is no permission question


def test_a_place_in_a_habit_named_folder_the_app_uses_is_a_place() -> None:
    """NetBox keeps its webhooks in ``netbox/extras/webhooks.py``; ``extras/`` reads as examples by its name, but
    the index's roles (from what the code uses) say it is the app's code, and the answer should look there."""
    from codeqa.retrieve.roles import Role

    paths = ["netbox/extras/webhooks.py", "netbox/extras/events.py", "netbox/dcim/models/devices.py"]
    question = "When someone edits a device, how can another system be told about it automatically?"
    assert concept_places(question, paths) == []  # by the path alone, extras/ is examples
    places = concept_places(question, paths, dict.fromkeys(paths, Role.SOURCE))
    assert [(p.concept, p.paths) for p in places][:1] == [("webhooks", ("netbox/extras/webhooks.py",))]


def test_a_word_that_names_a_quarter_of_the_app_is_no_place() -> None:
    paths = [f"app/events/handler_{n}.py" for n in range(10)] + [f"app/models/m{n}.py" for n in range(10)]
    assert [p.concept for p in concept_places("How are events dispatched?", paths)] == []
    assert [p.concept for p in concept_places("What is the weather?", TAIGA_PATHS)] == []
    # a template is named after its page; "localization" is not "local" disk
    paths = ["CTFd/themes/admin/templates/configs/localization.html", "CTFd/utils/localization.py", "CTFd/api.py"]
    assert concept_places("How would I switch from local disk to a cloud storage bucket?", paths) == []


def test_lay_words_name_permissions_but_where_and_how_do_not() -> None:
    assert "permissions" in expand("Can a guest see private boards?").concepts
    assert "permissions" in expand("Who can edit a post?").concepts
    assert "permissions" not in expand("Where can I see whether each delivery worked?").concepts
    assert "permissions" not in expand("How can I view the logs?").concepts
    assert "permissions" not in expand("How the file can be read from disk").concepts


def test_a_module_of_bare_translatable_strings_answers_poorly() -> None:
    def chunk(path: str, text: str) -> Chunk:
        return Chunk(path, "python", 11, 11 + text.count("\n"), text, "", "module", "")

    assert answers_poorly(chunk("taiga/projects/translations.py", TRANSLATIONS))
    assert not answers_poorly(chunk("taiga/projects/userstories/services.py", STORIES))


def test_the_best_file_of_the_concepts_place_joins_the_answers_files(apps_settings: Settings) -> None:
    index = Index.open("taiga", apps_settings)
    retrieved = retrieve(index, QUESTION, k=24)
    files = [f.path for f in retrieved.files if not f.path.startswith("taiga/webhooks/")]
    hits = [hit for hit in retrieved.hits if not hit.chunk.path.startswith("taiga/webhooks/")]
    assert len(files) >= 3
    new_hits, new_files, places = _with_concept_places(index, QUESTION, QUESTION, None, hits, files)
    assert "taiga/webhooks/" in places
    assert new_files[CONCEPT_AT] == "taiga/webhooks/tasks.py", new_files
    assert new_files[:CONCEPT_AT] == files[:CONCEPT_AT] and set(new_files) - set(files) == {"taiga/webhooks/tasks.py"}
    assert any(hit.chunk.path == "taiga/webhooks/tasks.py" for hit in new_hits)

    # a best file already in the place: nothing changes
    placed = ["taiga/webhooks/tasks.py", *files]
    assert _with_concept_places(index, QUESTION, QUESTION, None, hits, placed)[1] == placed
    # a scope outside the place keeps it out
    scoped = Filters(paths=("taiga/projects/",))
    assert _with_concept_places(index, QUESTION, QUESTION, scoped, hits, files)[1] == files


def test_the_code_word_for_the_named_concept_is_evidence_in_a_line() -> None:
    from codeqa.answer.explanation.code.keylines import question_terms, term_score

    terms = question_terms(QUESTION)
    assert "webhook" in terms.expanded
    assert term_score(terms, '        "X-TAIGA-WEBHOOK-SIGNATURE": signature,') > 0
    assert term_score(terms, "    serialized_data = UnicodeJSONRenderer().render(data)") == 0
