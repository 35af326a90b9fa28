"""A per-index lock file so two processes never build the same index at once.

The lock records the owner's pid; a lock whose process is gone is stale and is taken over.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path

from codeqa.errors import IndexBusyError


def process_alive(pid: int) -> bool:
    """True while process ``pid`` exists on this host."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _read_owner(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


@contextlib.contextmanager
def index_lock(locks_dir: Path, name: str) -> Iterator[None]:
    locks_dir.mkdir(parents=True, exist_ok=True)
    path = locks_dir / f"{name}.lock"
    owner = {"pid": os.getpid(), "host": socket.gethostname(), "since": time.time()}
    for _ in range(2):
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            current = _read_owner(path)
            same_host = current is not None and current.get("host") == owner["host"]
            if current is None or (same_host and not process_alive(int(current.get("pid", 0)))):
                path.unlink(missing_ok=True)  # stale: its process died without cleaning up
                continue
            raise IndexBusyError(
                f"Index {name!r} is being built by another process (pid {current.get('pid')}). "
                f"Wait for it to finish, or delete {path} if that process is gone."
            ) from None
        with os.fdopen(fd, "w") as handle:
            json.dump(owner, handle)
        break
    else:  # pragma: no cover - lost a race twice
        raise IndexBusyError(f"Index {name!r} is locked by another process; try again.")
    try:
        yield
    finally:
        path.unlink(missing_ok=True)
