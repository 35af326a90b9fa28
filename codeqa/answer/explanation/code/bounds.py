"""The line that checks an amount against its bound: ``if current_projects >= max_projects:``.

A question about an amount ("where is the limit on how many projects…", "how often…", "after how long…") is
answered by two lines: the one that sets the amount (``keylines.sets_a_number``) and the one that holds the count,
the age or the rate against it. The second often holds none of the question's words beyond one spread over the
whole span (``projects`` on every line of a quota check), so it was cut for lines that name the topic more often.
``checks_a_bound`` finds it: a condition, a guard or a query filter with an ordering comparison (``>=``, ``<=``,
``<``, ``>``, or a date's ``isBefore``/``isAfter``), not a loop's counter.
"""

from __future__ import annotations

import re

from codeqa.answer.explanation.code.lineroles import blank_strings

# ``a >= b``, ``a<b`` spaced or not, but not ``=>``, ``->``, ``<-``, ``<<``, ``>>``, ``<=>`` nor a generic ``List<T>``
ORDERING = re.compile(
    r"(?<![=!<>\-])(?:>=|<=)(?![=>])|(?<=\s)[<>](?=\s)|['\"](?:>=|<=|<|>)['\"]|(?:\.|->)(?:isBefore|isAfter|before|after)\("
)
SQL_ORDERING = re.compile(r"['\"][^'\"]*\w\s*(?:>=|<=|<|>)\s*(?:\?|:\w+|now\(\))[^'\"]*['\"]")  # "created_at < ?"
CHECKS = re.compile(  # a decision, a guard clause, a query filter, a conditional expression
    r"^\s*(?:if|elif|else\s+if|unless|while|when|guard|until|return|and|or|&&|\|\|)\b|\bif\b|\bunless\b|"
    r"\b(?:where|filter|having|andWhere|orWhere)\w*\s*\(|\?\s|^\s*(?:&&|\|\|)"
)
LOOP = re.compile(r"^\s*for\b|\bfor\s*\(|\w+\s*(?:\+\+|--)")
# chosen on answers_dev + newcomer_dev (183 questions): see the commit; against VALUE_WEIGHT 0.6 of a set amount
BOUND_WEIGHT = 0.6


def checks_a_bound(line: str) -> bool:
    """``line`` compares an amount with a bound in a decision or a filter (not a loop's counter)."""
    if LOOP.search(line) or not CHECKS.search(line):
        return False
    return bool(ORDERING.search(blank_strings(line)) or SQL_ORDERING.search(line) or _quoted_operator(line))


def _quoted_operator(line: str) -> bool:
    """``->where('scheduled_at', '<=', $now)``: the comparison passed as a string."""
    return bool(re.search(r"['\"](?:>=|<=|<|>)['\"]", line))


def bound_score(quantity: bool, line: str) -> float:
    """What checking a bound adds to a line's weight: ``BOUND_WEIGHT`` in a question about an amount, else 0."""
    return BOUND_WEIGHT if quantity and checks_a_bound(line) else 0.0
