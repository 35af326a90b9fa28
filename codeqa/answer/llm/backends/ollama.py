"""Ollama through its official client: the default backend when a server is reachable on this machine.

Every failure the client can produce is mapped to one actionable ``LLMError`` (field notes: a down server
raises ``ConnectionError`` when not streaming but ``httpx.ConnectError`` on the first ``next()`` of a stream;
the client's default timeout is None, so we always pass one).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlparse

import httpx

from codeqa.answer.llm.backends.base import BackendStatus, Message, estimate_tokens, is_loopback_url
from codeqa.answer.llm.backends.registry import BackendTraits, register
from codeqa.config import Settings
from codeqa.errors import LLMError, LLMTimeoutError, LLMUnavailableError, ModelNotFoundError

SUGGESTED_MODEL = "qwen2.5-coder:7b"
DEFAULT_PORT = 11434


def normalize_ollama_host(raw: str | None) -> str:
    """Accept what OLLAMA_HOST accepts (``host``, ``host:port``, ``http://host:port``) → ``http://host:port``."""
    raw = (raw or "").strip() or f"127.0.0.1:{DEFAULT_PORT}"
    scheme_given = "://" in raw
    parsed = urlparse(raw if scheme_given else f"http://{raw}")
    host = parsed.hostname or "127.0.0.1"
    if host in ("0.0.0.0", "::"):  # the server binds all interfaces; a client reaches it on loopback
        host = "127.0.0.1"
    if ":" in host:
        host = f"[{host}]"
    port = parsed.port or (DEFAULT_PORT if not scheme_given else (443 if parsed.scheme == "https" else 80))
    return f"{parsed.scheme or 'http'}://{host}:{port}{parsed.path.rstrip('/')}"


def same_model(requested: str, installed: str) -> bool:
    """Ollama names without a tag mean ``:latest`` (``llama3.2`` is ``llama3.2:latest``)."""

    def full(name: str) -> str:
        return name if ":" in name.rsplit("/", 1)[-1] else f"{name}:latest"

    return full(requested) == full(installed)


class OllamaBackend:
    """Chat with a model served by Ollama (``OLLAMA_HOST``), streaming NDJSON through ``ollama.Client``."""

    name = "ollama"

    def __init__(self, settings: Settings) -> None:
        self.host = normalize_ollama_host(settings.ollama_host)
        self.local = is_loopback_url(self.host)
        self.context_tokens = settings.llm_context_tokens
        self.timeout = settings.llm_timeout_seconds
        self.probe_timeout = settings.llm_probe_timeout_seconds
        self.preferred = settings.llm_model
        self._models: list[str] | None = None

    # -- messages ---------------------------------------------------------------------------
    def unreachable(self) -> LLMUnavailableError:
        return LLMUnavailableError(
            f"Ollama is not reachable at {self.host} — start it with `ollama serve` or set OLLAMA_HOST."
        )

    def timed_out(self) -> LLMTimeoutError:
        return LLMTimeoutError(
            f"Ollama at {self.host} did not answer within {self.timeout:g} s — the model may still be loading; "
            "try again or raise CODEQA_LLM_TIMEOUT_SECONDS."
        )

    def missing_model(self, model: str) -> ModelNotFoundError:
        installed = f" (installed: {', '.join(self._models)})" if self._models else ""
        return ModelNotFoundError(f"Ollama has no model '{model}' — pull it with `ollama pull {model}`{installed}.")

    # -- protocol ---------------------------------------------------------------------------
    def _client(self, timeout: float) -> Any:
        import ollama

        return ollama.Client(host=self.host, timeout=timeout)

    def list_models(self) -> list[str]:
        """Installed model names, from ``GET /api/tags``."""
        import ollama

        client = self._client(self.probe_timeout)
        try:
            listing = client.list()
        except (ConnectionError, httpx.ConnectError):
            raise self.unreachable() from None
        except httpx.TimeoutException:
            raise LLMUnavailableError(
                f"Ollama at {self.host} did not answer a health check within {self.probe_timeout:g} s — "
                "is it running? (`ollama serve`, or set OLLAMA_HOST)"
            ) from None
        except (ollama.ResponseError, httpx.HTTPError, ValueError) as exc:
            raise LLMUnavailableError(
                f"The server at {self.host} does not answer like Ollama ({exc.__class__.__name__}) — check OLLAMA_HOST."
            ) from None
        finally:
            client.close()
        self._models = [model.model for model in listing.models if model.model]
        return self._models

    def _version(self) -> str | None:
        try:
            response = httpx.get(f"{self.host}/api/version", timeout=self.probe_timeout)
            return str(response.json().get("version")) if response.status_code == 200 else None
        except (httpx.HTTPError, ValueError, AttributeError):
            return None

    def status(self) -> BackendStatus:
        try:
            models = self.list_models()
        except LLMError as exc:
            return BackendStatus(self.name, False, str(exc), [], self.local)
        version = self._version()
        where = f"Ollama {version} at {self.host}" if version else f"Ollama at {self.host}"
        if not models:
            detail = f"{where} has no models — pull one with `ollama pull {SUGGESTED_MODEL}`."
            return BackendStatus(self.name, False, detail, [], self.local)
        if not self.local:
            where += " — not this machine: code is sent there"
        return BackendStatus(self.name, True, where, models, self.local)

    def default_model(self) -> str | None:
        if self.preferred:
            return self.preferred
        chat_models = [name for name in self._models or [] if "embed" not in name.lower()]
        return chat_models[0] if chat_models else None

    def resolve_model(self, requested: str | None) -> str:
        """The model to chat with; a name Ollama does not have is a ``ModelNotFoundError`` naming ``ollama pull``."""
        if self._models is None:
            self.list_models()
        model = requested or self.default_model()
        if not model:
            raise ModelNotFoundError(
                f"Ollama at {self.host} has no chat model — pull one with `ollama pull {SUGGESTED_MODEL}`."
            )
        for installed in self._models or []:
            if same_model(model, installed):
                return installed
        raise self.missing_model(model)

    def count_tokens(self, text: str) -> int:
        return estimate_tokens(text)

    def stream_chat(self, messages: list[Message], model: str, *, max_tokens: int) -> Iterator[str]:
        import ollama

        client = self._client(self.timeout)
        options = {"num_ctx": self.context_tokens, "num_predict": max_tokens, "temperature": 0.2}
        try:
            for part in client.chat(model=model, messages=messages, stream=True, options=options):
                text = part.message.content or ""
                if text:
                    yield text
        except ollama.ResponseError as exc:
            if exc.status_code == 404:
                raise self.missing_model(model) from None
            raise LLMError(f"Ollama reported an error: {exc.error}") from None
        except (ConnectionError, httpx.ConnectError):
            raise self.unreachable() from None
        except httpx.TimeoutException:
            raise self.timed_out() from None
        except httpx.HTTPError as exc:
            raise LLMError(f"The connection to Ollama at {self.host} broke ({exc.__class__.__name__}).") from None
        except ValueError as exc:  # a line that is not JSON, or not a chat message
            raise LLMError(f"Ollama at {self.host} sent something that is not a chat reply ({exc}).") from None
        finally:
            client.close()


register(BackendTraits("ollama", "Ollama", OllamaBackend, auto_order=10))
