"""A newcomer's first hour (#21), in a real served app and headless Chromium: what a first user saw go wrong."""

from __future__ import annotations

import urllib.request
from pathlib import Path

import pytest

from codeqa.answer.backends.embedded import packaged_gguf
from codeqa.config import Settings
from codeqa.pipeline import build_index
from tests.indexed_home import make_sample_repo
from tests.served_app import serve_app, watched_page

pytestmark = pytest.mark.slow
QUESTION = "how are passwords checked when a user logs in?"


@pytest.fixture
def shop_home(tmp_path: Path, isolated_home: Path) -> Path:
    build_index(str(make_sample_repo(tmp_path / "shop")), Settings(home=isolated_home), name="shop")
    return isolated_home


def ask_in_chat(page, question: str) -> None:
    from playwright.sync_api import expect

    page.get_by_test_id("stChatInputTextArea").fill(question)
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("stChatMessage").last.get_by_text("Sources", exact=True)).to_be_visible(timeout=240_000)


def healthy(url: str) -> bool:
    with urllib.request.urlopen(f"{url}/_stcore/health", timeout=5) as response:
        return response.status == 200


def test_a_crashing_embedded_model_is_one_message_in_the_chat_and_the_server_stays_up(shop_home: Path):
    from playwright.sync_api import expect

    env = {"CODEQA_LLM_BACKEND": "embedded", "CODEQA_GGUF_PATH": str(packaged_gguf()),
           "CODEQA_EMBEDDED_FAULT": "SIGILL@2#1", "CODEQA_ANSWER_MAX_TOKENS": "24",
           "CODEQA_ANSWER_TOKEN_BUDGET": "600"}  # fmt: skip
    with serve_app(shop_home, env) as url, watched_page() as watched:
        page = watched.page
        page.goto(f"{url}/Chat")
        expect(page.get_by_role("heading", name="Chat with shop")).to_be_visible()
        ask_in_chat(page, QUESTION)
        crash = page.get_by_text("The embedded model crashed (illegal instruction: this CPU lacks an instruction")
        expect(crash).to_have_count(1)
        assert healthy(url) and not page.get_by_text("Connection error").count()
        ask_in_chat(page, "where is the configuration loaded?")  # the next question starts a new worker
        expect(page.get_by_text("Answered by embedded").last).to_be_visible()
        expect(crash).to_have_count(1)
        assert healthy(url) and not page.get_by_test_id("stException").count()


def inotify_watches(pid: int) -> int:
    """Files and folders the process watches for changes (Streamlit's file watcher adds one per folder)."""
    count = 0
    for info in Path(f"/proc/{pid}/fdinfo").iterdir():
        try:
            count += sum(line.startswith("inotify wd:") for line in info.read_text().splitlines())
        except OSError:  # the fd closed meanwhile
            continue
    return count


def test_the_served_app_watches_no_files(shop_home: Path):
    """No file watcher in a served product: the log flooded with "Inotify queue overflowed" and idled at 48% CPU."""
    from playwright.sync_api import expect

    processes: list = []
    with serve_app(shop_home, processes=processes) as url, watched_page() as watched:
        watched.page.goto(f"{url}/Chat")
        expect(watched.page.get_by_role("heading", name="Chat with shop")).to_be_visible()
        assert inotify_watches(processes[0].pid) == 0
