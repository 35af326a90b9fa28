"""The answer-backend registry: every backend declares its traits once, and a new backend needs no other edit.

The stand-in backend here is a real backend that runs in this process (no server to imitate): it answers with a
fixed sentence and keeps every prompt it was sent, so the tests can see what ``ask`` asked of it.
"""

from __future__ import annotations

import typing
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest
from typer.testing import CliRunner

from codeqa.answer.llm.backends import BackendStatus, LLMBackend, Message, choose_backend, list_backends, register
from codeqa.answer.llm.backends.base import estimate_tokens
from codeqa.answer.llm.backends.registry import BackendTraits, choices, find, names, traits_of, unregister
from codeqa.cli import app as cli
from codeqa.config import Settings, get_settings
from codeqa.errors import QueryError
from codeqa.service.mcp_server import BACKEND_HELP
from codeqa.service.models import AskRequest
from tests.helpers import ask_named
from tests.indexed_home import build_sample_index
from tests.llm_standins import closed_port

ECHO = "SessionStore.login checks the password with `hash_password`."
APP = str(Path(__file__).resolve().parent.parent / "app.py")


class EchoBackend:
    """Answers every prompt with ``ECHO``; ``sent`` keeps the prompts."""

    local = True
    context_tokens = 4096

    def __init__(self, name: str, sent: list[list[Message]]) -> None:
        self.name = name
        self.sent = sent

    def status(self) -> BackendStatus:
        return BackendStatus(self.name, True, "Echo, in this process", ["echo-1"], True)

    def resolve_model(self, requested: str | None) -> str:
        return requested or "echo-1"

    def count_tokens(self, text: str) -> int:
        return estimate_tokens(text)

    def stream_chat(self, messages: list[Message], model: str, *, max_tokens: int) -> Iterator[str]:
        self.sent.append(messages)
        yield from (ECHO[:20], ECHO[20:])


@pytest.fixture
def sent() -> list[list[Message]]:
    return []


@pytest.fixture
def echo(sent: list[list[Message]]) -> Iterator[BackendTraits]:
    """A backend called "echo", first in "Automatic", registered for one test only."""
    traits = BackendTraits(
        "echo", "Echo stand-in", lambda settings: EchoBackend("echo", sent), auto_order=0, caveat="an echo"
    )
    yield register(traits)
    unregister("echo")


def swap(traits: BackendTraits, **changes) -> BackendTraits:
    unregister(traits.name)
    return register(replace(traits, **changes))


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    settings, _ = build_sample_index(tmp_path_factory.mktemp("registry"))
    return settings


@pytest.fixture
def no_llm(shop: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Settings:
    """The sample index on a machine where no built-in backend can answer."""
    monkeypatch.setenv("CODEQA_HOME", str(shop.home))
    monkeypatch.setenv("OLLAMA_HOST", f"127.0.0.1:{closed_port()}")
    monkeypatch.setenv("CODEQA_GGUF_PATH", str(tmp_path / "absent.gguf"))
    for name in ("CODEQA_OPENAI_BASE_URL", "CODEQA_LLM_BACKEND", "CODEQA_EMBEDDED_AUTO"):
        monkeypatch.delenv(name, raising=False)
    get_settings.cache_clear()
    yield get_settings()
    get_settings.cache_clear()


# -- the registry ---------------------------------------------------------------------------------------------------
def test_every_built_in_backend_is_registered_with_its_traits(tmp_path: Path):
    assert names() == ("ollama", "openai", "embedded")  # the auto order
    assert choices() == ("auto", *names(), "none")
    settings = Settings(home=tmp_path)
    for name in names():
        traits = find(name)
        assert traits is not None and traits.name == name and traits.label
        backend = traits.make(settings)
        assert isinstance(backend, LLMBackend) and backend.name == name and traits_of(backend) is traits
    assert [t.name for t in map(find, names()) if t and t.small_model] == ["embedded"]
    assert [status.name for status in list_backends(settings)] == [*names(), "none"]


def test_names_are_unique_and_not_auto_or_none(echo: BackendTraits):
    register(echo)  # the same traits again: nothing changes
    assert names().count("echo") == 1
    with pytest.raises(ValueError, match="already registered"):
        register(replace(echo, label="Another echo"))
    for taken in ("auto", "none", "Echo", ""):
        with pytest.raises(ValueError, match="cannot be called"):
            register(replace(echo, name=taken))
    with pytest.raises(QueryError, match="choose one of auto, echo, ollama, openai, embedded, none"):
        choose_backend(Settings(), "nonesuch")


def test_every_face_offers_the_registered_backends():
    """CODEQA_LLM_BACKEND, ``--backend`` of ask and eval, the MCP tool and the HTTP API all name the same set."""
    assert set(typing.get_args(Settings.model_fields["llm_backend"].annotation)) == set(choices())
    texts = [BACKEND_HELP, AskRequest.model_fields["backend"].description or ""]
    runner = CliRunner()
    for command in ("ask", "eval"):
        result = runner.invoke(cli, [command, "--help"], env={"COLUMNS": "200", "NO_COLOR": "1"})
        assert result.exit_code == 0, result.output
        texts.append(" ".join(result.output.split()))
    for text in texts:
        assert all(name in text for name in choices()), text


# -- a new backend, registered here, with no edit to select.py, answering.py or chat.py ------------------------------
def test_a_registered_backend_is_chosen_first_in_auto_and_answers(no_llm: Settings, echo, sent):
    choice = choose_backend(no_llm, model="llama3")
    assert choice.backend is not None and choice.backend.name == "echo" and choice.model == "llama3"
    assert choice.notice == "Answer from llama3, an echo."  # its caveat, said with every answer
    stream = ask_named("shop", "how are passwords checked when a user logs in?", no_llm)
    assert "".join(stream) == ECHO
    answer = stream.result()
    assert answer.backend == "echo" and answer.model == "echo-1" and answer.generated
    assert answer.notice == "Answer from echo-1, an echo." and len(sent) == 1

    swap(echo, own_model=True)  # runs its own model: Automatic passes it no model name meant for a server
    assert choose_backend(no_llm, model="llama3").model == "echo-1"
    swap(echo, in_auto=lambda settings: False)  # left out of Automatic, still there when asked for
    assert choose_backend(no_llm).backend is None
    assert choose_backend(no_llm, "echo").backend is not None


def test_its_traits_shape_the_answer(no_llm: Settings, echo, sent):
    question = "and where is that tested?"
    history = [("user", "How does login check the password?"), ("assistant", "With `hash_password`.")]
    ask_named("shop", question, no_llm, history=history).result()
    assert len(sent) == 2  # a follow-up: the model condensed it into a search query, then answered

    sent.clear()
    swap(echo, small_model=True, condenses_follow_ups=False)
    stream = ask_named("shop", question, no_llm, history=history)
    extractive = ask_named("shop", question, no_llm, history=history, backend="none").result().text
    answer = stream.result()
    assert len(sent) == 1  # no condensing: the one call is the summary
    assert answer.text == f"{ECHO}\n\n{extractive}"  # a small model's paragraph on top of the extractive answer


def test_the_app_labels_and_offers_a_registered_backend(no_llm: Settings, echo):
    swap(echo, in_auto=lambda settings: False, auto_hint="Echo is ready: pick it under **Backend**.")
    st.cache_data.clear()
    st.cache_resource.clear()
    at = AppTest.from_file(APP, default_timeout=90)
    at.switch_page("pages/1_Chat.py")
    at = at.run()
    assert not at.exception, [e.value for e in at.exception]
    picker = at.selectbox(key="backend")
    assert "Echo stand-in" in picker.options and "Ollama — unavailable" in picker.options
    said = " ".join(info.value for info in at.info)
    assert "No language model is available" in said and "Echo is ready: pick it under **Backend**." in said

    picker.set_value("echo")
    at = at.run()
    at.chat_input[0].set_value("how are passwords checked?")
    at = at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert any(c.value.startswith("Answered by echo · echo-1") for c in at.caption), [c.value for c in at.caption]
    st.cache_data.clear()
    st.cache_resource.clear()
