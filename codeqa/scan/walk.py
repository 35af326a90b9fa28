"""Walk a working tree without following symlinks, applying ``.gitignore`` rules and skipping vendored folders.

Only ``.gitignore`` files and ``.git/info/exclude`` are honoured (not the user's global excludes file: what gets
indexed should not depend on who indexes it). A skipped *directory* is reported once, its path ending in ``/``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from pathspec import GitIgnoreSpec

from codeqa.records import SkipReason

VCS_DIRS = frozenset({".git", ".hg", ".svn", ".bzr", "_darcs", ".jj", "CVS"})
VENDORED_DIRS = frozenset(
    {
        "node_modules", "vendor", "third_party", "bower_components", "dist", "build", "out", "target",
        ".venv", "venv", "__pycache__", ".tox", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".next",
        ".nuxt", "coverage", "site-packages", ".idea", ".vscode", ".gradle", ".terraform",
    }
)  # fmt: skip


@dataclass(frozen=True)
class _Ignore:
    """The patterns of one ignore file, matched relative to the directory that holds it."""

    base: str  # repo-relative directory, "" for the root
    spec: GitIgnoreSpec


def _load_ignore(path: Path, base: str) -> _Ignore | None:
    """Parse one ignore file; a symlinked or unreadable one is not trusted (it could point anywhere)."""
    try:
        if path.is_symlink() or not path.is_file():
            return None
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    spec = GitIgnoreSpec.from_lines(lines)
    return _Ignore(base, spec) if len(spec) else None


def _is_ignored(layers: tuple[_Ignore, ...], rel: str, is_dir: bool) -> bool:
    """Git semantics: the deepest ignore file with a matching pattern decides (``!`` can re-include)."""
    for layer in reversed(layers):
        sub = rel[len(layer.base) + 1 :] if layer.base else rel
        result = layer.spec.check_file(sub + "/" if is_dir else sub)
        if result.include is not None:
            return bool(result.include)
    return False


def _is_vendored_dir(name: str, path: str) -> bool:
    """Dependency, build and tool directories; ``env`` only when it really is a virtualenv or conda env."""
    if name in VENDORED_DIRS or name.endswith(".egg-info"):
        return True
    return name == "env" and (os.path.exists(os.path.join(path, "pyvenv.cfg")) or os.path.isdir(path + "/conda-meta"))


def _initial_layers(root: Path, subdir: str) -> tuple[_Ignore, ...]:
    """``.git/info/exclude`` (lowest precedence), then each ``.gitignore`` from the root down to ``subdir``."""
    layers = [_load_ignore(root / ".git" / "info" / "exclude", ""), _load_ignore(root / ".gitignore", "")]
    parts = PurePosixPath(subdir).parts if subdir else ()
    for depth in range(1, len(parts)):
        base = "/".join(parts[:depth])
        layers.append(_load_ignore(root / base / ".gitignore", base))
    return tuple(layer for layer in layers if layer is not None)


Candidate = tuple[str, os.DirEntry[str] | None, SkipReason | None]


def is_utf8(name: str) -> bool:
    """False for a name the file system gave as bytes that are not UTF-8 (Python holds them as surrogates)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def shown_name(name: str) -> str:
    """A name as text: bytes that are not UTF-8 written as ``\\xe9`` (``caf\\xe9.py``)."""
    return os.fsencode(name).decode("utf-8", "backslashreplace")


def iter_candidate_paths(root: Path, *, subdir: str = "") -> Iterator[Candidate]:
    """Walk below ``root/subdir`` without following symlinks: yields (rel, entry, skip_reason).

    ``entry`` is None for a skipped directory (``rel`` then ends in ``/``); ``skip_reason`` is None for a regular
    file that passed the ignore rules and still needs examining.
    """
    start = root / subdir if subdir else root
    layers = _initial_layers(root, subdir)
    if subdir:
        layers += tuple(x for x in [_load_ignore(start / ".gitignore", subdir)] if x is not None)
    stack: list[tuple[str, str, tuple[_Ignore, ...]]] = [(str(start), subdir, layers)]
    while stack:
        abs_dir, rel_dir, layers = stack.pop()
        try:
            with os.scandir(abs_dir) as scan:
                entries = sorted(scan, key=lambda e: e.name, reverse=True)
        except OSError:
            yield rel_dir + "/", None, SkipReason.UNREADABLE
            continue
        if rel_dir and any(e.name == ".gitignore" for e in entries):
            extra = _load_ignore(Path(abs_dir) / ".gitignore", rel_dir)
            layers = layers + (extra,) if extra else layers
        for entry in entries:
            name = entry.name
            rel = f"{rel_dir}/{name}" if rel_dir else name
            if name in VCS_DIRS:
                continue
            if not is_utf8(name):  # every later stage (embedding, store, pages) needs text: skip it, say so readably
                folder = "/" if entry.is_dir(follow_symlinks=False) and not entry.is_symlink() else ""
                yield shown_name(rel) + folder, None, SkipReason.UNDECODABLE_NAME
            elif entry.is_symlink():
                yield rel, entry, SkipReason.SYMLINK
            elif entry.is_dir(follow_symlinks=False):
                if _is_vendored_dir(name, entry.path):
                    yield rel + "/", None, SkipReason.VENDORED
                elif layers and _is_ignored(layers, rel, True):
                    yield rel + "/", None, SkipReason.GITIGNORED
                else:
                    stack.append((entry.path, rel, layers))
            elif not entry.is_file(follow_symlinks=False):
                yield rel, entry, SkipReason.UNSUPPORTED_TYPE  # fifo, socket, device: never opened
            elif layers and _is_ignored(layers, rel, False):
                yield rel, entry, SkipReason.GITIGNORED
            else:
                yield rel, entry, None
