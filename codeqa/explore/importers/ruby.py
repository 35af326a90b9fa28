"""Ruby: ``require_relative`` against the file, ``require`` against the load path, and Rails/Zeitwerk autoloading.

``require 'shop/cart'`` looks in each ``lib/`` folder, ``test/`` and ``spec/`` (``require "test_helper"``) and
the root; what is not found is a gem (the standard
library is not reported). In a Rails app nothing is required: a constant is loaded from the file its name
spells under an autoload root (every folder directly under ``app/``, their ``concerns/``, and ``lib/``), so
``Admin::UsersController`` → ``app/controllers/admin/users_controller.rb`` and ``SyncJob`` inside
``module Billing`` → ``billing/sync_job.rb`` first. Those constant references count as imports.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from codeqa.explore.importers.project import Project, Resolution, join, parent

_REQUIRE = re.compile(
    r"""^\s*(require|require_relative|load|autoload\s*\(?\s*:\w+\s*,)\s*\(?\s*['"]([^'"]+)['"]""", re.M
)
_CONSTANT = re.compile(r"(?<![\w:@$])(?:::)?([A-Z][A-Za-z0-9_]*(?:::[A-Z][A-Za-z0-9_]*)*)")
_MODULE = re.compile(r"^\s*(?:module|class)\s+([A-Z][\w:]*)", re.M)
_LIB = re.compile(r"^(.*?/)?lib/")
_APP_ROOT = re.compile(r"^(?:(.+)/)?app/([^/]+)/")
STDLIB = frozenset(
    """
    abbrev base64 benchmark bigdecimal cgi csv date delegate digest English erb etc fileutils find
    forwardable io/console ipaddr json logger matrix monitor net/http net/https objspace observer open-uri
    open3 openssl optparse ostruct pathname pp prettyprint pstore psych racc rbconfig readline resolv ripper
    securerandom set shellwords singleton socket stringio strscan syslog tempfile time timeout tmpdir tsort
    un uri weakref yaml zlib
    """.split()  # noqa: SIM905 - a word list reads better as text
)


def underscore(constant: str) -> str:
    """``Admin::HTTPClient`` → ``admin/http_client`` (Zeitwerk's file name for a constant)."""
    words = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", constant)
    words = re.sub(r"([a-z\d])([A-Z])", r"\1_\2", words)
    return words.replace("::", "/").lower()


def _prepare(project: Project) -> tuple[frozenset[str], dict[str, str], list[str]]:
    """(ruby files, autoload name → file, load-path roots)."""
    files = project.family_files("ruby")
    roots: set[str] = set()
    for path in files:
        if match := _APP_ROOT.match(path):
            app = join(match.group(1) or "", "app", match.group(2)) or ""
            roots.update({app, f"{app}/concerns"})
    lib_roots = sorted({(m.group(1) or "") + "lib" for path in files if (m := _LIB.match(path))})
    lib_roots += [folder for folder in ("test", "spec") if any(p.startswith(folder + "/") for p in files)]
    autoload: dict[str, str] = {}
    for root in sorted(roots | ({"lib"} if roots else set()), key=lambda r: (r.count("/"), r)):
        for path in files:
            if path.startswith(root + "/") and path.endswith(".rb"):
                autoload.setdefault(path[len(root) + 1 : -3], path)
    return files, autoload, [*lib_roots, ""]


def _required(files: frozenset[str], roots: list[str], target: str) -> set[str]:
    name = target if target.endswith(".rb") else target + ".rb"
    return next(({path} for root in roots if (path := join(root, name)) in files), set())


def _autoloaded(autoload: dict[str, str], nesting: str, name: str) -> str | None:
    """``Billing::Invoice::Line`` may be defined inside ``billing/invoice.rb``: try the longest file name first."""
    parts = name.split("/")
    for end in range(len(parts), 0, -1):
        key = "/".join([nesting, *parts[:end]] if nesting else parts[:end])
        if key in autoload:
            return autoload[key]
    return None


def _constants(path: str, text: str, autoload: dict[str, str]) -> set[str]:
    """Files autoloaded by the constants ``text`` mentions; the file's own nesting (``module Billing``) first."""
    namespaces = [underscore(m) for m in _MODULE.findall(text)]
    found: set[str] = set()
    for constant in set(_CONSTANT.findall(text)):
        name = underscore(constant)
        for nesting in [*(n for n in namespaces if not name.startswith(n + "/")), ""]:
            if hit := _autoloaded(autoload, nesting, name):
                found.add(hit)
                break
    return found - {path}


def imports(path: str, text: str, project: Project) -> Iterator[Resolution]:
    files, autoload, roots = project.cached("ruby", _prepare)
    for verb, target in _REQUIRE.findall(text):
        if verb == "require_relative":
            hit = join(parent(path), target if target.endswith(".rb") else target + ".rb")
            yield ({hit} if hit in files else set()), None
        else:
            found = _required(files, roots, target)
            gem = target.split("/")[0]
            yield found, None if found or target in STDLIB or gem in STDLIB else gem
    if autoload:
        yield _constants(path, text, autoload), None
