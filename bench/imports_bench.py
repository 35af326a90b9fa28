"""The Overview's import graph of a repository, as indexing makes it: files with imports, file and module edges.

Usage: python bench/imports_bench.py TREE [TREE ...] [--depth N ...] [--json OUT]
Scans and chunks each tree (no embedding, no store) and builds the overview the way the index does: from the
tags stored at index time (``chunk_and_tag`` + resolution) when this codeqa has them, else from the chunks'
texts (the regex importers of older versions) — so the same script measures before and after.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

import codeqa.chunk as chunking
from codeqa.config import Settings
from codeqa.explore.imports import module_graph
from codeqa.explore.overview import build_overview
from codeqa.scan import scan_repository


def measure(tree: Path, depths: list[int], edges: dict[str, dict[str, list[str]]]) -> dict:
    settings = Settings()
    scan = scan_repository(tree, settings)
    started = time.perf_counter()
    chunks, tags = [], []
    for file in scan.files:
        if hasattr(chunking, "chunk_and_tag"):
            found, file_tags = chunking.chunk_and_tag(file, settings)
            tags.append(file_tags)
        else:
            found = chunking.chunk_file(file, settings)
        chunks.extend(found)
    chunked = time.perf_counter() - started
    started = time.perf_counter()
    overview = build_overview(chunks, tags=tags) if tags else build_overview(chunks)
    built = time.perf_counter() - started
    lines = {f.path: f.lines for f in overview.file_stats}
    edges[str(tree)] = {path: list(targets) for path, targets in overview.file_imports.items()}
    by_language = Counter()
    for path, targets in overview.file_imports.items():
        by_language[next(c.language for c in chunks if c.path == path)] += len(targets)
    result = {
        "tree": tree.parent.name if len(tree.name) == 40 else tree.name,
        "files": len(scan.files),
        "files_with_imports": len(overview.file_imports),
        "file_edges": sum(len(t) for t in overview.file_imports.values()),
        "file_edges_by_language": dict(by_language.most_common()),
        "module_edges": {d: len(module_graph(overview.file_imports, lines, d).edges) for d in depths},
        "chunk_seconds": round(chunked, 2),
        "overview_seconds": round(built, 2),
    }
    try:
        auto = overview.dependencies(None)  # folders sized to show structure (what the Overview page shows)
    except TypeError:  # codeqa before auto modules: the page showed top-level modules
        auto = overview.dependencies(1)
    result["modules_shown"] = len(auto.modules)
    result["module_edges_shown"] = len(auto.edges)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="+", type=Path)
    parser.add_argument("--depth", type=int, action="append", default=None)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--edges", type=Path, help="also write every file-level edge here (to compare two runs)")
    args = parser.parse_args(argv)
    edges: dict[str, dict[str, list[str]]] = {}
    results = [measure(tree, args.depth or [1, 2], edges) for tree in args.trees]
    if args.edges:
        args.edges.write_text(json.dumps(edges))
    for result in results:
        print(json.dumps(result))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
