"""The tags search file: what each file defines, uses and imports (extracted once, at index time), and the imports
resolved to files.

``tags.json`` holds every file's ``FileTags`` (references as indexes into the file's own name list, with their
lines), one line per file after a version line, and is read by the overview; ``imports.json`` holds only the
resolved import graph (file → files, external package → files using it), small enough to load for every answer.
``TagCollector`` gathers tags while chunks stream through the writer, maps each chunk to the names its lines use
(the symbol graph's edges), and writes both files. An update carries an unchanged file's line as it was
(``StoredTags``: lines decoded only when read; import resolution decodes references only for the languages whose
rules read them).
"""

from __future__ import annotations

import bisect
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from codeqa.chunk.resolve import ImportGraph, name_scopes, reads_references, resolve_imports
from codeqa.chunk.resolve.scope import NameScope
from codeqa.chunk.tags import supports, tag_text
from codeqa.records import Chunk, FileTags, ImportRef, Tag
from codeqa.symbols import referenced_names

TAGS_FILE = "tags.json"
IMPORTS_FILE = "imports.json"
TAGS_VERSION = 3  # 3: one line per file
MIN_REFERENCE = 3  # as ``symbols.referenced_names``: shorter names are never evidence of a link
# carried files decoded for their names' scopes (Python, JS/TS, PHP, Ruby and composer.json; the others are not read)
PYTHON_FILES = (".py", ".pyi", ".pyw")
JS_FILES = (".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".vue", ".svelte")
SCOPED_FILES = (*PYTHON_FILES, *JS_FILES, ".php", ".rb", "composer.json")
GRAPH_KINDS: frozenset[str] | None = None  # the reference kinds that make symbol-graph edges (None: every kind)


class TagCollector:
    """Per-file tags as they arrive, and each chunk's references (the symbol graph's edges) read from them.

    A chunk whose file's tags were not handed in (a caller with chunks only) is tagged on its own text, at its lines;
    those pieces make up its file's tags. Search files rebuilt from the store tag whole files first.
    """

    def __init__(self) -> None:
        self.tags: dict[str, FileTags] = {}
        self._carried: dict[str, StoredTags] = {}  # path → the generation its line is copied from
        self._lines: tuple[str, list[int], list[str]] = ("", [], [])  # the last file's reference lines and names
        self._pieces: dict[str, list[FileTags]] = {}  # files tagged chunk by chunk
        self.scopes: dict[str, NameScope] = {}  # how each Python, JS/TS, PHP and Ruby file binds names (``finish``)

    def add_tags(self, tags: Sequence[FileTags]) -> None:
        for item in tags:
            self.tags[item.path] = item
            self._carried.pop(item.path, None)

    def carry(self, stored: StoredTags, path: str) -> None:
        """Keep ``path``'s tags as ``stored`` has them (its line is written again as it is)."""
        if path in stored:
            self._carried[path] = stored
            self.tags.pop(path, None)

    def references(self, chunk: Chunk) -> set[str]:
        """The names ``chunk`` uses: its file's references within its lines, or the identifier pattern's matches for
        text no tag query reads (docs, config, languages without a query)."""
        names = self.tagged_references(chunk)
        return referenced_names(chunk.text) if names is None else names

    def tagged_references(self, chunk: Chunk) -> set[str] | None:
        """The names ``chunk`` uses per its file's tag query; None when no query reads it."""
        item = self.tags.get(chunk.path)
        if item is None and supports(chunk.language):
            item = tag_text(chunk.path, chunk.language, "\n" * (chunk.start_line - 1) + chunk.text)
            self._pieces.setdefault(chunk.path, []).append(item)
            if item.tagged:
                return _names(item, chunk.start_line, chunk.end_line)
        if item is None or not item.tagged:
            return None
        if self._lines[0] != item.path:  # a file's chunks come one after another
            self._lines = (item.path, *_reference_lines(item))
        _, lines, names = self._lines
        return set(names[bisect.bisect_left(lines, chunk.start_line) : bisect.bisect_right(lines, chunk.end_line)])

    def finish(self, directory: Path, markers: Sequence[FileTags] = ()) -> ImportGraph:
        """Resolve every file's imports (and its names: ``scopes``) and write both files; ``markers``: the skipped
        package markers (empty ``__init__.py``), read by the resolver only."""
        for path, pieces in self._pieces.items():
            self.tags[path] = merge_pieces(pieces)
        graph = self._unchanged_graph()  # carried with the markers it was resolved with
        if graph is None:
            graph = resolve_imports([*self.tags.values(), *(s.for_resolution(p) for p, s in self._carried.items()),
                                     *markers])  # fmt: skip
        scoped = [s.for_resolution(p) if p.endswith(PYTHON_FILES) else s.get(p)  # JS scopes read references
                  for p, s in self._carried.items() if p.endswith(SCOPED_FILES)]  # fmt: skip
        self.scopes = name_scopes([*self.tags.values(), *scoped, *markers], graph)  # Python, JS/TS, PHP, Ruby files
        lines = {path: _line(item) for path, item in self.tags.items()}
        lines.update({path: stored.lines[path] for path, stored in self._carried.items()})
        _save(directory, lines, graph)
        return graph

    def _unchanged_graph(self) -> ImportGraph | None:
        """The import graph of the generation everything else is carried from, when resolving again would give it:
        the same files, and each fresh file the same as there in all that resolution reads (an edit inside a
        function body). None: resolve."""
        bases = {id(stored): stored for stored in self._carried.values()}
        if len(bases) != 1 or self._pieces:
            return None
        base = next(iter(bases.values()))
        if base.graph is None or len(base) != len(self._carried) + len(self.tags):
            return None
        for path, item in self.tags.items():
            if path not in base or _resolution_view(item) != _resolution_view(base.for_resolution(path)):
                return None
        return base.graph


def _reference_lines(item: FileTags) -> tuple[list[int], list[str]]:
    """The lines and names of a file's references (in the order of the file: lines never go down)."""
    kinds = GRAPH_KINDS
    used = [ref for ref in item.references
            if len(ref.name) >= MIN_REFERENCE and (kinds is None or ref.category in kinds)]  # fmt: skip
    lines = [ref.line for ref in used]
    if lines != sorted(lines):  # tags put together by hand
        used.sort(key=lambda ref: ref.line)
        lines = [ref.line for ref in used]
    return lines, [ref.name for ref in used]


def _names(item: FileTags, start: int, end: int) -> set[str]:
    lines, names = _reference_lines(item)
    return set(names[bisect.bisect_left(lines, start) : bisect.bisect_right(lines, end)])


def merge_pieces(pieces: Sequence[FileTags]) -> FileTags:
    """One file's tags from the tags of its chunks, each read on its own."""
    first = pieces[0]
    return FileTags(
        first.path,
        first.language,
        definitions=tuple(d for piece in pieces for d in piece.definitions),
        references=tuple(r for piece in pieces for r in piece.references),
        imports=tuple(i for piece in pieces for i in piece.imports),
        namespace=next((piece.namespace for piece in pieces if piece.namespace), ""),
        tagged=first.tagged,
    )


def chunk_references(chunks: Sequence[Chunk], tags: Sequence[FileTags] = ()) -> list[set[str]]:
    """The names each chunk uses, as the symbol graph of an index built from them would see them."""
    collector = TagCollector()
    collector.add_tags(tags)
    return [collector.references(chunk) for chunk in chunks]


def _resolution_view(item: FileTags) -> tuple:
    """What import resolution reads of a file (no rule reads lines)."""
    references = [(r.name, r.category) for r in item.references] if reads_references(item.language) else []
    definitions = [(d.name, d.category) for d in item.definitions]
    imports = [(i.target, i.names, i.kind) for i in item.imports]
    return item.language, definitions, references, imports, item.namespace, item.build


class StoredTags:
    """A generation's ``tags.json``, each file's line decoded only when asked for, and its resolved imports."""

    def __init__(self, lines: dict[str, str], graph: ImportGraph | None = None) -> None:
        self.lines = lines  # path → its line, as written
        self.graph = graph

    def __contains__(self, path: str) -> bool:
        return path in self.lines

    def __len__(self) -> int:
        return len(self.lines)

    def get(self, path: str) -> FileTags:
        return _decode(path, json.loads(self.lines[path].split("\t", 1)[1]))

    def for_resolution(self, path: str) -> FileTags:
        """What import resolution reads of ``path``: its references only if its language's rules use them."""
        raw = json.loads(self.lines[path].split("\t", 1)[1])
        return _decode(path, raw, references=reads_references(raw["language"]))

    def decoded(self) -> dict[str, FileTags]:
        return {path: self.get(path) for path in self.lines}


def save_tags(directory: Path, tags: Sequence[FileTags], graph: ImportGraph) -> None:
    _save(directory, {item.path: _line(item) for item in tags}, graph)


def _save(directory: Path, lines: dict[str, str], graph: ImportGraph) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    header = json.dumps({"version": TAGS_VERSION})
    _write_text(directory / TAGS_FILE, "\n".join([header, *(lines[path] for path in sorted(lines))]) + "\n")
    data = {"version": TAGS_VERSION, "files": graph.files, "external": graph.external}
    _write_text(directory / IMPORTS_FILE, json.dumps(data, separators=(",", ":")))


def _line(item: FileTags) -> str:
    """A file's line: its path as a JSON string, a tab (never inside one), its tags as JSON."""
    return f"{json.dumps(item.path)}\t{json.dumps(_encode(item), separators=(',', ':'))}"


def load_stored_tags(directory: Path) -> StoredTags | None:
    """A generation's tags, undecoded; None when the file is missing or from another version."""
    try:
        header, *rows = (directory / TAGS_FILE).read_text().splitlines()
        if json.loads(header).get("version") != TAGS_VERSION:
            return None
        return StoredTags({json.loads(line.split("\t", 1)[0]): line for line in rows}, load_imports(directory))
    except (OSError, ValueError, AttributeError):
        return None


def tags_current(directory: Path) -> bool:
    """Whether ``tags.json`` is there and of this version (its first line; the rest is read when used)."""
    try:
        with (directory / TAGS_FILE).open() as handle:
            header = json.loads(handle.readline())
    except (OSError, ValueError):
        return False
    return isinstance(header, dict) and header.get("version") == TAGS_VERSION


def load_tags(directory: Path) -> dict[str, FileTags] | None:
    """Every file's tags, or None when the file is missing, damaged or from another version."""
    stored = load_stored_tags(directory)
    if stored is None:
        return None
    try:
        return stored.decoded()
    except (KeyError, TypeError, ValueError, IndexError):
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
    """A file's tags as JSON: references as one flat list (name, kind, line, …) into the file's own name list."""
    names: dict[str, int] = {}
    kinds: dict[str, int] = {}
    flat: list[int] = []
    for ref in item.references:
        flat += (names.setdefault(ref.name, len(names)), kinds.setdefault(ref.category, len(kinds)), ref.line)
    raw: dict = {
        "language": item.language,
        "tagged": item.tagged,
        "definitions": [[d.name, d.category, d.line] for d in item.definitions],
        "names": list(names),
        "kinds": list(kinds),
        "references": flat,
        "imports": [[i.target, i.line, list(i.names), i.kind] for i in item.imports],
    }
    if item.namespace:
        raw["namespace"] = item.namespace
    if item.build:
        raw["build"] = item.build
    return raw


def _decode(path: str, raw: dict, *, references: bool = True) -> FileTags:
    refs: tuple[Tag, ...] = ()
    if references:
        names = [sys.intern(name) for name in raw["names"]]
        kinds, flat = raw["kinds"], raw["references"]
        refs = tuple(map(Tag, [names[i] for i in flat[0::3]], [kinds[i] for i in flat[1::3]], flat[2::3]))
    return FileTags(
        path,
        raw["language"],
        definitions=tuple(Tag(name, category, line) for name, category, line in raw["definitions"]),
        references=refs,
        imports=tuple(ImportRef(target, line, tuple(names_), kind) for target, line, names_, kind in raw["imports"]),
        namespace=raw.get("namespace", ""),
        build=raw.get("build", ""),
        tagged=bool(raw["tagged"]),
    )


def _write_text(path: Path, text: str) -> None:
    partial = path.with_name(path.name + ".partial")
    partial.write_text(text)
    partial.replace(path)


def _read(path: Path) -> dict | None:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("version") == TAGS_VERSION else None
