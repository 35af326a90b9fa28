"""What a write produces beside the store's writes: chunks, vectors and search files, from a scan and a carry plan.

Files stream through in the scan's order. A kept file's rows come from the previous generation (its table rows,
vectors, tokens, file card and tags); the others are read again (the scan keeps no text, and a file's text is let
go once it is chunked), chunked and tagged from one parse, embedded in batches (the embedding cache skips text it
has seen) and tokenized. Each batch's fresh rows go to the store as they are made
(``Batch``), and at the end the search files of the new generation are written into its folder (``Produced``).
The same producer runs in this process or, for a large write, in a worker process (``worker``) while this one
stores: the tags stay with the search files it writes.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from codeqa.chunk import chunk_and_tag
from codeqa.config import Settings
from codeqa.embed import Embedder, EmbeddingCache, embed_chunks
from codeqa.index.freshness import FileState, save_state
from codeqa.index.report import StageClock
from codeqa.records import Chunk, FileTags, ScannedFile, SourceFile
from codeqa.scan import read_source
from codeqa.searchfiles import Generation, SearchFilesBuilder
from codeqa.store import Manifest
from codeqa.store.chroma_rows import chunk_metadata

BATCH_CHUNKS = 512


@dataclass
class CarryPlan:
    """What a write starts from: the live generation (if any) and, for an update, the files it keeps."""

    base: Manifest | None = None
    generation: Generation | None = None  # the base's search files and corpus, when rows are carried
    rows: dict[str, list[int]] = field(default_factory=dict)  # path → its rows in the base, per kept file
    in_place: bool = False  # write into the base's collection (an update) instead of a new one (a build)

    def base_ids(self) -> list[str]:
        return list(self.generation.files.table.ids) if self.generation is not None else []


@dataclass
class Batch:
    """A batch's fresh rows as the store takes them, and how far the write has come."""

    ids: list[str]
    documents: list[str]
    metadatas: list[dict[str, Any]]
    vectors: np.ndarray
    files_done: int
    chunks: int  # rows so far, kept ones included
    embedded: int
    carried: int


@dataclass
class Produced:
    """The end of a write's production: every row id in order, and what it took."""

    ids: list[str]
    chunks: int
    embedded: int
    carried: int
    notices: list[str]
    seconds: dict[str, float]


FINISHING = "finishing"  # announced before the search files are built (the longest step without progress)


class Producer:
    """Produces a write's rows and search files here, in this process."""

    def __init__(self, files: Sequence[ScannedFile], plan: CarryPlan, settings: Settings, embedder: Embedder,
                 folder: Path, state: FileState, root: Path) -> None:  # fmt: skip
        self.files, self.plan, self.settings, self.embedder = files, plan, settings, embedder
        self.folder, self.state, self.root = folder, state, root
        self.clock = StageClock()  # its seconds travel with ``Produced`` (the producer may be another process)
        self.cache: EmbeddingCache | None = None  # opened by whichever process produces

    @property
    def fresh_bytes(self) -> int:
        """How much source text this write chunks and embeds (what decides where it runs)."""
        return sum(file.size for file in self.files if file.path not in self.plan.rows)

    def items(self) -> Iterator[Batch | str | Produced]:
        self.cache = EmbeddingCache(self.settings.cache_dir / "embeddings.sqlite")
        builder = SearchFilesBuilder()
        totals = Produced([], 0, 0, 0, [], {})
        for fresh, vectors, done in self._rows(builder, totals):
            yield Batch([c.id for c in fresh], [c.text for c in fresh], [chunk_metadata(c) for c in fresh], vectors,
                        done, totals.chunks, totals.embedded, totals.carried)  # fmt: skip
        yield FINISHING
        started = time.perf_counter()
        skipped = [path for path, (_, _, digest) in self.state.files.items() if not digest]  # package markers too
        builder.finish(self.folder, self.embedder, skipped)
        save_state(self.folder, self.state)
        self.clock.add("store", started)
        totals.notices, totals.seconds = list(self.cache.notices), dict(self.clock.seconds)
        yield totals

    def close(self, *, discard: bool = False) -> None:
        """Keep this run's new vectors in the embedding cache, or (``discard``: the disk is full) forget them."""
        if self.cache is not None:
            if discard:
                self.cache.discard_run()
            self.cache.close()

    def _rows(self, builder: SearchFilesBuilder, totals: Produced) -> Iterator[tuple[list[Chunk], np.ndarray, int]]:
        """Feed ``builder`` every row in file order; yield each batch's fresh rows (to store) and the files done."""
        pending: list[tuple[list[int] | None, list[Chunk], FileTags | None]] = []  # per file: kept rows or fresh
        fresh_count = 0
        for done, file in enumerate(self.files, start=1):
            kept = self.plan.rows.get(file.path)
            chunks: list[Chunk] = []
            tags: FileTags | None = None
            if kept is None:
                started = time.perf_counter()
                source = self._read(file)
                if source is not None:
                    chunks, tags = chunk_and_tag(source, self.settings)
                self.clock.add("chunk", started)
                fresh_count += len(chunks)
            pending.append((kept, chunks, tags))
            if fresh_count >= BATCH_CHUNKS or done == len(self.files):
                fresh, vectors = self._flush(pending, builder, totals)
                yield fresh, vectors, done
                pending, fresh_count = [], 0

    def _read(self, file: ScannedFile) -> SourceFile | None:
        """The file's text as the scan read it; a file edited since is chunked as it is now (and recorded so), and
        one gone or no longer indexable since gets no rows."""
        source = read_source(self.root, file.path, self.settings)
        digest = source.hash if source is not None else ""
        if digest != file.hash and file.path in self.state.files:
            size, mtime, _ = self.state.files[file.path]
            self.state.files[file.path] = (size, mtime, digest)
        return source

    def _flush(self, pending: list[tuple[list[int] | None, list[Chunk], FileTags | None]],
               builder: SearchFilesBuilder, totals: Produced) -> tuple[list[Chunk], np.ndarray]:  # fmt: skip
        """Embed a batch's fresh chunks at once, then hand every file's rows to the builder in order."""
        fresh = [chunk for kept, chunks, _ in pending if kept is None for chunk in chunks]
        started = time.perf_counter()
        vectors, computed = embed_chunks(fresh, self.embedder, self.cache)  # type: ignore[arg-type]
        self.clock.add("embed", started)
        totals.embedded += computed
        started = time.perf_counter()
        position = 0
        generation = self.plan.generation
        carried: list[int] = []  # consecutive kept files' rows, carried in one go
        for kept, chunks, tags in [*pending, (None, [], None)]:
            if kept is not None:
                carried.extend(kept)
                continue
            if carried:
                assert generation is not None
                builder.carry(generation, carried)
                totals.carried += len(carried)
                totals.chunks += len(carried)
                totals.ids.extend(generation.files.table.ids[row] for row in carried)
                carried = []
            if chunks:
                builder.add(chunks, vectors[position : position + len(chunks)], [tags] if tags is not None else ())
                totals.chunks += len(chunks)
                totals.ids.extend(chunk.id for chunk in chunks)
                position += len(chunks)
        self.clock.add("store", started)
        return fresh, vectors
