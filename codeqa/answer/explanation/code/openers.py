"""A line that only opens a value is shown with what it holds: ``AUTHENTICATION_BACKENDS = [`` with an entry.

``MIDDLEWARE = [``, ``return [``, ``'channels' => [`` or ``text: {`` name a list or a table but say nothing of its
content: the entry under it is the fact (``'netbox.authentication.ObjectPermissionBackend',``). A snippet that
shows the opener and none of its entries (56 of 67 openers on the dev answers) cut the line that carried the fact.
``with_entries`` gives such an opener its best direct entry (by the snippet's own ranking), in place of the lowest
ranked line the snippet chose that is not fixed: the snippet keeps its length.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from codeqa.answer.explanation.code.lineroles import blank_strings

OPENER = re.compile(  # a value opened and left for the next lines: a list, a table, a map literal
    r"^\s*(?:(?:export|const|let|var|val|final|private|public|protected|static|readonly)\s+)*"
    r"(?:return\s+|[\w'\"$.\[\]>:-]+?\s*(?::=|=|:|=>|\|\|=)\s*)(?:array\s*\(|[\w.\[\]*&]*[\[{])\s*$"
)
BARE = re.compile(r"^\s*[*.]*\$?\w+\s*,?\s*$")  # ``user,`` in ``return {``: a shorthand, a spread
CLOSING = re.compile(r"^\s*[\]})]+[;,)]*\s*$")
OPENS = re.compile(r"[\[{(]")
CLOSES = re.compile(r"[\]})]")
MAX_SCAN = 80  # lines read for an opener's entries


def opens_value(line: str) -> bool:
    """``line`` opens a list, a table or a map whose entries follow on the next lines."""
    return bool(OPENER.match(_code(line)))


def direct_entries(lines: Sequence[str], opener: int) -> list[int]:
    """Indexes of the lines that begin an entry of the value ``lines[opener]`` opens (not nested ones, not the
    closing bracket), in order."""
    return [index for index, depth in _inside(lines, opener) if depth == 1]


def inner_lines(lines: Sequence[str], opener: int) -> list[int]:
    """Indexes of the code lines inside the value ``lines[opener]`` opens, nested ones too (``LOGGING = {`` is not
    shown alone when its handler's ``"class": "hc.logs.Handler",`` is)."""
    return [index for index, _ in _inside(lines, opener)]


def _inside(lines: Sequence[str], opener: int) -> list[tuple[int, int]]:
    inside: list[tuple[int, int]] = []
    depth = 1
    for index in range(opener + 1, min(len(lines), opener + 1 + MAX_SCAN)):
        code = _code(lines[index])
        if code.strip() and not CLOSING.match(code) and not _comment(code):
            inside.append((index, depth))
        depth += len(OPENS.findall(code)) - len(CLOSES.findall(code))
        if depth <= 0:
            break
    return inside


def with_entries(chosen: list[int], lines: Sequence[str], order: Sequence[int], fixed: int, limit: int) -> list[int]:
    """``chosen`` (in the order chosen; its first ``fixed`` stay) where each opener that shows none of its entries
    gets the best of them (one that opens no value of its own; first by ``order``, else the first), in place of the
    last chosen line that is not fixed, not an opener and not another opener's entry. A bare name (``user,``,
    ``*BACKENDS,``) carries nothing alone."""
    rank = {index: n for n, index in enumerate(order)}
    result = list(chosen)
    for opener in [i for i in chosen if opens_value(lines[i])]:
        entries = [entry for entry in direct_entries(lines, opener) if not BARE.match(lines[entry])]
        if not entries or any(inner in result for inner in inner_lines(lines, opener)):
            continue
        best = min(entries, key=lambda entry: (opens_value(lines[entry]), rank.get(entry, len(order)), entry))
        if len(result) >= limit:
            held = {inner for other in result if opens_value(lines[other]) for inner in inner_lines(lines, other)}
            droppable = [i for i in result[fixed:] if i not in held and not opens_value(lines[i])]
            if not droppable:
                continue
            result.remove(droppable[-1])
        result.append(best)
    return result


def _code(line: str) -> str:
    return blank_strings(line)


def _comment(code: str) -> bool:
    return bool(re.match(r"^\s*(?:#|//|/\*|\*(?:\s|/|$))", code))
