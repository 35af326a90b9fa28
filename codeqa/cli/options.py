"""Command-line options shared by `codeqa search` and `codeqa ask`: the scope filters."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from codeqa.retrieve import Filters

LayerOption = Annotated[list[str] | None, typer.Option("--layer", help="Only this layer (repeatable).")]
KindOption = Annotated[list[str] | None, typer.Option("--kind", help="Only this kind (repeatable).")]
LanguageOption = Annotated[list[str] | None, typer.Option("--language", help="Only this language (repeatable).")]
PathOption = Annotated[list[str] | None, typer.Option("--path", help="Only under this directory or file (repeatable).")]
GlobOption = Annotated[list[str] | None, typer.Option("--glob", help="Only paths matching this glob, e.g. 'src/*.py'.")]


def make_filters(
    layer: list[str] | None,
    kind: list[str] | None,
    language: list[str] | None,
    path: list[str] | None,
    glob: list[str] | None,
) -> Filters:
    from codeqa.cli.console import run_or_exit
    from codeqa.retrieve import Filters

    return run_or_exit(  # too many or too long filters: one line, not a traceback
        lambda: Filters(
            layers=tuple(layer or ()),
            kinds=tuple(kind or ()),
            languages=tuple(language or ()),
            paths=tuple(path or ()),
            globs=tuple(glob or ()),
        )
    )
