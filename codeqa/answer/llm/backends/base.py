"""The one small interface every language-model backend implements, and what they report about themselves.

``ask`` only talks to this Protocol, so Ollama, an OpenAI-compatible server, the embedded llama.cpp model or a
user's own backend are interchangeable, and tests can drive each one through its real client.
"""

from __future__ import annotations

import ipaddress
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable
from urllib.parse import urlparse

Message = dict[str, str]  # {"role": "system" | "user" | "assistant", "content": "..."}

CHARS_PER_TOKEN = 3.5  # conservative for code (BPE tokenizers average ~3.5-4 chars/token on source text)


@dataclass(frozen=True)
class BackendStatus:
    """What a backend can do right now, phrased for a user (shown by `codeqa models` and the app)."""

    name: str  # a registered backend's name (``registry.names()``), or "none"
    available: bool
    detail: str  # one line: where it runs, or why it is not available and how to fix that
    models: list[str] = field(default_factory=list)
    local: bool = True  # False when code would leave the machine


@runtime_checkable
class LLMBackend(Protocol):
    """Stream chat tokens, list models, report health; errors are ``codeqa.errors.LLMError`` subclasses."""

    name: str
    local: bool
    context_tokens: int  # the model's usable context window (prompt + answer)

    def status(self) -> BackendStatus:
        """Probe the backend quickly (never raises): is it usable, with which models?"""
        ...

    def resolve_model(self, requested: str | None) -> str:
        """The model to use (``requested`` or the backend's default); ``ModelNotFoundError`` names the fix."""
        ...

    def count_tokens(self, text: str) -> int:
        """Tokens ``text`` costs in the prompt (an estimate unless the backend has the tokenizer)."""
        ...

    def stream_chat(self, messages: list[Message], model: str, *, max_tokens: int) -> Iterator[str]:
        """Yield answer text pieces; raise an ``LLMError`` subclass on failure (also mid-stream)."""
        ...


def estimate_tokens(text: str) -> int:
    """A tokenizer-free token count: never cheap to be wrong about, so it rounds up."""
    return math.ceil(len(text) / CHARS_PER_TOKEN) if text else 0


def is_loopback_url(url: str) -> bool:
    """True when ``url`` points at this machine (so nothing sent there leaves it)."""
    host = urlparse(url if "://" in url else f"http://{url}").hostname or "127.0.0.1"
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def host_of(url: str) -> str:
    """``https://api.example.com/v1`` → ``api.example.com`` (for one-line messages)."""
    parsed = urlparse(url if "://" in url else f"http://{url}")
    return parsed.netloc or url
