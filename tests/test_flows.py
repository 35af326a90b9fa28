"""Flows on a small real app (issue #35, classes 4, 5 and 7): "how does X work / what happens when" answered as
numbered steps from the entry point along checked calls to the outcome on the success path, what is absent said
only when it was searched for and is not there, and a model's false call claim dropped before it is shown.

The app: a Flask view that starts a report through a service, which queues a Celery task, which hands the report
to the store function that writes it to the database (four steps). Its error branches (a 400 for a bad form, a
404) sit beside the success outcome, and it has no central error handler; a second app is the same with one.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from codeqa.answer.rendering.citations import check_citations
from codeqa.cli import app
from codeqa.config import Settings
from tests.conftest import write_files
from tests.helpers import ask_named
from tests.llm_standins import OllamaStandIn

REPORTS_APP: dict[str, str] = {
    "requirements.txt": "flask==3.0.0\ncelery==5.3.0\nflask-sqlalchemy==3.1.1\n",
    "reports/__init__.py": '''"""The reports application."""
from flask import Flask

from reports.extensions import db


def create_app():
    app = Flask(__name__)
    app.config.from_object("reports.settings")
    db.init_app(app)
    from reports import views

    app.register_blueprint(views.bp)
    return app
''',
    "reports/extensions.py": """from flask_sqlalchemy import SQLAlchemy

db = SQLAlchemy()
""",
    "reports/views.py": '''"""The report pages: a user asks for a report, it is built in the background."""
from flask import Blueprint, abort, jsonify, request

from reports.models import Report
from reports.services import start_report

bp = Blueprint("reports", __name__)


@bp.route("/reports", methods=["POST"])
def create_report():
    """Ask for a report: it is queued and built by a worker."""
    title = request.form.get("title")
    if not title:
        return jsonify({"error": "a report needs a title"}), 400
    report_id = start_report(title, request.form.get("period", "month"))
    return jsonify({"id": report_id, "status": "queued"}), 202


@bp.route("/reports/<int:report_id>")
def show_report(report_id):
    report = Report.query.get(report_id)
    if report is None:
        abort(404)
    return jsonify(report.as_dict())


@bp.route("/health")
def health():
    return jsonify({"ok": True})
''',
    "reports/services.py": '''"""Starting reports: check the period, then hand the work to the task queue."""
from reports.tasks import build_report

PERIODS = ("week", "month", "year")


def start_report(title, period):
    """Queue the report for a worker and return its id at once."""
    if period not in PERIODS:
        raise ValueError(f"unknown period {period}")
    report_id = next_report_id()
    build_report.delay(report_id, title, period)
    return report_id


def next_report_id():
    return abs(hash(("report",))) % 100000
''',
    "reports/tasks.py": '''"""Background jobs run by the Celery worker."""
from celery import shared_task

from reports.store import save_report


@shared_task
def build_report(report_id, title, period):
    """Build the report's rows and store the finished report."""
    rows = collect_rows(period)
    return save_report(report_id, title, len(rows))


def collect_rows(period):
    return [period] * 3
''',
    "reports/store.py": '''"""Writing reports to the database."""
from reports.extensions import db
from reports.models import Report


def save_report(report_id, title, rows):
    report = Report(id=report_id, title=title, rows=rows)
    db.session.add(report)
    db.session.commit()
    return report.id
''',
    "reports/models.py": """from reports.extensions import db


class Report(db.Model):
    id = db.Column(db.Integer, primary_key=True)
    title = db.Column(db.String(200))
    rows = db.Column(db.Integer)

    def as_dict(self):
        return {"id": self.id, "title": self.title, "rows": self.rows}
""",
    "reports/settings.py": """CELERY_BROKER_URL = "redis://localhost:6379/0"
""",
}
HANDLED_APP = {
    **REPORTS_APP,
    "reports/errors.py": '''"""Every error of the app answered as JSON."""
from flask import jsonify

from reports.views import bp


@bp.app_errorhandler(404)
def not_found(error):
    return jsonify({"error": "not found"}), 404
''',
}

SIGNIN_APP = {  # CTFd's shape: a login view, a helper that puts the user into the session, a start script
    "requirements.txt": "flask==3.0.0\n",
    "manage.py": """from members import create_app

app = create_app()
if __name__ == "__main__":
    app.run()
""",
    "members/__init__.py": '''"""The members application."""
from flask import Flask

from members.errors import render_error
from members.logs import init_logs
from members.views import bp


def create_app():
    app = Flask(__name__)
    app.register_blueprint(bp)
    for code in {403, 404, 500}:
        app.register_error_handler(code, render_error)
    init_logs(app)
    return app
''',
    "members/errors.py": """from flask import render_template


def render_error(error):
    return render_template("error.html", error=error), error.code
""",
    "members/logs.py": """import logging


def init_logs(app):
    handler = logging.StreamHandler()
    app.logger.addHandler(handler)
    configure_levels(app.logger)


def configure_levels(logger):
    logger.setLevel(logging.INFO)
""",
    "members/views.py": """from flask import Blueprint, redirect, render_template, request, url_for

from members.auth import login_user
from members.models import Member

bp = Blueprint("auth", __name__)


@bp.route("/login", methods=["POST"])
def login():
    member = Member.query.filter_by(name=request.form["name"]).first()
    if member is None or not member.check_password(request.form["password"]):
        return render_template("login.html", error="Your user name or password is wrong"), 403
    login_user(member)
    return redirect(url_for("auth.home"))
""",
    "members/auth.py": """from flask import session


def login_user(user):
    session["id"] = user.id
    session.permanent = True
""",
    "members/models.py": """from werkzeug.security import check_password_hash


class Member:
    def check_password(self, password):
        return check_password_hash(self.password_hash, password)
""",
}

INDEXED_APPS = {
    "reports": REPORTS_APP,
    "handled": HANDLED_APP,
    "members": SIGNIN_APP,
}  # indexed once by apps_home (tests/conftest.py)


def answer(apps_settings: Settings, question: str, name: str = "reports") -> str:
    result = ask_named(name, question, apps_settings, backend="none").result()
    assert not result.generated and check_citations(result.text, result.sources).invalid == []
    return result.text


def steps(text: str) -> list[str]:
    return [line for line in text.split("\n") if re.match(r"^\d\. ", line)]


def test_a_four_step_flow_through_a_task_queue_ends_in_the_store(apps_settings: Settings) -> None:
    text = answer(apps_settings, "What happens when a user asks for a new report?")
    found = steps(text)
    assert len(found) == 4, text
    assert found[0].startswith(
        "1. `create_report` (`reports/views.py:10-17`) calls `start_report` at `reports/views.py:16`"
    )
    assert found[1].startswith("2. `start_report` (`reports/services.py:7-13`) queues `build_report` for a worker at "
                               "`reports/services.py:12`")  # fmt: skip
    assert found[2].startswith("3. `build_report` (`reports/tasks.py:")
    assert "calls `save_report` at `reports/tasks.py:" in found[2]
    assert (
        found[3]
        == "4. `save_report` (`reports/store.py:1-10`) stores with `db.session.commit()` (`reports/store.py:9`)."
    )
    assert "collect_rows" not in "\n".join(found)  # a helper that only returns is not where the story ends


def test_the_outcome_is_the_success_answer_not_an_error_branch_or_another_route(apps_settings: Settings) -> None:
    text = answer(apps_settings, "What happens when a user asks for a new report?")
    # the entry's own answer after its call closes the walk's one-sentence conclusion (it was "What happens:")
    happens = next(line for line in text.split("\n") if line.startswith("**In short:**"))
    assert "then `create_report` answers the request: `return jsonify(" in happens  # the statement as written
    assert "202" in happens and "`reports/views.py:17`" in happens  # the queued answer, not the 400 of line 15
    assert "400" not in happens and "health" not in happens


def test_no_central_error_handler_is_said_only_when_there_is_none(apps_settings: Settings) -> None:
    question = "What happens when a report request fails?"
    absent = answer(apps_settings, question)
    assert "**What is absent:** the app's code defines no central error handler" in absent
    assert "`abort(404)` (`reports/views.py:24`)" in absent  # where the error is answered instead
    assert "`errorhandler`" in absent and "`register_error_handler`" in absent
    handled = answer(apps_settings, question, "handled")
    assert "What is absent" not in handled and "no central error handler" not in handled
    assert "**What happens:**" not in absent  # the success answer is not what a question about failing asks for
    other = answer(apps_settings, "What happens when a user asks for a new report?")
    assert "What is absent" not in other  # not a question about errors


def test_a_task_queued_with_delay_resolves_to_the_task() -> None:
    from codeqa.chunk.resolve.calls import call_sites, resolves_to

    path = "reports/services.py"
    site = {s.written: s for s in call_sites(path, REPORTS_APP[path])}["build_report.delay"]
    assert site.caller == "start_report" and resolves_to(site, path, "reports/tasks.py", "build_report")
    assert not resolves_to(site, path, "reports/tasks.py", "collect_rows")


def test_a_model_written_false_call_claim_is_dropped_before_it_is_shown(apps_settings: Settings) -> None:
    reply = [
        "`create_report` calls `start_report` (reports/views.py:16). ",
        "`create_report` calls `save_report` (reports/views.py:10-17). ",  # false: the task does, two hops away
        "The worker stores the report.\n",
        "```python\ncreate_report calls save_report\n```\n",  # code is quoted, not claimed
        "`build_report` then calls `save_report` [9].",  # true (a number past the sources: found among them by name)
    ]
    with OllamaStandIn(reply=reply) as server:
        ollama = Settings(**{**apps_settings.model_dump(), "ollama_host": server.url})
        stream = ask_named("reports", "What happens when a user asks for a new report?", ollama, backend="ollama")
        pieces = list(stream)
        answer = stream.result()
    assert answer.generated and "".join(pieces) == answer.text
    assert "`create_report` calls `start_report`" in answer.text and "The worker stores the report." in answer.text
    assert "`create_report` calls `save_report`" not in answer.text  # dropped, never shown
    assert "create_report calls save_report\n```" in answer.text
    assert "`build_report` then calls `save_report`" in answer.text
    assert stream.model_claims.counts() == {"claims_made": 3, "claims_verified": 2, "claims_dropped": 1,
                                            "claims_by_name": 0}  # fmt: skip


def test_eval_answers_counts_the_model_claims_made_verified_and_dropped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    commit = "0123456789abcdef0123456789abcdef01234567"
    write_files(tmp_path / "trees" / "acme__reports" / commit, REPORTS_APP)
    question = "What happens when a user asks for a new report?"
    dataset = tmp_path / "answers.jsonl"
    dataset.write_text(json.dumps({"instance_id": "reports-1", "repo": "acme/reports", "base_commit": commit,
                                   "problem_statement": question, "gold_files": ["reports/views.py"],
                                   "key_facts": ["start_report(title"]}) + "\n")  # fmt: skip
    reply = ["`create_report` calls `start_report` [1]. ", "`create_report` calls `save_report` [1]. ", "Done."]
    monkeypatch.setenv("COLUMNS", "260")
    out = tmp_path / "out.json"
    with OllamaStandIn(reply=reply) as server:
        monkeypatch.setenv("OLLAMA_HOST", server.url)
        args = ["eval", "--answers", "--backend", "ollama", "--dataset", str(dataset), "--trees",
                str(tmp_path / "trees"), "--json", str(out)]  # fmt: skip
        result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "model 1/2 (1 dropped)" in result.output
    item = json.loads(out.read_text())["instances"][0]
    assert (item["model_claims_made"], item["model_claims_verified"], item["model_claims_dropped"]) == (2, 1, 1)


def test_an_outcome_line_is_named_after_the_definition_that_holds_it() -> None:
    """A chunk of several methods is named after its first; the line ``Current.session = session`` is in another."""
    from codeqa.answer.explanation.code.linenames import name_at
    from codeqa.records import Chunk

    text = (
        "module Authentication\n  def terminate_current_session\n    reset_session\n  end\n\n"
        "  def authenticated_as(session)\n    Current.session = session\n  end\nend"
    )
    symbol = "Authentication, Authentication.terminate_current_session, Authentication.authenticated_as"
    chunk = Chunk("app/auth.rb", "ruby", 10, 18, text, symbol, "module", "service")
    assert name_at(chunk, 16) == "Authentication.authenticated_as"
    assert name_at(chunk, 12) == "Authentication.terminate_current_session"


def test_a_status_in_a_comparison_is_not_an_answer() -> None:
    """``status == 404`` in a predicate (``not_found?``) is a test, not "answers with" a 404."""
    from codeqa.answer.explanation.said.outcomes import COMPARED

    assert COMPARED.search("status == 404") and COMPARED.search("if (404 === code)")
    assert not COMPARED.search("return jsonify(error), 404") and not COMPARED.search("res.status(404).json(e)")


def test_an_authentication_flow_ends_where_the_user_is_put_into_the_session(apps_settings: Settings) -> None:
    text = answer(apps_settings, "How does user authentication flow through the system?", "members")
    found = steps(text)
    assert found and found[0].startswith(
        "1. `login` (`members/views.py:9-15`) calls `login_user` at `members/views.py:14`"
    ), text
    assert found[-1] == (
        "2. `login_user` (`members/auth.py:1-6`) signs the user in with "
        '`session["id"] = user.id` (`members/auth.py:5`).'
    )


def test_an_answer_about_failing_requests_does_not_end_on_a_success_response(apps_settings: Settings) -> None:
    """The opening "Then `login` answers with `redirect(url_for("auth.home"))`" closed an answer about failing: the
    success redirect of a login is not what happens when a request fails."""
    text = answer(apps_settings, "What happens when an API request fails?", "members")
    opening = text.split("\n", 1)[0]
    assert "render_error" in opening, opening
    assert "auth.home" not in opening and "Then `login`" not in opening, opening


def test_an_outcome_in_a_call_that_goes_on_below_is_said_with_its_arguments_left_out() -> None:
    """A TypeScript method whose parameters go on below (``private async getTokensData(data: {``) is found, and its
    ``await this.jwtService.signAsync(`` (arguments on the lines below) issues the token: said as ``signAsync(…)``.
    A plain ``return {`` stays no outcome, and a record's ``createUserToken(…)`` issues no sign-in token."""
    from codeqa.answer.explanation.story.endings import ISSUES_TOKEN, outcome_of
    from codeqa.records import Chunk

    text = (
        "  private async getTokensData(data: {\n    id: number;\n  }) {\n"
        "    const expires = Date.now();\n    const token = await this.jwtService.signAsync(\n"
        "      { id: data.id },\n      { expiresIn: expires },\n    );\n    return {\n      token,\n    };\n  }\n}"
    )
    chunk = Chunk(
        "src/auth/auth.service.ts", "typescript", 40, 52, text, "AuthService.getTokensData", "method", "service"
    )
    found = outcome_of(chunk, "getTokensData")
    assert found is not None and found.verb == "issues a token with" and found.line == 44
    assert found.text == "const token = await this.jwtService.signAsync(…)"
    shape = "  private async save(data: {\n    id: number;\n  }) {\n    return {\n      id: data.id,\n    };\n  }"
    assert outcome_of(Chunk("src/a.ts", "typescript", 1, 7, shape, "A.save", "method", "service"), "save") is None
    assert ISSUES_TOKEN.search("return $this->tokenManager->createCompositeToken($user);")
    assert not ISSUES_TOKEN.search("$this->createUserToken($user, $driver, $socialite);")


def test_an_error_answered_in_place_is_read_from_code_not_a_docstring() -> None:
    from types import SimpleNamespace

    from codeqa.answer.explanation.sources.absence import errors_answered
    from codeqa.records import Chunk

    text = (
        'def show_report(report_id):\n    """The report, or a 404 when it is missing."""\n'
        '    flash("A 404 page follows")\n    report = Report.query.get(report_id)\n'
        "    if report is None:\n        abort(404)\n    return render_template('report.html', report=report)"
    )
    chunk = Chunk("reports/views.py", "python", 20, 26, text, "show_report", "function", "api")
    lines = [SimpleNamespace(line=20 + n, text=line) for n, line in enumerate(text.split("\n"))]
    step = SimpleNamespace(chunk=chunk, lines=lines)
    assert errors_answered([step]) == [("abort(404)", "reports/views.py:25")]
