#!/usr/bin/env python3
"""Check an answer-level dataset (gold files + key facts) against its materialized trees.

Works on any file in the format of `bench/data/answers_dev.jsonl` / `newcomer_dev.jsonl`:
- every line has the required fields, `question == problem_statement`, ids are unique, `tree` is
  `<owner>__<name>/<base_commit>` and the tree exists under --trees (with its `.done` marker);
- every gold file exists in the tree, is not a test file (SWE-bench's `is_test` rule) and is not documentation
  (.md/.rst/.txt/.adoc, changelogs);
- 2-4 key facts per question, each at least 12 characters, each named in `key_fact_lines` as `path:line`, the path
  a gold file and the fact a verbatim substring of that line;
- every gold file hosts at least one fact;
- with --seeds: every repository has the three seed questions a newcomer asks first.
Facts that occur on more than one line of their file are listed as notes (allowed when the recorded line is the one
that answers), not as errors. Exit status 1 when there are errors.

Usage: python bench/check_answers_data.py FILE.jsonl [--trees /work/evaldata/trees] [--seeds] [--split NAME]
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
from pathlib import Path

SEEDS = (
    "How does user authentication flow through the system?",
    "What happens when an API request fails?",
    "Where would I add logging to track user behavior?",
)
REQUIRED = (
    "instance_id",
    "repo",
    "base_commit",
    "tree",
    "question",
    "problem_statement",
    "gold_files",
    "key_facts",
    "key_fact_lines",
    "category",
)
DOC_SUFFIXES = (".md", ".rst", ".txt", ".adoc")
MIN_FACT = 12


def is_test(path: str) -> bool:
    return any(w in ("test", "tests", "testing") for w in re.split(r" |_|/|\.", path.lower()))


def is_doc(path: str) -> bool:
    name = path.rsplit("/", 1)[-1].lower()
    return name.endswith(DOC_SUFFIXES) or name.startswith(("changelog", "changes", "history", "news"))


def check_row(row: dict, trees: Path, split: str | None) -> tuple[list[str], list[str]]:
    errors: list[str] = []
    notes: list[str] = []
    missing = [k for k in REQUIRED if k not in row]
    if missing:
        return [f"missing fields {missing}"], notes
    if row["question"] != row["problem_statement"]:
        errors.append("question != problem_statement")
    if split and row.get("source_split") != split:
        errors.append(f"source_split {row.get('source_split')!r} != {split!r}")
    expected_tree = f"{row['repo'].replace('/', '__')}/{row['base_commit']}"
    if row["tree"] != expected_tree:
        errors.append(f"tree {row['tree']!r} != {expected_tree!r}")
    root = trees / row["tree"]
    if not root.is_dir():
        return errors + [f"tree {root} does not exist"], notes
    if not Path(str(root) + ".done").exists():
        notes.append(f"tree {root} has no .done marker")
    gold = row["gold_files"]
    if not gold or len(set(gold)) != len(gold):
        errors.append(f"gold_files empty or repeated: {gold}")
    texts: dict[str, list[str]] = {}
    for path in gold:
        if is_test(path) or is_doc(path):
            errors.append(f"gold file is a test or doc file: {path}")
        file = root / path
        if not file.is_file():
            errors.append(f"gold file not in tree: {path}")
            continue
        texts[path] = file.read_text(encoding="utf-8", errors="replace").splitlines()
    facts = row["key_facts"]
    if not 2 <= len(facts) <= 4 or len(set(facts)) != len(facts):
        errors.append(f"{len(facts)} key facts (want 2-4, distinct)")
    if set(row["key_fact_lines"]) != set(facts):
        errors.append("key_fact_lines keys differ from key_facts")
    hosts = set()
    for fact in facts:
        if len(fact) < MIN_FACT:
            errors.append(f"fact shorter than {MIN_FACT} characters: {fact!r}")
        where = row["key_fact_lines"].get(fact, "")
        path, _, line = where.rpartition(":")
        if path not in texts or not line.isdigit():
            errors.append(f"fact {fact!r}: {where!r} is not path:line of a gold file")
            continue
        lines = texts[path]
        number = int(line)
        if not 1 <= number <= len(lines) or fact not in lines[number - 1]:
            errors.append(f"fact {fact!r} not on {where}")
            continue
        hosts.add(path)
        count = sum(fact in text for text in lines)
        if count > 1:
            notes.append(f"fact {fact!r} occurs on {count} lines of {path} (recorded {number})")
    for path in set(texts) - hosts:
        errors.append(f"gold file hosts no fact: {path}")
    return errors, notes


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data")
    ap.add_argument("--trees", default="/work/evaldata/trees")
    ap.add_argument("--seeds", action="store_true", help="require the three seed questions for every repository")
    ap.add_argument("--split", help="required source_split value")
    ap.add_argument("--quiet", action="store_true", help="do not print notes")
    args = ap.parse_args()
    with open(args.data) as f:
        rows = [json.loads(line) for line in f if line.strip()]
    trees = Path(args.trees)
    n_errors = 0
    ids = collections.Counter(r.get("instance_id") for r in rows)
    for iid, count in ids.items():
        if count > 1:
            print(f"ERROR {iid}: instance_id used {count} times")
            n_errors += 1
    for row in rows:
        errors, notes = check_row(row, trees, args.split)
        for e in errors:
            print(f"ERROR {row.get('instance_id')}: {e}")
        if not args.quiet:
            for n in notes:
                print(f"note  {row.get('instance_id')}: {n}")
        n_errors += len(errors)
    if args.seeds:
        questions = collections.defaultdict(set)
        for row in rows:
            questions[row["repo"]].add(row["question"])
        for repo, asked in sorted(questions.items()):
            for seed in SEEDS:
                if seed not in asked:
                    print(f"ERROR {repo}: seed question missing: {seed!r}")
                    n_errors += 1
    per_repo = collections.Counter(r["repo"] for r in rows)
    n_facts = sum(len(r.get("key_facts", ())) for r in rows)
    print(f"{len(rows)} questions, {n_facts} key facts, {len(per_repo)} repositories, {n_errors} errors")
    return 1 if n_errors else 0


if __name__ == "__main__":
    sys.exit(main())
