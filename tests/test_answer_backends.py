"""Each LLM backend through its real client against a stand-in server (see tests/llm_standins.py)."""

from __future__ import annotations

import time

import pytest

from codeqa.answer import list_backends
from codeqa.answer.llm.backends.embedded import EmbeddedBackend
from codeqa.answer.llm.backends.ollama import OllamaBackend
from codeqa.answer.llm.backends.openai import OpenAICompatibleBackend
from codeqa.answer.llm.backends.select import choose_backend
from codeqa.config import Settings
from codeqa.errors import LLMError, LLMTimeoutError, LLMUnavailableError, ModelNotFoundError, QueryError
from tests.llm_standins import OllamaStandIn, OpenAIStandIn, closed_port

MESSAGES = [{"role": "system", "content": "rules"}, {"role": "user", "content": "question"}]


def with_(settings: Settings, **changes) -> Settings:
    """A validated copy (``model_copy`` would skip validation, e.g. leave a key as a plain str)."""
    return Settings(**{**settings.model_dump(), **changes})


@pytest.fixture
def ollama():
    with OllamaStandIn(models=("qwen2.5-coder:7b", "nomic-embed-text:latest"), reply=["Hel", "lo", " [1]"]) as server:
        yield server


def test_ollama_status_models_and_stream(ollama, settings: Settings):
    backend = OllamaBackend(with_(settings, ollama_host=ollama.url))
    status = backend.status()
    assert status.available and status.local
    assert status.detail == f"Ollama 0.6.5 at {ollama.url}"
    assert status.models == ["qwen2.5-coder:7b", "nomic-embed-text:latest"]
    assert backend.resolve_model(None) == "qwen2.5-coder:7b"  # embedding models are not chat models
    assert backend.resolve_model("qwen2.5-coder:7b") == "qwen2.5-coder:7b"
    assert list(backend.stream_chat(MESSAGES, "qwen2.5-coder:7b", max_tokens=50)) == ["Hel", "lo", " [1]"]
    sent = ollama.bodies("/api/chat")[-1]
    assert sent["messages"] == MESSAGES and sent["stream"] is True
    assert sent["options"]["num_ctx"] == settings.llm_context_tokens and sent["options"]["num_predict"] == 50


def test_ollama_model_not_pulled(ollama, settings: Settings):
    backend = OllamaBackend(with_(settings, ollama_host=ollama.url))
    backend.status()
    with pytest.raises(ModelNotFoundError) as missing:
        backend.resolve_model("llama3.2")
    assert str(missing.value) == (
        "Ollama has no model 'llama3.2' — pull it with `ollama pull llama3.2` "
        "(installed: qwen2.5-coder:7b, nomic-embed-text:latest)."
    )
    with pytest.raises(ModelNotFoundError, match=r"pull it with `ollama pull llama3.2`"):  # a 404 from /api/chat
        list(backend.stream_chat(MESSAGES, "llama3.2", max_tokens=10))


def test_ollama_server_down(settings: Settings):
    host = f"http://127.0.0.1:{closed_port()}"
    backend = OllamaBackend(with_(settings, ollama_host=host))
    message = f"Ollama is not reachable at {host} — start it with `ollama serve` or set OLLAMA_HOST."
    status = backend.status()
    assert not status.available and status.detail == message and status.models == []
    with pytest.raises(LLMUnavailableError) as down:  # streaming: httpx.ConnectError on the first next()
        next(iter(backend.stream_chat(MESSAGES, "m", max_tokens=10)))
    assert str(down.value) == message


def test_ollama_error_mid_stream_and_timeout(settings: Settings):
    with OllamaStandIn(reply=["partial", " rest"], mode="error-mid") as server:
        backend = OllamaBackend(with_(settings, ollama_host=server.url))
        pieces = []
        with pytest.raises(LLMError, match="Ollama reported an error: an error was encountered while running"):
            for piece in backend.stream_chat(MESSAGES, "qwen2.5-coder:7b", max_tokens=10):
                pieces.append(piece)
        assert pieces == ["partial"]
    with OllamaStandIn(mode="slow", delay=3) as server:
        backend = OllamaBackend(with_(settings, ollama_host=server.url, llm_timeout_seconds=0.5))
        started = time.monotonic()
        with pytest.raises(LLMTimeoutError, match=r"did not answer within 0.5 s .* CODEQA_LLM_TIMEOUT_SECONDS"):
            list(backend.stream_chat(MESSAGES, "qwen2.5-coder:7b", max_tokens=10))
        assert time.monotonic() - started < 2.5


def test_ollama_without_models(settings: Settings):
    with OllamaStandIn(models=()) as server:
        status = OllamaBackend(with_(settings, ollama_host=server.url)).status()
    assert not status.available
    assert (
        status.detail == f"Ollama 0.6.5 at {server.url} has no models — pull one with `ollama pull qwen2.5-coder:7b`."
    )


def test_openai_compatible_stream_key_and_errors(settings: Settings):
    with OpenAIStandIn(models=("local-model",), reply=["Hi", " there"], api_key="sekrit") as server:
        good = OpenAICompatibleBackend(with_(settings, openai_base_url=server.url, openai_api_key="sekrit"))
        status = good.status()
        assert status.available and status.local and status.models == ["local-model"]
        assert status.detail == f"OpenAI-compatible endpoint at {server.url}/v1"
        assert list(good.stream_chat(MESSAGES, good.resolve_model(None), max_tokens=20)) == ["Hi", " there"]
        assert server.bodies("/v1/chat/completions")[-1]["max_tokens"] == 20
        with pytest.raises(ModelNotFoundError, match="has no model 'gpt-9'"):
            list(good.stream_chat(MESSAGES, "gpt-9", max_tokens=5))
        wrong_key = OpenAICompatibleBackend(with_(settings, openai_base_url=server.url + "/v1", openai_api_key="x"))
        assert not wrong_key.status().available
        with pytest.raises(LLMUnavailableError, match=r"refused the request \(HTTP 401: Incorrect API key"):
            list(wrong_key.stream_chat(MESSAGES, "local-model", max_tokens=5))
    with OpenAIStandIn(reply=["one", "two"], mode="error-mid") as server:
        backend = OpenAICompatibleBackend(with_(settings, openai_base_url=server.url))
        with pytest.raises(LLMError, match="reported an error: server overloaded"):
            list(backend.stream_chat(MESSAGES, "local-model", max_tokens=5))
    assert OpenAICompatibleBackend(settings).status().detail.startswith("No OpenAI-compatible endpoint is configured")


def test_embedded_reports_how_to_enable_it(settings: Settings, tmp_path):
    missing = EmbeddedBackend(with_(settings, gguf_path=tmp_path / "nope.gguf")).status()
    assert not missing.available
    assert "nope.gguf does not exist" in missing.detail or "pip install 'codeqa[embedded]'" in missing.detail


def test_list_backends_and_auto_choice(ollama, settings: Settings, tmp_path):
    configured = with_(settings, ollama_host=ollama.url, gguf_path=tmp_path / "none.gguf")
    statuses = {status.name: status for status in list_backends(configured)}
    assert list(statuses) == ["ollama", "openai", "embedded", "none"]
    assert statuses["ollama"].available and not statuses["openai"].available and statuses["none"].available
    choice = choose_backend(configured)
    assert choice.backend is not None and choice.backend.name == "ollama" and choice.model == "qwen2.5-coder:7b"
    assert choice.notice is None

    down = with_(configured, ollama_host=f"http://127.0.0.1:{closed_port()}")
    fallback = choose_backend(down)
    assert fallback.backend is None and fallback.notice is not None
    assert fallback.notice.startswith("No language model available. Ollama is not reachable at")
    assert fallback.notice.endswith("Showing the extractive map.") and "\n" not in fallback.notice
    with pytest.raises(QueryError, match="Unknown backend 'gpt'"):
        choose_backend(configured, "gpt")
