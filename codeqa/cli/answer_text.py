"""How ``codeqa ask`` writes a streamed Markdown answer: rendered on a terminal, plain text when piped, or as is.

On a terminal each Markdown block (a paragraph, a list, a code fence) is rendered with rich as soon as it is
complete, so the answer still appears while it is generated and nothing is redrawn. Piped, the answer is plain
text line by line: no ``**``, no heading marks, no fence lines (code is indented instead), never wrapped, so a
``path:start-end`` stays on one line for grep and editors. ``--markdown`` keeps the model's Markdown untouched.
"""

from __future__ import annotations

import re
from typing import Protocol

from rich.console import Console
from rich.markdown import Markdown

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_STRONG = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
_CODE_SPAN = re.compile(r"(?<![`\\])(`+)(?!`)(.+?)(?<!`)\1(?!`)")  # any fence: ``a `b` c``; not an escaped \`
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")  # Markdown's backslash escapes (DATABASE\_URL)
_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")


class AnswerWriter(Protocol):
    def feed(self, text: str) -> None: ...
    def close(self) -> None: ...


class _Lines:
    """Complete lines out of streamed pieces, and whether each is inside a fenced code block."""

    def __init__(self) -> None:
        self._pending = ""
        self._fence = ""  # the opening marker while inside a fence

    def feed(self, text: str) -> list[tuple[str, bool, bool]]:
        """(line, is a fence line, inside a fence) for each line ``text`` completes."""
        self._pending += text
        *lines, self._pending = self._pending.split("\n")
        return [self._classify(line) for line in lines]

    def close(self) -> list[tuple[str, bool, bool]]:
        rest, self._pending = self._pending, ""
        return [self._classify(rest)] if rest else []

    def _classify(self, line: str) -> tuple[str, bool, bool]:
        marker = _FENCE.match(line)
        if marker and not self._fence:
            self._fence = marker.group(1)
            return line, True, True
        if marker and self._closes(marker.group(1), line):
            self._fence = ""
            return line, True, True
        return line, False, bool(self._fence)

    def _closes(self, marker: str, line: str) -> bool:
        """A closing fence: the opening's character, at least as long, nothing after it."""
        opening = self._fence
        return bool(opening) and marker[0] == opening[0] and len(marker) >= len(opening) and not line.strip(" `~")


def plain_line(line: str) -> str:
    """One Markdown line outside code as plain text: strong emphasis, code spans, heading marks and backslash
    escapes removed (what is inside a code span is kept as written)."""
    heading = _HEADING.match(line)
    if heading:
        line = heading.group(1)
    line, said, at = _STRONG.sub(r"\1", line), [], 0
    for span in _CODE_SPAN.finditer(line):
        inside = span.group(2)
        if len(inside) > 2 and inside.startswith(" ") and inside.endswith(" "):
            inside = inside[1:-1]  # the spaces that let a span begin or end with a backtick
        said += [_ESCAPE.sub(r"\1", line[at : span.start()]), inside]
        at = span.end()
    return "".join([*said, _ESCAPE.sub(r"\1", line[at:])])


class PlainWriter:
    """Piped: plain text, each line written as soon as it is complete."""

    def __init__(self, console: Console) -> None:
        self._console, self._lines = console, _Lines()

    def _write(self, lines: list[tuple[str, bool, bool]]) -> None:
        for line, fence, inside in lines:
            if not fence:
                self._console.file.write(("    " + line if line and inside else plain_line(line)) + "\n")
        self._console.file.flush()

    def feed(self, text: str) -> None:
        self._write(self._lines.feed(text))

    def close(self) -> None:
        self._write(self._lines.close())


class MarkdownWriter:
    """On a terminal: each complete block (ended by a blank line outside a fence) rendered with rich's Markdown."""

    def __init__(self, console: Console) -> None:
        self._console, self._lines, self._block, self._shown = console, _Lines(), list[str](), 0

    def _take(self, lines: list[tuple[str, bool, bool]]) -> None:
        for line, fence, inside in lines:
            if not line.strip() and not inside and not fence:
                self._flush()
            else:
                self._block.append(line)

    def _flush(self) -> None:
        if not self._block:
            return
        if self._shown:
            self._console.print()
        # no hyperlinks: a link would be an OSC 8 sequence carrying whatever URL the answer quoted
        self._console.print(Markdown("\n".join(self._block), hyperlinks=False))
        self._block, self._shown = [], self._shown + 1

    def feed(self, text: str) -> None:
        self._take(self._lines.feed(text))

    def close(self) -> None:
        self._take(self._lines.close())
        self._flush()


class RawWriter:
    """``--markdown``: the answer's text as the model wrote it."""

    def __init__(self, console: Console) -> None:
        self._console = console

    def feed(self, text: str) -> None:
        self._console.file.write(text)
        self._console.file.flush()

    def close(self) -> None:
        self._console.file.write("\n")


def answer_writer(console: Console, *, markdown: bool = False) -> AnswerWriter:
    if markdown:
        return RawWriter(console)
    return MarkdownWriter(console) if console.is_terminal else PlainWriter(console)
