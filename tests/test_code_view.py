"""Citations you can follow: answers link every ``path:start-end`` to the Code page, which shows the whole file from
the index with the cited lines highlighted and scrolled into view, a GitHub permalink, and callers / callees.

AppTest runs the pages headless; the last test clicks a citation in a real Chromium against the served app."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from codeqa.answer import file_view, is_code_view_url
from codeqa.config import Settings, get_settings
from codeqa.errors import QueryError
from codeqa.index import Index
from tests.indexed_home import build_sample_index
from tests.sample_repo import SAMPLE_FILES
from tests.served_app import serve_app, watched_page
from tests.test_app import NO_LLM

APP = str(Path(__file__).resolve().parent.parent / "app.py")
CODE, CHAT = "pages/4_Code.py", "pages/1_Chat.py"
LINK = re.compile(r"\]\((Code\?index=shop&path=([^&)]+)&lines=(\d+)-(\d+))\)")


@pytest.fixture(scope="module")
def shop_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    settings, _ = build_sample_index(tmp_path_factory.mktemp("code-view"))
    return settings.home_dir


@pytest.fixture
def home(shop_home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CODEQA_HOME", str(shop_home))
    for name, value in NO_LLM.items():
        monkeypatch.setenv(name, value)
    get_settings.cache_clear()
    st.cache_resource.clear()
    st.cache_data.clear()
    yield shop_home
    st.cache_resource.clear()
    st.cache_data.clear()


def code_page(**params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    for key, value in params.items():
        at.query_params[key] = value
    at.switch_page(CODE)
    return at.run()


def test_the_file_comes_back_whole_from_the_index(home: Path) -> None:
    view = file_view(Index.open("shop", Settings(home=home)), "shop/auth.py", lines=(19, 29))
    assert "\n".join(view.lines).rstrip("\n") == SAMPLE_FILES["shop/auth.py"].rstrip("\n")
    assert view.symbol_at(20, 22) == "SessionStore.login" and view.symbol_at(8, 10) == "hash_password"
    with pytest.raises(QueryError, match="has no file 'shop/nope.py'"):
        file_view(Index.open("shop", Settings(home=home)), "shop/nope.py")
    with pytest.raises(QueryError, match="is not a file path"):
        file_view(Index.open("shop", Settings(home=home)), "../etc/passwd")


def test_code_page_highlights_the_cited_lines_and_offers_callers(home: Path) -> None:
    at = code_page(index="shop", path="shop/auth.py", lines="19-29")
    assert not at.exception and at.markdown[0].value == "# :material/code: shop/<wbr>auth.py"  # wraps after a "/"
    assert "lines 19–29" in at.caption[0].value
    body = next(h.proto.body for h in at.get("html") if "cq-L" in h.proto.body)
    highlighted = re.findall(r'<span id="cq-L(\d+)"><span class="cq-hit"', body)
    assert [int(n) for n in highlighted] == list(range(19, 30))
    assert 'id="cq-L1"' in body and f'id="cq-L{SAMPLE_FILES["shop/auth.py"].count(chr(10))}"' in body  # whole file
    assert [b.label for b in at.button] == ["Callers of SessionStore.login", "Callees of SessionStore.login"]
    at.button[1].click().run()
    shown = "\n".join(m.value for m in at.markdown)
    assert "`SessionStore.login` is defined at" in shown and "`hash_password`" in shown
    callee = re.search(r"- `hash_password` \(\[`shop/auth\.py:(\d+)-10`\]\(Code\?index=shop&path=shop/auth\.py", shown)
    assert callee, shown  # the callee is a link to its code too


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"index": "shop", "path": "shop/nope.py", "lines": "1-2"}, "has no file 'shop/nope.py'"),
        ({"index": "nope", "path": "shop/auth.py", "lines": "1-2"}, "No index named 'nope'"),
        ({}, "open it from a citation in Chat"),
    ],
)
def test_broken_code_links_are_one_clear_message(home: Path, params: dict[str, str], message: str) -> None:
    at = code_page(**params)
    assert not at.exception and message in at.error[0].value


def test_chat_answers_link_their_citations_to_the_code_page(home: Path) -> None:
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page(CHAT)
    at.run()
    at.chat_input[0].set_value("how are passwords checked when a user logs in?").run()
    answer = next(m.value for m in at.markdown if "Extractive map" in m.value)
    links = LINK.findall(answer)
    assert links and all(is_code_view_url(url) for url, *_ in links)
    for _, path, start, end in links:
        assert path in SAMPLE_FILES and 1 <= int(start) <= int(end) <= SAMPLE_FILES[path].count("\n") + 1
    assert "codeqa search" not in answer and "codeqa " not in answer  # no command-line instructions in the app


@pytest.mark.slow
def test_clicking_a_citation_opens_the_code_view_with_the_lines_highlighted(shop_home: Path) -> None:
    from playwright.sync_api import expect

    with serve_app(shop_home) as url, watched_page(height=900) as watched:
        page = watched.page
        page.goto(f"{url}/Chat")
        expect(page.get_by_role("heading", name="Chat with shop")).to_be_visible()
        page.get_by_test_id("stChatInputTextArea").fill("how are passwords checked when a user logs in?")
        page.keyboard.press("Enter")
        expect(page.get_by_text("Extractive map — not generated by a language model")).to_be_visible()
        citation = page.locator("[data-testid='stChatMessage'] a[href*='Code?index=shop&path=shop/auth.py']").first
        expect(citation).to_be_visible()
        href = citation.get_attribute("href") or ""
        start, end = (int(n) for n in re.search(r"lines=(\d+)-(\d+)", href).groups())  # type: ignore[union-attr]
        citation.click()  # in this tab and session (it used to open a new tab, a new session without the chat)
        code = page
        expect(code).to_have_url(re.compile(r"/Code\?index=shop&path=shop/auth\.py&lines=\d+-\d+$"))
        expect(code.get_by_role("heading", name="shop/auth.py")).to_be_visible()
        assert len(page.context.pages) == 1
        marked = code.locator(".cq-hit")
        expect(marked.first).to_be_visible()
        assert marked.count() == end - start + 1
        first_line = SAMPLE_FILES["shop/auth.py"].split("\n")[start - 1].strip()
        expect(code.locator(f"#cq-L{start}")).to_contain_text(first_line)
        expect(code.locator(f"#cq-L{start}")).to_be_in_viewport()
        expect(code.get_by_role("button", name=re.compile(r"^Callers of "))).to_be_visible()
        assert not code.get_by_test_id("stException").count()
        page.go_back()  # back to the conversation, as it was
        expect(page.get_by_role("heading", name="Chat with shop")).to_be_visible()
        expect(page.get_by_test_id("stChatMessage")).to_have_count(2)
        page.keyboard.down("Control")  # a ctrl-click still opens a tab of its own
        with page.context.expect_page() as opened:
            page.locator("[data-testid='stChatMessage'] a[href*='Code?index=shop&path=shop/auth.py']").first.click()
        page.keyboard.up("Control")
        expect(opened.value.get_by_role("heading", name="shop/auth.py")).to_be_visible()
    assert watched.foreign == []
