"""The chunk stage: a ``SourceFile`` becomes meaningful, line-exact ``Chunk``s with metadata.

Code with a tree-sitter grammar is cut cAST-style (``treesitter``); markdown/rst by headings and
everything else by langchain's splitters (``text``). Whatever the route, chunks tile the file:
each non-blank line is in exactly one chunk and ``chunk.text`` is exactly its lines. The same parse
gives the file's tags (``tags``: what it defines, uses and imports, from ``queries/*-tags.scm``);
``resolve`` turns the imports of a whole repository into files.

Symbol conventions (one for every language): names are qualified with ``.`` —
``Class.method``, ``outer.inner``, Go ``Receiver.Method`` (no ``*``), Rust ``Type.method`` for
``impl Type``/``impl Trait for Type``, Ruby ``Module.Class.method`` (``def self.x`` is ``Class.x``),
C++ ``Class.method`` for ``Class::method``. Namespaces (C#, C++, PHP, TS) do not prefix names;
Ruby and Rust modules do. A chunk merging several definitions lists them joined by ", " (at most
five, then "…"); module-level code alone has symbol "". Config chunks carry dotted key paths,
doc chunks their heading path (``Install > Linux``).
"""

from __future__ import annotations

import logging
import re

from tree_sitter import Tree

from codeqa.chunk.layers import layer_for
from codeqa.chunk.lines import LineIndex, Piece, split_lines, symbol_text, trim
from codeqa.chunk.tags import tag_text, tag_tree
from codeqa.chunk.text import chunk_document, chunk_with_langchain
from codeqa.chunk.treesitter import chunk_tree, parse, supports
from codeqa.config import Settings, get_settings
from codeqa.languages import CONFIG_LANGUAGES, DOC_LANGUAGES
from codeqa.records import Chunk, ChunkKind, FileTags, Layer, SourceFile

__all__ = ["CHUNKER_VERSION", "chunk_and_tag", "chunk_file", "layer_for"]

CHUNKER_VERSION = "4"  # bump whenever chunk boundaries, symbols, kinds or layers change

log = logging.getLogger(__name__)

_TEST_NAME = re.compile(r"^(test_|test[A-Z0-9]|Test[A-Z0-9_]|it_|should_)")
_CODE_KINDS = frozenset({"function", "method", "module"})


def chunk_file(file: SourceFile, settings: Settings | None = None) -> list[Chunk]:
    """Cut one file into chunks; never raises (falls back to plain line splitting)."""
    return _chunk(file, settings, tag=False)[0]


def chunk_and_tag(file: SourceFile, settings: Settings | None = None) -> tuple[list[Chunk], FileTags]:
    """Cut one file into chunks and read its definitions, references and imports from the same parse.

    Never raises: a chunker bug degrades to line splitting, a tagging bug to a file without tags.
    """
    chunks, tags = _chunk(file, settings, tag=True)
    return chunks, tags or FileTags(file.path, file.language)


def _chunk(file: SourceFile, settings: Settings | None, *, tag: bool) -> tuple[list[Chunk], FileTags | None]:
    settings = settings or get_settings()
    max_chars = max(1, int(settings.chunk_max_chars))
    min_chars = max(0, min(int(settings.chunk_min_chars), max_chars))
    text = file.text or ""
    if not text.strip():
        return [], FileTags(file.path, file.language)
    index = LineIndex(text)
    layer = _safe_layer(file.path, text)
    parsed = _parse(file.language, index)
    try:
        pieces = _pieces(file.language, index, max_chars, min_chars, parsed)
    except Exception:  # a chunker bug must not lose the file: degrade to line splitting
        log.warning("chunking %s failed; falling back to line splitting", file.path, exc_info=True)
        pieces = split_lines(index, 0, index.last, max_chars, Piece(0, index.last, kind="other"))
    return _to_chunks(file, index, pieces, layer), _tags(file, parsed) if tag else None


def _parse(language: str, index: LineIndex) -> tuple[Tree, bytes] | None:
    """One parse for both the chunker and the tags (None: no grammar, or a file the grammar cannot take)."""
    if language in DOC_LANGUAGES or not supports(language):
        return None
    try:
        return parse(language, index)
    except Exception:  # LookupError: too deeply nested for the grammar; anything else must not lose the file
        return None


def _pieces(
    language: str, index: LineIndex, max_chars: int, min_chars: int, parsed: tuple[Tree, bytes] | None
) -> list[Piece]:
    """Pick the chunker for a language: grammar, document headings, or langchain."""
    if language in ("markdown", "rst"):
        return chunk_document(language, index, max_chars, min_chars)
    if language in DOC_LANGUAGES:
        return chunk_with_langchain(language, index, max_chars, "doc")
    if parsed is not None:
        return chunk_tree(language, index, max_chars, min_chars, parsed[0])
    return chunk_with_langchain(language, index, max_chars, "other")


def _tags(file: SourceFile, parsed: tuple[Tree, bytes] | None) -> FileTags:
    try:
        if parsed is not None:
            return tag_tree(file.path, file.language, parsed[0], parsed[1], text=file.text)
        return tag_text(file.path, file.language, file.text)
    except Exception:  # a query bug must not lose the file
        log.warning("tagging %s failed; indexing it without tags", file.path, exc_info=True)
        return FileTags(file.path, file.language)


def _safe_layer(path: str, text: str) -> Layer:
    try:
        return layer_for(path, text)
    except Exception:  # pragma: no cover - regex tables are static
        log.warning("layer detection failed for %s", path, exc_info=True)
        return Layer.CORE


def _to_chunks(file: SourceFile, index: LineIndex, pieces: list[Piece], layer: Layer) -> list[Chunk]:
    """Trim blank edges, cut exact text, and settle each chunk's kind."""
    chunks: list[Chunk] = []
    for piece in pieces:
        bounds = trim(index, piece.start, piece.end)
        if bounds is None:
            continue
        start, end = bounds
        chunks.append(
            Chunk(
                path=file.path,
                language=file.language,
                start_line=start + 1,
                end_line=end + 1,
                text="\n".join(index.lines[start : end + 1]),
                symbol=symbol_text(piece.symbols),
                kind=_kind(file.language, piece, layer),
                layer=layer,
            )
        )
    return chunks


def _kind(language: str, piece: Piece, layer: str) -> ChunkKind:
    """Docs and config by language; functions in test files or named like tests are ``test``."""
    if language in DOC_LANGUAGES:
        return ChunkKind.DOC
    if language in CONFIG_LANGUAGES:
        return ChunkKind.CONFIG
    if piece.kind in _CODE_KINDS and layer == "test":
        return ChunkKind.TEST
    is_callable = piece.kind in ("function", "method") and piece.symbols
    if is_callable and _TEST_NAME.match(piece.symbols[0].rsplit(".", 1)[-1]):
        return ChunkKind.TEST
    return ChunkKind(piece.kind)
