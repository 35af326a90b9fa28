"""Which parts of a file an answer shows, beyond its best one: the piece retrieval found first in the best file
(``retrieval_best``), a definition the pool joined in place of its pieces (``with_joined``), and the second part of
the second or third file in the place of a weaker lower file's source, once the answer's order is chosen
(``second_parts``, ``second_parts_in_place``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from codeqa.answer.explanation.constructs.candidate import Candidate
from codeqa.records import Chunk

ALWAYS_SHOWN = 3  # the best files' chunks are shown whatever their lines; lower ones need WEAK × the best evidence


def second_parts(
    files: list[str], ranked: dict[str, list[Chunk]], chosen: dict[str, list[Chunk]], weight: Callable[[Chunk], float]
) -> list[tuple[Chunk, Chunk]]:
    """The second part of the second and third files, shown alone when the best file took the extra places, with
    the weakest lower file's source it outweighs: a part of a file the question's words rank second or third is
    worth more than a file that holds a word or two."""
    lower = sorted(
        ((weight(c), -n, c) for n, path in enumerate(files[ALWAYS_SHOWN:]) for c in chosen.get(path, [])),
        key=lambda t: (t[0], t[1]),
    )
    swaps: list[tuple[Chunk, Chunk]] = []
    for path in files[1:ALWAYS_SHOWN]:
        if len(chosen.get(path, [])) != 1 or len(ranked.get(path, [])) < 2 or not lower:
            continue
        second = ranked[path][1]
        if weight(second) > lower[0][0]:
            swaps.append((lower.pop(0)[2], second))
    return swaps


def second_parts_in_place(found: list[Candidate], swaps: Sequence[tuple[Chunk, Candidate]]) -> list[Candidate]:
    """Each second part (``second_parts``) in the place of the lower file's source it outweighs, once the order
    and the opening are chosen: scored with the others, a second part (a git handler's header parser) outscored
    the lead and brought its own caller to open the answer, and a source it pushed out came back as the lead's
    caller and opened it. The source that opens is never swapped out."""
    for weakest, second in swaps:
        ids = [c.chunk.id for c in found]
        if weakest.id in ids[1:] and second.chunk.id not in ids:
            found = [second if c.chunk.id == weakest.id else c for c in found]
    return found


def retrieval_best(ranked: list[Chunk], pooled: list[Chunk], pieces: dict[str, tuple[str, ...]]) -> list[Chunk]:
    """A file's chunks by weight, with the piece retrieval ranked best in the file (or the joined chunk holding it)
    moved up to second when the question's words put it lower: retrieval also weighs what the words miss (the
    meaning, the names), and the piece it found first in the best file is worth a place beside the wordiest ones."""
    if not pooled or len(ranked) < 3:
        return ranked
    best = pooled[0].id
    held = next((c for c in ranked if c.id == best or best in pieces.get(c.id, ())), None)
    if held is None or ranked.index(held) < 2:
        return ranked
    return [ranked[0], held, *(c for c in ranked[1:] if c is not held)]


def with_joined(chunks: list[Chunk], pooled: list[Chunk], pieces: dict[str, tuple[str, ...]]) -> list[Chunk]:
    """A file's chunks with the pieces of a definition the pool joined replaced by the joined chunk."""
    joined = [chunk for chunk in pooled if chunk.id in pieces]
    if not joined:
        return chunks
    held = {piece for chunk in joined for piece in pieces[chunk.id]}
    return sorted([*(c for c in chunks if c.id not in held), *joined], key=lambda c: c.start_line)
