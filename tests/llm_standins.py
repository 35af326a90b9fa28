"""Stand-ins for LLM servers that cannot run on these machines, speaking their real wire protocols.

Ollama cannot be installed here and no hosted API is reachable, so the tests start these tiny HTTP servers on
127.0.0.1 (a free port each) and drive them through the *real* clients: the ``ollama`` package and httpx.
They implement only what codeqa uses, with the shapes documented in the field notes.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Reply = list[str] | Callable[[dict[str, Any]], list[str]]


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    standin: StandIn

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - keep test output quiet
        pass

    def _body(self) -> dict[str, Any]:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        return json.loads(raw) if raw else {}

    def send_json(self, status: int, payload: Any) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def send_stream(self, content_type: str, pieces: Iterator[bytes]) -> None:
        """Chunked transfer encoding, flushed per piece, as a streaming server does."""
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        try:
            for piece in pieces:
                self.wfile.write(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
                self.wfile.flush()
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout test)
            pass

    def do_GET(self) -> None:
        self.standin.requests.append((self.path, {}))
        self.standin.get(self)

    def do_POST(self) -> None:
        body = self._body()
        self.standin.requests.append((self.path, body))
        self.standin.post(self, body)


class StandIn:
    """Base: a threaded HTTP server on a free loopback port, recording every request it receives."""

    def __init__(self, host: str = "127.0.0.1") -> None:
        handler = type("Handler", (_Handler,), {"standin": self})
        self.server = ThreadingHTTPServer((host, 0), handler)
        self.server.daemon_threads = True
        self.requests: list[tuple[str, dict[str, Any]]] = []
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> StandIn:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def bodies(self, path: str) -> list[dict[str, Any]]:
        return [body for seen, body in self.requests if seen == path]

    def get(self, handler: _Handler) -> None:
        handler.send_json(404, {"error": "not found"})

    def post(self, handler: _Handler, body: dict[str, Any]) -> None:
        handler.send_json(404, {"error": "not found"})


def _reply_for(reply: Reply, body: dict[str, Any]) -> list[str]:
    return reply(body) if callable(reply) else list(reply)


class OllamaStandIn(StandIn):
    """Stands in for an Ollama server (which cannot run here): /api/version, /api/tags, /api/show and a
    streamed /api/chat (NDJSON lines, final ``done: true``); unknown models get 404 ``model '…' not found``.

    ``mode``: "ok"; "error-mid" (an ``{"error": …}`` line after the first tokens); "slow" (sleeps ``delay`` s
    before answering /api/chat); "stall" (sends the first token, then sleeps ``delay`` s).
    """

    def __init__(
        self,
        models: tuple[str, ...] = ("qwen2.5-coder:7b",),
        reply: Reply = ("Hello",),
        *,
        mode: str = "ok",
        delay: float = 3.0,
    ) -> None:
        super().__init__()
        self.models, self.reply, self.mode, self.delay = list(models), reply, mode, delay

    def get(self, handler: _Handler) -> None:
        if handler.path == "/api/version":
            handler.send_json(200, {"version": "0.6.5"})
        elif handler.path == "/api/tags":
            details = {"format": "gguf", "family": "qwen2", "parameter_size": "7.6B", "quantization_level": "Q4_K_M"}
            handler.send_json(
                200,
                {
                    "models": [
                        {
                            "name": m,
                            "model": m,
                            "modified_at": "2025-05-01T10:00:00Z",
                            "size": 4683087332,
                            "digest": "dae161e27b0e" + "0" * 52,
                            "details": details,
                        }
                        for m in self.models
                    ]
                },
            )
        else:
            super().get(handler)

    def post(self, handler: _Handler, body: dict[str, Any]) -> None:
        model = body.get("model", "")
        if handler.path in ("/api/chat", "/api/show") and model not in self.models:
            handler.send_json(404, {"error": f"model '{model}' not found"})
        elif handler.path == "/api/show":
            handler.send_json(
                200,
                {
                    "modelfile": "",
                    "parameters": "",
                    "template": "{{ .Prompt }}",
                    "details": {"family": "qwen2"},
                    "model_info": {"general.architecture": "qwen2"},
                },
            )
        elif handler.path == "/api/chat":
            if self.mode == "slow":
                time.sleep(self.delay)
            handler.send_stream("application/x-ndjson", self._chat_lines(model, _reply_for(self.reply, body)))
        else:
            super().post(handler, body)

    def _chat_lines(self, model: str, tokens: list[str]) -> Iterator[bytes]:
        def line(payload: dict[str, Any]) -> bytes:
            return json.dumps(payload).encode() + b"\n"

        stamp = "2025-05-01T10:00:00.000000Z"
        for index, token in enumerate(tokens):
            if index == 1 and self.mode == "error-mid":
                yield line({"error": "an error was encountered while running the model: unexpected EOF"})
                return
            if index == 1 and self.mode == "stall":
                time.sleep(self.delay)
            yield line(
                {"model": model, "created_at": stamp, "message": {"role": "assistant", "content": token}, "done": False}
            )
        yield line(
            {
                "model": model,
                "created_at": stamp,
                "message": {"role": "assistant", "content": ""},
                "done": True,
                "done_reason": "stop",
                "total_duration": 1_000_000,
                "load_duration": 1000,
                "prompt_eval_count": 10,
                "prompt_eval_duration": 1000,
                "eval_count": len(tokens),
                "eval_duration": 1000,
            }
        )


class OpenAIStandIn(StandIn):
    """Stands in for an OpenAI-compatible server (llama.cpp server, vLLM, a hosted API): /v1/models and a
    server-sent-events /v1/chat/completions (``data: {chunk}`` lines, then ``data: [DONE]``).

    ``api_key``: when set, other keys get 401. ``mode``: "ok" or "error-mid" (an error event after one token).
    """

    def __init__(
        self,
        models: tuple[str, ...] = ("local-model",),
        reply: Reply = ("Hello",),
        *,
        api_key: str | None = None,
        mode: str = "ok",
        host: str = "127.0.0.1",
    ) -> None:
        super().__init__(host)
        self.models, self.reply, self.api_key, self.mode = list(models), reply, api_key, mode

    def _authorized(self, handler: _Handler) -> bool:
        if self.api_key and handler.headers.get("Authorization") != f"Bearer {self.api_key}":
            handler.send_json(
                401, {"error": {"message": "Incorrect API key provided.", "type": "invalid_request_error"}}
            )
            return False
        return True

    def get(self, handler: _Handler) -> None:
        if handler.path == "/v1/models" and self._authorized(handler):
            handler.send_json(200, {"object": "list", "data": [{"id": m, "object": "model"} for m in self.models]})
        elif handler.path != "/v1/models":
            super().get(handler)

    def post(self, handler: _Handler, body: dict[str, Any]) -> None:
        if handler.path != "/v1/chat/completions":
            return super().post(handler, body)
        if not self._authorized(handler):
            return None
        if body.get("model") not in self.models:
            handler.send_json(404, {"error": {"message": f"The model `{body.get('model')}` does not exist."}})
            return None
        handler.send_stream("text/event-stream", self._events(_reply_for(self.reply, body)))
        return None

    def _events(self, tokens: list[str]) -> Iterator[bytes]:
        for index, token in enumerate(tokens):
            if index == 1 and self.mode == "error-mid":
                yield b'data: {"error": {"message": "server overloaded", "type": "server_error"}}\n\n'
                return
            chunk = {
                "id": "chatcmpl-1",
                "object": "chat.completion.chunk",
                "created": 1,
                "model": "local-model",
                "choices": [{"index": 0, "delta": {"content": token}, "finish_reason": None}],
            }
            yield b"data: " + json.dumps(chunk).encode() + b"\n\n"
        done = {
            "id": "chatcmpl-1",
            "object": "chat.completion.chunk",
            "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
        }
        yield b"data: " + json.dumps(done).encode() + b"\n\n"
        yield b"data: [DONE]\n\n"


def non_loopback_address() -> str | None:
    """An address of this machine that is not loopback: a server bound there is "another host" to codeqa."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        try:
            sock.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing interface
            address = sock.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") else address


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
