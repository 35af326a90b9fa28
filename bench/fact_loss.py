"""Where each key fact of an answers eval is lost: shown, in a cited span but not shown, in a cited file but another
span, or in a file the answer never cites.

    python bench/fact_loss.py DATASET.jsonl EVAL.json ANSWERS_DIR [-v]

EVAL.json and ANSWERS_DIR come from ``codeqa eval --answers --json EVAL.json --answers-dir ANSWERS_DIR``; ``-v`` lists
every fact not shown with its place.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter, defaultdict
from pathlib import Path

PLACES = ("shown", "span-not-shown", "file-cited", "file-missing")


def place(fact: str, location: str, answer: str, shown: set[str]) -> str:
    path, line = location.rsplit(":", 1)
    spans = [(int(a), int(b or a)) for a, b in re.findall(re.escape(path) + r":(\d+)(?:-(\d+))?", answer)]
    if fact in shown:
        return "shown"
    if any(start <= int(line) <= end for start, end in spans):
        return "span-not-shown"
    return "file-cited" if path in answer else "file-missing"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dataset", type=Path)
    parser.add_argument("eval_json", type=Path)
    parser.add_argument("answers_dir", type=Path)
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    questions = [json.loads(line) for line in args.dataset.read_text().splitlines() if line.strip()]
    results = {i["instance_id"]: i for i in json.loads(args.eval_json.read_text())["instances"]}
    total: Counter[str] = Counter()
    per_repo: dict[str, Counter[str]] = defaultdict(Counter)
    for question in questions:
        result = results.get(question["instance_id"])
        if result is None:
            continue
        answer = (args.answers_dir / f"{question['instance_id']}.md").read_text()
        for fact, location in question.get("key_fact_lines", {}).items():
            where = place(fact, location, answer, set(result["shown"]))
            total[where] += 1
            per_repo[question["repo"]][where] += 1
            if args.verbose and where != "shown":
                print(f"{where:15s} {question['instance_id']} {location} {fact[:70]}")
    print(" · ".join(f"{name} {total[name]}" for name in PLACES))
    for repo, counts in sorted(per_repo.items()):
        print(f"  {repo}: " + " · ".join(f"{name} {counts[name]}" for name in PLACES))


if __name__ == "__main__":
    main()
