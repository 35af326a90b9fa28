"""The tables ``codeqa eval`` prints for file localization: files per group, the top ten chunks, per language."""

from __future__ import annotations

from rich.table import Table

from codeqa.cli.console import safe

CHUNK_COLUMNS = (("chunk_ndcg@10", "NDCG@10"), ("chunk_recall@10", "gold files"),
                 ("chunk_precision@10", "on gold files"), ("files@10", "files"), ("lines@10", "key lines"))  # fmt: skip


def ordered(summary: dict[str, dict[str, float]]) -> list[tuple[str, dict[str, float]]]:
    """Overall first, then datasets ``[..]``, languages ``<..>``, repositories."""
    return sorted(summary.items(), key=lambda kv: (kv[0] != "overall", kv[0][:1] not in "[", kv[0][:1] != "<", kv[0]))


def files_table(title: str, summary: dict[str, dict[str, float]], ks: tuple[int, ...]) -> Table:
    ndcg = "ndcg@10" in summary.get("overall", {})
    table = Table("group", "n", *[f"Acc@{x}" for x in ks], "MRR@10", *(["NDCG@10"] if ndcg else []), title=title)
    for group, metrics in ordered(summary):
        row = [f"{metrics[f'acc@{x}']:.1f} ({round(metrics[f'acc@{x}'] * metrics['n'] / 100)})" for x in ks]
        tail = [f"{metrics['ndcg@10']:.1f}"] if ndcg else []
        table.add_row(safe(group), str(int(metrics["n"])), *row, f"{metrics['mrr@10']:.1f}", *tail)
    return table


def chunk_table(summary: dict[str, dict[str, float]]) -> Table | None:
    """The top ten chunks: NDCG@10 and recall of the gold files, distinct files shown, key lines contained."""
    overall = summary.get("overall", {})
    columns = [(key, label) for key, label in CHUNK_COLUMNS if key in overall]
    if not columns:
        return None
    table = Table("group", "n", *(label for _, label in columns), title="top ten chunks")
    for group, metrics in ordered(summary):
        cells = []
        for key, _ in columns:
            value = metrics.get(key)
            if value is None:
                cells.append("-")
            elif key == "files@10":
                cells.append(f"{value:.2f}")
            elif key == "lines@10":
                cells.append(f"{value:.1f} ({int(metrics['n_lines'])})")
            else:
                cells.append(f"{value:.1f}")
        table.add_row(safe(group), str(int(metrics["n"])), *cells)
    return table


def language_table(summary: dict[str, dict[str, float]], ks: tuple[int, ...]) -> Table | None:
    """One row per language group (and overall): files Acc@k with counts, MRR@10, and the top ten chunks' NDCG@10
    and distinct files, so that a language that trails shows on one screen."""
    from codeqa.evaluate.metrics import by_language

    languages = by_language(summary)
    if not languages:
        return None
    chunks = "chunk_ndcg@10" in summary["overall"]
    extra = ["chunks NDCG@10", "files@10"] if chunks else []
    table = Table("language", "n", *[f"Acc@{x}" for x in ks], "MRR@10", *extra, title="per language")
    for name, metrics in [*languages.items(), ("overall", summary["overall"])]:
        accs = [f"{metrics[f'acc@{x}']:.1f} ({round(metrics[f'acc@{x}'] * metrics['n'] / 100)})" for x in ks]
        tail = [f"{metrics.get('chunk_ndcg@10', 0.0):.1f}", f"{metrics.get('files@10', 0.0):.2f}"] if chunks else []
        table.add_row(safe(name), str(int(metrics["n"])), *accs, f"{metrics['mrr@10']:.1f}", *tail)
    return table


def answers_table(summary: dict[str, dict[str, float]], ks: tuple[int, ...], backend: str) -> Table:
    columns = [f"Acc@{x}" for x in ks]
    table = Table(
        "group", "n", *columns, "facts shown", ">=1 fact", "facts in prompt", "opening file", "lines (median)",
        "citations valid", "call claims", "s/answer", title=f"answers ({backend})",
    )  # fmt: skip
    order = sorted(summary.items(), key=lambda kv: (kv[0] != "overall", kv[0]))
    for group, row in order:
        n = int(row["n"])
        accs = [f"{row[f'acc@{x}']:.1f} ({round(row[f'acc@{x}'] * n / 100)})" for x in ks]
        table.add_row(
            safe(group),
            str(n),
            *accs,
            f"{row['facts_pct']:.1f} ({int(row['facts_shown'])}/{int(row['facts'])})",
            f"{row['with_fact_pct']:.1f} ({int(row['with_fact'])})",
            f"{row['prompt_pct']:.1f} ({int(row['prompt_facts'])})",
            f"{row['opening_pct']:.1f} ({int(row['opening_ok'])})",
            f"{row['lines_median']:g}",
            f"{row['citations_valid_pct']:.1f} ({int(row['citations'])})",
            claims_said(row),
            f"{row['seconds_per_answer']:.2f}",
        )
    return table


def graph_table(summary: dict[str, dict[str, float | None]], sample: int) -> Table:
    table = Table("group", "trees", "links checked", "right / wrong / unknown", "precision", "call precision",
                  "recall", title=f"symbol graph vs Jedi / TypeScript ({sample} links per tree)")  # fmt: skip

    def pct(value: float | None) -> str:
        return "–" if value is None else f"{value:.1f}"

    for group, row in sorted(summary.items(), key=lambda kv: (kv[0] != "overall", kv[0])):
        table.add_row(
            safe(group),
            str(row["trees"]),
            str(row["sampled"]),
            f"{row['right']} / {row['wrong']} / {row['unknown']}",
            pct(row["precision"]),
            pct(row["call_precision"]),
            pct(row["recall"]),
        )
    return table


def claims_said(row: dict[str, float]) -> str:
    """Call claims verified/made (dropped), and the model's own the same way when a model wrote any."""
    text = f"{int(row['claims_verified'])}/{int(row['claims_made'])} ({int(row['claims_dropped'])} dropped)"
    if row.get("model_claims_made"):
        text += (f"; model {int(row['model_claims_verified'])}/{int(row['model_claims_made'])} "
                 f"({int(row['model_claims_dropped'])} dropped)")  # fmt: skip
    return text


def ablation_table(table: dict[str, dict[str, dict[str, float]]], ks: tuple[int, ...]) -> Table:
    """One row per variant, one column per language group (and all, with n): Acc@k in %, and the counts below."""
    groups = list(dict.fromkeys(group for cells in table.values() for group in cells))
    ns = next(iter(table.values()), {})
    title = "ablation: files " + " / ".join(f"Acc@{k}" for k in ks) + " (% over counts)"
    result = Table("variant", *[f"{group} ({int(ns[group]['n'])})" for group in groups], title=title)
    for variant, cells in table.items():
        row = []
        for group in groups:
            cell = cells[group]
            row.append(
                " / ".join(f"{cell[f'acc@{k}']:.1f}" for k in ks)
                + "\n"
                + " / ".join(str(int(cell[f"hits@{k}"])) for k in ks)
            )
        result.add_row(safe(variant), *row)
    return result
