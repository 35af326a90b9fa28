"""quay (a Flask + React app in no data set, 3,500 files), asked "How does user authentication flow through the
system?", opened "`org_view` (`endpoints/web.py:143-251`) is where the app routes its sign-in URL:
``@web.route("/signin/")``": the chunk is named after its first view, the route decorates ``signin`` below it."""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.said.extractive import extractive_answer
from codeqa.records import Chunk, Hit

WEB = """@web.route("/organization/<path:path>", methods=["GET"])
@no_cache
def org_view(path):
    return index("")


@web.route("/signin/")
@no_cache
def signin(redirect=None):
    return index("", code=200)"""
HEAD = """from flask import Blueprint

web = Blueprint("web", __name__)"""


def test_the_sign_in_route_names_the_view_it_decorates() -> None:
    chunks = [Chunk("endpoints/web.py", "python", 1, 3, HEAD, "", "module", "api"),
              Chunk("endpoints/web.py", "python", 143, 152, WEB, "org_view, signin", "function", "api")]  # fmt: skip
    hits = [Hit(chunks[1], 1.0, chunks[1].id), Hit(chunks[0], 0.5, chunks[0].id)]
    answer = extractive_answer("How does user authentication flow through the system?", hits,
                               context=AnswerContext.from_chunks(chunks, hits))  # fmt: skip
    opening = answer.split("\n")[0]
    assert "`signin` (`endpoints/web.py:143-152`) is where the app routes its sign-in URL" in opening, opening
    assert "`org_view`" not in opening, opening


def test_the_arguments_of_a_call_opened_above_are_no_quote() -> None:
    """quay, "How is a repository push handled and stored?": "`put_image_layer` handles the request:
    ``repository_ref, session.get("manifest_builder"), store, docker_v2_signing_key``" — the arguments of
    ``lookup_manifest_builder(`` on the line above, pasted into the sentence."""
    from codeqa.answer.explanation.said.quoted_line import _fragment

    lines = ["    builder = lookup_manifest_builder(",
             '        repository_ref, session.get("manifest_builder"), store, docker_v2_signing_key',
             "    )", "    store.put_content(path, data)"]  # fmt: skip
    assert _fragment(lines[1], lines, 1)
    assert not _fragment(lines[3], lines, 3) and not _fragment(lines[0], lines, 0)
