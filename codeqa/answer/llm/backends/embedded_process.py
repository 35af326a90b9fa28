"""The app's side of the embedded model's worker process (``embedded_worker.py``): start it, talk to it, outlive it.

One worker per app process, started on the first question and kept (with its model loaded) until the app exits.
When it dies (illegal instruction, segfault, out of memory, killed) the question that was running gets one
``LLMCrashedError`` saying what happened and what to do; the next question starts a new worker.
"""

from __future__ import annotations

import atexit
import collections
import contextlib
import json
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from codeqa.errors import LLMCrashedError, LLMError, LLMTimeoutError, LLMUnavailableError

WORKER_MODULE = "codeqa.answer.llm.backends.embedded_worker"
WORKER_CWD = Path(__file__).resolve().parents[2]  # the codeqa package's own folder
ANOTHER_BACKEND = "choose another backend (Ollama, an OpenAI-compatible server, or none)"
_SIGNAL_REASONS = {
    signal.SIGILL: (
        "illegal instruction: this CPU lacks an instruction the build uses",
        "rebuild llama-cpp-python with CMAKE_ARGS=-DGGML_NATIVE=OFF (scripts/setup --test does) or " + ANOTHER_BACKEND,
    ),
    signal.SIGKILL: (
        "killed (SIGKILL), usually by the out-of-memory killer",
        "free some memory, use a smaller GGUF model, or " + ANOTHER_BACKEND,
    ),
    signal.SIGSEGV: ("segmentation fault in llama.cpp", "try another GGUF file or " + ANOTHER_BACKEND),
    signal.SIGBUS: (
        "bus error in llama.cpp (a damaged or truncated GGUF file?)",
        "check the file or " + ANOTHER_BACKEND,
    ),
    signal.SIGABRT: ("llama.cpp aborted", "try another GGUF file or " + ANOTHER_BACKEND),
}


def crash_message(returncode: int | None, stderr_tail: str = "") -> str:
    """One sentence: how the worker died and what to do about it."""
    if returncode is not None and returncode < 0:
        try:
            sig = signal.Signals(-returncode)
        except ValueError:
            sig = None
        reason, fix = _SIGNAL_REASONS.get(
            sig, (f"killed by signal {sig.name if sig else -returncode}", ANOTHER_BACKEND)
        )
    else:
        last = stderr_tail.strip().splitlines()[-1:] or ["no message"]
        reason, fix = f"its process exited with code {returncode}: {last[0][:200]}", ANOTHER_BACKEND
    return f"The embedded model crashed ({reason}) — {fix}. The next question starts it again."


def active_fault(fault: str | None, started: int) -> str | None:
    """A test fault ``SIGNAL@WHEN#N`` is passed to the first N workers only, so a test can see the next one work."""
    if not fault or "#" not in fault:
        return fault
    spec, _, limit = fault.partition("#")
    return spec if started <= int(limit or 0) else None


class WorkerProcess:
    """A JSON-lines conversation with one worker; requests are serialized, an answer streams token by token."""

    def __init__(self, command: list[str] | None = None) -> None:
        self.command = command or [sys.executable, "-P", "-m", WORKER_MODULE]  # -P: never import from the cwd
        self._cond = threading.Condition()
        self._proc: subprocess.Popen[bytes] | None = None
        self._replies: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=20)
        self._loaded: tuple[Any, ...] | None = None
        self._stream: tuple[object, threading.Thread] | None = None  # the answer being streamed, and its reader
        self.started = 0  # workers started by this process (a test fault "…#N" applies to the first N only)

    # -- lifecycle --------------------------------------------------------------------------------------------------
    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None and self._proc.poll() is None else None

    def _start(self) -> subprocess.Popen[bytes]:
        try:
            proc = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,  # a Ctrl-C in the terminal reaches the app, which then ends the worker
                cwd=WORKER_CWD,  # a fixed folder, not the one the app was started in (a repository, maybe)
            )
        except OSError as exc:
            raise LLMUnavailableError(f"Could not start the embedded model's process ({exc}).") from None
        self._proc, self._loaded, self._replies = proc, None, queue.Queue()
        self.started += 1
        self._stderr.clear()
        assert proc.stdout is not None and proc.stderr is not None
        threading.Thread(target=_read_replies, args=(proc.stdout, self._replies), daemon=True).start()
        threading.Thread(target=_read_stderr, args=(proc.stderr, self._stderr), daemon=True).start()
        return proc

    def stop(self) -> None:
        """End the worker (its model is freed with it); safe to call at any time, also at interpreter exit."""
        with self._cond:
            proc, self._proc, self._loaded, self._stream = self._proc, None, None, None
            self._cond.notify_all()
        if proc is None:
            return
        try:
            if proc.stdin:
                proc.stdin.close()  # the worker exits when its input ends
            proc.wait(3)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait(3)

    def _died(self) -> LLMCrashedError:
        proc, self._proc, self._loaded, self._stream = self._proc, None, None, None
        self._cond.notify_all()
        returncode = None
        if proc is not None:
            try:
                returncode = proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                returncode = proc.wait(5)
            time.sleep(0.05)  # let the stderr reader take the last lines
        return LLMCrashedError(crash_message(returncode, "\n".join(self._stderr)))

    # -- one exchange (the condition's lock is held) ----------------------------------------------------------------
    def _send(self, message: dict[str, Any]) -> None:
        proc = self._proc if self._proc is not None and self._proc.poll() is None else None
        if proc is None or proc.stdin is None:
            raise self._died()
        try:
            proc.stdin.write((json.dumps(message) + "\n").encode("utf-8"))
            proc.stdin.flush()
        except OSError:  # a broken pipe: it died since the last reply
            raise self._died() from None

    def _reply(self, timeout: float) -> dict[str, Any]:
        try:
            reply = self._replies.get(timeout=timeout)
        except queue.Empty:
            self._kill_hung()
            raise LLMTimeoutError(
                f"The embedded model gave nothing for {timeout:.0f} s and was stopped — raise "
                "CODEQA_LLM_TIMEOUT_SECONDS or " + ANOTHER_BACKEND + "."
            ) from None
        if reply is None:
            raise self._died()
        return reply

    def _kill_hung(self) -> None:
        if self._proc is not None:
            self._proc.kill()
            self._proc.wait(5)
        self._proc, self._loaded, self._stream = None, None, None
        self._cond.notify_all()

    def _claim(self, timeout: float) -> None:
        """Wait for another thread's answer to end; an answer abandoned by its reader is stopped instead."""
        deadline = time.monotonic() + timeout
        while self._stream is not None:
            _, reader = self._stream
            left = deadline - time.monotonic()
            if reader is threading.current_thread() or not reader.is_alive() or left <= 0:
                self._end_stream()
                break
            self._cond.wait(min(left, 1.0))

    def _end_stream(self) -> None:
        """Stop the answer being streamed and read up to its end, so the next request gets its own reply."""
        self._stream = None
        self._send({"op": "stop"})
        while not self._reply(30.0).get("stopped"):  # the rest of the answer, then the reply to "stop" itself
            pass

    def _ready(self, load: dict[str, Any], timeout: float) -> None:
        self._claim(timeout)
        if self._proc is None or self._proc.poll() is not None:  # not started yet, or died while idle
            self._start()
        load = {**load, "fault": active_fault(load.get("fault"), self.started)}
        key = tuple(sorted(load.items()))
        if self._loaded != key:
            self._send({"op": "load", **load})
            reply = self._reply(timeout)
            if "error" in reply:
                raise LLMUnavailableError(f"Could not load the GGUF model {load.get('path')}: {reply['error']}")
            self._loaded = key

    # -- requests -----------------------------------------------------------------------------------------------------
    def tokenize(self, load: dict[str, Any], text: str, timeout: float) -> int:
        with self._cond:
            self._ready(load, timeout)
            self._send({"op": "tokenize", "text": text})
            reply = self._reply(timeout)
        if "error" in reply:
            raise LLMError(f"The embedded model could not count tokens: {reply['error']}")
        return int(reply["count"])

    def chat(self, load: dict[str, Any], request: dict[str, Any], timeout: float) -> Iterator[str]:
        """Answer tokens as the worker sends them; closing the iterator early stops the answer in the worker."""
        mine = object()
        with self._cond:
            self._ready(load, timeout)
            self._send({"op": "chat", **request})
            self._stream = (mine, threading.current_thread())
        try:
            while True:
                with self._cond:
                    if self._stream is None or self._stream[0] is not mine:
                        raise LLMError("The embedded model's answer was interrupted by another question.")
                    reply = self._reply(timeout)
                    if "token" not in reply:
                        self._stream = None
                        self._cond.notify_all()
                if "error" in reply:
                    raise LLMError(f"The embedded model could not answer: {reply['error']}")
                if "token" not in reply:
                    return
                yield str(reply["token"])
        finally:
            with self._cond:
                if self._stream is not None and self._stream[0] is mine:  # closed early: stop it in the worker
                    with contextlib.suppress(LLMError):  # it crashed meanwhile: the next request restarts it
                        self._end_stream()
                    self._cond.notify_all()


def _read_replies(stream: IO[bytes], replies: queue.Queue[dict[str, Any] | None]) -> None:
    for line in stream:
        try:
            replies.put(json.loads(line))
        except ValueError:
            continue  # not the protocol (cannot happen: the worker keeps stdout for it alone)
    replies.put(None)  # end of output: the worker is gone


def _read_stderr(stream: IO[bytes], tail: collections.deque[str]) -> None:
    for line in stream:
        tail.append(line.decode("utf-8", "replace").rstrip())


_WORKER = WorkerProcess()
atexit.register(_WORKER.stop)


def worker() -> WorkerProcess:
    """The process-wide worker (lazily started by its first request)."""
    return _WORKER
