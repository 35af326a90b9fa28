"""Which code opens an answer: the opening's scoring weights, refit offline and cross-validated by repository.

    python bench/opening_grid.py collect DATASET.jsonl [DATASET.jsonl ...] --out CANDIDATES.json
    python bench/opening_grid.py fit CANDIDATES.json [--exclude-set NAME]
    python bench/opening_grid.py learn CANDIDATES.json

``collect`` answers each question as ``codeqa ask --backend none`` does (the kept eval indexes under CODEQA_HOME,
made by ``codeqa eval --answers --keep``) and records the candidates ``choose.candidates`` scores: per candidate its
file, words (evidence), constructs (mechanism), file rank and whether it cannot explain a mechanism. ``fit`` replays
the choice of the opening (the strong candidates first, then by score) under a grid of weights and reports how many
openings cite a gold file: the shipped weights, the best in-sample, and leave-one-repository-out (each repository's
questions opened with the weights that did best on the other repositories).
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import re
from collections import defaultdict
from pathlib import Path

import numpy as np

from codeqa.answer.explanation.constructs.mechanism import answers_poorly
from codeqa.answer.explanation.sources import choose
from codeqa.config import Settings
from codeqa.evaluate.data import load_dataset
from codeqa.evaluate.runner import kept_indexes

K = 8  # the answer's sources, as the eval asks


def collect(datasets: list[Path], out: Path) -> None:
    from codeqa.answer.explanation.pool import explain_index

    captured: list[dict] = []
    original = choose.follow

    def capture(terms, conventions, intents, context, ordered, score_of):  # type: ignore[no-untyped-def]
        pool = {hit.chunk.id: (n, hit.score) for n, hit in enumerate(context.pool)}

        def described(c) -> dict:  # type: ignore[no-untyped-def]
            callers, callees = context.neighbours(c.chunk)
            named = {w.lower() for w in re.findall(r"[A-Za-z]+", f"{c.chunk.path} {c.chunk.symbol}")}
            return {
                "path": c.chunk.path,
                "location": c.chunk.location,
                "evidence": c.evidence,
                "mechanism": c.mechanism,
                "file_rank": c.file_rank,
                "poor": answers_poorly(c.chunk),
                "retrieved": c.retrieved,
                "layer": str(c.chunk.layer),
                "kind": str(c.chunk.kind),
                "lines": c.chunk.end_line - c.chunk.start_line + 1,
                "callers": len(callers),
                "callees": len(callees),
                "named": sum(1 for t in terms.words if any(w.startswith(t) for w in named)),
                "matches": len(c.matches),
                "credit": c.credit,
                "pool_rank": pool.get(c.chunk.id, (len(pool), 0.0))[0],
                "pool_score": float(pool.get(c.chunk.id, (0, 0.0))[1]),
            }

        captured.append({"intents": list(intents), "terms": len(terms.words),
                         "candidates": [described(c) for c in ordered]})  # fmt: skip
        return original(terms, conventions, intents, context, ordered, score_of)

    choose.follow = capture  # type: ignore[assignment]
    settings = Settings()
    rows = []
    for dataset in datasets:
        for instance, index in kept_indexes(load_dataset(dataset), settings):
            if index is None:
                print(f"no index for {instance.instance_id}")
                continue
            captured.clear()
            explain_index(index, instance.problem_statement, instance.problem_statement, None, K)
            if not captured:
                continue
            rows.append({"id": instance.instance_id, "repo": instance.repo, "set": dataset.stem,
                         "gold": list(instance.gold_files), **captured[0]})  # fmt: skip
            print(instance.instance_id, len(captured[0]["candidates"]), flush=True)
    out.write_text(json.dumps(rows))


def opening(candidates: list[dict], w_mechanism: float, w_rank: float, lead: float, first: int) -> dict | None:
    """The candidate that opens, as ``choose.candidates`` orders them under these weights."""
    if not candidates:
        return None
    top_evidence = max(c["evidence"] for c in candidates) or 1.0
    scale = max(choose.MECHANISM_SCALE, max(c["mechanism"] for c in candidates))

    def score(c: dict) -> float:
        value = c["evidence"] / top_evidence + w_mechanism * c["mechanism"] / scale + w_rank / (1 + c["file_rank"])
        return value * (choose.POOR if c["poor"] else 1.0)

    ranked = sorted(enumerate(candidates), key=lambda pair: (-score(pair[1]), pair[0]))
    strong = [c for _, c in ranked if c["mechanism"] >= lead and not c["poor"]][:first]
    return strong[0] if strong else ranked[0][1]


GRID = {
    "w_mechanism": (0.0, 0.5, 1.0, 1.5, 2.0, 3.0),
    "w_rank": (0.0, 0.5, 1.0, 1.5, 2.0, 3.0),
    "lead": (1.0, 1.5, 2.0, 99.0),  # 99: no construct-strong candidate opens by rule
}
SHIPPED = (choose.W_MECHANISM, choose.W_RANK, choose.LEAD_MECHANISM)


def hits(rows: list[dict], setting: tuple[float, float, float]) -> int:
    found = 0
    for row in rows:
        chosen = opening(row["candidates"], *setting, choose.MECHANISM_FIRST)
        found += chosen is not None and chosen["path"] in row["gold"]
    return found


def fit(path: Path, exclude: list[str]) -> None:
    rows = [row for row in json.loads(path.read_text()) if row["set"] not in exclude]
    settings = list(itertools.product(*GRID.values()))
    by_repo: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        by_repo[row["repo"]].append(row)
    per_set: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        per_set[row["set"]].append(row)
    print(f"{len(rows)} questions, {len(by_repo)} repositories")
    print("shipped", SHIPPED, hits(rows, SHIPPED), {name: hits(part, SHIPPED) for name, part in per_set.items()})
    scored = sorted(((hits(rows, s), s) for s in settings), reverse=True)
    print("best in-sample", scored[:5])
    table = {repo: {s: hits(part, s) for s in settings} for repo, part in by_repo.items()}
    held, chosen_by_fold = 0, {}
    held_per_set: dict[str, int] = defaultdict(int)
    for repo, part in by_repo.items():
        train = {s: sum(table[other][s] for other in by_repo if other != repo) for s in settings}
        best = max(settings, key=lambda s: (train[s], s == SHIPPED))  # a tie keeps the shipped weights
        chosen_by_fold[repo] = best
        held += table[repo][best]
        for row in part:
            held_per_set[row["set"]] += hits([row], best)
    print("leave-one-repository-out", held, dict(held_per_set))
    print("folds' choices", sorted(set(chosen_by_fold.values())))


# ``learn``: a conditional logit (per question, a softmax over its candidates; the gold files' mass maximized) over
# richer features of each candidate, cross-validated by repository against the shipped rule.
LAYERS = ["api", "view", "cli", "service", "model", "config", "util"]
KINDS = ["function", "method", "class", "module", "config"]
NAMES = (
    ["ev", "mech", "invrank", "poor", "strong", "retrieved"]
    + [f"L_{layer}" for layer in LAYERS]
    + [f"K_{k}" for k in KINDS]
    + ["loglines", "callers", "callees", "named", "invpool", "poolscore", "credit", "ev_x_strong"]
)


def feats(row):
    cs = row["candidates"]
    top_ev = max(c["evidence"] for c in cs) or 1.0
    scale = max(2.0, max(c["mechanism"] for c in cs))
    top_ps = max(c["pool_score"] for c in cs) or 1.0
    X = []
    for c in cs:
        strong = float(c["mechanism"] >= 1.0 and not c["poor"])
        ev = c["evidence"] / top_ev
        x = [ev, c["mechanism"] / scale, 1 / (1 + c["file_rank"]), float(c["poor"]), strong, float(c["retrieved"])]
        x += [float(c["layer"] == layer) for layer in LAYERS]
        x += [float(c["kind"] == k) for k in KINDS]
        x += [
            math.log(c["lines"]),
            math.log1p(c["callers"]),
            math.log1p(c["callees"]),
            c["named"] / max(1, row["terms"]),
            1 / (1 + c["pool_rank"]),
            c["pool_score"] / top_ps,
            c["credit"],
            ev * strong,
        ]
        X.append(x)
    y = np.array([c["path"] in row["gold"] for c in cs], dtype=float)
    return np.array(X), y


def _nll(w, items, l2):  # type: ignore[no-untyped-def]
    total, grad = 0.0, np.zeros_like(w)
    for _, x, y in items:
        if y.sum() == 0:
            continue
        s = x @ w
        p = np.exp(s - s.max())
        p /= p.sum()
        mass = (p * y).sum()
        total -= math.log(mass + 1e-12)
        grad -= x.T @ (p * y / (mass + 1e-12) - p)
    return total + l2 * (w @ w), grad + 2 * l2 * w


def learn(path: Path) -> None:
    from scipy.optimize import minimize

    rows = [row for row in json.loads(path.read_text()) if row["candidates"]]
    data = [(row, *feats(row)) for row in rows]
    by_repo: dict[str, list] = defaultdict(list)
    for item in data:
        by_repo[item[0]["repo"]].append(item)

    def fitted(items, l2):  # type: ignore[no-untyped-def]
        return minimize(_nll, np.zeros(len(NAMES)), args=(items, l2), jac=True, method="L-BFGS-B").x

    def opened(w, item) -> int:  # type: ignore[no-untyped-def]
        _, x, y = item
        return int(y[int(np.argmax(x @ w))] > 0)

    shipped = sum(hits([row], SHIPPED) for row in rows)
    print(f"{len(rows)} questions, {len(by_repo)} repositories; shipped rule {shipped}")
    for l2 in (0.01, 0.1, 1.0, 10.0):
        held: dict[str, int] = defaultdict(int)
        for repo, part in by_repo.items():
            w = fitted([i for other, p in by_repo.items() if other != repo for i in p], l2)
            for item in part:
                held[item[0]["set"]] += opened(w, item)
        w = fitted(data, l2)
        print(f"L2 {l2}: leave-one-repository-out {sum(held.values())} {dict(held)}, "
              f"in-sample {sum(opened(w, item) for item in data)}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect")
    c.add_argument("datasets", type=Path, nargs="+")
    c.add_argument("--out", type=Path, required=True)
    f = sub.add_parser("fit")
    f.add_argument("candidates", type=Path)
    f.add_argument("--exclude-set", action="append", default=[])
    lr = sub.add_parser("learn")
    lr.add_argument("candidates", type=Path)
    args = parser.parse_args()
    if args.command == "collect":
        collect(args.datasets, args.out)
    elif args.command == "learn":
        learn(args.candidates)
    else:
        fit(args.candidates, args.exclude_set)


if __name__ == "__main__":
    main()
