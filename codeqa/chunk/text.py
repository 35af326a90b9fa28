"""Chunking without a grammar: documents by headings, everything else with langchain's splitters.

langchain's splitters return strings; with ``add_start_index=True`` we learn where each starts and
keep only that, snapped to a whole line, so chunks still tile the file line-exactly.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from codeqa.chunk.lines import LineIndex, Piece, merge, partition, split_lines

# our language name -> langchain_text_splitters.Language value
LANGCHAIN_LANGUAGES: dict[str, str] = {
    "python": "python",
    "javascript": "js",
    "typescript": "ts",
    "tsx": "ts",
    "go": "go",
    "java": "java",
    "kotlin": "kotlin",
    "c": "c",
    "cpp": "cpp",
    "csharp": "csharp",
    "php": "php",
    "ruby": "ruby",
    "rust": "rust",
    "scala": "scala",
    "swift": "swift",
    "lua": "lua",
    "haskell": "haskell",
    "elixir": "elixir",
    "solidity": "sol",
    "proto": "proto",
    "r": "r",
    "rst": "rst",
    "markdown": "markdown",
    "html": "html",
    "vue": "html",
    "svelte": "html",
    "erb": "html",
    "xml": "html",
}

_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*#*[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_RST_UNDERLINE = re.compile(r"^([=\-`:'\"~^_*+#<>.])\1{2,}\s*$")


def chunk_document(language: str, index: LineIndex, max_chars: int, min_chars: int) -> list[Piece]:
    """Sections by heading (symbol ``Install > Linux``); long sections split at paragraphs."""
    headings = _rst_headings(index) if language == "rst" else _markdown_headings(index)
    if not headings:
        return split_lines(index, 0, index.last, max_chars, Piece(0, index.last, kind="doc"))
    starts = [row for row, _, _ in headings]
    paths: dict[int, str] = {}
    stack: list[tuple[int, str]] = []
    for row, level, title in headings:
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, title))
        paths[row] = " > ".join(t for _, t in stack if t)
    pieces: list[Piece] = []
    for start, end in partition(starts, 0, index.last):
        symbols = [paths[start]] if start in paths and paths[start] else []
        size = index.size(start, end)
        template = Piece(start, end, symbols, "doc", True, size >= min_chars)
        if size > max_chars:
            pieces.extend(split_lines(index, start, end, max_chars, template))
        else:
            pieces.append(template)
    return merge(pieces, index, max_chars)


def _markdown_headings(index: LineIndex) -> list[tuple[int, int, str]]:
    """(row, level, title) of ATX and setext headings outside fenced code blocks."""
    found: list[tuple[int, int, str]] = []
    fence = ""
    lines = index.lines
    for row, line in enumerate(lines):
        match = _FENCE.match(line)
        if match:
            marker = match.group(1)
            if not fence:
                fence = marker[0] * 3
            elif marker.startswith(fence):
                fence = ""
            continue
        if fence:
            continue
        atx = _ATX.match(line) if line.lstrip().startswith("#") else None
        if atx:
            found.append((row, len(atx.group(1)), (atx.group(2) or "").strip()))
        elif row and _SETEXT.match(line) and _setext_title(lines, row, found):
            level = 1 if line.strip().startswith("=") else 2
            found.append((row - 1, level, lines[row - 1].strip()))
    return found


def _setext_title(lines: list[str], row: int, found: list[tuple[int, int, str]]) -> bool:
    """A one-line paragraph above a ``===``/``---`` line (not YAML front matter, not a heading)."""
    title = lines[row - 1]
    if not title.strip() or _SETEXT.match(title) or title.lstrip().startswith(("#", "-", "*", "|")):
        return False
    if found and found[-1][0] == row - 1:
        return False
    return row < 2 or not lines[row - 2].strip()


def _rst_headings(index: LineIndex) -> list[tuple[int, int, str]]:
    """(row, level, title) of reStructuredText titles; levels follow first use of each style."""
    found: list[tuple[int, int, str]] = []
    levels: dict[str, int] = {}
    lines = index.lines
    for row in range(1, len(lines)):
        match = _RST_UNDERLINE.match(lines[row])
        title = lines[row - 1].strip()
        if not match or not title or _RST_UNDERLINE.match(lines[row - 1]):
            continue
        if len(lines[row].rstrip()) < len(title):
            continue
        overlined = row >= 2 and lines[row - 2].rstrip() == lines[row].rstrip()
        style = ("over" if overlined else "") + match.group(1)
        level = levels.setdefault(style, len(levels) + 1)
        found.append((row - 2 if overlined else row - 1, level, title))
    return found


def chunk_with_langchain(language: str, index: LineIndex, max_chars: int, kind: str) -> list[Piece]:
    """Language-aware recursive splitting (plain recursive splitting for unknown languages)."""
    total = max(1, index.size(0, index.last))
    ratio = min(3.0, max(1.0, len(index.text) / total))  # budget is non-whitespace chars
    chunk_size = int(max_chars * ratio)
    if max(map(len, index.lines)) > chunk_size:  # langchain would cut inside lines, slowly
        return split_lines(index, 0, index.last, max_chars, Piece(0, index.last, [], kind))
    splitter = _splitter(LANGCHAIN_LANGUAGES.get(language, ""), chunk_size)
    documents = splitter.create_documents([index.text])
    starts = [index.line_of_offset(int(doc.metadata.get("start_index", 0))) for doc in documents]
    starts = [s for s in starts if s >= 0]
    pieces = [Piece(start, end, [], kind) for start, end in partition(starts, 0, index.last)]
    out: list[Piece] = []
    for piece in pieces:  # a snapped piece may exceed the budget: cut it at lines
        if index.size(piece.start, piece.end) > max_chars:
            out.extend(split_lines(index, piece.start, piece.end, max_chars, piece))
        else:
            out.append(piece)
    return merge(out, index, max_chars)


@lru_cache(maxsize=64)
def _splitter(language: str, chunk_size: int) -> Any:
    """A cached langchain splitter (they are immutable once built)."""
    from langchain_text_splitters import Language, RecursiveCharacterTextSplitter

    options: dict[str, Any] = {"chunk_size": max(50, chunk_size), "chunk_overlap": 0, "add_start_index": True}
    if language:
        try:
            return RecursiveCharacterTextSplitter.from_language(Language(language), **options)
        except (ValueError, NotImplementedError):
            pass
    return RecursiveCharacterTextSplitter(**options)
