"""Evaluation datasets: JSONL lines of questions with the files that answer them, and where their trees live.

Each line: ``instance_id``, ``repo``, ``base_commit``, ``problem_statement``, ``gold_files``, optionally ``tree``
(``<owner>__<name>/<commit>`` relative to the trees folder; derived from repo and commit when absent) and
``filters``, ``language`` (the group it is reported in; else the repository's dominant language) and
``key_fact_lines`` (``{fact: "path:line"}``: lines that answer, for chunk-level scores). ``gold_files`` and
``key_fact_lines`` are read only to score.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from codeqa.errors import QueryError


def is_test(path: str) -> bool:
    """SWE-bench's test-file rule (``make_datasets.utils.is_test``) on a repo-relative path."""
    return any(word in ("test", "tests", "testing") for word in re.split(r" |_|/|\.", path.lower()))


@dataclass(frozen=True)
class Instance:
    instance_id: str
    repo: str
    base_commit: str
    problem_statement: str
    gold_files: tuple[str, ...]
    tree_path: str = ""  # relative to the trees folder
    dataset: str = ""  # the file it came from (its stem)
    filters: dict = field(default_factory=dict, hash=False, compare=False)
    key_facts: tuple[str, ...] = ()
    language: str = ""
    key_lines: tuple[tuple[str, int], ...] = ()  # (path, line) of each key fact, for chunk-level scores

    def tree(self, trees: Path) -> Path:
        return trees / (self.tree_path or f"{self.repo.replace('/', '__')}/{self.base_commit}")

    @property
    def index_name(self) -> str:
        """One index per tree, shared by the instances that use it."""
        tree = self.tree_path or f"{self.repo.replace('/', '__')}/{self.base_commit}"
        owner_repo, _, commit = tree.partition("/")
        return re.sub(r"[^A-Za-z0-9._-]", "-", f"eval-{owner_repo.replace('__', '-')}-{commit[:10]}")[:63]


def _key_lines(raw: dict) -> tuple[tuple[str, int], ...]:
    lines = []
    for location in raw.values():
        path, _, line = str(location).rpartition(":")
        if path and line.isdigit():
            lines.append((path, int(line)))
    return tuple(lines)


def load_dataset(path: Path, limit: int | None = None) -> list[Instance]:
    instances = []
    for number, line in enumerate(Path(path).read_text().splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            instances.append(
                Instance(
                    row["instance_id"],
                    row["repo"],
                    row["base_commit"],
                    row.get("problem_statement") or row["question"],
                    tuple(row["gold_files"]),
                    row.get("tree", ""),
                    Path(path).stem,
                    dict(row.get("filters") or {}),
                    tuple(row.get("key_facts") or ()),
                    str(row.get("language") or ""),
                    _key_lines(row.get("key_fact_lines") or {}),
                )
            )
        except (ValueError, KeyError, TypeError) as exc:
            raise QueryError(f"{path}:{number}: not a dataset line ({exc.__class__.__name__}: {exc}).") from exc
    return instances[:limit] if limit else instances
