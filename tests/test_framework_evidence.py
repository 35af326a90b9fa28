"""An app's framework comes from what it declares and imports, never from a word: a Flask app whose comments compare
it to Django is a Flask app; a repository with a Flask ``backend/`` and a React ``frontend/`` has two parts, and an
answer names the one its cited code is in; with no manifest and no import, no framework is named, and a sentence
that would name one loses the name. Real indexes of small apps; the manifests of each ecosystem parse."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.constructs.mechanism import evidence
from codeqa.config import Settings
from codeqa.frameworks.evidence import Evidence, Found, imports_module
from codeqa.frameworks.manifests import dependencies
from codeqa.index import Index
from tests.framework_apps import FLASK_APP, SEEDS
from tests.helpers import ask_named

MANIFESTS = [  # (path, text, ecosystem, names it must declare)
    ("requirements.txt", "# web\nFlask>=2.3  # the app\nflask_login\n-r base.txt\n-e git+https://x/y.git#egg=Foo\n",
     "python", {"flask", "flask-login", "foo"}),
    ("requirements/prod.txt", "gunicorn==21.2 ; sys_platform != 'win32'\n", "python", {"gunicorn"}),
    ("pyproject.toml", '[project]\nname = "x"\ndependencies = ["Django>=5", "celery[redis]"]\n'
     '[project.optional-dependencies]\ndev = ["pytest"]\n[tool.poetry.dependencies]\npython = "^3.11"\nfastapi = "*"\n',
     "python", {"django", "celery", "pytest", "fastapi"}),
    ("setup.py", "from setuptools import setup\nsetup(name='x', install_requires=['flask>=2', 'requests'])\n",
     "python", {"flask", "requests"}),
    ("setup.cfg", "[options]\ninstall_requires =\n    Flask>=2\n    click\n", "python", {"flask", "click"}),
    ("Pipfile", '[packages]\ndjango = "*"\n[dev-packages]\npytest = "*"\n', "python", {"django", "pytest"}),
    ("Gemfile", "source 'https://rubygems.org'\ngem 'rails', '~> 7.1'\ngem \"devise\"\n", "ruby", {"rails", "devise"}),
    ("Gemfile.lock", "GEM\n  specs:\n    rails (7.1.0)\n      actionpack (= 7.1.0)\n\nDEPENDENCIES\n  rails\n",
     "ruby", {"rails"}),
    ("web/package.json", '{"dependencies": {"react": "^18"}, "devDependencies": {"vite": "^5"}}', "js",
     {"react", "vite"}),
    ("package.json", '{"name": "x",\n "dependencies": {"express": "^4",', "js", {"express"}),  # cut short
    ("composer.json", '{"require": {"php": ">=8.2", "laravel/framework": "^11"}}', "php", {"laravel/framework"}),
    ("pom.xml", "<project><parent><groupId>org.springframework.boot</groupId><artifactId>spring-boot-starter-parent"
     "</artifactId></parent><dependencies><dependency><groupId>org.springframework.boot</groupId>"
     "<artifactId>spring-boot-starter-web</artifactId></dependency></dependencies></project>", "jvm",
     {"org.springframework.boot:spring-boot-starter-web", "org.springframework.boot:spring-boot-starter-parent"}),
    ("build.gradle", "plugins {\n  id 'org.springframework.boot' version '3.2.0'\n}\ndependencies {\n"
     "  implementation 'org.springframework.boot:spring-boot-starter-web'\n}\n", "jvm",
     {"org.springframework.boot", "org.springframework.boot:spring-boot-starter-web"}),
    ("app/build.gradle.kts", 'dependencies {\n    implementation("io.ktor:ktor-server-core:2.3.0")\n}\n', "jvm",
     {"io.ktor:ktor-server-core"}),
    ("mix.exs", "defp deps do\n  [\n    {:phoenix, \"~> 1.7\"},\n    {:ecto_sql, \"~> 3.10\"}\n  ]\nend\n", "elixir",
     {"phoenix", "ecto_sql"}),
    ("go.mod", "module example.com/x\n\ngo 1.22\n\nrequire github.com/labstack/echo/v4 v4.11.0\n\nrequire (\n"
     "\tgithub.com/gin-gonic/gin v1.9.1\n)\n", "go", {"github.com/labstack/echo/v4", "github.com/gin-gonic/gin"}),
]  # fmt: skip


@pytest.mark.parametrize(("path", "text", "ecosystem", "names"), MANIFESTS, ids=[m[0] for m in MANIFESTS])
def test_each_ecosystems_manifest_declares_its_dependencies(path: str, text: str, ecosystem: str, names: set) -> None:
    found_ecosystem, found = dependencies(path, text)
    assert found_ecosystem == ecosystem and names <= found, found
    assert dependencies("src/settings.py", "install_requires=['django']") == ("", set())  # not a manifest


@pytest.mark.parametrize(
    ("text", "language", "module", "imports"),
    [
        ("from flask import Flask", "python", "flask", True),
        ("import flask.views as views", "python", "flask", True),
        ("from flask_login import LoginManager", "python", "flask", False),  # an extension, not the framework
        ("# from django.conf import settings", "python", "django", False),
        ('"""Unlike Django:\n\nfrom django.db import models\n"""\nx = 1', "python", "django", False),
        ('HELP = """Migrating?\nfrom django.db import models\n"""\nfrom flask import Flask', "python", "django", False),
        ('HELP = """Migrating?\nfrom django.db import models\n"""\nfrom flask import Flask', "python", "flask", True),
        ("import React, { useState } from 'react';", "javascript", "react", True),
        ("// import React from 'react'", "javascript", "react", False),
        ("const express = require('express');", "javascript", "express", True),
        ("import { Injectable } from '@angular/core';", "typescript", "@angular/core", True),
        ("use Illuminate\\Support\\Facades\\Route;", "php", "Illuminate", True),
        ("import org.springframework.web.bind.annotation.RestController;", "java", "org.springframework", True),
        ("  use Phoenix.Router", "elixir", "Phoenix", True),
        ('import (\n\t"net/http"\n)', "go", "net/http", True),
        ('require "rails/all"', "ruby", "rails", True),
    ],
)
def test_only_an_import_statement_is_evidence(text: str, language: str, module: str, imports: bool) -> None:
    assert imports_module(text, language, module) is imports


def test_a_name_the_evidence_does_not_back_is_dropped_not_softened() -> None:
    flask = Evidence((Found("Flask", "", "requirements.txt", "manifest"),))
    cited = ["core/audit.py"]
    assert flask.drop_unbacked("`Audit` is middleware: Django runs it on every request", cited) == (
        "`Audit` is middleware: the framework runs it on every request"
    )
    assert flask.drop_unbacked("`settings.py` configures Django's logging", cited) == "`settings.py` configures logging"
    assert flask.drop_unbacked("`app` builds the Flask application", cited) == "`app` builds the Flask application"
    assert flask.drop_unbacked("runs first (Next.js `middleware`), see `React.useState` (React)", cited) == (
        "runs first (`middleware`), see `React.useState`"
    )
    assert flask.drop_unbacked("Rails writes to the log", cited) == "The framework writes to the log"
    parts = Evidence((Found("Flask", "backend", "backend/requirements.txt", "manifest"),))
    assert parts.drop_unbacked("builds the Flask application", ["tools/run.py"]) == "builds the application"
    assert parts.opening("tools/run.py", "python") == "" and Evidence().opening("app.py", "python") == ""


def test_overlapping_parts_are_told_apart_by_the_files_ecosystem() -> None:
    rails = Evidence((Found("Rails", "", "Gemfile", "manifest"),))
    assert rails.opening("app/javascript/controllers/chat.js", "javascript") == "In this Rails app, "
    koel = Evidence((Found("Laravel", "", "composer.json", "manifest"), Found("Vue", "", "package.json", "manifest")))
    assert koel.opening("app/Http/Kernel.php", "php") == "In the Laravel backend, "
    assert koel.opening("resources/js/App.vue", "vue") == "In the Vue client, "
    assert koel.opening("scripts/release.py", "python") == ""  # two frameworks there, neither of its own
    stray = Evidence((Found("Flask", "", "requirements.txt", "manifest"),
                      *(Found("Django", "", f"app/compat{n}.py", "import") for n in range(3))))  # fmt: skip
    chosen = stray.framework_of("app/views.py", "python")
    assert chosen and chosen.framework == "Flask"
    declared = (Found("Express", "", "package.json", "manifest"), Found("React", "", "package.json", "manifest"))
    imported = (Found("Express", "", "server/app.js", "import"), Found("React", "", "client/src/App.jsx", "import"),
                Found("React", "", "client/src/Nav.jsx", "import"))  # fmt: skip
    mern = Evidence(declared + imported)
    assert mern.opening("server/routes/users.js", "javascript") == "In the Express backend, "
    assert mern.opening("client/src/api.js", "javascript") == "In the React client, "


LOOKALIKE_FLASK = {  # a Flask app that talks about Django in its comments, with a settings.py and a urls.py
    **FLASK_APP,
    "app/settings.py": '"""Settings, kept like Django\'s settings.py (INSTALLED_APPS, urlpatterns) for old hands."""\n'
    'import os\n\nSECRET_KEY = os.environ.get("SECRET_KEY", "dev")\n'
    "# django would list INSTALLED_APPS here; we register blueprints in create_app instead\n",
    "app/urls.py": "# Not django urlpatterns: the blueprints' routes live in app/auth/routes.py\nPREFIX = '/api'\n",
}
SPLIT_APP = {  # a Flask backend and a React client, each with its manifest
    "README.md": "# Notes\n\nA Flask API in backend/ and a React client in frontend/.\n",
    **{f"backend/{path}": text for path, text in FLASK_APP.items()},
    "frontend/package.json": '{"name": "notes-client", "dependencies": {"react": "^18.2.0", "react-dom": "^18.2.0"}}',
    "frontend/src/LoginForm.jsx": """import React, { useState } from 'react';
import { signIn } from './api';

export function LoginForm({ onSignedIn }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');

  async function submitLogin(event) {
    event.preventDefault();
    const user = await signIn(email, password);
    onSignedIn(user);
  }

  return <form onSubmit={submitLogin}><input value={email} onChange={e => setEmail(e.target.value)} /></form>;
}
""",
    "frontend/src/api.js": """export async function signIn(email, password) {
  const response = await fetch('/api/login', { method: 'POST', body: JSON.stringify({ email, password }) });
  if (!response.ok) throw new Error('sign-in failed');
  return response.json();
}
""",
}
UNDECLARED = {  # no manifest, no import: words in comments and a settings list are all it has
    "shop/settings.py": '"""Settings of the shop (the layout Django users expect)."""\n\n'
    'MIDDLEWARE = [\n    "core.audit.Audit",\n]\n',
    "shop/urls.py": "# django-style urlpatterns, resolved by our own router\nurlpatterns = []\n",
    "core/audit.py": '''"""Logs each request, the way Django middleware would."""
import logging

logger = logging.getLogger("audit")


class Audit:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        logger.info("user %s did %s", request.user, request.path)
        return self.get_response(request)
''',
}


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.conftest import init_repo
    from tests.helpers import build_index

    base = tmp_path_factory.mktemp("evidence")
    settings = Settings(home=base / "home")
    for name, files in {"lookalike": LOOKALIKE_FLASK, "split": SPLIT_APP, "undeclared": UNDECLARED}.items():
        build_index(str(init_repo(base / name, files)), settings, name=name)
    return base / "home"


def _opening(home: Path, name: str, question: str) -> str:
    text = ask_named(name, question, Settings(home=home), backend="none").result().text
    return text.split("\n")[0].removeprefix("**Extractive map — not generated by a language model.** ")


@pytest.mark.parametrize("kind", sorted(SEEDS))
def test_a_flask_app_that_mentions_django_is_a_flask_app(home: Path, kind: str) -> None:
    opening = _opening(home, "lookalike", SEEDS[kind])
    assert opening.startswith("In this Flask app, ") and "Django" not in opening, opening


def test_each_part_gets_its_framework_and_the_answer_names_the_cited_part(home: Path) -> None:
    index = Index.open("split", Settings(home=home))
    found = evidence(AnswerContext.from_index(index, [], []))
    backend = found.framework_of("backend/app/auth/routes.py", "python")
    client = found.framework_of("frontend/src/LoginForm.jsx", "jsx")
    assert backend and (backend.framework, backend.part) == ("Flask", "backend")
    assert client and (client.framework, client.part) == ("React", "frontend")
    assert found.framework_of("README.md", "markdown") is None  # the root is no part of either
    opening = _opening(home, "split", SEEDS["errors"])
    cited = re.search(r"`([\w./-]+):\d+(?:-\d+)?`", opening)
    assert cited and cited.group(1).startswith("backend/"), opening
    assert opening.startswith("In the Flask backend (`backend/`), ") and "React" not in opening, opening
    opening = _opening(home, "split", "Which component renders the email input field and keeps its state?")
    assert opening.startswith("In the React client (`frontend/`), ") and "Flask" not in opening, opening


def test_no_manifest_and_no_import_names_no_framework(home: Path) -> None:
    index = Index.open("undeclared", Settings(home=home))
    assert evidence(AnswerContext.from_index(index, [], [])).frameworks() == ()
    opening = _opening(home, "undeclared", SEEDS["logging"])
    assert "audit.py" in opening and not opening.startswith("In ") and "Django" not in opening, opening
    # the construct stays, the name goes
    assert "is middleware: once `MIDDLEWARE` lists it, the framework runs it on every request" in opening


def test_a_pyproject_that_does_not_parse_declares_only_its_dependency_strings() -> None:
    """A pyproject.toml cut short or written by hand wrong was read for every quoted string: a description that says
    "A Django-style admin for Flask" declared ``django`` (issue #35, class 1: framework from a word)."""
    text = (
        '[project]\nname = "shop"\ndescription = "A Django-style admin for Flask apps"\n'
        'dependencies = [\n    "flask>=3",  # the app\n    "flask-login",\n]\n'
        '[project.optional-dependencies]\ndev = ["pytest"]\n'
        '[tool.poetry.dependencies]\npython = "^3.11"\nsqlalchemy = "*"\n'
        '[tool.ruff]\nextend-exclude = ["rails_app"]\n'
        "broken = = \n"
    )
    _, found = dependencies("pyproject.toml", text)
    assert found == {"flask", "flask-login", "pytest", "sqlalchemy"}, found
