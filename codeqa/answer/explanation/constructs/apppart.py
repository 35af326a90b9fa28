"""One app among several: a construct said of "every controller" or "every request" holds for its own app only.

A repository can hold several deployable apps side by side (a Maven or Gradle build of services, each with its own
build file and its own ``@SpringBootApplication``). piggymetrics' ``account-service/…/ErrorHandler.java``
(``@ControllerAdvice``) was said to handle "exceptions for every controller", and "where errors go" sent every
error to it, when the statistics, notification and auth services' controllers never reach it. Where the index holds
two or more parts (folders with a build file) that each start an app (the framework's ``entry`` construct), a
construct in one of them is said of that app's controllers or requests: "for every controller of the
`account-service` app".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import PurePosixPath

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.constructs.candidate import Candidate
from codeqa.answer.explanation.constructs.mechanism import Match, frameworks
from codeqa.frameworks.conventions import Convention

# the build files that make a folder a part of its own (a module, a service, a package)
MANIFESTS = frozenset({"pom.xml", "build.gradle", "build.gradle.kts", "package.json", "Gemfile", "go.mod",
                       "pyproject.toml", "setup.py", "composer.json", "mix.exs", "Cargo.toml"})  # fmt: skip
EVERY = re.compile(r"\b(?:every controller|every request|each request|every route)\b(?!'s)")
# "every request's middleware chain": the app is said after what the requests own
OWNED = re.compile(r"\bevery (?:controller|request|route)'s [\w ]+?(?= \(|[,;.]|$)")
ROWS_READ = 120  # chunks read per word of an entry construct
GROUP = re.compile(r"\(\?P<\w+>|\\[A-Za-z]")  # a named group's head, an escape (`\b`, `\s`): no identifier
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]{4,}")


def parts(paths: Sequence[str]) -> list[str]:
    """The folders (not the repository's root) holding a build file, deepest first."""
    found = {str(PurePosixPath(path).parent) for path in paths if PurePosixPath(path).name in MANIFESTS}
    return sorted((f for f in found if f not in ("", ".")), key=lambda f: (-f.count("/"), f))


def part_of(path: str, held: Sequence[str]) -> str | None:
    """The deepest of ``held`` (deepest first) that ``path`` is in."""
    return next((part for part in held if path.startswith(part + "/")), None)


def app_parts(context: AnswerContext, convention: Convention) -> frozenset[str]:
    """The parts that start an app of ``convention`` (a line of its ``entry`` construct in their code); empty when
    the index has fewer than two parts (cached per index and framework)."""

    def make() -> frozenset[str]:
        held = parts(context.table.paths)
        entries = [c for c in convention.constructs if c.kind == "entry"]
        if len(held) < 2 or not entries:
            return frozenset()
        words = dict.fromkeys(w for c in entries for w in WORD.findall(GROUP.sub(" ", c.pattern.pattern)))
        languages = convention.languages
        rows = [row for word in words for row in context.rows_mentioning(word)[:ROWS_READ]
                if not languages or context.table.languages[row] in languages]  # fmt: skip
        found: set[str] = set()
        for chunk in context.chunks(list(dict.fromkeys(rows))):
            part = part_of(chunk.path, held)
            if part and any(c.pattern.search(line) for c in entries for line in chunk.text.split("\n")):
                found.add(part)
        return frozenset(found)

    return context.table.derived(f"app parts {convention.name}", make)


def said_of_app(match: Match, apps: frozenset[str]) -> Match:
    """``match`` with its "every controller"/"every request" said of its own app, when it sits in one of ``apps``
    and there are others."""
    part = part_of(match.chunk.path, sorted(apps, key=lambda f: (-f.count("/"), f)))
    if len(apps) < 2 or part is None or not (EVERY.search(match.phrase) or OWNED.search(match.phrase)):
        return match
    if EVERY.search(match.phrase):
        return replace(match, phrase=EVERY.sub(lambda every: f"{every.group(0)} of the `{part}` app", match.phrase, 1))
    return replace(match, phrase=OWNED.sub(lambda every: f"{every.group(0)} in the `{part}` app", match.phrase, 1))


def own_app(context: AnswerContext, found: Sequence[Candidate]) -> list[Candidate]:
    """``found`` with each construct said of every controller or request narrowed to its own app, in an index of
    several apps."""
    by_name = {convention.name: convention for convention in frameworks(context)}
    out: list[Candidate] = []
    for candidate in found:
        matches = []
        for match in candidate.matches:
            convention = by_name.get(match.construct.framework)
            if convention is not None and (EVERY.search(match.phrase) or OWNED.search(match.phrase)):
                match = said_of_app(match, app_parts(context, convention))
            matches.append(match)
        out.append(replace(candidate, matches=matches))
    return out
