"""A call that switches a branch of its callee off: ``update_user_search_vector(user, save=False)`` never reaches the
``if save:`` around ``user.save(…)``, so the save is not where that call ends (saleor).
"""

from __future__ import annotations

import re
from collections.abc import Sequence


def switched_off(call: str) -> frozenset[str]:
    """The keyword arguments a call passes as false or none (``update_user_search_vector(user, save=False)``)."""
    return frozenset(re.findall(r"\b(\w+)\s*=\s*(?:False|false|None|nil|null)\b(?!\s*[=!])", call))


def switched_off_at(body: Sequence[tuple[int, str]], position: int, off: frozenset[str]) -> bool:
    """Whether line ``position`` of ``body`` sits in a block opened by ``if <name>:`` for a name in ``off`` (the
    ``if save:`` around ``user.save(…)``): the call it is reached by switches that branch off."""
    indent = len(body[position][1]) - len(body[position][1].lstrip())
    for _, above in reversed(body[1:position]):
        depth = len(above) - len(above.lstrip())
        if not above.strip() or depth >= indent:
            continue
        test = re.match(r"^\s*(?:if|elif)\s*\(?\s*(?:self\.)?(\w+)\s*\)?\s*[:{]?\s*$", above)
        if test and test.group(1) in off:
            return True
        indent = depth
    return False
