"""An answer names who does what its cited line shows (#35, class 2: "a chunk named after its first symbol"): a chunk
holding four small error handlers is not its first handler, and a function that registers ``app.after_request(f)``
does not itself run after every request — ``f`` does. A real index of a small Flask app."""

from __future__ import annotations

import re
from pathlib import Path

from tests.helpers import extractive_text

APP: dict[str, str] = {
    "requirements.txt": "flask\n",
    "site/__init__.py": '''"""The application factory."""
from flask import Flask

from site.errors import errors_bp
from site.hooks import add_handlers


def create_app():
    app = Flask(__name__)
    add_handlers(app)
    app.register_blueprint(errors_bp)
    return app
''',
    "site/hooks.py": '''"""Request hooks."""
import time

from flask import g, request


def start_timer():
    g.started = time.monotonic()


def record_visit(response):
    print(request.path, response.status_code, time.monotonic() - g.started)
    return response


def add_handlers(app):
    app.before_request(start_timer)
    app.after_request(record_visit)
''',
    "site/errors.py": '''"""Error pages."""
from flask import Blueprint, jsonify

errors_bp = Blueprint("errors", __name__)


@errors_bp.app_errorhandler(400)
def handle_bad_request(exc):
    return jsonify(error="bad request"), 400


@errors_bp.app_errorhandler(404)
def handle_not_found(exc):
    return jsonify(error="not found"), 404


@errors_bp.app_errorhandler(500)
def handle_server_error(exc):
    return jsonify(error="server error"), 500
''',
}


INDEXED_APPS = {"site": APP}  # indexed once for this module by the apps_home fixture (tests/conftest.py)


def test_handlers_in_one_chunk_are_not_all_its_first_handler(apps_home: Path) -> None:
    opening = extractive_text(apps_home, "site", "What happens when an API request fails?").split("\n")[0]
    assert "`handle_bad_request` (`site/errors.py" not in opening or "`404`" not in opening, opening
    assert "errors for the whole app" in opening, opening


def test_a_registered_hook_is_the_function_that_runs(apps_home: Path) -> None:
    text = extractive_text(apps_home, "site", "Where would I add logging to track user behavior?")
    opening = text.split("\n")[0]
    assert "`add_handlers` (`site/hooks.py:1-18`) runs" not in opening, opening  # it registers them, once
    assert "`record_visit` (registered at `site/hooks.py:18`) runs after every request" in opening, opening
    assert "`start_timer` (registered at `site/hooks.py:17`) runs before every request" in opening, opening
    assert re.search(
        r"\*\*Where to add it:\*\* in `(start_timer|record_visit)` \(registered at `site/hooks.py:1[78]`\)", text
    ), text
