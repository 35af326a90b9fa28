"""What an answer is built from, beyond the retrieved chunks: the index's chunk table, symbol graph and imports.

``AnswerContext`` is the one door the answer builder reads the index through: chunks of a file, chunks by row,
graph neighbours of a chunk, and which of a few files import which (the import graph resolved at index time).
``from_index`` reads a real index (search files + store); ``from_chunks`` builds the same from chunks in memory
(the answer for hits alone, and unit tests), tagging their texts as indexing would.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath

import numpy as np

from codeqa.chunk.resolve import name_scopes, resolve_imports
from codeqa.chunk.tags import tag_chunks
from codeqa.index import Index
from codeqa.records import Chunk, Hit
from codeqa.searchfiles.defines import definers_of, file_definitions, row_defines
from codeqa.searchfiles.graph import SymbolGraph
from codeqa.searchfiles.lexical import LexicalIndex
from codeqa.searchfiles.table import ChunkTable
from codeqa.searchfiles.tagfile import chunk_references
from codeqa.symbols import IDENTIFIER, defined_names
from codeqa.tokens import code_tokens

PACKAGE_ENTRIES = ("__init__.py", "index.js", "index.ts", "index.tsx", "mod.rs")
MAX_FILE_CHUNKS = 120


@dataclass
class AnswerContext:
    """The retrieved pool plus read access to the index around it."""

    pool: list[Hit]  # retrieved chunks, best first
    files: list[str]  # retrieved files, best first
    table: ChunkTable
    graph: SymbolGraph
    fetch: Callable[[Sequence[str]], list[Chunk]]  # chunk ids → chunks (missing ids skipped)
    mask: np.ndarray | None = None  # rows in scope (the question's filters)
    definers: dict[str, list[int]] = field(default_factory=dict)  # lower-cased defined name → rows (of ``defines``)
    lexical: LexicalIndex | None = None  # which rows hold an identifier (None: search the texts in memory)
    file_imports: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # file → files it imports
    pieces: dict[str, tuple[str, ...]] = field(default_factory=dict)  # a joined definition's id → its pieces' ids
    concept_places: tuple[str, ...] = ()  # directories ("x/") and files named after the question's concept
    defines: list[tuple[str, ...]] = field(default_factory=list)  # per row, every name it defines (``defines.py``)
    _fetched: dict[str, Chunk] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.defines:  # no tags: the names the symbols give
            self.defines = [tuple(defined_names(symbol)) for symbol in self.table.symbols]
        if not self.definers:
            self.definers = definers_of(self.defines)

    def in_concept_place(self, path: str) -> bool:
        """Whether ``path`` is in a place the app names after the concept the question names (``concept_paths``)."""
        return any(path == place or (place.endswith("/") and path.startswith(place)) for place in self.concept_places)

    def defined_in(self, chunk: Chunk) -> set[str]:
        """Every name ``chunk``'s rows define (``defines``: its symbol's and the definitions its lines hold), and its
        symbol's (a part of a chunk: only those)."""
        rows = self.rows_of(chunk)
        return {name for row in rows for name in self.defines[row]} | set(defined_names(chunk.symbol))

    def definitions_of(self, name: str) -> int:
        """How many definitions the index has of ``name`` (any case): the pieces of one definition the chunker split
        count once (``definition_rows``), two overloads in a class twice."""
        return len({self.definition_rows(row)[0] for row in self.definers.get(name.lower(), [])})

    def definition_rows(self, row: int) -> list[int]:
        """The rows of the definition ``row`` is a piece of, in file order: the rows of its file right above and below
        it with its symbol, but for one that opens on its own signature (an overload right after the other one)."""
        table = self.table
        symbol = table.symbols[row]
        in_file = sorted(table.rows_by_path().get(table.paths[row], []), key=lambda r: table.starts[r])
        if not symbol or row not in in_file:
            return [row]
        names = "|".join(re.escape(name) for name in defined_names(symbol))
        declares = re.compile(rf"(?<![\w$])(?:{names})\s*[(=:<]", re.IGNORECASE)

        def goes_on(piece: int) -> bool:  # a piece of the definition above it, not a definition of its own
            chunk = next(iter(self.chunks([piece])), None)
            first = next((line for line in chunk.text.split("\n") if line.strip()), "") if chunk else ""
            return table.symbols[piece] == symbol and not declares.search(first)

        first = last = in_file.index(row)
        while first > 0 and table.symbols[in_file[first - 1]] == symbol and goes_on(in_file[first]):
            first -= 1
        while last + 1 < len(in_file) and goes_on(in_file[last + 1]):
            last += 1
        return in_file[first : last + 1]

    @classmethod
    def from_chunks(cls, chunks: Sequence[Chunk], pool: Sequence[Hit], files: Sequence[str] = ()) -> AnswerContext:
        """A context over ``chunks`` held in memory (graph built from them, as at index time)."""
        unique = list({chunk.id: chunk for chunk in [*chunks, *(hit.chunk for hit in pool)]}.values())
        table = ChunkTable()
        table.append(unique)
        tags = tag_chunks(unique)
        resolved = resolve_imports(tags)
        graph = SymbolGraph.build(table.symbols, chunk_references(unique, tags), table.languages, table.paths,
                                  name_scopes(tags, resolved))  # fmt: skip
        by_id = {chunk.id: chunk for chunk in unique}
        ranked = list(files) or list(dict.fromkeys(hit.chunk.path for hit in pool))
        fetch = lambda ids: [by_id[i] for i in ids if i in by_id]  # noqa: E731
        imports = resolved.files
        defines = row_defines(table.paths, table.starts, table.ends, table.symbols, file_definitions(tags))
        return cls(list(pool), ranked, table, graph, fetch, file_imports=imports, defines=defines)

    @classmethod
    def from_index(
        cls,
        index: Index,
        pool: Sequence[Hit],
        files: Sequence[str],
        mask_of: Callable[[ChunkTable], np.ndarray | None] | None = None,
    ) -> AnswerContext:
        """A context over ``index`` (its search files are loaded once per process)."""
        search = index.files
        mask = mask_of(search.table) if mask_of else None
        return cls(list(pool), list(files), search.table, search.graph, index.chunks, mask, search.all_definers,
                   search.lexical, search.imports.files, defines=search.defines)  # fmt: skip

    # -- lookups ----------------------------------------------------------------------------------------------------
    def row_of(self, chunk: Chunk) -> int | None:
        """The chunk's row (a joined definition's: its first piece's)."""
        rows = self.rows_of(chunk)
        return rows[0] if rows else None

    def rows_of(self, chunk: Chunk) -> list[int]:
        """The rows of ``chunk``: one, or the pieces of a definition the pool joined (``pieces.join_pieces``)."""
        by_id = self.table.rows_by_id()
        ids = self.pieces.get(chunk.id, (chunk.id,))
        return [row for row in (by_id.get(one) for one in ids) if row is not None]

    def part_texts(self, chunk: Chunk) -> list[str]:
        """The texts of the pieces a joined definition holds, else the chunk's own: how strongly a chunk answers is
        judged piece by piece, so joining two pieces shows more of a definition without making it weigh more."""
        rows = self.rows_of(chunk) if chunk.id in self.pieces else []
        if not rows:
            return [chunk.text]
        lines = chunk.text.split("\n")
        return ["\n".join(lines[self.table.starts[r] - chunk.start_line : self.table.ends[r] - chunk.start_line + 1])
                for r in rows]  # fmt: skip

    def held_pieces(self) -> set[str]:
        return {piece for pieces in self.pieces.values() for piece in pieces}

    def row_of_location(self, chunk: Chunk) -> int | None:
        """The row of the indexed chunk holding ``chunk``'s lines (``chunk`` may be a part of it)."""
        row = self.row_of(chunk)
        if row is not None:
            return row
        for row in self.table.rows_by_path().get(chunk.path, []):
            if self.table.starts[row] <= chunk.start_line and chunk.end_line <= self.table.ends[row]:
                return row
        return None

    def rows_mentioning(self, name: str) -> list[int]:
        """Rows whose code holds the identifier ``name`` (from the BM25 index, or the texts in memory)."""
        tokens = code_tokens(name)
        if not tokens:
            return []
        if self.lexical is not None:
            scores = self.lexical.scores(tokens[:1])
            rows = np.flatnonzero(scores > 0)
            return [int(r) for r in rows[np.argsort(-scores[rows], kind="stable")]]
        pattern = re.compile(rf"(?<![\w$]){re.escape(name)}(?![\w$])")
        return [row for row, chunk in enumerate(self.chunks(range(len(self.table)))) if pattern.search(chunk.text)]

    def identifiers(self) -> list[str]:
        """Whole identifiers the code uses, lower-cased (the BM25 vocabulary; the texts in memory otherwise)."""
        if self.lexical is not None:
            return [word for word in self.lexical.vocabulary() if not word.isdigit()]
        words = {w.lower() for chunk in self.chunks(range(len(self.table))) for w in IDENTIFIER.findall(chunk.text)}
        return sorted(words)

    def in_scope(self, row: int) -> bool:
        return self.mask is None or bool(self.mask[row])

    def chunks(self, rows: Sequence[int]) -> list[Chunk]:
        """Chunks by table row, fetched once each."""
        ids = [self.table.ids[row] for row in rows]
        missing = [chunk_id for chunk_id in dict.fromkeys(ids) if chunk_id not in self._fetched]
        if missing:
            for chunk in self.fetch(missing):
                self._fetched[chunk.id] = chunk
        return [self._fetched[chunk_id] for chunk_id in ids if chunk_id in self._fetched]

    def file_rows(self, path: str) -> list[int]:
        rows = self.table.rows_by_path().get(path, [])
        return [row for row in rows if self.in_scope(row)]

    def file_chunks(self, paths: Sequence[str], limit: int | None = MAX_FILE_CHUNKS) -> dict[str, list[Chunk]]:
        """Every in-scope chunk of each file (up to ``limit`` each), in line order; one fetch for all."""
        wanted = {path: self.file_rows(path)[:limit] for path in paths}
        fetched = {chunk.id: chunk for chunk in self.chunks([row for rows in wanted.values() for row in rows])}
        return {
            path: sorted((fetched[self.table.ids[r]] for r in rows if self.table.ids[r] in fetched),
                         key=lambda c: c.start_line)
            for path, rows in wanted.items()
        }  # fmt: skip

    def neighbours(self, chunk: Chunk) -> tuple[list[int], list[int]]:
        """(callers, callees) rows of ``chunk`` in the symbol graph, in scope, tests and docs last (a joined
        definition's: its first piece's, then the next piece's)."""
        own = self.rows_of(chunk)
        late = {"test": 2, "docs": 2}

        def order(rows: Iterable[int]) -> list[int]:
            kept = [r for r in rows if r not in own and self.in_scope(r)]
            return sorted(kept, key=lambda r: (late.get(self.table.layers[r], 0), self.table.paths[r], r))

        callers = [r for row in own for r in order(self.graph.callers(row))]
        callees = [r for row in own for r in order(self.graph.callees(row))]
        return list(dict.fromkeys(callers)), list(dict.fromkeys(callees))

    def has_edge(self, user: Chunk, used: Chunk) -> bool:
        used_rows = set(self.rows_of(used))
        return any(not used_rows.isdisjoint(self.graph.callees(row)) for row in self.rows_of(user))

    def imports(self, paths: Sequence[str]) -> dict[str, set[str]]:
        """Which files each of ``paths`` imports, and what the package entries among them re-export."""
        by_path = self.table.rows_by_path()
        entries = [f"{d}/{name}" if d != "." else name for d in {str(PurePosixPath(p).parent) for p in paths}
                   for name in PACKAGE_ENTRIES]  # fmt: skip
        wanted = [*paths, *(entry for entry in entries if entry in by_path)]  # re-exports go through these
        wanted += [t for p in wanted for t in self.file_imports.get(p, ()) if PurePosixPath(t).name in PACKAGE_ENTRIES]
        return {path: set(self.file_imports[path]) for path in dict.fromkeys(wanted) if self.file_imports.get(path)}
