"""The exception type an answer is given for: the typed parameter of the handler around a line (Laravel's
``render(function (AuthenticationException $e, Request $request) {``, Java's ``handle(MethodArgumentNotValidException
ex)``, a ``catch``)."""

from __future__ import annotations

import re

from codeqa.records import Chunk

HANDLED_TYPE = re.compile(
    r"\(\s*(?:final\s+)?(?P<type>\\?(?:[A-Za-z_]\w*[\\.])*[A-Z]\w*(?:Exception|Error))\s+\$?\w+\s*[,)]"
)
CATCH_ALL = {"Exception", "Throwable", "Error", "BaseException"}


def handled_type(chunk: Chunk, line: int) -> str:
    """The exception type of the innermost handler around file line ``line`` of ``chunk`` that takes one typed
    parameter of an exception class (``function (AuthenticationException $e, Request $request) {``), "" for none or
    for a catch-all (``Throwable $e``): the answer inside is given for that type only."""
    position = line - chunk.start_line
    lines = chunk.text.split("\n")
    if not 0 < position < len(lines):
        return ""
    before = "\n".join(lines[:position])
    found = ""
    for match in HANDLED_TYPE.finditer(before):
        body = before[match.end() :]
        opened = body.find("{")
        if opened < 0:
            continue
        depth = 0
        for char in body[opened:]:
            depth += {"{": 1, "}": -1}.get(char, 0)
            if depth <= 0:
                break
        if depth > 0:  # still open at the line: it holds the line
            found = match.group("type")
    name = found.lstrip("\\").replace("\\", ".").rpartition(".")[2]
    return "" if name in CATCH_ALL else name
