"""Server-sent events for the HTTP API: the framing, a cap on the streams open at once, and job progress.

An open stream must not starve the other requests: job progress polls on the event loop (no thread held), and
``StreamSlots`` caps the streams open at once (answers do hold a worker thread while a model writes). A stream's
slot is given back when its client goes away, not when the model next speaks: a client that hangs up while the
model is silent must not hold the slot until the model's timeout (or the garbage collector) ends the answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import AsyncIterator, Callable, Iterator

from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool
from starlette.types import Receive, Scope, Send

from codeqa.service.models import JobStatus
from codeqa.service.operations import Operations

JOB_POLL_SECONDS = 0.25


def sse(event: str, data: object) -> bytes:
    payload = data.model_dump_json() if hasattr(data, "model_dump_json") else json.dumps(data)
    return f"event: {event}\ndata: {payload}\n\n".encode()


class SlotStream(StreamingResponse):
    """Server-sent events holding one stream slot: ``release`` runs once, as soon as the client disconnects or the
    stream ends, whichever comes first. Then the answer's generator is closed, which closes the model's stream."""

    def __init__(self, events: Iterator[bytes] | AsyncIterator[bytes], release: Callable[[], None]) -> None:
        super().__init__(events, media_type="text/event-stream", headers={"Cache-Control": "no-cache"})
        self._events = events
        self._release: Callable[[], None] | None = release

    def _give_back(self) -> None:
        release, self._release = self._release, None
        if release is not None:
            release()

    async def listen_for_disconnect(self, receive: Receive) -> None:
        await super().listen_for_disconnect(receive)
        self._give_back()  # the client is gone: its slot is free even while a worker still waits on the model

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._give_back()
            close = getattr(self._events, "close", None)  # a generator left mid-answer is never resumed
            if close is not None:
                with contextlib.suppress(ValueError):  # still running in a worker: it ends at the model's timeout
                    await run_in_threadpool(close)


def event_stream(events: Iterator[bytes] | AsyncIterator[bytes], release: Callable[[], None]) -> StreamingResponse:
    return SlotStream(events, release)


async def job_progress(ops: Operations, status: JobStatus) -> AsyncIterator[bytes]:
    """``progress`` on each change of a job, then ``done`` with its final status."""
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
