"""A ``return`` in an ``if`` block (or a chain of ``else if`` tests) that more of the definition follows is an early
exit, not where the definition ends: pixelfed's ``statusFirstOrFetch`` returns ``$cached`` when the status is stored
already, then goes on below to fetch it and store it; a walk said it "ends in `return $cached;`". A return in a chain
that ends in an ``else``, or whose chain is the last statement of the definition read, is one of its ends and stays;
in a chain of three cases or more (``if … elseif … else``), no one case's return is where the definition ends.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from codeqa.answer.explanation.calls.flow import code_part
from codeqa.answer.explanation.code.keylines import COMMENT

IF_HEAD = re.compile(r"^\s*(?:\}\s*)?(?:if|elif|elsif|elseif|else\s+if|unless)\b")
BRACE = re.compile(r"^\s*\{\s*$")  # a block's brace on a line of its own, below its head (PHP, C#)
CLOSES = re.compile(r"^\s*(?:[)\]}]+\s*[;,)]*|end|endif;?|fi)\s*$")  # the end of a block, nothing after it
NEXT_TEST = re.compile(r"^\s*(?:\}\s*)?(?:elif|elsif|elseif|else\s+if)\b")  # the chain of tests goes on
OTHER_BRANCH = re.compile(  # a branch taken when no test holds: the return is one of the ends
    r"^\s*(?:\}\s*)?(?:else|except|rescue|catch|finally|ensure|when|case|default)\b"
)


def _width(text: str) -> int:
    return len(text) - len(text.lstrip())


def _head_at(body: Sequence[tuple[int, str]], position: int) -> int | None:
    """The position of the head of the block line ``position`` of ``body`` sits in (a brace alone on its line
    skipped to the head above it); None at the definition's own level."""
    indent = _width(body[position][1])
    for at in range(position - 1, 0, -1):
        text = body[at][1]
        if not text.strip() or COMMENT.match(text) or _width(text) >= indent:
            continue
        if BRACE.match(text) and at > 1:
            return at - 1
        return at
    return None


def early_exit(body: Sequence[tuple[int, str]], position: int) -> bool:
    """Whether line ``position`` of ``body`` (a definition's (line, text), its head first) sits in an ``if`` (or
    ``else if``) block of a chain with no ``else``, after which statements follow at the ``if``'s own level, more of
    them than the block holds: the work goes on below a short cut (``if ($cached) { return $cached; }``), where a
    Django view's ``if form.is_valid():`` block holding the sign-in and its ``return response`` is the work itself
    and the form shown again below it the way out."""
    head = _head_at(body, position)
    if head is None or not IF_HEAD.match(code_part(body[head][1])):
        return False
    level = _width(body[head][1])
    for at in range(position + 1, len(body)):
        text = body[at][1]
        if not text.strip() or COMMENT.match(text) or _width(text) > level:
            continue
        code = code_part(text)
        if NEXT_TEST.match(code):
            continue  # `} else if (…) {`: another case of the chain, which may end as this one does
        if _width(text) < level or OTHER_BRANCH.match(code):
            return False  # the enclosing block ends, or the chain ends in an `else`
        if not CLOSES.match(code):
            return _statements(body[at:]) > _statements(body[head + 1 : at])
    return False


def _statements(lines: Sequence[tuple[int, str]]) -> int:
    """The lines of code among ``lines``: no blank line, comment or bracket closing a block."""
    return sum(1 for _, text in lines if text.strip() and not COMMENT.match(text) and not CLOSES.match(code_part(text)))


RETURN = re.compile(r"^\s*return\b")
# a return that gives up or hands back an error (``return None``, ``return [];``, ``return "", errEmpty``,
# ``return false;``): a guard's, no case of its own
GIVES_UP = re.compile(
    r"\berr|error|exception|fail|invalid|denied|^\s*return\s*(?:None|True|False|true|false|nil|null|undefined|"
    r"\[\s*\]|\{\s*\}|\(\s*\)|\"\"|''|-?\d+|array\(\s*\))?\s*;?\s*$",
    re.IGNORECASE,
)


def two_cases(body: Sequence[tuple[int, str]]) -> set[int]:
    """The positions of the returns that are the two cases of one ``if`` (``case_above``) whose own return does not
    give up (``GIVES_UP``): neither is where the definition always ends, as neither of an ``if``/``else`` is."""
    cases: set[int] = set()
    for position, (_, text) in enumerate(body):
        above = case_above(body, position) if RETURN.match(code_part(text)) else None
        if above is not None and not GIVES_UP.search(code_part(body[above][1])):
            cases |= {above, position}
    return cases


def case_above(body: Sequence[tuple[int, str]], position: int) -> int | None:
    """For a ``return`` at line ``position`` of ``body`` right below an ``if`` block (no ``else``) that ends in a
    ``return`` and is no early exit: that return's position, the other case of the one test, as with an ``else``
    (saleor's ``_calculate_product_price_with_taxes`` returns the flat-rate tax when the strategy is flat rates, and
    ``TaxedMoney(price, price)`` below it otherwise). None for any other line."""
    level = _width(body[position][1])
    block: list[int] = []  # the lines of the block above, last first
    for at in range(position - 1, 0, -1):
        text = body[at][1]
        if not text.strip() or COMMENT.match(text) or BRACE.match(text) or CLOSES.match(code_part(text)):
            continue
        if _width(text) > level:
            block.append(at)
            continue
        if not block or not IF_HEAD.match(code_part(text)) or not RETURN.match(code_part(body[block[0]][1])):
            return None
        return None if early_exit(body, block[0]) else block[0]
    return None


ELSE_HEAD = re.compile(r"^\s*(?:\}\s*)?else\b")


def one_of_many_cases(body: Sequence[tuple[int, str]], position: int) -> bool:
    """Whether line ``position`` of ``body`` sits in a branch of a chain of three tests or more (``if``, ``else if``
    and ``else``): crater's ``getPreviousStatus`` returns ``STATUS_VIEWED``, ``STATUS_SENT`` or ``STATUS_DRAFT`` by
    the test that holds, and a walk said it "ends in `return self::STATUS_SENT;`"."""
    head = _head_at(body, position)
    if head is None or not (IF_HEAD.match(code_part(body[head][1])) or ELSE_HEAD.match(code_part(body[head][1]))):
        return False
    heads = [head, *_branches(body, head, -1), *_branches(body, head, 1)]
    return len(heads) >= 3 and any(NEXT_TEST.match(code_part(body[at][1])) for at in heads)


def _branches(body: Sequence[tuple[int, str]], head: int, step: int) -> list[int]:
    """The heads of the other branches of ``head``'s chain, above it (``step`` -1) or below it (1)."""
    level, at = _width(body[head][1]), head
    found: list[int] = []
    while True:
        code = code_part(body[at][1])
        if step < 0 and not (NEXT_TEST.match(code) or ELSE_HEAD.match(code)):
            return found  # an `if`: the chain's first test
        at += step
        while 0 < at < len(body) and (
            not body[at][1].strip()
            or COMMENT.match(body[at][1])
            or BRACE.match(body[at][1])
            or _width(body[at][1]) > level
            or (CLOSES.match(code_part(body[at][1])) and _width(body[at][1]) == level)
        ):
            at += step
        if not 0 < at < len(body) or _width(body[at][1]) != level:
            return found
        code = code_part(body[at][1])
        if step > 0 and not (NEXT_TEST.match(code) or ELSE_HEAD.match(code)):
            return found
        if step < 0 and not IF_HEAD.match(code):
            return found
        found.append(at)
