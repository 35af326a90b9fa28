"""Which candidate opens the answer, where the score alone would open on a side path (issue #35).

1. ``asks_mechanism``: a question that names its own subject ("what happens if sending that reminder keeps
   failing?") opens on the code holding its words when that code holds them better than the app-wide construct
   (the exception handler, the middleware set-up): the construct is how the story ends, not where it is answered.
   A question of a few words with nothing of its own ("what happens when an API request fails?") or one asking
   where to add a concern every request meets is about the mechanism itself: the construct opens it.
2. ``shared_piece``: when the opening source is one of a family of sibling files among the sources (the same file
   in ``hooks/github/``, ``hooks/gitlab/``, ``hooks/bitbucket/``: one provider among many), the code they share —
   a source in the folder holding the family that the opening file and a sibling import — opens instead: it is
   where the work all providers go through is done.
"""

from __future__ import annotations

from collections.abc import Sequence

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.code.keylines import Terms
from codeqa.answer.explanation.constructs.candidate import Candidate
from codeqa.frameworks.intent import HOOK

MECHANISM_QUESTION = 6  # a question of at most this many terms asks about the mechanism itself (leave-one-repo-out)
FAMILY = 2  # siblings of the opening file among the sources that make it one of a family


# the words of a question about the app's request mechanism itself (stemmed): "what happens when an API request
# fails?" names nothing of its own; "… when fetching mail fails?" names mail, which the mechanism does not handle
MECHANISM_WORDS = frozenset({
    "api", "request", "http", "endpoint", "page", "server", "app", "applic", "system", "user", "flow", "through",
    "happen", "fail", "failur", "error", "except", "wrong", "respons", "call", "client", "go", "work", "handl",
})  # fmt: skip


def asks_mechanism(terms: Terms, intents: Sequence[str]) -> bool:
    """Whether the question asks about the mechanism itself (see the module docstring)."""
    if tuple(intents[:1]) == (HOOK,):
        return True
    own_subject = tuple(intents[:1]) == ("errors",) and bool(terms.words - MECHANISM_WORDS)  # "fetching mail fails"
    return len(terms.words) <= MECHANISM_QUESTION and not own_subject


def siblings(path: str, paths: Sequence[str]) -> dict[str, int]:
    """The paths of ``paths`` that are ``path`` with one folder named differently (and the file name with it, where
    it carries the folder's name: ``plugins/slack/slack.ts`` for ``plugins/github/github.ts``), each with the
    position of that folder."""
    parts = path.split("/")
    found: dict[str, int] = {}
    for other in dict.fromkeys(paths):
        those = other.split("/")
        if other == path or len(those) != len(parts):
            continue
        differ = [n for n in range(len(parts) - 1) if those[n] != parts[n]]
        if len(differ) != 1:
            continue
        n = differ[0]
        if those[-1] in (parts[-1], parts[-1].replace(parts[n], those[n])):
            found[other] = n
    return found


def shared_piece(context: AnswerContext, ordered: Sequence[Candidate]) -> Candidate | None:
    """The code the opening source's family shares (see the module docstring), or None."""
    if not ordered:
        return None
    lead = ordered[0].chunk.path
    family = siblings(lead, [c.chunk.path for c in ordered])
    if len(family) < FAMILY:
        return None
    imports = context.file_imports
    for candidate in ordered[1:]:
        path = candidate.chunk.path
        if path in family or path not in imports.get(lead, ()):
            continue
        n = next(iter(family.values()))
        holder, members = "/".join(lead.split("/")[:n]) + "/", {p.split("/")[n] for p in [lead, *family]}
        inside = path.startswith(holder) and path.split("/")[n] not in members  # beside the family, not in one
        if inside and any(path in imports.get(sibling, ()) for sibling in family):
            return candidate
    return None
