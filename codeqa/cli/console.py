"""The CLI's one edge: where library errors become a one-line message and an exit code, and where output goes."""

from __future__ import annotations

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


def run_or_exit(action: Callable[[], T]) -> T:
    """Translate library errors into a one-line message and an exit code (the CLI's only edge)."""
    try:
        return action()
    except CodeqaError as exc:
        err.print(f"[bold red]error:[/] {escape(str(exc))}", soft_wrap=True)  # one line, brackets literal
        raise typer.Exit(exc.exit_code) from None
    except KeyboardInterrupt:
        err.print("[yellow]Cancelled.[/] Any previous index is unchanged.")
        raise typer.Exit(130) from None


def settings() -> Settings:
    return get_settings()
