"""Line arithmetic shared by every chunker: sizes in non-whitespace characters, merging, line splits.

All chunkers reduce a file to ``Piece``s, ranges of whole lines (0-based, inclusive) that partition
the file; ``to_chunks`` then trims blank edges and cuts the exact text. Working on whole lines is
what guarantees the invariant ``chunk.text == lines[start-1:end]`` whatever the parser did.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from itertools import accumulate

MAX_SYMBOLS = 5


class LineIndex:
    """The lines of a file with prefix sums of their non-whitespace sizes (O(1) range sizes)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = text.split("\n")
        self.sizes = _non_whitespace_sizes(text, self.lines)
        cumulative = [0, *accumulate(self.sizes)]
        self._cumulative = cumulative
        self._offsets: list[int] | None = None

    @property
    def last(self) -> int:
        return len(self.lines) - 1

    def size(self, start: int, end: int) -> int:
        """Non-whitespace characters in lines ``start..end`` (inclusive)."""
        return self._cumulative[end + 1] - self._cumulative[start]

    def blank(self, row: int) -> bool:
        return self.sizes[row] == 0

    def line_of_offset(self, offset: int) -> int:
        """0-based line holding character ``offset`` of the text."""
        if self._offsets is None:
            offsets = [0]
            for line in self.lines[:-1]:
                offsets.append(offsets[-1] + len(line) + 1)
            self._offsets = offsets
        return max(0, bisect_right(self._offsets, offset) - 1)


_RARE_WHITESPACE = frozenset("\r\f\v\x1c\x1d\x1e\x1f")


def _non_whitespace_sizes(text: str, lines: list[str]) -> list[int]:
    """Non-whitespace characters per line; plain ASCII text (the usual case) takes a fast path."""
    if text.isascii() and _RARE_WHITESPACE.isdisjoint(text):
        return [len(line) - line.count(" ") - line.count("\t") for line in lines]
    return [len("".join(line.split())) for line in lines]


@dataclass
class Piece:
    """A run of whole lines on its way to becoming a chunk."""

    start: int  # 0-based, inclusive
    end: int  # 0-based, inclusive
    symbols: list[str] = field(default_factory=list)
    kind: str = "module"
    is_def: bool = False  # holds a definition: its kind wins when pieces merge
    standalone: bool = False  # a definition big enough to be its own chunk: never merged
    sealed_start: bool = False  # first piece of a split definition: never joins what precedes
    sealed_end: bool = False  # last piece of a split definition: never joins what follows


def merge(pieces: list[Piece], index: LineIndex, max_chars: int) -> list[Piece]:
    """Greedy cAST merge: adjacent non-standalone pieces join while the total fits the budget."""
    out: list[Piece] = []
    current_size = 0
    for piece in pieces:
        size = index.size(piece.start, piece.end)
        last = out[-1] if out else None
        if (
            last is not None
            and not (last.standalone or last.sealed_end)
            and not (piece.standalone or piece.sealed_start)
            and current_size + size <= max_chars
        ):
            last.end = piece.end
            last.symbols = _union(last.symbols, piece.symbols)
            last.sealed_end = piece.sealed_end
            if piece.is_def and not last.is_def:
                last.kind, last.is_def = piece.kind, True
            current_size += size
        else:
            out.append(
                Piece(
                    piece.start,
                    piece.end,
                    list(piece.symbols),
                    piece.kind,
                    piece.is_def,
                    piece.standalone,
                    piece.sealed_start,
                    piece.sealed_end,
                )
            )
            current_size = size
    return out


def _union(first: list[str], second: list[str]) -> list[str]:
    """Ordered union: symbols of merged pieces, each once."""
    out = list(first)
    for name in second:
        if len(out) > MAX_SYMBOLS:  # only MAX_SYMBOLS are ever shown; keeps merging linear
            break
        if name not in out:
            out.append(name)
    return out


def split_lines(index: LineIndex, start: int, end: int, max_chars: int, template: Piece) -> list[Piece]:
    """Cut ``start..end`` into consecutive pieces of at most ``max_chars``, preferring blank lines.

    The fallback when structure is unknown or too deep; a single line longer than the budget stays
    whole (never split inside a line).
    """
    blocks: list[tuple[int, int]] = []  # paragraphs: runs of lines ending at a blank line
    block_start = start
    for row in range(start, end + 1):
        if index.blank(row) or row == end:
            blocks.append((block_start, row))
            block_start = row + 1
    pieces: list[Piece] = []
    for block_start, block_end in blocks:
        if index.size(block_start, block_end) <= max_chars:
            pieces.append(_like(template, block_start, block_end))
        else:
            pieces.extend(_like(template, row, row) for row in range(block_start, block_end + 1))
    return merge(pieces, index, max_chars)


def _like(template: Piece, start: int, end: int) -> Piece:
    return Piece(start, end, list(template.symbols), template.kind, template.is_def, False)


def partition(starts: list[int], first: int, last: int) -> list[tuple[int, int]]:
    """Line ranges that begin at each of ``starts`` and together cover ``first..last``."""
    cuts = sorted({s for s in starts if first < s <= last} | {first})
    return [(s, (cuts[i + 1] - 1) if i + 1 < len(cuts) else last) for i, s in enumerate(cuts)]


def trim(index: LineIndex, start: int, end: int) -> tuple[int, int] | None:
    """Shrink a range to its first and last non-blank lines; None when it is all blank."""
    while start <= end and index.blank(start):
        start += 1
    while end >= start and index.blank(end):
        end -= 1
    return (start, end) if start <= end else None


def symbol_text(symbols: list[str]) -> str:
    """``a, b, c`` for up to ``MAX_SYMBOLS`` names, then an ellipsis."""
    names = [s for s in symbols if s]
    if len(names) > MAX_SYMBOLS:
        return ", ".join(names[:MAX_SYMBOLS]) + ", …"
    return ", ".join(names)
