"""A member call whose receiver is on a line above (a chain continued: ``knex("users")`` … ``.update({…})``,
``SpringdocRouteBuilder.route()`` … ``.build()``): whose method it is, by name alone (``byname.holds_by_name``).

The chain's type is known when its first name is declared in the caller's file (``HttpSecurity http`` … ``.logout()``)
or the chain starts by constructing a class (``declared.chain_types``): then the method is B's only when that class is
B's. When the type is unknown, the method is whatever the chain's value has; the name points at B only when the index
defines it once (kutt: ``add`` "calls ``update`` (user.queries.js)" for knex's ``.update({…})``, three files defining an
``update``; halo: ``AttachmentEndpoint.endpoint`` "calls ``build`` (ListOptions.java) and ``build``
(ControllerBuilder.java)" for springdoc builders' ``.build()``). Same file or not: a chain's method is no bare call.
But a chain's first call on ``$this`` written alone above it (koel's ``return $this`` … ``->accessible()``) is the
caller's own class's method (``on_self``), and one on a static call the index declares a return type for is that
type's (``Song::query(…)``, declared ``: SongBuilder``, then ``->accessible()``).
"""

from __future__ import annotations

import re
from typing import Protocol

from codeqa.answer.explanation.calls.declared import COMMENT, CONTINUED, chain_types, declared_owner
from codeqa.answer.explanation.calls.flow import Use
from codeqa.records import Chunk


class Definitions(Protocol):
    """How many definitions of a name the index holds (``AnswerContext.definitions_of``), and what a class's method
    is declared to return (``implements.Implementations.returns``)."""

    def definitions(self, name: str) -> int: ...

    def returns(self, owner: str, method: str) -> str | None: ...


def chained(use: Use, name: str) -> bool:
    """Whether ``use`` is ``name`` called as a member of a chain begun on a line above (``.update(``, ``->where(``)."""
    escaped = re.escape(name)
    return bool(CONTINUED.match(use.text) and re.match(rf"\s*(?:\??\.|->|::|&\.)\s*{escaped}(?![\w?!])", use.text))


# the head of a chain on the object itself: `return $this`, `$query = $this`, `this`, `self`
_SELF_HEAD = re.compile(r"(?:return\s+)?(?:[$\w]+\s*=\s*)?\$?(?:this|self|static|parent|super)")


def on_self(user_file: str, line: int) -> bool:
    """Whether the chained call on file line ``line`` (1-based) is the chain's first, on the object itself written
    alone on the code line above it (``return $this`` … ``->accessible()``)."""
    lines = user_file.split("\n")
    for number in range(line - 2, max(-1, line - 12), -1):
        text = lines[number].strip()
        if text and not text.startswith(COMMENT):
            return _SELF_HEAD.fullmatch(text) is not None
    return False


# a chain begun by a class's static call written on one line (koel's `return Song::query(user: $scopedUser)`)
_STATIC_HEAD = re.compile(
    r"^\s*(?:return\s+|(?:[\w<>\[\],.?]+\s+)?[$\w]+\s*=\s*)?(?P<owner>[A-Z]\w*)\s*(?:::|\.)\s*(?P<method>\w+)\s*"
    r"\((?P<args>.*)\)\s*$"
)


def static_head(user_file: str, line: int) -> tuple[str, str] | None:
    """The class and method of the static call on the code line right above file line ``line`` (1-based), when the
    chained call there is the chain's first (``Song::query(…)`` then ``->accessible()``)."""
    lines = user_file.split("\n")
    for number in range(line - 2, max(-1, line - 12), -1):
        text = lines[number]
        if text.strip() and not text.strip().startswith(COMMENT):
            head = _STATIC_HEAD.match(text)
            if head is None or head.group("args").count("(") != head.group("args").count(")"):
                return None
            return head.group("owner"), head.group("method")
    return None


def chain_holds(
    user: Chunk, used: Chunk, name: str, use: Use, user_file: str, owners: set[str], index: Definitions | None
) -> bool:
    """Whether the chained call ``use`` of ``name`` can be ``used``'s (see the module docstring); ``index`` None: no
    index to count definitions in, the name gets the benefit of the doubt."""
    declared = chain_types(user_file, use.line, user.language)
    if not declared and index is not None and (head := static_head(user_file, use.line)) is not None:
        made = index.returns(*head)  # `Song::query(…)` declared `: SongBuilder`: the first call is SongBuilder's
        declared = {made} if made else set()
    if declared:
        return any(declared_owner(t, owners, used) for t in declared)
    return index is None or index.definitions(name) <= 1
