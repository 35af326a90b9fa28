"""Rust: ``mod x;`` is ``x.rs`` or ``x/mod.rs`` beside the module, ``use crate::a::b`` walks modules from the crate.

A module's folder is its file's folder for ``lib.rs``/``main.rs``/``mod.rs`` and ``<file stem>/`` otherwise;
``crate::`` starts at the folder of the nearest crate root above the file, ``super::`` one module up, ``self::``
here. The longest prefix of the path that names a module file wins (``crate::store::Key`` → ``store.rs``).
Another crate's name is reported as a package (``std``, ``core`` and ``alloc`` are not).
"""

from __future__ import annotations

from collections.abc import Iterator

from codeqa.chunk.resolve.project import RULES, Project, Resolution, first_file, join, parent
from codeqa.records import FileTags

_RULES = RULES["rust"]
_ROOTS = tuple(_RULES["crate_roots"])
_NOT_CRATES = frozenset(_RULES["not_crates"])


def module_folder(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    return parent(path) if name in (*_ROOTS, "mod.rs") else path[: -len(".rs")]


def _crate_folder(path: str, files: frozenset[str]) -> str:
    folder = parent(path)
    while True:
        if any(join(folder, root) in files for root in _ROOTS):
            return folder
        if not folder:
            return parent(path)
        folder = parent(folder)


def _walk(files: frozenset[str], folder: str, segments: list[str]) -> str | None:
    """The deepest module file along ``segments`` from ``folder``."""
    found = None
    for segment in segments:
        hit = first_file(files, join(folder, segment), _RULES["module_files"])
        if hit is None:
            break
        found, folder = hit, module_folder(hit)
    return found


def imports(tags: FileTags, project: Project) -> Iterator[Resolution]:
    files = project.family_files("rust")
    here = module_folder(tags.path)
    for ref in tags.imports:
        if ref.kind == "relative":  # mod x;
            hit = first_file(files, join(here, ref.target), _RULES["module_files"])
            yield ({hit} if hit else set()), None
            continue
        segments = [s for s in ref.target.split("::") if s]
        if not segments:
            continue
        head = segments[0]
        if head == "crate":
            start, rest = _crate_folder(tags.path, files), segments[1:]
        elif head in ("super", "self"):
            start, rest = here, segments
            while rest and rest[0] in ("super", "self"):
                start = parent(start) if rest.pop(0) == "super" else start
        else:
            yield set(), None if head in _NOT_CRATES else head
            continue
        names = [*rest, ""]
        hits = {hit for name in ref.names if (hit := _walk(files, start, [*rest, name]))} if ref.names else set()
        hit = _walk(files, start, names[:-1]) if not hits else None
        yield hits | ({hit} if hit else set()), None
