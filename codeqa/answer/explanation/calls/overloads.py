"""Which of a class's overloads a bare call in the same file runs (Java, C#, Kotlin), by its number of arguments.

A name alone links ``exception(…)``'s ``return handleError(request, INTERNAL_SERVER_ERROR, ex);`` to every
``handleError`` of the file; the class has two, ``handleError(request, status, ex)`` and ``handleError(request,
status, ex, logLevel)``, and the call runs the one taking three. A link to an overload stands when the call's
arguments fit its parameters and no other overload's; when the arguments cannot be counted on the call's line, or two
overloads take as many, which one runs is not read here and the link is dropped.
"""

from __future__ import annotations

import re

from codeqa.records import Chunk

# a method's head: Java and C# write the return type first (annotations and modifiers before it, a generic type
# with spaces in it: `private ResponseEntity<Map<String, Object>> handleError(`), Kotlin writes `fun name(`
_TYPED = (
    r"^[^\S\n]*(?:@\w+(?:\([^)\n]*\))?\s+)*(?:(?:public|private|protected|internal|static|final|abstract|"
    r"synchronized|default|native|override|virtual|async)\s+)*(?:<[^>\n]*>\s+)?"
    r"(?!(?:return|new|throw|else|await|yield|case)\b)[\w.$]+(?:<[^;(){{}}=\n]*>)?(?:\[\])*[^\S\n]+{name}\s*\("
)
HEADS = {"java": _TYPED, "csharp": _TYPED, "kotlin": r"\bfun\s+(?:<[^>]*>\s*)?(?:[\w.]+\.)?{name}\s*\("}


def arity_holds(method: str, call_line: str, used: Chunk, file_text: str) -> bool:
    """Whether a bare call of ``method`` on ``call_line``, in the file ``file_text`` that ``used`` is part of, runs
    ``used``'s ``method``: true when the file defines one ``method`` (no overloads), or when ``used`` holds the one
    overload whose parameters the call's arguments fit (see the module docstring)."""
    head = HEADS.get(used.language)
    if head is None:
        return True
    pattern = re.compile(head.format(name=re.escape(method)), re.MULTILINE)
    in_file = [_parameters(file_text, found.end()) for found in pattern.finditer(file_text)]
    if len(in_file) < 2:
        return True
    in_used = [_parameters(used.text, found.end()) for found in pattern.finditer(used.text)]
    if len(in_used) != 1:
        return len(in_used) > 1  # the cited lines hold several of the overloads: the link holds whichever runs
    call = re.search(rf"(?<![\w.$]){re.escape(method)}\s*\(", call_line)
    found = _items(call_line, call.end(), angles=False) if call else None
    arguments = None if found is None else len(found)
    if arguments is None or in_used[0] is None:
        return False
    fitting = [params for params in in_file if params is not None and _fits(arguments, params)]
    return len(fitting) == 1 and _fits(arguments, in_used[0])


def _fits(arguments: int, params: tuple[int, int, bool]) -> bool:
    """Whether ``arguments`` arguments fit parameters (count, count with a default value, varargs)."""
    count, defaulted, varargs = params
    return count - defaulted <= arguments <= count or (varargs and arguments >= count - 1)


def _parameters(text: str, start: int) -> tuple[int, int, bool] | None:
    """(count, those with a default value, whether the last is varargs) of the parameter list opened before
    ``start``; None when it does not close in ``text``."""
    items = _items(text, start, angles=True)
    if items is None:
        return None
    plain = [ANNOTATION.sub("", item) for item in items]  # `@RequestParam(value = "error") String error`
    defaulted = sum(1 for item in plain if re.search(r"[^=!<>]=(?![=>])", item))  # Kotlin's, C#'s `x: Int = 0`
    varargs = bool(plain) and re.search(r"\.\.\.|\bvararg\b|^\s*params\s", plain[-1]) is not None
    return len(items), defaulted, varargs


ANNOTATION = re.compile(r"@[\w.]+(?:\([^()]*\))?")


def _items(text: str, start: int, *, angles: bool) -> list[str] | None:
    """The comma-separated items, at their own depth, of the bracket opened just before ``start`` (``<…>`` counted
    as brackets in a head's parameters, not in a call's arguments); None when it does not close in ``text``."""
    items, depth, quote, begin = [], 0, "", start
    for index in range(start, len(text)):
        char = text[index]
        if quote:
            quote = "" if char == quote and text[index - 1] != "\\" else quote
        elif char in "\"'":
            quote = char
        elif char in "([{" or (angles and char == "<"):
            depth += 1
        elif char == ")" and depth == 0:
            items.append(text[begin:index])
            return [item for item in items if item.strip()]
        elif char in ")]}" or (angles and char == ">" and text[index - 1] != "-"):
            depth -= 1
        elif char == "," and depth == 0:
            items.append(text[begin:index])
            begin = index + 1
    return None
