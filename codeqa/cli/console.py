"""The CLI's one edge: where library errors become a one-line message and an exit code, and where output goes.

Everything a command prints that came from a repository (answers, paths, symbols, sources, error messages) goes
through ``terminal_text`` first: escape sequences and control characters in a docstring or a file name must not
set the clipboard, retitle the window, erase lines or fake other output on the user's terminal.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from codeqa.config import Settings, get_settings
from codeqa.errors import CodeqaError

out = Console(highlight=False)
err = Console(stderr=True, highlight=False)
T = TypeVar("T")
PIPED_WIDTH = 10_000  # wide enough that no table cell or line of a piped command is ever wrapped

_SEQUENCE = re.compile(  # ESC sequences (CSI, OSC, DCS/SOS/PM/APC, two-byte) and their 8-bit C1 forms
    r"\x1b(?:\[[0-?]*[ -/]*[@-~]?|\][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?|[PX^_][^\x1b\x9c]*(?:\x1b\\|\x9c)?|[ -~])?"
    r"|\x9b[0-?]*[ -/]*[@-~]?|[\x9d\x90\x98\x9e\x9f][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")  # keeps \t and \n
_COMPLETE = re.compile(
    r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)|[PX^_][^\x1b\x9c]*\x1b\\|[ -Z\\-~])"
)


def terminal_text(text: str, *, single_line: bool = False) -> str:
    """``text`` with every escape sequence and control character removed (tabs and newlines kept unless one line)."""
    text = _CONTROL.sub("", _SEQUENCE.sub("", str(text)))
    return re.sub(r"[\t\n]", " ", text) if single_line else text


def safe(text: str, *, single_line: bool = True) -> str:
    """Repository-derived text for a rich ``print``: controls removed, markup brackets shown literally."""
    return escape(terminal_text(text, single_line=single_line))


class TerminalFilter:
    """``terminal_text`` for a stream: a sequence split across pieces is held back until it is complete."""

    def __init__(self) -> None:
        self._pending = ""

    def feed(self, piece: str) -> str:
        text = self._pending + piece
        cut = text.rfind("\x1b")
        if cut != -1 and len(text) - cut < 4096 and not _COMPLETE.match(text, cut):
            text, self._pending = text[:cut], text[cut:]
        else:
            self._pending = ""
        return terminal_text(text)

    def close(self) -> str:
        rest, self._pending = self._pending, ""
        return terminal_text(rest)


def fit_output() -> None:
    """Piped stdout is never hard-wrapped (rich wraps at 80 columns): a path split over two lines cannot be grepped,
    clicked or pasted. Called as each command starts, when stdout is what the command will write to."""
    if not out.is_terminal:
        out.soft_wrap = True
        out.width = PIPED_WIDTH


def run_or_exit(action: Callable[[], T]) -> T:
    """Translate library errors into a one-line message and an exit code (the CLI's only edge)."""
    try:
        return action()
    except CodeqaError as exc:
        err.print(f"[bold red]error:[/] {safe(str(exc))}", soft_wrap=True)  # one line, brackets literal
        raise typer.Exit(exc.exit_code) from None
    except KeyboardInterrupt:
        err.print("[yellow]Cancelled.[/] Any previous index is unchanged.")
        raise typer.Exit(130) from None


def settings() -> Settings:
    return get_settings()
