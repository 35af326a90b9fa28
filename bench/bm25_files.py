#!/usr/bin/env python3
"""File-level BM25 reference for a dev set whose lines carry `framework` (newcomer_dev.jsonl and the like).

Same setup as `../shared/eval/bm25_baseline.py`: one document per file, text = repo-relative path + "\\n" + contents,
English stop words, Snowball stemming, bm25s "lucene" scoring with k1=0.9, b=0.4; SWE-bench's `is_test` rule drops
test files. The corpus is each app's own source extensions, chosen by the line's `framework` (FRAMEWORK_EXTS; *.min.js
is skipped). Prints Acc@1/5/10 and MRR@10 per repository and pooled, with counts, and the gold files that fell
outside the corpus.

Usage: python bench/bm25_files.py --data bench/data/newcomer_dev.jsonl --trees /work/evaldata/trees [--per-instance OUT]
Requires bm25s and PyStemmer.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re

import bm25s
import Stemmer

FRAMEWORK_EXTS = {
    "rails": (".rb", ".rake"),
    "django": (".py",),
    "flask": (".py",),
    "fastapi": (".py",),
    "express": (".js", ".mjs", ".cjs", ".ts"),
    "nestjs": (".ts", ".js"),
    "laravel": (".php",),
    "spring-boot": (".java", ".kt", ".ts"),
    "phoenix": (".ex", ".exs"),
    "echo": (".go",),
    "net/http": (".go",),
}
LANGUAGE_EXTS = {  # for lines whose framework is not a web framework above (newcomer_dev2: CLIs, libraries, apps)
    "c": (".c", ".h"),
    "cpp": (".cc", ".cpp", ".cxx", ".hpp", ".hh", ".h"),
    "go": (".go",),
    "rust": (".rs",),
    "haskell": (".hs",),
    "typescript": (".ts", ".tsx"),
    "javascript": (".js", ".mjs", ".cjs"),
    "java": (".java",),
    "php": (".php",),
    "ruby": (".rb", ".rake"),
    "elixir": (".ex", ".exs"),
    "python": (".py",),
}
SKIP_DIRS = {".git", "node_modules", "vendor", "__pycache__", "dist", "build", "target"}
KS = (1, 5, 10)


def is_test(rel: str) -> bool:
    return any(w in ("test", "tests", "testing") for w in re.split(r" |_|/|\.", rel.lower()))


def corpus(tree: str, exts: tuple[str, ...]) -> tuple[list[str], list[str]]:
    paths, texts = [], []
    for dirpath, dirnames, filenames in os.walk(tree):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
        for name in sorted(filenames):
            full = os.path.join(dirpath, name)
            if not name.endswith(exts) or name.endswith(".min.js") or os.path.islink(full):
                continue
            rel = os.path.relpath(full, tree).replace(os.sep, "/")
            if is_test(rel):
                continue
            with open(full, "rb") as f:
                texts.append(rel + "\n" + f.read().decode("utf-8", errors="replace"))
            paths.append(rel)
    return paths, texts


def corpus_extensions(row: dict, rows: list[dict]) -> tuple[str, ...]:
    """The framework's extensions (else the language's), plus any other extension a gold file of that tree has."""
    own = FRAMEWORK_EXTS.get(row["framework"]) or LANGUAGE_EXTS[row["language"]]
    gold = {os.path.splitext(p)[1] for r in rows if r["tree"] == row["tree"] for p in r["gold_files"]}
    return tuple(sorted(set(own) | gold))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True)
    ap.add_argument("--trees", default="/work/evaldata/trees")
    ap.add_argument("--per-instance")
    ap.add_argument("--k1", type=float, default=0.9)
    ap.add_argument("--b", type=float, default=0.4)
    args = ap.parse_args()
    with open(args.data) as f:
        rows = [json.loads(line) for line in f if line.strip()]
    stemmer = Stemmer.Stemmer("english")
    by_tree = collections.defaultdict(list)
    for row in rows:
        by_tree[(row["tree"], corpus_extensions(row, rows))].append(row)
    results = []
    for (tree, exts), members in by_tree.items():
        paths, texts = corpus(os.path.join(args.trees, tree), exts)
        retriever = bm25s.BM25(k1=args.k1, b=args.b)
        retriever.index(
            bm25s.tokenize(texts, stopwords="en", stemmer=stemmer, show_progress=False), show_progress=False
        )
        indexed = set(paths)
        for row in members:
            query = bm25s.tokenize([row["problem_statement"]], stopwords="en", stemmer=stemmer, show_progress=False)
            docs, _ = retriever.retrieve(query, k=min(50, len(paths)), show_progress=False, n_threads=1)
            ranked = [paths[i] for i in docs[0].tolist()]
            gold = set(row["gold_files"])
            rank = next((i + 1 for i, p in enumerate(ranked) if p in gold), None)
            results.append(
                {
                    "instance_id": row["instance_id"],
                    "repo": row["repo"],
                    "n_docs": len(paths),
                    "first_gold_rank": rank,
                    "gold_not_indexed": sorted(gold - indexed),
                    "top5": ranked[:5],
                }
            )
    if args.per_instance:
        with open(args.per_instance, "w") as f:
            f.writelines(json.dumps(r) + "\n" for r in results)
    groups = collections.defaultdict(list)
    for r in results:
        groups[r["repo"]].append(r)
    print(f"BM25 k1={args.k1} b={args.b}, file level, own source extensions per framework")
    print(f"{'repo':34s} {'n':>4s} {'docs':>6s} " + " ".join(f"{f'Acc@{k}':>12s}" for k in KS) + f" {'MRR@10':>7s}")

    def line(name: str, rs: list[dict], docs: str) -> str:
        cells = []
        for k in KS:
            hit = sum(1 for r in rs if r["first_gold_rank"] and r["first_gold_rank"] <= k)
            cells.append(f"{100 * hit / len(rs):5.1f} ({hit:3d})")
        mrr = 100 * sum(1 / r["first_gold_rank"] for r in rs if r["first_gold_rank"] and r["first_gold_rank"] <= 10)
        return f"{name:34s} {len(rs):4d} {docs:>6s} " + " ".join(f"{c:>12s}" for c in cells) + f" {mrr / len(rs):7.1f}"

    for repo in sorted(groups):
        print(line(repo, groups[repo], str(groups[repo][0]["n_docs"])))
    print(line("pooled", results, "-"))
    missing = sorted({(r["instance_id"], g) for r in results for g in r["gold_not_indexed"]})
    for iid, g in missing:
        print(f"gold file outside the corpus: {iid} {g}")


if __name__ == "__main__":
    main()
