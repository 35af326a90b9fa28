"""A method called on an object another module makes of its own class is a call of that class's method (issue #35,
names resolved through imports): indico's controllers call ``multipass.handle_login_form(…)`` where
``indico/core/auth.py`` ends in ``multipass = IndicoMultipass()``. And a module-level name bound to an object is
read as a variable, whatever node the grammar wraps the assignment in.

A small real Flask app, cut by the real chunker (tree-sitter); the checker reads the files through the context.
"""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.calls.claims import ClaimChecker
from codeqa.chunk import chunk_file
from codeqa.chunk.resolve.pyscope import module_objects, parse_scope
from codeqa.records import Chunk, Hit, SourceFile

AUTH = '''from flask_multipass import Multipass


class AppMultipass(Multipass):
    """Sign-in through the configured providers."""

    def handle_login_form(self, provider, data):
        if not data.get("password"):
            return None
        return super().handle_login_form(provider, data)

    def redirect_success(self):
        return "/"


def make_limiter():
    return {}


multipass = AppMultipass()
limiter = make_limiter()
'''

VIEWS = """from flask import request

from app.core.auth import limiter, multipass


def login():
    provider = request.form["provider"]
    limiter.handle_login_form(provider)
    response = multipass.handle_login_form(provider, request.form)
    return response or "/login"
"""

FILES = {"app/core/auth.py": AUTH, "app/views.py": VIEWS, "app/__init__.py": "", "app/core/__init__.py": ""}


def _chunks() -> list[Chunk]:
    return [chunk for path, text in FILES.items() if text
            for chunk in chunk_file(SourceFile(path, "python", text, len(text)))]  # fmt: skip


def test_a_method_called_on_an_imported_module_object_is_its_classs() -> None:
    chunks = _chunks()
    view = next(chunk for chunk in chunks if chunk.symbol == "login")
    form = next(chunk for chunk in chunks if chunk.path == "app/core/auth.py" and "def handle_login_form" in chunk.text)
    context = AnswerContext.from_chunks(chunks, [Hit(view, 1.0, view.id)])
    checker = ClaimChecker(context)
    use = checker.link(view, form, context.imports([view.path, form.path]), names=["handle_login_form"])
    assert use is not None and use.verb == "calls"
    assert (use.name, use.line) == ("AppMultipass.handle_login_form", 1 + VIEWS.split("\n").index(
        "    response = multipass.handle_login_form(provider, request.form)"))  # fmt: skip
    assert module_objects("app/core/auth.py", AUTH) == {"multipass": "AppMultipass"}  # `limiter` is a function's dict


def test_module_level_assignments_are_variables() -> None:
    parsed = parse_scope("app/core/auth.py", AUTH)
    assert parsed is not None
    assert parsed[1].assigned == {"multipass": "AppMultipass", "limiter": ""}
