"""Go: an import path names a package, i.e. a folder; the module path in ``go.mod`` says which folder.

``import "example.com/shop/internal/auth"`` with ``module example.com/shop`` in ``go.mod`` → every non-test
``.go`` file in ``internal/auth/``. Several ``go.mod`` files (a monorepo) each claim their prefix; the longest
wins. Without a ``go.mod`` in the index (an indexed subfolder) the import path is matched against folder names
from the end. Standard-library packages (no dot in the first element) are not reported.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from codeqa.explore.importers.project import Project, Resolution, join, parent

_BLOCK = re.compile(r"^\s*import\s*\(([^)]*)\)", re.M | re.S)
_LINE = re.compile(r'^\s*import\s+(?:[\w.]+\s+)?"([^"]+)"', re.M)
_QUOTED = re.compile(r'"([^"]+)"')
_MODULE = re.compile(r"^\s*module\s+(\S+)", re.M)
_HOSTS_WITH_OWNER = ("github.com", "gitlab.com", "bitbucket.org", "golang.org", "go.googlesource.com")


def import_paths(text: str) -> list[str]:
    found = _LINE.findall(text)
    for block in _BLOCK.findall(text):
        found += _QUOTED.findall(block)
    return list(dict.fromkeys(found))


def _prepare(project: Project) -> list[tuple[str, str]]:
    """(module path, its folder) per go.mod, longest module path first."""
    modules = []
    for path in project.named("go.mod"):
        if match := _MODULE.search(project.text(path)):
            modules.append((match.group(1).strip('"'), parent(path)))
    return sorted(modules, key=lambda m: -len(m[0]))


def _package(project: Project, folder: str | None) -> set[str]:
    if folder is None:
        return set()
    inside = project.folders.get("go", {}).get(folder, set())
    return {path for path in inside if not path.endswith("_test.go")} or set(inside)


def module_name(import_path: str) -> str:
    parts = import_path.split("/")
    return "/".join(parts[:3] if parts[0] in _HOSTS_WITH_OWNER else parts[:2])


def resolve(import_path: str, project: Project) -> Resolution:
    modules = project.cached("go", _prepare)
    for module, folder in modules:
        if import_path == module or import_path.startswith(module + "/"):
            return _package(project, join(folder, import_path[len(module) :].lstrip("/"))), None
    if "." not in import_path.split("/")[0]:
        return set(), None  # the standard library
    if not modules:  # no go.mod indexed: match folders from the end of the import path
        parts = import_path.split("/")
        folders = project.folders.get("go", {})
        for start in range(1, len(parts)):
            tail = "/".join(parts[start:])
            hits = [f for f in folders if f == tail or f.endswith("/" + tail)]
            if hits:
                return _package(project, min(hits, key=len)), None
    return set(), module_name(import_path)


def imports(path: str, text: str, project: Project) -> Iterator[Resolution]:
    for import_path in import_paths(text):
        yield resolve(import_path, project)
