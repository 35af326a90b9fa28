"""Go's packages, for a call claim checked by name: a type written with its package (`*storage.Storage`) or a
package-qualified call (`db.GetUserById`) is in the folder the caller's file imports under that name; a bare type is
of the caller's own package (its folder). The folder is the import path's end (``heckel.io/ntfy/v2/user`` is the
root's ``user/`` when the module is the repository), or its last two parts end the folder's path (a module in a
subfolder: ``…/internal/storage`` is ``backend/internal/storage/``)."""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from codeqa.records import Chunk

_GO_IMPORT_BLOCK = re.compile(r"^import\s*\((.*?)^\)", re.MULTILINE | re.DOTALL)
_GO_IMPORT = re.compile(r'^\s*(?:import\s+)?(?:(\w+|\.)\s+)?"([^"]+)"\s*$', re.MULTILINE)


def names_folder(import_path: str, folder: str) -> bool:
    """Whether ``import_path`` can name the package in ``folder`` (a path from the index's root): the path ends with
    the whole folder (a module the repository's root holds; not the standard library's ``net/http`` for a local
    ``http/``, whose first part has no dot), or the folder ends with the path's last two parts."""
    parts = import_path.split("/")
    if "." in parts[0] and len(parts) > 1 and import_path.endswith("/" + folder):
        return True
    return ("/" + folder).endswith("/" + "/".join(parts[-2:]))


def go_imports(user_file: str) -> list[tuple[str, str]]:
    """(name, path) of each package a Go file imports: the alias, else the path's last part."""
    blocks = "\n".join(m.group(1) for m in _GO_IMPORT_BLOCK.finditer(user_file))
    lines = blocks + "\n" + "\n".join(re.findall(r'^import\s+(?:(?:\w+|\.)\s+)?"[^"]+"\s*$', user_file, re.MULTILINE))
    return [(named or path.rsplit("/", 1)[-1], path) for named, path in _GO_IMPORT.findall(lines)]


def go_package(name: str, user: Chunk, used: Chunk, user_file: str, receiver: str = "") -> bool:
    """Go: a type written with its package (`*storage.Storage`) is in the folder its import names (the import path's
    last two parts, `…/internal/storage`); a bare type is of the caller's own package, its folder. Where the
    ``receiver`` is declared with the type, its declarations tell which: ntfy's ``func (s *Server)`` is the caller's
    own `Server`, though the file also builds an ``&http.Server{…}``."""
    folder = PurePosixPath(used.path).parent.as_posix()
    aliases = set(re.findall(rf"(?<![\w.])(\w+)\.{re.escape(name)}\b", user_file))
    if receiver and (declared := _declared_with(receiver, name, user_file)):
        if "" in declared and len(declared) > 1:
            return False  # `s` a *Server here, an *http.Server there: which one this is, no line tells
        aliases = declared - {""}
    if not aliases:
        return folder == PurePosixPath(user.path).parent.as_posix()
    imported = go_imports(user_file)
    for alias in aliases:
        paths = [path for named, path in imported if named == alias]
        if len(paths) != 1 or not names_folder(paths[0], folder):
            return False
    return True


def go_imported(receiver: str, used: Chunk, user_file: str) -> bool | None:
    """Go: whether ``receiver`` names a package the caller's file imports whose folder is ``used``'s (the import
    path's last two parts); None when it names no imported package."""
    paths = [path for named, path in go_imports(user_file) if named == receiver]
    if not paths:
        return None
    return len(paths) == 1 and names_folder(paths[0], PurePosixPath(used.path).parent.as_posix())


def go_same_package(user: Chunk, used: Chunk, user_file: str) -> bool:
    """Go: whether a bare name in ``user`` can reach ``used``: it is of the caller's own package (its folder), or of
    a package the caller's file imports with a dot (``import . "…/helpers"``)."""
    folder = PurePosixPath(used.path).parent.as_posix()
    if folder == PurePosixPath(user.path).parent.as_posix():
        return True
    return any(named == "." and names_folder(path, folder)
               for named, path in go_imports(user_file))  # fmt: skip


# the receiver declared with the type, and the package written before it ("" when bare): a method's receiver
# `func (s *Server)`, a parameter, field or var `s *http.Server`, a composite literal `s := &Server{`
_DECLARED_WITH = (
    r"\(\s*{receiver}\s+\*?(?:(\w+)\.)?{name}\s*\)|(?:^|[(,]|\bvar\b)[ \t]*{receiver}[ \t]+\*?(?:(\w+)\.)?{name}\b"
    r"(?![.(])|(?<![\w.]){receiver}\s*:=\s*&?(?:(\w+)\.)?{name}\{{"
)


def _declared_with(receiver: str, name: str, user_file: str) -> set[str]:
    """The packages ``receiver`` is declared with type ``name`` under in the caller's file ("" for the bare type)."""
    pattern = _DECLARED_WITH.format(receiver=re.escape(receiver), name=re.escape(name))
    return {next((group for group in m.groups() if group), "") for m in re.finditer(pattern, user_file, re.MULTILINE)}
