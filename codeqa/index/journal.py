"""The journal of an update in place, and the recovery that finishes or undoes whatever a killed run left.

An update changes rows of the live collection, so it writes down what it does before doing it:
``journal.json`` (in the collection folder) starts with ``{"base": N, "next": N+1}``; every batch of rows is
logged (``{"added": [...]}``, on disk) before it is added; the rows the new generation no longer has are logged
(``{"removed": [...]}``) before the registry is switched. Readers never need the journal: they read the generation
the registry names, and rows another generation added are invisible to them (retrieval reads rows by id).

The commit point of an update is the collection's ``live`` marker (written after the removed rows are logged, before
the registry is told), so recovery trusts the marker where a registry read could lag. It runs under the index
lock, before every write and when an index is opened with a journal beside it:
- marker still at N: roll back (delete the logged added rows, drop generation N+1's folder);
- marker at N+1: roll forward (delete the removed rows, drop generation N's folder, bring the registry up);
- then collections and folders that no manifest names (a killed build, a crash between two steps) go too.
Every step can be repeated, so a recovery that is itself killed is simply run again.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from codeqa.config import Settings
from codeqa.store import Manifest, Store
from codeqa.store.chroma import COLLECTION_PREFIX
from codeqa.store.layout import (
    PARTIAL_SUFFIX,
    collection_dir,
    generation_dir,
    generations,
    read_live,
    read_manifest_copy,
)

JOURNAL_FILE = "journal.json"


@dataclass
class Journal:
    base: int
    next: int
    added: list[str] = field(default_factory=list)
    removed: list[str] | None = None  # written just before the commit


class JournalWriter:
    """Appends to an update's journal, each entry on disk before the change it announces is made."""

    def __init__(self, settings: Settings, collection: str, base: int, next_generation: int) -> None:
        self.path = collection_dir(settings, collection) / JOURNAL_FILE
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._handle = self.path.open("w")
        self._write({"base": base, "next": next_generation})

    def _write(self, entry: dict) -> None:
        self._handle.write(json.dumps(entry, separators=(",", ":")) + "\n")
        self._handle.flush()
        os.fsync(self._handle.fileno())

    def added(self, ids: list[str]) -> None:
        self._write({"added": ids})

    def removed(self, ids: list[str]) -> None:
        self._write({"removed": ids})

    def close(self) -> None:
        self._handle.close()


def read_journal(settings: Settings, collection: str) -> Journal | None:
    """The journal of an unfinished update of ``collection`` (None: there is none, or only a torn first line)."""
    try:
        lines = (collection_dir(settings, collection) / JOURNAL_FILE).read_text().splitlines()
    except OSError:
        return None
    journal = None
    for line in lines:
        try:
            entry = json.loads(line)
        except ValueError:
            break  # a line torn by the kill: nothing after it was done
        if journal is None:
            journal = Journal(int(entry["base"]), int(entry["next"]))
        elif "added" in entry:
            journal.added.extend(entry["added"])
        elif "removed" in entry:
            journal.removed = list(entry["removed"])
    return journal


def drop_journal(settings: Settings, collection: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        (collection_dir(settings, collection) / JOURNAL_FILE).unlink()


def live_manifest(store: Store, settings: Settings, name: str) -> Manifest:
    """The manifest of index ``name``'s live generation: the registry's, or the newer one its collection's marker
    names. An update commits by writing the marker, then the registry; a registry read (another process's Chroma
    client) may lag behind the marker, never ahead of it."""
    registered = store.get_manifest(name)
    marked = read_live(settings, registered.collection)
    if marked is not None and marked > registered.generation:
        newer = read_manifest_copy(settings, registered.collection, marked)
        if newer is not None:
            return newer
    return registered


def needs_recovery(settings: Settings, manifest: Manifest) -> bool:
    """Cheap (file system only): is there an unfinished update, or a generation folder the registry does not name?"""
    if (collection_dir(settings, manifest.collection) / JOURNAL_FILE).exists():
        return True
    if _half_written(settings, manifest.collection):
        return True
    return any(number != manifest.generation for number in generations(settings, manifest.collection))


def _half_written(settings: Settings, collection: str) -> list[Path]:
    """Files a killed ``write_atomically`` left before its rename (``live.partial``, ``file-state.json.partial``), in
    the collection's folder and its generation folders."""
    folder = collection_dir(settings, collection)
    if not folder.is_dir():
        return []
    return [path for path in [*folder.glob(f"*{PARTIAL_SUFFIX}"), *folder.glob(f"g*/*{PARTIAL_SUFFIX}")]
            if path.is_file()]  # fmt: skip


def discard_collection(store: Store, settings: Settings, collection: str) -> bool:
    """Delete a collection and all its folders: the files first (on a full disk, their space is what Chroma needs
    to delete the collection). False when Chroma could not delete it."""
    shutil.rmtree(collection_dir(settings, collection), ignore_errors=True)
    return store.drop_collection(collection)


def drop_generation(settings: Settings, collection: str, generation: int) -> None:
    if generation > 0:
        shutil.rmtree(generation_dir(settings, collection, generation), ignore_errors=True)


def recover(store: Store, settings: Settings, name: str) -> bool:
    """Finish or undo what killed runs left for index ``name`` (the caller holds its lock); True when anything was
    done."""
    done = False
    for orphan in store.orphan_collections(name):
        discard_collection(store, settings, orphan)
        done = True
    live = live_manifest(store, settings, name) if store.exists(name) else None
    if live is not None:
        done = _finish_update(store, settings, live) or done
        live = live_manifest(store, settings, name)
        for number in generations(settings, live.collection):
            if number != live.generation:
                drop_generation(settings, live.collection, number)
                done = True
    if live is not None:
        for path in _half_written(settings, live.collection):
            path.unlink(missing_ok=True)
            done = True
    done = _drop_stray_folders(settings, name, live) or done
    return done


def _finish_update(store: Store, settings: Settings, live: Manifest) -> bool:
    journal = read_journal(settings, live.collection)
    if journal is None:
        drop_journal(settings, live.collection)  # empty or torn at its first line: nothing was changed yet
        return False
    if live.generation >= journal.next and journal.removed is not None:  # the marker names the new generation
        store.delete_chunks(live.collection, journal.removed)  # roll forward
        drop_generation(settings, live.collection, journal.base)
        if store.get_manifest(live.name).generation < live.generation:
            store.commit(live)  # killed between the marker and the registry: the registry catches up
    else:
        store.delete_chunks(live.collection, journal.added)  # roll back
        drop_generation(settings, live.collection, journal.next)
    drop_journal(settings, live.collection)
    store.reclaim()
    return True


def _drop_stray_folders(settings: Settings, name: str, live: Manifest | None) -> bool:
    """Folders of collections of ``name`` that no longer exist (dropped after a crash between the two steps)."""
    pattern = re.compile(rf"^{re.escape(COLLECTION_PREFIX + name)}-[0-9a-f]{{10}}$")
    stray = [
        path
        for path in (settings.indexes_dir.iterdir() if settings.indexes_dir.is_dir() else ())
        if pattern.match(path.name) and (live is None or path.name != live.collection)
    ]
    for path in stray:
        shutil.rmtree(path, ignore_errors=True)
    return bool(stray)
