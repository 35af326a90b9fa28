"""``codeqa eval``: file-localization quality of the real pipeline on a JSONL dataset."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from codeqa.cli.console import err, out, run_or_exit, safe, settings


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
        err.print(f"[bold red]error:[/] dataset {safe(str(dataset))} not found")
        raise typer.Exit(2)

    def show(result) -> None:
        mrr = result.metrics.get("mrr@10", 0.0)
        rank = str(round(1 / mrr)) if mrr else ">10"
        err.print(
            f"{safe(result.instance_id):<40} gold at {rank:>3}  "
            f"index {result.index_seconds:6.1f}s  query {result.query_seconds:.2f}s"
        )

    results = run_or_exit(
        lambda: run_eval(
            dataset,
            trees,
            settings(),
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
