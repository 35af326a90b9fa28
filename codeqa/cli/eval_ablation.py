"""``codeqa eval --ablation``: what each retrieval stage adds, per language group (``codeqa.evaluate.ablation``)."""

from __future__ import annotations

import json
from pathlib import Path

from codeqa.cli.console import err, out, run_or_exit, safe, settings
from codeqa.cli.eval_tables import ablation_table


def run_ablation_command(
    instances: list, trees: Path, ks: tuple[int, ...], keep: bool, reuse: bool, json_out: Path | None
) -> None:
    """``codeqa eval --ablation``: the table per language group, and the seconds each variant took per question."""
    from codeqa.evaluate.ablation import run_ablation

    def show(instance, got: dict[str, dict[str, float]]) -> None:
        firsts = " ".join("1" if metrics["acc@1"] else "." for metrics in got.values())
        err.print(f"{safe(instance.instance_id):<40} first place per variant: {firsts}")

    result = run_or_exit(
        lambda: run_ablation(instances, trees, settings(), ks=ks, keep_indexes=keep, reuse_indexes=reuse,
                             on_instance=show)
    )  # fmt: skip
    if not result.contextual_loaded:
        err.print("[yellow]the contextual encoder did not load: the full variant ran without it[/]")
    table = result.table()
    out.print(ablation_table(table, ks))
    seconds = {name: round(total / max(len(result.groups), 1), 3) for name, total in result.seconds.items()}
    out.print("seconds per question: " + ", ".join(f"{safe(name)} {value}" for name, value in seconds.items()))
    if json_out:
        json_out.write_text(json.dumps({"ablation": table, "seconds_per_question": seconds}, indent=1))
        out.print(f"wrote {json_out}")
