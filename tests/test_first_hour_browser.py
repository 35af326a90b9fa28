"""A newcomer's first hour (#21), in a real served app and headless Chromium: what a first user saw go wrong."""

from __future__ import annotations

import urllib.request
from pathlib import Path

import pytest

from codeqa.answer.llm.backends.embedded import packaged_gguf
from codeqa.config import Settings
from tests.helpers import build_index
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


LONG_PATH = "services/authentication/providers/enterprise_single_sign_on_provider_registry.py"
LONG_FILE = (
    '"""Which single sign-on providers an enterprise account may use."""\n\n\n'
    "def registered_single_sign_on_providers_for_enterprise_account(account, registry, *, include_disabled=False):\n"
    "    return [provider for provider in registry.providers_for(account.organisation)"
    " if include_disabled or provider.enabled]\n"
)

HEADING_BREAKS = """heading => {
  const text = heading.textContent, breaks = [];
  const walker = document.createTreeWalker(heading, NodeFilter.SHOW_TEXT);
  let last = null, seen = "";
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let i = 0; i < node.length; i++) {
      const range = document.createRange(); range.setStart(node, i); range.setEnd(node, i + 1);
      const top = range.getBoundingClientRect().top;
      if (last !== null && top > last + 4) { breaks.push(seen); }
      last = top; seen += node.data[i];
    }
  }
  return breaks.map(before => before.slice(-1));
}"""


def test_long_paths_and_long_lines_are_readable_on_the_code_page_and_beside_the_map(
    tmp_path: Path, isolated_home: Path
):
    from urllib.parse import quote

    from playwright.sync_api import expect

    from tests.conftest import init_repo
    from tests.sample_repo import SAMPLE_FILES

    repo = init_repo(tmp_path / "shop", {**SAMPLE_FILES, LONG_PATH: LONG_FILE})
    build_index(str(repo), Settings(home=isolated_home), name="shop")
    with serve_app(isolated_home) as url, watched_page(width=1400, height=900) as watched:
        page = watched.page
        page.goto(f"{url}/Code?index=shop&path={quote(LONG_PATH, safe='/')}&lines=4-5")
        heading = page.get_by_role("heading", name=LONG_PATH)
        expect(heading).to_be_visible()
        ends = heading.evaluate(HEADING_BREAKS)
        assert ends and set(ends) == {"/"}, ends  # wrapped after a "/" only, never inside a name

        page.goto(f"{url}/Map")
        page.get_by_label("Find on the map").fill("which single sign-on providers may an enterprise account use?")
        page.keyboard.press("Enter")
        matches = page.get_by_test_id("stRadio").filter(has_text="Matches for")
        expect(matches).to_be_visible()
        matches.locator("label").filter(has_text="registered_single_sign_on_providers").first.click()
        code = page.locator(".cq-code pre").filter(has_text="registered_single_sign_on").first
        expect(code).to_be_visible()
        box = code.evaluate("pre => [pre.scrollWidth, pre.clientWidth, pre.getBoundingClientRect().width]")
        assert box[0] <= box[1] + 1, box  # nothing hidden to the right (it was clipped at ~15 columns)
        char = code.evaluate("pre => { const s = document.createElement('span'); s.style.whiteSpace = 'pre';"
                             " s.textContent = 'x'.repeat(100); pre.append(s);"
                             " const w = s.getBoundingClientRect().width / 100; s.remove(); return w; }")  # fmt: skip
        assert box[2] / char >= 40, (box, char)  # and at least 40 columns wide (in a 1400 px window)


def test_the_server_warms_every_page_when_it_starts(shop_home: Path):
    """What `scripts/run` does beside the server: once it answers, have it load imports, indexes and the model."""
    import threading
    import time

    from codeqa_ui.warm import ping

    processes: list = []
    with serve_app(shop_home, {"CODEQA_WARM_APP": "true"}, processes) as url:
        lines: list[str] = []
        reader = threading.Thread(target=lambda: lines.extend(iter(processes[0].stdout.readline, "")), daemon=True)
        reader.start()
        assert ping(url)  # Home ran once, in the server, before any visitor
        deadline = time.monotonic() + 120
        while not any("codeqa: warmed" in line for line in lines) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert any("codeqa: warmed 1 index(es)" in line for line in lines), lines[-20:]
        assert not any("Traceback" in line for line in lines)
