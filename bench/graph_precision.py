"""Precision of the symbol graph's links, checked at each use site with Jedi (Python) or TypeScript (JS/TS).

Usage: python bench/graph_precision.py TREE [TREE ...] [--checker jedi|typescript] [--sample N] [--seed S]
[--json OUT]
The check itself is ``codeqa.evaluate.graphcheck`` (``codeqa eval --answers --graph-check N`` runs it per tree and
per framework); this prints its whole result per tree, wrong links' examples included.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from codeqa.evaluate.graphcheck import checker_missing, measure


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("trees", nargs="+", type=Path)
    parser.add_argument("--sample", type=int, default=200, help="links sampled per graph (default 200)")
    parser.add_argument("--seed", type=int, default=35)
    parser.add_argument(
        "--checker",
        choices=("jedi", "typescript"),
        default="jedi",
        help="jedi: Python links; typescript: JS/TS links (needs node and the typescript package)",
    )
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    if reason := checker_missing(args.checker):
        print(reason, file=sys.stderr)
        return 2
    results = [measure(tree, args.sample, args.seed, args.checker) for tree in args.trees]
    for result in results:
        print(json.dumps(result, indent=1))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
