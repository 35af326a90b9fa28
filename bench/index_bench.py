"""Index a directory and report throughput: files, lines, chunks, seconds per stage, chunks/s, peak RSS.

Usage: python bench/index_bench.py PATH [--home DIR] [--name NAME] [--repeat]
`--repeat` indexes twice to show the cost of an unchanged re-index (embedding cache).
Runs against a throw-away CODEQA_HOME unless --home is given. Peak RSS counts the index worker process too (a large
write chunks and embeds in a forked worker beside the store's writes): this process's peak plus the worker's.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

from codeqa.config import Settings
from codeqa.embed import get_embedder
from codeqa.index import Index


def peak_rss_mb() -> dict[str, float]:
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    worker = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return {"peak_rss_mb": round(own + worker, 1), "peak_rss_mb_own": round(own, 1), "peak_rss_mb_worker": worker}


def run_once(path: str, settings: Settings, name: str) -> dict:
    started = time.perf_counter()
    report = Index.build(path, settings, name=name).report
    wall = time.perf_counter() - started
    assert report is not None
    return {
        "files": report.files,
        "lines": report.lines,
        "chunks": report.chunks,
        "embedded": report.embedded,
        "timings": report.timings,
        "wall_seconds": round(wall, 2),
        "chunks_per_second": round(report.chunks / wall, 1),
        "embedded_per_embed_second": round(report.embedded / max(report.timings["embed"], 1e-9), 1),
        "lines_per_second": round(report.lines / wall, 1),
        **peak_rss_mb(),
        "skipped": report.skipped,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("path")
    parser.add_argument("--home", type=Path)
    parser.add_argument("--name", default="bench")
    parser.add_argument("--repeat", action="store_true", help="index a second time (cache hits)")
    args = parser.parse_args()
    home = args.home or Path(tempfile.mkdtemp(prefix="codeqa-bench-"))
    settings = Settings(home=home)
    started = time.perf_counter()
    get_embedder(settings)
    print(f"model load {time.perf_counter() - started:.1f}s  (home {home})", file=sys.stderr)
    results = [run_once(args.path, settings, args.name)]
    if args.repeat:
        results.append(run_once(args.path, settings, args.name))
    for label, result in zip(("first", "repeat"), results, strict=False):
        print(f"{label}: " + json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
