"""Server-sent events for the HTTP API: the framing, a cap on the streams open at once, and job progress.

An open stream must not starve the other requests: job progress polls on the event loop (no thread held), and
``StreamSlots`` caps the streams open at once (answers do hold a worker thread while a model writes).
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator, Callable, Iterator

from fastapi.responses import StreamingResponse

from codeqa.service.models import JobStatus
from codeqa.service.operations import Operations

JOB_POLL_SECONDS = 0.25


def sse(event: str, data: object) -> bytes:
    payload = data.model_dump_json() if hasattr(data, "model_dump_json") else json.dumps(data)
    return f"event: {event}\ndata: {payload}\n\n".encode()


def event_stream(events: Iterator[bytes] | AsyncIterator[bytes]) -> StreamingResponse:
    return StreamingResponse(events, media_type="text/event-stream", headers={"Cache-Control": "no-cache"})


async def job_progress(ops: Operations, status: JobStatus, done: Callable[[], None]) -> AsyncIterator[bytes]:
    """``progress`` on each change of a job, then ``done`` with its final status; calls ``done()`` at the end."""
    try:
        last = None
        current = status
        while current.state == "running":
            seen = (current.stage, current.message, round(current.fraction, 2))
            if seen != last:
                last = seen
                yield sse("progress", current)
            await asyncio.sleep(JOB_POLL_SECONDS)
            current = ops.job(status.id)
        yield sse("done", current)
    finally:
        done()


class StreamSlots:
    """At most ``limit`` event streams open at once (thread-safe): ``take`` a slot, ``give`` it back when done."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open = 0
        self._lock = threading.Lock()

    def take(self) -> bool:
        with self._lock:
            if self.limit > 0 and self.open >= self.limit:
                return False
            self.open += 1
            return True

    def give(self) -> None:
        with self._lock:
            self.open = max(0, self.open - 1)
