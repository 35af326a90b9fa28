"""Where one write of an index goes, and how it is made live or undone.

- A build fills a new, empty collection; committing it switches the registry to it and drops the old collection.
- An update writes into the live collection: it adds only rows the collection does not hold yet, and only after
  the journal says so; committing it switches the registry to the next generation, then deletes the rows that
  generation no longer has.
Either way the readers of the previous generation keep what they read until the registry names the new one, and
``abandon`` (or, after a kill, ``journal.recover``) leaves the index exactly as it was.

Which index a write goes to is decided here too, by one rule for the CLI, the app, the API and MCP: a name never
changes hands. A source is written under the name given, else under the name of the index that already holds it,
else under its derived name; a name that holds another source's index is refused (``IndexNameTakenError``), never
replaced. The faces check it before any work starts (``claim_name``); the writer checks it again under the lock.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from codeqa.config import Settings
from codeqa.errors import IndexNameTakenError
from codeqa.index.journal import JournalWriter, discard_collection, drop_generation, drop_journal
from codeqa.source import parse_source, source_key
from codeqa.store import Manifest, Store, generation_dir, validate_index_name
from codeqa.store.layout import save_manifest_copy, write_live

PREVIOUS = "previous"  # in a generation's folder: the views its base generation had, handed forward by an update


class Target:
    """One write in progress: its collection, its generation and what it added so far."""

    def __init__(self, store: Store, settings: Settings, name: str, base: Manifest | None, in_place: bool,
                 base_ids: Iterable[str] = ()) -> None:  # fmt: skip
        self.store, self.settings, self.base = store, settings, base
        self.in_place = in_place and base is not None
        self.committed = False
        self.stored = 0
        self._added: list[str] = []
        if self.in_place:
            assert base is not None
            self.collection, self.generation = base.collection, base.generation + 1
            self._present = set(base_ids)
        else:
            self.collection, self.generation = store.new_collection(name), 1
            self._present = set()
        self.folder = generation_dir(settings, self.collection, self.generation)
        shutil.rmtree(self.folder, ignore_errors=True)  # a half-written folder of a killed run
        self.folder.mkdir(parents=True)
        base_generation = base.generation if base is not None else 0
        self._journal = (
            JournalWriter(settings, self.collection, base_generation, self.generation) if self.in_place else None
        )

    def add_rows(self, ids: Sequence[str], documents: Sequence[str], metadatas: Sequence[dict[str, Any]],
                 vectors: np.ndarray) -> int:  # fmt: skip
        """Store the rows the collection does not hold yet (as ``chunk_metadata`` describes them); returns how many
        were added."""
        wanted = [i for i, chunk_id in enumerate(ids) if chunk_id not in self._present]
        if not wanted:
            return 0
        added = [ids[i] for i in wanted]
        if self._journal is not None:
            self._journal.added(added)  # on disk before the rows are: a kill from here on is rolled back
        self._present.update(added)
        self._added.extend(added)
        self.store.add_rows(self.collection, added, [documents[i] for i in wanted], [metadatas[i] for i in wanted],
                            np.asarray(vectors)[wanted])  # fmt: skip
        self.stored += len(added)
        return len(added)

    def commit(self, manifest: Manifest, ids: Iterable[str]) -> None:
        """Make ``manifest`` (this target's collection and generation; ``ids`` its rows) the live index."""
        removed: list[str] = []
        if self._journal is not None:
            kept = set(ids)
            removed = sorted(self._present - kept)
            self._journal.removed(removed)  # from here on a kill is rolled forward
            self._journal.close()
        save_manifest_copy(self.settings, manifest)
        write_live(self.settings, self.collection, self.generation)  # the commit point of an update
        self.committed = self.in_place
        previous = self.store.commit(manifest)  # the commit point of a build
        self.committed = True
        # what the previous generation alone used; a failure here leaves the journal, so the next open finishes it
        with contextlib.suppress(Exception):
            if self.in_place:
                self.store.delete_chunks(self.collection, removed)
                if self.base is not None:
                    hand_forward(generation_dir(self.settings, self.collection, self.base.generation), self.folder)
                    drop_generation(self.settings, self.collection, self.base.generation)
                drop_journal(self.settings, self.collection)
                self.store.reclaim(merge=False)
            elif previous is not None and previous.collection != self.collection:
                discard_collection(self.store, self.settings, previous.collection)

    def abandon(self) -> bool:
        """Undo an uncommitted write; True when nothing of it is left (else recovery finishes the job later)."""
        if self.committed:
            return True
        if self._journal is not None:
            self._journal.close()
            shutil.rmtree(self.folder, ignore_errors=True)
            try:
                self.store.delete_chunks(self.collection, self._added)
            except Exception:
                return False  # the journal stays: the next open of the index rolls it back
            drop_journal(self.settings, self.collection)
            self.store.reclaim()
            return True
        return discard_collection(self.store, self.settings, self.collection)


def hand_forward(base: Path, folder: Path) -> None:
    """Move the files of the ``base`` generation that the write did not make itself into ``folder/previous/``.

    Those are the views computed from the index after it was written (the map, the overview). They describe the
    base, not this generation, so nothing shows them; they are a starting point: the map keeps the places of the
    chunks an update did not touch. A view the base had only as its own ``previous`` (never recomputed, e.g. after
    ``update --no-map``) is handed on as it is.
    """
    into = folder / PREVIOUS
    views = {path.name: path for path in (base / PREVIOUS).glob("*") if path.is_file()}
    views.update({path.name: path for path in base.glob("*") if path.is_file() and not (folder / path.name).exists()})
    for name, path in views.items():
        into.mkdir(exist_ok=True)
        os.replace(path, into / name)


def same_source(manifest: Manifest, display: str, subdir: str) -> bool:
    """True when ``manifest``'s index holds the repository (and the folder of it) that ``display`` names."""
    if manifest.subdir != subdir:
        return False
    return manifest.source == display or source_key(manifest.source) == source_key(display)


def pick_name(manifests: Iterable[Manifest], display: str, subdir: str, default: str, given: str | None) -> str:
    """The name to write a source under: ``given``; else ``default`` when it already holds this source; else the
    one index that does (e.g. ``repo``, as an earlier codeqa named a bare mirror), so that it is updated; else
    ``default`` (which ``refuse_other_source`` then checks)."""
    if given:
        return validate_index_name(given)
    holding = [m.name for m in manifests if same_source(m, display, subdir)]
    return holding[0] if len(holding) == 1 and default not in holding else validate_index_name(default)


def refuse_other_source(existing: Manifest | None, display: str, subdir: str) -> None:
    """Never replace the index of another source: say which two sources, and what to do instead."""
    if existing is None or same_source(existing, display, subdir):
        return
    name = existing.name
    raise IndexNameTakenError(
        f"The index {name!r} holds another source ({existing.source}): {display} was not indexed and {name!r} is "
        f"unchanged. Choose another name with --name (in the app: Index name), or remove {name!r} first."
    )


def claim_name(source: str, settings: Settings, store: Store, *, name: str | None = None, ref: str | None = None,
               allow_local: bool = True) -> str:  # fmt: skip
    """The name ``source`` will be indexed under, refused now if it holds another source (a clone can take
    minutes, and an API call should fail at once); the writer checks again under the index's lock."""
    spec = parse_source(source, ref=ref, allow_local=allow_local, allow_insecure=settings.allow_insecure_sources)
    manifests = store.list_manifests()
    chosen = pick_name(manifests, spec.display, spec.subdir, spec.default_name, name)
    refuse_other_source(next((m for m in manifests if m.name == chosen), None), spec.display, spec.subdir)
    return chosen
