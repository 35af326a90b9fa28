"""The embedded Chroma store's files on disk, looked after with ``sqlite3`` and the file system only.

- Damage: a ``chroma.sqlite3`` whose header is not SQLite's (or that is empty while index data is still on disk) is
  reported in one line naming the file and ``codeqa repair``, before Chroma gets to raise a traceback.
- Space: Chroma (1.x) leaves each deleted collection's vector folder behind (chroma-core/chroma#5520), keeps
  deleted documents in its full-text index and never shrinks its database. ``reclaim`` deletes the folders no
  segment refers to, merges the full-text index and, for a store created with incremental auto-vacuum (every
  store codeqa creates), returns the freed pages to the file system.

Chroma's own SQLite (linked into its Rust core) holds the database open in this process. A second SQLite library
(Python's ``sqlite3``) opening the same file here would break SQLite's locking: POSIX locks belong to the process,
and closing any descriptor of the file drops the locks Chroma's connections hold ("How To Corrupt an SQLite
Database File", 2.2), which showed as "database disk image is malformed". So every read or write of the live
database by ``sqlite3`` runs in a short child process (``_in_child``), where SQLite's locks work as designed.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import re
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from codeqa.config import Settings
from codeqa.errors import DiskFullError, StoreError, disk_full_message, is_disk_full

DATABASE = "chroma.sqlite3"
SQLITE_HEADER = b"SQLite format 3\x00"
REPAIR_HINT = "Run `codeqa repair` to move it aside and restore the indexes (clones and the embedding cache are kept)."
# Deleted documents stay in Chroma's full-text index until its segments are merged: give free pages back, merge (a
# bounded amount of work per call), give back again. After a write that failed half-way (a full disk), merging does
# not drop what was left behind: only rebuilding does, which costs time in proportion to the whole store.
# executescript runs each statement to completion.
_FULL_TEXT = "INSERT INTO embedding_fulltext_search(embedding_fulltext_search{}) VALUES({})"
_MERGE = _FULL_TEXT.format(", rank", "'merge', -4096")
_REBUILD = _FULL_TEXT.format("", "'rebuild'")
_SEGMENT_DIR = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def database(settings: Settings) -> Path:
    return settings.chroma_dir / DATABASE


def identity(settings: Settings) -> tuple[int, int] | None:
    """(device, inode) of the database file: it changes when the store is replaced under a running process."""
    try:
        info = database(settings).stat()
    except OSError:
        return None
    return info.st_dev, info.st_ino


def damaged_message(path: Path, reason: str) -> str:
    return f"The index store {path} is damaged ({reason}). {REPAIR_HINT}"


def damage(settings: Settings) -> str | None:
    """Why the store's database cannot be opened, judged from its first bytes (None: looks fine or absent)."""
    path = database(settings)
    try:
        size = path.stat().st_size
        with path.open("rb") as handle:
            head = handle.read(len(SQLITE_HEADER))
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"cannot be read: {exc.strerror or exc}"
    if size == 0:
        return "the file is empty, but index data is still on disk" if _has_index_data(settings) else None
    if head != SQLITE_HEADER:
        return "it is not an SQLite database: its header is corrupt"
    return None


def _has_index_data(settings: Settings) -> bool:
    folders = [p for p in settings.chroma_dir.iterdir() if p.is_dir()] if settings.chroma_dir.is_dir() else []
    indexes = list(settings.indexes_dir.iterdir()) if settings.indexes_dir.is_dir() else []
    return bool(folders or indexes)


def ready(settings: Settings) -> None:
    """Raise the one-line ``StoreError`` for a damaged database; prepare a new one. Before Chroma opens it."""
    reason = damage(settings)
    if reason:
        raise StoreError(damaged_message(database(settings), reason))
    try:
        prepare(settings)
    except (OSError, sqlite3.Error) as exc:
        raise failure(settings, exc) from exc


@contextlib.contextmanager
def opening(settings: Settings) -> Iterator[None]:
    """Held while this process opens the store: two processes opening a new store at once both ran Chroma's
    migrations ("table … already exists"). An ``flock`` on a file of its own, released however the holder exits."""
    try:
        settings.chroma_dir.parent.mkdir(parents=True, exist_ok=True)
        handle = open(settings.chroma_dir.parent / ".chroma-open.lock", "a")  # noqa: SIM115 - closed below
    except OSError:  # a read-only data dir: nothing can be migrated there anyway
        yield
        return
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def prepare(settings: Settings) -> None:
    """Create a new store's database with incremental auto-vacuum, so space freed by a removal can be given back.

    A leftover empty file with no index data beside it (a first run killed at its first step) is simply replaced.
    """
    path = database(settings)
    if path.exists() and (path.stat().st_size or _has_index_data(settings)):
        return
    settings.chroma_dir.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{DATABASE}.{time.monotonic_ns()}")
    with contextlib.closing(sqlite3.connect(partial)) as db:
        db.execute("PRAGMA auto_vacuum=INCREMENTAL")
        db.execute("CREATE TABLE codeqa_created (x)")  # writes the header, with the auto-vacuum flag, to disk
        db.execute("DROP TABLE codeqa_created")
        db.commit()
    partial.replace(path)


def reclaim(settings: Settings, *, rebuild: bool = False, merge: bool = True) -> int:
    """Delete vector folders that no Chroma segment refers to, give free pages back; returns folders deleted.
    ``merge=False`` leaves the full-text index's deleted entries to its own merges (an update deletes few rows).

    Folders are listed *before* the live segments are read: a collection's segment rows are written when it is
    created and its folder only at its first write, so a collection being built elsewhere is never touched.
    """
    path = database(settings)
    if not path.exists():
        return 0
    folders = [p for p in settings.chroma_dir.iterdir() if p.is_dir() and _SEGMENT_DIR.match(p.name)]
    full_text = [_REBUILD if rebuild else _MERGE, "PRAGMA incremental_vacuum"] if merge or rebuild else []
    rows = _in_child(_RECLAIM, path, ["PRAGMA incremental_vacuum", *full_text])
    if not isinstance(rows, list):
        return 0  # an unreadable store is `codeqa repair`'s business, not this
    live = set(rows)
    dropped = [folder for folder in folders if folder.name not in live]
    for folder in dropped:
        shutil.rmtree(folder, ignore_errors=True)
    return len(dropped)


def drop_vector_folders(settings: Settings, collection_id: str) -> None:
    """Delete a collection's vector folders before the collection itself: on a full disk, that space is what
    SQLite needs to journal the deletion (and a failed write may have left them unreadable anyway)."""
    rows = _in_child(_SEGMENTS, database(settings), collection_id)
    for segment in rows if isinstance(rows, list) else []:
        if _SEGMENT_DIR.match(str(segment)):
            shutil.rmtree(settings.chroma_dir / str(segment), ignore_errors=True)


# Run by ``_in_child``: argv[1] is the database, argv[2] a JSON argument; prints one JSON value (null on failure).
_RECLAIM = """
import contextlib, json, sqlite3, sys
try:
    with contextlib.closing(sqlite3.connect(f"file:{sys.argv[1]}?mode=rw", uri=True, timeout=10)) as db:
        live = [row[0] for row in db.execute("SELECT id FROM segments")]
        for step in json.loads(sys.argv[2]):
            with contextlib.suppress(sqlite3.Error):  # busy, or no auto-vacuum: then the pages stay reusable
                db.executescript(step + ";")
except sqlite3.Error:
    live = None
print(json.dumps(live))
"""
_SEGMENTS = """
import contextlib, json, sqlite3, sys
try:
    with contextlib.closing(sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True, timeout=10)) as db:
        rows = [row[0] for row in db.execute("SELECT id FROM segments WHERE collection = ?", [json.loads(sys.argv[2])])]
except sqlite3.Error:
    rows = None
print(json.dumps(rows))
"""
QUICK_CHECK = """
import contextlib, json, sqlite3, sys
try:
    with contextlib.closing(sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True, timeout=10)) as db:
        result = db.execute("PRAGMA quick_check(1)").fetchone()[0]
except sqlite3.Error as exc:
    result = f"SQLite cannot read it: {exc}"
print(json.dumps(result))
"""


def _in_child(code: str, path: Path, argument: object) -> object:
    """Run ``code`` on the database in a child Python (stdlib only, no site); its JSON result, or None."""
    try:
        done = subprocess.run([sys.executable, "-I", "-S", "-c", code, str(path), json.dumps(argument)],
                              capture_output=True, text=True, timeout=3600, check=True)  # fmt: skip
        return json.loads(done.stdout.strip().splitlines()[-1])
    except (OSError, subprocess.SubprocessError, ValueError, IndexError):
        return None


def quick_check(path: Path) -> str:
    """SQLite's ``quick_check`` of the database ("ok" when sound), read in a child process."""
    result = _in_child(QUICK_CHECK, path, None)
    return result if isinstance(result, str) else "SQLite cannot read it"


def move_aside(settings: Settings) -> Path:
    """Rename the store's folder out of the way (kept for inspection); returns where it went."""
    target = settings.chroma_dir.with_name(f"{settings.chroma_dir.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
    settings.chroma_dir.rename(target)
    return target


def failure(settings: Settings, exc: BaseException) -> StoreError:
    """The one-line error for an unexpected failure of the store: a full disk, a damaged file, a failing server."""
    detail = f"{exc.__class__.__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else 'no detail'}"
    if is_disk_full(exc, settings.home_dir):
        return DiskFullError(disk_full_message(settings.home_dir, "the index store could not be written"))
    if settings.chroma_url:
        return StoreError(f"The Chroma server at {settings.chroma_url} failed ({detail[:300]}).")
    path = database(settings)
    return StoreError(f"The index store {path} cannot be used ({detail[:300]}). {REPAIR_HINT}")
