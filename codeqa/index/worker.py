"""A write's producer in a worker process: chunking, embedding and tokenizing run beside the store's writes.

Chroma's ``add`` holds the GIL while it works (measured here: Python in another thread ran at 1 % of its speed
meanwhile), so a thread gives no overlap; a second process does, on the second core. The worker is forked with the
scan, the carry plan and the loaded model already in memory (only its output crosses the pipe), touches neither
Chroma nor the locks, dies with its parent, and streams what the producer yields: each batch's fresh rows, then the
end of production once the new generation's search files are written. An error in the worker is raised here.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import queue
import signal
import threading
from collections.abc import Iterator
from typing import Any

from codeqa.errors import CodeqaError, is_disk_full
from codeqa.index.produce import Batch, Produced, Producer

JOIN_SECONDS = 60


class WorkerProducer:
    """The same items as ``Producer.items``, produced in a forked worker process."""

    def __init__(self, producer: Producer) -> None:
        self._producer = producer
        context = multiprocessing.get_context("fork")
        self._receive, send = context.Pipe(duplex=False)
        self._process = context.Process(target=_serve, args=(producer, send, self._receive, os.getpid()),
                                        daemon=True, name="codeqa-index-worker")  # fmt: skip
        self._process.start()
        send.close()
        self._ended = False

    def items(self) -> Iterator[Batch | str | Produced]:
        while True:
            try:
                kind, payload = self._receive.recv()
            except EOFError:
                raise CodeqaError(f"The indexing worker process stopped unexpectedly ({self._exit()}).") from None
            if kind == "item":
                yield payload
            elif kind == "error":
                raise payload
            else:
                self._ended = True
                return

    def close(self, *, discard: bool = False) -> None:
        """Wait for a worker that finished (it is merging its vectors into the cache); stop one that did not."""
        if not self._ended and self._process.is_alive():
            self._process.kill()
        self._process.join(JOIN_SECONDS)
        self._receive.close()
        if discard:  # the disk is full: the vectors the worker computed go, instead of into the cache
            cache = self._producer.settings.cache_dir / "embeddings.sqlite"
            for run in cache.parent.glob(f"{cache.name}.run-{self._process.pid}-*"):
                run.unlink(missing_ok=True)

    def _exit(self) -> str:
        self._process.join(5)
        code = self._process.exitcode
        return f"signal {-code}" if code is not None and code < 0 else f"exit code {code}"


def _serve(producer: Producer, send: Any, receive: Any, parent: int) -> None:
    """The worker: produce, sending each item; on failure send the error (its vector run kept unless the disk is
    full, like an in-process run). A thread sends, so production runs ahead while the parent is busy storing: by
    the time the last rows are stored, the search files are written too.

    It dies with its parent, and closes the pipe's reading end it inherited: with the parent gone, a send fails at
    once instead of blocking forever. (The index lock it inherited is closed at fork: see ``codeqa.locks``.)"""
    _die_with(parent)
    receive.close()
    outbox: queue.Queue = queue.Queue()
    sender = threading.Thread(target=_send_all, args=(outbox, send), daemon=True)
    sender.start()
    try:
        for item in producer.items():
            outbox.put(("item", item))
        producer.close()  # merge this run's new vectors into the embedding cache
        outbox.put(("end", None))
    except BaseException as exc:
        with contextlib.suppress(BaseException):
            producer.close(discard=isinstance(exc, Exception) and is_disk_full(exc, producer.settings.home_dir))
        outbox.put(("error", exc))
    finally:
        outbox.put(None)
        sender.join()
        send.close()


def _send_all(outbox: queue.Queue, send: Any) -> None:
    while (message := outbox.get()) is not None:
        try:
            send.send(message)
        except (BrokenPipeError, EOFError, OSError):
            return  # the parent stopped listening (it failed or was killed): nothing more to say
        except Exception:  # an error that does not pickle: its message does
            kind, payload = message
            send.send(("error", CodeqaError(f"Indexing failed in the worker process ({type(payload).__name__}: "
                                            f"{payload}).")))  # fmt: skip


def _die_with(parent: int) -> None:
    """Ask the kernel to kill this process when its parent dies (a killed `codeqa index` leaves no worker)."""
    with contextlib.suppress(Exception):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the parent died before that took effect
        os._exit(1)
