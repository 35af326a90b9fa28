"""A statement's comment: the words of the comment right above a statement say what that statement does.

NetBox's `CoreMiddleware.__call__` opens "where would I add logging to track user behavior?", and its key statement,
`request.id = uuid.uuid4()`, holds none of the question's words; the comment above it does ("Assign a random unique
ID to the request. This will be used for change logging"). The comment stays quiet in a snippet (its words say less
than a statement's), and the statement it describes ranks by a share of them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

COMMENT_LINE = re.compile(r"^\s*(?:#(?![!\[])|//|/\*|\*|--)")  # not a shebang, nor a Rust attribute `#[…]`
DESCRIBED_SHARE = 0.5  # of the comment's best line score, for the statement right below it


def comment_words(lines: Sequence[str], score: Callable[[str], float]) -> dict[int, float]:
    """Index of each statement a comment describes alone (right below the comment, with a blank line, a comment or
    the end below it) → ``DESCRIBED_SHARE`` of the best ``score`` among that comment's lines. A comment over a
    paragraph of statements ("# Set up authentication backends" over an ``if`` and a list) says which statement it
    means nowhere."""
    described: dict[int, float] = {}
    for index, line in enumerate(lines):
        if not line.strip() or COMMENT_LINE.match(line) or index == 0 or not COMMENT_LINE.match(lines[index - 1]):
            continue
        after = lines[index + 1] if index + 1 < len(lines) else ""
        if after.strip() and not COMMENT_LINE.match(after):
            continue  # one statement of a paragraph
        block = index - 1
        while block > 0 and COMMENT_LINE.match(lines[block - 1]):
            block -= 1
        best = max(score(lines[i]) for i in range(block, index))
        if best > 0:
            described[index] = DESCRIBED_SHARE * best
    return described
