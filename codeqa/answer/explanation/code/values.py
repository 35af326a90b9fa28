"""Values a source reads: where a key line uses a name (``time.Now().Add(AccessTokenDuration)``) that is set to a
literal elsewhere in the same file or in another file of the answer (``AccessTokenDuration = 15 * time.Minute``),
that line is the answer to "how long", "how many", "which file": an answer shows it beside the line that reads it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from codeqa.answer.explanation.code.keylines import KeyLine, clip
from codeqa.answer.explanation.code.saidline import cut_quote
from codeqa.answer.rendering.render import code_span
from codeqa.records import Chunk, ChunkKind

NAME = re.compile(r"(?<![\w$.])\$?([A-Za-z_][\w]*)")
LITERAL = re.compile(r"\d|\"|'|`")
MODIFIERS = r"(?:(?:export|const|let|var|final|static|public|private|protected|readonly|val|declare)\s+)*"
# an assignment's `=` (after a type: `x: int = 3`), not the `=` of `!=`, `<=`, `==` (a comparison) or of `+=`: Ruby's
# `scope :open, -> { where('id != ?', …) }` sets no `scope`
ASSIGNS = r"(?::=|(?<![!<>=+\-*/%|&^])=(?![=>~]))"
CONSTRUCTED = re.compile(r"\s*(?:new\s+)?[A-Za-z_][\w.]*\s*\(")  # an object built by a call, not a literal
CLOSING = re.compile(r"^\s*(?:[)}\]]|end\b)")
MAX_VALUES = 2  # per source
AMOUNT = re.compile(r"^\s*(?:[-\d.+*/ ()_]+|\"[^\"]*\"|'[^']*'|\d[\w.* ]*)\s*[;,]?\s*$")
COMMON = frozenset(
    "self this true false none null nil undefined return new await async const let var".split()  # noqa: SIM905
)


@dataclass(frozen=True)
class Value:
    name: str
    chunk: Chunk  # the chunk that sets it
    line: KeyLine  # the line that sets it, with its real line number


def _setter(name: str) -> re.Pattern[str]:
    return re.compile(rf"^\s*{MODIFIERS}\$?{re.escape(name)}\s*(?::[^=\n]*)?{ASSIGNS}\s*\S")


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip())


def _set_in(name: str, chunk: Chunk) -> KeyLine | None:
    """The line of ``chunk`` that sets ``name`` to a literal at the chunk's outer level (a module constant, a const
    block entry, a class attribute) — never a local variable inside a function."""
    if chunk.kind in (ChunkKind.FUNCTION, ChunkKind.METHOD, ChunkKind.TEST):
        return None
    pattern = _setter(name)
    lines = chunk.text.split("\n")
    body = [text for text in lines[1:] if text.strip() and not CLOSING.match(text)]
    outer = min((_indent(text) for text in body), default=0)
    for offset, text in enumerate(lines):
        if pattern.match(text) and (offset == 0 or _indent(text) <= outer) and not _in_function(lines, offset):
            value = text.split("=", 1)[1] if "=" in text else ""
            # Blueprint("auth", __name__) and require('passport-oauth2') are built, timedelta(days=30) is an amount
            built = CONSTRUCTED.match(value) and not re.search(r"\d", _code_only(value))
            return KeyLine(chunk.start_line + offset, clip(text)) if LITERAL.search(value) and not built else None
    return None


OPENS_FUNCTION = re.compile(r"(?:\bfunction\b[^{]*|=>\s*)\{\s*$|^\s*(?:async\s+)?def\s.*:\s*$|\bfunc\b.*\{\s*$")


def _in_function(lines: list[str], offset: int) -> bool:
    """Whether line ``offset`` sits in the body of a function the chunk opens above it (a piece of a long
    ``postsAPI.edit = async function (…) {`` is top-level code by kind, but its ``const selfPost = …`` is local)."""
    indent = _indent(lines[offset])
    for text in reversed(lines[:offset]):
        if text.strip() and _indent(text) < indent:
            if OPENS_FUNCTION.search(text):
                return True
            indent = _indent(text)
    return False


STRING = re.compile(r"\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'|`[^`\n]*`")
COMMENT = re.compile(r"(?:#|//).*$")


def _code_only(text: str) -> str:
    """The line without its string literals and trailing comment: the word `time` in a help text reads no `time`,
    but ``"within #{ENDPOINT_TIMEOUT} seconds"`` (an interpolation: Ruby, JS, an f-string) reads it."""

    def kept(literal: re.Match[str]) -> str:
        start = literal.start()
        fstring = start > 0 and text[start - 1] in "fF"
        pattern = r"[#$]?\{([^}]*)\}" if fstring else r"[#$]\{([^}]*)\}"
        return '""' + "".join(f" {part}" for part in re.findall(pattern, literal.group(0)))

    return COMMENT.sub("", STRING.sub(kept, text))


def _bound_in(name: str, text: str) -> bool:
    """Whether the reading chunk binds ``name`` itself: a loop variable (``for key, mapping in …``), a parameter (of
    a function, an arrow function or a lambda), an assignment or a declaration anywhere in it. Such a name reads
    the chunk's own value, never another file's."""
    word = re.escape(name)
    targets = r"[\w\s,()\[\]{}$]*"  # `key, mapping`, `(const [a, b]`
    return bool(
        re.search(rf"\bfor\s*\(?\s*(?:(?:const|let|var)\s+)?{targets}(?<![\w$]){word}\b{targets}\s(?:in|of)\b", text)
        or re.search(rf"^\s*{MODIFIERS}\$?{word}\s*(?::[^=\n]*)?{ASSIGNS}", text, re.MULTILINE)
        # the reader sets the value's own field (`maxDuration.value = audio.duration` for `const maxDuration = ref(0)`)
        or re.search(rf"^\s*\$?{word}(?:\.[\w$]+|\[[^\]\n]*\])+\s*(?:[-+*/]?=)(?![=>~])", text, re.MULTILINE)
        or any(
            re.search(rf"(?<![\w$.]){word}\b", re.sub(r"=\s*[^,)}\]]+", "", params))  # `days = DAYS` reads DAYS
            for params in [
                *re.findall(r"(?:\bdef|\bfunction|\bfunc|\bfn)\s*[\w$]*\s*\(([^)]*)\)", text),
                *re.findall(r"\(([^()]*)\)\s*(?::\s*[\w$<>\[\]|.,\s]+)?=>", text),  # `async (uids) =>`
                *re.findall(r"\blambda\b([^:\n]*):", text),
            ]
        )
        or re.search(rf"(?<![\w$.]){word}\s*=>", text)  # `uid => …`
        or re.search(rf"\b(?:const|let|var)\s*[{{\[][^=]*(?<![\w$]){word}\b[^=]*[}}\]]\s*=", text)
    )


IMPORT_LINE = re.compile(r"^\s*(?:from|import|use|using|include|require|alias)\b|\brequire(?:_once)?\s*\(", re.M)


def _reaches(name: str, reader: Chunk, reader_file: str, setter: Chunk, line: str) -> bool:
    """Whether a name read in ``reader``'s file can be ``setter``'s (another file's): the reading file imports it
    from that file (an import line naming both the name and the file), the line reads it through that file's
    module or class (``Webhook::ENDPOINT_TIMEOUT``, ``settings.TIMEOUT``), or Go, where a folder is one package.
    ``time.time()`` reads the module ``time``, not a ``time = "…"`` set in another file."""
    path, stem = setter.path, setter.path.rsplit("/", 1)[-1].split(".", 1)[0]
    if reader.language == "go":
        return path.rsplit("/", 1)[0] == reader.path.rsplit("/", 1)[0]
    owners = {stem, stem.replace("_", ""), "".join(part.capitalize() for part in stem.split("_"))}
    if stem == "index":  # `import { X } from './constants'` reaches constants/index.ts
        owners.add(path.rsplit("/", 2)[-2] if path.count("/") else stem)
    word = re.escape(name)
    if any(re.search(rf"(?<![\w$]){re.escape(owner)}\s*(?:\.|::|->)\s*\$?{word}\b", line, re.I) for owner in owners):
        return True
    for found in IMPORT_LINE.finditer(reader_file):
        statement = _statement(reader_file, found.start())
        if re.search(rf"(?<![\w$]){word}(?![\w$])", statement) and any(
            re.search(rf"(?<![\w$]){re.escape(owner)}(?![\w$])", statement, re.I) for owner in owners
        ):
            return True
    return False


def _statement(text: str, start: int) -> str:
    """The import statement from ``start``: its lines while one ends open (``import {``, ``A,``, ``import (``)."""
    taken: list[str] = []
    for line in text[start:].split("\n")[:20]:
        taken.append(line)
        if not re.search(r"[,({\[\\]\s*$", line):
            break
    return "\n".join(taken)


def values_read(
    lines: Sequence[KeyLine], chunk: Chunk, candidates: Iterable[Chunk], reader_file: str | None = None
) -> list[Value]:
    """Names read in ``lines`` (not set inside ``chunk`` itself) whose literal value is set in one of
    ``candidates`` (other chunks of the same file first), at most ``MAX_VALUES``; one set in another file only
    where ``reader_file`` (the reading chunk's file) reaches it (``_reaches``)."""
    others = [c for c in candidates if c.id != chunk.id]
    found: list[Value] = []
    seen: set[str] = set()
    for line in lines:
        for name in NAME.findall(_code_only(line.text)):
            if name in seen or len(name) < 3 or name.lower() in COMMON:
                continue
            seen.add(name)
            if re.search(rf"^\s*{MODIFIERS}\$?{re.escape(name)}\s*=", line.text) or _bound_in(name, chunk.text):
                continue
            keyword = re.compile(rf"((?:^|[(,])\s*){re.escape(name)}\s*=(?![=>])")  # `as_view(template_name="…")`
            if not re.search(rf"(?<![\w$.]){re.escape(name)}\b", keyword.sub(r"\1", _code_only(line.text))):
                continue
            reading = line.text  # the line that reads it
            for other in others:
                setting = _set_in(name, other)
                if setting is None or (
                    other.path != chunk.path
                    and reader_file is not None
                    and not _reaches(name, chunk, reader_file, other, reading)
                ):
                    continue
                found.append(Value(name, other, setting))
                break
            if len(found) >= MAX_VALUES:
                return found
    return found


def amount_read(values: Sequence[Value]) -> Value | None:
    """The first of ``values`` set to an amount or a name set once (not a constructor call)."""
    return next((value for value in values if AMOUNT.search(value.line.text.split("=", 1)[-1])), None)


def reading_line(value: Value, lines: Sequence[KeyLine]) -> KeyLine | None:
    """The first of ``lines`` that reads ``value``'s name (outside strings and comments)."""
    word = re.compile(rf"(?<![\w$.])\$?{re.escape(value.name)}\b")
    return next((line for line in lines if word.search(_code_only(line.text))), None)


def value_said(values: Sequence[Value], limit: int, reader: str | None = None) -> tuple[str, str] | None:
    """ "`reader` reads `X = 3` (`path:n`)." (markdown, plain) for the first value that is an amount or a name set
    once (not a constructor call), its line cut at ``limit`` characters; "It reads" without a reader; None when
    there is none."""
    value = amount_read(values)
    if value is None:
        return None
    where, flat = f"{value.chunk.path}:{value.line.line}", " ".join(value.line.text.split())
    text = flat if len(flat) <= limit else cut_quote(flat, limit)  # never half a name
    md, plain = (code_span(reader), reader) if reader else ("It", "It")
    return f"{md} reads {code_span(text)} ({code_span(where)}).", f"{plain} reads {text} ({where})."
