"""A model's own "A calls B" sentences, checked in the code before they are shown; a sentence that fails is dropped.

A model writes its answer from the brief, and can still say that a function calls another when it does not (a
namesake, a call it imagined). Each sentence of its prose (not code blocks) that states a call — "`login` calls
`check_password` [2]", "login() invokes User.check_password (app/auth.py:10-16)" — is checked the way the
extractive answer's claims are (``claims``):
- A is a definition in a cited source (``[n]`` or ``path:start-end``), else in any source of the answer; none: the
  claim has nothing behind it and fails;
- for Python, a call in A's own lines must name B and, where the index defines B, resolve to that definition
  through the file's imports and scopes (``chunk.resolve.calls``); where the index does not define B (a library
  call, ``login_user``), the call written in A's lines is the evidence;
- other languages: a call of B written in A's lines (``B(``, ``.B(``), counted as checked by name.
The text streams sentence by sentence: a sentence is shown once its claims are checked (a code block passes whole,
line by line).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.calls.claims import RESOLVED_LANGUAGES, ClaimChecker, ClaimTally
from codeqa.answer.rendering.citations import parse_citations
from codeqa.chunk.resolve.calls import CallSite, call_sites, names_in
from codeqa.records import Chunk, Hit
from codeqa.symbols import qualified_names, short_name

NAME = r"`?(?P<{0}>[A-Za-z_$][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)*)(?:\(\))?`?"
CALL_CLAIM = re.compile(
    NAME.format("caller") + r"(?:\s*\([^)]{0,80}\))?,?\s+(?:then\s+|first\s+|also\s+|directly\s+)?(?:calls|invokes)\s+"
    + NAME.format("callee")
)  # fmt: skip
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*\[(])")
FENCE = re.compile(r"^\s*(?:```|~~~)")
NOT_NAMES = frozenset({"it", "this", "that", "which", "then", "and", "also", "function", "method", "code", "he"})


class ModelClaims:
    """Checks a model's answer as it streams; ``tally`` counts its call claims made, verified and dropped."""

    def __init__(self, context: AnswerContext | None, sources: Sequence[Hit]) -> None:
        self.checker = ClaimChecker(context) if context is not None else None
        self.sources = list(sources)
        self.tally = ClaimTally()
        self._pending = ""  # text not shown yet: the unfinished sentence or line
        self._fenced = False  # inside a code block
        self._line_start = True  # ``_pending`` starts a line (a code fence can only open there)

    def feed(self, piece: str) -> Iterator[str]:
        """The checked text of the sentences and lines ``piece`` completes (the rest waits for its end)."""
        self._pending += piece
        while "\n" in self._pending:
            line, self._pending = self._pending.split("\n", 1)
            yield self._line(line) + "\n"
            self._line_start = True
        if self._fenced or (self._line_start and (len(self._pending.lstrip()) < 3 or FENCE.match(self._pending))):
            return  # a code block's line, or a line that may open one: shown whole
        ends = list(SENTENCE_END.finditer(self._pending))
        if ends:
            head, gap = self._pending[: ends[-1].start()], self._pending[ends[-1].start() : ends[-1].end()]
            self._pending = self._pending[ends[-1].end() :]
            shown = self._prose(head)
            self._line_start = False
            yield shown + gap if shown.strip() else ""

    def flush(self) -> str:
        """The checked rest of the text (the last sentence, when the model stopped or failed while writing it)."""
        line, self._pending = self._pending, ""
        return self._line(line) if line else ""

    def _line(self, line: str) -> str:
        if self._line_start and FENCE.match(line):
            self._fenced = not self._fenced
            return line
        return line if self._fenced else self._prose(line)

    def _prose(self, text: str) -> str:
        """``text`` without the sentences whose call claims fail."""
        if not CALL_CLAIM.search(text):
            return text
        kept = [sentence for sentence in SENTENCE_END.split(text) if self._holds(sentence)]
        indent = text[: len(text) - len(text.lstrip())]
        return (indent + " ".join(s.strip() for s in kept)) if kept else ""

    def _holds(self, sentence: str) -> bool:
        claims = [m for m in CALL_CLAIM.finditer(sentence) if m.group("caller").lower() not in NOT_NAMES]
        if not claims:
            return True
        cited = self._cited(sentence)
        ok = True
        for match in claims:
            caller, callee = match.group("caller"), match.group("callee")
            pair = (caller, callee)
            self.tally.made.add(pair)
            by_name = self.check(caller, callee, cited)
            if by_name is None:
                ok = False
                continue
            self.tally.verified.add(pair)
            if by_name:
                self.tally.by_name.add(pair)
        return ok

    def _cited(self, sentence: str) -> list[Chunk]:
        found: list[Chunk] = []
        for citation in parse_citations(sentence, [hit.chunk.path for hit in self.sources]):
            if citation.number is not None and 1 <= citation.number <= len(self.sources):
                found.append(self.sources[citation.number - 1].chunk)
            elif citation.path is not None and citation.start is not None and citation.end is not None:
                found += [hit.chunk for hit in self.sources if (hit.chunk.path == citation.path
                          or hit.chunk.path.endswith("/" + citation.path)) and citation.start <= hit.chunk.end_line
                          and citation.end >= hit.chunk.start_line]  # fmt: skip
        return found

    def check(self, caller: str, callee: str, cited: Sequence[Chunk]) -> bool | None:
        """None when the claim fails; else whether it was checked by name only."""
        wanted = _short(caller)
        chunks = [c for c in cited if _defines(c, wanted)] or [
            h.chunk for h in self.sources if _defines(h.chunk, wanted)
        ]
        for chunk in dict.fromkeys(chunks):
            if chunk.language in RESOLVED_LANGUAGES and self.checker is not None:
                if self._python_call(chunk, wanted, _short(callee)):
                    return False
            elif _written_call(chunk, wanted, _short(callee)):
                return True
        return None

    def _python_call(self, chunk: Chunk, caller: str, callee: str) -> bool:
        assert self.checker is not None
        context = self.checker.context
        text = self.checker.file_text(chunk.path)
        sites = (
            call_sites(chunk.path, text, chunk.start_line, chunk.end_line)
            if text
            else call_sites(chunk.path, chunk.text)
        )
        rows = context.definers.get(callee.lower(), [])
        definitions = [(context.table.paths[r], q) for r in rows for q in qualified_names(context.table.symbols[r])
                       if short_name(q) == callee]  # fmt: skip
        for site in sites:
            if short_name(site.caller) != caller or _last(site.written) != callee:
                continue
            if not definitions:
                return True  # a library call: written in the caller's own lines
            if any(_resolves(site, chunk.path, path, q) for path, q in definitions):
                return True
        return False


def _resolves(site: CallSite, caller_path: str, path: str, qualified: str) -> bool:
    names = names_in(site, caller_path, path)
    return qualified in names or f"{qualified}.__init__" in names or qualified.removesuffix(".__init__") in names


def _short(name: str) -> str:
    return re.split(r"\.|::|#", name)[-1]


def _last(written: str) -> str:
    return written.rsplit(".", 1)[-1]


def _defines(chunk: Chunk, name: str) -> bool:
    return any(short_name(q) == name for q in qualified_names(chunk.symbol))


def _written_call(chunk: Chunk, caller: str, callee: str) -> bool:
    """A call of ``callee`` on a line of ``chunk`` (languages without a resolver: checked by name)."""
    del caller  # the chunk defines it; the chunk's lines are its lines
    pattern = re.compile(rf"(?<![\w$]){re.escape(callee)}\s*\(|(?:\.|::|->){re.escape(callee)}\b")
    return any(pattern.search(line) for line in chunk.text.split("\n") if not line.lstrip().startswith(("//", "#")))


def checked(pieces: Iterable[str], claims: ModelClaims) -> Iterator[str]:
    """``pieces`` of a model's answer, each line shown once its call claims are checked (failing sentences out)."""
    for piece in pieces:
        yield from claims.feed(piece)
    rest = claims.flush()
    if rest:
        yield rest
