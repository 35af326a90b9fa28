"""When a line of a definition runs, as it can be said in a few words: every time, under one short test, or only on
some branch that cannot be said so.

The lines that hold a line are found by indentation. A test split over lines (black's ``if (`` … ``):``, a JavaScript
``if (`` … ``) {``) closes at its own head's indentation: read as a line of its own, the closer hid the ``if`` above
it, and wger's ``return HttpResponseForbidden()`` under such a test was said to run every time. A line inside the
test itself (``user.has_perm('gym.manage_gym')``) runs whenever the test does, not "on one branch only".
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from codeqa.answer.explanation.code.linenames import FUNCTION_HEAD
from codeqa.records import Chunk

# the test without the word that opens its block (Python's `:`, `{`, Ruby's `then`, Elixir's `do`)
IF_HEAD = re.compile(r"^\s*(?:\}\s*)?(?P<word>if|unless)\b\s*(?P<cond>.*?)\s*(?::|\{|\bthen|(?<=\s)do)?\s*$")
HEADS = re.compile(  # the heads of a block whose lines run only sometimes: tests, cases, loops, handlers
    r"^\s*(?:\}\s*)?(?:if|elif|elsif|else|unless|when|case|switch|for|foreach|while|until|except|rescue|catch|"
    r"\}\s*catch|default)\b|^\s*(?:case\b.*|default\s*):\s*$"
)
CONDITION_CHARS = 60
CONTINUED = re.compile(r"(?:\\|\b(?:and|or)|&&|\|\||[(\[{,])\s*$")
LOOPS = re.compile(r"^\s*(?:for|foreach|while)\b")  # ``loops=True``: a line repeated for each item still runs
CAUGHT = re.compile(  # a handler of named exception types (not a bare ``catch (err)``, which names no type)
    r"^\s*(?:\}\s*)?(?P<word>rescue|except|catch)\s*\(?\s*(?P<what>[A-Z][\w.]*(?:::\w+)*(?:\s*(?:,|\|)\s*[A-Z][\w.]*(?:::\w+)*)*)"
    r"(?:\s+(?:as|=>)?\s*\w+)?\s*\)?\s*(?::|\{|\bthen)?\s*$"
)


ELIXIR_HEAD = re.compile(r"^\s*defp?\s+(?P<name>\w+[?!]?)\s*\(")


def _one_clause_of_several(chunk: Chunk, head: str) -> bool:
    """Whether ``head`` opens one clause of an Elixir function the chunk defines in several (``def callback(%{assigns:
    %{ueberauth_failure: _fails}} = conn, _params)`` above ``def callback(%{assigns: %{ueberauth_auth: auth}} …)``)."""
    found = ELIXIR_HEAD.match(head) if chunk.language == "elixir" else None
    if found is None:
        return False
    same = re.compile(rf"^\s*defp?\s+{re.escape(found.group('name'))}\s*\(")
    return sum(1 for text in chunk.text.split("\n") if same.match(text)) > 1


def condition_at(chunk: Chunk, line: int, *, loops: bool = False) -> tuple[str, str] | None:
    """When file line ``line`` of ``chunk`` runs, as it can be said in a few words: ``("", "")`` when it runs every
    time its definition does, ``("when", cond)`` / ``("unless", cond)`` when one ``if``/``unless`` test with a short
    condition holds it, None when it cannot be said so (an ``else``, a loop, a handler, tests within tests)."""
    lines = chunk.text.split("\n")
    position = line - chunk.start_line
    if not 0 <= position < len(lines):
        return None
    heads: list[str] = []
    for number, (above, text) in enumerate(enclosing(lines, position)):
        if FUNCTION_HEAD.match(text):
            if _one_clause_of_several(chunk, text):
                return None  # runs when this clause's pattern matches, not every time the function runs
            break
        if number == 0 and HEADS.match(text) and OPEN_TEST.search(text) and _inside(lines, above, position):
            # the line is a piece of this head's test (`if (` … `user.has_perm(…)`), not of the block it opens
            return condition_at(chunk, chunk.start_line + above, loops=loops) if IF_START.match(text) else None
        if HEADS.match(text) and not (loops and LOOPS.match(text)):
            heads.append(text)
    if not heads:
        return "", ""
    if len(heads) == 1 and (caught := CAUGHT.match(heads[0])):  # ``rescue Exception => e``, ``except KeyError:``
        return f"when it {'rescues' if caught.group('word') == 'rescue' else 'catches'}", caught.group("what")
    found = IF_HEAD.match(heads[0]) if len(heads) == 1 else None
    if found is None:
        return None
    condition = found.group("cond").strip().rsplit(";", 1)[-1].strip()  # Go's `if v := f(); v > 0 {`: the test
    if condition.startswith("(") and condition.endswith(")"):
        condition = condition[1:-1].strip()
    if not condition or len(condition) > CONDITION_CHARS or CONTINUED.search(condition):
        return None  # a test going on below its line (``elif a and \\``) cannot be said from its head
    return ("unless" if found.group("word") == "unless" else "when"), condition


IF_START = re.compile(r"^\s*(?:if|unless)\b")
# a head whose test goes on below it (`if (`, `if a and \\`); a `{` at the end opens the block, not the test
OPEN_TEST = re.compile(r"(?:\\|\b(?:and|or)|&&|\|\||[(\[,])\s*$")
CLOSER = re.compile(r"^\s*[)\]]")  # `):`, `) {`, `]`: the end of a head or statement opened above


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip())


def _inside(lines: list[str], head: int, position: int) -> bool:
    """Whether every line after ``lines[head]`` up to ``lines[position]`` is indented deeper than it (no closer), and
    none before ``lines[position]`` ends the test: under ``if a \\`` … ``and b:``, the lines below ``and b:`` are the
    block it opens, not more of the test."""
    depth = _indent(lines[head])
    deeper = all(_indent(text) > depth for text in lines[head + 1 : position + 1] if text.strip())
    return deeper and not any(TEST_END.search(text) for text in lines[head + 1 : position])


TEST_END = re.compile(r"(?::|\{|\bthen)\s*(?:#.*)?$")  # ``and not user.otp_secret:``: the test's last line


def enclosing(lines: list[str], position: int) -> Iterator[tuple[int, str]]:
    """``(index, line)`` of each line holding ``lines[position]``, innermost first: the nearest line above with less
    indent than the one before. A head split over lines is given by its first line (``if (``), not its closer."""
    indent = _indent(lines[position])
    above = position - 1
    while above >= 0:
        text = lines[above]
        if text.strip() and _indent(text) < indent:
            if CLOSER.match(text):
                depth = _indent(text)
                opener = next((i for i in range(above - 1, -1, -1)
                               if lines[i].strip() and _indent(lines[i]) <= depth and not CLOSER.match(lines[i])),
                              None)  # fmt: skip
                if opener is None:
                    return
                above, text = opener, lines[opener]
            indent = _indent(text)
            yield above, text
        above -= 1


# the branches of one test, each run instead of the others: its first head, then the heads that go on with it
FIRST_BRANCH = re.compile(r"^\s*(?:if|unless|elsif|elif|when|case)\b")
NEXT_BRANCH = re.compile(r"^\s*(?:elsif|elif|else|when|case|default)\b|^\s*default\s*:")


def exclusive(chunk: Chunk, one: int, other: int) -> bool:
    """Whether file lines ``one`` and ``other`` of ``chunk`` lie in two branches of one test, so that a run reaching
    one never reaches the other (redmine's ``@user.login = session[:auth_source_registration][:login]`` under ``if
    session[:auth_source_registration]`` and ``register_automatically(@user)`` under its ``else``). Unsure (a
    JavaScript ``} else {``, read as its ``if``): False."""
    lines = chunk.text.split("\n")
    at, to = one - chunk.start_line, other - chunk.start_line
    if not (0 <= at < len(lines) and 0 <= to < len(lines)) or at == to:
        return False
    outer = [[index for index, _ in enclosing(lines, position)][::-1] for position in (at, to)]
    shared = next((n for n, (a, b) in enumerate(zip(*outer, strict=False)) if a != b), None)
    if shared is None:
        return False  # one holds the other, or both lie in the same block
    first, last = sorted((outer[0][shared], outer[1][shared]))
    depth = _indent(lines[first])
    between = [text for text in lines[first + 1 : last + 1] if text.strip() and _indent(text) <= depth]
    return (FIRST_BRANCH.match(lines[first]) is not None and _indent(lines[last]) == depth
            and bool(between) and all(NEXT_BRANCH.match(text) for text in between))  # fmt: skip
