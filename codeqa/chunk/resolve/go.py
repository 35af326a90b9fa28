"""Go: an import path names a package, i.e. a folder; the module path in ``go.mod`` says which folder.

``import "example.com/shop/internal/auth"`` with ``module example.com/shop`` in ``go.mod`` → every non-test
``.go`` file in ``internal/auth/``. Several ``go.mod`` files (a monorepo) each claim their prefix; the longest
wins. Without a ``go.mod`` in the index (an indexed subfolder) the import path is matched against folder names
from the end. Standard-library packages (no dot in the first element) are not reported.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from codeqa.chunk.resolve.project import RULES, Project, Resolution, join, parent
from codeqa.records import FileTags

_RULES = RULES["go"]
_MODULE = re.compile(r"^\s*module\s+(\S+)", re.M)


def _prepare(project: Project) -> list[tuple[str, str]]:
    """(module path, its folder) per go.mod, longest module path first."""
    modules = []
    for path in project.named(_RULES["manifest"]):
        if match := _MODULE.search(project.text(path)):
            modules.append((match.group(1).strip('"'), parent(path)))
    return sorted(modules, key=lambda m: -len(m[0]))


def _package(project: Project, folder: str | None) -> set[str]:
    if folder is None:
        return set()
    inside = project.folders.get("go", {}).get(folder, set())
    return {path for path in inside if not path.endswith(_RULES["test_suffix"])} or set(inside)


def module_name(import_path: str) -> str:
    parts = import_path.split("/")
    return "/".join(parts[:3] if parts[0] in _RULES["hosts_with_owner"] else parts[:2])


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


def imports(tags: FileTags, project: Project) -> Iterator[Resolution]:
    for import_path in dict.fromkeys(ref.target for ref in tags.imports):
        yield resolve(import_path, project)
