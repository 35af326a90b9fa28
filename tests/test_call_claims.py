"""Call claims ("A calls B") in answers on a real index: each one is a call in A's own lines that resolves to B.

The app holds the three ways a match of names went wrong (issue #35, class 2): a module-level
``login = LoginManager()`` beside a ``login`` view, a ``permissions.has_access`` beside ``User.has_access``, and a
model chunk named after its first method (``User.__repr__``) when the call is ``check_password``.
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
from codeqa.records import Chunk
from tests.conftest import write_files
from tests.helpers import ask_named

CLAIMS_APP: dict[str, str] = {
    "app/__init__.py": '''"""The shop application."""
from flask import Flask

from app.extensions import db, login


def create_app():
    """Build the app: the database, the login manager, then the routes."""
    app = Flask(__name__)
    db.init_app(app)
    login.init_app(app)
    from app.auth import routes

    app.register_blueprint(routes.bp)
    return app
''',
    "app/extensions.py": '''"""The extensions, made once and bound to the app in create_app."""
from flask_login import LoginManager
from flask_sqlalchemy import SQLAlchemy

db = SQLAlchemy()
login = LoginManager()
login.login_view = "auth.login"
''',
    "app/auth/__init__.py": '''"""Signing in and the admin pages."""
''',
    "app/auth/routes.py": '''"""Sign-in and admin routes."""
from flask import Blueprint, abort, redirect, request

from app import permissions
from app.models import User

bp = Blueprint("auth", __name__)


@bp.route("/login", methods=["POST"])
def login():
    """Sign a user in: look the user up by email and check the password."""
    user = User.query.filter_by(email=request.form["email"]).first()
    if user is None or not user.check_password(request.form["password"]):
        abort(401)
    return redirect("/")


@bp.route("/admin")
def admin():
    """The admin page, for the users the permissions allow in."""
    if not permissions.has_access(request.user, "admin"):
        abort(403)
    return "admin"
''',
    "app/permissions.py": '''"""Who may open which area of the site."""


def has_access(user, area):
    """Whether the user may open the area: the areas come from the user's roles."""
    return area in {role.area for role in user.roles}
''',
    "app/models.py": '''"""The stored users."""
from werkzeug.security import check_password_hash

from app.extensions import db


class User(db.Model):
    id = db.Column(db.Integer, primary_key=True)
    email = db.Column(db.String(120), unique=True)
    password_hash = db.Column(db.String(256))
    is_admin = db.Column(db.Boolean, default=False)

    def __repr__(self):
        return f"<User {self.email}>"

    def check_password(self, password):
        """Whether the password matches the stored hash."""
        return check_password_hash(self.password_hash, password)

    def has_access(self, area):
        """Admins may open every area."""
        return self.is_admin

    def display_1(self):
        """How the user is shown in list 1: name, email and the date they joined, for the admin pages."""
        parts = [self.email, str(self.id), "admin" if self.is_admin else "member"]
        label = " / ".join(part for part in parts if part)
        return label.upper() if 1 % 2 else label.lower()

    def display_2(self):
        """How the user is shown in list 2: name, email and the date they joined, for the admin pages."""
        parts = [self.email, str(self.id), "admin" if self.is_admin else "member"]
        label = " / ".join(part for part in parts if part)
        return label.upper() if 2 % 2 else label.lower()

    def display_3(self):
        """How the user is shown in list 3: name, email and the date they joined, for the admin pages."""
        parts = [self.email, str(self.id), "admin" if self.is_admin else "member"]
        label = " / ".join(part for part in parts if part)
        return label.upper() if 3 % 2 else label.lower()

    def display_4(self):
        """How the user is shown in list 4: name, email and the date they joined, for the admin pages."""
        parts = [self.email, str(self.id), "admin" if self.is_admin else "member"]
        label = " / ".join(part for part in parts if part)
        return label.upper() if 4 % 2 else label.lower()

    def display_5(self):
        """How the user is shown in list 5: name, email and the date they joined, for the admin pages."""
        parts = [self.email, str(self.id), "admin" if self.is_admin else "member"]
        label = " / ".join(part for part in parts if part)
        return label.upper() if 5 % 2 else label.lower()

    def display_6(self):
        """How the user is shown in list 6: name, email and the date they joined, for the admin pages."""
        parts = [self.email, str(self.id), "admin" if self.is_admin else "member"]
        label = " / ".join(part for part in parts if part)
        return label.upper() if 6 % 2 else label.lower()
''',
}


INDEXED_APPS = {"shop": CLAIMS_APP}  # indexed once for this module by the apps_home fixture (tests/conftest.py)


def answer(apps_settings: Settings, question: str) -> str:
    result = ask_named("shop", question, apps_settings, backend="none").result()
    assert not result.generated and check_citations(result.text, result.sources).invalid == []
    return result.text


def source_line(text: str, location: str) -> str:
    """The sentence of the source at ``location`` (its ``- **[n]**`` line)."""
    return next((line for line in text.split("\n") if line.startswith("- **[") and f"(`{location}`)" in line), "")


def test_a_module_level_object_is_not_the_view_of_the_same_name(apps_settings: Settings) -> None:
    text = answer(apps_settings, "How does the app start and set up login?")
    assert "`create_app`" in text  # the app factory is in the answer ...
    assert not re.search(r"`create_app` \(`[^`]+`\) calls", text)  # ... and calls nothing the index defines:
    assert "calls `login" not in text and "called by `create_app`" not in text  # login.init_app is LoginManager's


def test_a_namesake_in_another_module_is_not_the_callee(apps_settings: Settings) -> None:
    text = answer(apps_settings, "How does the admin page check access?")
    assert "`admin` (`app/auth/routes.py:19-24`) calls `has_access` (`app/permissions.py:1-6`)" in text  # true
    assert "`has_access` (`app/models.py" not in text
    assert "`admin`" not in source_line(text, "app/models.py:7-22")  # User.has_access is not called by admin
    graph = answer(apps_settings, "who calls User.has_access?")
    assert "`admin`" not in graph and "No call of `User.has_access` is confirmed in the code" in graph  # a namesake
    assert "`admin` (`app/auth/routes.py:19-24`) — line 22 calls" in answer(apps_settings, "who calls has_access?")


def test_caller_and_callee_are_the_definitions_at_the_call_site_not_the_chunk_names(apps_settings: Settings) -> None:
    text = answer(apps_settings, "How does signing in check the password?")
    assert "calls `User.__repr__`" not in text  # the model chunk's first name is not what login calls
    assert "`login` (`app/auth/routes.py:10-16`) calls `User.check_password` (`app/models.py:7-22`)" in text
    assert "is called by `login` (`app/auth/routes.py:10-16`) for `User.check_password`" in text


def test_graph_links_a_name_only_where_the_file_can_mean_it(apps_settings: Settings) -> None:
    """The index's symbol graph: ``login`` in create_app is the imported LoginManager, not the view; ``User`` in the
    routes is the imported model; a module's name (``from app import permissions``) is no definition."""
    from codeqa.answer.context import AnswerContext
    from codeqa.index import Index

    context = AnswerContext.from_index(Index.open("shop", apps_settings), [], [])
    chunks = {(c.path, c.symbol): c for c in context.chunks(range(len(context.table)))}
    factory, view = chunks[("app/__init__.py", "create_app")], chunks[("app/auth/routes.py", "login")]
    admin = chunks[("app/auth/routes.py", "admin")]
    model = next(c for (path, symbol), c in chunks.items() if path == "app/models.py" and symbol.startswith("User"))
    assert not context.has_edge(factory, view)
    assert context.has_edge(view, model) and context.has_edge(admin, chunks[("app/permissions.py", "has_access")])


def test_calls_resolve_through_imports_and_scopes() -> None:
    from codeqa.chunk.resolve.calls import call_sites, resolves_to, use_reaches

    path, text = "app/auth/routes.py", CLAIMS_APP["app/auth/routes.py"]
    sites = {site.written: site for site in call_sites(path, text)}
    has_access, check = sites["permissions.has_access"], sites["user.check_password"]
    assert (has_access.caller, check.caller) == ("admin", "login")
    assert resolves_to(has_access, path, "app/permissions.py", "has_access")
    assert not resolves_to(has_access, path, "app/models.py", "User.has_access")
    assert resolves_to(check, path, "app/models.py", "User.check_password")  # user = User.query...first()
    factory = {s.written: s for s in call_sites("app/__init__.py", CLAIMS_APP["app/__init__.py"])}["login.init_app"]
    assert not resolves_to(factory, "app/__init__.py", "app/auth/routes.py", "login")
    assert not any(resolves_to(factory, "app/__init__.py", "app/auth/routes.py", name) for name in ("login", "admin"))
    urls = "from app.auth import routes\n\nrules = [routes.login]\nlogin_view = request.login\n"
    line_of = dict(enumerate(urls.split("\n"), start=1))
    assert use_reaches("app/urls.py", urls, "login", line_of[3], "app/auth/routes.py", top_level=True)
    assert not use_reaches("app/urls.py", urls, "login", line_of[4], "app/auth/routes.py", top_level=True)
    model = CLAIMS_APP["app/models.py"] + "\n    def promote(self):\n        self.check_password('x')\n"
    own = {s.written: s for s in call_sites("app/models.py", model)}["self.check_password"]
    assert own.caller == "User.promote" and resolves_to(own, "app/models.py", "app/models.py", "User.check_password")


def test_eval_answers_counts_call_claims_made_verified_and_dropped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    commit = "0123456789abcdef0123456789abcdef01234567"
    write_files(tmp_path / "trees" / "acme__shop" / commit, CLAIMS_APP)
    rows = [
        ("shop-1", "How does the app start and set up login?", ["app/__init__.py"], ["login.init_app(app)"]),
        ("shop-2", "How does signing in check the password?", ["app/auth/routes.py"], ["user.check_password"]),
    ]
    dataset = tmp_path / "answers.jsonl"
    dataset.write_text("".join(
        json.dumps({"instance_id": i, "repo": "acme/shop", "base_commit": commit, "problem_statement": q,
                    "gold_files": g, "key_facts": f}) + "\n"
        for i, q, g, f in rows
    ))  # fmt: skip
    monkeypatch.setenv("COLUMNS", "240")
    out = tmp_path / "out.json"
    args = ["eval", "--answers", "--dataset", str(dataset), "--trees", str(tmp_path / "trees"), "--json", str(out)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "call claims" in result.output and " dropped)" in result.output
    payload = json.loads(out.read_text())
    overall, items = payload["summary"]["overall"], {i["instance_id"]: i for i in payload["instances"]}
    assert overall["claims_made"] == overall["claims_verified"] + overall["claims_dropped"]
    assert items["shop-1"]["claims_dropped"] >= 1  # create_app → the login view (it is login.init_app) is dropped
    assert items["shop-2"]["claims_verified"] >= 1 and items["shop-2"]["claims_by_name"] == 0


def test_nested_functions_inherited_methods_and_annotated_factories_resolve() -> None:
    from codeqa.chunk.resolve.calls import call_sites, resolves_to

    text = """from app.transports import HttpTransport
from app.models import Project, Profile


def _project_for(code) -> Project:
    return Project.get(code)


class Webhook(HttpTransport):
    def notify(self, request, code):
        def safe(value):
            return value

        safe(code)
        self.last_ping()
        project = _project_for(code)
        project.num_checks_available()
        request.profile.send_change_email_link()
"""
    text += "\n\nclass Loud(Webhook):\n    def last_ping(self):\n        return None\n"
    text += "\n\nclass Quiet(Loud):\n    def quiet(self):\n        self.last_ping()\n"
    overridden = {site.caller: site for site in call_sites("app/hooks.py", text)}["Quiet.quiet"]
    assert resolves_to(overridden, "app/hooks.py", "app/hooks.py", "Loud.last_ping")  # overridden on the way up
    assert not resolves_to(overridden, "app/hooks.py", "app/transports.py", "Transport.last_ping")
    sites = {site.written: site for site in call_sites("app/hooks.py", text) if site.caller != "Quiet.quiet"}
    starred = call_sites(
        "app/cli.py", "from app.permissions import *\n\n\ndef main(user):\n    has_access(user, 'x')\n"
    )
    assert resolves_to(starred[0], "app/cli.py", "app/permissions.py", "has_access")
    assert resolves_to(sites["safe"], "app/hooks.py", "app/hooks.py", "Webhook.notify.safe")
    assert resolves_to(sites["self.last_ping"], "app/hooks.py", "app/transports.py", "Transport.last_ping")
    assert not resolves_to(sites["self.last_ping"], "app/hooks.py", "app/models.py", "Project.last_ping")
    check = sites["project.num_checks_available"]
    assert resolves_to(check, "app/hooks.py", "app/models.py", "Project.num_checks_available")
    assert not resolves_to(check, "app/hooks.py", "app/models.py", "Profile.num_checks_available")
    profile = sites["request.profile.send_change_email_link"]
    assert resolves_to(profile, "app/hooks.py", "app/models.py", "Profile.send_change_email_link")


def test_eval_answers_reports_graph_precision_and_recall_per_framework(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--graph-check``: the symbol graph's links checked against Jedi, per tree and per framework (the app's
    requirements.txt says Flask). The names-only graph links ``create_app`` to the ``login`` view through
    ``login.init_app`` (a LoginManager): Jedi calls that wrong; the resolved graph has no such link."""
    commit = "0123456789abcdef0123456789abcdef01234567"
    write_files(tmp_path / "trees" / "acme__shop" / commit, {**CLAIMS_APP, "requirements.txt": "Flask==3.0\n"})
    row = {"instance_id": "shop-1", "repo": "acme/shop", "base_commit": commit, "gold_files": ["app/__init__.py"],
           "problem_statement": "How does the app start and set up login?",
           "key_facts": ["login.init_app(app)"]}  # fmt: skip
    dataset = tmp_path / "answers.jsonl"
    dataset.write_text(json.dumps(row) + "\n")
    monkeypatch.setenv("COLUMNS", "240")
    out = tmp_path / "out.json"
    args = ["eval", "--answers", "--dataset", str(dataset), "--trees", str(tmp_path / "trees"), "--json", str(out),
            "--graph-check", "400"]  # fmt: skip
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "symbol graph vs Jedi" in result.output
    payload = json.loads(out.read_text())
    assert payload["instances"][0]["framework"] == "Flask"
    assert payload["summary"]["framework: Flask"]["n"] == 1
    checked = payload["graph_check"]
    (tree,) = checked["trees"]
    names_only, resolved = tree["graphs"]["names only"], tree["graphs"]["resolved"]
    assert names_only["wrong"] >= 1 and resolved["wrong"] < names_only["wrong"]
    assert resolved["precision"] > names_only["precision"]
    summary = checked["summary"]["framework: Flask"]
    assert summary["precision"] == resolved["precision"] and summary["right"] == resolved["right"]
    assert summary["recall"] is not None and 0 < summary["recall"] <= 100


def _chunk(path: str, language: str, symbol: str, text: str = "", start: int = 1) -> Chunk:
    lines = max(1, text.count("\n") + 1)
    return Chunk(path, language, start, start + lines - 1, text, symbol, "method", "service")


@pytest.mark.parametrize(
    ("user", "used", "line", "holds"),
    [
        # a call never lands in another runtime or in data: Laravel's env() is no YAML workflow, join no JSON file
        (
            ("config/app.php", "php", "config"),
            (".github/workflows/ci.yml", "yaml", "env", "env: x"),
            "'x' => env('APP_NAME'),",
            False,
        ),
        (
            ("src/tracker/index.js", "javascript", "track"),
            ("public/intl/ja-JP.json", "json", "join", '"join": 1'),
            "return parts.join('/');",
            False,
        ),
        (
            ("app/Http/Kernel.php", "php", "Kernel.handle"),
            ("resources/js/app.ts", "typescript", "handle", "function handle() {}"),
            "$this->handle($request);",
            False,
        ),
        # a method on a receiver must be the callee's: $request->user() is not Album::user, res.render not render
        (
            ("app/Http/Controllers/AlbumController.php", "php", "AlbumController.show"),
            ("app/Models/Album.php", "php", "Album.user", "public function user() {"),
            "$user = $request->user();",
            False,
        ),
        (
            ("src/controllers/users.js", "javascript", "profile"),
            ("src/views/render.js", "javascript", "render", "async function render(req, res) {"),
            "res.status(400).render('400', data);",
            False,
        ),
        (
            ("app/models/transfer.rb", "ruby", "Transfer.confirm!"),
            (
                "app/models/transfer/creator.rb",
                "ruby",
                "Transfer.Creator.inflow_transaction",
                "def inflow_transaction\n  end",
            ),
            "Transfer.inflow_transaction.update!(status: 'confirmed')",
            False,
        ),
        # the receiver's class, but the method is the framework's: Rails' authenticate_by is not in User's lines
        (
            ("app/controllers/sessions_controller.rb", "ruby", "SessionsController.create"),
            ("app/models/user.rb", "ruby", "User", "class User < ApplicationRecord\n  has_secure_password\nend"),
            "if user = User.authenticate_by(email: params[:email], password: params[:password])",
            False,
        ),
        # what a name can tell: the class by name, a variable named after it, its module, this in its own file
        (
            ("app/Http/Controllers/AlbumController.php", "php", "AlbumController.show"),
            ("app/Models/Album.php", "php", "Album.find", "public static function find($id) {"),
            "$album = Album::find($id);",
            True,
        ),
        (
            ("app/Http/Controllers/AlbumController.php", "php", "AlbumController.show"),
            ("app/Models/Album.php", "php", "Album", "class Album extends Model {\n  public function tracks() {"),
            "return $album->tracks();",
            True,
        ),
        (
            ("app/controllers/sessions_controller.rb", "ruby", "SessionsController.create"),
            ("app/models/user.rb", "ruby", "User", "class User\n  def valid_password?(password)\n  end\nend"),
            "return user if user.valid_password?(password)",
            True,
        ),
        (
            ("src/controllers/users.js", "javascript", "profile"),
            ("src/utils.js", "javascript", "slugify", "export function slugify(name) {"),
            "const slug = utils.slugify(name);",
            True,
        ),
        (
            ("src/store.ts", "typescript", "Store.save"),
            ("src/store.ts", "typescript", "Store.flush", "  flush() {"),
            "this.flush();",
            True,
        ),
        (
            ("src/controllers/users.js", "javascript", "profile"),
            ("src/helpers.js", "javascript", "escape", "function escape(s) {"),
            "return escape(name);",
            True,
        ),
    ],
)
def test_a_link_found_by_name_stands_only_where_a_name_can_tell(user: tuple, used: tuple, line: str,
                                                                 holds: bool) -> None:  # fmt: skip
    from codeqa.answer.explanation.calls.byname import holds_by_name
    from codeqa.answer.explanation.calls.flow import Use

    caller, callee = _chunk(*user, text=line), _chunk(*used[:3], text=used[3])
    whole_class = {"User": ("authenticate_by", "valid_password?"), "Album": ("tracks",)}  # a class's chunk
    name = used[2].rpartition(".")[2]
    name = next((n for n in whole_class.get(name, ()) if n + "(" in line), name)
    assert holds_by_name(caller, callee, Use(name, 1, "calls", line), line) is holds
