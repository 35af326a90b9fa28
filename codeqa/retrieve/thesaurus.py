"""A newcomer's words → the code's words: the software thesaurus (``thesaurus.toml``) as retrieval evidence.

"How is another system told when a device changes?" shares no word with ``webhooks.py``; "what stops a form that
another website submits?" none with ``csrf``. Word vectors do not bridge that (bench/README.md, "The vocabulary
gap"): the knowledge that outside services are told through webhooks is the trade's, so it is written down, one
concept per topic of the frameworks' own guides. A question's matched concepts give code words, which retrieval
adds to its lexical evidence at a lower weight than the question's own words (``retrieval.py``, ``features.py``).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from codeqa.searchfiles.lexical import LexicalIndex
from codeqa.symbols import IDENTIFIER
from codeqa.tokens import code_tokens

DATA = Path(__file__).with_name("thesaurus.toml")
# The code words' BM25 weight beside the question's own words, in the chunk and the file BM25. Chosen on the dev
# questions (answers_dev + newcomer_dev) over 0.2-0.5: the code words are a guess from the question's wording, so the
# question's own words lead; their files also join the candidates (``features.POOL_SIGNALS``).
WEIGHT = 0.3


@dataclass(frozen=True)
class Concept:
    name: str
    phrases: re.Pattern[str]  # the question's words for it (word starts, any case)
    words: tuple[str, ...]  # the code's words for it, as code spells them
    tokens: tuple[str, ...]  # those words as the lexical index keeps them (a compound identifier whole)


@dataclass(frozen=True)
class Expansion:
    """What the thesaurus adds to a question: the concepts it names and their code words and tokens, minus what
    the question already says."""

    concepts: tuple[str, ...] = ()
    words: tuple[str, ...] = ()
    tokens: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.tokens)


def word_token(word: str) -> str:
    """The one lexical token a code word stands for: a compound identifier whole (``rate_limit``, ``RateLimiter`` →
    ``ratelimiter``), a plain word stemmed (``throttle`` → ``throttl``); its parts would bring back the generic
    words (``rate``, ``limit``) the question's own words already weigh."""
    tokens = code_tokens(word)
    if len(IDENTIFIER.findall(word)) != 1 or not tokens:
        raise ValueError(f"thesaurus: {word!r} is not one identifier")
    return tokens[0]


def load(path: Path = DATA) -> tuple[Concept, ...]:
    """The concepts of a thesaurus file (``ValueError`` for a malformed entry or a pattern that does not compile)."""
    raw = tomllib.loads(path.read_text("utf-8"))
    concepts = []
    for entry in raw.get("concept", []):
        name, phrases, words = entry.get("name"), entry.get("phrases"), entry.get("code")
        if not isinstance(name, str) or not phrases or not words:
            raise ValueError(f"thesaurus: concept {name!r} needs a name, phrases and code words")
        try:
            pattern = re.compile(r"\b(?:" + "|".join(f"(?:{p})" for p in phrases) + ")", re.IGNORECASE)
        except re.error as error:
            raise ValueError(f"thesaurus: concept {name!r}: {error}") from None
        tokens = tuple(dict.fromkeys(word_token(word) for word in words))
        concepts.append(Concept(name, pattern, tuple(words), tokens))
    return tuple(concepts)


@lru_cache(maxsize=1)
def concepts() -> tuple[Concept, ...]:
    return load()


@lru_cache(maxsize=512)
def expand(text: str) -> Expansion:
    """The concepts ``text`` names and their code words, leaving out the tokens the text has itself."""
    own = set(code_tokens(text))
    found = [concept for concept in concepts() if concept.phrases.search(text)]
    tokens = [token for concept in found for token in concept.tokens if token not in own]
    words = [word for concept in found for word in concept.words if word_token(word) not in own]
    return Expansion(
        tuple(concept.name for concept in found), tuple(dict.fromkeys(words)), tuple(dict.fromkeys(tokens))
    )


def with_code_words(
    lexical: LexicalIndex, tokens: Sequence[str], expansion: Expansion, mask: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray | None]:
    """BM25 over ``lexical`` of the question's own ``tokens`` plus ``WEIGHT`` × its code words', and the code
    words' alone (None when the question names no concept: then the scores are exactly the question's own)."""
    own = lexical.scores(list(tokens), mask)
    if not expansion:
        return own, None
    implied = lexical.scores(list(expansion.tokens), mask)
    return own + WEIGHT * implied, implied
