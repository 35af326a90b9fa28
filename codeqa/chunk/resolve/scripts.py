"""Lua's ``require "a.b"`` (``a/b.lua`` or ``a/b/init.lua`` under the usual roots) and shell ``source``/``.``."""

from __future__ import annotations

from collections.abc import Iterator

from codeqa.chunk.resolve.project import RULES, Project, Resolution, first_file, join, parent
from codeqa.records import FileTags

_LUA = RULES["lua"]


def lua(tags: FileTags, project: Project) -> Iterator[Resolution]:
    files = project.family_files("lua")
    for ref in tags.imports:
        module = ref.target.replace(".", "/")
        hit = next((h for root in _LUA["roots"] if (h := first_file(files, join(root, module), _LUA["module_files"]))),
                   None)  # fmt: skip
        yield ({hit} if hit else set()), None if hit else ref.target.split(".")[0]


def shell(tags: FileTags, project: Project) -> Iterator[Resolution]:
    files = project.family_files("shell")
    for ref in tags.imports:
        hit = join(parent(tags.path), ref.target) if not ref.target.startswith("/") else None
        yield ({hit} if hit in files else set()), None
