"""Which definition of a chunk its quoted lines are said of (``quoted_name``, ``lines_holder``); which one a relation
is said of is ``callplace``'s.
"""

from __future__ import annotations

import re

from codeqa.answer.explanation.calls.callplace import as_module, others, placed, several
from codeqa.answer.explanation.calls.claims import _module_level
from codeqa.answer.explanation.code.jsopened import JS_LANGUAGES
from codeqa.answer.explanation.code.linenames import holder_at
from codeqa.answer.explanation.code.outline import continues_definition, display_name
from codeqa.answer.explanation.explain import Step
from codeqa.records import Chunk
from codeqa.symbols import qualified_names, short_name


def quoted_name(step: Step) -> str:
    """The name its quoted lines are given: the chunk's, unless every one lies outside the chunk's definitions (a
    blueprint's module-level ``_bp.add_url_rule(…)`` lines above ``def _add_user_id``), or some do in a chunk
    said as the file's code (``as_module``): then its file's; or every one lies in the same other definition of a chunk
    of several: then that definition's."""
    chunk = step.chunk
    shorts = [re.escape(short_name(q)) for q in qualified_names(chunk.symbol) if short_name(q)]
    if not step.lines or not shorts:
        return display_name(chunk)
    naming = re.compile(rf"(?<![\w$])(?:{'|'.join(shorts)})(?![\w$?!])")
    lines = chunk.text.split("\n")

    def outside(number: int) -> bool:  # module-level, in a top-level statement that names none of its definitions
        offset = number - chunk.start_line
        if not 0 <= offset < len(lines) or not _module_level(chunk, number):
            return False
        head = next((text for text in reversed(lines[: offset + 1]) if text.strip() and not text[:1].isspace()), "")
        return not naming.search(head)  # a Go `type rssImage struct {` holds its own fields

    if all(outside(line.line) for line in step.lines):
        return chunk.path.rsplit("/", 1)[-1]
    if as_module(chunk) is not None and any(outside(line.line) for line in step.lines):
        return chunk.path.rsplit("/", 1)[-1]  # mostly the module's statements: the file's code, as its sentence says
    return lines_holder(step) or display_name(chunk)


def lines_holder(step: Step) -> str:
    """The definition its shown lines all lie in, when the chunk holds several and that is not the one it is named
    after (``extend_url_map (+1)`` shown on lines of ``add_handlers``), or the file, when they all lie in its
    anonymous export (``in_anonymous_export``); else ""."""
    chunk = step.chunk
    if anonymous := in_anonymous_export(step):
        return anonymous
    if not step.lines or not (several(chunk) or others(chunk)):
        return ""
    holders = {placed(chunk, line.line) for line in step.lines}
    holder = holders.pop() if len(holders) == 1 else ""
    first = display_name(chunk).split(" (+", 1)[0]
    other = short_name(holder) != short_name(first) or ("." in holder and holder != first)  # or a namesake's
    return holder if holder and other else ""


def same_definition(chunk: Chunk, name: str) -> bool:
    """Whether ``chunk``, cited as ``name``, is part of a definition cited once already under that name: a later
    piece of it, or the constructor of class ``name`` (``new MapOAuth2AuthenticationFilter(…)`` is one call, not
    "calls ``MapOAuth2AuthenticationFilter`` (…:23-47) and ``MapOAuth2AuthenticationFilter`` (…:49-61)")."""
    constructor = any(q.replace("::", ".").endswith(f"{name}.{name}") for q in qualified_names(chunk.symbol))
    return constructor or continues_definition(chunk, name)


# a JavaScript function with no name, exported as the file's own: `export default function (props) {`,
# `export default async (req, res) => {`, `module.exports = function (app) {`
ANONYMOUS_EXPORT = re.compile(
    r"^(?:export\s+default|module\.exports\s*=)\s*(?:async\s+)?(?:function\s*\*?\s*\(|\([^)]*\)\s*=>|\w+\s*=>)"
)


def in_anonymous_export(step: Step) -> str:
    """The file's name when every shown line of a JavaScript chunk lies in the file's anonymous export, which the
    chunk is not named after (Misago's poll options: ``export default function (props) {`` above a named
    ``isVisible``, which only returns a flag); else "". Named after ``isVisible``, the lines would be said of it."""
    chunk = step.chunk
    if chunk.language not in JS_LANGUAGES or not step.lines:
        return ""
    lines = chunk.text.split("\n")
    for line in step.lines:
        offset = line.line - chunk.start_line
        if not 0 <= offset < len(lines) or holder_at(chunk, line.line) is not None:
            return ""
        head = next((text for text in reversed(lines[: offset + 1]) if text.strip() and not text[:1].isspace()), "")
        if not ANONYMOUS_EXPORT.match(head):
            return ""
    return chunk.path.rsplit("/", 1)[-1]
