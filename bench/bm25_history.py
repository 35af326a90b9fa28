#!/usr/bin/env python3
"""File-level BM25 reference for the history dev sets, reported per language group and per repository.

Same setup as /work/shared/eval/bm25_baseline.py (SWE-bench's `file_name_and_contents`): one document per file,
text = repo-relative path + "\\n" + contents, bm25s "lucene" BM25 with k1=0.9 b=0.4, English stop words and
the Snowball English stemmer, the problem_statement as the query. The corpus of a tree is the files with the
repository's indexed extensions from the manifest (for the shell group also extensionless files whose first line
is a shell shebang, the rule of mine_history.py), minus test files by SWE-bench's rule, symlinks and VCS folders.
Each tree is indexed once and all its instances are queried against it.

  python3 bench/bm25_history.py bench/data/history/*.jsonl --trees /work/evaldata/trees \\
      --out /tmp/bm25.md --per-instance /tmp/bm25.jsonl

Requires bm25s and PyStemmer (in the project's test extras).
"""

import argparse
import collections
import json
import os
import sys

import bm25s
import Stemmer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mine_history import LANGUAGES, SHELL_FIRST_LINE, has_extension, is_test  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
# VCS folders, and the dependency/build/tool folders codeqa's scanner skips (codeqa/scan/walk.py VENDORED_DIRS),
# so that the reference searches the files codeqa indexes.
SKIP_DIRS = {
    ".git", ".hg", ".svn", ".bzr", "_darcs", ".jj", "CVS",
    "node_modules", "vendor", "third_party", "bower_components", "dist", "build", "out", "target",
    ".venv", "venv", "__pycache__", ".tox", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".next",
    ".nuxt", "coverage", "site-packages", ".idea", ".vscode", ".gradle", ".terraform",
}  # fmt: skip
K1, B = 0.9, 0.4
KS = (1, 5, 10)
COLS = ["Acc@1", "Acc@5", "Acc@10", "MRR@10"]


def corpus(tree, exts, shell):
    paths = []
    for dirpath, dirnames, filenames in os.walk(tree):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.endswith(".egg-info"))
        for fn in sorted(filenames):
            full = os.path.join(dirpath, fn)
            if os.path.islink(full):
                continue
            rel = os.path.relpath(full, tree).replace(os.sep, "/")
            if fn.lower().endswith(exts):
                pass
            elif shell and not has_extension(rel):
                with open(full, "rb") as f:
                    if not SHELL_FIRST_LINE.match(f.read(200).split(b"\n", 1)[0]):
                        continue
            else:
                continue
            if not is_test(rel):
                paths.append(rel)
    texts = []
    for rel in paths:
        with open(os.path.join(tree, rel), "rb") as f:
            texts.append(rel + "\n" + f.read().decode("utf-8", errors="replace"))
    return paths, texts


def score(ranked, gold):
    gold = set(gold)
    m = {f"Acc@{k}": float(bool(set(ranked[:k]) & gold)) for k in KS}
    m["MRR@10"] = next((1.0 / (i + 1) for i, p in enumerate(ranked[:10]) if p in gold), 0.0)
    return m


def table(rows, key, title):
    groups = collections.defaultdict(list)
    for r in rows:
        groups[key(r)].append(r)
    out = [f"| {title} | n | " + " | ".join(COLS) + " |", "|---|---|" + "---|" * len(COLS)]
    for g in sorted(groups):
        rs = groups[g]
        vals = [100.0 * sum(r["metrics"][c] for r in rs) / len(rs) for c in COLS]
        out.append(f"| {g} | {len(rs)} | " + " | ".join(f"{v:.1f}" for v in vals) + " |")
    vals = [100.0 * sum(r["metrics"][c] for r in rows) / len(rows) for c in COLS]
    out.append(f"| **all** | {len(rows)} | " + " | ".join(f"{v:.1f}" for v in vals) + " |")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", nargs="+", help="history JSONL files")
    ap.add_argument("--manifest", default=os.path.join(HERE, "data", "history", "repos.json"))
    ap.add_argument("--trees", default="/work/evaldata/trees")
    ap.add_argument("--out", help="markdown tables (default: stdout)")
    ap.add_argument("--per-instance", help="per-instance rankings (JSONL)")
    args = ap.parse_args()

    with open(args.manifest) as f:
        manifest = {e["repo"]: e for e in json.load(f)}
    stemmer = Stemmer.Stemmer("english")
    rows = []
    for path in args.data:
        with open(path) as f:
            insts = [json.loads(line) for line in f if line.strip()]
        by_tree = collections.defaultdict(list)
        for inst in insts:
            by_tree[inst["tree"]].append(inst)
        for tree_rel, group in sorted(by_tree.items()):
            entry = manifest[group[0]["repo"]]
            language = entry["language"]
            exts = tuple(e.lower() for e in entry["exts"].split(",")) if entry.get("exts") else LANGUAGES[language]
            paths, texts = corpus(os.path.join(args.trees, tree_rel), exts, language == "shell")
            retriever = bm25s.BM25(k1=K1, b=B)
            tokens = bm25s.tokenize(texts, stopwords="en", stemmer=stemmer, show_progress=False)
            retriever.index(tokens, show_progress=False)
            for inst in group:
                q = bm25s.tokenize([inst["problem_statement"]], stopwords="en", stemmer=stemmer, show_progress=False)
                if not q.vocab:
                    ranked = []
                else:
                    docs, _ = retriever.retrieve(q, k=min(50, len(paths)), show_progress=False, n_threads=1)
                    ranked = [paths[i] for i in docs[0].tolist()]
                rows.append(
                    {
                        "instance_id": inst["instance_id"],
                        "repo": inst["repo"],
                        "language": inst.get("language", language),
                        "kind": entry.get("kind", ""),
                        "n_docs": len(paths),
                        "gold_not_indexed": [g for g in inst["gold_files"] if g not in set(paths)],
                        "top10": ranked[:10],
                        "metrics": score(ranked, inst["gold_files"]),
                    }
                )
        print(f"{path}: {len(insts)} instances", file=sys.stderr)

    lines = ["## BM25 per language group", ""] + table(rows, lambda r: r["language"], "language")
    lines += ["", "## BM25 per repository", ""] + table(rows, lambda r: f"{r['language']} · {r['repo']}", "repository")
    missing = sum(bool(r["gold_not_indexed"]) for r in rows)
    lines += ["", f"instances with a gold file outside the corpus: {missing}"]
    text = "\n".join(lines) + "\n"
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    if args.per_instance:
        with open(args.per_instance, "w") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")


if __name__ == "__main__":
    main()
