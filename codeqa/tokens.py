"""Code-aware tokens: the one tokenizer of lexical search, of questions and of answers.

Identifiers are kept whole *and* split (``getUserName`` → ``getusername``, ``get``, ``user``, ``name``), so a
question in plain words and a question that names a symbol both find it. Beside ``codeqa.symbols`` (the identifier
pattern and its camelCase/snake_case parts), which it builds on.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

import Stemmer

from codeqa.symbols import IDENTIFIER, identifier_words

STOPWORDS = frozenset(
    """
    a an and are as at be but by for from has have how i if in into is it its of on or so that the
    their then there these this to was were what when where which who why will with would does do
    did can could should not no yes you your we our they them he she me my self cls def return
    import none true false null let var const new elif else pass end fn func function public private
    protected static void int str bool string
    """.split()  # noqa: SIM905 - a word list reads better as text
)
_STEMMER = Stemmer.Stemmer("english")
_PLAIN_STOPWORDS = frozenset(  # Lucene's English stopword list
    ["a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it", "no", "not", "of",
     "on", "or", "such", "that", "the", "their", "then", "there", "these", "they", "this", "to", "was", "will", "with"]
)  # fmt: skip


@lru_cache(maxsize=200_000)
def _light_stem(word: str) -> str:
    """English stemming (Snowball) so 'loaded'/'load' and 'retries'/'retry' meet; identifiers stay whole too."""
    return _STEMMER.stemWord(word)


def code_tokens(text: str) -> list[str]:
    """Lower-cased tokens of ``text``: whole identifiers plus their camelCase/snake_case parts, light-stemmed."""
    return tokens_of_words(IDENTIFIER.findall(text))


def tokens_of_words(words: Iterable[str]) -> list[str]:
    """``code_tokens`` of a text whose identifiers (``IDENTIFIER.findall``) are ``words``: the tokenizer of indexing,
    which finds a chunk's identifiers once for its tokens and its references."""
    tokens: list[str] = []
    for word in words:
        tokens.extend(_WORD_TOKENS.get(word) or _word_tokens(word))
    return tokens


_WORD_TOKENS: dict[str, tuple[str, ...]] = {}  # identifiers repeat: each is split and stemmed once per process
_WORD_TOKENS_MAX = 500_000


def _word_tokens(word: str) -> tuple[str, ...]:
    lower = word.lower()
    parts = identifier_words(word)
    tokens: list[str] = []
    if len(parts) > 1 or (parts and parts[0] != lower.strip("_")):
        if len(lower) > 2 and lower not in STOPWORDS:
            tokens.append(lower.strip("_"))
        for part in parts:
            if len(part) > 1 and part not in STOPWORDS:
                tokens.append(_light_stem(part))
    elif len(lower) > 1 and lower not in STOPWORDS:
        tokens.append(_light_stem(lower.strip("_")))
    if len(_WORD_TOKENS) >= _WORD_TOKENS_MAX:
        _WORD_TOKENS.clear()
    result = _WORD_TOKENS[word] = tuple(tokens)
    return result


_WORD = re.compile(r"(?u)\b\w\w+\b")


def plain_tokens(text: str) -> list[str]:
    """Plain BM25 tokenization (words of 2+ characters, English stopwords out, Snowball stems), identifiers whole.

    The classic file-level BM25 that issue-localization work uses as its baseline; beside ``code_tokens`` it is a
    second, differently biased lexical signal.
    """
    return [_light_stem(word) for word in _WORD.findall(text.lower()) if word not in _PLAIN_STOPWORDS]


def path_tokens(path: str) -> list[str]:
    """Tokens of a file path: directories and file stem, split like identifiers."""
    return code_tokens(re.sub(r"[/\\.\-]", " ", path))
