"""The ``codeqa`` command: the same library the app uses, for terminals and scripts.

Every user error becomes one line on stderr and a non-zero exit code; never a traceback.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeElapsedColumn
from rich.table import Table

from codeqa import __version__
from codeqa.cli_options import GlobOption, KindOption, LanguageOption, LayerOption, PathOption, make_filters
from codeqa.config import Settings, get_settings
from codeqa.errors import CodeqaError

app = typer.Typer(
    help="codeqa: index a codebase locally, then search and ask it questions.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console(highlight=False)
err = Console(stderr=True, highlight=False)
T = TypeVar("T")


def _run(action: Callable[[], T]) -> T:
    """Translate library errors into a one-line message and an exit code (the CLI's only edge)."""
    try:
        return action()
    except CodeqaError as exc:
        err.print(f"[bold red]error:[/] {escape(str(exc))}", soft_wrap=True)  # one line, brackets literal
        raise typer.Exit(exc.exit_code) from None
    except KeyboardInterrupt:
        err.print("[yellow]Cancelled.[/] Any previous index is unchanged.")
        raise typer.Exit(130) from None


def _settings() -> Settings:
    return get_settings()


@app.command()
def index(
    source: Annotated[str, typer.Argument(help="GitHub URL, owner/repo, any https git URL, or a local path.")],
    ref: Annotated[str | None, typer.Option(help="Branch, tag or commit to index.")] = None,
    name: Annotated[str | None, typer.Option(help="Index name (default: derived from the source).")] = None,
    token: Annotated[
        str | None, typer.Option(help="Access token for a private repository (or set CODEQA_GITHUB_TOKEN).")
    ] = None,
) -> None:
    """Clone (if remote), scan, chunk, embed and store a repository."""
    from codeqa.index import STAGES, ProgressEvent, build_index

    settings = _settings()
    with Progress(
        TextColumn("{task.description:>6}"),
        BarColumn(),
        TextColumn("{task.fields[note]}"),
        TimeElapsedColumn(),
        console=err,
        transient=not err.is_terminal,
    ) as bar:
        tasks: dict[str, TaskID] = {}

        def on_progress(event: ProgressEvent) -> None:
            if event.stage not in STAGES:
                return
            if event.stage not in tasks:
                tasks[event.stage] = bar.add_task(event.stage, total=1.0, note="")
            completed = event.fraction if event.fraction is not None else None
            bar.update(tasks[event.stage], note=escape(event.message[:70]), completed=completed)

        report = _run(lambda: build_index(source, settings, name=name, ref=ref, token=token, progress=on_progress))
        for task in tasks.values():
            bar.update(task, completed=1.0)
    _print_report(report)


def _print_report(report: Any) -> None:
    manifest = report.manifest
    out.print(
        f"[bold green]Indexed[/] {manifest.name}  ({escape(manifest.source)}"
        + (f" @ {manifest.sha[:12]}" if manifest.sha else "")
        + ")"
    )
    languages = ", ".join(f"{lang} {count}" for lang, count in list(report.languages.items())[:8])
    out.print(
        f"  files {report.files}   lines {report.lines}   chunks {report.chunks}   newly embedded {report.embedded}"
    )
    out.print(f"  languages: {languages}")
    skipped = ", ".join(f"{reason} {count}" for reason, count in report.skipped.items()) or "none"
    out.print(f"  skipped: {skipped}")
    timings = "  ".join(f"{stage} {seconds:.1f}s" for stage, seconds in report.timings.items())
    out.print(f"  time: {timings}  (total {sum(report.timings.values()):.1f}s)")


@app.command("list")
def list_indexes() -> None:
    """List indexed repositories."""
    from codeqa.store import Store

    manifests = _run(lambda: Store(_settings()).list_manifests())
    if not manifests:
        out.print("No indexes yet. Create one with: codeqa index <github-url-or-path>")
        return
    table = Table(expand=False)
    for column in ("name", "commit", "files", "chunks", "indexed"):
        table.add_column(column, no_wrap=True)
    table.add_column("languages")
    table.add_column("source", overflow="fold")
    for m in manifests:
        import datetime as dt

        when = dt.datetime.fromtimestamp(m.created_at).strftime("%Y-%m-%d %H:%M")
        table.add_row(
            m.name,
            (m.sha or "-")[:12],
            str(m.counts.get("files", 0)),
            str(m.counts.get("chunks", 0)),
            when,
            ", ".join(list(m.languages)[:3]),
            escape(m.source),
        )
    out.print(table)


@app.command()
def remove(
    name: Annotated[str, typer.Argument(help="Index name, as shown by `codeqa list`.")],
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
) -> None:
    """Delete an index (the original repository is not touched)."""
    from codeqa.store import Store

    store = _run(lambda: Store(_settings()))
    _run(lambda: store.get_manifest(name))
    if not yes and sys.stdin.isatty() and not typer.confirm(f"Delete index {name!r}?"):
        raise typer.Exit(1)
    _run(lambda: store.remove(name))
    out.print(f"Removed index {name}.")


@app.command()
def search(
    name: Annotated[str, typer.Argument(help="Index name.")],
    query: Annotated[str, typer.Argument(help="A question or keywords.")],
    k: Annotated[int, typer.Option("-k", help="Number of results.", min=1, max=200)] = 10,
    layer: LayerOption = None,
    kind: KindOption = None,
    language: LanguageOption = None,
    path: PathOption = None,
    glob: GlobOption = None,
    files: Annotated[
        bool, typer.Option("--files", help="Rank files instead of chunks (for 'where' questions).")
    ] = False,
) -> None:
    """Print the chunks (or files) that best match a question: path:start-end  symbol  score."""
    from codeqa.retrieve import retrieve

    filters = make_filters(layer, kind, language, path, glob)
    result = _run(lambda: retrieve(name, query, _settings(), k=k, filters=filters))
    hits = result.hits
    if not hits:
        out.print("No matching code" + (" within these filters." if filters.active else "."))
        return
    if files:
        for file in result.files[:k]:
            symbols = ", ".join(dict.fromkeys(h.chunk.symbol for h in file.hits if h.chunk.symbol)) or "-"
            out.print(escape(f"{file.path}  {symbols}  {file.score:.4f}"), soft_wrap=True)
        return
    width = max(len(hit.location) for hit in hits)
    for hit in hits:
        out.print(escape(f"{hit.location:<{width}}  {hit.chunk.symbol or '-'}  {hit.score:.4f}"), soft_wrap=True)


@app.command("eval")
def evaluate(
    dataset: Annotated[
        Path, typer.Option(help="JSONL: instance_id, repo, base_commit, problem_statement, gold_files.")
    ],
    trees: Annotated[Path, typer.Option(help="Folder holding <owner>__<name>/<base_commit>/ source trees.")],
    k: Annotated[str, typer.Option(help="Cut-offs for Acc@k, comma-separated.")] = "1,5,10",
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Write per-instance ranks and the summary here.")
    ] = None,
    limit: Annotated[int | None, typer.Option(help="Only the first N instances.")] = None,
    keep: Annotated[bool, typer.Option(help="Keep the eval indexes afterwards.")] = False,
    reuse: Annotated[bool, typer.Option(help="Reuse eval indexes kept by an earlier --keep run.")] = False,
    weights: Annotated[str, typer.Option(help="Fusion weights to try, e.g. 'graph=0.2,doc_penalty=0.3'.")] = "",
) -> None:
    """Measure file localization: index each instance's tree, ask its question, score the file ranking."""
    from codeqa.evaluate import run_eval, summarize, write_json
    from codeqa.retrieve import Weights

    try:
        ks = tuple(int(part) for part in k.split(",") if part.strip())
    except ValueError:
        raise typer.BadParameter(f"--k must be comma-separated integers, got {k!r}") from None
    if not dataset.is_file():
        err.print(f"[bold red]error:[/] dataset {dataset} not found")
        raise typer.Exit(2)

    def show(result) -> None:
        mrr = result.metrics.get("mrr@10", 0.0)
        rank = str(round(1 / mrr)) if mrr else ">10"
        err.print(
            f"{result.instance_id:<40} gold at {rank:>3}  "
            f"index {result.index_seconds:6.1f}s  query {result.query_seconds:.2f}s"
        )

    results = _run(
        lambda: run_eval(
            dataset,
            trees,
            _settings(),
            ks=ks,
            limit=limit,
            keep_indexes=keep,
            reuse_indexes=reuse,
            weights=Weights.parse(weights),
            on_result=show,
        )
    )
    summary = summarize(results)
    table = Table("group", "n", *[f"Acc@{x}" for x in ks], "MRR@10", "index s")
    for group, metrics in sorted(summary.items(), key=lambda kv: (kv[0] != "overall", kv[0])):
        table.add_row(
            group,
            str(int(metrics["n"])),
            *[f"{metrics[f'acc@{x}']:.1f}" for x in ks],
            f"{metrics['mrr@10']:.1f}",
            f"{metrics['index_seconds']:.0f}",
        )
    out.print(table)
    if json_out:
        write_json(json_out, results)
        out.print(f"wrote {json_out}")


@app.command()
def serve(
    port: Annotated[int, typer.Option(help="Port to serve the app on.")] = 8501,
    address: Annotated[str, typer.Option(help="Address to bind (127.0.0.1 keeps it private).")] = "127.0.0.1",
) -> None:
    """Start the web app (Streamlit) on this machine."""
    app_file = Path(__file__).resolve().parent.parent / "app.py"
    if not app_file.exists():
        err.print("[bold red]error:[/] app.py not found next to the codeqa package; run from a source checkout.")
        raise typer.Exit(1)
    out.print(f"codeqa app: http://{address}:{port}")
    command = [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(app_file),
        "--server.headless",
        "true",
        "--server.address",
        address,
        "--server.port",
        str(port),
    ]
    raise typer.Exit(subprocess.call(command, env=os.environ.copy()))


@app.command()
def prepare() -> None:
    """Load the embedding model once (the default static model is distilled locally on first use)."""
    from codeqa.embed import embedder_ready, get_embedder

    settings = _settings()
    if not embedder_ready(settings):
        err.print("Preparing the embedding model (first run only, about a minute)...")
    embedder = _run(lambda: get_embedder(settings))
    out.print(f"embedding model ready: {embedder.model_id} ({embedder.dimension} dimensions)")


@app.command()
def version() -> None:
    """Print the codeqa version."""
    out.print(__version__)


from codeqa.answer.cli import ask, models  # noqa: E402 - commands of the answer stage

app.command()(ask)
app.command()(models)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
