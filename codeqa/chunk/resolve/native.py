"""C and C++: ``#include "x.h"`` beside the including file, then in the include folders, then by unique name.

``#include <x.h>`` is a system or library header: neither a repository file nor reported as a package.
"""

from __future__ import annotations

from collections.abc import Iterator

from codeqa.chunk.resolve.project import RULES, Project, Resolution, join, parent
from codeqa.records import FileTags

_ROOTS: list[str] = RULES["native"]["include_roots"]


def _include_roots(project: Project) -> list[str]:
    """Every folder named like an include root (``include``, ``src``), shallowest first, then the root."""
    folders: set[str] = set()
    for path in project.family_files("native"):
        parts = path.split("/")[:-1]
        folders.update("/".join(parts[: end + 1]) for end in range(len(parts)))
    named = [folder for folder in folders if folder.rsplit("/", 1)[-1] in _ROOTS]
    return [*sorted(named, key=lambda f: (f.count("/"), f)), ""]


def imports(tags: FileTags, project: Project) -> Iterator[Resolution]:
    files = project.family_files("native")
    roots = project.cached("native", _include_roots)
    for ref in tags.imports:
        if ref.kind == "system":
            continue
        beside = join(parent(tags.path), ref.target)
        hit = beside if beside in files else next((p for r in roots if (p := join(r, ref.target)) in files), None)
        if hit is None:
            unique = project.by_suffix("native", ref.target.rsplit(".", 1)[0], (".h", ".hpp", ".hh", ".hxx", ".c"))
            hit = next(iter(unique)) if len(unique) == 1 else None
        yield ({hit} if hit else set()), None
