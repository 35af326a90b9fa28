"""Calls by name that cannot reach a method of the caller's own class, though they are written in its file.

- A call through the parent (PHP ``parent::setUser($user)``, Java and JavaScript ``super.save()``) runs the parent
  class's method, never the override the caller's own class defines: lychee's ``SessionOrTokenGuard::user()`` calls
  ``parent::setUser(…)`` precisely to skip its own ``setUser``'s token check.
- A PHP method is reached through ``$this->``, ``self::`` or ``static::``, never by its bare name: a bare
  ``report($e)`` in lychee's exception ``Handler`` is Laravel's global ``report()`` helper, not ``Handler::report``.
"""

from __future__ import annotations

import re
from collections.abc import Set

from codeqa.records import Chunk

PARENT_RECEIVERS = frozenset({"parent", "super"})
# a class's head: `class SessionOrTokenGuard extends SessionGuard`, `export default class Foo`, `public final class X`
_CLASS_HEAD = re.compile(
    r"^[ \t]*(?:(?:abstract|final|export|default|public|private|protected|internal|static|readonly|sealed|open|data)"
    r"\s+)*class\s+(?P<name>\w+)",
    re.MULTILINE,
)
# a PHP method's head, indented in its class (a top-level `function helper(` is a global function, called bare)
_PHP_METHOD = r"^\s+(?:(?:public|protected|private|final|abstract|static)\s+)*function\s+{name}\b"


def parent_misses(receiver: str, user: Chunk, used: Chunk, line: int, user_file: str, owners: Set[str]) -> bool:
    """Whether a call through ``receiver`` (the parent) at file line ``line`` of ``user`` misses ``used``: ``used``
    lies in the caller's file and belongs to the class the call is written in (``owners``: its classes)."""
    if receiver not in PARENT_RECEIVERS or used.path != user.path:
        return False
    above = user_file[: sum(len(text) + 1 for text in user_file.split("\n")[: max(0, line - 1)])]
    heads = [head.group("name") for head in _CLASS_HEAD.finditer(above)]
    return not heads or not owners or heads[-1] in owners


def php_bare_method(language: str | None, used: Chunk, name: str) -> bool:
    """Whether ``used`` defines ``name`` as a PHP method, which no bare call of the name reaches."""
    pattern = _PHP_METHOD.format(name=re.escape(name))
    return language == "php" and re.search(pattern, used.text, re.MULTILINE) is not None
