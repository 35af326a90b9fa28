"""Exact-symbol questions on dev repositories: a defined class or function's name, asked three ways.

    python bench/symbol_questions.py DEV.jsonl [DEV.jsonl ...] --out FILE.jsonl [--per-tree 12] [--seed 0]

For the first snapshot of every repository in the given dev sets, the tree is scanned with codeqa's own scanner
and chunker; names defined exactly once outside tests (at least 6 characters, written like code: CamelCase or
snake_case) are sampled, and each becomes seven questions — five short ones (``Name``, ``Where is Name
defined?``, ``What does Name do?``, ``How does Name work?``, ``What is `Name` for?``) and two of 20+ words that name
it inside a longer question (``long``, ``longtick``) — whose gold file is the defining file and whose answering line
is the definition's first line; ``template`` says which. Only dev repositories: never the held-out ones.
Deterministic for a seed.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from codeqa.chunk import chunk_file  # noqa: E402
from codeqa.config import get_settings  # noqa: E402
from codeqa.evaluate.data import is_test, load_dataset  # noqa: E402
from codeqa.scan import scan_repository  # noqa: E402
from codeqa.symbols import qualified_names, short_name  # noqa: E402

CODE_NAME = re.compile(r"^(?:[A-Z][a-z0-9]+[A-Z]\w*|[a-z][a-z0-9]*_[a-z0-9_]+|[A-Z][a-z]+[A-Z]?\w*)$")
TEMPLATES = {
    "bare": "{name}",
    "where": "Where is {name} defined?",
    "what": "What does {name} do?",
    "how": "How does {name} work?",
    "tick": "What is `{name}` for?",
    "long": "I keep running into {name} while reading this codebase; can you explain what it is responsible for and "
    "where it is implemented?",
    "longtick": "When a request comes in, which part of the code ends up calling `{name}`, and what does that function "
    "or type actually do with its inputs?",
}


def definitions(tree: Path) -> dict[str, list[tuple[str, int, str]]]:
    """Short name → (path, first line, kind) of every definition outside tests."""
    found: dict[str, list[tuple[str, int, str]]] = defaultdict(list)
    for source in scan_repository(tree, get_settings()).files:
        if is_test(source.path):
            continue
        for chunk in chunk_file(source):
            if str(chunk.kind) not in ("class", "function", "method"):
                continue
            for qualified in qualified_names(chunk.symbol):
                name = short_name(qualified)
                if name:
                    found[name].append((chunk.path, chunk.start_line, str(chunk.kind)))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("datasets", nargs="+", type=Path)
    parser.add_argument("--trees", type=Path, default=Path("/work/evaldata/trees"))
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--per-tree", type=int, default=12)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    first_tree: dict[str, object] = {}
    for dataset in args.datasets:
        for instance in load_dataset(dataset):
            first_tree.setdefault(instance.repo, instance)
    lines = []
    for repo, instance in sorted(first_tree.items()):
        tree = instance.tree(args.trees)
        defined = definitions(tree)
        names = sorted(n for n, where in defined.items() if len({p for p, _, _ in where}) == 1 and len(n) >= 6
                       and CODE_NAME.match(n) and not n.startswith("test"))  # fmt: skip
        for number, name in enumerate(rng.sample(names, min(args.per_tree, len(names)))):
            path, line, kind = min(defined[name])
            for variant, (key, template) in enumerate(TEMPLATES.items()):
                question = template.format(name=name)
                lines.append({
                    "instance_id": f"symbol-{repo.replace('/', '__')}-{number:02d}-{variant}",
                    "repo": repo, "base_commit": instance.base_commit, "tree": instance.tree_path,
                    "problem_statement": question, "question": question, "gold_files": [path],
                    "key_fact_lines": {f"{kind} {name}": f"{path}:{line}"}, "source_split": "symbol-dev",
                    "template": key,
                })  # fmt: skip
        print(f"{repo}: {len(names)} unique names", file=sys.stderr)
    args.out.write_text("".join(json.dumps(line) + "\n" for line in lines))
    print(f"wrote {len(lines)} questions to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
