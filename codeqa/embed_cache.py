"""The embedding cache: vectors by (model, text hash) in one SQLite file, so re-indexing unchanged code is free."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

import numpy as np

from codeqa.errors import CodeqaError, DiskFullError, EmbeddingError, disk_full_message, is_disk_full

T = TypeVar("T")


class EmbeddingCache:
    """Vectors by (model, text hash) in one SQLite file; safe to share between processes.

    It is only a cache: a damaged file is replaced by an empty one (``notices`` says so) instead of failing every
    index. ``discard_run`` takes back what this run added, for a run that failed because the disk is full.
    """

    def __init__(self, path: Path):
        self.path = path
        self.notices: list[str] = []
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._open()
        except sqlite3.DatabaseError as exc:
            if isinstance(exc, sqlite3.OperationalError):
                raise self._failure(exc) from exc
            self._rebuild(exc)

    def _open(self) -> None:
        new = not self.path.exists() or self.path.stat().st_size == 0
        self._db = sqlite3.connect(self.path, timeout=30, check_same_thread=False)
        try:
            if new:
                self._db.execute("PRAGMA auto_vacuum=INCREMENTAL")  # lets discard_run give space back
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS vectors (model TEXT, hash TEXT, vector BLOB, PRIMARY KEY (model, hash))"
            )
            self._start = int(self._db.execute("SELECT COALESCE(MAX(rowid), 0) FROM vectors").fetchone()[0])
        except BaseException:
            self._db.close()
            raise

    def _rebuild(self, exc: sqlite3.DatabaseError) -> None:
        """Replace a damaged cache file by an empty cache (once per run)."""
        with contextlib.suppress(sqlite3.Error):
            self._db.close()
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{self.path}{suffix}").unlink(missing_ok=True)
        self._open()
        self.notices.append(
            f"The embedding cache {self.path} was damaged ({exc}) and has been rebuilt: it is only a cache, "
            "so nothing was lost; vectors are computed again as needed."
        )

    def _failure(self, exc: sqlite3.Error) -> CodeqaError:
        if is_disk_full(exc, self.path.parent):
            return DiskFullError(disk_full_message(self.path.parent, "the embedding cache could not be written"))
        return EmbeddingError(f"The embedding cache {self.path} cannot be used ({exc}); delete it to start afresh.")

    def _run(self, action: Callable[[], T]) -> T:
        try:
            return action()
        except sqlite3.OperationalError as exc:  # locked for too long, or the disk is full
            raise self._failure(exc) from exc
        except sqlite3.DatabaseError as exc:  # damaged under us: start an empty cache and go on
            if self.notices:
                raise self._failure(exc) from exc
            self._rebuild(exc)
            return action()

    def get_many(self, model: str, hashes: Sequence[str]) -> dict[str, np.ndarray]:
        found: dict[str, np.ndarray] = {}
        unique = list(dict.fromkeys(hashes))
        for start in range(0, len(unique), 500):
            batch = unique[start : start + 500]
            marks = ",".join("?" * len(batch))
            query = f"SELECT hash, vector FROM vectors WHERE model = ? AND hash IN ({marks})"
            rows = self._run(lambda q=query, b=batch: self._db.execute(q, [model, *b]).fetchall())
            for text_hash, blob in rows:
                found[text_hash] = np.frombuffer(blob, dtype=np.float32)
        return found

    def put_many(self, model: str, items: dict[str, np.ndarray]) -> None:
        rows = [(model, h, np.asarray(v, dtype=np.float32).tobytes()) for h, v in items.items()]

        def put() -> None:
            with self._db:
                self._db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?)", rows)

        self._run(put)

    def discard_run(self) -> None:
        """Remove the vectors added since this cache was opened and give the space back (best effort)."""
        with contextlib.suppress(sqlite3.Error):
            with self._db:
                self._db.execute("DELETE FROM vectors WHERE rowid > ?", [self._start])
            self._db.execute("PRAGMA incremental_vacuum")
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def close(self) -> None:
        self._db.close()
