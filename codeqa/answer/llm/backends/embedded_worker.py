"""The embedded llama.cpp model in a process of its own: ``python -m codeqa.answer.llm.backends.embedded_worker``.

llama.cpp is native code: an illegal instruction, a segfault or the out-of-memory killer ends the process that runs
it. Running it here means such a death ends this worker only; the app (``embedded_process.py``) sees it, says so in
one message and starts a new worker for the next question.

Protocol: one JSON object per line on stdin, replies as JSON lines on stdout.
- ``{"op": "load", "path": …, "n_ctx": …, "n_threads": …, "fault": …}`` → ``{"ok": true}`` (kept loaded until the
  next ``load`` with other values)
- ``{"op": "tokenize", "text": …}`` → ``{"count": n}``
- ``{"op": "chat", "messages": […], "max_tokens": …, "temperature": …, "repeat_penalty": …}`` → ``{"token": …}``
  lines, then ``{"done": true}``; a ``{"op": "stop"}`` line sent meanwhile ends the answer early.
- any failure → ``{"error": "…"}``. End of stdin ends the worker: the app closed it, or the app's process
  ended however it ended (the kernel closes the pipe). Between answer tokens the worker looks for it too.

``fault`` exists for tests: ``"SIGILL@3"`` makes the worker kill itself with that signal after 3 answer tokens,
``"SIGKILL@load"`` while loading, so the app's handling of a real native crash is tested with a real dead process
(``"SIGILL@3#1"``: in the app's first worker only, see ``embedded_process.active_fault``).
"""

from __future__ import annotations

import json
import os
import select
import signal
import sys
from typing import Any, TextIO


class LineReader:
    """Lines from a file descriptor without Python's buffering, so ``ready()`` can poll between answer tokens."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buffer = b""
        self.eof = False

    def _fill(self) -> None:
        chunk = os.read(self.fd, 65536)
        if chunk:
            self.buffer += chunk
        else:
            self.eof = True

    def readline(self) -> bytes | None:
        """The next line (blocking); None at end of input."""
        while b"\n" not in self.buffer and not self.eof:
            self._fill()
        if b"\n" in self.buffer:
            line, self.buffer = self.buffer.split(b"\n", 1)
            return line
        return None

    def ready(self) -> bool:
        """True when a whole line (or end of input) can be read without waiting."""
        if b"\n" not in self.buffer and not self.eof and select.select([self.fd], [], [], 0)[0]:
            self._fill()
        return b"\n" in self.buffer or self.eof


class Worker:
    def __init__(self, out: TextIO, reader: LineReader) -> None:
        self.out = out
        self.reader = reader
        self.llama: Any = None
        self.loaded: tuple[Any, ...] | None = None
        self.fault: tuple[signal.Signals, int | None] | None = None

    def send(self, **message: Any) -> None:
        self.out.write(json.dumps(message) + "\n")
        self.out.flush()

    def handle(self, request: dict[str, Any]) -> None:
        op = request.get("op")
        try:
            if op == "load":
                self.load(request)
            elif op == "tokenize":
                text = str(request.get("text", ""))
                self.send(count=len(self.model().tokenize(text.encode("utf-8"), add_bos=False, special=False)))
            elif op == "chat":
                self.chat(request)
            elif op == "stop":  # the answer it was meant to stop had already ended
                self.send(done=True, stopped=True)
            else:
                self.send(error=f"unknown request {op!r}")
        except Exception as exc:  # llama.cpp raises ValueError/RuntimeError, e.g. a prompt over the context window
            self.send(error=f"{exc.__class__.__name__}: {exc}")

    def model(self) -> Any:
        if self.llama is None:
            raise RuntimeError("no model loaded")
        return self.llama

    def load(self, request: dict[str, Any]) -> None:
        key = (request.get("path"), request.get("n_ctx"), request.get("n_threads"))
        self.fault = parse_fault(request.get("fault"))
        self.trip("load")
        if self.loaded != key:
            if self.llama is not None:
                self.llama.close()
                self.llama, self.loaded = None, None
            from llama_cpp import Llama

            self.llama = Llama(model_path=str(key[0]), n_ctx=int(key[1]), n_threads=int(key[2]), verbose=False)
            self.loaded = key
        self.send(ok=True)

    def chat(self, request: dict[str, Any]) -> None:
        chunks = self.model().create_chat_completion(
            messages=request["messages"],
            stream=True,
            max_tokens=int(request["max_tokens"]),
            temperature=float(request.get("temperature", 0.2)),
            repeat_penalty=float(request.get("repeat_penalty", 1.0)),
        )
        sent = 0
        self.trip(sent)
        for chunk in chunks:
            text = chunk["choices"][0].get("delta", {}).get("content") or ""
            if not text:
                continue
            self.send(token=text)
            sent += 1
            self.trip(sent)
            if self.reader.ready():
                line = self.reader.readline()
                if line is None:
                    sys.exit(0)  # the app is gone: nobody reads the rest
                if json.loads(line or b"{}").get("op") == "stop":
                    self.send(done=True, stopped=True)
                    return
        self.send(done=True)

    def trip(self, when: int | str) -> None:
        """Die the way native code dies, when a test asked for it (``fault``)."""
        if self.fault is not None and self.fault[1] == (None if when == "load" else when):
            self.out.flush()
            os.kill(os.getpid(), self.fault[0])


def parse_fault(value: Any) -> tuple[signal.Signals, int | None] | None:
    """``"SIGILL@3"`` → (SIGILL, 3); ``"SIGKILL@load"`` → (SIGKILL, None); empty → None."""
    if not value:
        return None
    name, _, when = str(value).partition("@")
    return signal.Signals[name.strip().upper()], None if when.strip() in ("", "load") else int(when)


def main() -> None:
    protocol = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # whatever llama.cpp prints goes to stderr, never into the protocol
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # a crash is reported, not dumped to disk
    except (ImportError, ValueError, OSError):
        pass
    reader = LineReader(0)
    worker = Worker(protocol, reader)
    while (line := reader.readline()) is not None:
        if line.strip():
            try:
                request = json.loads(line)
            except ValueError:
                worker.send(error="request is not JSON")
                continue
            worker.handle(request)
    if worker.llama is not None:
        worker.llama.close()


if __name__ == "__main__":
    main()
