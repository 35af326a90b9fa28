"""The exception type an answer is given for: the typed parameter of the handler around a line (Laravel's
``render(function (AuthenticationException $e, Request $request) {``, Java's ``handle(MethodArgumentNotValidException
ex)``, a ``catch``), or the one class a Ruby ``rescue_from … do`` / ``rescue … =>`` block around it names."""

from __future__ import annotations

import re

from codeqa.records import Chunk

HANDLED_TYPE = re.compile(
    r"\(\s*(?:final\s+)?(?P<type>\\?(?:[A-Za-z_]\w*[\\.])*[A-Z]\w*(?:Exception|Error))\s+\$?\w+\s*[,)]"
)
CATCH_ALL = {"Exception", "Throwable", "Error", "BaseException", "StandardError"}
# Ruby's handler of one error class: ``rescue_from Pagy::RangeError do`` / ``rescue ActiveRecord::RecordNotFound => e``
RUBY_HANDLER = re.compile(r"^\s*rescue(?:_from)?\s+(?P<type>[A-Z][\w:]*)\s*(?:=>\s*\w+|do\b(?:\s*\|[^|]*\|)?)?\s*$")


def handled_type(chunk: Chunk, line: int) -> str:
    """The exception type of the innermost handler around file line ``line`` of ``chunk`` that takes one typed
    parameter of an exception class (``function (AuthenticationException $e, Request $request) {``), "" for none or
    for a catch-all (``Throwable $e``): the answer inside is given for that type only."""
    position = line - chunk.start_line
    lines = chunk.text.split("\n")
    if not 0 < position < len(lines):
        return ""
    if chunk.language == "ruby":  # said in full: ``Pagy::RangeError`` (a bare ``RangeError`` is Ruby's own)
        named = _ruby_handled(lines, position)
        return named if _short(named) else ""
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
    return _short(found)


def _short(found: str) -> str:
    """The class's own name (``RangeError`` of ``Pagy::RangeError``), "" for a catch-all."""
    name = found.lstrip("\\").replace("\\", ".").replace("::", ".").rpartition(".")[2]
    return "" if name in CATCH_ALL else name


def _ruby_handled(lines: list[str], position: int) -> str:
    """The class named by the innermost block above line ``position`` (by indentation) when that block is a
    ``rescue_from X do`` or a ``rescue X => e``; "" otherwise (a ``rescue A, B`` names no single class)."""
    indent = len(lines[position]) - len(lines[position].lstrip())
    for text in reversed(lines[:position]):
        depth = len(text) - len(text.lstrip())
        if text.strip() and depth < indent:
            handler = RUBY_HANDLER.match(text)
            return handler.group("type") if handler else ""
    return ""


def reraised(chunk: Chunk, line: int, said: str) -> bool:
    """Whether ``said`` (a raise's object, ``e from None``; a bare ``raise``) raises again the error a handler above
    file line ``line`` of ``chunk`` caught (``except Exception as e:`` … ``raise e from None``, ``catch (err) {`` …
    ``throw err;``): the error goes on to the caller, so the raise is no end of it (Dispatch's request middleware)."""
    if re.fullmatch(r"(?:raise|throw)\s*;?", said):  # Ruby's bare `raise`: not "raises raise"
        return True
    found = re.fullmatch(r"(?P<name>[a-z_]\w*)(?:\s+from\s+None)?\s*;?", said.strip())
    if found is None:
        return False
    name = re.escape(found.group("name"))
    above = chunk.text.split("\n")[: max(line - chunk.start_line, 0)]
    binds = re.compile(rf"^\s*(?:\}}\s*)?(?:except\b[^#\n]*\bas\s+{name}\s*:|rescue\b[^#\n]*=>\s*{name}\s*$"
                       rf"|catch\s*\([^)]*\b{name}\s*\))")  # fmt: skip
    return any(binds.search(text) for text in above)
