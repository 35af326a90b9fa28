"""Whose a chunk's leading comment or docstring is, and which of its lines are prose.

A chunk named after a function may open on other declarations above it (Go's ``// Only support songs for now`` over
``var validMediaTypes = …``, then ``func isValidMediaType``); that comment documents the declaration below it, not
the function the chunk is named after. A chunk may also start inside the body of its definition (the rest of a long
function, cut by the chunker): a comment at its top (``# Log request headers``) is a note on the statement below it,
and commented-out code (``// self.page = 2;``) is no documentation at all. A docstring's first paragraph is its
summary; reStructuredText directives (``.. http:post:: /auth/login``) and field lists (``:param app:``) are not prose.
"""

from __future__ import annotations

import re

from codeqa.records import Chunk
from codeqa.symbols import short_names

# a declaration of another name than the definition's (a variable, a constant, a type), or a file's package header
OTHER_DECLARATION = re.compile(r"^\s*(?:export\s+)?(?:var|const|let|type|package|import)\b")
OPENS = {"(": ")", "[": "]", "{": "}"}
# a reStructuredText directive or comment (``.. module: x``, ``.. sourcecode:: http``) or a field (``:param app:``)
RST_MARKUP = re.compile(
    r"^(?:\.\.\s+[\w:-]+::?(?:\s|$)|:[\w ]+:(?:\s|$)|:(?:param|type|returns?|rtype|raises?|arg|var|ivar)\b)"
)
UNDERLINE = re.compile(r"^([=~^\"'`#*+-])\1{2,}$")
# a Google- or NumPy-style section's heading (``Args:``, ``Returns:``): its entries are fields, not the summary
SECTION = re.compile(r"^(?:Args|Arguments|Parameters|Params|Returns?|Raises|Yields?|Attributes|Keyword Args):?$")
YAML_KEY = re.compile(r"^(?P<key>[A-Za-z_][\w-]*):(?:\s+(?P<value>.*))?$")  # `summary: Authenticate user`
BLOCK = ("|", ">", "|-", ">-", "|+", ">+")  # a YAML block scalar's marker: its text is on the lines below
TABLE_ROW = re.compile(r"\S\s*\|\s*\S")  # a row of a table drawn in a comment: columns split by `|`
# templates and styles where `#` opens an element's or a selector's id (HAML's `#header`, Slim's and Pug's `#main`,
# CSS's `#sidebar {`): their comments open with `-#` (HAML), `/` (HAML, Slim), `//` or `/*`, never with `#`
HASH_IS_CODE = frozenset({"haml", "slim", "pug", "css", "scss"})
MARKUP_COMMENT = re.compile(r"^\s*(-#|//|/\*|\*|<!--|/(?=[\s!]|$))")
# data files whose only comment is `#`: YAML's `---` opens a document, no SQL-style `--` comment
HASH_ONLY = frozenset({"yaml", "toml"})
HASH_COMMENT = re.compile(r"^\s*#")
# a comment line that reads as code: a statement's end, a brace, an assignment, a control line
CODE_COMMENT = re.compile(
    r"[;{]\s*$|^\}|^(?:if|else|elif|for|foreach|while|return|switch|case)\b.*[:({]\s*$"
    r"|^[\w$.\[\]'\"]+\s*[-+*/]?=\s*(?:\S+|.*[;)\]])$"  # `x = 2`, not a note (`case_sensitive=False normalizes …`)
)


def documents(lines: list[str], index: int, comment: re.Pattern[str]) -> bool:
    """Whether the comment leading ``lines`` can document the definition whose head is line ``index``: not when the
    first code line below it declares something else above that head."""
    first = next((n for n, line in enumerate(lines) if line.strip() and not comment.match(line)), len(lines))
    return first >= index or not OTHER_DECLARATION.match(lines[first])


def docstring_prose(parts: list[str], quote: str) -> str:
    """A docstring's first paragraph of prose, its markup left out (``.. http:post:: /auth/login``, then ``Login
    with username:password``; ``:param app:`` alone says nothing, nor does a section ``Args:`` above the prose).
    Below a ``---`` line, an OpenAPI operation in YAML (apispec, flasgger) says its ``description``, else its
    ``summary``; prose above that line is the docstring's own."""
    lines = "\n".join(parts).split(quote)[0].split("\n")
    yaml_at = _yaml_start(lines)
    if yaml_at is not None:
        return _prose(lines[:yaml_at]) or _operation(lines[yaml_at + 1 :])
    return _prose(lines)


def _yaml_start(lines: list[str]) -> int | None:
    """The index of a ``---`` line followed by a YAML mapping (``summary: Authenticate user``)."""
    for n, line in enumerate(lines):
        if line.strip() == "---":
            below = next((text for text in lines[n + 1 :] if text.strip()), "")
            return n if YAML_KEY.match(below.strip()) else None
    return None


def _operation(lines: list[str]) -> str:
    """An OpenAPI operation's ``description`` (inline, or the first paragraph of a ``|`` block indented below it),
    else its ``summary``."""
    base = min((len(line) - len(line.lstrip()) for line in lines if line.strip()), default=0)
    said: dict[str, list[str]] = {}
    key = ""
    for line in lines:
        indent, text = len(line) - len(line.lstrip()), line.strip()
        if not text:
            key = "" if said.get(key) else key  # a paragraph ends the block's first one
        elif indent == base:
            hit = YAML_KEY.match(text)
            key = hit.group("key") if hit else ""
            value = (hit.group("value") or "").strip() if hit else ""
            said.setdefault(key, []).extend([value] if value and value not in BLOCK else [])
        elif key:
            said.setdefault(key, []).append(text)
    return " ".join(said.get("description") or said.get("summary") or [])


def _prose(lines: list[str]) -> str:
    kept: list[str] = []
    fields = False  # inside a section of fields (``Args:`` then ``sid: Server ID``), up to a blank line
    for line in lines:
        text = line.strip()
        if not kept and (fields or SECTION.match(text)):
            fields = bool(text)
            continue
        if UNDERLINE.match(text):  # the line above was a title (``Settings`` over ``========``): not the summary
            kept = []
            continue
        if not text and kept and kept[-1].endswith(":"):  # a paragraph that introduces a list goes on
            continue
        if not text or RST_MARKUP.match(text):
            if kept:
                break
            continue
        kept.append(text)
    return " ".join(kept)


def first_paragraph(parts: list[str]) -> str:
    """A comment's first paragraph, its lines ``parts`` joined (``Notification for approval``, not the note on when
    it runs below a blank comment line), as a docstring's summary is."""
    start = next((n for n, part in enumerate(parts) if part), len(parts))
    end = next((n for n in range(start, len(parts)) if not parts[n]), len(parts))
    if end - start >= 2 and sum(bool(TABLE_ROW.search(part)) for part in parts[start:end]) * 2 >= end - start:
        return ""  # a table (RuoYi's `anyRequest | 匹配所有请求路径` rows) joined into one line reads as nonsense
    return " ".join(parts[start:end])


def comment_for(language: str, comment: re.Pattern[str]) -> re.Pattern[str]:
    """The comment pattern for code in ``language``: ``comment`` unless `#` is code there (``HASH_IS_CODE``) or the
    only comment (``HASH_ONLY``)."""
    if language in HASH_ONLY:
        return HASH_COMMENT
    return MARKUP_COMMENT if language in HASH_IS_CODE else comment


def comment_before(lines: list[str], index: int, comment: re.Pattern[str], pragma: re.Pattern[str]) -> str:
    """The prose of the comment right above line ``index``: its first paragraph, markers and pragmas left out."""
    comments: list[str] = []
    for line in reversed(lines[:index]):
        if not comment.match(line):
            break
        if not pragma.match(line):
            comments.insert(0, re.sub(r"^\s*(?:(?:-#|#+|//+|/\*+|\*+/?|--|;;|<!--|/!?(?=\s))\s?)+", "", line).strip())
    if commented_code("\n".join(comments)):
        return ""
    return first_paragraph([part for part in comments if part != "/"])


def commented_code(text: str) -> bool:
    """Whether every line of a comment's ``text`` reads as code (a block commented out, not a note)."""
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    return bool(lines) and all(CODE_COMMENT.search(line) for line in lines)


def _one_line(code: str) -> bool:
    """Whether ``code`` is a whole statement on its line: its brackets closed and nothing to go on below."""
    depth = 0
    for char in code:
        depth += (char in OPENS) - (char in OPENS.values())
    return depth <= 0 and not re.search(r"(?:[,\\+\-*/=&|:({\[]|=>|\bdo)\s*$", code.rstrip())


def _holds_head(chunk: Chunk, code: list[str]) -> bool:
    """Whether a chunk named after a definition holds that definition's head (``def after_request(``,
    ``public function handle(``, ``const check = (``), not only the rest of its body."""
    names = [name for name in short_names(chunk.symbol) if len(name) > 1]
    if not names:
        return True
    name = "|".join(re.escape(name) for name in names)  # any of them: `RedisUtils, RedisUtils.get` holds `get(`
    keyword = r"\b(?:def|class|module|function|func|fn|sub|interface|trait|struct|enum|type|object|record)\s+"
    qualifier = r"(?:self\.|[\w$]+(?:::|\.))*"  # `def self.call`, `class Random::CachedIdQuery`
    # (``::Role::PermissionsAttributeCoder`` names a constant in it, not its head ``Role:``)
    opens = r"(?:[(={]|:(?!:))"
    head = re.compile(rf"(?<![\w$.])(?:{name})\s*(?:<[^(]*>\s*)?{opens}|{keyword}{qualifier}(?:{name})(?![\w$])")
    return any(head.search(line) for line in code)


def comment_is_its_own(chunk: Chunk, comment: re.Pattern[str]) -> bool:
    """Whether a comment leading ``chunk`` can be its documentation. Not in a chunk that starts inside its
    definition's body (the definition's head is above the chunk). Nor in a chunk of a file's top-level lines from the
    middle of the file (``# Translators: User story point value (value = 1)`` over ``_("1")``, then forty more
    lines) holding many statements: a comment over one of them, a one-line statement, is that line's note only. Nor
    over one clause of an Elixir function a later clause of which has a comment of its own (``# Handles team user
    sign in`` over the first ``defp handle_sign_in(``, ``# Handles individual sign in`` over the second). At the
    file's top, a comment on the line above the first statement is that statement's when more comments, each over its
    own statements, follow (cachet's ``app.js``: ``/** Polyfill promises. */`` over ``const Promise =
    require('promise')``, then ``/** First we will load all of this project's JavaScript dependencies… */``)."""
    lines = chunk.text.split("\n")
    code = [i for i, line in enumerate(lines) if line.strip() and not comment.match(line)]
    if chunk.symbol and chunk.start_line > 1 and not _holds_head(chunk, [lines[i] for i in code]):
        return False
    if chunk.language == "elixir" and code and _clause_commented(lines, code[0], comment):
        return False
    if str(chunk.kind) != "module":
        return True
    top = chunk.start_line <= 1
    if top and not (code and code[0] > 0 and comment.match(lines[code[0] - 1])):
        return True  # the file's opening comment, set apart by a blank line: the file's
    if len(code) < 2:
        return True
    goes_on = re.match(r"\s*(?:[.?:+\-*/%|&]|and\b|or\b)", lines[code[1]])  # `  .isDocumentDatabase` continues it
    if not top and _one_line(lines[code[0]]) and not goes_on:
        return False
    depth = _indent(lines[code[0]])
    return not any(
        comment.match(lines[i]) and _indent(lines[i]) == depth and i > code[0] and any(j > i for j in code)
        for i in range(len(lines))
    )


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


ELIXIR_CLAUSE = re.compile(r"^\s*(?:defp?|defmacrop?)\s+(?P<name>\w+[?!]?)")


def _clause_commented(lines: list[str], head: int, comment: re.Pattern[str]) -> bool:
    """Whether a later clause of the function whose head is ``lines[head]`` has a comment right above it."""
    found = ELIXIR_CLAUSE.match(lines[head])
    if found is None:
        return False
    same = re.compile(rf"^\s*(?:defp?|defmacrop?)\s+{re.escape(found.group('name'))}(?![\w?!])")
    return any(same.match(lines[n]) and comment.match(lines[n - 1]) for n in range(head + 1, len(lines)))
