"""The embedded model runs in a worker process: a native crash there (a real SIGILL, SIGSEGV or SIGKILL of a real
process) becomes one message in the answer, the asking process lives on, and the next question starts a new worker.

"Automatic" never picks the embedded model unless the user opted in: installing the test extras (llama.cpp and the
SmolLM2 GGUF are installed where these tests run) must not change what the app answers with.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from codeqa.answer.llm.backends.embedded import EmbeddedBackend, packaged_gguf
from codeqa.answer.llm.backends.embedded_process import crash_message, worker
from codeqa.answer.llm.backends.select import choose_backend
from codeqa.config import Settings
from codeqa.errors import LLMCrashedError
from tests.helpers import ask_named
from tests.indexed_home import build_sample_index
from tests.llm_standins import closed_port

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parent.parent
ILLEGAL = "The embedded model crashed (illegal instruction: this CPU lacks an instruction the build uses)"
KILLED = "The embedded model crashed (killed (SIGKILL), usually by the out-of-memory killer)"
QUESTION = "how are passwords checked when a user logs in?"


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    assert packaged_gguf() is not None, "the embedded extra is part of the test install: scripts/setup --test"
    settings, _ = build_sample_index(tmp_path_factory.mktemp("worker"))
    return settings


@pytest.fixture
def small(shop: Settings, monkeypatch: pytest.MonkeyPatch) -> Settings:
    """The shop index, no Ollama, a short prompt and answer (a 135M model on a busy CPU)."""
    for key, value in {"CODEQA_HOME": str(shop.home), "OLLAMA_HOST": f"http://127.0.0.1:{closed_port()}",
                       "CODEQA_ANSWER_TOKEN_BUDGET": "600", "CODEQA_ANSWER_MAX_TOKENS": "24"}.items():  # fmt: skip
        monkeypatch.setenv(key, value)
    for key in ("CODEQA_GGUF_PATH", "CODEQA_EMBEDDED_AUTO", "CODEQA_EMBEDDED_FAULT", "CODEQA_LLM_BACKEND"):
        monkeypatch.delenv(key, raising=False)
    yield Settings()
    worker().stop()


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}/stat").exists() and Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"


@pytest.mark.parametrize(("fault", "message"), [("SIGILL@3", ILLEGAL), ("SIGKILL@3", KILLED)])
def test_a_worker_killed_mid_answer_is_one_message_and_the_next_question_works(small: Settings, fault, message):
    first = ask_named("shop", QUESTION, small.model_copy(update={"embedded_fault": fault}), backend="embedded", k=4)
    pieces = list(first)
    answer = first.result()
    dead = worker()
    # the text that came before the crash is kept (one piece: a sentence is shown whole, its claims checked)
    assert len(pieces) >= 2 and pieces[0].strip() and pieces[0] in answer.text
    assert first.extractive.split("\n")[0] in answer.text  # and the extractive answer shown under them
    assert answer.notice is not None and answer.notice.startswith(f"The answer was cut off: {message}")
    assert answer.notice.count("crashed") == 1 and "The next question starts it again." in answer.notice
    assert dead.pid is None  # the crashed worker is gone, this process is not
    second = ask_named("shop", QUESTION, small, backend="embedded", k=4)
    reply = second.result()
    assert reply.generated and reply.backend == "embedded" and "crashed" not in (reply.notice or "")
    assert worker().pid is not None and alive(worker().pid)


def test_a_crash_before_the_first_token_falls_back_to_the_extractive_answer(small: Settings):
    crashed = ask_named("shop", QUESTION, small.model_copy(update={"embedded_fault": "SIGSEGV@0"}), backend="embedded")
    answer = crashed.result()
    assert not answer.generated and answer.backend == "none" and answer.text.startswith("**Extractive map")
    assert answer.notice and answer.notice.startswith("The embedded model crashed (segmentation fault in llama.cpp)")
    assert answer.notice.endswith("Showing the extractive map.")


def test_a_crash_while_loading_is_reported_and_the_model_stays_loaded_between_questions(small: Settings):
    backend = EmbeddedBackend(small.model_copy(update={"embedded_fault": "SIGKILL@load"}))
    with pytest.raises(LLMCrashedError, match=r"killed \(SIGKILL\)"):
        backend.count_tokens("def f(): pass")
    healthy = EmbeddedBackend(small)
    assert healthy.count_tokens("def f(): pass") > 3
    pid = worker().pid
    assert "".join(healthy.stream_chat([{"role": "user", "content": "Say hi."}], healthy.model_name, max_tokens=4))
    assert worker().pid == pid  # one worker, model kept loaded, reused by the next request


def test_an_answer_closed_early_is_stopped_in_the_worker(small: Settings):
    backend = EmbeddedBackend(small)
    tokens = backend.stream_chat([{"role": "user", "content": "Count from 1 to 100."}], "m", max_tokens=200)
    assert next(tokens)
    tokens.close()  # e.g. the browser left the page mid-answer
    assert backend.count_tokens("one two three") >= 3  # the next request gets its own reply, not leftover tokens


def test_the_cli_survives_a_crashed_worker(small: Settings):
    env = {**os.environ, "CODEQA_EMBEDDED_FAULT": "SIGILL@1"}
    result = subprocess.run([sys.executable, "-m", "codeqa", "ask", "shop", QUESTION, "--backend", "embedded"],
                            env=env, cwd=ROOT, capture_output=True, text=True, timeout=300)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert ILLEGAL in result.stdout + result.stderr and "Traceback" not in result.stderr
    assert "Sources:" in result.stdout


def test_messages_for_each_way_a_worker_dies():
    assert crash_message(-4).startswith(ILLEGAL) and "CMAKE_ARGS=-DGGML_NATIVE=OFF" in crash_message(-4)
    assert crash_message(-9).startswith(KILLED)
    assert "segmentation fault" in crash_message(-11) and "bus error" in crash_message(-7)
    assert crash_message(3, "loading\nRuntimeError: bad magic\n").startswith(
        "The embedded model crashed (its process exited with code 3: RuntimeError: bad magic)"
    )


def test_automatic_never_picks_the_embedded_model_unless_the_user_opted_in(small: Settings, tmp_path: Path):
    assert EmbeddedBackend(small).status().available  # installed and ready, as after scripts/test
    plain = choose_backend(small)
    assert plain.backend is None and plain.notice and "embedded" not in plain.notice.lower()
    opted = choose_backend(small.model_copy(update={"embedded_auto": True}))
    assert opted.backend is not None and opted.backend.name == "embedded"
    own = choose_backend(small.model_copy(update={"gguf_path": packaged_gguf()}))
    assert own.backend is not None and own.backend.name == "embedded"
    assert choose_backend(small, "embedded").backend is not None  # asked for by name: always allowed
    answer = ask_named("shop", QUESTION, small).result()
    assert answer.backend == "none" and not answer.generated


def test_a_native_crash_fails_the_embedded_test_not_the_pytest_run(tmp_path: Path):
    """What ended `scripts/test` at 2% with exit code 132: now one failed test and a summary."""
    env = {**os.environ, "CODEQA_EMBEDDED_FAULT": "SIGILL@0"}
    test = "tests/test_answer_embedded.py::test_embedded_model_streams_real_tokens_with_sources"
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", test],
                            env=env, cwd=ROOT, capture_output=True, text=True, timeout=600)  # fmt: skip
    assert result.returncode == 1, result.stdout[-2000:]  # "tests failed", not 132 (SIGILL) or 134
    assert "1 failed" in result.stdout and "The embedded model crashed (illegal instruction" in result.stdout
