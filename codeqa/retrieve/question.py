"""The question, parsed once: ``Question.parse`` in ``retrieve()`` reads everything the stages after it ask about the
text (its code tokens and plain words, the names, files and qualified names it mentions, the roles and topics it asks
about), and the ranking, the features and the answer take it from there instead of reading the text again.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from codeqa.frameworks.intent import intents
from codeqa.retrieve.exact import MAX_WORDS, named_symbols
from codeqa.retrieve.query import qualified_names, query_identifiers, validate_query
from codeqa.retrieve.roles import Role, role_mentions, roles_asked_by_words
from codeqa.retrieve.thesaurus import Expansion, expand
from codeqa.tokens import code_tokens, plain_tokens


@dataclass(frozen=True)
class Question:
    text: str
    tokens: tuple[str, ...]  # code tokens, in order (``code_tokens``): lexical search, the second stage, the answer
    plain: tuple[str, ...]  # plain BM25 words (``plain_tokens``)
    names: frozenset[str]  # names it mentions, lower-cased (``query_identifiers``)
    file_names: frozenset[str]  # file paths it mentions, lower-cased
    qualified: tuple[tuple[str, ...], ...]  # qualified names as their parts (``Mod.Sub``, ``A::B``)
    spelled: tuple[str, ...]  # names spelled as the code spells them, for the exact-name path
    words: int
    mentions: tuple[tuple[Role, int], ...]  # how often it names each role
    asks_for: frozenset[Role]  # roles its words ask for (docs, tests, the changelog …)
    intents: tuple[str, ...]  # what it is about (``codeqa.frameworks.intent``), most specific first
    expansion: Expansion = Expansion()  # the code's words for the concepts it names in its own (``thesaurus``)

    @classmethod
    def parse(cls, text: str) -> Question:
        """Validate ``text`` (``QueryError`` for an empty or undecodable question) and read it once."""
        text = validate_query(text)
        names, file_names = query_identifiers(text)
        words = len(text.split())
        mentions = role_mentions(text)
        return cls(
            text=text,
            tokens=tuple(code_tokens(text)),
            plain=tuple(plain_tokens(text)),
            names=frozenset(names),
            file_names=frozenset(file_names),
            qualified=qualified_names(text),
            spelled=tuple(named_symbols(text, code_only=words > MAX_WORDS)),
            words=words,
            mentions=tuple(mentions.items()),
            asks_for=roles_asked_by_words(text, mentions),
            intents=intents(text),
            expansion=expand(text),
        )

    def roles_asked(self, mentioned_roles: Iterable[Role] = ()) -> frozenset[Role]:
        """Roles asked for: by the question's words, or because it names one of that role's files."""
        return self.asks_for | (frozenset(mentioned_roles) - {Role.SOURCE})

    @property
    def names_code(self) -> bool:
        """The question names a symbol or a file (else it is in natural words only)."""
        return bool(self.names or self.file_names)
