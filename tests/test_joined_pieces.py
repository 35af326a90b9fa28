"""A definition the chunker split is one source (issue #35, class 6: the key line cut from the snippet).

The app: a job runner whose `run_script` is longer than one chunk, so the chunker cuts it in two. Its head holds the
transaction that makes a dry run safe (`with transaction.atomic():`), its tail the rollback and the log. Asked how a
dry run keeps nothing, retrieval brings both pieces; the answer used to show them as two sources of one function, each
with a few lines of its own. Now it cites the function once, over both pieces, and chooses its lines from the whole.
"""

from __future__ import annotations

import re

from codeqa.answer.explanation.sources.pieces import MAX_JOINED_LINES, join_pieces
from codeqa.answer.rendering.citations import check_citations
from codeqa.config import Settings
from codeqa.index import Index
from codeqa.records import Chunk, Hit
from codeqa.searchfiles.table import ChunkTable
from tests.helpers import ask_named

_STEPS = "\n".join(
    f"            self.progress.advance({n}, 'stage number {n} of many stages is done')" for n in range(1, 25)
)

JOBS = {
    "requirements.txt": "django==5.0\n",
    "runner/jobs.py": f'''"""Running an operator's scripts, for real or as a dry run."""
import logging

from django.db import transaction

from runner.models import Script, ScriptResult

logger = logging.getLogger(__name__)


class AbortDryRun(Exception):
    """Raised inside the transaction so that a dry run keeps none of its changes."""


class ScriptJob:
    def run_script(self, script, data, commit):
        """Run the script inside a transaction; without commit, roll everything back."""
        logger.info("running script %s (commit=%s)", script.name, commit)
        try:
            with transaction.atomic():
                script.output = script.run(data, commit)
                if not commit:
                    raise AbortDryRun()
        except AbortDryRun:
            script.log_info("Dry run: every database change was rolled back.")
{_STEPS}
        finally:
            ScriptResult.objects.create(script=script, output=script.output, committed=commit)
            logger.info("script %s finished (commit=%s)", script.name, commit)

    def run(self, script_id, data, commit=True):
        """Run one stored script."""
        script = Script.objects.get(pk=script_id)
        self.run_script(script, data, commit)
''',
    "runner/models.py": '''"""What a script is and what a run left behind."""
from django.db import models


class Script(models.Model):
    name = models.CharField(max_length=100)

    def run(self, data, commit):
        return f"ran {self.name} with {data}"


class ScriptResult(models.Model):
    script = models.ForeignKey(Script, on_delete=models.CASCADE)
    output = models.TextField()
    committed = models.BooleanField(default=False)
''',
}

INDEXED_APPS = {"jobs": JOBS}  # indexed once by apps_home (conftest)

QUESTION = "When a script runs without commit, how does the transaction roll every database change back?"


def _chunk(start: int, end: int, symbol: str = "ScriptJob.run_script", path: str = "runner/jobs.py") -> Chunk:
    return Chunk(path, "python", start, end, "\n".join(f"line {n}" for n in range(start, end + 1)), symbol, "method",
                 "service")  # fmt: skip


def test_the_index_cuts_the_long_function_in_two(apps_settings: Settings) -> None:
    index = Index.open("jobs", apps_settings)
    table = index.files.table
    pieces = [row for row in table.rows_by_path()["runner/jobs.py"] if table.symbols[row] == "ScriptJob.run_script"]
    assert len(pieces) >= 2  # else this module tests nothing: the function must be longer than a chunk


def test_the_answer_cites_the_split_function_once_over_both_pieces(apps_settings: Settings) -> None:
    result = ask_named("jobs", QUESTION, apps_settings, backend="none").result()
    assert check_citations(result.text, result.sources).invalid == []
    table = Index.open("jobs", apps_settings).files.table
    rows = sorted(
        (table.starts[r], table.ends[r])
        for r in table.rows_by_path()["runner/jobs.py"]
        if table.symbols[r] == "ScriptJob.run_script"
    )
    sources = re.findall(
        r"^- \*\*\[\d+\]\*\* `ScriptJob\.run_script` \(`runner/jobs\.py:(\d+)-(\d+)`\)", result.text, re.M
    )
    assert len(sources) == 1, result.text  # one source for one function, not one per piece
    start, end = map(int, sources[0])
    assert (start, end) == (rows[0][0], rows[-1][1])
    assert "with transaction.atomic():" in result.text  # the head's key line, beside the tail's
    assert "raise AbortDryRun()" in result.text


def test_pieces_join_only_when_adjacent_named_and_short_enough() -> None:
    head, tail = _chunk(10, 40), _chunk(41, 70)
    far = _chunk(75, 90)  # a chunk of another definition lies between
    other = _chunk(91, 100, symbol="ScriptJob.run")
    top_level = [_chunk(1, 5, symbol=""), _chunk(6, 9, symbol="")]  # a file's top-level code is not one definition
    table = ChunkTable()
    table.append([*top_level, head, tail, _chunk(71, 74, symbol="helper"), far, other])
    hits = [Hit(c, 1.0 - n / 10, c.id) for n, c in enumerate([tail, other, head, far, *top_level])]

    joined, pieces = join_pieces(hits, table)

    assert len(pieces) == 1
    (whole_id, held), first = next(iter(pieces.items())), joined[0].chunk
    assert held == (head.id, tail.id) and first.id == whole_id  # placed where its best piece was, with its score
    assert (first.start_line, first.end_line) == (10, 70) and joined[0].score == hits[0].score
    assert first.text.split("\n") == [*head.text.split("\n"), *tail.text.split("\n")]
    assert [h.chunk for h in joined[1:]] == [other, far, *top_level]

    long_tail = _chunk(41, 10 + MAX_JOINED_LINES)
    table = ChunkTable()
    table.append([head, long_tail])
    assert join_pieces([Hit(head, 1.0), Hit(long_tail, 0.5)], table)[1] == {}  # too long to read at a glance


def test_a_blank_gap_is_kept_at_its_place() -> None:
    head, tail = _chunk(10, 20), _chunk(23, 30)
    table = ChunkTable()
    table.append([head, tail])
    joined, _ = join_pieces([Hit(head, 1.0), Hit(tail, 0.5)], table)
    lines = joined[0].chunk.text.split("\n")
    assert len(lines) == 21 and lines[11:13] == ["", ""] and lines[13] == "line 23"
