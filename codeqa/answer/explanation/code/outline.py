"""What a chunk says about itself: its definition line(s) and the first sentence of its docstring or comment.

Used by the extractive answer and the graph answers to name a chunk and say what its author wrote it for.
"""

from __future__ import annotations

import re

from codeqa.answer.explanation.code.jsopened import (
    opened_definition,
    opened_js,
)
from codeqa.answer.explanation.code.leading import (
    comment_before,
    comment_for,
    comment_is_its_own,
    docstring_prose,
    documents,
)
from codeqa.answer.explanation.code.wrappers import COMMENT_OR_DECORATOR, CONTAINER, wrapped_class, wrapped_module
from codeqa.records import Chunk
from codeqa.symbols import qualified_names, short_names

DEFINITION = re.compile(
    r"^\s*(?:(?:export|public|private|protected|internal|static|async|default|abstract|final|override|open|"
    r"pub(?:\([\w:]+\))?|unsafe|extern|inline)\s+)*"
    r"(?:def|class|function\*?|func|fn|interface|struct|enum|trait|impl|module|type|object|record|const|let|var)\b"
)
COMMENT = re.compile(r"^\s*(#(?!!)|//|/\*|\*|--|;;|<!--)")
FIELD_LIST = re.compile(r"\s(?=:param\b|:return|:raises?\b|:type\b|@param\b|@return|Args:|Returns:|Parameters\b)")
# a docblock's block tag (`@param`, `@return`, `@throws`, `@author`, `@extends`, `{@inheritdoc}`): a field, never the
# prose; an inline tag (`{@code POST /admin/users} : Creates a new user.`, `{@link User}`) is part of the prose
TAG = re.compile(r"(?:^|\s)(?:@[a-z][\w-]*\b|\{@inheritdoc\})", re.IGNORECASE)
# a licence notice heads a file; it says nothing about what the code is for
NOTE = re.compile(r"(?i)(?:#\s*)*(?:todo|fixme)\b")  # a note to the maintainers, not the code's purpose
# a listing a tool wrote above the code (the annotate gem's ``# == Schema Information`` over a model's columns)
GENERATED = re.compile(r"^=+\s*(?:Schema Info(?:rmation)?|Route Map)\b")
LICENCE = re.compile(
    r"(?i)^(?:copyright\b|\(c\)|©|spdx-license-identifier\b)|\blicensed under\b|\ball rights reserved\b"
)
BANNER = re.compile(r"(?:#{2,}|={3,}|-{3,}|\*{3,}|~{3,})\s*$")  # a comment framed as a section's heading
# a section's title over a group of definitions (`// Family Members methods`, `# Private helpers`, `# Class methods.`)
SECTION_TITLE = re.compile(r"(?i)^(?:[\w-]+\s+){0,3}(?:methods|functions|helpers|utilities|utils)\s*[:.]?$")
# a sentence's end: not the period of an abbreviation inside one ("returns the user's effective URL, i.e. a custom
# one …" was cut to "… URL, i.e.")
SENTENCE_END = re.compile(r"(?<=[.!?])(?<!\bi\.e\.)(?<!\be\.g\.)(?<!\bvs\.)(?<!\bcf\.)(?<!\bviz\.)\s")
LINKS_ONLY = re.compile(r"(?:(?:see:?\s+)?https?://\S+\s*)+", re.IGNORECASE)  # `// https://github.com/…/5789`
DOCSTRING_OPEN = re.compile(r'^\s*[rRuUbB]?("""|\'\'\')')
# an encoding or editor line, or an attribute (Rust's `#[derive(Debug, Error)]`, PHP's `#[Route(...)]`): no
# documentation, though a doc comment above it documents the definition below it; nor is a linter's or type
# checker's directive (Misago's `# pylint: disable=line-too-long` above its settings' docstring), nor an editor's
# folding marker (apollo's `// region Permission and access key conversions` over a group of methods)
PRAGMA = re.compile(
    r"^\s*#(?:\[.*\]\s*$|.*(?:-\*-.*-\*-|\bvim?:|\bcoding[:=]))"
    r"|^\s*(?:#|//)\s*#?(?:end)?region\b|^\s*//\s*MARK:"
    r"|^\s*(?:#|//|/\*+)\s*(?:(?:pylint|flake8|mypy|pyright|isort|fmt|type|rubocop|frozen_string_literal)\s*:|noqa\b|"
    r"eslint-(?:disable|enable)|@ts-(?:ignore|nocheck|check|expect-error)\b|prettier-ignore\b|istanbul\s+ignore\b)"
)


def short_name(symbol: str) -> str:
    """The first defined name of a chunk, short: ``SessionStore.login`` → ``login``."""
    names = short_names(symbol)
    return names[0] if names else ""


def signature(chunk: Chunk) -> str:
    """The definition line(s) of a chunk (up to 4 lines for wrapped signatures), or its first meaningful line."""
    lines = chunk.text.split("\n")
    if chunk.language in ("markdown", "rst"):
        return next((line.strip() for line in lines if line.strip().startswith("#")), lines[0].strip())
    name = short_name(chunk.symbol)
    first = next((line for line in lines if line.strip() and not COMMENT.match(line)), "")
    top = len(first) - len(first.lstrip())  # a `const` in the body of the chunk's first statement defines nothing of it
    candidates = [i for i, line in enumerate(lines[:40])
                  if DEFINITION.match(line) and len(line) - len(line.lstrip()) <= top]  # fmt: skip
    named = [i for i in candidates if len(name) > 1 and re.search(rf"\b{re.escape(name)}\b", lines[i])]
    start = (named or candidates or [None])[0]
    if start is None:
        start = next((i for i, line in enumerate(lines) if line.strip() and not COMMENT.match(line)), 0)
        return lines[start].strip()[:160]
    taken = [lines[start].rstrip()]
    for line in lines[start + 1 : start + 6]:
        joined = "\n".join(taken)
        if joined.endswith((":", "{", "=>", ";")) or joined.count("(") <= joined.count(")"):
            break
        taken.append(line.rstrip())
    return "\n".join(taken)[:400]


def _docstring_after(lines: list[str], index: int) -> str:
    body = next((line for line in lines[index:] if line.strip() and not PRAGMA.match(line)), "")
    opener = DOCSTRING_OPEN.match(body)
    if not opener:
        return ""
    quote = opener.group(1)
    text = body.split(quote, 1)[1]
    collected = [text]
    if quote not in text:
        for line in lines[lines.index(body) + 1 :]:
            collected.append(line)
            if quote in line:
                break
    return docstring_prose(collected, quote)


def summary(chunk: Chunk) -> str:
    """First sentence of the docstring or leading comment: what the author said the code is for."""
    lines = chunk.text.split("\n")
    sig = signature(chunk).split("\n")
    try:
        index = next(i for i, line in enumerate(lines) if line.rstrip() == sig[0])
    except StopIteration:
        index = 0
    if chunk.language in ("markdown", "rst"):
        text = next((line.strip() for line in lines[index + 1 :] if line.strip() and not line.startswith("#")), "")
    elif _nested_head(chunk, sig[0]):
        return ""  # a piece of `create_app`'s body: `def inject_blueprint():`'s docstring is not create_app's
    else:
        text = _docstring_after(lines, index + len(sig)) or _docstring_after(lines, 0)
        comment = comment_for(chunk.language, COMMENT)  # HAML's `#header` is an element, no comment
        if not text and comment_is_its_own(chunk, comment):
            own = documents(lines, index, comment)  # not a `var`'s comment above the function
            text = comment_before(lines, index, comment, PRAGMA) or (_leading_comment(lines, comment) if own else "")
    text = FIELD_LIST.split(" ".join(text.split()), maxsplit=1)[0].strip()
    text = TAG.split(re.sub(r"\s*\*+/\s*$", "", text), maxsplit=1)[0].strip()  # `/** @inheritdoc */`: no prose
    if LICENCE.search(text) or NOTE.match(text) or GENERATED.match(text):
        return ""  # a licence, a note to the maintainers ("TODO DRF only allows one action…"), a tool's listing
    sentence = SENTENCE_END.split(text, maxsplit=1)[0]
    if BANNER.search(sentence) or SECTION_TITLE.match(sentence) or LINKS_ONLY.fullmatch(sentence):
        return ""  # a section's banner (``### START SAML AUTHENTICATION ###``), links: not what the code below is for
    if len(sentence) <= 200:
        return sentence
    cut = sentence[:200] if sentence[200] == " " else sentence[:200].rsplit(" ", 1)[0]  # between words
    return cut.rstrip(" ,;:(\"'") + "…"  # no quote left open


def _nested_head(chunk: Chunk, head: str) -> bool:
    """Whether ``head``, the first definition line of ``chunk``, opens another definition than the one the chunk is
    named after (a piece of a function's body, past its head, holding functions nested in it)."""
    name = short_name(chunk.symbol)
    return (
        len(name) > 1
        and bool(DEFINITION.match(head))
        and not re.search(rf"(?<![\w$]){re.escape(name)}(?![\w$?!])", head)
    )


def _leading_comment(lines: list[str], comment: re.Pattern[str]) -> str:
    end = next((i for i, line in enumerate(lines) if line.strip() and not comment.match(line)), len(lines))
    return comment_before(lines, end, comment, PRAGMA)


def _declared_namespace(qualified: str, text: str) -> bool:
    """``App.Http.Middleware`` where the chunk says ``namespace App\\Http\\Middleware;`` (PHP; C#'s file-scoped
    form)."""
    parts = re.split(r"::|\.", qualified)
    pattern = r"^\s*namespace\s+\\?" + r"[\\.]".join(re.escape(part) for part in parts) + r"\s*;"
    return bool(re.search(pattern, text, re.MULTILINE))


def is_container(qualified: str) -> bool:
    """A module or class by its name (``Api``, ``A::B``), not a function (``get_users``) nor a constructor (``A.A``)."""
    return (parts := qualified.replace("::", ".").split("."))[-1][:1].isupper() and parts[-2:-1] != parts[-1:]


def display_name(chunk: Chunk) -> str:
    """How an answer names a chunk: its first qualified name (``+N`` when several were merged), else its file."""
    names = qualified_names(wrapped_class(chunk) or wrapped_module(chunk) or chunk.symbol)
    if not names:
        return opened_definition(chunk) or chunk.path.rsplit("/", 1)[-1]
    if opened := opened_js(chunk, names):  # the chunk opens `handleErrors` and holds its local `notFoundHandler`
        return f"{opened} (+{len(names)})"
    # a PHP file's `namespace App\Http\Middleware;` is where its class lives, not a definition of the chunk
    names = [name for name in names if not _declared_namespace(name, chunk.text)] or names
    # module Api / class Api.Orders: the class; but a class is named itself, not after its first method (its chunk
    # holds the class-level lines: `belongs_to`, a React component's hooks), and a function not after one nested in it
    while (
        len(names) > 1
        and names[1].startswith(names[0] + ".")
        and is_container(names[0])
        and is_container(names[1])
        and not _holds_own_lines(chunk, names[0], names[1])
    ):
        names = names[1:]
    return names[0] + (f" (+{len(names) - 1})" if len(names) > 1 else "")


def _holds_own_lines(chunk: Chunk, outer: str, inner: str) -> bool:
    """Whether the chunk holds code of ``outer``'s own between its head and the head of ``inner`` nested in it (a
    Django model's fields before its ``class Meta:``): then it is named after ``outer``, not after ``inner`` (a Ruby
    ``module Api`` that only wraps ``class Orders`` is named after the class)."""
    lines = chunk.text.split("\n")
    heads = [(n, found.group("name")) for n, line in enumerate(lines) if (found := CONTAINER.match(line))]
    outer_at = next((n for n, name in heads if name.replace("::", ".").endswith(outer.rpartition(".")[2])), None)
    inner_at = next((n for n, name in heads if name.replace("::", ".").endswith(inner.rpartition(".")[2])), None)
    if outer_at is None or inner_at is None or inner_at <= outer_at:
        return False
    quote = ""  # inside a docstring: its quotes
    for line in lines[outer_at + 1 : inner_at]:
        stripped = line.strip()
        if quote:
            quote = "" if quote in stripped else quote
            continue
        if DOCSTRING_OPEN.match(line):
            opened = stripped.lstrip("rRuUbB")[:3]
            quote = opened if stripped.count(opened) == 1 else ""  # a one-line docstring opens and closes
            continue
        if not stripped or COMMENT.match(line) or stripped in ("{", "end"):
            continue
        return True
    return False


def first_name(chunk: Chunk) -> str:
    """The name of the first definition a chunk is cited as (``display_name`` without its "(+2)")."""
    return display_name(chunk).split(" (+", 1)[0]


def continues_definition(chunk: Chunk, name: str) -> bool:
    """Whether ``chunk`` is a later piece of a definition named ``name`` (its first code line does not open it)."""
    short = re.split(r"[.#:]", name)[-1]
    first = next((line for line in chunk.text.split("\n") if line.strip() and not COMMENT_OR_DECORATOR.match(line)), "")
    return not re.search(rf"(?<![\w$.]){re.escape(short)}\s*(?:<[^>]*>)?\s*[(=:{{]|\b(?:class|module)\s", first)


def is_class_piece(chunk: Chunk) -> bool:
    """A chunk named after a class that holds its class-level lines and methods (``rescue_from …`` then
    ``def force_json_format``): it is no method."""
    names = qualified_names(chunk.symbol)
    first = display_name(chunk).split(" (+", 1)[0]
    return (
        len(names) > 1
        and names[0] == first
        and is_container(first)
        and all(name.startswith(first + ".") for name in names[1:])
    )
