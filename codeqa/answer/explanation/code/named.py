"""Whether a definition is named for the question: its own name (not its class's or file's) holds a question word."""

from __future__ import annotations

from codeqa.answer.explanation.code.keylines import Terms
from codeqa.records import Chunk
from codeqa.symbols import qualified_names, short_name
from codeqa.tokens import code_tokens


def named_for(terms: Terms, chunk: Chunk) -> bool:
    """``canViewWebsite`` asked who may view a site, ``check_password`` asked how the password is checked. Words are
    compared whole, as stems (``login`` is not named for logging, though it starts with ``log``)."""
    return any(not terms.words.isdisjoint(code_tokens(short_name(q))) for q in qualified_names(chunk.symbol))
