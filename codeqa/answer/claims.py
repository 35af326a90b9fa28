"""The claim checker for "A calls B": a call claim is shown only when a call in A's own lines resolves to B.

``flow.link`` proposes a link when A's text names something B defines and the name can reach B's file. That is a
match of names, and three things pass it that are false: a module-level object named like a view
(``login = LoginManager()``, then ``login.init_app(app)``), a namesake in another module (``permissions.has_access``
for ``User.has_access``), and a chunk named after its first definition when the call is made from, or made to,
another definition in it. So for Python every proposed link is checked again on the caller's file
(``chunk.resolve.calls``):
- the call site must lie in A's lines, and A is the definition that encloses it (not the chunk's first name);
- the call must resolve, through the file's imports and scopes, to a definition inside B, and B is that definition.
A claim that fails is dropped, never softened into "uses". A "uses" link is dropped too where the caller's file binds
the name to something else (an import from another module, a module-level variable), or where the name is an
attribute (``request.profile``) and B's definition a function, not a method. Languages without a
resolver keep ``flow.link``'s check and are counted apart (``by_name``). Every answer counts its call claims:
made, verified, dropped.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from codeqa.answer.context import AnswerContext
from codeqa.answer.flow import Use, link
from codeqa.chunk.resolve.calls import CallSite, call_sites, names_in, use_reaches
from codeqa.chunk.tags import text_of
from codeqa.records import Chunk
from codeqa.symbols import qualified_names, short_name

RESOLVED_LANGUAGES = frozenset({"python"})


@dataclass
class ClaimTally:
    """Call claims of one answer, each (caller chunk, callee chunk) pair counted once."""

    made: set[tuple[str, str]] = field(default_factory=set)
    verified: set[tuple[str, str]] = field(default_factory=set)
    by_name: set[tuple[str, str]] = field(default_factory=set)  # verified by name only (no resolver for the language)

    @property
    def dropped(self) -> int:
        return len(self.made - self.verified)

    def counts(self) -> dict[str, int]:
        return {"claims_made": len(self.made), "claims_verified": len(self.verified),
                "claims_dropped": self.dropped, "claims_by_name": len(self.by_name)}  # fmt: skip


class ClaimChecker:
    """Checks the links an answer states, reading the callers' files through ``context`` (each file once)."""

    def __init__(self, context: AnswerContext, texts: dict[str, str] | None = None) -> None:
        self.context = context
        self.tally = ClaimTally()
        self._texts: dict[str, str] = {} if texts is None else texts  # shared by checkers of one answer

    def file_text(self, path: str) -> str:
        if path not in self._texts:
            chunks = self.context.file_chunks([path], limit=None).get(path, [])
            self._texts[path] = text_of(chunks) if chunks else ""
        return self._texts[path]

    def link(
        self, user: Chunk, used: Chunk, imports: Mapping[str, set[str]], *, names: Sequence[str] | None = None
    ) -> Use | None:
        """``flow.link``'s use of ``used`` in ``user``, if the claim it makes holds (see the module docstring)."""
        proposed = link(user, used, imports, names=names)
        if proposed is None:
            return None
        pair = (user.id, used.id)
        if user.language not in RESOLVED_LANGUAGES or used.language not in RESOLVED_LANGUAGES:
            if proposed.verb == "calls":
                self.tally.made.add(pair)
                self.tally.verified.add(pair)
                self.tally.by_name.add(pair)
            return proposed
        text = self.file_text(user.path)
        site = self.call_of(user, used, text, names)
        if site is not None:
            self.tally.made.add(pair)
            self.tally.verified.add(pair)
            return site
        if proposed.verb == "calls":
            self.tally.made.add(pair)
            return None
        top_level = proposed.name in qualified_names(used.symbol)  # a function or class, not a method
        reaches = use_reaches(user.path, text, proposed.name, proposed.text, used.path, top_level=top_level)
        return proposed if reaches else None

    def call_of(self, user: Chunk, used: Chunk, text: str, names: Sequence[str] | None = None) -> Use | None:
        """The first call in ``user``'s lines that resolves to a definition in ``used``, as a use naming both."""
        if not text:
            return None
        wanted = qualified_names(used.symbol)
        lines = text.split("\n")
        for site in call_sites(user.path, text, user.start_line, user.end_line):
            callee = _callee(site, user.path, used, wanted)
            if callee and not _own_definition(site, callee) and (names is None or short_name(callee) in names):
                return Use(callee, site.line, "calls", lines[site.line - 1].strip(), site.caller)
        return None


def _callee(site: CallSite, caller_path: str, used: Chunk, wanted: Sequence[str]) -> str:
    """The definition in ``used`` that ``site`` calls: one its symbol names (a class for its constructor), or a
    method defined in the lines of a class it names (a whole class is one chunk named after the class)."""
    for name in names_in(site, caller_path, used.path):
        if name in wanted or f"{name}.__init__" in wanted:
            return name
        owner, _, method = name.rpartition(".")
        if owner == "*":  # a method inherited from some class of the base's module
            name = next((q for q in wanted if q.rpartition(".")[2] == method and "." in q), "")
            owner = next((q for q in wanted if "." not in q and _defines(used, method)), "") if not name else ""
            if name or owner:
                return name or f"{owner}.{method}"
            continue
        if owner in wanted and _defines(used, method):
            return name
    return ""


def _defines(chunk: Chunk, method: str) -> bool:
    return bool(re.search(rf"^\s*(?:async\s+)?def\s+{re.escape(method)}\b", chunk.text, re.M))


def _own_definition(site: CallSite, callee: str) -> bool:
    """A recursive call is not a link between two parts of the answer."""
    return site.caller == callee


def caller_name(use: Use, fallback: str) -> str:
    """Who makes the call a claim states: the enclosing definition the checker found, else ``fallback``."""
    return use.caller or fallback


def consistent_chain(hops: Sequence[Use]) -> int:
    """How many hops of a chain "A calls B, which calls C" hold together: B called must be the B that calls C."""
    for n in range(1, len(hops)):
        before, after = hops[n - 1], hops[n]
        if before.caller and after.caller and before.name != after.caller:
            return n
    return len(hops)
