"""The app's own base request handler for "where would I add logging?" (issue #35): a class whose ``process`` calls
``self._do_process()``, which calls ``self._process()`` — the method its handler classes in many other files define
(a template method) — is where one line sees each request those classes handle, found by structure alone.

The apps: ``portal`` has a base handler ``RH`` (``web/rh.py``) and 22 handler modules whose classes define
``_process``; ``batch`` has the same shape in a report builder that never touches a request (not a request handler:
nothing is recommended from it).
"""

from __future__ import annotations

import re

from codeqa.answer.rendering.citations import check_citations
from codeqa.config import Settings
from tests.helpers import ask_named

HANDLERS = 22  # more than basehook.MIN_FILES other files


def _handler(n: int, base: str, arg: str) -> str:
    """A handler module whose class is long enough to be indexed method by method."""
    rows = "\n".join(f"        total_{i} = sum(value * {i} for value in self.values if value > {i})" for i in range(14))
    setup = "_process_args" if n else "_load"  # 21 of them: a hook too, reached through the same `_do_process`
    return f"""from app.base import {base}


class Page{n}({base}):
    def {setup}(self):
        self.values = [int(v) for v in {arg}.args.getlist("v{n}")]
{rows}
        self.total = total_0 + total_1

    def _process(self):
        result = []
{rows}
        result.append(total_0 + total_13)
        return {{"page": {n}, "result": result, "count": len(self.values)}}
"""


BASE = '''import logging

from flask import request

logger = logging.getLogger(__name__)
HTTP_VERBS = {"GET", "POST", "PUT", "PATCH", "DELETE"}


class RH:
    """The base of every request handler."""

    commit = True

    def _process_args(self):
        return None

    def _process(self):
        raise NotImplementedError(f"{type(self).__name__} must implement _process")

    def _check_access(self):
        if request.method not in HTTP_VERBS:
            raise ValueError("unexpected verb")
        if request.headers.get("X-Blocked"):
            raise PermissionError("blocked by the gateway header")
        return True

    def _do_process(self):
        args = self._process_args()
        if args is not None:
            return args
        self._check_access()
        rv = self._process()
        if rv is None:
            rv = {}
        return rv

    def normalize_url(self):
        path = request.path
        if path != path.lower():
            return path.lower()
        if path.endswith("//"):
            return path.rstrip("/") + "/"
        if "\\" in path:
            return path.replace("\\", "/")
        return None

    def client_info(self):
        agent = request.headers.get("User-Agent", "")
        language = request.headers.get("Accept-Language", "en").split(",")[0]
        forwarded = request.headers.get("X-Forwarded-For", request.remote_addr or "")
        return {"agent": agent[:200], "language": language, "address": forwarded.split(",")[0].strip()}

    def json_body(self):
        if not request.is_json:
            return {}
        body = request.get_json(silent=True) or {}
        if not isinstance(body, dict):
            raise ValueError("the request body must be a JSON object")
        return {key: value for key, value in body.items() if not key.startswith("_")}

    def csrf_token(self):
        token = request.headers.get("X-CSRF-Token") or request.form.get("csrf_token")
        if not token:
            raise PermissionError("no csrf token in the form or the headers")
        return token

    def process(self):
        if request.method not in HTTP_VERBS:
            raise ValueError(f"unexpected verb {request.method}")
        logger.debug("handling %s %s", request.method, request.path)
        res = self._do_process()
        if self.commit:
            logger.debug("committing %s", type(self).__name__)
        return res
'''

PORTAL = {
    "requirements.txt": "flask==3.0.0\n",
    "app/__init__.py": "",
    "app/base.py": "from web.rh import RH\n",
    "web/__init__.py": "",
    "web/rh.py": BASE,
    **{f"app/pages/page{n}.py": _handler(n, "RH", "request") for n in range(HANDLERS)},
}

BATCH = {
    "requirements.txt": "flask==3.0.0\n",
    "app/__init__.py": "",
    "app/base.py": "from web.rh import RH\n",
    "web/__init__.py": "",
    "web/rh.py": re.sub(r"\brequest\b", "job", BASE).replace("from flask import job", "from jobs import job"),
    **{f"app/pages/page{n}.py": _handler(n, "RH", "job") for n in range(HANDLERS)},
}

INDEXED_APPS = {"portal": PORTAL, "batch": BATCH}  # indexed once by apps_home (tests/conftest.py)
QUESTION = "Where would I add logging to track user behavior?"


def answer(apps_settings: Settings, name: str) -> str:
    result = ask_named(name, QUESTION, apps_settings, backend="none").result()
    assert not result.generated and check_citations(result.text, result.sources).invalid == []
    return result.text


def test_the_base_handler_every_handler_class_runs_is_where_to_add_it(apps_settings: Settings) -> None:
    text = answer(apps_settings, "portal")
    where = next(line for line in text.split("\n") if "**Where to add it:**" in line)
    conclusion = where[where.index("**Where to add it:**") :]
    assert conclusion.startswith("**Where to add it:** in `RH.process` (`web/rh.py:"), text
    # said once, of the most widely defined hook: `_process_args`, on the same way, is not a second reason
    reason = "calls `self._do_process()`, which calls `self._process()`"
    assert where.count(reason) == 1, where
    assert where.count(f"at least {HANDLERS} classes in {HANDLERS} other files define") == 1
    assert where.count("so each request a class derived from `RH` handles passes here") == 1
    assert "which calls `self._process_args()`" not in text, where
    assert not re.search(r"`RH\.process` \(`[^`]+`\) calls `RH\._do_process`", where), where  # said in the reason
    line = re.search(r"at `web/rh\.py:(\d+)`\.", conclusion)
    assert line is not None and BASE.split("\n")[int(line.group(1)) - 1].strip() == "res = self._do_process()"


def test_a_template_method_that_handles_no_request_is_not_recommended(apps_settings: Settings) -> None:
    text = answer(apps_settings, "batch")
    assert "so each request a class derived from" not in text
    assert "Where to add it:** in `RH.process`" not in text
