"""False on Tandoor (a Django + Vue app in no data set), asked where to add logging to track user behavior: "In the
Django backend, ``Integration.do_import`` (``cookbook/integration/integration.py:140-176``) calls
``self.get_recipe_from_file()`` — a method at least 25 classes in 25 other files define — so each request a class
derived from ``Integration`` handles passes here". ``Integration`` is the base of the recipe importers: a view builds
one with the request and keeps it (``self.request.space``), but no importer handles a request. A template method
counts as a request handler's only where its chain is handed or reads a request, not where a class keeps one as an
attribute."""

from __future__ import annotations

import re

from codeqa.config import Settings
from tests.test_basehook import BASE, HANDLERS, _handler, answer

# the base handler of tests/test_basehook.py, reading the request it keeps (`self.request.path`) as the importers do
KEPT = re.sub(r"(?<![\w.])request\b", "self.request", BASE).replace("from flask import self.request\n", "")

IMPORTER = {
    "requirements.txt": "django==5.0\n",
    "app/__init__.py": "",
    "app/base.py": "from web.rh import RH\n",
    "web/__init__.py": "",
    "web/rh.py": KEPT,
    **{f"app/pages/page{n}.py": _handler(n, "RH", "self.request") for n in range(HANDLERS)},
}
INDEXED_APPS = {"importer": IMPORTER}  # indexed once by apps_home (tests/conftest.py)


def test_the_fixture_keeps_the_request_as_an_attribute_only() -> None:
    assert "self.request.method" in KEPT and "from flask" not in KEPT
    assert not re.search(r"(?<![\w.])request\b", KEPT)


def test_a_template_method_reading_a_kept_request_is_no_request_handler(apps_settings: Settings) -> None:
    text = answer(apps_settings, "importer")
    assert "so each request a class derived from" not in text, text
    assert "Where to add it:** in `RH.process`" not in text, text
