"""Text the API, MCP and the app hand out is text (#34 finding 12): a repository whose docstrings, and a model whose
answer, hold image markdown, an OSC-8 terminal hyperlink and a bare URL. The API under uvicorn and MCP over stdio
return no ESC byte and no image markdown (the notice "shown as text, nothing was loaded" is true there too); the
served app in Chromium shows the bare URL as text, not as a link, and its markdown holds no escape (its code views show
the code as written: a browser gives ESC no meaning)."""

from __future__ import annotations

import json

import anyio
import httpx
import pytest

from codeqa.answer.rendering.render import remote_references
from codeqa.config import Settings
from tests.conftest import init_repo
from tests.helpers import build_index
from tests.llm_standins import OpenAIStandIn
from tests.service_servers import api_server, server_env

IMAGE = "![x](http://evil.test/x.png)"
OSC8 = "\x1b]8;;http://evil.test\x1b\\click\x1b]8;;\x1b\\"
BARE = "https://evil.test/track"
FILES = {
    "shop/tracking.py": (
        f'def track_visit(user):\n    """Record a visit. {IMAGE} {OSC8} {BARE}"""\n    return user.id\n'
    ),
    "README.md": f"# Shop\n\nVisits are tracked: {IMAGE} {OSC8} see {BARE}\n",
}
QUESTION = "how is a visit tracked?"
REPLY = ["Visits are tracked by track_visit [1]. ", IMAGE[:9], IMAGE[9:], " ", OSC8[:6], OSC8[6:], f" {BARE}\n",
         "Done."]  # fmt: skip


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    base = tmp_path_factory.mktemp("escapes")
    settings = Settings(home=base / "home")
    build_index(str(init_repo(base / "repo", FILES)), settings, name="shop")
    return settings


def assert_text_only(raw: str, answer: str) -> None:
    assert "\x1b" not in raw and "\\u001b" not in raw.lower() and "\x9d" not in raw, raw[:300]
    assert remote_references(answer) == [], answer  # no image or link as CommonMark reads it (code is code)


def test_the_api_returns_text_without_escapes_or_images(hostile: Settings):
    with OpenAIStandIn(reply=REPLY) as llm:
        env = server_env(hostile, CODEQA_OPENAI_BASE_URL=f"{llm.url}/v1")
        with api_server(env) as url:
            body = {"question": QUESTION, "k": 4}
            generated = httpx.post(f"{url}/indexes/shop/ask", json={**body, "backend": "openai"}, timeout=120)
            answer = generated.json()
            assert answer["generated"] is True, answer
            assert_text_only(generated.text, answer["answer"])
            assert "\\[image: x — evil.test\\]" in answer["answer"] and "click" in answer["answer"]
            assert IMAGE not in answer["answer"] and BARE in answer["answer"]  # the API's URLs stay copyable
            assert "shown as text, nothing was loaded" in answer["notice"]

            extractive = httpx.post(f"{url}/indexes/shop/ask", json=body, timeout=120)
            assert extractive.json()["generated"] is False and "track_visit" in extractive.text
            assert_text_only(extractive.text, extractive.json()["answer"])

            found = httpx.post(f"{url}/indexes/shop/search", json=body, timeout=120)
            assert found.status_code == 200 and "\x1b" not in found.text and "\\u001b" not in found.text.lower()
            assert any("click" in line["text"] for r in found.json()["results"] for line in r["key_lines"])

            with httpx.stream("POST", f"{url}/indexes/shop/ask/stream", json={**body, "backend": "openai"},
                              timeout=120) as response:  # fmt: skip
                raw = response.read().decode()
            events = [json.loads(line[6:]) for line in raw.splitlines() if line.startswith("data: ")]
            tokens = "".join(event["text"] for event in events if set(event) == {"text"})
            assert_text_only(raw, tokens)
            assert tokens == events[-1]["answer"] == answer["answer"]


def test_mcp_returns_text_without_escapes_or_images(hostile: Settings):
    from tests.test_mcp import mcp_session

    async def scenario() -> None:
        with OpenAIStandIn(reply=REPLY) as llm:
            async with mcp_session(server_env(hostile, CODEQA_OPENAI_BASE_URL=f"{llm.url}/v1")) as client:
                for backend in ("openai", "none"):
                    result = await client.call_tool("ask", {"index": "shop", "question": QUESTION, "backend": backend})
                    assert not result.is_error, result
                    answer = result.structured_content
                    assert answer["generated"] is (backend == "openai"), answer
                    raw = json.dumps(answer, ensure_ascii=False) + "".join(c.text for c in result.content)
                    assert_text_only(raw, answer["answer"])
                found = await client.call_tool("search", {"index": "shop", "question": QUESTION})
                raw = json.dumps(found.structured_content, ensure_ascii=False) + found.content[0].text
                assert "\x1b" not in raw and "\\u001b" not in raw.lower()

    anyio.run(scenario)


@pytest.mark.slow
def test_the_app_shows_bare_urls_and_escapes_as_text(hostile: Settings):
    from playwright.sync_api import expect

    from tests.served_app import serve_app, watched_page
    from tests.test_render_gate_pages import OUTSIDE_LINKS

    with OpenAIStandIn(reply=REPLY) as llm:
        env = {"CODEQA_LLM_BACKEND": "openai", "CODEQA_OPENAI_BASE_URL": f"{llm.url}/v1"}
        with serve_app(hostile.home, env) as url, watched_page() as watched:
            page = watched.page
            page.goto(url)
            page.get_by_role("link", name="Chat").click()
            expect(page.get_by_role("heading", name="Chat with shop")).to_be_visible()
            page.get_by_test_id("stChatInputTextArea").fill(QUESTION)
            page.keyboard.press("Enter")
            expect(page.get_by_text("Answered by openai").first).to_be_visible(timeout=120_000)
            expect(page.get_by_text("nothing was loaded").first).to_be_visible()
            for i in range(page.get_by_test_id("stExpander").count()):
                page.get_by_test_id("stExpander").nth(i).locator("summary").click()
            page.wait_for_timeout(1500)
            shown = "\n".join(page.get_by_test_id("stMarkdownContainer").all_inner_texts())  # answers, captions
            assert "evil.test/track" in shown and "click" in shown  # the URL is shown, as text
            assert "\x1b" not in shown and "]8;;" not in shown  # the OSC-8 link is gone, its text kept
            assert page.evaluate(OUTSIDE_LINKS) == []  # no link to evil.test: not the bare URL, not the OSC-8 one
            assert not page.locator("img[src*='evil.test']").count()
        assert llm.bodies("/v1/chat/completions"), "the answer really came from the model"
    assert watched.foreign == []
