"""A keyword of one topic must not pull another topic's sentences into an answer (#35, failure class 3): asked how
the admin pages' permissions are checked, the answer opens on the permission check, not on the login view's "checks
the password and signs the user in"; asked how signing in works, it still opens on the login view. A real index of
a small Flask app whose admin pages are guarded by a decorator of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from codeqa.frameworks.intent import intents
from tests.helpers import extractive_text

SHOP: dict[str, str] = {
    "requirements.txt": "flask\nflask-login\n",
    "shop/__init__.py": '''"""The application factory."""
from flask import Flask
from flask_login import LoginManager

login_manager = LoginManager()


def create_app():
    app = Flask(__name__)
    login_manager.init_app(app)
    from shop.auth import bp as auth_bp
    from shop.admin import bp as admin_bp

    app.register_blueprint(auth_bp)
    app.register_blueprint(admin_bp)
    return app
''',
    "shop/auth.py": '''"""Signing in and out."""
from flask import Blueprint, redirect, render_template, request
from flask_login import login_user, logout_user
from werkzeug.security import check_password_hash

from shop.models import User

bp = Blueprint("auth", __name__)


@bp.route("/login", methods=["POST"])
def login():
    """Sign a user in with their email and password; admins sign in here too."""
    user = User.query.filter_by(email=request.form["email"]).first()
    if user is None or not check_password_hash(user.password_hash, request.form["password"]):
        return render_template("login.html", error="wrong email or password"), 401
    login_user(user)
    return redirect("/")


@bp.route("/logout")
def logout():
    logout_user()
    return redirect("/")
''',
    "shop/decorators.py": '''"""Who may open which pages."""
import functools

from flask import abort
from flask_login import current_user


def admins_only(view):
    """Only administrators may open the page: everyone else gets 403 Forbidden."""

    @functools.wraps(view)
    def guarded(*args, **kwargs):
        if not current_user.is_authenticated or not current_user.is_admin:
            abort(403)
        return view(*args, **kwargs)

    return guarded
''',
    "shop/admin.py": '''"""The admin dashboard: statistics and the user list."""
from flask import Blueprint, render_template

from shop.decorators import admins_only
from shop.models import User

bp = Blueprint("admin", __name__, url_prefix="/admin")


@bp.route("/dashboard")
@admins_only
def dashboard():
    return render_template("admin/dashboard.html", users=User.query.count())


@bp.route("/users")
@admins_only
def users():
    return render_template("admin/users.html", users=User.query.all())
''',
    "shop/models.py": '''"""Users."""
from flask_sqlalchemy import SQLAlchemy

db = SQLAlchemy()


class User(db.Model):
    id = db.Column(db.Integer, primary_key=True)
    email = db.Column(db.String(120), unique=True)
    password_hash = db.Column(db.String(256))
    is_admin = db.Column(db.Boolean, default=False)
''',
}


INDEXED_APPS = {"shop": SHOP}  # indexed once for this module by the apps_home fixture (tests/conftest.py)


def _opening(apps_home: Path, question: str) -> str:
    return extractive_text(apps_home, "shop", question).split("\n")[0]


@pytest.mark.parametrize(
    "question",
    [
        "How are the admin dashboard's permissions checked?",
        "Who is allowed to open the user list, and where is that decided?",
    ],
)
def test_a_permission_question_opens_on_the_permission_check_not_on_signing_in(apps_home: Path, question: str) -> None:
    assert intents(question)[0] == "access"
    opening = _opening(apps_home, question)
    assert "signs the user in" not in opening and "checks the password" not in opening, opening
    assert "shop/decorators.py" in opening or "shop/admin.py" in opening, opening


def test_a_sign_in_question_still_opens_on_signing_in(apps_home: Path) -> None:
    opening = _opening(apps_home, "How does user authentication flow through the system?")
    assert "shop/auth.py" in opening and "signs the user in" in opening, opening
