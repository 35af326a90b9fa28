"""The classes that opt out of a base class's filter: "`ApplicationController` runs `authenticate_user!` for every
controller" is false where `HomeController` says ``skip_before_action :authenticate_user!``.

A construct with ``skipped_by`` (a filter of the base controller) names its handler; the skip lines naming the same
handler are found through the word index (``skip_word``) in the base class's folder and below, and the phrase names
the classes that skip it after ``skipped_after``, its condition and its tag ("for every controller (a filter in …)
except `HomeController` and `WebRequestsController` (which skip it: …)"), each cited by its skip line. A skip
narrowed to some actions (``only:``, ``if:``) says "some actions of `ScenariosController`"; past ``NAMED`` classes,
they are counted. A skip counts only in a class derived from the base: ``Api::SubmittersController <
ApiBaseController < ActionController::API`` skips the API base's filter of that name, not `ApplicationController`'s;
the superclass chain is followed through the class headers the code holds, and a superclass the app does not define
(a framework's) ends it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import PurePosixPath

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.constructs.candidate import Candidate
from codeqa.answer.explanation.constructs.mechanism import Match
from codeqa.frameworks.conventions import Construct, anchor_rows
from codeqa.records import Chunk, Hit

NAMED = 3  # classes named at most; more are counted ("the 5 that skip it")
CITED = 2  # skip lines cited when they are counted
ROWS_READ = 200  # chunks holding a skip word, read per construct
NARROWING = re.compile(r"\b(?:only|except|if|unless)\s*:|:(?:only|except|if|unless)\s*=>")  # `raise: false` is not
# what ``skipped_after`` is followed by before the classes are named: a condition (", only `if: …`") and a tag
FOLLOWED = r"(?:,[^()]*?)?\s*\((?:[^()`]|`[^`]*`)*\)"
CLASS = re.compile(r"^\s*class\s+(?P<name>[A-Z][\w:]*)(?:\s*<\s*(?P<parent>[A-Z][\w:]*))?")
HEADER = r"^[ \t]*class[ \t]+(?:[\w:]*::)?{name}[ \t]*<[ \t]*(?P<parent>[A-Z][\w:]*)"  # a class naming its superclass
MAX_UP = 4  # superclasses followed from a skipping class towards the base; deeper chains are kept as before
HEADER_ROWS = 40  # chunks naming a class read for its header


@dataclass(frozen=True)
class Skip:
    """One class's line skipping a handler."""

    owner: str  # the class that skips it
    path: str
    line: int  # 1-based line in the file
    partial: bool  # for some of its actions only
    chunk: Chunk


def skips_of(context: AnswerContext, construct: Construct, handler: str, base_path: str, base: str = "") -> list[Skip]:
    """The lines outside ``base_path`` (in its folder or below) that skip ``handler`` of ``construct``, one per
    class derived from ``base`` (a full skip over a partial one), in path order."""
    if construct.skipped_by is None or not construct.skip_word or not handler:
        return []
    folder = str(PurePosixPath(base_path).parent)
    table = context.table
    rows = [row for row in anchor_rows(construct.skip_word, context.rows_mentioning)[:ROWS_READ]
            if table.paths[row] != base_path and _under(table.paths[row], folder)]  # fmt: skip
    found: dict[str, Skip] = {}
    for chunk in context.chunks(rows):
        lines = chunk.text.split("\n")
        for offset, line in enumerate(lines):
            hit = construct.skipped_by.search(line)
            if not hit or handler not in _names(hit.group("names")):
                continue
            options = hit.groupdict().get("options") or ""
            owner, parent = _owner(chunk, lines[: offset + 1])
            if base and not _derives(context, owner, parent, base):
                continue
            skip = Skip(owner, chunk.path, chunk.start_line + offset, bool(NARROWING.search(options)), chunk)
            held = found.get(skip.owner)
            if held is None or (held.partial and not skip.partial):
                found[skip.owner] = skip
    return sorted(found.values(), key=lambda s: (s.path, s.line))


def _under(path: str, folder: str) -> bool:
    return folder in ("", ".") or path.startswith(folder.rstrip("/") + "/")


def _names(listed: str) -> list[str]:
    return [name.strip().lstrip(":") for name in listed.split(",")]


def _owner(chunk: Chunk, above: Sequence[str]) -> tuple[str, str | None]:
    """The class a skip line belongs to and its superclass where its header says: the nearest ``class`` line above
    it, else the chunk's symbol, else the file's name in CamelCase."""
    for line in reversed(above):
        if hit := CLASS.match(line):
            return hit.group("name").split("::")[-1], hit.group("parent")
    if chunk.symbol:
        return chunk.symbol.split(".")[0].split("::")[-1], None
    return _camel(chunk.path), None


def _camel(path: str) -> str:
    return "".join(part.capitalize() for part in PurePosixPath(path).stem.split("_"))


def base_name(chunk: Chunk) -> str:
    """The class a base file defines: its first ``class`` line, else the file's name in CamelCase (Rails names a
    class's file after it)."""
    for line in chunk.text.split("\n"):
        if hit := CLASS.match(line):
            return hit.group("name").split("::")[-1]
    return _camel(chunk.path)


def _superclass(context: AnswerContext, name: str) -> str | None:
    """The superclass a header in the code gives ``name`` (``class ApiBaseController < ActionController::API``)."""
    header = re.compile(HEADER.format(name=re.escape(name)), re.MULTILINE)
    for chunk in context.chunks(context.rows_mentioning(name)[:HEADER_ROWS]):
        if hit := header.search(chunk.text):
            return hit.group("parent")
    return None


def _derives(context: AnswerContext, owner: str, parent: str | None, base: str) -> bool:
    """Whether ``owner`` (superclass ``parent`` where its line says) derives from ``base``. A class whose superclass
    no header names (a reopened class, a concern) is assumed to, as is a chain deeper than ``MAX_UP``; one reaching
    a class the app does not define (``ActionController::API``) does not."""
    name = parent or _superclass(context, owner)
    if name is None:
        return True
    seen = {owner}
    for _ in range(MAX_UP):
        short = name.split("::")[-1]
        if short == base or short in seen:
            return True
        seen.add(short)
        up = _superclass(context, short)
        if up is None:
            return False
        name = up
    return True


def _cited(skips: Sequence[Skip]) -> str:
    return ", ".join(f"`{skip.path}:{skip.line}`" for skip in skips)


def _and(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def except_phrase(skips: Sequence[Skip]) -> str:
    """The classes named: "except `A` and `B` (which skip it: `a.rb:2`, `b.rb:22`) and some actions of `C` (…)"."""
    whole = [s for s in skips if not s.partial]
    partial = [s for s in skips if s.partial]
    parts: list[str] = []
    if len(whole) > NAMED:
        parts.append(f"the {len(whole)} that skip it ({_cited(whole[:CITED])} …)")
    elif whole:
        verb = "skips" if len(whole) == 1 else "skip"
        parts.append(f"{_and([f'`{s.owner}`' for s in whole])} (which {verb} it: {_cited(whole)})")
    if len(partial) > NAMED:
        parts.append(f"some actions of {len(partial)} others ({_cited(partial[:CITED])} …)")
    elif partial:
        parts.append(f"some actions of {_and([f'`{s.owner}`' for s in partial])} ({_cited(partial)})")
    return "except " + " and ".join(parts) if parts else ""


def excepted(context: AnswerContext, found: Sequence[Candidate]) -> tuple[list[Candidate], list[Hit]]:
    """``found`` with each base-class filter's phrase naming the classes that skip it, and the chunks of the skip
    lines cited (for the answer's sources)."""
    cited: dict[str, Hit] = {}
    out: list[Candidate] = []
    for candidate in found:
        matches: list[Match] = []
        for match in candidate.matches:
            construct = match.construct
            at = re.search(re.escape(construct.skipped_after) + f"(?:{FOLLOWED})?", match.phrase)
            if construct.skipped_after and at and match.handler:
                key = f"skips {construct.framework} {match.handler} {candidate.chunk.path}"
                base = base_name(candidate.chunk)
                skips = context.table.derived(
                    key, partial(skips_of, context, construct, match.handler, candidate.chunk.path, base)
                )
                if skips:
                    said = f"{match.phrase[: at.end()]} {except_phrase(skips)}{match.phrase[at.end() :]}"
                    match = replace(match, phrase=said)
                    cited.update({s.chunk.id: Hit(s.chunk, 0.0, s.chunk.id) for s in skips})
            matches.append(match)
        out.append(replace(candidate, matches=matches))
    return out, list(cited.values())
