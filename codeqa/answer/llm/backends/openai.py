"""Any OpenAI-compatible chat endpoint (llama.cpp server, vLLM, LM Studio, hosted APIs) over plain httpx.

No SDK: the protocol is one POST streaming server-sent events (``data: {...}`` lines, ``data: [DONE]``).
When the endpoint is not on this machine the code in the sources leaves it; every status says so.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlparse

import httpx

from codeqa.answer.llm.backends.base import BackendStatus, Message, estimate_tokens, host_of, is_loopback_url
from codeqa.answer.llm.backends.registry import BackendTraits, register
from codeqa.config import Settings
from codeqa.errors import LLMError, LLMTimeoutError, LLMUnavailableError, ModelNotFoundError

NOT_CONFIGURED = (
    "No OpenAI-compatible endpoint is configured — set CODEQA_OPENAI_BASE_URL (e.g. http://127.0.0.1:8080/v1)."
)


def normalize_base_url(raw: str | None) -> str | None:
    """``http://host:8080`` → ``http://host:8080/v1`` (the OpenAI convention); a given path is kept."""
    if not raw or not raw.strip():
        return None
    url = raw.strip().rstrip("/")
    if "://" not in url:
        url = f"http://{url}"
    if urlparse(url).path in ("", "/"):
        url += "/v1"
    return url


def _error_text(response: httpx.Response) -> str:
    """The server's own error message, from ``{"error": {"message": ...}}``, ``{"error": "..."}`` or text."""
    try:
        body = response.json()
    except ValueError:
        return response.text.strip()[:200]
    error = body.get("error", body) if isinstance(body, dict) else body
    if isinstance(error, dict):
        error = error.get("message", error)
    return str(error)[:200]


class OpenAICompatibleBackend:
    """Chat with ``{base_url}/chat/completions`` (stream=True), models from ``{base_url}/models``."""

    name = "openai"

    def __init__(self, settings: Settings) -> None:
        self.base_url = normalize_base_url(settings.openai_base_url)
        self.local = is_loopback_url(self.base_url) if self.base_url else True
        self.api_key = settings.openai_api_key.get_secret_value() if settings.openai_api_key else None
        self.context_tokens = settings.llm_context_tokens
        self.timeout = settings.llm_timeout_seconds
        self.probe_timeout = settings.llm_probe_timeout_seconds
        self.preferred = settings.llm_model
        self._models: list[str] | None = None

    @property
    def where(self) -> str:
        return host_of(self.base_url or "")

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}

    def _status_error(self, response: httpx.Response, model: str | None = None) -> LLMError:
        message = _error_text(response)
        code = response.status_code
        if code in (401, 403):
            return LLMUnavailableError(
                f"The endpoint at {self.where} refused the request (HTTP {code}: {message}) — "
                "check CODEQA_OPENAI_API_KEY."
            )
        if code == 404 and model:
            return ModelNotFoundError(
                f"The endpoint at {self.where} has no model '{model}' (HTTP 404: {message}) — "
                "set CODEQA_LLM_MODEL to one it offers (`codeqa models`)."
            )
        return LLMError(f"The endpoint at {self.where} answered HTTP {code}: {message}")

    def list_models(self) -> list[str]:
        if not self.base_url:
            raise LLMUnavailableError(NOT_CONFIGURED)
        try:
            response = httpx.get(f"{self.base_url}/models", headers=self._headers(), timeout=self.probe_timeout)
        except httpx.HTTPError as exc:
            raise LLMUnavailableError(
                f"The OpenAI-compatible endpoint {self.base_url} is not reachable ({exc.__class__.__name__}) — "
                "start the server or fix CODEQA_OPENAI_BASE_URL."
            ) from None
        if response.status_code != 200:
            raise self._status_error(response)
        try:
            data = response.json().get("data", [])
            self._models = [str(item["id"]) for item in data if isinstance(item, dict) and "id" in item]
        except (ValueError, AttributeError):
            self._models = []
        return self._models

    def status(self) -> BackendStatus:
        try:
            models = self.list_models()
        except LLMUnavailableError as exc:
            return BackendStatus(self.name, False, str(exc), [], self.local)
        except LLMError:  # some servers have no /models; a configured model can still work
            models = []
        detail = f"OpenAI-compatible endpoint at {self.base_url}"
        if not self.local:
            detail += " — not this machine: your code is sent there"
        if not models and not self.preferred:
            return BackendStatus(self.name, False, f"{detail} offers no models — set CODEQA_LLM_MODEL.", [], self.local)
        return BackendStatus(self.name, True, detail, models, self.local)

    def default_model(self) -> str | None:
        return self.preferred or (self._models[0] if self._models else None)

    def resolve_model(self, requested: str | None) -> str:
        model = requested or self.default_model()
        if not model:
            raise ModelNotFoundError(f"The endpoint at {self.where} offers no models — set CODEQA_LLM_MODEL.")
        if self._models and model not in self._models:
            raise ModelNotFoundError(
                f"The endpoint at {self.where} has no model '{model}' (offered: {', '.join(self._models[:8])})."
            )
        return model

    def count_tokens(self, text: str) -> int:
        return estimate_tokens(text)

    def stream_chat(self, messages: list[Message], model: str, *, max_tokens: int) -> Iterator[str]:
        if not self.base_url:
            raise LLMUnavailableError(NOT_CONFIGURED)
        payload = {"model": model, "messages": messages, "stream": True, "max_tokens": max_tokens, "temperature": 0.2}
        timeout = httpx.Timeout(self.timeout, connect=self.probe_timeout)
        try:
            with (
                httpx.Client(timeout=timeout) as client,
                client.stream(
                    "POST", f"{self.base_url}/chat/completions", json=payload, headers=self._headers()
                ) as response,
            ):
                if response.status_code != 200:
                    response.read()
                    raise self._status_error(response, model)
                yield from self._events(response)
        except httpx.ConnectError:
            raise LLMUnavailableError(
                f"The OpenAI-compatible endpoint {self.base_url} is not reachable — start the server or fix "
                "CODEQA_OPENAI_BASE_URL."
            ) from None
        except httpx.TimeoutException:
            raise LLMTimeoutError(
                f"The endpoint at {self.where} did not answer within {self.timeout:g} s — try again or raise "
                "CODEQA_LLM_TIMEOUT_SECONDS."
            ) from None
        except httpx.HTTPError as exc:
            raise LLMError(f"The connection to {self.where} broke ({exc.__class__.__name__}).") from None

    def _events(self, response: httpx.Response) -> Iterator[str]:
        """Text deltas from an SSE body; an ``error`` event mid-stream becomes an ``LLMError``."""
        for line in response.iter_lines():
            if not line.startswith("data:"):
                continue  # blank separators, ": keep-alive" comments, "event:" lines
            data = line[5:].strip()
            if data == "[DONE]":
                return
            try:
                event: Any = json.loads(data)
            except ValueError:
                raise LLMError(f"The endpoint at {self.where} sent an event that is not JSON: {data[:80]!r}") from None
            if isinstance(event, dict) and event.get("error"):
                error = event["error"]
                message = error.get("message", error) if isinstance(error, dict) else error
                raise LLMError(f"The endpoint at {self.where} reported an error: {message}")
            for choice in event.get("choices") or []:
                text = (choice.get("delta") or {}).get("content") or ""
                if text:
                    yield text


def _configured(settings: Settings) -> bool:
    return bool(settings.openai_base_url)


register(BackendTraits("openai", "OpenAI-compatible endpoint", OpenAICompatibleBackend, 20, in_auto=_configured))
