"""A per-index lock file so two processes never build (or remove) the same index at once.

The lock is an ``flock`` on the file, so it is atomic and the kernel releases it when its holder exits, however it
exits: there is no stale lock to guess about. The holder writes its pid into the file for the "busy" message and
deletes the file on release while still holding the lock; a process that locked a file which was deleted under
it sees that the path no longer names its file and tries again, so there is never more than one holder.

A forked child (the indexing worker) would share the lock's open file, and so keep the lock after its parent is
killed: every lock this process holds is closed in a forked child at once (``os.register_at_fork``), so the lock
stays its parent's alone. A lock kept by such an orphan anyway (one forked by an older codeqa, or by code that
forked differently) is recovered: when the recorded holder is dead, the processes still holding the file on this
host are stopped and the lock is taken.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import signal
import socket
import time
from collections.abc import Iterator
from pathlib import Path

from codeqa.errors import IndexBusyError

ATTEMPTS = 20
ORPHAN_GRACE_SECONDS = 5.0
_HELD: set[int] = set()  # descriptors of the locks this process holds


def _forget_held_in_child() -> None:
    for fd in _HELD:
        with contextlib.suppress(OSError):
            os.close(fd)  # the parent's copy keeps the lock; the child's must not
    _HELD.clear()


os.register_at_fork(after_in_child=_forget_held_in_child)


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


def _lock(path: Path, *, wait: bool = False) -> int | None:
    """A descriptor holding the lock on the file ``path`` names now; None when another process holds it (unless
    ``wait``: then its turn comes)."""
    attempt = 0
    while wait or attempt < ATTEMPTS:
        attempt += 1
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
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
def _holding(path: Path, fd: int, *, delete: bool = True) -> Iterator[None]:
    """Keep ``fd``'s lock (closed in a forked child, see ``_HELD``) until the block ends; then delete the file while
    still locked (whoever opened it before sees it is gone and retries), unless users share it."""
    _HELD.add(fd)
    try:
        yield
    finally:
        if delete:
            with contextlib.suppress(OSError):
                path.unlink()
        _HELD.discard(fd)
        os.close(fd)


@contextlib.contextmanager
def index_lock(locks_dir: Path, name: str) -> Iterator[None]:
    """Hold the lock of index ``name``; ``IndexBusyError`` (naming the holder's pid) when another process has it."""
    locks_dir.mkdir(parents=True, exist_ok=True)
    path = locks_dir / f"{name}.lock"
    fd = _lock(path)
    if fd is None and _stop_orphaned_holders(path):
        fd = _lock(path)
    if fd is None:
        pid = _read_owner(path).get("pid", "unknown")
        raise IndexBusyError(
            f"Index {name!r} is being built by another process (pid {pid}, lock {path}). Wait for it to finish: "
            "the lock is released by itself when that process ends."
        )
    with _holding(path, fd):
        owner = {"pid": os.getpid(), "host": socket.gethostname(), "since": time.time()}
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(owner).encode(), 0)
        yield


def _holders(path: Path) -> list[int]:
    """The processes of this user on this host holding the lock on the file ``path`` (``/proc``: an open descriptor
    of the file whose ``fdinfo`` lists a FLOCK; a process merely trying the lock lists none)."""
    try:
        inode = os.stat(path).st_ino
    except OSError:
        return []
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        pid = int(entry.name)
        if pid == os.getpid():
            continue
        with contextlib.suppress(OSError):
            for fd in (entry / "fd").iterdir():
                with contextlib.suppress(OSError):
                    same = os.stat(fd).st_ino == inode and Path(os.readlink(fd)) == path.resolve()
                    if same and "FLOCK" in (entry / "fdinfo" / fd.name).read_text():
                        found.append(pid)
                        break
    return found


def _running(pid: int) -> bool:
    """Alive and not a zombie (a killed process its parent has not waited for yet holds nothing)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return process_alive(pid)
    return state != "Z"


def _stop_orphaned_holders(path: Path) -> bool:
    """When the recorded holder of ``path`` is dead, stop the processes it left holding the lock (a forked worker
    whose parent was killed); True when any was stopped and the lock may be free now."""
    owner = _read_owner(path)
    pid = owner.get("pid")
    if not isinstance(pid, int) or owner.get("host") != socket.gethostname() or _running(pid):
        return False
    orphans = _holders(path)
    for orphan in orphans:
        with contextlib.suppress(OSError):
            os.kill(orphan, signal.SIGKILL)
    deadline = time.monotonic() + ORPHAN_GRACE_SECONDS
    while orphans and time.monotonic() < deadline and any(_running(orphan) for orphan in orphans):
        time.sleep(0.05)
    return bool(orphans)


@contextlib.contextmanager
def folder_lock(path: Path) -> Iterator[None]:
    """Hold the lock file ``path``, waiting for whoever has it (runs on one shared clone take turns: one swaps its
    tree in and reads it while the others wait). Released and deleted like ``index_lock``'s."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = _lock(path, wait=True)
    assert fd is not None  # a waiting lock always comes
    with _holding(path, fd):
        yield


@contextlib.contextmanager
def try_folder_lock(path: Path) -> Iterator[bool]:
    """``folder_lock`` without the wait: yields False at once when another run holds ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = _lock(path)
    if fd is None:
        yield False
        return
    with _holding(path, fd):
        yield True


@contextlib.contextmanager
def use_lock(path: Path, *, exclusive: bool = False) -> Iterator[bool]:
    """A lock many users share (``exclusive=False``: wait, then yield True) and a sweeper takes alone
    (``exclusive=True``: yield False at once when anyone uses it). The file is never deleted on release: users
    share it. Take it only while holding the matching ``folder_lock``, so no sweeper can delete it meanwhile."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB if exclusive else fcntl.LOCK_SH)
    except BlockingIOError:
        os.close(fd)
        yield False
        return
    with _holding(path, fd, delete=False):
        yield True
