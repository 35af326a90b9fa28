"""The lines a log call runs over: ``logger.warning('Could not send email "%s" (attempt %d/%d); retrying',`` and its
argument lines (``truncate(email['subject'], 100), attempt, MAX_TRIES, exc, path)``).

A log call is quiet in a snippet unless the question is about logging (``lineroles.quiet``), but only its first line
was known as one: the argument lines below it read as calls holding the question's words (``email``), and took the
places of the span's key lines (``task.retry(countdown=delay, …)``). ``log_continuations`` finds them by the log
call's open brackets.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from codeqa.answer.explanation.code.lineroles import LOG, blank_strings

OPENS = re.compile(r"[\[{(]")
CLOSES = re.compile(r"[\]})]")
MAX_LINES = 12  # a log call's arguments run over this many lines at most


def log_continuations(lines: Sequence[str]) -> frozenset[int]:
    """Indexes of the lines that continue a log call begun on an earlier line (its brackets still open)."""
    found: set[int] = set()
    index = 0
    while index < len(lines):
        line = lines[index]
        if not LOG.match(line):
            index += 1
            continue
        depth = _balance(line)
        index += 1
        end = min(len(lines), index + MAX_LINES)
        while depth > 0 and index < end:
            found.add(index)
            depth += _balance(lines[index])
            index += 1
    return frozenset(found)


def _balance(line: str) -> int:
    code = blank_strings(line)
    return len(OPENS.findall(code)) - len(CLOSES.findall(code))
