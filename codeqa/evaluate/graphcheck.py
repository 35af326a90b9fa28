"""Precision and recall of the symbol graph's links, checked at each use site with a real resolver: Jedi for Python,
the TypeScript language service for JS/TS (``evaluate.tscheck``).

Used by ``codeqa eval --answers --graph-check N`` (per tree and per framework) and ``bench/graph_precision.py``.
Needs Jedi (``pip install jedi``, in the ``train`` extra) or node with the ``typescript`` package. Scans, chunks and
tags each tree as indexing does (test files left out, as the evaluations' indexes; no embedding, no store) and builds
the symbol graph two ways: by name only (as before #35) and with each Python and JS/TS file's names resolved
(``resolve.scope.NameScope``). It samples N links between two chunks of the checker's languages in each graph and
asks the resolver (Jedi: ``goto`` with imports followed, else ``infer``; TypeScript: go to definition) where each
use of the linking name in the caller's lines goes:
- right: a use resolves to a definition whose lines overlap the callee's (a long definition is split into chunks
  that carry its name);
- wrong: the resolver resolves the uses, and none into the callee (another module's namesake, a builtin, a variable);
- unknown: it resolves none of them (an attribute of an object of unknown type, a dynamic name).
Precision = right / (right + wrong); "calls" are the links one of whose uses is followed by ``(``. For the
names-only sample it also counts how many right links the resolved graph keeps: the resolved graph's recall,
estimated against the right links a names-only graph finds (``recall``).
"""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import codeqa.chunk as chunking
from codeqa.config import Settings
from codeqa.evaluate.data import is_test
from codeqa.scan import read_source, scan_repository
from codeqa.searchfiles.graph import COMMON_NAMES, SymbolGraph
from codeqa.searchfiles.tagfile import chunk_references
from codeqa.symbols import defined_names

USES_CHECKED = 6  # uses of the linking names looked up per link
COMMENT = re.compile(r"^\s*#")


def load(tree: Path) -> tuple[list, list, list[set[str]]]:
    settings = Settings()
    chunks, tags = [], []
    for file in scan_repository(tree, settings).files:
        if is_test(file.path):
            continue
        source = read_source(tree, file.path, settings)
        if source is None:  # changed or gone since the scan
            continue
        found, file_tags = chunking.chunk_and_tag(source, settings)
        chunks.extend(found)
        tags.append(file_tags)
    return chunks, tags, chunk_references(chunks, tags)


def graphs(chunks: list, tags: list, refs: list[set[str]]) -> dict[str, SymbolGraph]:
    symbols, languages, paths = [c.symbol for c in chunks], [c.language for c in chunks], [c.path for c in chunks]
    built = {"names only": SymbolGraph.build(symbols, refs, languages, paths)}
    from codeqa.chunk.resolve import name_scopes, resolve_imports

    scopes = name_scopes(tags, resolve_imports(tags))
    lines = [(c.start_line, c.end_line) for c in chunks]
    built["resolved"] = SymbolGraph.build(symbols, refs, languages, paths, scopes, lines)
    return built


CHECKED_LANGUAGES = {"jedi": frozenset({"python"}), "typescript": frozenset({"javascript", "typescript", "tsx"})}


def checked_links(graph: SymbolGraph, chunks: list, checker: str = "jedi") -> list[tuple[int, int]]:
    """The links between two chunks of the languages ``checker`` reads (Python; JS/TS, Vue and Svelte left out)."""
    languages = CHECKED_LANGUAGES[checker]
    sources, targets = graph.matrix.nonzero()
    return sorted(
        (a, b)
        for a, b in zip(sources.tolist(), targets.tolist(), strict=True)
        if a != b and chunks[a].language in languages and chunks[b].language in languages
    )


class Checker:
    """Jedi over one tree; a file's ``Script`` is made once."""

    def __init__(self, tree: Path) -> None:
        import jedi  # type: ignore[import-untyped]

        self.jedi, self.tree = jedi, tree.resolve()
        self.project = jedi.Project(self.tree)
        self.scripts: dict[str, object] = {}

    def script(self, path: str):
        if path not in self.scripts:
            code = (self.tree / path).read_text(encoding="utf-8", errors="replace")
            self.scripts[path] = self.jedi.Script(code=code, path=self.tree / path, project=self.project)
        return self.scripts[path]

    def verdict(self, user, used, names: set[str]) -> tuple[str, bool]:
        """("right" | "wrong" | "unknown", whether a use is a call) for the link ``user`` → ``used``."""
        pattern = re.compile(rf"(?<![\w.])(?:\w+\.)*({'|'.join(map(re.escape, sorted(names)))})(?!\w)(\s*\()?")
        uses = []
        for offset, line in enumerate(user.text.split("\n")):
            if COMMENT.match(line):
                continue
            uses += [(user.start_line + offset, m.start(1), bool(m.group(2))) for m in pattern.finditer(line)]
        script, resolved, call = self.script(user.path), False, any(c for _, _, c in uses)
        target = (self.tree / used.path).resolve()
        for line, column, _ in uses[:USES_CHECKED]:
            try:
                found = script.goto(line, column, follow_imports=True) or script.infer(line, column)
            except Exception:  # noqa: BLE001 - Jedi fails on some syntax; the use stays unknown
                continue
            for definition in found:
                if definition.module_path is None or definition.line is None:
                    continue
                resolved = True
                start = (definition.get_definition_start_position() or (definition.line, 0))[0]
                end = (definition.get_definition_end_position() or (definition.line, 0))[0]
                overlaps = start <= used.end_line and used.start_line <= end  # a piece of a long definition counts
                if Path(definition.module_path).resolve() == target and overlaps:
                    return "right", call
        return ("wrong" if resolved else "unknown"), call


def checker_missing(checker: str) -> str | None:
    """Why ``checker`` ("jedi" or "typescript") cannot run here, or None."""
    if checker == "typescript":
        from codeqa.evaluate.tscheck import typescript_missing

        return typescript_missing()
    return jedi_missing()


def jedi_missing() -> str | None:
    """Why the check cannot run here (Jedi is not installed), or None."""
    try:
        import jedi  # noqa: F401
    except ImportError:
        return "the graph check needs Jedi: pip install jedi (or the project's `train` extra)"
    return None


def _verdicts(checker: str, tree: Path, links: list[tuple]) -> list[tuple[str, bool]]:
    if checker == "typescript":
        from codeqa.evaluate.tscheck import verdicts

        return verdicts(tree, links)
    jedi = Checker(tree)
    return [jedi.verdict(user, used, names) for user, used, names in links]


def measure(tree: Path, sample: int, seed: int, checker: str = "jedi") -> dict:
    """Both graphs of ``tree`` checked on ``sample`` links each (Python links with Jedi, JS/TS links with the
    TypeScript language service); ``recall`` = right names-only links the resolved graph keeps (None on a codeqa
    without resolution or when the sample holds no right link)."""
    started = time.perf_counter()
    chunks, tags, refs = load(tree)
    built = graphs(chunks, tags, refs)
    result: dict = {"tree": str(tree), "checker": checker, "chunks": len(chunks), "graphs": {}}
    links_of = {name: checked_links(graph, chunks, checker) for name, graph in built.items()}
    for name, links in links_of.items():
        chosen = random.Random(seed).sample(links, min(sample, len(links)))
        counts = {"right": 0, "wrong": 0, "unknown": 0, "calls_right": 0, "calls_wrong": 0}
        right_links = []
        examples: list[str] = []
        asked = [(chunks[a], chunks[b], {n for n in defined_names(chunks[b].symbol)
                                         if n in refs[a] and n not in COMMON_NAMES}) for a, b in chosen]  # fmt: skip
        for (a, b), (_, _, names), (verdict, call) in zip(chosen, asked, _verdicts(checker, tree, asked), strict=True):
            counts[verdict] += 1
            if call and verdict != "unknown":
                counts[f"calls_{verdict}"] += 1
            if verdict == "right":
                right_links.append((a, b))
            elif verdict == "wrong" and len(examples) < 15:
                examples.append(f"{chunks[a].location} → {chunks[b].location} ({', '.join(sorted(names))})")
        decided = counts["right"] + counts["wrong"]
        calls = counts["calls_right"] + counts["calls_wrong"]
        row: dict = {"links": len(links), "sampled": len(chosen), **counts,
               "precision": round(100 * counts["right"] / decided, 1) if decided else None,
               "call_precision": round(100 * counts["calls_right"] / calls, 1) if calls else None,
               "wrong_examples": examples}  # fmt: skip
        if name == "names only" and "resolved" in links_of:
            kept = set(links_of["resolved"])
            row["right_kept_by_resolved"] = sum(1 for link in right_links if link in kept)
            row["recall"] = round(100 * row["right_kept_by_resolved"] / len(right_links), 1) if right_links else None
        result["graphs"][name] = row
    result["seconds"] = round(time.perf_counter() - started, 1)
    return result
