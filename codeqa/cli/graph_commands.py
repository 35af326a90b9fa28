"""``codeqa callers`` and ``codeqa callees``: the symbol graph around a name, each link checked in the code."""

from __future__ import annotations

from typing import Annotated

import typer

from codeqa.cli.console import out, run_or_exit, safe, settings

IndexArgument = Annotated[str, typer.Argument(help="Index name.")]
SymbolArgument = Annotated[str, typer.Argument(help="A function, method or class: 'login' or 'SessionStore.login'.")]
LimitOption = Annotated[int, typer.Option("--limit", "-n", help="Most links to list.", min=1, max=200)]


def _show(name: str, symbol: str, relation: str, limit: int) -> None:
    from codeqa.answer.context import AnswerContext
    from codeqa.answer.explanation.calls.graphqa import graph_answer
    from codeqa.index import Index

    def read():
        context = AnswerContext.from_index(Index.open(name, settings()), [], [])
        return graph_answer(relation, symbol, context, limit=limit)

    answer = run_or_exit(read)
    for chunk in answer.definitions:
        out.print(safe(f"{symbol}  defined at {chunk.location}  ({chunk.kind} {chunk.symbol})"), soft_wrap=True)
    title = "called by" if relation == "callers" else "calls"
    out.print(f"{title} ({len(answer.links)}, each checked in the code):")
    for other, use in answer.links:
        who = other.symbol or other.path
        what = f"{who}" if relation == "callers" else use.name
        out.print("  " + safe(f"{other.location}  {what}  line {use.line}: {use.text}"), soft_wrap=True)
    if not answer.links:
        out.print(f"  none{' calls it' if relation == 'callers' else ''} (no link in the symbol graph is confirmed)")
    if answer.unchecked:
        out.print(f"  ({answer.unchecked} more mention the name without a use the code confirms)")


def callers(name: IndexArgument, symbol: SymbolArgument, limit: LimitOption = 50) -> None:
    """Who calls or uses SYMBOL: each caller with the line of the call (from the symbol graph)."""
    _show(name, symbol, "callers", limit)


def callees(name: IndexArgument, symbol: SymbolArgument, limit: LimitOption = 50) -> None:
    """What SYMBOL calls or uses, defined in the same index, with the line of each call."""
    _show(name, symbol, "callees", limit)
