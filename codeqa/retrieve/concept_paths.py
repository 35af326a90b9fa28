"""Where the code keeps a concept the question names in lay words: the directories and files named after it.

A newcomer asks "how are outside services told when a story changes?"; the thesaurus reads *webhooks* in it, and the
app keeps them in ``taiga/webhooks/``. Retrieval weighs the question's own words ("story", "delivery") over the
code words the thesaurus adds, and on a real-size app the files that hold the question's words (a list of
translated "user story" strings) outrank the module named after the concept. How the code is organised is a
different kind of evidence than the words in its lines: a directory or a file named after the concept (a segment
of its path whose tokens include one of the concept's code words) is where the answer should look too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from codeqa.languages import CONFIG_LANGUAGES, DOC_LANGUAGES, MARKUP_LANGUAGES, detect_language
from codeqa.retrieve.roles import Role, role_of
from codeqa.retrieve.thesaurus import concepts

MAX_PLACES = 50  # a filter scope, not a file list (``filters.MAX_FILTER_VALUES``)
NOT_CODE = DOC_LANGUAGES | CONFIG_LANGUAGES | MARKUP_LANGUAGES  # a template is named after its page, not a concept
TOO_COMMON = 0.25  # a code word naming more than this share of the app's source files is not a place


@dataclass(frozen=True)
class ConceptPlaces:
    concept: str  # a concept the question names whose code words name places in the app
    paths: tuple[str, ...]  # directory prefixes (ending in "/") and single files named after it
    words: tuple[str, ...]  # the concept's code words, its own first


def _word(word: str) -> str:
    """A word as a path and a concept both spell it: lower case, no separators, no plural ``s`` (stems would take
    ``localization`` for ``local``)."""
    word = re.sub(r"[-_ .]", "", word.lower())
    return word[:-1] if word.endswith("s") and len(word) > 3 else word


def _segment_words(segment: str) -> set[str]:
    name = segment.split(".", 1)[0] if "." in segment[1:] else segment
    parts = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+", name)
    return {_word(name), *(_word(part) for part in parts)}


def _places(words: Sequence[str], sources: Sequence[str]) -> dict[str, set[str]]:
    """place -> the source files under it, for the places named by the first of ``words`` that names any (the
    concept's own word before its looser ones: ``webhooks/`` before ``hooks/``)."""
    best: dict[str, set[str]] = {}
    best_rank = len(words)
    rank_of: dict[str, int] = {}
    for n, word in enumerate(words):
        rank_of.setdefault(_word(word), n)
    for path in sources:
        parts = path.split("/")
        for depth, segment in enumerate(parts):
            ranks = [rank_of[word] for word in _segment_words(segment) if word in rank_of]
            if not ranks:
                continue
            rank = min(ranks)
            if rank < best_rank:
                best, best_rank = {}, rank
            if rank == best_rank:
                place = path if depth == len(parts) - 1 else "/".join(parts[: depth + 1]) + "/"
                best.setdefault(place, set()).add(path)
            break  # the outermost place named after the concept holds the rest
    return best


def _is_code(path: str) -> bool:
    language = detect_language(path)
    return language is not None and language not in NOT_CODE


def concept_places(question: str, paths: Iterable[str], roles: Mapping[str, Role] | None = None) -> list[ConceptPlaces]:
    """Per concept ``question`` names by its lay words (``thesaurus``), the directories and files among ``paths``
    named after it: a directory's whole subtree when the directory is named after it, else the file; only the
    places of the concept's first code word that names any. Tests, docs, migrations, catalogs, templates, config and
    other peripheral files are left out; so is a place list that covers a quarter of the source files (a ``src/`` is
    no place). ``roles``: each path's role from the index's evidence (``file_signals.file_roles``: NetBox's
    ``netbox/extras/`` is its code, not examples); without it, the path conventions'."""
    named = [concept for concept in concepts() if concept.phrases.search(question)]
    if not named:
        return []
    role = roles.get if roles is not None else None
    sources = [path for path in dict.fromkeys(paths)
               if (role(path, Role.SOURCE) if role else role_of(path)) is Role.SOURCE and _is_code(path)]  # fmt: skip
    limit = max(1, int(TOO_COMMON * len(sources)))
    found = []
    for concept in named:
        places = _places(concept.words, sources)
        if places and len(set().union(*places.values())) <= limit:
            ordered = sorted(places, key=lambda place: (-len(places[place]), place))[:MAX_PLACES]
            found.append(ConceptPlaces(concept.name, tuple(ordered), concept.words))
    return found


def outside(places: ConceptPlaces, files: Sequence[str]) -> bool:
    """Whether none of ``files`` (the best files retrieval found) is in one of the concept's places."""
    return not any(path == place or (place.endswith("/") and path.startswith(place)) for place in places.paths
                   for path in files)  # fmt: skip
