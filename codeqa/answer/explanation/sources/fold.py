"""Show less, better: which sources an answer opens, which it folds to one line, which it collapses as repeats.

- Near-identical snippets (the same ``try/catch → next(error)`` in seven route handlers) are collapsed into the
  first of them, which then says "and 6 more like it".
- At most ``OPEN`` sources are shown with their key lines (at most two per file); the rest are folded under
  "More places", one line each.
- Open sources are read in order: as the call flow runs when the one that opens the answer is on the call chain
  between them (callers before what they call, grouped by role: ``flow.flow_order``), else that one first and
  the others in that flow; numbering follows that order.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol, TypeVar

from codeqa.answer.explanation.calls.flow import chains, flow_order
from codeqa.answer.explanation.code.keylines import IMPORT, KeyLine, Terms, scored_lines, term_score
from codeqa.answer.explanation.constructs.mechanism import answers_poorly
from codeqa.records import Chunk

OPEN = 5
PER_FILE_OPEN = 2
STRONG_LINE = 2.0  # a line holding two of the question's words (or one and an expansion) is real evidence
SIMILAR = 0.6  # share of normalised key lines two sources must have in common to count as repeats
_STRINGS = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`")
_NUMBERS = re.compile(r"\b\d+\b")
_NAMES = re.compile(r"[A-Za-z_]")
# a raise with its message blanked (`throw new Error("");`, `raise ValueError("")`): failing the same way is not doing
# the same thing (a logging middleware and a database config both throw)
_RAISES = re.compile(r"^(?:raise|throw)\b|\bthrow\s+new\b|\bpanic\(")


class Shown(Protocol):
    lines: list[KeyLine]

    @property
    def chunk(self) -> Chunk: ...


T = TypeVar("T", bound=Shown)


def signature(lines: Sequence[KeyLine]) -> frozenset[str]:
    """Key lines as a set of normalised code (strings, numbers and spacing blanked)."""
    normal = {_NUMBERS.sub("0", _STRINGS.sub('""', " ".join(line.text.split()))) for line in lines}
    return frozenset(text for text in normal if len(text) > 3)


def similar(a: frozenset[str], b: frozenset[str]) -> bool:
    if not a or not b:
        return False
    # a line of data alone (`'start' => 'Allows a user to start the server',` is `"" => "",`) names no code: code
    # sharing only such lines with a table is no repeat of it (a permissions table and a command's `'action' => …`)
    if any(map(_named, a | b)) and not any(map(_named, a & b)):
        return False
    if all(_RAISES.search(text) for text in a & b):
        return False
    return len(a & b) / min(len(a), len(b)) >= SIMILAR and len(a & b) >= min(2, len(a), len(b))


def _named(text: str) -> bool:
    return bool(_NAMES.search(text))


def collapse(steps: Sequence[T]) -> tuple[list[T], dict[int, list[T]]]:
    """``steps`` (best first) without repeats, and for each kept step's index the repeats folded into it."""
    kept: list[T] = []
    signatures: list[frozenset[str]] = []
    repeats: dict[int, list[T]] = {}
    for step in steps:
        if any(step.chunk.location == other.chunk.location for other in [*kept, *sum(repeats.values(), [])]):
            continue  # the same code reached twice (a hook's file and the retrieval): no "1 more like it" of itself
        mine = signature(step.lines)
        same = next((n for n, other in enumerate(signatures) if similar(mine, other)), None)
        if same is None:
            kept.append(step)
            signatures.append(mine)
        elif not _overlap(step.chunk, kept[same].chunk):
            repeats.setdefault(same, []).append(step)
        # (else the code it repeats, cited again over more of its lines: crater's `Kernel` (`Kernel.php:57-92`) was
        # "1 more like it: `app/Http/Kernel.php:8-92`" of itself)
    return kept, repeats


def _overlap(a: Chunk, b: Chunk) -> bool:
    """Whether two sources cite lines of one file in common."""
    return a.path == b.path and a.start_line <= b.end_line and b.start_line <= a.end_line


def split_open(steps: Sequence[T], limit: int = OPEN) -> tuple[list[T], list[T]]:
    """The steps shown open (best first, at most ``PER_FILE_OPEN`` per file, code that cannot explain a mechanism
    only when nothing else is left) and the folded rest, in order."""
    opened: list[T] = []
    folded: list[T] = []
    per_file: dict[str, int] = {}
    able = sum(1 for step in steps if not answers_poorly(step.chunk))
    for step in steps:
        path = step.chunk.path
        poor = able > 0 and answers_poorly(step.chunk)
        if len(opened) < limit and per_file.get(path, 0) < PER_FILE_OPEN and not poor:
            opened.append(step)
            per_file[path] = per_file.get(path, 0) + 1
        else:
            folded.append(step)
    return opened, folded


def reading_order(
    opened: Sequence[T], edges: set[tuple[int, int]], calls: set[tuple[int, int]], strong: int = 1
) -> list[T]:
    """The open steps in reading order (``edges``/``calls`` are index pairs into ``opened``, whose first ``strong``
    show the mechanism, the lead first): when the lead is on the call chain between them, the chain as the call
    flow runs (grouped by role, callers before what they call), then the others in that flow; otherwise the
    mechanism first, then the others in that flow."""
    order = flow_order([step.chunk for step in opened], edges)
    longest = chains(order, calls)
    if len(opened) <= 1 or (longest and 0 in longest[0]):
        on_chain = set(longest[0]) if longest else set()
        return [*(opened[i] for i in order if i in on_chain), *(opened[i] for i in order if i not in on_chain)]
    first = list(range(max(1, strong)))
    return [*(opened[i] for i in first), *(opened[i] for i in order if i not in first)]


def weak_evidence(terms: Terms, opened: Sequence[T]) -> bool:
    """No construct on any open source, and none of the best one's lines by the question's words holding two of
    them: the answer says so, and shows its sources best first (no flow to follow). Judged on the words, not on
    the lines shown (those also rank by what a line does)."""
    if not opened:
        return True
    if any(getattr(step, "matches", None) for step in opened):
        return False
    best = opened[0]  # its best lines by the question's words, as many as it shows (a comment counts here)
    lines = best.chunk.text.split("\n")
    by_words = [lines[i] for _, i in scored_lines(terms, best.chunk.text)[: max(1, len(best.lines))]]
    return all(term_score(terms, line) < STRONG_LINE for line in by_words)


def folded_lines(lines: list[KeyLine]) -> list[KeyLine]:
    """A folded source's lines without its imports (they would only fill its one line), unless nothing else is
    left."""
    return [line for line in lines if not IMPORT.match(line.text)] or lines
