"""A call on the caller's own object to a private method of its own class: settled without a resolver.

By name, a call is said to mean one definition only when no other in the index has the name (``definitions_of``).
Counting every method a class kept whole in one chunk holds (``searchfiles.defines``) made monica's
``$this->createUser($socialite)`` ambiguous — ``InviteUser`` has a ``createUser`` too — though the call can only mean
the private ``createUser`` of the caller's own class: a private method is not overridden and no other class's is
reachable through ``$this``.
"""

from __future__ import annotations

import re

from codeqa.answer.explanation.calls.flow import Use
from codeqa.records import Chunk
from codeqa.symbols import short_name

# ``$this->name(``, ``this.name(``, ``self.name(`` ({name}: the method)
_SELF_CALL = r"(?<![\w$])(?:\$this\s*->|this\s*\.|self\s*\.)\s*{name}\s*\("
# a private method's head: PHP ``private function f(``, Java/C# ``private User f(``, TypeScript ``private async f(``,
# Kotlin ``private fun f(``
_PRIVATE_HEAD = (
    r"^[ \t]*(?:(?:final|static|override|internal)\s+)*private\s+(?:(?:static|final|readonly|async|function|fun)\s+)*"
    r"(?:[\w<>\[\],?]+\s+)?{name}\s*(?:<[^>]*>)?\s*\("
)


def private_self_call(user: Chunk, used: Chunk, use: Use) -> bool:
    """Whether ``use`` calls, on the caller's own object, the one private method of its name that ``used``'s lines
    define, in the caller's own file (module docstring)."""
    method = re.escape(short_name(use.name))
    if used.path != user.path or not re.search(_SELF_CALL.format(name=method), use.text):
        return False
    return len(re.findall(_PRIVATE_HEAD.format(name=method), used.text, re.MULTILINE)) == 1
