"""Which module an Elixir call names: ``Helpers.format(message)`` after ``alias ChatApi.Messages.{Helpers, Message}``
is ``ChatApi.Messages.Helpers.format``, never ``ChatApi.Conversations.Helpers.format``, though both modules end in
``Helpers``. A link found by name (``byname``) matches the last part of the module only; this reads the caller's
aliases (``alias A.B``, ``alias A.B, as: C``, ``alias A.{B, C}`` over several lines) to tell two such modules apart.
"""

from __future__ import annotations

import re

from codeqa.records import Chunk
from codeqa.symbols import qualified_names, short_name

_ALIAS = re.compile(
    r"^\s*alias\s+(?P<base>[A-Z][\w.]*?)(?:\.\{(?P<many>[^}]*)\}|\s*,\s*as:\s*(?P<as>[A-Z]\w*))?\s*$", re.MULTILINE
)
_MODULE = r"(?<![\w.])(?P<module>[A-Z]\w*(?:\.[A-Z]\w*)*)\.{name}(?![\w?!])"


def aliases(file_text: str) -> dict[str, str]:
    """Short name → module, for the caller file's ``alias`` lines (a name aliased twice is left out: unsure)."""
    found: dict[str, set[str]] = {}
    for line in _ALIAS.finditer(file_text):
        base = line.group("base")
        if line.group("many") is not None:
            named = {part.strip(): f"{base}.{part.strip()}" for part in line.group("many").split(",") if part.strip()}
        else:
            named = {line.group("as") or base.rpartition(".")[2]: base}
        for short, module in named.items():
            found.setdefault(short, set()).add(module)
    return {short: next(iter(modules)) for short, modules in found.items() if len(modules) == 1}


def other_module(use_text: str, method: str, used: Chunk, user_file: str) -> bool:
    """Whether the call of ``method`` on line ``use_text`` names, through the caller's aliases or in full, a module
    that is not ``used``'s (``Helpers`` aliased to ``ChatApi.Messages.Helpers``, ``used`` in
    ``ChatApi.Conversations.Helpers``); False when the line or ``used`` leave it unsure."""
    written = re.search(_MODULE.format(name=re.escape(method)), use_text)
    modules = {q.rpartition(".")[0] if short_name(q) == method else q for q in qualified_names(used.symbol)}
    modules = {module for module in modules if "." in module and module.rpartition(".")[2][:1].isupper()}
    if written is None or not modules:
        return False
    first, dot, rest = written.group("module").partition(".")
    expanded = aliases(user_file).get(first)
    if expanded is not None:
        return expanded + dot + rest not in modules
    full = written.group("module")  # not aliased: in full (`ChatApi.Messages.Helpers`), or the end of one
    return "." in full and not any(module == full or module.endswith("." + full) for module in modules)
