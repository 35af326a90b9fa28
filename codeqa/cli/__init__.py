"""The ``codeqa`` command: the same library the app uses, for terminals and scripts.

Every user error becomes one line on stderr and a non-zero exit code; never a traceback (``console.run_or_exit``).
"""

from __future__ import annotations

import typer

from codeqa.cli.console import fit_output
from codeqa.cli.eval_command import evaluate
from codeqa.cli.graph_commands import callees, callers
from codeqa.cli.index_commands import index, list_indexes, prepare, remove, repair, update, version
from codeqa.cli.query_commands import ask, models, search
from codeqa.cli.service_commands import api, mcp, serve

app = typer.Typer(
    help="codeqa: index a codebase locally, then search and ask it questions.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    callback=fit_output,
)
app.command()(index)
app.command()(update)
app.command("list")(list_indexes)
app.command()(remove)
app.command()(repair)
app.command()(search)
app.command()(ask)
app.command()(callers)
app.command()(callees)
app.command()(models)
app.command("eval")(evaluate)
app.command()(serve)
app.command()(mcp)
app.command()(api)
app.command()(prepare)
app.command()(version)


def main() -> None:
    app()
