"""A walk reads a split definition whole (issue #35, "flows on real-size apps"): the chunker cuts a long view into
pieces, and a walk that started from the head piece never saw the call the second piece makes — indico's
``RHLogin._process`` head stops before the form is checked. The walk now joins the pieces of the definition it
starts from and of each callee, as the pool joins them.

A small Flask app cut by the real chunker (tree-sitter), whose login view is long enough to be cut in two, with the
sign-in in its second piece; the walk starts from the head piece alone, as when retrieval brings only that one.
"""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.calls.claims import ClaimChecker
from codeqa.answer.explanation.sources.pieces import whole_definition
from codeqa.answer.explanation.story.walk import walk
from codeqa.chunk import chunk_file
from codeqa.records import Chunk, Hit, SourceFile

CHECKS = "\n".join(
    f"""    if not request.form.get("field_{n}"):
        errors.append("The sign-in form needs its field number {n} filled in before the account can be checked")"""
    for n in range(14)
)
VIEWS = f"""from flask import Blueprint, redirect, render_template, request, url_for

from portal.accounts import find_account
from portal.sessions import start_session

auth = Blueprint("auth", __name__)


@auth.route("/login", methods=["POST"])
def login():
    errors = []
{CHECKS}
    if errors:
        return render_template("login.html", errors=errors)
    account = find_account(request.form["name"], request.form["password"])
    if account is None:
        return render_template("login.html", errors=["Unknown name or password"])
    start_session(account)
    return redirect(url_for("home.index"))
"""
SESSIONS = '''from flask import session


def start_session(account):
    """Sign the account in: the session remembers who it is."""
    session["account_id"] = account.id
    session.permanent = True
'''
ACCOUNTS = """def find_account(name, password):
    return None
"""
FILES = {"portal/views.py": VIEWS, "portal/sessions.py": SESSIONS, "portal/accounts.py": ACCOUNTS}


def test_the_pieces_of_a_split_definition_are_joined_whole() -> None:
    head = Chunk("app/views.py", "python", 10, 30, "def login():\n" + "    x = 1\n" * 20, "login", "function", "api")
    rest = Chunk("app/views.py", "python", 31, 40, "    start_session(account)\n" * 10, "login", "function", "api")
    other = Chunk("app/views.py", "python", 43, 45, "def logout():\n    pass\n\n", "logout", "function", "api")
    context = AnswerContext.from_chunks([head, rest, other], [Hit(head, 1.0, head.id)])
    whole = whole_definition(head, context)
    assert (whole.start_line, whole.end_line, whole.symbol) == (10, 40, "login")
    assert context.pieces[whole.id] == (head.id, rest.id)  # its graph neighbours are both pieces'
    assert whole_definition(rest, context).id == whole.id
    assert whole_definition(other, context) is other  # no piece: itself
    one = Chunk("src/Rows.java", "java", 10, 14, "public List getRows() {\n" * 5, "Rows.getRows", "method", "core")
    overload = Chunk("src/Rows.java", "java", 15, 19, "public List getRows(String s) {\n" * 5, "Rows.getRows",
                     "method", "core")  # fmt: skip
    rows = AnswerContext.from_chunks([one, overload], [Hit(one, 1.0, one.id)])
    assert whole_definition(one, rows) is one  # an overload right below opens on its own signature: not a piece


def test_a_walk_from_the_head_piece_of_a_split_view_reaches_the_call_its_second_piece_makes() -> None:
    chunks = [
        chunk for path, text in FILES.items() for chunk in chunk_file(SourceFile(path, "python", text, len(text)))
    ]
    pieces = [chunk for chunk in chunks if chunk.symbol == "login"]
    assert len(pieces) == 2 and "start_session(account)" in pieces[1].text  # the chunker cut the view in two
    head = pieces[0]
    context = AnswerContext.from_chunks(chunks, [Hit(head, 1.0, head.id)], ["portal/views.py"])
    found = walk("How does user authentication flow through the system?", context, ClaimChecker(context), [head])
    assert found is not None
    call_line = 1 + VIEWS.split("\n").index("    start_session(account)")
    assert [(hop.use.name, hop.use.line) for hop in found.hops] == [("start_session", call_line)]
    assert found.outcome is not None and found.outcome.text.startswith('session["account_id"] = account.id')


def test_a_source_that_is_the_head_piece_of_a_split_view_is_shown_whole() -> None:
    """A source is the definition, not the piece retrieval brought: its span and its lines run on past the cut to
    the sign-in, and the tail piece is no second source of its own."""
    from codeqa.answer.explanation.explain import explain

    chunks = [
        chunk for path, text in FILES.items() for chunk in chunk_file(SourceFile(path, "python", text, len(text)))
    ]
    head, tail = [chunk for chunk in chunks if chunk.symbol == "login"]
    context = AnswerContext.from_chunks(chunks, [Hit(head, 1.0, head.id)], ["portal/views.py"])
    explanation = explain("How does the login check the password?", context)
    views = [step for step in explanation.steps if step.chunk.path == "portal/views.py"]
    assert len(views) == 1
    assert (views[0].chunk.start_line, views[0].chunk.end_line) == (head.start_line, tail.end_line)
    assert any("find_account(" in line.text for line in views[0].lines)  # a line of the tail piece is shown
