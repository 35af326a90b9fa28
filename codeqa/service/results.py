"""Library records → the service's result models (pure conversions, shared by every face).

Text leaves the API and MCP as text: control characters and terminal escapes (ESC, OSC-8 hyperlinks, CSI) are
removed from every field that carries repository or model text, keeping newlines and tabs. Answers are markdown, so
they also pass ``safe_markdown`` line by line, as the app shows them: an image becomes ``[image: alt — host]``, a link
to another host ``text (host)``, raw HTML is shown as text; the answer's notice ("shown as text, nothing was
loaded") is then true for every face. Code (key lines, symbols) stays verbatim apart from control characters.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from codeqa.answer import key_lines, plain_text, safe_markdown
from codeqa.jobs import IndexJob
from codeqa.records import Hit
from codeqa.service.models import ChunkResult, IndexInfo, JobStatus, KeyLine
from codeqa.store import Manifest

_RISKY = re.compile(r"[!\[<\x00-\x08\x0b-\x1f\x7f-\x9f]")  # where an image, link, HTML or escape may start
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_DEFINITION = re.compile(r"^(\s{0,3})\[(?=[^\]\n]+\]:)")  # a reference definition links lines to another host


def _answer_line(line: str, allowed: tuple[str, ...]) -> str:
    return _DEFINITION.sub(r"\1\\[", safe_markdown(line, allowed, bare_urls=True))


class AnswerPieces:
    """An answer made safe as it streams: each line passes ``plain_text``, and outside code blocks ``safe_markdown``
    (code is shown as code, so it is left as written). Text before the first character that may start an image,
    link, HTML or escape is sent at once; the rest of the line waits for its end. Joined, the pieces are
    ``answer_text`` of the whole answer."""

    def __init__(self, allowed_hosts: Iterable[str] = ()) -> None:
        self.allowed, self.line, self.sent, self.fence = tuple(allowed_hosts), "", "", ""

    def feed(self, piece: str) -> str:
        out, self.line = [], self.line + piece
        while "\n" in self.line:
            done, self.line = self.line.split("\n", 1)
            out.append(self._rest(self._clean(done)) + "\n")
            self.sent = ""
        risky = _RISKY.search(self.line)
        safe = self.line[: risky.start()] if risky else self.line  # never changed by the line's sanitizing
        if len(safe) > len(self.sent):
            out.append(self._rest(safe))
            self.sent = safe
        return "".join(out)

    def flush(self) -> str:
        rest = self._rest(self._clean(self.line)) if self.line else ""
        self.line, self.sent = "", ""
        return rest

    def _clean(self, line: str) -> str:
        """One whole line; a fence line opens or closes a code block (CommonMark: the same character, at least as
        many of them)."""
        fence = _FENCE.match(line)
        if self.fence:
            if fence and fence[1][0] == self.fence[0] and len(fence[1]) >= len(self.fence) and not fence[2].strip():
                self.fence = ""
            return plain_text(line)
        if fence and not (fence[1][0] == "`" and "`" in fence[2]):
            self.fence = fence[1]
            return plain_text(line)
        return _answer_line(line, self.allowed)

    def _rest(self, clean: str) -> str:
        return clean[len(self.sent) :] if clean.startswith(self.sent) else clean


def answer_text(text: str, allowed_hosts: Iterable[str] = ()) -> str:
    """A whole answer made safe, exactly as ``AnswerPieces`` streams it."""
    pieces = AnswerPieces(allowed_hosts)
    return pieces.feed(text) + pieces.flush()


def chunk_result(hit: Hit, question: str | None = None) -> ChunkResult:
    """A retrieved chunk as a result row; ``question`` picks its key lines."""
    chunk = hit.chunk
    lines = key_lines(question, chunk.text, chunk.start_line) if question else []
    return ChunkResult(
        location=chunk.location,
        path=chunk.path,
        start_line=chunk.start_line,
        end_line=chunk.end_line,
        symbol=plain_text(chunk.symbol),
        kind=str(chunk.kind),
        layer=str(chunk.layer),
        language=chunk.language,
        score=hit.score,
        key_lines=[KeyLine(line=item.line, text=plain_text(item.text)) for item in lines],
    )


def index_info(manifest: Manifest) -> IndexInfo:
    return IndexInfo(
        name=manifest.name,
        source=manifest.source,
        ref=manifest.ref,
        sha=manifest.sha,
        model=manifest.model,
        files=manifest.counts.get("files", 0),
        chunks=manifest.counts.get("chunks", 0),
        languages=manifest.languages,
        created_at=manifest.created_at,
    )


def job_status(job: IndexJob) -> JobStatus:
    state = "running" if job.running else "cancelled" if job.cancelled else "failed" if job.error else "done"
    event = job.events.get(job.stage)
    return JobStatus(
        id=job.id,
        source=job.label or job.source,
        name=job.name,
        state=state,
        stage=job.stage,
        message=event.message if event else "starting",
        fraction=round(job.fraction, 4),
        elapsed=round(job.elapsed, 3),
        eta=None if job.eta is None else round(job.eta, 1),
        error=job.error,
        index=index_info(job.report.manifest) if job.report else None,
    )
