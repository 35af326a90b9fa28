"""Definitions, references and imports of one file, read with its language's tag query (``queries/*-tags.scm``).

The queries are data, one file per language, in aider's capture convention plus captures for imports:

- ``@name.definition.<kind>``: the name of a definition (``function``, ``method``, ``class``, ``module``, …);
- ``@name.reference.<kind>``: a name used (``call``, ``class``, ``type``, …; the generic kinds ``identifier``,
  ``member`` and ``constant`` lose to a specific one on the same node);
- ``@import`` (resolved by the language's rules), ``@import.relative`` (to the importing file),
  ``@import.wildcard`` (a whole package), ``@import.system`` (``#include <…>``); ``@import.part`` for the pieces of
  a dotted path written as separate nodes (Scala: joined with ``.``); ``@import.name`` for what the statement
  imports from its target (``from a import b``: the statement is the parent of the target);
- ``@namespace``: the package or namespace the file declares.

Captures starting with ``_`` only serve predicates. A query file may start with ``; inherits: other`` to include
another language's query (TypeScript reads JavaScript's). Tagging runs once per file at index time, on the tree
the chunker parsed; nothing reads source text for names after that.
"""

from __future__ import annotations

import logging
import re
import sys
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from tree_sitter import Node, Query, QueryCursor, Tree

from codeqa.chunk.grammars import GRAMMARS
from codeqa.chunk.treesitter import get_parser
from codeqa.records import Chunk, FileTags, ImportRef, Tag

QUERIES = Path(__file__).parent / "queries"
# reference kinds a more specific capture on the same node replaces (identifier loses to every other kind)
GENERIC = {"member": 2, "constant": 2, "identifier": 3}
IMPORT_KINDS = frozenset({"relative", "wildcard", "system"})
# ``@import.name``: a name imported from the module; ``@import.binding``: a local name bound to the module itself
# (JS ``import m from``, ``import * as m``, ``const m = require(...)``), kept in ``ImportRef.names`` as ``* as m``
NAME_CAPTURES = frozenset({"import.name", "import.binding"})
MODULE_BINDING = "* as "
# what lies between a JS import's string and the statement that holds its names
_IMPORT_WRAPPERS = frozenset({"string", "arguments", "call_expression", "await_expression", "import_require_clause"})
ANONYMOUS = frozenset({"identifier", "member"})  # plain uses of a name: short ones (``i``, ``x``) are not evidence
MIN_ANONYMOUS = 3
BUILD_FILES = re.compile(r"(^|/)(go\.mod|package\.json|composer\.json|(ts|js)config(\.[\w-]+)?\.json)$")
MAX_BUILD_CHARS = 200_000
EMBEDDED_SCRIPTS = {"vue": "typescript", "svelte": "typescript"}  # single-file components: tag their <script>
_SCRIPT = re.compile(r"<script\b[^>]*>(.*?)</script>", re.S | re.I)
_INHERITS = re.compile(r"^;\s*inherits:\s*([\w, ]+)")
_NEWLINE = re.compile(b"\n")
_QUOTES = "\"'`<>"

log = logging.getLogger(__name__)


def query_text(language: str) -> str | None:
    """The tag query of ``language`` with the queries it inherits prepended, or None when it has none."""
    path = QUERIES / f"{language}-tags.scm"
    if not path.is_file():
        return None
    text = path.read_text()
    inherited = _INHERITS.match(text)
    parents = [name.strip() for name in inherited.group(1).split(",")] if inherited else []
    return "\n".join([*(query_text(parent) or "" for parent in parents), text])


@dataclass(frozen=True)
class TagQuery:
    """A language's compiled tag query and what each capture means."""

    query: Query
    roles: dict[str, tuple[int, str, int]]  # name capture → (order: definitions, specific, generic refs; kind; min len)


@cache
def tag_query(language: str) -> TagQuery | None:
    """The compiled tag query of one of our language names (None: no query or no grammar)."""
    grammar = GRAMMARS.get(language)
    text = query_text(language)
    if grammar is None or text is None:
        return None
    from tree_sitter_language_pack import get_language

    query = Query(get_language(grammar.ts_name), text)  # type: ignore[arg-type]
    roles: dict[str, tuple[int, str, int]] = {}
    for index in range(query.capture_count):
        capture = query.capture_name(index)
        if capture.startswith("name.definition."):
            roles[capture] = (0, capture[16:], 0)
        elif capture.startswith("name.reference."):
            kind = capture[15:]
            roles[capture] = (GENERIC.get(kind, 1), kind, MIN_ANONYMOUS if kind in ANONYMOUS else 0)
    return TagQuery(query, roles)


def split_patterns(text: str) -> list[str]:
    """The top-level patterns of a query file (each starts with ``(`` or ``[`` outside any group)."""
    patterns: list[str] = []
    current: list[str] = []
    depth, i = 0, 0
    while i < len(text):
        char = text[i]
        if char == ";":  # a comment, to the end of the line
            i = text.find("\n", i)
            i = len(text) if i < 0 else i
            continue
        if char == '"':
            end = i + 1
            while end < len(text) and text[end] != '"':
                end += 2 if text[end] == "\\" else 1
            current.append(text[i : end + 1])
            i = end + 1
            continue
        if char in "([" and depth == 0 and "".join(current).strip():
            patterns.append("".join(current).strip())
            current = []
        depth += 1 if char in "([" else -1 if char in ")]" else 0
        current.append(char)
        i += 1
    if "".join(current).strip():
        patterns.append("".join(current).strip())
    return patterns


def supports(language: str) -> bool:
    """Whether files of ``language`` get their names from a tag query (else: none, or the identifier pattern)."""
    return language in EMBEDDED_SCRIPTS or tag_query(language) is not None


def tag_tree(path: str, language: str, tree: Tree, source: bytes, *, text: str = "") -> FileTags:
    """The tags of a file already parsed (``source`` is exactly what was parsed)."""
    collected = _Collected()
    query = tag_query(language)
    if query is not None:
        collected.add(query, tree.root_node, source, 0)
    return collected.result(path, language, _build_text(path, text), query is not None)


def tag_text(path: str, language: str, text: str) -> FileTags:
    """Parse and tag one file (a file the chunker did not parse, or one rebuilt from stored chunks)."""
    if language in EMBEDDED_SCRIPTS:
        return _tag_scripts(path, language, text)
    query = tag_query(language)
    if query is None:
        return FileTags(path, language, build=_build_text(path, text))
    parser = get_parser(language)
    if parser is None:
        return FileTags(path, language, build=_build_text(path, text))
    source = text.encode("utf-8", "surrogatepass")
    return tag_tree(path, language, parser.parse(source), source, text=text)


def tag_chunks(chunks: Sequence[Chunk]) -> list[FileTags]:
    """The tags of the files ``chunks`` come from, read from their texts (chunks held in memory, not indexed)."""
    by_path: dict[str, list[Chunk]] = {}
    for chunk in chunks:
        by_path.setdefault(chunk.path, []).append(chunk)
    return [tag_text(path, items[0].language, text_of(items)) for path, items in by_path.items()]


def text_of(chunks: Sequence[Chunk]) -> str:
    """A file's text from its chunks (they hold every non-blank line at its place)."""
    lines: list[str] = []
    for chunk in sorted(chunks, key=lambda c: c.start_line):
        lines.extend([""] * (chunk.start_line - 1 - len(lines)))
        lines[chunk.start_line - 1 :] = chunk.text.split("\n")
    return "\n".join(lines) + "\n"


def _tag_scripts(path: str, language: str, text: str) -> FileTags:
    """Vue/Svelte: the ``<script>`` blocks, parsed as TypeScript, at their lines in the file (not ``tagged``: the
    template uses names too, so the symbol graph reads the whole text with the identifier pattern)."""
    script_language = EMBEDDED_SCRIPTS[language]
    parser, query = get_parser(script_language), tag_query(script_language)
    collected = _Collected()
    if parser is not None and query is not None:
        for match in _SCRIPT.finditer(text):
            source = match.group(1).encode("utf-8", "surrogatepass")
            collected.add(query, parser.parse(source).root_node, source, text.count("\n", 0, match.start(1)))
    return collected.result(path, language, "", False)  # the template uses names too: not every reference is here


def _build_text(path: str, text: str) -> str:
    return text[:MAX_BUILD_CHARS] if text and BUILD_FILES.search(path) else ""


class _Collected:
    """Captures of one file, deduplicated by node (a definition's name is not also a reference to it)."""

    def __init__(self) -> None:
        self.definitions: dict[int, Tag] = {}  # node key (from its start and end) → tag
        self.references: dict[int, Tag] = {}
        self.imports: list[ImportRef] = []
        self.namespace = ""

    def add(self, query: TagQuery, root: Node, source: bytes, line_offset: int) -> None:
        base = line_offset << 64  # keys of several script blocks never collide
        captured = QueryCursor(query.query).captures(root)
        definitions, references, roles = self.definitions, self.references, query.roles
        newlines = [match.start() for match in _NEWLINE.finditer(source)]  # a line from a byte offset: one bisect
        first_line = 1 + line_offset
        names: dict[bytes, str] = {}  # each distinct name decoded (and interned) once
        for capture in sorted(captured, key=lambda c: roles.get(c, (9, "", 0))):
            role = roles.get(capture)
            if role is None:
                continue
            order, kind, shortest = role
            into = definitions if order == 0 else references
            for node in captured[capture]:
                start, end = node.start_byte, node.end_byte
                key = base + (start << 32) + end
                if end - start < shortest or key in definitions or key in into:
                    continue
                raw = source[start:end]
                name = names.get(raw)
                if name is None:
                    name = names[raw] = sys.intern(raw.decode("utf-8", "replace"))
                into[key] = Tag(name, kind, bisect_left(newlines, start) + first_line)
        if any(capture.startswith(("import", "namespace")) for capture in captured):
            self._imports(captured, source, line_offset)

    def _imports(self, captured: dict[str, list[Node]], source: bytes, line_offset: int) -> None:
        """Import targets (or the parts of one) with the names their statement imports, in the order of the file."""
        statements: dict[tuple[int, int], _Statement] = {}
        for capture, nodes in captured.items():
            if capture == "namespace" and not self.namespace:
                self.namespace = _text(source, min(nodes, key=lambda n: n.start_byte))
            if not capture.startswith("import") or capture in NAME_CAPTURES:
                continue
            kind = capture[7:] if capture[7:] in IMPORT_KINDS else ""
            for node in nodes:
                holder = node.parent or node  # the statement: where its names are
                while holder.type in _IMPORT_WRAPPERS and holder.parent is not None:  # require('x') in a declaration
                    holder = holder.parent
                span = (holder.start_byte, holder.end_byte) if capture == "import.part" else _span(node)
                statement = statements.setdefault(span, _Statement(node, _span(holder)))
                statement.kind = statement.kind or kind
                statement.pieces[node.start_byte] = _text(source, node)
        scopes = sorted(statements.values(), key=lambda s: s.scope[1] - s.scope[0])  # the innermost first
        named = [(node, "") for node in captured.get("import.name", ())]
        named += [(node, MODULE_BINDING) for node in captured.get("import.binding", ())]
        for node, prefix in sorted(named, key=lambda pair: pair[0].start_byte):
            owner = next((s for s in scopes if s.scope[0] <= node.start_byte and node.end_byte <= s.scope[1]), None)
            if owner is not None and (name := prefix + _text(source, node)) not in owner.names:
                owner.names.append(name)
        for statement in sorted(statements.values(), key=lambda s: s.first.start_byte):
            target = ".".join(statement.pieces[start] for start in sorted(statement.pieces)).strip(_QUOTES)
            line = statement.first.start_point[0] + 1 + line_offset
            self.imports.append(ImportRef(target, line, tuple(statement.names), statement.kind))

    def result(self, path: str, language: str, build: str, tagged: bool) -> FileTags:
        for key in self.definitions:
            self.references.pop(key, None)
        return FileTags(
            path,
            language,
            definitions=tuple(self.definitions[k] for k in sorted(self.definitions)),
            references=tuple(self.references[k] for k in sorted(self.references)),  # the order of the file
            imports=tuple(self.imports),
            namespace=self.namespace,
            build=build,
            tagged=tagged,
        )


@dataclass
class _Statement:
    """One import statement while its captures are grouped."""

    first: Node
    scope: tuple[int, int]  # the bytes its imported names lie in
    kind: str = ""
    pieces: dict[int, str] = field(default_factory=dict)  # start byte → text (one piece, or the parts of a path)
    names: list[str] = field(default_factory=list)


def _span(node: Node) -> tuple[int, int]:
    return node.start_byte, node.end_byte


def _text(source: bytes, node: Node) -> str:
    return source[node.start_byte : node.end_byte].decode("utf-8", "replace")
