#!/usr/bin/env python3
"""Dense retrieval alone, per embedding model and language group: how well each model's vectors find the gold files.

Each question's tree is scanned and chunked as codeqa indexes it (``scan_repository``, ``chunk_file``); every
chunk's ``document_text`` is embedded by each model; a file scores its best chunk's cosine with the question, and
files are ranked by that score alone: no BM25, symbols or ranker, but secondary roles (tests, docs, examples, ...)
after source files unless the question asks for them, as codeqa does (``--no-tiers``: not even that). Reported:
Acc@1/5/10 and MRR@10 (codeqa's ``score``) per language group (the language of most of the question's gold files),
per data file and pooled, with counts, and embedding speed. Chunks are cached by file content and vectors by text
(``--cache`` keeps both between runs), so trees of one repository at several commits cost little more than one.

  python bench/dense_bench.py --data bench/data/howto_dev.jsonl --trees /work/evaldata/trees \\
      --model static:code --model static:/path/to/candidate [--json OUT.json]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pickle
import time
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

from codeqa.chunk import chunk_file
from codeqa.config import Settings
from codeqa.embed import StaticEmbedder, document_text, static_model_dir
from codeqa.errors import CodeqaError
from codeqa.evaluate.metrics import score
from codeqa.languages import detect_language
from codeqa.retrieve.roles import SECONDARY, role_of, roles_asked_for
from codeqa.scan import scan_repository

KEYS = ("acc@1", "acc@5", "acc@10", "mrr@10")
GROUPS = {"tsx": "typescript", "vue": "javascript", "svelte": "javascript", "erb": "ruby", "haml": "ruby"}


def language_group(gold: list[str]) -> str:
    languages = Counter(GROUPS.get(lang, lang) for lang in (detect_language(p) for p in gold) if lang)
    return languages.most_common(1)[0][0] if languages else "other"


def load(paths: list[Path], per_repo: int | None = None) -> list[dict]:
    """Questions of the files; with ``per_repo``, only the tree of each repository with the most questions and its
    first ``per_repo`` questions (a quick multi-language sample)."""
    rows = []
    for path in paths:
        with open(path) as f:
            for line in f:
                row = json.loads(line)
                row["tree"] = row.get("tree") or f"{row['repo'].replace('/', '__')}/{row['base_commit']}"
                row["dataset"] = path.stem
                rows.append(row)
    if per_repo:
        best = {}
        for repo in {r["repo"] for r in rows}:
            trees = Counter(r["tree"] for r in rows if r["repo"] == repo)
            best[repo] = max(trees, key=lambda t: (trees[t], t))
        kept: Counter = Counter()
        rows = [
            r
            for r in rows
            if r["tree"] == best[r["repo"]] and (kept.update([r["repo"]]) or kept[r["repo"]] <= per_repo)
        ]
    return rows


class Corpus:
    """Chunks of every tree (cached by file content) and their vectors per model (cached by text)."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.chunks: dict[str, list[tuple[str, str]]] = {}  # file content hash -> [(path, document text)]
        self.vectors: dict[str, dict[str, np.ndarray]] = defaultdict(dict)  # model -> text hash -> vector
        self.embed_seconds: Counter = Counter()
        self.embedded: Counter = Counter()

    def tree_texts(self, root: Path) -> list[tuple[str, str]]:
        out = []
        for file in scan_repository(root, self.settings).files:
            key = hashlib.sha1(f"{file.path}\0{file.text}".encode()).hexdigest()
            if key not in self.chunks:
                self.chunks[key] = [(c.path, document_text(c)) for c in chunk_file(file, self.settings)]
            out.extend(self.chunks[key])
        return out

    def embed(self, model: str, embedder: StaticEmbedder, texts: list[str]) -> np.ndarray:
        cache = self.vectors[model]
        keys = [hashlib.sha1(t.encode()).hexdigest() for t in texts]
        todo = sorted({k: t for k, t in zip(keys, texts, strict=True) if k not in cache}.items())
        start = time.perf_counter()
        for s in range(0, len(todo), 256):
            batch = todo[s : s + 256]
            for (key, _), vector in zip(batch, embedder.embed_documents([t for _, t in batch]), strict=True):
                cache[key] = vector.astype(np.float16)
        self.embed_seconds[model] += time.perf_counter() - start
        self.embedded[model] += len(todo)
        return np.stack([cache[k] for k in keys]).astype(np.float32) if keys else np.zeros((0, embedder.dimension))


def model_hash(model: str, settings: Settings) -> str:
    """Identity of a static model's weights, for the vector cache."""
    weights = static_model_dir(model, settings.derived_models_dir) / "model.safetensors"
    return hashlib.sha1(weights.read_bytes()).hexdigest()[:16]


def load_cache(corpus: Corpus, cache: Path, hashes: dict[str, str]) -> None:
    if (cache / "chunks.pkl").exists():
        corpus.chunks = pickle.loads((cache / "chunks.pkl").read_bytes())
    for model, digest in hashes.items():
        if (cache / f"vectors-{digest}.pkl").exists():
            corpus.vectors[model] = pickle.loads((cache / f"vectors-{digest}.pkl").read_bytes())


def save_cache(corpus: Corpus, cache: Path, hashes: dict[str, str]) -> None:
    cache.mkdir(parents=True, exist_ok=True)
    (cache / "chunks.pkl").write_bytes(pickle.dumps(corpus.chunks))
    for model, digest in hashes.items():
        (cache / f"vectors-{digest}.pkl").write_bytes(pickle.dumps(corpus.vectors[model]))


def rank_files(paths: list[str], vectors: np.ndarray, query: np.ndarray, question: str, tiers: bool) -> list[str]:
    """Files by their best chunk's similarity; with ``tiers``, secondary files (tests, docs, examples, ...) after
    the others unless the question asks for that role, as codeqa ranks."""
    best: dict[str, float] = {}
    for path, sim in zip(paths, vectors @ query, strict=True):
        if sim > best.get(path, -2.0):
            best[path] = float(sim)
    asked = roles_asked_for(question) if tiers else frozenset()

    def tier(path: str) -> int:
        role = role_of(path)
        return int(tiers and role in SECONDARY and role not in asked)

    return sorted(best, key=lambda p: (tier(p), -best[p], p))


def table(results: dict[str, list[dict]], models: list[str]) -> str:
    """Acc@1 / @5 / @10 (MRR@10) per group, one column per model, with counts."""
    lines = ["| group | n | " + " | ".join(models) + " |", "|---|---|" + "---|" * len(models)]
    groups = sorted({r["group"] for r in results[models[0]]})
    keys = [(f"[{g}]", lambda r, g=g: r["group"] == g) for g in groups]
    keys += [(f"{{{d}}}", lambda r, d=d: r["dataset"] == d) for d in sorted({r["dataset"] for r in results[models[0]]})]
    for name, keep in [("all", lambda r: True), *keys]:
        cells = []
        for model in models:
            rows = [r for r in results[model] if keep(r)]
            m = {k: 100 * sum(r["metrics"][k] for r in rows) / len(rows) for k in KEYS}
            hits = sum(r["metrics"]["acc@1"] for r in rows)
            cells.append(f"{m['acc@1']:.1f} ({hits:.0f}) / {m['acc@5']:.1f} / {m['acc@10']:.1f} ({m['mrr@10']:.1f})")
        lines.append(f"| {name} | {len(rows)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, nargs="+", required=True, help="JSONL question files")
    parser.add_argument("--trees", type=Path, required=True, help="folder of <owner>__<name>/<commit>/ trees")
    parser.add_argument("--model", action="append", required=True, help="static:code, static:/a/model2vec/folder")
    parser.add_argument("--per-repo", type=int, help="one tree per repository, its first N questions")
    parser.add_argument("--tiers", action=argparse.BooleanOptionalAction, default=True, help="role tiering")
    parser.add_argument("--cache", type=Path, help="keep chunks and vectors here between runs (not for timing)")
    parser.add_argument("--json", type=Path, help="write per-question ranks and the summary here")
    args = parser.parse_args()
    settings = Settings()
    embedders = {m: StaticEmbedder(m, settings.derived_models_dir) for m in args.model}
    rows = load(args.data, args.per_repo)
    corpus, results = Corpus(settings), {m: [] for m in args.model}
    hashes = {m: model_hash(m, settings) for m in args.model}
    if args.cache:
        load_cache(corpus, args.cache, hashes)
    by_tree = defaultdict(list)
    for row in rows:
        by_tree[row["tree"]].append(row)
    for n, (tree, members) in enumerate(sorted(by_tree.items()), start=1):
        root = args.trees / tree
        if not (args.trees / f"{tree}.done").exists():
            print(f"skipping {tree}: not materialized (no .done marker)", flush=True)
            continue
        try:
            texts = corpus.tree_texts(root)
        except CodeqaError as exc:  # a tree over the scan limits
            print(f"skipping {tree}: {exc}", flush=True)
            continue
        paths = [p for p, _ in texts]
        for model, embedder in embedders.items():
            vectors = corpus.embed(model, embedder, [t for _, t in texts])
            for row in members:
                question = row["problem_statement"]
                ranked = rank_files(paths, vectors, embedder.embed_query(question), question, args.tiers)
                metrics = score(ranked, row["gold_files"])
                results[model].append({"instance_id": row["instance_id"], "repo": row["repo"],
                                       "dataset": row["dataset"], "group": language_group(row["gold_files"]),
                                       "rank_top": ranked[:10], "metrics": metrics})  # fmt: skip
        print(f"{n}/{len(by_tree)} {tree}: {len(texts)} chunks", flush=True)
    if args.cache:
        save_cache(corpus, args.cache, hashes)
    print(table(results, args.model))
    for model in args.model:
        rate = corpus.embedded[model] / max(corpus.embed_seconds[model], 1e-9)
        print(f"{model}: embedded {corpus.embedded[model]} chunks in {corpus.embed_seconds[model]:.1f}s ({rate:.0f}/s)")
    if args.json:
        speed = {m: {"chunks": corpus.embedded[m], "seconds": round(corpus.embed_seconds[m], 2)} for m in args.model}
        args.json.write_text(json.dumps({"results": results, "embedding": speed}, indent=1))


if __name__ == "__main__":
    main()
