"""Ruby: ``require_relative`` against the file, ``require`` against the load path, and Rails/Zeitwerk autoloading.

``require 'shop/cart'`` looks in each ``lib/`` folder, ``test/`` and ``spec/`` (``require "test_helper"``) and
the root; what is not found is a gem (the standard library is not reported). In a Rails app nothing is required:
a constant is loaded from the file its name spells under an autoload root (every folder directly under ``app/``,
their ``concerns/``, and ``lib/``), so ``Admin::UsersController`` → ``app/controllers/admin/users_controller.rb``
and ``SyncJob`` inside ``module Billing`` → ``billing/sync_job.rb`` first. Those constant references (the
``constant`` and ``class`` references of the tag query) count as imports.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

from codeqa.chunk.resolve.project import RULES, Project, Resolution, join, parent, words
from codeqa.records import FileTags

_RULES = RULES["ruby"]
STDLIB = words(_RULES["stdlib"])
_CONSTANT_KINDS = frozenset({"constant", "class", "ancestor", "called_class"})  # references naming a constant
_NESTING_KINDS = frozenset({"module", "class"})


def underscore(constant: str) -> str:
    """``Admin::HTTPClient`` → ``admin/http_client`` (Zeitwerk's file name for a constant)."""
    words_ = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", constant.lstrip(":"))
    words_ = re.sub(r"([a-z\d])([A-Z])", r"\1_\2", words_)
    return words_.replace("::", "/").lower()


def _prepare(project: Project) -> tuple[frozenset[str], dict[str, str], list[str]]:
    """(ruby files, autoload name → file, load-path roots)."""
    files = project.family_files("ruby")
    app, lib = _RULES["autoload_app"], _RULES["autoload_lib"]
    roots: set[str] = set()
    for path in files:
        parts = path.split("/")
        if app in parts[:-2]:
            at = parts.index(app)
            folder = "/".join(parts[: at + 2])
            roots.update({folder, *(f"{folder}/{extra}" for extra in _RULES["autoload_extra"])})
    lib_roots = sorted({root for path in files if (root := _lib_root(path, lib))})
    lib_roots += [folder for folder in _RULES["load_path"] if any(p.startswith(folder + "/") for p in files)]
    autoload: dict[str, str] = {}
    for root in sorted(roots | ({lib} if roots else set()), key=lambda r: (r.count("/"), r)):
        for path in files:
            if path.startswith(root + "/") and path.endswith(".rb"):
                autoload.setdefault(path[len(root) + 1 : -3], path)
    return files, autoload, [*lib_roots, ""]


def _lib_root(path: str, lib: str) -> str | None:
    """The first ``lib/`` folder on ``path`` (``gems/x/lib/a.rb`` → ``gems/x/lib``)."""
    if path.startswith(f"{lib}/"):
        return lib
    at = path.find(f"/{lib}/")
    return path[: at + 1 + len(lib)] if at >= 0 else None


def _required(files: frozenset[str], roots: list[str], target: str) -> set[str]:
    name = target if target.endswith(".rb") else target + ".rb"
    return next(({path} for root in roots if (path := join(root, name)) in files), set())


def _autoloaded(autoload: dict[str, str], nesting: str, name: str, skip: Mapping[str, None]) -> str | None:
    """``Billing::Invoice::Line`` may be defined inside ``billing/invoice.rb``: try the longest file name first
    (files in ``skip`` do not count)."""
    parts = name.split("/")
    for end in range(len(parts), 0, -1):
        key = "/".join([nesting, *parts[:end]] if nesting else parts[:end])
        if key in autoload and autoload[key] not in skip:
            return autoload[key]
    return None


def singular(name: str) -> str:
    """``line_items`` → ``line_item``, ``categories`` → ``category`` (the endings of ``rules.toml``)."""
    for ending, replacement in _RULES["singular"]:
        if name.endswith(ending):
            return name[: len(name) - len(ending)] + replacement
    return name


def _names(tags: FileTags) -> set[str]:
    """Autoload names the file uses: constants (``Billing::Plan`` → ``billing/plan``) and associations."""
    names = {underscore(ref.name) for ref in tags.references if ref.category in _CONSTANT_KINDS}
    for ref in tags.references:
        if ref.category == "association":
            names.add(singular(ref.name.lstrip(":")))
    return names


def _constants(tags: FileTags, autoload: dict[str, str]) -> set[str]:
    """Files autoloaded by the constants the file uses, the file's own nesting (``module Billing``) first; a name
    that spells the file itself (``class Category::DeletionsController``) loads its namespace (``Category``)."""
    namespaces = nesting(tags)
    return {hit for name in _names(tags) if (hit := place(name, namespaces, autoload, tags.path))}


def nesting(tags: FileTags) -> list[str]:
    """The autoload names of the modules and classes a file opens (``module Billing`` → ``billing``)."""
    return [underscore(d.name) for d in tags.definitions if d.category in _NESTING_KINDS]


def place(name: str, namespaces: list[str], autoload: dict[str, str], path: str) -> str | None:
    """The file autoloading ``name`` (``billing/plan``) used in ``path`` within ``namespaces``, the innermost
    first; None: no file spells it (a gem's, or defined where Zeitwerk does not look)."""
    for within in [*(n for n in namespaces if not name.startswith(n + "/")), ""]:
        if hit := _autoloaded(autoload, within, name, {path: None}):
            return hit
    return None


def imports(tags: FileTags, project: Project) -> Iterator[Resolution]:
    files, autoload, roots = project.cached("ruby", _prepare)
    for ref in tags.imports:
        if ref.kind == "relative":
            hit = join(parent(tags.path), ref.target if ref.target.endswith(".rb") else ref.target + ".rb")
            yield ({hit} if hit is not None and hit in files else set()), None
        else:
            found = _required(files, roots, ref.target)
            gem = ref.target.split("/")[0]
            yield found, None if found or ref.target in STDLIB or gem in STDLIB else gem
    if autoload:
        yield _constants(tags, autoload), None
