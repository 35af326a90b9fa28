"""A method called on a value no name stands for: ``[a, b].join('\\n')``, ``fetch(url).json()``, ``'x'.trim()``.

Checked by name alone, such a call has no receiver to tell whose method runs, so it would pass as a bare call to any
definition of that name (``Groups.join`` for an array's ``join``). The value is built on the line itself (an array,
a call's result, a literal); its class is the language's or a library's far more often than the app's.
"""

from __future__ import annotations

import re

_MEMBER = (".", "?.", "->", "::")
_VALUE_END = re.compile(r"[\])'\"`]$")  # the value before the dot: a bracket, a call's parenthesis or a literal


def called_on_a_value(name: str, text: str) -> bool:
    """Whether every occurrence of ``name`` in ``text`` is a member of a value built on the line (not a bare name,
    not a named receiver, not a chain continued from the line above)."""
    found = False
    for match in re.finditer(rf"(?<![\w$]){re.escape(name)}(?![\w?!$])", text):
        before = text[: match.start()].rstrip()
        operator = next((op for op in _MEMBER if before.endswith(op)), None)
        if operator is None:
            return False
        value = before[: -len(operator)].rstrip()
        if not _VALUE_END.search(value):
            return False  # `helpers.join(…)`: a named receiver, or `.join` continuing the line above
        found = True
    return found
