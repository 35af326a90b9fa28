"""Which requests a Spring servlet filter sees, read from the bean that registers it (#35, scope).

A class that ``implements Filter`` (or extends ``OncePerRequestFilter``) was said to run "on every request": the
class cannot say where it runs. Spring Boot runs a filter bean on every request, unless a ``FilterRegistrationBean``
registers it for some paths: apollo's ``PortalUserSessionFilter`` is registered with
``filter.setFilter(new PortalUserSessionFilter(environment)); filter.addUrlPatterns("/openapi/*");``, and runs on the
requests under ``/openapi/*`` only. Where one such registration is found, its paths are said, cited; otherwise the
phrase is kept (no guess).
"""

from __future__ import annotations

import re
from dataclasses import replace

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.constructs.mechanism import Match
from codeqa.answer.rendering.render import code_span

JAVA = frozenset({"java", "kotlin"})
CLASS = re.compile(r"\bclass\s+(?P<name>\w+)")
# the filter handed to a registration: made in place (`setFilter(new X(…))`, `new FilterRegistrationBean<>(new X(…))`)
# or a bean of the class passed in (`setFilter(xFilter)`)
REGISTERS = (
    r"\bsetFilter\(\s*new\s+{name}\s*\(|\bnew\s+FilterRegistrationBean\s*(?:<[^>]*>)?\(\s*new\s+{name}\s*\("
    r"|\bsetFilter\(\s*{variable}\s*\)"
)
PATTERNS = re.compile(r"\.(?:addUrlPatterns|setUrlPatterns)\((?P<args>[^;]*)\)")
LITERAL = re.compile(r"\"(?P<path>/[^\"]*)\"")
ROWS_READ = 40  # chunks naming the filter read for its registration
SHOWN = 3  # paths said; more are "…"
EVERY_PATH = frozenset({"/*", "/**"})


def registered_paths(context: AnswerContext, match: Match) -> Match:
    """``match`` (a Java filter class said to run on every request) said of the paths its registration gives it."""
    if match.chunk.language not in JAVA or "every request" not in match.phrase:
        return match
    head = CLASS.search(match.chunk.text)
    if head is None:
        return match
    name = head.group("name")
    variable = name[:1].lower() + name[1:]
    registers = re.compile(REGISTERS.format(name=re.escape(name), variable=re.escape(variable)))
    rows = [row for row in context.rows_mentioning(name)[:ROWS_READ] if context.table.languages[row] in JAVA]
    found: list[tuple[list[str], str]] = []
    for chunk in context.chunks(rows):
        lines = chunk.text.split("\n")
        at = next((n for n, line in enumerate(lines) if registers.search(line)), None)
        if at is None or chunk.path == match.chunk.path:
            continue
        paths = [hit.group("path") for line in _body(lines, at) for pattern in PATTERNS.finditer(line)
                 for hit in LITERAL.finditer(pattern.group("args"))]  # fmt: skip
        found.append((paths, f"{chunk.path}:{chunk.start_line + at}"))
    if len(found) != 1 or not found[0][0] or set(found[0][0]) <= EVERY_PATH:
        return match  # registered for every path, or in several places, or not found: the class's phrase stands
    paths, where = found[0]
    said = ", ".join(code_span(path) for path in dict.fromkeys(paths[:SHOWN])) + (", …" if len(paths) > SHOWN else "")
    phrase = match.phrase.replace("every request", f"the requests under {said}", 1)
    return replace(match, phrase=f"{phrase}, registered at {code_span(where)}", narrowed=True)


def _body(lines: list[str], at: int) -> list[str]:
    """The lines of the method body holding line ``at``: those around it as deep as it or deeper (a blank line goes on);
    another bean's registration beside it is not this filter's."""
    depth = len(lines[at]) - len(lines[at].lstrip())

    def inside(line: str) -> bool:
        return not line.strip() or len(line) - len(line.lstrip()) >= depth

    first = at
    while first > 0 and inside(lines[first - 1]):
        first -= 1
    last = at
    while last + 1 < len(lines) and inside(lines[last + 1]):
        last += 1
    return lines[first : last + 1]
