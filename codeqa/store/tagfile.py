"""The tags search file: what each file defines, uses and imports (extracted once, at index time), and the imports
resolved to files.

``tags.json`` holds every file's ``FileTags`` (references grouped by name and kind, with their lines) and is read
by the overview; ``imports.json`` holds only the resolved import graph (file → files, external package → files
using it), small enough to load for every answer. ``TagCollector`` gathers tags while chunks stream through
the pipeline, maps each chunk to the names its lines use (the symbol graph's edges), and writes both files.
"""

from __future__ import annotations

import bisect
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from codeqa.chunk.resolve import ImportGraph, resolve_imports
from codeqa.chunk.tags import supports, tag_text, text_of
from codeqa.records import Chunk, FileTags, ImportRef, Tag
from codeqa.symbols import referenced_names

TAGS_FILE = "tags.json"
IMPORTS_FILE = "imports.json"
TAGS_VERSION = 1
MIN_REFERENCE = 3  # as ``symbols.referenced_names``: shorter names are never evidence of a link
GRAPH_KINDS: frozenset[str] | None = None  # the reference kinds that make symbol-graph edges (None: every kind)


class TagCollector:
    """Per-file tags as they arrive, and per-chunk references for the symbol graph once a file's tags are known.

    Files whose tags were not handed in (search files rebuilt from the store, an update carrying files of an
    older index) are tagged at ``finish`` from their chunks' texts, which tile the file.
    """

    def __init__(self) -> None:
        self.tags: dict[str, FileTags] = {}
        self._lines: dict[str, tuple[list[int], list[str]]] = {}  # path → reference lines (sorted), names
        self._untagged: dict[str, list[Chunk]] = {}  # tagged languages whose tags did not come with the chunks
        self._pending: list[tuple[int, str, int, int]] = []  # rows waiting for their file's tags: row, path, lines

    def add_tags(self, tags: Sequence[FileTags]) -> None:
        for item in tags:
            self.tags[item.path] = item

    def references(self, row: int, chunk: Chunk) -> set[str] | None:
        """The names chunk ``row`` uses, or None when they are only known at ``finish`` (see ``resolved``)."""
        item = self.tags.get(chunk.path)
        if item is None and supports(chunk.language):
            self._untagged.setdefault(chunk.path, []).append(chunk)
            self._pending.append((row, chunk.path, chunk.start_line, chunk.end_line))
            return None
        if item is None or not item.tagged:
            return referenced_names(chunk.text)  # docs, config, languages without a query: the identifier pattern
        return self._in_lines(item, chunk.start_line, chunk.end_line)

    def resolved(self) -> dict[int, set[str]]:
        """Tag the files that came without tags (from their chunks) and give the rows that waited their names."""
        for path, chunks in self._untagged.items():
            self.tags[path] = tag_text(path, chunks[0].language, text_of(chunks))
        self._untagged = {}
        done = {row: self._in_lines(self.tags[path], start, end) for row, path, start, end in self._pending}
        self._pending = []
        return done

    def _in_lines(self, item: FileTags, start: int, end: int) -> set[str]:
        if item.path not in self._lines:
            kinds = GRAPH_KINDS
            used = [ref for ref in item.references if kinds is None or ref.category in kinds]
            pairs = sorted((ref.line, ref.name) for ref in used if len(ref.name) >= MIN_REFERENCE)
            self._lines[item.path] = ([line for line, _ in pairs], [sys.intern(name) for _, name in pairs])
        lines, names = self._lines[item.path]
        return set(names[bisect.bisect_left(lines, start) : bisect.bisect_right(lines, end)])

    def finish(self, directory: Path) -> ImportGraph:
        """Resolve the imports and write both files (``resolved`` must have run)."""
        graph = resolve_imports(self.tags.values())
        save_tags(directory, list(self.tags.values()), graph)
        return graph


def chunk_references(chunks: Sequence[Chunk], tags: Sequence[FileTags] = ()) -> list[set[str]]:
    """The names each chunk uses, as the symbol graph of an index built from them would see them."""
    collector = TagCollector()
    collector.add_tags(tags)
    found = [collector.references(row, chunk) for row, chunk in enumerate(chunks)]
    for row, names in collector.resolved().items():
        found[row] = names
    return [names or set() for names in found]


def save_tags(directory: Path, tags: Sequence[FileTags], graph: ImportGraph) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    files = {item.path: _encode(item) for item in sorted(tags, key=lambda t: t.path)}
    _write(directory / TAGS_FILE, {"version": TAGS_VERSION, "files": files})
    _write(directory / IMPORTS_FILE, {"version": TAGS_VERSION, "files": graph.files, "external": graph.external})


def load_tags(directory: Path) -> dict[str, FileTags] | None:
    """Every file's tags, or None when the file is missing or from another version."""
    data = _read(directory / TAGS_FILE)
    if data is None:
        return None
    try:
        return {path: _decode(path, raw) for path, raw in data["files"].items()}
    except (KeyError, TypeError, ValueError):
        return None


def load_imports(directory: Path) -> ImportGraph | None:
    data = _read(directory / IMPORTS_FILE)
    if data is None:
        return None
    try:
        files = {str(path): tuple(str(t) for t in targets) for path, targets in data["files"].items()}
        return ImportGraph(files, {str(name): int(n) for name, n in data["external"].items()})
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def _encode(item: FileTags) -> dict:
    grouped: dict[tuple[str, str], list[int]] = {}
    for ref in item.references:
        grouped.setdefault((ref.name, ref.category), []).append(ref.line)
    raw: dict = {
        "language": item.language,
        "tagged": item.tagged,
        "definitions": [[d.name, d.category, d.line] for d in item.definitions],
        "references": [[name, category, lines] for (name, category), lines in grouped.items()],
        "imports": [[i.target, i.line, list(i.names), i.kind] for i in item.imports],
    }
    if item.namespace:
        raw["namespace"] = item.namespace
    if item.build:
        raw["build"] = item.build
    return raw


def _decode(path: str, raw: dict) -> FileTags:
    references = sorted(
        (Tag(name, category, line) for name, category, lines in raw["references"] for line in lines),
        key=lambda t: (t.line, t.name, t.category),  # the order tagging gives them
    )
    return FileTags(
        path,
        raw["language"],
        definitions=tuple(Tag(name, category, line) for name, category, line in raw["definitions"]),
        references=tuple(references),
        imports=tuple(ImportRef(target, line, tuple(names), kind) for target, line, names, kind in raw["imports"]),
        namespace=raw.get("namespace", ""),
        build=raw.get("build", ""),
        tagged=bool(raw["tagged"]),
    )


def _write(path: Path, data: dict) -> None:
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(data, separators=(",", ":")))
    partial.replace(path)


def _read(path: Path) -> dict | None:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("version") == TAGS_VERSION else None
