"""What a newcomer wants to see first: sizes by language/layer/directory, big files, central symbols, module imports.

Everything is computed from the chunks already in the index (no second pass over the repository), so it works
for remote sources whose clone is gone. Pure functions over ``Chunk`` records; ``load_overview`` reads the store.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

from codeqa.explore.imports import DependencyGraph, import_graph, module_graph
from codeqa.index import Index
from codeqa.records import Chunk
from codeqa.symbols import IDENTIFIER, short_names

CALL = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(")
NOT_SYMBOLS = frozenset({"doc", "config", "test"})  # headings and keys are not code anyone calls
NAMESPACE_LANGUAGES = frozenset({"php", "csharp", "cpp"})  # their "module" chunks are namespaces, not symbols
GENERIC_NAMES = frozenset(
    [
        "__init__",
        "main",
        "run",
        "get",
        "set",
        "setup",
        "call",
        "init",
        "new",
        "test",
        "self",
        "update",
        "close",
        "open",
        "read",
        "write",
        "start",
        "stop",
        "name",
        "value",
        "data",
        "process",
        "handle",
        "apply",
        "create",
    ]
)


@dataclass(frozen=True)
class FileStat:
    path: str
    language: str
    lines: int
    chunks: int
    layer: str


@dataclass(frozen=True)
class DirNode:
    """A node of the directory tree (directory or file) for a treemap: ``id`` is the path, ``parent`` its folder."""

    id: str
    parent: str
    name: str
    lines: int
    files: int
    is_file: bool


@dataclass(frozen=True)
class SymbolRef:
    """A defined symbol and how often its name appears in *other* chunks (a cheap proxy for "used a lot")."""

    name: str
    symbol: str
    kind: str
    path: str
    start_line: int
    end_line: int
    references: int  # occurrences outside the defining chunk(s)
    files: int  # distinct other files mentioning it


@dataclass(frozen=True)
class Overview:
    index: str
    files: int
    lines: int
    chunks: int
    lines_by_language: dict[str, int]
    chunks_by_layer: dict[str, int]
    chunks_by_kind: dict[str, int]
    directories: tuple[DirNode, ...]
    file_stats: tuple[FileStat, ...]  # largest first
    top_symbols: tuple[SymbolRef, ...]
    file_imports: dict[str, tuple[str, ...]]  # file → repo files it imports (resolved)
    external_imports: dict[str, int]  # unresolved import → how many files use it

    def largest_files(self, n: int = 15) -> tuple[FileStat, ...]:
        return self.file_stats[:n]

    def dependencies(self, depth: int = 1) -> DependencyGraph:
        return module_graph(self.file_imports, {f.path: f.lines for f in self.file_stats}, depth)


# -- sizes ---------------------------------------------------------------------------------------------------------
def file_stats(chunks: Sequence[Chunk]) -> list[FileStat]:
    """Per file: lines (last chunk line: chunks cover the file), chunks, language, most common layer."""
    by_path: dict[str, list[Chunk]] = defaultdict(list)
    for chunk in chunks:
        by_path[chunk.path].append(chunk)
    stats = [
        FileStat(
            path=path,
            language=items[0].language,
            lines=max(c.end_line for c in items),
            chunks=len(items),
            layer=Counter(c.layer for c in items).most_common(1)[0][0],
        )
        for path, items in by_path.items()
    ]
    return sorted(stats, key=lambda f: (-f.lines, f.path))


def directory_tree(stats: Iterable[FileStat]) -> list[DirNode]:
    """Every file and every ancestor directory, with summed lines; root-level entries have parent ``""``."""
    lines: Counter[str] = Counter()
    files: Counter[str] = Counter()
    nodes: list[DirNode] = []
    for stat in stats:
        parts = PurePosixPath(stat.path).parts
        for depth in range(1, len(parts)):
            folder = "/".join(parts[:depth])
            lines[folder] += stat.lines
            files[folder] += 1
        parent = "/".join(parts[:-1])
        nodes.append(DirNode(stat.path, parent, parts[-1], stat.lines, 1, True))
    for folder in sorted(lines):
        parent, _, name = folder.rpartition("/")
        nodes.append(DirNode(folder, parent, name, lines[folder], files[folder], False))
    return nodes


def _plain_word(name: str) -> bool:
    """``index``, ``search``: also ordinary words, so only call sites (``index(``) count as references."""
    return name.isalpha() and name.islower()


def most_referenced(chunks: Sequence[Chunk], n: int = 20) -> list[SymbolRef]:
    """Symbols whose last name component appears most often in other chunks (generic names skipped).

    One pass over the texts builds postings (name → chunks mentioning it) for defined names only, so this is
    linear in the size of the repository, not in definitions × chunks.
    """
    definitions: dict[str, list[int]] = defaultdict(list)
    for row, chunk in enumerate(chunks):
        namespace = chunk.kind == "module" and chunk.language in NAMESPACE_LANGUAGES
        if chunk.kind not in NOT_SYMBOLS and chunk.symbol and not namespace:
            for name in short_names(chunk.symbol):
                ambiguous = chunk.kind == "method" and _plain_word(name)  # .append( .split( are everyone's
                if len(name) >= 3 and name not in GENERIC_NAMES and not ambiguous:
                    definitions[name].append(row)
    plain = {name for name in definitions if _plain_word(name)}
    postings: dict[str, list[tuple[int, int]]] = defaultdict(list)  # name → (row, occurrences)
    for row, chunk in enumerate(chunks):
        mentions = Counter(word for word in IDENTIFIER.findall(chunk.text) if word in definitions and word not in plain)
        calls = Counter(word for word in CALL.findall(chunk.text) if word in plain)
        for name, count in (mentions + calls).items():
            postings[name].append((row, count))
    refs = []
    for name, rows in definitions.items():
        own = set(rows)
        using = [(row, count) for row, count in postings.get(name, ()) if row not in own]
        outside = sum(count for _, count in using)
        if not outside:
            continue
        first = chunks[rows[0]]
        symbol = next((s.strip() for s in first.symbol.split(",") if short_names(s) == [name]), name)
        other_files = {chunks[row].path for row, _ in using} - {chunks[row].path for row in rows}
        refs.append(
            SymbolRef(name, symbol, first.kind, first.path, first.start_line, first.end_line, outside, len(other_files))
        )
    refs.sort(key=lambda r: (-r.files, -r.references, r.name))
    return refs[:n]


# -- putting it together -------------------------------------------------------------------------------------------
def build_overview(chunks: Sequence[Chunk], *, name: str = "", top: int = 20) -> Overview:
    stats = file_stats(chunks)
    lines_by_language: Counter[str] = Counter()
    for stat in stats:
        lines_by_language[stat.language] += stat.lines
    by_path: dict[str, list[Chunk]] = defaultdict(list)
    for chunk in chunks:
        by_path[chunk.path].append(chunk)
    texts = {
        path: (items[0].language, "\n".join(c.text for c in sorted(items, key=lambda c: c.start_line)))
        for path, items in by_path.items()
    }
    imports, external = import_graph(texts)
    return Overview(
        index=name,
        files=len(stats),
        lines=sum(s.lines for s in stats),
        chunks=len(chunks),
        lines_by_language=dict(lines_by_language.most_common()),
        chunks_by_layer=dict(Counter(c.layer for c in chunks).most_common()),
        chunks_by_kind=dict(Counter(c.kind for c in chunks).most_common()),
        directories=tuple(directory_tree(stats)),
        file_stats=tuple(stats),
        top_symbols=tuple(most_referenced(chunks, top)),
        file_imports=imports,
        external_imports=dict(external.most_common(top)),
    )


def load_chunks(index: Index) -> list[Chunk]:
    return sorted(index.chunks(), key=lambda c: (c.path, c.start_line))


def load_overview(index: Index) -> Overview:
    return build_overview(load_chunks(index), name=index.name)
