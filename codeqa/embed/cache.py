"""The embedding cache: vectors by (model, text hash) in one SQLite file, so re-indexing unchanged code is free.

A run writes the vectors it computes to a run file of its own beside the cache and merges them into the cache when
it ends (one short transaction, so concurrent runs never wait on each other). A run that fails because the disk is
full deletes its run file instead, which gives its space back without writing anything; the run file of a killed
process is merged by the next run. The cache is only a cache: a damaged file is replaced by an empty one with a
notice, instead of failing every index until someone deletes it by hand.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

import numpy as np

from codeqa.errors import CodeqaError, DiskFullError, EmbeddingError, disk_full_message, is_disk_full
from codeqa.locks import process_alive

T = TypeVar("T")
SCHEMA = "CREATE TABLE IF NOT EXISTS vectors (model TEXT, hash TEXT, vector BLOB, PRIMARY KEY (model, hash))"


class EmbeddingCache:
    """Vectors by (model, text hash); safe to share between processes. ``notices`` says what was repaired."""

    def __init__(self, path: Path):
        self.path = path
        self.notices: list[str] = []
        self._run_path = path.with_name(f"{path.name}.run-{os.getpid()}-{time.monotonic_ns()}")
        self._run: sqlite3.Connection | None = None
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._open()
        except sqlite3.DatabaseError as exc:
            if isinstance(exc, sqlite3.OperationalError):
                raise self._failure(exc) from exc
            self._rebuild(exc)
        self._adopt_leftovers()

    def _open(self) -> None:
        self._db = sqlite3.connect(self.path, timeout=30, check_same_thread=False)
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(SCHEMA)
            self._db.execute("SELECT 1 FROM vectors LIMIT 1").fetchall()
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

    def _guard(self, action: Callable[[], T]) -> T:
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
        for database in (self._db, self._run):
            missing = [h for h in unique if h not in found]
            if database is None or not missing:
                continue
            for start in range(0, len(missing), 500):
                batch = missing[start : start + 500]
                query = f"SELECT hash, vector FROM vectors WHERE model = ? AND hash IN ({','.join('?' * len(batch))})"
                rows = self._guard(lambda d=database, q=query, b=batch: d.execute(q, [model, *b]).fetchall())  # type: ignore[misc]
                found.update((text_hash, np.frombuffer(blob, dtype=np.float32)) for text_hash, blob in rows)
        return found

    def put_many(self, model: str, items: dict[str, np.ndarray]) -> None:
        rows = [(model, h, np.asarray(v, dtype=np.float32).tobytes()) for h, v in items.items()]

        def put() -> None:
            if self._run is None:
                self._run = sqlite3.connect(self._run_path, check_same_thread=False)
                self._run.execute("PRAGMA journal_mode=OFF")  # a run file is thrown away if anything goes wrong
                self._run.execute("PRAGMA synchronous=OFF")
                self._run.execute(SCHEMA)
            with self._run:
                self._run.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?)", rows)

        self._guard(put)

    def discard_run(self) -> None:
        """Forget the vectors this run computed: deleting its run file gives the space back at once."""
        if self._run is not None:
            self._run.close()
            self._run = None
        self._run_path.unlink(missing_ok=True)

    def _merge(self, run_path: Path) -> None:
        self._db.execute("ATTACH DATABASE ? AS run", [str(run_path)])
        try:
            with self._db:
                self._db.execute("INSERT OR IGNORE INTO vectors SELECT model, hash, vector FROM run.vectors")
        finally:
            self._db.execute("DETACH DATABASE run")

    def _adopt_leftovers(self) -> None:
        """Merge the run files of processes that were killed (their vectors are good), then delete them."""
        pattern = re.compile(rf"^{re.escape(self.path.name)}\.run-(\d+)-\d+$")
        for leftover in self.path.parent.glob(f"{self.path.name}.run-*"):
            match = pattern.match(leftover.name)
            if match and not process_alive(int(match[1])):
                with contextlib.suppress(sqlite3.Error):
                    self._merge(leftover)
                leftover.unlink(missing_ok=True)

    def close(self) -> None:
        """Keep this run's vectors in the cache (never raises: the index itself is already safe)."""
        if self._run is not None:
            self._run.close()
            self._run = None
            try:
                self._merge(self._run_path)
            except sqlite3.Error as exc:
                self.notices.append(f"The new vectors could not be added to the embedding cache ({exc}).")
        self._run_path.unlink(missing_ok=True)
        self._db.close()
