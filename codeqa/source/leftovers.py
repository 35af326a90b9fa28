"""Clones nobody needs any more: temporary trees of killed clones, and clones no index owns and no run is using.

A run marks its clone in use (a shared lock, ``in_use``) from before the clone is swapped in until its index is
written; an index owns a clone when its manifest's root is that folder. A clone that is neither (the scan refused
it, its index was removed, its run was killed before the index was written) is deleted here, under its folder's lock
and after ownership is checked again, so a run that commits its index meanwhile keeps its clone.
"""

from __future__ import annotations

import contextlib
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

from codeqa.locks import process_alive, try_folder_lock, use_lock

_PARTIAL = re.compile(r"^\.(.+)\.(\d+)\.[a-z0-9_]{8}\.partial$")  # tempfile.mkdtemp's names in _clone
_OLD = re.compile(r"^\.(.+)\.old-(\d+)-\d+$")  # _swap_in's previous tree


def folder_lock_path(locks_dir: Path, name: str) -> Path:
    return locks_dir / "clones" / f"{name}.lock"


def _use_path(locks_dir: Path, name: str) -> Path:
    return locks_dir / "clones" / f"{name}.use"


@contextlib.contextmanager
def in_use(locks_dir: Path, name: str) -> Iterator[None]:
    """Mark clone ``name`` in use until the block ends (take it while holding the clone's folder lock)."""
    with use_lock(_use_path(locks_dir, name)):
        yield


def remove_dead_temporaries(clones_dir: Path) -> None:
    """Delete the temporary trees of clones whose process is gone (``.<name>.<pid>.….partial``, ``.old-<pid>-…``)."""
    for path in clones_dir.glob(".*") if clones_dir.is_dir() else ():
        match = _PARTIAL.match(path.name) or _OLD.match(path.name)
        if match and not process_alive(int(match[2])):  # a live process may still be cloning: leave it
            shutil.rmtree(path, ignore_errors=True)


def remove_unowned(clones_dir: Path, locks_dir: Path, owned: Callable[[], set[Path]],
                   only: Path | None = None) -> list[Path]:  # fmt: skip
    """Delete the clones (or clone ``only``) no index owns and no run is using; returns what was deleted."""
    remove_dead_temporaries(clones_dir)
    folders = [only] if only is not None else sorted(clones_dir.iterdir()) if clones_dir.is_dir() else []
    owners = owned()
    removed = []
    for folder in folders:
        if folder.name.startswith(".") or folder.parent != clones_dir or not folder.is_dir():
            continue  # a temporary tree (above), or not a clone
        if folder.resolve() in owners:
            continue
        with try_folder_lock(folder_lock_path(locks_dir, folder.name)) as mine:
            if not mine:
                continue  # a run is cloning or reading it
            with use_lock(_use_path(locks_dir, folder.name), exclusive=True) as unused:
                if not unused or folder.resolve() in owned():  # in use, or its index was written meanwhile
                    continue
                shutil.rmtree(folder, ignore_errors=True)
                _use_path(locks_dir, folder.name).unlink(missing_ok=True)
                removed.append(folder)
    return removed
