"""File-level BM25 beside ``codeqa eval``: one document per file (path + contents), in ``bm25_baseline.py``'s style.

    python bench/bm25_by_language.py --dataset FILE.jsonl [--dataset ...] --trees DIR [--json OUT]

Per tree, the corpus is every non-test file (SWE-bench's rule) whose extension is one of the dataset's gold
files' extensions in that repository (``.py`` for a Python library, ``.go .html .js`` for a Go web app) — the
"indexed extensions" of ``bench/data/history/README.md``. Lucene BM25 (k1=0.9, b=0.4), English stopwords,
Snowball stems (``bm25s``). Reports Acc@1/5/10 (counts) and MRR@10 overall, per dataset and per language (the
instance's ``language`` field, else the tree's most common extension among those).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

import bm25s
import Stemmer

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from codeqa.languages import detect_language  # noqa: E402

SKIP = {".git", ".hg", ".svn", "__pycache__", "node_modules"}


def is_test(rel: str) -> bool:
    return any(w in ("test", "tests", "testing") for w in re.split(r" |_|/|\.", rel.lower()))


def corpus(tree: Path, exts: tuple[str, ...]) -> list[str]:
    paths = []
    for dirpath, dirnames, filenames in os.walk(tree):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP)
        for name in sorted(filenames):
            full = os.path.join(dirpath, name)
            rel = os.path.relpath(full, tree).replace(os.sep, "/")
            if name.endswith(exts) and not os.path.islink(full) and not is_test(rel):
                paths.append(rel)
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dataset", action="append", type=Path, required=True)
    parser.add_argument("--trees", type=Path, required=True)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--languages", type=Path, help="a codeqa eval --json output: report its languages")
    args = parser.parse_args()
    known = {}
    if args.languages:
        known = {i["instance_id"]: i.get("language", "") for i in json.loads(args.languages.read_text())["instances"]}
    stemmer = Stemmer.Stemmer("english")
    rows = []
    for dataset in args.dataset:
        lines = [json.loads(line) for line in dataset.read_text().splitlines() if line.strip()]
        exts_of: dict[str, set[str]] = defaultdict(set)
        for row in lines:
            exts_of[row["repo"]].update(os.path.splitext(g)[1] for g in row["gold_files"] if os.path.splitext(g)[1])
        by_tree: dict[str, list[dict]] = defaultdict(list)
        for row in lines:
            by_tree[row.get("tree") or f"{row['repo'].replace('/', '__')}/{row['base_commit']}"].append(row)
        for tree_name, members in by_tree.items():
            exts = tuple(sorted(exts_of[members[0]["repo"]]))
            tree = args.trees / tree_name
            paths = corpus(tree, exts)
            texts = [p + "\n" + (tree / p).read_bytes().decode("utf-8", errors="replace") for p in paths]
            retriever = bm25s.BM25(k1=0.9, b=0.4)
            retriever.index(
                bm25s.tokenize(texts, stopwords="en", stemmer=stemmer, show_progress=False), show_progress=False
            )
            dominant = Counter(os.path.splitext(p)[1] for p in paths).most_common(1)[0][0] if paths else ""
            for row in members:
                query = bm25s.tokenize([row["problem_statement"]], stopwords="en", stemmer=stemmer, show_progress=False)
                docs, _ = retriever.retrieve(query, k=min(10, len(paths)), show_progress=False, n_threads=1)
                ranked = [paths[i] for i in docs[0].tolist()]
                gold = set(row["gold_files"])
                rank = next((i + 1 for i, p in enumerate(ranked) if p in gold), None)
                language = (
                    row.get("language") or known.get(row["instance_id"]) or detect_language("x" + dominant) or dominant
                )
                rows.append({"instance_id": row["instance_id"], "dataset": dataset.stem, "repo": row["repo"],
                             "language": language, "rank": rank})  # fmt: skip
            print(f"{tree_name}: {len(paths)} files ({' '.join(exts)})", file=sys.stderr, flush=True)
    groups: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        groups["overall"].append(row)
        groups[f"[{row['dataset']}]"].append(row)
        groups[f"<{row['language']}>"].append(row)
    print(f"{'group':<36} {'n':>4}  {'Acc@1':>11} {'Acc@5':>11} {'Acc@10':>11} {'MRR@10':>7}")
    for name in sorted(groups, key=lambda g: (g != "overall", g[:1] != "[", g)):
        members = groups[name]
        n = len(members)
        cells = []
        for k in (1, 5, 10):
            hits = sum(1 for r in members if r["rank"] is not None and r["rank"] <= k)
            cells.append(f"{100 * hits / n:5.1f} ({hits:3d})")
        mrr = 100 * sum(1 / r["rank"] for r in members if r["rank"]) / n
        print(f"{name:<36} {n:>4}  {' '.join(cells)} {mrr:7.1f}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
