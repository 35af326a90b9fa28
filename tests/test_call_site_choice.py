"""A call said with its line names the main path's call, not one deep in a side branch (issue #35): a login view
that signs a preset admin in three ``if``s deep and the user who sent the form two levels up is walked through the
second — "`login` calls `login_user` at `app/auth.py:N`" cites the line a newcomer follows.

One small real Flask app, indexed by the real pipeline (tree-sitter, Chroma, the packaged embedding model).
"""

from __future__ import annotations

import re

from codeqa.config import Settings
from tests.helpers import ask_named

AUTH = """from flask import Blueprint, redirect, render_template, request, url_for

from app.models import Users
from app.security import generate_preset_admin, login_user, verify_password

auth = Blueprint("auth", __name__)


@auth.route("/login", methods=["POST", "GET"])
def login():
    errors = []
    if request.method == "POST":
        name = request.form["name"]
        preset = request.form.get("preset_token")
        if preset:
            admin = generate_preset_admin(preset)
            if admin:
                if admin.verified:
                    login_user(user=admin)
                    return redirect(url_for("admin.view"))
            errors.append("That preset token is not valid")
            return render_template("login.html", errors=errors)
        user = Users.query.filter_by(name=name).first()
        if user and verify_password(request.form["password"], user.password):
            login_user(user)
            return redirect(url_for("challenges.listing"))
        errors.append("Your username or password is incorrect")
    return render_template("login.html", errors=errors)
"""

SECURITY = '''from flask import session

from app.models import Users


def login_user(user):
    """Sign the user in: the session holds who they are."""
    session["id"] = user.id
    session["name"] = user.name
    session.permanent = True


def verify_password(plaintext, hashed):
    return plaintext == hashed


def generate_preset_admin(token):
    return Users.query.filter_by(preset_token=token, type="admin").first()
'''

MODELS = """class Users:
    query = None

    def __init__(self, name, password):
        self.name = name
        self.password = password
"""

INDEXED_APPS = {
    "arena": {
        "requirements.txt": "Flask==3.0\n",
        "app/__init__.py": "from flask import Flask\n\n\ndef create_app():\n    return Flask(__name__)\n",
        "app/auth.py": AUTH,
        "app/security.py": SECURITY,
        "app/models.py": MODELS,
    }
}  # indexed once by apps_home (tests/conftest.py)


def test_a_walk_cites_the_main_paths_call_not_the_one_in_a_nested_side_branch(apps_settings: Settings) -> None:
    text = ask_named("arena", "How does user authentication flow through the system?", apps_settings,
                     backend="none").result().text  # fmt: skip
    main_call = 1 + AUTH.split("\n").index("            login_user(user)")
    side_call = 1 + AUTH.split("\n").index("                    login_user(user=admin)")
    # the step names the test its call sits under (here tests within tests: "on one branch")
    said = re.findall(
        r"`login` \(`app/auth\.py:\d+-\d+`\) calls `login_user`(?: when `[^`]+`| on one branch)? "
        r"at `app/auth\.py:(\d+)`",
        text,
    )
    assert said == [str(main_call)], text
    assert f"app/auth.py:{side_call}`" not in text, text
