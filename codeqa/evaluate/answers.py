"""Answer-level evaluation: ask each question through the real ``ask`` and score what the answer *shows*.

Each dataset line carries ``gold_files`` (the files that hold the answer) and ``key_facts`` (exact strings a
correct explanation has to show: the hashing call, the status code, the config key). Per answer we measure:

- file Acc@k of the answer's sources (files in the order their first chunk appears among the sources);
- key facts shown: a fact counts when it appears verbatim in the answer text once whitespace is collapsed;
- citation validity: the share of the answer's citations that point into its sources;
- seconds per answer, from the question to the finished, checked answer (retrieval included, indexing not);
- answer length: non-empty lines of the answer text (what the CLI prints, the sources' one-line count aside);
- opening-line file accuracy: whether the first file the answer cites is a gold file;
- key facts in the prompt: the facts present in the brief a language model is given for the same question
  (``brief.build_brief`` with Ollama's budget), measured without any model — what a local model can use;
- call claims ("A calls B") the extractive answer made, verified in the caller's code and dropped (``claims``), and
  those a model wrote, checked the same way and dropped before they were shown (``model_claims_*``);
- the app's frameworks as its manifests and imports show them (``frameworks.evidence``): every count is also
  reported per framework ("framework: Flask + React"), and ``graph_checks`` measures the symbol graph's links
  against Jedi per Python tree (``evaluate.graphcheck``), grouped the same way.

Any backend can be measured (``none`` is the extractive answer). Indexes are built like ``codeqa eval``'s (test
files left out) and share its names, so ``--keep``/``--reuse`` work across both.
"""

from __future__ import annotations

import json
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from codeqa.answer.answering import AnswerStream
from codeqa.answer.llm.brief import budget_for, build_brief, prompt_text
from codeqa.answer.llm.prompt import Prompt
from codeqa.answer.rendering.citations import parse_citations
from codeqa.config import Settings
from codeqa.errors import QueryError
from codeqa.evaluate.data import Instance
from codeqa.evaluate.metrics import DEFAULT_KS, score
from codeqa.evaluate.runner import _filters, indexed_in_turn
from codeqa.records import Hit


@dataclass
class AnswerResult:
    instance_id: str
    repo: str
    files: list[str]  # the answer's source files, in order
    facts: int  # key facts in the dataset line
    shown: list[str]  # the key facts the answer shows
    citations_valid: int
    citations_invalid: int
    seconds: float
    index_seconds: float
    backend: str
    generated: bool
    metrics: dict[str, float] = field(default_factory=dict)
    lines: int = 0  # non-empty lines of the answer text
    opening_file: str | None = None  # the first file the answer cites
    opening_ok: bool = False  # ... is a gold file
    prompt_shown: list[str] = field(default_factory=list)  # key facts in the brief a model would get
    prompt_tokens: int = 0
    claims_made: int = 0  # "A calls B" claims the extractive answer proposed
    claims_verified: int = 0  # ... that a call in A's lines resolves to B (or, without a resolver, by name)
    claims_dropped: int = 0  # ... dropped, not shown
    claims_by_name: int = 0  # verified by name only (languages without a call resolver)
    model_claims_made: int = 0  # "A calls B" sentences a model wrote (``modelclaims``)
    model_claims_verified: int = 0
    model_claims_dropped: int = 0  # ... dropped before they were shown
    model_claims_by_name: int = 0
    framework: str = ""  # the app's frameworks with evidence, most evident first ("Flask + React"; "" for none)


CLAIM_COUNTS = ("claims_made", "claims_verified", "claims_dropped", "claims_by_name", "model_claims_made",
                "model_claims_verified", "model_claims_dropped", "model_claims_by_name")  # fmt: skip


def collapse(text: str) -> str:
    """Whitespace runs as one space: a fact split over an indented line still counts."""
    return " ".join(text.split())


def facts_shown(answer: str, facts: Sequence[str]) -> list[str]:
    """The facts that appear verbatim (whitespace-collapsed) in ``answer``."""
    flat = collapse(answer)
    return [fact for fact in facts if collapse(fact) and collapse(fact) in flat]


def answer_lines(text: str) -> int:
    return sum(1 for line in text.split("\n") if line.strip())


def opening_file(text: str, sources: Sequence[Hit]) -> str | None:
    """The file of the answer's first citation (a path, or the source a ``[n]`` points to)."""
    for citation in parse_citations(text, [hit.chunk.path for hit in sources]):
        if citation.path:
            return citation.path
        if citation.number is not None and 1 <= citation.number <= len(sources):
            return sources[citation.number - 1].chunk.path
    return None


def is_gold(path: str | None, gold: Sequence[str]) -> bool:
    return path is not None and any(path == g or g.endswith("/" + path) for g in gold)


def source_files(paths: Sequence[str]) -> list[str]:
    """Distinct files in order of first appearance."""
    return list(dict.fromkeys(paths))


def framework_group(framework: str) -> str:
    return f"framework: {framework or 'none found'}"


def app_frameworks(stream: AnswerStream) -> str:
    """The frameworks the answer's evidence shows for the whole app, most evident first."""
    if stream.explanation is None:
        return ""
    return " + ".join(stream.explanation.evidence.frameworks())


def graph_checks(results: Sequence[AnswerResult], instances: Sequence[Instance], trees: Path, sample: int,
                 seed: int = 35) -> list[dict]:  # fmt: skip
    """The symbol graph of each answered tree with Python links, checked against Jedi on ``sample`` links per graph
    (``evaluate.graphcheck``), with the app's frameworks; trees without Python links are left out."""
    from codeqa.evaluate.graphcheck import measure

    framework = {result.repo: result.framework for result in results}
    rows, seen = [], set()
    for instance in instances:
        tree = instance.tree(trees)
        if tree in seen or instance.repo not in framework:
            continue
        seen.add(tree)
        checked = measure(tree, sample, seed)
        if checked["graphs"].get("resolved", checked["graphs"]["names only"])["links"]:
            rows.append({"repo": instance.repo, "framework": framework[instance.repo], **checked})
    return rows


def summarize_graph_checks(rows: Sequence[dict]) -> dict[str, dict[str, float | None]]:
    """Per repository, per framework and overall: links sampled, right / wrong / unknown, precision of all links and
    of calls, and recall (right names-only links the resolved graph keeps)."""
    groups: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        graph = row["graphs"].get("resolved", row["graphs"]["names only"])
        recall = row["graphs"]["names only"]
        entry = {**graph, "recall_right": recall.get("right", 0), "recall_kept": recall.get("right_kept_by_resolved")}
        for group in ("overall", row["repo"], framework_group(row["framework"])):
            groups[group].append(entry)
    summary: dict[str, dict[str, float | None]] = {}
    for group, entries in groups.items():
        right, wrong = sum(e["right"] for e in entries), sum(e["wrong"] for e in entries)
        calls_right, calls_wrong = sum(e["calls_right"] for e in entries), sum(e["calls_wrong"] for e in entries)
        kept = [e for e in entries if e["recall_kept"] is not None]
        recall_right = sum(e["recall_right"] for e in kept)
        summary[group] = {
            "trees": len(entries),
            "sampled": sum(e["sampled"] for e in entries),
            "right": right,
            "wrong": wrong,
            "unknown": sum(e["unknown"] for e in entries),
            "precision": round(100 * right / (right + wrong), 1) if right + wrong else None,
            "call_precision": round(100 * calls_right / (calls_right + calls_wrong), 1)
            if calls_right + calls_wrong
            else None,
            "recall": round(100 * sum(e["recall_kept"] for e in kept) / recall_right, 1) if recall_right else None,
        }
    return summary


def summarize_answers(results: Sequence[AnswerResult]) -> dict[str, dict[str, float]]:
    """Per group (overall and per repository): n, Acc@k, facts shown, answers with a fact, citations, seconds."""
    groups: dict[str, list[AnswerResult]] = defaultdict(list)
    for result in results:
        groups["overall"].append(result)
        groups[result.repo].append(result)
        groups[framework_group(result.framework)].append(result)
    summary: dict[str, dict[str, float]] = {}
    for group, members in groups.items():
        n = len(members)
        facts = sum(m.facts for m in members)
        shown = sum(len(m.shown) for m in members)
        cited = sum(m.citations_valid + m.citations_invalid for m in members)
        valid = sum(m.citations_valid for m in members)
        row = {name: round(100 * sum(m.metrics[name] for m in members) / n, 1) for name in members[0].metrics}
        row.update(
            n=n,
            facts=facts,
            facts_shown=shown,
            facts_pct=round(100 * shown / facts, 1) if facts else 0.0,
            with_fact=sum(1 for m in members if m.shown),
            with_fact_pct=round(100 * sum(1 for m in members if m.shown) / n, 1),
            citations=cited,
            citations_valid_pct=round(100 * valid / cited, 1) if cited else 100.0,
            seconds_per_answer=round(sum(m.seconds for m in members) / n, 2),
            generated=sum(1 for m in members if m.generated),
            lines_median=statistics.median(m.lines for m in members),
            opening_ok=sum(1 for m in members if m.opening_ok),
            opening_pct=round(100 * sum(1 for m in members if m.opening_ok) / n, 1),
            prompt_facts=sum(len(m.prompt_shown) for m in members),
            prompt_pct=round(100 * sum(len(m.prompt_shown) for m in members) / facts, 1) if facts else 0.0,
            prompt_tokens_median=statistics.median(m.prompt_tokens for m in members),
            **{key: sum(getattr(m, key) for m in members) for key in CLAIM_COUNTS},
        )
        summary[group] = row
    return summary


def write_answers_json(path: Path, results: Sequence[AnswerResult], extra: dict | None = None) -> None:
    payload = {
        "summary": summarize_answers(results),
        **(extra or {}),
        "instances": [{**{k: v for k, v in asdict(r).items() if k != "metrics"}, **r.metrics} for r in results],
    }
    Path(path).write_text(json.dumps(payload, indent=1))


def model_prompt(stream: AnswerStream, settings: Settings) -> Prompt | None:
    """The prompt the model got, or (no model) the brief an Ollama model would get for the same answer."""
    if stream.prompt is not None:
        return stream.prompt
    if stream.explanation is None:
        return None
    return build_brief(stream.question, stream.explanation, budget=budget_for(settings))


def run_answer_eval(
    instances: Sequence[Instance],
    trees: Path,
    settings: Settings,
    *,
    backend: str = "none",
    model: str | None = None,
    k: int = 8,
    ks: Sequence[int] = DEFAULT_KS,
    keep_indexes: bool = False,
    reuse_indexes: bool = False,
    answers_dir: Path | None = None,
    on_result: Callable[[AnswerResult], None] | None = None,
) -> list[AnswerResult]:
    """Index each tree once, ask every question with ``backend``, score the finished answers."""
    from codeqa.answer import ask

    without_facts = [i.instance_id for i in instances if not i.key_facts]
    if without_facts:
        raise QueryError(f"{len(without_facts)} questions have no key_facts (first: {without_facts[0]}).")
    if answers_dir is not None:
        answers_dir.mkdir(parents=True, exist_ok=True)
    results: list[AnswerResult] = []
    for instance, index, index_seconds in indexed_in_turn(instances, trees, settings, keep_indexes, reuse_indexes):
        started = time.perf_counter()
        stream = ask(index, instance.problem_statement, filters=_filters(instance), backend=backend, model=model, k=k)
        answer = stream.result()
        seconds = time.perf_counter() - started
        prompt = model_prompt(stream, settings)
        files = source_files([hit.chunk.path for hit in answer.sources])
        shown = facts_shown(answer.text, instance.key_facts)
        metrics = score(files, instance.gold_files, ks)
        metrics.pop("mrr@10", None)
        result = AnswerResult(
            instance.instance_id,
            instance.repo,
            files,
            len(instance.key_facts),
            shown,
            answer.citations_valid,
            len(answer.citations_invalid),
            round(seconds, 3),
            round(index_seconds, 2),
            answer.backend,
            answer.generated,
            metrics,
            answer_lines(answer.text),
            first := opening_file(answer.text, answer.sources),
            is_gold(first, instance.gold_files),
            facts_shown(prompt_text(prompt), instance.key_facts) if prompt else [],
            prompt.tokens if prompt else 0,
            **(stream.explanation.claims.counts() if stream.explanation is not None else {}),
            **{f"model_{key}": value for key, value in stream.model_claims.counts().items()},
            framework=app_frameworks(stream),
        )
        if answers_dir is not None:
            (answers_dir / f"{instance.instance_id}.md").write_text(
                f"<!-- {instance.problem_statement} -->\n{answer.text}\n"
            )
        results.append(result)
        if on_result:
            on_result(result)
    return results
