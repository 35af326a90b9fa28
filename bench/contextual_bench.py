"""Harness for a contextual second stage (#36): today's top files re-scored by a small transformer, then fused.

``collect`` runs the product's own retrieval on each question (kept eval indexes, as ``codeqa eval --keep`` left
them under CODEQA_HOME), takes the best ``--top`` files, and for each file scores against the question with the
packaged all-MiniLM-L6-v2 (a bi-encoder):
- ``chunk1``/``chunk2``: the best cosine over the file's best 1 / 2 chunks (chosen by the static model's cosine),
  each input being ``path`` + symbol + the chunk's text, cut at ``--max-tokens``;
- ``card``: the file's card (path, defined names, opening lines; ``codeqa.store.fileindex.card_text``).
Scores are saved per question (``OUT/<instance_id>.json``) with today's order and the gold flags; chunk vectors
are cached by chunk id (``OUT/vectors-<tokens>.npz``) so a rerun costs seconds.

``report`` fuses today's rank with each score by weighted reciprocal rank (``1/(K+r_today) + w/(K+r_model)``)
and reports Acc@1/@5/@10 with counts per set: today, the model alone, the fusion with ``w`` chosen on the other
repositories (leave one repository out), and each fixed ``w`` for reference.

    CODEQA_HOME=/work/ctxhome python bench/contextual_bench.py collect --data bench/data/howto_dev.jsonl \
        --data bench/data/newcomer_dev.jsonl --trees /work/evaltrees --out /work/ctxwork/scores
    python bench/contextual_bench.py report /work/ctxwork/scores
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

FIELDS = ("chunk1", "chunk2", "card")
WEIGHTS = (0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0)
RRF_K = 10


def _model(max_tokens: int, folder: Path | None = None):
    """The packaged all-MiniLM-L6-v2 at ``max_tokens``, or a trained encoder folder (``contextual.json`` +
    ``layers.safetensors``, saved by ``scripts/train_contextual.py``) loaded as the product loads it
    (``codeqa.embed.contextual``; the folder's own max tokens win)."""
    from codeqa.embed.contextual import build_encoder

    model = build_encoder(str(folder) if folder is not None else "packaged")._model
    if folder is None:
        model.max_seq_length = max_tokens
    return model


def collect(args: argparse.Namespace) -> None:
    from codeqa.config import Settings
    from codeqa.evaluate.data import load_dataset
    from codeqa.evaluate.runner import _filters
    from codeqa.index import Index
    from codeqa.retrieve.retrieval import retrieve
    from codeqa.searchfiles.fileindex import card_text

    settings = Settings()
    model = None if args.inputs_only else _model(args.max_tokens, args.model)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    cache_path = out / f"vectors-{args.max_tokens}{'' if args.model is None else '-' + args.model.name}.npz"
    cache: dict[str, np.ndarray] = dict(np.load(cache_path)) if cache_path.exists() else {}

    def embed(keys: list[str], texts: list[str]) -> np.ndarray:
        if model is None:
            return np.zeros((len(keys), 1), np.float32)
        todo = [i for i, key in enumerate(keys) if key not in cache]
        if todo:
            vectors = model.encode([texts[i] for i in todo], batch_size=32, normalize_embeddings=True)
            for i, vector in zip(todo, vectors, strict=True):
                cache[keys[i]] = vector.astype(np.float32)
        return np.stack([cache[key] for key in keys]) if keys else np.zeros((0, 384), np.float32)

    instances = [i for path in args.data for i in load_dataset(path)]
    opened: dict[str, Index] = {}
    for number, instance in enumerate(instances):
        target = out / f"{instance.instance_id}.json"
        if target.exists():
            continue
        index = opened.get(instance.index_name) or Index.open(instance.index_name, settings)
        opened[instance.index_name] = index
        files = index.files
        table = files.table
        started = time.perf_counter()
        retrieval = retrieve(index, instance.problem_statement, k=10, filters=_filters(instance))
        stage_seconds = time.perf_counter() - started
        paths = [f.path for f in retrieval.files][: args.top]
        number_of = {path: n for n, path in enumerate(files.files.paths)}
        rows_of = defaultdict(list)
        for row, file_number in enumerate(files.files.row_file):
            rows_of[int(file_number)].append(row)
        query_vector = retrieval.query_vector
        started = time.perf_counter()
        chosen: dict[str, list[int]] = {}
        for path in paths:
            rows = np.asarray(rows_of[number_of[path]])
            cosine = files.vectors[rows] @ query_vector
            chosen[path] = [int(rows[i]) for i in np.argsort(-cosine, kind="stable")[:2]]
        wanted = sorted({row for rows in chosen.values() for row in rows})
        chunks = {c.id: c for c in index.chunks([table.ids[row] for row in wanted])}
        keys, texts = [], []
        for row in wanted:
            chunk = chunks.get(table.ids[row])
            text = f"{chunk.path}\n{chunk.symbol}\n{chunk.text}" if chunk else ""
            keys.append(f"{instance.index_name}:{table.ids[row]}")
            texts.append(text)
        card_keys, card_texts = [], []
        for path in paths:
            rows = rows_of[number_of[path]]
            names = [table.symbols[row] for row in rows if table.symbols[row]]
            head = chunks.get(table.ids[min(rows)])
            card_keys.append(f"{instance.index_name}:card:{path}")
            # the card as the stage reads it (path and names); before 2026-12-05 the opening lines were added only
            # when the file's first chunk was among its two best (``head``), which the first weights were fitted on
            card_texts.append(card_text(path, names, head.text if head and args.card_head else ""))
        question = (
            model.encode([instance.problem_statement], normalize_embeddings=True)[0]
            if model is not None
            else np.zeros(1, np.float32)
        )
        chunk_vectors = dict(zip(wanted, embed(keys, texts) @ question, strict=True))
        card_scores = embed(card_keys, card_texts) @ question
        model_seconds = time.perf_counter() - started
        record = {
            "instance_id": instance.instance_id,
            "repo": instance.repo,
            "dataset": instance.dataset,
            "paths": paths,
            "gold": [path in set(instance.gold_files) for path in paths],
            "gold_anywhere": bool(set(instance.gold_files) & {f.path for f in retrieval.files}),
            "stage_seconds": stage_seconds,
            "model_seconds": model_seconds,
            "texts": len(keys) + len(card_keys),
            "chunk1": [float(chunk_vectors[chosen[p][0]]) for p in paths],
            "chunk2": [max(float(chunk_vectors[r]) for r in chosen[p]) for p in paths],
            "card": [float(s) for s in card_scores],
            "inputs": {
                "question": instance.problem_statement,
                "chunks": [[texts[wanted.index(r)] for r in chosen[p]] for p in paths],
                "cards": card_texts,
            },
        }
        target.write_text(json.dumps(record))
        print(f"{number + 1}/{len(instances)} {instance.instance_id} {model_seconds:.1f}s", flush=True)
        if number % 5 == 0:
            np.savez(cache_path, **cache)
    np.savez(cache_path, **cache)


def _earlier_scores(folders: list[Path], name: str) -> dict[str, tuple[float, float, float]]:
    """Scores of the same model saved by an earlier ``collect`` (same index: same chunks and cards), by path."""
    for folder in folders:
        if (folder / name).exists():
            old = json.loads((folder / name).read_text())
            return {path: tuple(old[field][i] for field in FIELDS) for i, path in enumerate(old["paths"])}
    return {}


def rescore(args: argparse.Namespace) -> None:
    """Score the inputs that ``collect`` saved with another model (no index, no retrieval: today's order is kept)."""
    import torch

    torch.set_num_threads(args.threads)
    model = _model(args.max_tokens, args.model)
    model.max_seq_length = args.cut or model.max_seq_length
    args.out.mkdir(parents=True, exist_ok=True)
    for source in sorted(args.source.glob("*.json")):
        record = json.loads(source.read_text())
        target = args.out / source.name
        if target.exists() or not record["paths"]:
            continue
        inputs = record["inputs"]
        earlier = _earlier_scores(args.reuse or [], source.name)
        todo = [i for i, path in enumerate(record["paths"]) if path not in earlier]
        started = time.process_time()
        question = model.encode([inputs["question"]], normalize_embeddings=True)[0]
        flat = [text for i in todo for text in inputs["chunks"][i][: 1 if args.first_chunk_only else None]]
        cards = [inputs["cards"][i] for i in todo]
        chunk_scores = iter(model.encode(flat, batch_size=32, normalize_embeddings=True) @ question if flat else [])
        card_scores = iter(model.encode(cards, batch_size=32, normalize_embeddings=True) @ question if cards else [])
        for i in todo:
            per_chunk = [float(next(chunk_scores)) for _ in inputs["chunks"][i][: 1 if args.first_chunk_only else None]]
            earlier[record["paths"][i]] = (per_chunk[0], max(per_chunk), float(next(card_scores)))
        for number, field in enumerate(FIELDS):
            record[field] = [earlier[path][number] for path in record["paths"]]
        record.update(model_seconds=time.process_time() - started, texts=len(flat) + len(todo))
        target.write_text(json.dumps(record))


def speed(args: argparse.Namespace) -> None:
    """CPU and wall milliseconds per question: the question alone, and the question + ``--files`` file cards
    (uncached), over the first ``--questions`` saved inputs."""
    records = [json.loads(p.read_text()) for p in sorted(args.source.glob("*.json"))[: args.questions]]
    cards = [card for r in records for card in r["inputs"]["cards"]]
    for folder in args.model or [None]:
        model = _model(args.max_tokens, folder)
        model.max_seq_length = args.cut or model.max_seq_length
        model.encode(["warm up"] + cards[:8])
        timings: dict[str, list[tuple[float, float]]] = {"question": [], "question+cards": []}
        for number, record in enumerate(records):
            texts = [(cards * 2)[number * args.files + i] for i in range(args.files)]
            for name, batch in (("question", []), ("question+cards", texts)):
                cpu, wall = time.process_time(), time.perf_counter()
                model.encode([record["inputs"]["question"]], normalize_embeddings=True)
                if batch:
                    model.encode(batch, batch_size=32, normalize_embeddings=True)
                timings[name].append((time.process_time() - cpu, time.perf_counter() - wall))
        label = folder.name if folder else "general MiniLM-L6"
        cells = []
        for name, values in timings.items():
            cpu_ms, wall_ms = (1000 * np.median([t[i] for t in values]) for i in (0, 1))
            cells.append(f"{name}: CPU {cpu_ms:.0f} ms, wall {wall_ms:.0f} ms")
        print(f"{label} ({model.max_seq_length} tokens): " + "; ".join(cells), flush=True)


def _ranks(values: np.ndarray) -> np.ndarray:
    order = np.argsort(-values, kind="stable")
    ranks = np.empty(len(values), dtype=np.float64)
    ranks[order] = np.arange(1, len(values) + 1)
    return ranks


def fused_order(record: dict, field: str, weight: float, head: int | None = None) -> list[int]:
    """Positions of today's files in the fused order (today's rank and the model's, weighted reciprocal rank)."""
    n = len(record["paths"])
    today = np.arange(1, n + 1, dtype=np.float64)
    model = _ranks(np.asarray(record[field], dtype=np.float64))
    scores = 1.0 / (RRF_K + today) + weight / (RRF_K + model)
    if field == "none":
        scores = -today
    return [int(i) for i in np.argsort(-scores, kind="stable")]


def hits(record: dict, order: list[int]) -> dict[int, int]:
    gold = record["gold"]
    first = next((rank for rank, i in enumerate(order, start=1) if gold[i]), None)
    return {k: int(first is not None and first <= k) for k in (1, 5, 10)}


def _model_only(record: dict, field: str) -> list[int]:
    return [int(i) for i in np.argsort(-np.asarray(record[field]), kind="stable")]


def file_features(record: dict, fields: tuple[str, ...] = FIELDS) -> np.ndarray:
    """Per file: today's place (reciprocal root and log) and each model score relative to the best of the top
    (``codeqa.retrieve.contextual.stage_features`` computes the same for the shipped stage)."""
    n = len(record["paths"])
    place = np.arange(1, n + 1, dtype=np.float64)
    columns = [1.0 / np.sqrt(place), np.log(place)]
    for field in fields:
        values = np.asarray(record[field], dtype=np.float64)
        columns.append(values - values.max())
    return np.stack(columns, axis=1)


def fit_listwise(records: list[dict], l2: float, fields: tuple[str, ...] = FIELDS) -> np.ndarray:
    """Weights of a softmax over each question's files (the gold file's log-likelihood, L2-penalized)."""
    from scipy.optimize import minimize

    cases = [(file_features(r, fields), np.asarray(r["gold"], dtype=bool)) for r in records if any(r["gold"])]

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        total, grad = l2 * float(w @ w), 2 * l2 * w
        for x, gold in cases:
            z = x @ w
            z -= z.max()
            p = np.exp(z) / np.exp(z).sum()
            target = gold / gold.sum()
            total -= float(target @ np.log(p + 1e-12)) / len(cases)
            grad -= (target - p) @ x / len(cases)
        return total, grad

    start = np.zeros(cases[0][0].shape[1])
    start[0] = 5.0
    return minimize(loss, start, jac=True, method="L-BFGS-B").x


def learned_orders(subset: list[dict], records: list[dict], l2: float) -> list[list[int]]:
    """Each question ordered by a listwise fit on the other repositories' questions (leave one repository out)."""
    weights = {
        repo: fit_listwise([r for r in records if r["repo"] != repo], l2) for repo in {r["repo"] for r in subset}
    }
    return [[int(i) for i in np.argsort(-(file_features(r) @ weights[r["repo"]]), kind="stable")] for r in subset]


def nested_orders(subset: list[dict], records: list[dict], grid: tuple[float, ...], folds: int = 3) -> list[list[int]]:
    """Like ``learned_orders``, with the L2 also chosen on the other repositories (``folds`` inner folds by
    repository, first places)."""
    orders: dict[str, list[int]] = {}
    for repo in sorted({r["repo"] for r in subset}):
        others = [r for r in records if r["repo"] != repo]
        repos = sorted({r["repo"] for r in others})
        fold_of = {name: i % folds for i, name in enumerate(repos)}
        inner = dict.fromkeys(grid, 0)
        for l2 in grid:
            for fold in range(folds):
                weights = fit_listwise([r for r in others if fold_of[r["repo"]] != fold], l2)
                held = [r for r in others if fold_of[r["repo"]] == fold]
                inner[l2] += sum(hits(r, _by(weights, r))[1] for r in held)
        weights = fit_listwise(others, max(grid, key=lambda l2: (inner[l2], l2)))
        orders.update({r["instance_id"]: _by(weights, r) for r in subset if r["repo"] == repo})
    return [orders[r["instance_id"]] for r in subset]


def _by(weights: np.ndarray, record: dict) -> list[int]:
    return [int(i) for i in np.argsort(-(file_features(record) @ weights), kind="stable")]


def report(args: argparse.Namespace) -> None:
    records = [json.loads(p.read_text()) for folder in args.scores for p in sorted(folder.glob("*.json"))]
    by_set: dict[str, list[dict]] = defaultdict(list)
    for record in records:
        by_set[record["dataset"]].append(record)
    by_set["all"] = records

    def row(name: str, subset: list[dict], orders: list[list[int]]) -> str:
        counts = [hits(r, o) for r, o in zip(subset, orders, strict=True)]
        n = len(subset)
        cells = [f"{100 * sum(c[k] for c in counts) / n:.1f} ({sum(c[k] for c in counts)})" for k in (1, 5, 10)]
        return f"| {name} | {n} | " + " | ".join(cells) + " |"

    def loro(subset: list[dict], field: str) -> list[list[int]]:
        orders = []
        for record in subset:
            others = [r for r in records if r["repo"] != record["repo"]]
            best = max(
                WEIGHTS,
                key=lambda w: (
                    sum(hits(r, fused_order(r, field, w))[1] for r in others),
                    sum(hits(r, fused_order(r, field, w))[5] for r in others),
                    -w,
                ),
            )
            orders.append(fused_order(record, field, best))
        return orders

    for name, subset in by_set.items():
        print(f"\n### {name}\n| variant | n | Acc@1 | Acc@5 | Acc@10 |\n|---|---|---|---|---|")
        print(row("today", subset, [list(range(len(r["paths"]))) for r in subset]))
        print(f"| (gold among today's top {len(subset[0]['paths'])}: {sum(any(r['gold']) for r in subset)}) | | | | |")
        for field in FIELDS:
            print(
                row(f"{field} alone (top {len(subset[0]['paths'])})", subset, [_model_only(r, field) for r in subset])
            )
            print(row(f"{field} fused, w by leave-one-repo-out", subset, loro(subset, field)))
            if args.grid:
                for w in WEIGHTS[1:]:
                    print(row(f"{field} fused w={w}", subset, [fused_order(r, field, w) for r in subset]))
        for l2 in (0.001, 0.01, 0.1):
            print(
                row(
                    f"listwise fusion of all scores, l2={l2}, leave-one-repo-out",
                    subset,
                    learned_orders(subset, records, l2),
                )
            )
    if args.nested:
        nested = nested_orders(records, records, (0.001, 0.01, 0.1))
        order_of = {r["instance_id"]: o for r, o in zip(records, nested, strict=True)}
        for name, subset in by_set.items():
            print(row(f"{name}: listwise, L2 chosen by inner CV", subset, [order_of[r["instance_id"]] for r in subset]))
    names = ["place_rr", "log_place", *(f"{field}_rel" for field in FIELDS)]
    print(
        "\nlistwise weights fitted on all questions (l2=0.01):",
        dict(zip(names, fit_listwise(records, 0.01).round(2), strict=True)),
    )
    seconds = [r["model_seconds"] for r in records]
    print(f"\nmodel seconds per question: median {np.median(seconds):.2f}, p95 {np.percentile(seconds, 95):.2f}")


def fit(args: argparse.Namespace) -> None:
    """Leave-one-repository-out Acc@1/5/10 of the listwise fusion over ``--fields``, then the weights fitted on all
    questions, written as the stage's JSON (``codeqa/retrieve/contextual.json``)."""
    seen: dict[str, dict] = {}
    for folder in args.scores:
        for path in sorted(folder.glob("*.json")):
            record = json.loads(path.read_text())
            seen.setdefault(record["instance_id"], record)
    records = list(seen.values())
    fields = tuple(args.fields.split(","))
    totals = {"today": [0, 0, 0], "fused": [0, 0, 0]}
    for repo in sorted({r["repo"] for r in records}):
        weights = fit_listwise([r for r in records if r["repo"] != repo], args.l2, fields)
        for record in (r for r in records if r["repo"] == repo):
            fused = [int(i) for i in np.argsort(-(file_features(record, fields) @ weights), kind="stable")]
            for name, order in (("today", list(range(len(record["paths"])))), ("fused", fused)):
                got = hits(record, order)
                totals[name] = [t + got[k] for t, k in zip(totals[name], (1, 5, 10), strict=True)]
    print(f"{len(records)} questions, {len({r['repo'] for r in records})} repositories, leave one repository out:")
    for name, counts in totals.items():
        print(f"  {name}: Acc@1/5/10 = {' / '.join(map(str, counts))}")
    weights = fit_listwise(records, args.l2, fields)
    payload = {
        "top": len(records[0]["paths"]),
        "fields": list(fields),
        "weights": dict(zip(["place_rr", "log_place", *fields], [round(float(w), 5) for w in weights], strict=True)),
        "provenance": {
            "fitted_on": f"{len(records)} dev questions ({', '.join(sorted({r['dataset'] for r in records}))}), "
            f"scores by the packaged all-MiniLM-L6-v2 at 128 tokens (bench/contextual_bench.py collect)",
            "l2": args.l2,
            "leave_one_repository_out": {name: counts for name, counts in totals.items()},
        },
    }
    args.out.write_text(json.dumps(payload, indent=1) + "\n")
    print(f"wrote {args.out}: {payload['weights']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--data", type=Path, action="append", required=True)
    c.add_argument("--trees", type=Path, required=True)
    c.add_argument("--out", type=Path, required=True)
    c.add_argument("--top", type=int, default=20)
    c.add_argument("--max-tokens", type=int, default=128)
    c.add_argument("--model", type=Path, help="a trained encoder folder (default: the packaged all-MiniLM-L6-v2)")
    c.add_argument("--card-head", action="store_true", help="the first round's cards (see collect)")
    c.add_argument("--inputs-only", action="store_true", help="save the texts to score, score nothing (for rescore)")
    s = sub.add_parser("rescore")
    s.add_argument("source", type=Path, help="a folder written by collect")
    s.add_argument("--out", type=Path, required=True)
    s.add_argument("--model", type=Path, help="a trained encoder folder (default: the packaged all-MiniLM-L6-v2)")
    s.add_argument("--max-tokens", type=int, default=128)
    s.add_argument(
        "--reuse", type=Path, action="append", help="collect folders of the SAME model: their scores by path are kept"
    )
    s.add_argument("--cut", type=int, default=0, help="cut texts at this many tokens (0: the model's own)")
    s.add_argument(
        "--first-chunk-only", action="store_true", help="score each file's best chunk only (chunk2 = chunk1)"
    )
    s.add_argument("--threads", type=int, default=1)
    v = sub.add_parser("speed")
    v.add_argument("source", type=Path, help="a folder written by collect")
    v.add_argument("--model", type=Path, action="append", help="trained encoder folders (default: general MiniLM)")
    v.add_argument("--max-tokens", type=int, default=128)
    v.add_argument("--files", type=int, default=30)
    v.add_argument("--questions", type=int, default=10)
    v.add_argument("--cut", type=int, default=0, help="cut texts at this many tokens (0: the model's own)")
    r = sub.add_parser("report")
    r.add_argument("scores", type=Path, nargs="+", help="folders written by collect (pooled; CV by repository)")
    r.add_argument("--grid", action="store_true")
    r.add_argument("--nested", action="store_true", help="also choose the listwise L2 by inner CV (minutes)")
    f = sub.add_parser("fit")
    f.add_argument("scores", type=Path, nargs="+", help="folders written by collect (pooled; CV by repository)")
    f.add_argument("--fields", default="chunk1,card")
    f.add_argument("--l2", type=float, default=0.001)
    f.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    {"collect": collect, "rescore": rescore, "speed": speed, "report": report, "fit": fit}[args.command](args)


if __name__ == "__main__":
    main()
