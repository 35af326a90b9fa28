"""The words of a question no code in the answer (nor, with a context, in the index) holds: what the answer says it
did not find ("**Not found:** nothing in this index mentions “captcha”").
"""

from __future__ import annotations

from collections.abc import Sequence

from codeqa.answer.context import AnswerContext
from codeqa.records import Chunk
from codeqa.symbols import IDENTIFIER
from codeqa.tokens import STOPWORDS, code_tokens

FILLER = frozenset(
    """work works working happen happens happening handle handled handles done code codebase app application way
    thing things part parts use used uses using get gets make made add added would like need needs one also after
    before first new go goes find see look someone somebody people each every kind sure mean actual actually
    exactly anything something everything place places where which who whom whose calls call called too many
    much several some any all more most less few lots lot really through throughout via across system systems flow
    flows process processes overall mechanism whole step steps
    """.split()  # noqa: SIM905
)


def missing_words(question: str, chunks: Sequence[Chunk], context: AnswerContext | None = None) -> list[str]:
    """Words of the question (not filler) that appear in none of ``chunks`` — nor anywhere in the index, when
    ``context`` is given (a part the question names that really has no match) — as the question spells them."""
    seen = set()
    for chunk in chunks:
        seen.update(code_tokens(chunk.text))
        seen.update(code_tokens(chunk.path))
    missing: list[str] = []
    for word in IDENTIFIER.findall(question):
        # (not a word whose stem is a keyword the index never holds: "returns" is `return`, and crater's answer said
        # "nothing in this index mentions “returns”" of an app whose every function returns)
        tokens = [t for t in code_tokens(word) if t not in FILLER and t not in STOPWORDS and len(t) > 2]
        if word.lower() in FILLER or not tokens:
            continue
        found = any(t in seen or any(s.startswith(t) or t.startswith(s) for s in seen if len(s) >= 4) for t in tokens)
        if found or word.lower() in (m.lower() for m in missing):
            continue
        # the index is asked for the word as the question spells it: its tokens are stemmed already, and a stem
        # stemmed again can change ("only" is `onli`, `onli` is `on`, a stopword no row holds)
        if context is None or not (context.rows_mentioning(word) or any(context.rows_mentioning(t) for t in tokens)):
            missing.append(word)
    return missing
