"""How long the inputs built to be slow take: the seconds the unit tests used to bound with a wall clock.

Usage: python bench/hostile_speeds.py [--repeat N] [--json OUT]
The unit tests now check how the work grows (8 times the input costs about 8 times: ``tests.helpers.growth``) or
count the work (one parse per file, one glob pattern tried once per file). How fast each one is, is measured here:
the best of ``--repeat`` runs, wall and CPU seconds, each with the size the tests used.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's codeqa (and its tests' fixtures), not an installed one

from codeqa.answer.explanation.code.keylines import action_score, sets_a_number  # noqa: E402
from codeqa.answer.llm.redact import redact_secrets  # noqa: E402
from codeqa.answer.rendering.injection import instruction_like  # noqa: E402
from codeqa.chunk import chunk_file  # noqa: E402
from codeqa.errors import SourceError  # noqa: E402
from codeqa.explore.clusters import words  # noqa: E402
from codeqa.records import SourceFile  # noqa: E402
from codeqa.retrieve import Filters  # noqa: E402
from codeqa.retrieve.query import CODE_LIKE, FILE_LIKE, _identifiers, qualified_names, query_identifiers  # noqa: E402
from codeqa.source import parse_source  # noqa: E402


def best_of(work: Callable[[], object], repeat: int) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of the fastest of ``repeat`` runs."""
    runs = []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        work()
        runs.append((time.perf_counter() - wall, time.process_time() - cpu))
    return min(runs)


def parse_question(question: str) -> None:
    _identifiers.cache_clear()  # parsed once per question: each run is a first time
    CODE_LIKE.findall(question), FILE_LIKE.findall(question)
    query_identifiers(question), qualified_names(question)


def refuse_host(host: str) -> None:
    with contextlib.suppress(SourceError):
        parse_source(f"https://{host}/owner/repo")


def read_line(line: str) -> None:
    action_score(line), sets_a_number(line), words("x.py", line)


def cases() -> dict[str, Callable[[], object]]:
    from tests.test_filter_limits import synthetic_table  # the table the test counts the glob tries on

    sample = (ROOT / "tests/fixtures/chunk/sample.py").read_text(encoding="utf-8") * 200
    big = SourceFile(path="pkg/big.py", language="python", text=sample, size=len(sample))
    answering = (ROOT / "codeqa/answer/answering.py").read_text(encoding="utf-8").split("\n")
    chunks = ["\n".join(answering[start : start + 40]) for start in range(0, 280, 40)]
    globs = tuple([f"pkg{n}/**/*.py" for n in range(10)] + [f"*{n}*test*" for n in range(10)])
    globs += tuple(f"pkg{n}/sub3/*_1?.py" for n in range(30))
    table = synthetic_table()  # 25,000 rows over 21,000 distinct paths
    orders = (globs[turn:] + globs[:turn] for turn in itertools.count())  # a new order each run: masks are cached
    found: dict[str, Callable[[], object]] = {
        "question 'File \"' + 19,994 a": lambda: parse_question('File "' + "a" * 19_994),
        "question a1 x 10,000": lambda: parse_question("a1" * 10_000),
        "question a. x 10,000": lambda: parse_question("a." * 10_000),
        "answer line a. x 20,000": lambda: read_line("a." * 20_000),
        "answer line ]( x 20,000": lambda: read_line("](" * 20_000),
        "injection check, 100k letters": lambda: instruction_like("a" * 100_000),
        "injection check, 'ignore all the previous ' x 4,200": lambda: instruction_like(
            "ignore all the previous " * 4_200
        ),
        "host a x 5,000 + '-'": lambda: refuse_host("a" * 5_000 + "-"),
        "chunk a 260 KB Python file": lambda: chunk_file(big),
        "mask secrets in 7 chunks of 40 lines": lambda: [redact_secrets(chunk) for chunk in chunks],
        "50 globs on 25,000 rows": lambda: Filters(globs=next(orders)).mask(table),
    }
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    redact_secrets("warm up"), instruction_like("warm up"), chunk_file(SourceFile("a.py", "python", "x = 1\n", 6))
    results = {}
    for name, work in cases().items():
        wall, cpu = best_of(work, args.repeat)
        results[name] = {"wall_s": round(wall, 4), "cpu_s": round(cpu, 4)}
        print(f"{name:55s} wall {wall * 1000:9.1f} ms   cpu {cpu * 1000:9.1f} ms", flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
