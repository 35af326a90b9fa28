"""``ask`` end to end on a real index (real git, chunker, embedding model, Chroma) with each way an LLM can fail.

LLM servers are stand-ins driven through the real clients (tests/llm_standins.py); the extractive answer and the
CLI need no model at all.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from codeqa.answer import Answer, AnswerStream
from codeqa.answer.llm.brief import SOURCES_INTRO
from codeqa.answer.llm.conversation import QUOTED_ANSWER
from codeqa.answer.llm.prompt import SYSTEM_PROMPT
from codeqa.cli import app
from codeqa.config import Settings
from codeqa.errors import IndexNotFoundError, QueryError
from codeqa.retrieve import Filters
from tests.conftest import init_repo
from tests.helpers import ask_named, build_index
from tests.llm_standins import OllamaStandIn, OpenAIStandIn, closed_port
from tests.sample_repo import SAMPLE_FILES

QUESTION = "how are passwords checked when a user logs in?"
LOCATION = re.compile(r"`([\w./-]+):(\d+)-(\d+)`")


@pytest.fixture(scope="module")
def index_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One real index of the sample repository, shared by this module's tests (indexing is the slow part)."""
    root = init_repo(tmp_path_factory.mktemp("shop-repo"), SAMPLE_FILES)
    home = tmp_path_factory.mktemp("answer-home")
    build_index(str(root), Settings(home=home), name="shop")
    return home


@pytest.fixture
def base(index_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Settings:
    """Settings on the shared index with no LLM reachable unless a test starts one."""
    monkeypatch.setenv("CODEQA_HOME", str(index_home))
    monkeypatch.setenv("OLLAMA_HOST", f"127.0.0.1:{closed_port()}")
    monkeypatch.setenv("CODEQA_GGUF_PATH", str(tmp_path / "absent.gguf"))
    return Settings(home=index_home)


def configured(base: Settings, **changes) -> Settings:
    return Settings(**{**base.model_dump(), **changes})


def finish(stream: AnswerStream) -> tuple[list[str], Answer]:
    pieces = list(stream)
    return pieces, stream.result()


def assert_extractive_fallback(stream: AnswerStream, answer: Answer, notice: str) -> None:
    assert answer.backend == "none" and answer.model is None and not answer.generated
    assert answer.text == stream.extractive and answer.text.startswith("**Extractive map")
    assert answer.notice == f"{notice} Showing the extractive map."
    assert answer.sources and answer.citations_invalid == []


def test_extractive_answer_finds_the_right_file_and_symbol(base: Settings):
    repo = Path(Settings(home=base.home).home_dir)  # noqa: F841 - documents that nothing else is needed
    stream = ask_named("shop", QUESTION, base, backend="none")
    assert stream.notice is None and stream.sources
    pieces, answer = finish(stream)
    assert pieces == [stream.extractive] and answer.text == stream.extractive
    assert answer.sources[0].chunk.path == "shop/auth.py"
    assert "`SessionStore`" in answer.text or "`SessionStore.login`" in answer.text
    assert "hash_password" in answer.text
    for path, start, end in LOCATION.findall(answer.text):
        lines = SAMPLE_FILES[path].split("\n")
        assert 1 <= int(start) <= int(end) <= len(lines)
    assert answer.citations_valid >= 3 and answer.citations_invalid == []


def test_streamed_ollama_answer_with_citation_check(base: Settings):
    tokens = ["Passwords are checked in `SessionStore.login` [1]", " with `hash_password` [2]", " (see [99])."]
    with OllamaStandIn(reply=tokens) as server:
        stream = ask_named("shop", QUESTION, configured(base, ollama_host=server.url), backend="ollama")
        assert stream.notice is None and stream.backend == "ollama" and stream.extractive.startswith("**Extractive")
        pieces, answer = finish(stream)
        chat = server.bodies("/api/chat")[-1]
    assert "".join(pieces) == "".join(tokens) and answer.text == "".join(tokens)  # shown sentence by sentence
    assert answer.generated and answer.backend == "ollama" and answer.model == "qwen2.5-coder:7b"
    assert answer.citations_valid == 2 and answer.citations_invalid == ["[99]"]
    assert chat["messages"][0] == {"role": "system", "content": SYSTEM_PROMPT}
    user = chat["messages"][-1]["content"]
    assert f"[1] {answer.sources[0].location} (python)" in user and QUESTION in user
    quoted = re.findall(r"^\[(\d+)\] (\S+) \(", user, re.MULTILINE)  # numbered as the extractive answer numbers
    assert 1 <= len(quoted) <= 5 and all(answer.sources[int(n) - 1].location == where for n, where in quoted)
    flow = user.split(SOURCES_INTRO)[0]  # the checked facts and the key lines come first
    assert "How the code answers" in flow and "hmac.compare_digest(hash_password(password" in flow


def test_reader_stopping_early_keeps_the_partial_answer(base: Settings):
    with OllamaStandIn(reply=["One [1]. ", "Two", " three"]) as server:
        stream = ask_named("shop", QUESTION, configured(base, ollama_host=server.url), backend="ollama")
        for piece in stream:
            assert piece == "One [1]. "  # a sentence is shown once it is complete (and its claims checked)
            break
        answer = stream.result()
    assert answer.text == "One [1]. " and answer.generated and answer.citations_valid == 1
    assert answer.notice == "The answer was stopped before it was complete."
    assert list(stream) == ["One [1]. "]  # iterating again replays the finished text


def test_ollama_down_gives_one_line_notice_and_extractive_answer(base: Settings):
    stream = ask_named("shop", QUESTION, base, backend="ollama")
    host = base.ollama_host
    message = f"Ollama is not reachable at http://{host} — start it with `ollama serve` or set OLLAMA_HOST."
    assert stream.notice == f"{message} Showing the extractive map."
    pieces, answer = finish(stream)
    assert pieces == [stream.extractive]
    assert_extractive_fallback(stream, answer, message)


def test_ollama_model_not_pulled(base: Settings):
    with OllamaStandIn() as server:
        stream = ask_named(
            "shop", QUESTION, configured(base, ollama_host=server.url), backend="ollama", model="llama3.2"
        )
        _, answer = finish(stream)
    assert_extractive_fallback(
        stream,
        answer,
        "Ollama has no model 'llama3.2' — pull it with `ollama pull llama3.2` (installed: qwen2.5-coder:7b).",
    )


def test_ollama_error_mid_stream_keeps_partial_answer(base: Settings):
    with OllamaStandIn(reply=["Login uses hash_password [2].", " More"], mode="error-mid") as server:
        stream = ask_named("shop", QUESTION, configured(base, ollama_host=server.url), backend="ollama")
        pieces, answer = finish(stream)
    assert pieces == ["Login uses hash_password [2]."] and answer.text == pieces[0]
    assert answer.generated and answer.backend == "ollama" and answer.citations_valid == 1
    assert answer.notice == (
        "The answer was cut off: Ollama reported an error: an error was encountered while running the model: "
        "unexpected EOF"
    )


def test_ollama_timeout_falls_back(base: Settings):
    with OllamaStandIn(mode="slow", delay=3) as server:
        settings = configured(base, ollama_host=server.url, llm_timeout_seconds=0.5)
        stream = ask_named("shop", QUESTION, settings, backend="ollama")
        _, answer = finish(stream)
        assert_extractive_fallback(
            stream,
            answer,
            f"Ollama at {server.url} did not answer within 0.5 s — the model may still be loading; try again or "
            "raise CODEQA_LLM_TIMEOUT_SECONDS.",
        )
    with OllamaStandIn(reply=["first", " second"], mode="stall", delay=3) as server:
        settings = configured(base, ollama_host=server.url, llm_timeout_seconds=0.5)
        _, stalled = finish(ask_named("shop", QUESTION, settings, backend="ollama"))
    assert stalled.text == "first" and stalled.generated
    assert stalled.notice is not None and stalled.notice.startswith("The answer was cut off: Ollama at")


def test_follow_up_is_condensed_for_retrieval(base: Settings):
    history = [("user", "How does SessionStore.login check the password?"), ("assistant", "With `hash_password` [1].")]
    heuristic = ask_named("shop", "and where is that tested?", base, history=history, backend="none")
    assert "SessionStore.login" in heuristic.query and heuristic.query.startswith("and where is that tested?")

    def reply(body):
        if "standalone search query" in body["messages"][0]["content"]:
            return ["where is SessionStore.login tested"]
        return ["It is tested in `tests/test_auth.py` [1]."]

    with OllamaStandIn(reply=reply) as server:
        stream = ask_named(
            "shop", "and where is that tested?", configured(base, ollama_host=server.url), history=history
        )
        _, answer = finish(stream)
        chat = server.bodies("/api/chat")[-1]["messages"]
    assert stream.query == "where is SessionStore.login tested" and answer.backend == "ollama"
    assert [m["role"] for m in chat] == ["system", "user", "assistant", "user"]
    assert chat[2]["content"].startswith(QUOTED_ANSWER)  # quoted as data: it may hold repository text
    assert "\nWith `hash_password`.\n" in chat[2]["content"]  # old [n] numbers refer to old sources


def test_openai_compatible_answer_and_auto_fallback(base: Settings):
    with OpenAIStandIn(reply=["See [1]."]) as server:
        settings = configured(base, openai_base_url=server.url)
        stream = ask_named("shop", QUESTION, settings)  # auto: Ollama is down, the configured endpoint answers
        _, answer = finish(stream)
    assert answer.backend == "openai" and answer.model == "local-model" and answer.text == "See [1]."
    assert answer.notice is not None and answer.notice.startswith("Ollama is not reachable at")
    assert "Using openai instead." in answer.notice and answer.citations_valid == 1

    nothing = ask_named("shop", QUESTION, base)  # auto with nothing available
    assert nothing.backend == "none" and nothing.notice is not None
    assert nothing.notice.startswith("No language model available. Ollama is not reachable at")


def test_bad_input_raises_codeqa_errors(base: Settings):
    with pytest.raises(QueryError, match="empty"):
        ask_named("shop", "   ", base)
    with pytest.raises(IndexNotFoundError, match="No index named 'nope'"):
        ask_named("nope", QUESTION, base)
    with pytest.raises(QueryError, match="Unknown backend"):
        ask_named("shop", QUESTION, base, backend="gpt")
    with pytest.raises(QueryError, match="'user' or 'assistant'"):
        ask_named("shop", QUESTION, base, history=[("system", "x")])
    with pytest.raises(QueryError, match="k must be"):
        ask_named("shop", QUESTION, base, k=0)
    empty = ask_named("shop", QUESTION, base, backend="none", filters=Filters(paths=("no/such/dir",)))
    assert empty.sources == [] and "No code in this index matched" in empty.result().text


runner = CliRunner()


def test_cli_ask_without_llm_prints_answer_sources_and_citations(base: Settings):
    result = runner.invoke(app, ["ask", "shop", QUESTION, "--backend", "none", "-k", "4"])
    assert result.exit_code == 0, result.output
    assert "Extractive map — not generated by a language model" in result.stdout
    answer, sources = result.stdout.split("\nSources:")
    assert re.search(r"^- \[1\] \S+ \(shop/auth\.py:\d+-\d+\)", answer, re.MULTILINE)  # numbered there, plain text
    assert re.match(r" \d+, cited above as \[n\] and path:start-end\.", sources)  # not listed a second time
    assert re.search(r"^Citations: \d+ valid, 0 not in the sources · extractive map", sources, re.MULTILINE)
    assert sum(1 for line in result.stdout.splitlines() if line.strip()) <= 60


def test_cli_ask_with_ollama_down_is_one_line_not_a_traceback(base: Settings):
    result = runner.invoke(app, ["ask", "shop", QUESTION, "--backend", "ollama", "--path", "shop"])
    assert result.exit_code == 0 and result.exception is None
    notes = [line for line in result.stderr.splitlines() if line.startswith("note:")]
    assert len(notes) == 1 and "Ollama is not reachable at" in notes[0] and "ollama serve" in notes[0]
    assert "Traceback" not in result.output and "\nSources: " in result.stdout  # the extractive answer numbers them
    assert re.search(r"^- \[1\] ", result.stdout, re.MULTILINE)


def test_cli_ask_streams_ollama_and_models_lists_it(base: Settings, monkeypatch: pytest.MonkeyPatch):
    with OllamaStandIn(reply=["Checked by ", "`hash_password` [1]."]) as server:
        monkeypatch.setenv("OLLAMA_HOST", server.url)
        result = runner.invoke(app, ["ask", "shop", QUESTION])
        listing = runner.invoke(app, ["models"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Checked by hash_password [1].\n")  # piped: plain text
    assert "generated by ollama (qwen2.5-coder:7b)" in result.stdout and "Citations: 1 valid" in result.stdout
    assert listing.exit_code == 0 and "qwen2.5-coder:7b" in listing.stdout and "ollama" in listing.stdout


def test_cli_ask_errors(base: Settings):
    missing = runner.invoke(app, ["ask", "nope", QUESTION])
    assert missing.exit_code == 5 and "No index named 'nope'" in missing.stderr
    empty = runner.invoke(app, ["ask", "shop", " "])
    assert empty.exit_code == 6 and "empty" in empty.stderr
