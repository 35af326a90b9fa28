"""A per-index lock file so two processes never build (or remove) the same index at once.

The lock is an ``flock`` on the file, so it is atomic and the kernel releases it when its holder exits, however it
exits: there is no stale lock to guess about. The holder writes its pid into the file for the "busy" message and
deletes the file on release while still holding the lock; a process that locked a file which was deleted under
it sees that the path no longer names its file and tries again, so there is never more than one holder.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path

from codeqa.errors import IndexBusyError

ATTEMPTS = 20


def process_alive(pid: int) -> bool:
    """True while process ``pid`` exists on this host."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _read_owner(path: Path) -> dict:
    try:
        owner = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return owner if isinstance(owner, dict) else {}


def _lock(path: Path) -> int | None:
    """A descriptor holding the lock on the file ``path`` names now, or None when another process holds it."""
    for _ in range(ATTEMPTS):
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return None
        try:
            same = os.stat(path).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            same = False
        if same:
            return fd
        os.close(fd)  # the holder before us deleted this file as it released it: lock the new one
    raise IndexBusyError(f"Could not take the lock {path}; another process keeps taking it. Try again.")


@contextlib.contextmanager
def index_lock(locks_dir: Path, name: str) -> Iterator[None]:
    """Hold the lock of index ``name``; ``IndexBusyError`` (naming the holder's pid) when another process has it."""
    locks_dir.mkdir(parents=True, exist_ok=True)
    path = locks_dir / f"{name}.lock"
    fd = _lock(path)
    if fd is None:
        pid = _read_owner(path).get("pid", "unknown")
        raise IndexBusyError(
            f"Index {name!r} is being built by another process (pid {pid}, lock {path}). Wait for it to finish: "
            "the lock is released by itself when that process ends."
        )
    try:
        owner = {"pid": os.getpid(), "host": socket.gethostname(), "since": time.time()}
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(owner).encode(), 0)
        yield
    finally:
        with contextlib.suppress(OSError):
            path.unlink()  # while still locked: whoever opened this file before sees it is gone and retries
        os.close(fd)


@contextlib.contextmanager
def folder_lock(path: Path) -> Iterator[None]:
    """Hold the lock file ``path``, waiting for whoever has it (runs on one shared clone take turns: one swaps its
    tree in and reads it while the others wait). Released and deleted like ``index_lock``'s."""
    path.parent.mkdir(parents=True, exist_ok=True)
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            same = os.stat(path).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)  # the holder before us deleted this file as it released it: lock the new one
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            path.unlink()
        os.close(fd)
