"""What a newcomer wants to see first: sizes by language/layer/directory, big files, central symbols, module imports.

Everything comes from what indexing stored: the chunk table (sizes, symbols) and the tags search file (each file's
references and resolved imports, extracted once at index time), so nothing is read back out of Chroma or parsed
again, and it works for remote sources whose clone is gone. ``build_overview`` is a pure function over chunk
metadata and tags; ``load_overview`` reads them from the index.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

from codeqa.chunk.resolve import ImportGraph, resolve_imports
from codeqa.chunk.tags import tag_chunks
from codeqa.explore.imports import DependencyGraph, auto_modules, module_graph
from codeqa.index import Index
from codeqa.records import Chunk, FileTags
from codeqa.searchfiles import ChunkTable
from codeqa.symbols import short_names

# how a plain word (``index``, ``search``) must be used to count (PHP and Ruby calls by receiver: ``*-tags.scm``)
CALLS = frozenset({"call", "class", "ancestor", "by_self", "by_parent", "by_class", "called_class", "function"})
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

    def dependencies(self, depth: int | None = None) -> DependencyGraph:
        """Imports between modules: folders ``depth`` components deep, or (None) folders sized to show structure."""
        lines = {f.path: f.lines for f in self.file_stats}
        modules = auto_modules(self.file_imports, lines) if depth is None else None
        return module_graph(self.file_imports, lines, depth or 1, modules=modules)


# -- sizes ---------------------------------------------------------------------------------------------------------
def file_stats(table: ChunkTable) -> list[FileStat]:
    """Per file: lines (last chunk line: chunks cover the file), chunks, language, most common layer."""
    by_path: dict[str, list[int]] = defaultdict(list)
    for row, path in enumerate(table.paths):
        by_path[path].append(row)
    stats = [
        FileStat(
            path=path,
            language=table.languages[rows[0]],
            lines=max(table.ends[r] for r in rows),
            chunks=len(rows),
            layer=Counter(table.layers[r] for r in rows).most_common(1)[0][0],
        )
        for path, rows in by_path.items()
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
    """``index``, ``search``: also ordinary words, so only calls and constructions count as references."""
    return name.isalpha() and name.islower()


def most_referenced(table: ChunkTable, tags: Mapping[str, FileTags], n: int = 20) -> list[SymbolRef]:
    """Symbols whose last name component the code uses most, in other files first (generic names skipped).

    Definitions are the chunks' symbols; uses are the references the tag queries found at index time (so a
    name in a comment or a string does not count), outside the defining chunk. Linear in the references.
    """
    definitions: dict[str, list[int]] = defaultdict(list)
    for row, symbol in enumerate(table.symbols):
        kind, language = table.kinds[row], table.languages[row]
        namespace = kind == "module" and language in NAMESPACE_LANGUAGES
        if kind not in NOT_SYMBOLS and symbol and not namespace:
            for name in short_names(symbol):
                ambiguous = kind == "method" and _plain_word(name)  # .append( .split( are everyone's
                if len(name) >= 3 and name not in GENERIC_NAMES and not ambiguous:
                    definitions[name].append(row)
    uses: dict[str, list[tuple[str, int]]] = defaultdict(list)  # name → (path, line) of each use
    for path, item in tags.items():
        for ref in item.references:
            if ref.name in definitions and (ref.category in CALLS or not _plain_word(ref.name)):
                uses[ref.name].append((path, ref.line))
    refs = []
    for name, rows in definitions.items():
        own = [(table.paths[r], table.starts[r], table.ends[r]) for r in rows]
        outside = [(path, line) for path, line in dict.fromkeys(uses.get(name, ()))
                   if not any(path == p and start <= line <= end for p, start, end in own)]  # fmt: skip
        if not outside:
            continue
        first = rows[0]
        symbol = next((s.strip() for s in table.symbols[first].split(",") if short_names(s) == [name]), name)
        other_files = {path for path, _ in outside} - {p for p, _, _ in own}
        refs.append(
            SymbolRef(
                name,
                symbol,
                table.kinds[first],
                table.paths[first],
                table.starts[first],
                table.ends[first],
                len(outside),
                len(other_files),
            )  # fmt: skip
        )
    refs.sort(key=lambda r: (-r.files, -r.references, r.name))
    return refs[:n]


# -- putting it together -------------------------------------------------------------------------------------------
def build_overview(
    chunks: ChunkTable | Sequence[Chunk],
    *,
    tags: Mapping[str, FileTags] | Iterable[FileTags] | None = None,
    imports: ImportGraph | None = None,
    name: str = "",
    top: int = 20,
) -> Overview:
    """The overview of an index's chunk table and tags (without ``tags``: tagged here from the chunks' texts)."""
    table = chunks if isinstance(chunks, ChunkTable) else _table(chunks)
    if tags is None:
        tags = tag_chunks(chunks if not isinstance(chunks, ChunkTable) else [])
    by_path = tags if isinstance(tags, Mapping) else {item.path: item for item in tags}
    imports = imports if imports is not None else resolve_imports(by_path.values())
    stats = file_stats(table)
    lines_by_language: Counter[str] = Counter()
    for stat in stats:
        lines_by_language[stat.language] += stat.lines
    return Overview(
        index=name,
        files=len(stats),
        lines=sum(s.lines for s in stats),
        chunks=len(table),
        lines_by_language=dict(lines_by_language.most_common()),
        chunks_by_layer=dict(Counter(table.layers).most_common()),
        chunks_by_kind=dict(Counter(table.kinds).most_common()),
        directories=tuple(directory_tree(stats)),
        file_stats=tuple(stats),
        top_symbols=tuple(most_referenced(table, by_path, top)),
        file_imports=dict(imports.files),
        external_imports=dict(list(imports.external.items())[:top]),
    )


def _table(chunks: Sequence[Chunk]) -> ChunkTable:
    table = ChunkTable()
    table.append(sorted(chunks, key=lambda c: (c.path, c.start_line)))
    return table


def load_overview(index: Index) -> Overview:
    """The overview of an index, from its search files and stored tags."""
    search = index.files
    return build_overview(search.table, tags=index.tags(), imports=search.imports, name=index.name)
