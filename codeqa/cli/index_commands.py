"""Commands that build and manage indexes: ``index``, ``update``, ``list``, ``remove``, ``repair``, ``prepare``,
``version``."""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Callable
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

from codeqa.cli.console import err, out, run_or_exit, safe, settings
from codeqa.languages import largest_first
from codeqa.version import __version__


def index(
    source: Annotated[str, typer.Argument(help="GitHub URL, owner/repo, any https git URL, or a local path.")],
    ref: Annotated[str | None, typer.Option(help="Branch, tag or commit to index.")] = None,
    name: Annotated[
        str | None,
        typer.Option(
            help="Index name (default: the source's index, or derived from the source: owner-repo, a folder's "
            "name); a name holding another source is refused."
        ),
    ] = None,
    token: Annotated[
        str | None,
        typer.Option(
            help="Access token for a private repository. Other users of this machine can read it in `ps` while "
            "the clone runs: prefer CODEQA_GITHUB_TOKEN (github.com) or --token-stdin."
        ),
    ] = None,
    token_stdin: Annotated[
        bool, typer.Option("--token-stdin", help="Read the access token from standard input (not visible in `ps`).")
    ] = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="List every skipped file with its reason.")] = False,
    map_: Annotated[
        bool,
        typer.Option(
            "--map/--no-map",
            help="After the summary, lay out the map and overview so the app opens them at once (Ctrl-C skips it; "
            "the app then does it in the background).",
        ),
    ] = True,
) -> None:
    """Clone (if remote), scan, chunk, embed and store a repository; then prepare its map and overview."""
    from codeqa.index import Index

    if token_stdin:
        token = _token_from_stdin(token)
    config = settings()
    name = run_or_exit(lambda: Index.claim_name(source, config, name=name, ref=ref))  # refused before a clone
    built = _with_progress(lambda on_progress: Index.build(source, config, name=name, ref=ref, token=token,
                                                           progress=on_progress))  # fmt: skip
    _print_report(built.report, verbose=verbose)
    if map_:
        _prepare_views(built)


def update(
    name: Annotated[str, typer.Argument(help="Index name, as shown by `codeqa list`.")],
    token_stdin: Annotated[
        bool, typer.Option("--token-stdin", help="Read the access token from standard input (private URL sources).")
    ] = False,
    map_: Annotated[
        bool, typer.Option("--map/--no-map", help="Lay out the map and overview again after the update.")
    ] = True,
) -> None:
    """Bring an index up to date with its source: only changed files are chunked and embedded again."""
    from codeqa.index import Index

    token = _token_from_stdin(None) if token_stdin else None
    config = settings()
    updated = _with_progress(lambda on_progress: Index.open(name, config).update(token=token, progress=on_progress))
    _print_report(updated.report)
    if map_:
        _prepare_views(updated)


def _with_progress(action: Callable[[Callable[[Any], None]], Any]) -> Any:
    """Run an indexing ``action`` with one progress bar per stage on stderr."""
    from codeqa.index import STAGES

    with Progress(
        TextColumn("{task.description:>6}"),
        BarColumn(),
        TextColumn("{task.fields[note]}"),
        TimeElapsedColumn(),
        console=err,
        transient=not err.is_terminal,
    ) as bar:
        tasks: dict[str, TaskID] = {}

        def on_progress(event: Any) -> None:
            if event.stage not in STAGES:
                return
            if event.stage not in tasks:
                tasks[event.stage] = bar.add_task(event.stage, total=1.0, note="")
            completed = event.fraction if event.fraction is not None else None
            bar.update(tasks[event.stage], note=safe(event.message[:70]), completed=completed)

        report = run_or_exit(lambda: action(on_progress))
        for task in tasks.values():
            bar.update(task, completed=1.0)
    return report


def _token_from_stdin(given: str | None) -> str:
    """The first line of standard input (e.g. ``pass show github | codeqa index URL --token-stdin``)."""
    token = "" if given else sys.stdin.readline().strip()
    if not token:
        why = "use --token or --token-stdin, not both" if given else "no token on standard input"
        hint = "pipe the token in, e.g. `printenv TOKEN | codeqa index URL --token-stdin`"
        err.print(f"[bold red]error:[/] {why}: {hint}", soft_wrap=True)
        raise typer.Exit(2)
    return token


def _prepare_views(index: Any) -> None:
    """The map and overview, computed once now so `codeqa serve` shows them at once; the index is usable already,
    so nothing here fails the command (e.g. another `codeqa index` of the same name replaced it meanwhile)."""
    from codeqa.errors import CodeqaError
    from codeqa.explore import prepare

    with err.status("Laying out the map and the overview (Ctrl-C skips; the app will do it)…"):
        try:
            prepared = prepare(index)
        except KeyboardInterrupt:
            err.print("Skipped the map; the app lays it out when you open it. The index is complete.")
            return
        except CodeqaError as exc:
            err.print(f"[yellow]note:[/] the map was not laid out ({safe(str(exc))}); the app will do it.")
            return
    out.print(
        f"  map: {prepared.points:,} chunks laid out in {prepared.map_seconds:.1f}s, "
        f"overview in {prepared.overview_seconds:.1f}s"
    )


def _print_report(report: Any, *, verbose: bool = False) -> None:
    manifest = report.manifest
    out.print(
        f"[bold green]Indexed[/] {manifest.name}  ({safe(manifest.source)}"
        + (f" @ {manifest.sha[:12]}" if manifest.sha else "")
        + ")"
    )
    languages = safe(", ".join(f"{lang} {count}" for lang, count in largest_first(report.languages, 8)))
    carried = f"   carried over {report.carried}" if report.carried else ""
    out.print(
        f"  files {report.files}   lines {report.lines}   chunks {report.chunks}   newly embedded {report.embedded}"
        + carried
    )
    out.print(f"  languages: {languages}")
    skipped = ", ".join(f"{reason} {count}" for reason, count in report.skipped.items()) or "none"
    hint = "  (--verbose lists them)" if report.skipped and not verbose else ""
    out.print(f"  skipped: {skipped}{hint}")
    if verbose:
        for item in sorted(report.skipped_files, key=lambda f: (f.reason, f.path)):
            out.print(f"    {item.reason:<16} {safe(item.path)}", soft_wrap=True)
    timings = "  ".join(f"{stage} {seconds:.1f}s" for stage, seconds in report.timings.items())
    out.print(f"  time: {timings}  (total {sum(report.timings.values()):.1f}s)")
    for notice in report.notices:
        err.print(f"[yellow]note:[/] {safe(notice)}", soft_wrap=True)


def list_indexes() -> None:
    """List indexed repositories (a few short lines each, readable in an 80-column terminal), and whether each is
    still fresh (local sources: HEAD and files compared with what was indexed)."""
    from codeqa.index import Index

    config = settings()
    indexes = run_or_exit(lambda: Index.all(config))
    manifests = [index.manifest for index in indexes]
    if not manifests:
        out.print("No indexes yet. Create one with: codeqa index <github-url-or-path>")
        return
    width = min(max(len(m.name) for m in manifests), 30)
    out.print(f"[bold]{'name':<{width}}  {'commit':<7}  {'files':>7}  {'chunks':>7}  indexed[/]")
    stale = []
    for opened in indexes:
        m = opened.manifest
        when = dt.datetime.fromtimestamp(m.created_at).strftime("%Y-%m-%d %H:%M")
        files, chunks = m.counts.get("files", 0), m.counts.get("chunks", 0)
        try:
            fresh = opened.freshness()
            status = {"fresh": "fresh", "stale": "stale", "unknown": "?"}[fresh.state]
        except Exception as exc:  # a check must never break the list
            fresh, status = None, f"? ({exc.__class__.__name__})"
        if fresh is not None and fresh.stale:
            stale.append((m.name, fresh.reason))
        out.print(
            f"{safe(m.name):<{width}}  {(m.sha or '-')[:7]:<7}  {files:>7,}  {chunks:>7,}  {when}", soft_wrap=True
        )
        languages = ", ".join(f"{name} {count:,}" for name, count in largest_first(m.languages, 4))
        status = {"fresh": "[green]fresh[/]", "stale": "[bold yellow]stale[/]"}.get(status, f"[dim]{safe(status)}[/]")
        out.print(f"  {status}  [dim]files by language: {safe(languages or 'none')}[/]", overflow="fold")
        out.print(f"  [dim]{safe(m.source)}[/]", overflow="fold")
        if fresh is not None and fresh.state == "unknown" and fresh.reason:
            out.print(f"  [dim]not checked: {safe(fresh.reason)}[/]", overflow="fold")
    for name, reason in stale:
        out.print(safe(f"{name} is stale ({reason}): run `codeqa update {name}`"), soft_wrap=True)


def remove(
    name: Annotated[str, typer.Argument(help="Index name, as shown by `codeqa list`.")],
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
) -> None:
    """Delete an index (the original repository is not touched)."""
    from codeqa.index import Index

    index = run_or_exit(lambda: Index.open(name, settings()))
    if not yes and sys.stdin.isatty() and not typer.confirm(f"Delete index {name!r}?"):
        raise typer.Exit(1)
    run_or_exit(index.remove)
    out.print(f"Removed index {name}.")


def repair(
    name: Annotated[
        str | None, typer.Argument(help="Only check and rebuild the search files of this index.", show_default=False)
    ] = None,
) -> None:
    """Move a damaged index store aside and restore the indexes from the files that are left; rebuild damaged
    search files from the store."""
    from codeqa.index.repair import repair as run_repair
    from codeqa.index.repair import store_database

    config = settings()
    report = run_or_exit(lambda: run_repair(config, name))
    for clone in report.removed_clones:
        out.print(safe(f"Deleted {clone}: a clone no index owns."), soft_wrap=True)
    if report.healthy:
        files = f"the search files of {name}" if name else f"the search files of {report.checked} index(es)"
        out.print(safe(f"The index store {store_database(config)} and {files} are healthy; nothing to repair."),
                  soft_wrap=True)  # fmt: skip
        return
    if report.damage is not None:
        out.print(safe(f"The index store was damaged ({report.damage})."), soft_wrap=True)
    if report.moved_to is not None:
        out.print(
            safe(f"Moved it to {report.moved_to} (delete that folder once you no longer need it)."), soft_wrap=True
        )
    for restored in report.restored:
        out.print(f"[green]Restored[/] {safe(restored)}")
    for lost, why, command in report.lost:
        out.print(safe(f"Could not restore {lost}: {why}. Rebuild it with: {command}"), soft_wrap=True)
    if report.damage is not None and not report.restored and not report.lost:
        out.print("No index could be found to restore; index your repositories again (the embedding cache is kept).")
    for mended, why in report.mended:
        out.print(f"[green]Rebuilt[/] the search files of {safe(mended)} from the store ({safe(why)}).", soft_wrap=True)
    for unmended, why in report.unmended:
        err.print(f"[bold red]error:[/] the search files of {safe(unmended)} are damaged: {safe(why)}", soft_wrap=True)
    if report.unmended:
        raise typer.Exit(5)


def prepare() -> None:
    """Load the embedding model once (`static:minilm` is distilled locally on first use; `static:code` ships ready)."""
    from codeqa.embed import embedder_ready, get_embedder

    config = settings()
    if not embedder_ready(config):
        err.print("Preparing the embedding model (first run only, about a minute)...")
    embedder = run_or_exit(lambda: get_embedder(config))
    out.print(f"embedding model ready: {embedder.model_id} ({embedder.dimension} dimensions)")


def version() -> None:
    """Print the codeqa version."""
    out.print(__version__)
