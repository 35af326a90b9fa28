"""Python: absolute imports against the package roots, relative imports against the importing package.

A package root is a folder from which ``import a.b`` finds ``a/b.py`` or ``a/b/__init__.py``: the roots of
``rules.toml``, the folder of a script that runs the whole project from there (Django's ``manage.py``: an empty
``__init__.py`` is never indexed, so its package is not seen) and the parent of every top-level package (a folder
with ``__init__.py`` whose own parent has none).
A script's folder (no ``__init__.py``) is on ``sys.path`` when it runs, so it is a root for the files in it. No
suffix guessing: ``import json`` is a repository file only if a root holds ``json.py``; otherwise it is the
standard library (not reported) or an external package.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence

from codeqa.chunk.resolve.project import RULES, Project, Resolution, first_file, join, parent
from codeqa.chunk.resolve.scope import NameScope
from codeqa.records import FileTags

_RULES = RULES["python"]
_STDLIB = frozenset(sys.stdlib_module_names) | frozenset(_RULES["not_packages"])
_MARKERS = tuple("/" + name for name in _RULES["package_markers"])


class _Modules:
    """Module lookups of one repository, each (folder, dotted name) looked up once: files import the same modules."""

    def __init__(self, files: frozenset[str]) -> None:
        self.files = files
        self._found: dict[tuple[str, str], str | None] = {}

    def __call__(self, base: str, dotted: str) -> str | None:
        key = (base, dotted)
        if key not in self._found:
            self._found[key] = first_file(self.files, join(base, dotted.replace(".", "/")), _RULES["module_files"])
        return self._found[key]


def _prepare(project: Project) -> tuple[_Modules, frozenset[str], list[str]]:
    files = project.family_files("python")
    packages = frozenset(parent(p) for p in files if p.endswith(_MARKERS))
    roots = set(_RULES["roots"])
    roots |= {parent(p) for p in files if p.rpartition("/")[2] in _RULES["root_scripts"]}
    for package in packages:
        top = package
        while parent(top) in packages and top:
            top = parent(top)
        roots.add(parent(top))
    return _Modules(files), packages, sorted(roots, key=lambda r: (r.count("/"), r))


def _from_base(lookup: _Modules, base: str, module: str, names: tuple[str, ...]) -> set[str]:
    """``from module import names`` looked up under ``base``: submodules first, else the module itself."""
    found = {hit for name in names if (hit := lookup(base, f"{module}.{name}" if module else name))}
    if not found and (hit := lookup(base, module)):
        found.add(hit)
    if not found and module:  # import a.b.c where c is a name inside a/b.py
        parts = module.split(".")
        for end in range(len(parts) - 1, 0, -1):
            if hit := lookup(base, ".".join(parts[:end])):
                return {hit}
    return found


def imports(tags: FileTags, project: Project) -> Iterator[Resolution]:
    modules, packages, roots = project.cached("python", _prepare)
    own = parent(tags.path)
    search = roots if own in packages else [*roots, own]
    for ref in tags.imports:
        module = ref.target
        dots = len(module) - len(module.lstrip("."))
        if dots:
            base = own
            for _ in range(dots - 1):
                base = parent(base)
            yield _from_base(modules, base, module.lstrip("."), ref.names), None
            continue
        found: set[str] = set()
        for root in search:
            found = _from_base(modules, root, module, ref.names)
            if found:
                break
        top = module.split(".")[0]
        folders = project.folders.get("python", {})
        internal = any(modules(root, top) or join(root, top) in folders for root in search)
        yield found, None if found or internal or top in _STDLIB else top


def marker_tags(paths: Iterable[str]) -> list[FileTags]:
    """Tags for the package markers among files the index skipped (an empty ``__init__.py`` is never indexed, yet it
    makes its folder a package): empty, they only tell the resolver where the packages are."""
    return [FileTags(path, "python") for path in paths if path.rpartition("/")[2] in _RULES["package_markers"]]


def _with_entries(files: set[str], graph: Mapping[str, Sequence[str]]) -> frozenset[str]:
    """``files`` and, for a package entry among them (``__init__.py``), the files it imports (its re-exports)."""
    found = set(files)
    for path in files:
        if path.endswith("__init__.py"):
            found.update(graph.get(path, ()))
    return frozenset(found)


def name_scope(tags: FileTags, project: Project, graph: Mapping[str, Sequence[str]]) -> NameScope:
    """``tags.path``'s name scope, its imports resolved as ``imports`` resolves them (``graph``: every file's)."""
    own_family = project.family_files("python")
    bound: dict[str, frozenset[str]] = {}
    modules: set[str] = set()
    for ref, (found, _) in zip(tags.imports, imports(tags, project), strict=True):
        files = found & own_family
        if not ref.names:  # import a.b.c, from m import *
            modules |= files
        for dotted in ref.names:
            name = dotted.rpartition(".")[2]
            module = {f for f in files if f.endswith((f"/{name}.py", f"/{name}/__init__.py")) or f == f"{name}.py"}
            modules |= module
            bound[name] = frozenset() if module else _with_entries(files, graph)  # a module is no definition
    imported = _with_entries(set(graph.get(tags.path, ())), graph)
    own = frozenset(d.name for d in tags.definitions)
    return NameScope(imported, _with_entries(modules, graph), bound, own)
