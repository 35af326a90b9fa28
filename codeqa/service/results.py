"""Library records → the service's result models (pure conversions, shared by every face)."""

from __future__ import annotations

from codeqa.answer import key_lines
from codeqa.jobs import IndexJob
from codeqa.records import Hit
from codeqa.service.models import ChunkResult, IndexInfo, JobStatus, KeyLine
from codeqa.store import Manifest


def chunk_result(hit: Hit, question: str | None = None) -> ChunkResult:
    """A retrieved chunk as a result row; ``question`` picks its key lines."""
    chunk = hit.chunk
    lines = key_lines(question, chunk.text, chunk.start_line) if question else []
    return ChunkResult(
        location=chunk.location,
        path=chunk.path,
        start_line=chunk.start_line,
        end_line=chunk.end_line,
        symbol=chunk.symbol,
        kind=str(chunk.kind),
        layer=str(chunk.layer),
        language=chunk.language,
        score=hit.score,
        key_lines=[KeyLine(line=item.line, text=item.text) for item in lines],
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
