"""Screenshots of answers in the app, as a newcomer sees them: one PNG per (index, question), the whole answer.

Usage: python bench/answer_screenshots.py --home DIR --out docs/screenshots --suffix after [--root CHECKOUT]
       [--app NAME=LABEL ...] [--question KIND=TEXT ...]

The app is served by ``streamlit run app.py`` from ``--root`` (default: this checkout; give another checkout, with
``PYTHONPATH`` pointing at it, to photograph older code) on 127.0.0.1 with no language model reachable, and driven
by Debian's Chromium through Playwright (never ``playwright install``). For each index and question: a fresh page,
Chat opened, the index selected, the question typed and sent; once the answer and its footer are drawn, the
assistant's message is saved as ``answer-<LABEL>-<KIND>-<suffix>.png`` (the whole message, however tall), and its
height in pixels is printed.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from map_bench import CHROMIUM_ARGS, ROOT, served_app

SEEDS = {
    "auth": "How does user authentication flow through the system?",
    "errors": "What happens when an API request fails?",
    "logging": "Where would I add logging to track user behavior?",
}
FOOTER = "no language model was used"
NO_LLM = {"OLLAMA_HOST": "http://127.0.0.1:9", "CODEQA_GGUF_PATH": "/nonexistent/model.gguf"}


def _open_chat(page, url: str, name: str) -> None:
    page.goto(url)
    page.get_by_role("heading", name="codeqa").wait_for()
    page.get_by_test_id("stSidebar").get_by_role("link", name="Chat").click()
    page.get_by_role("heading", name="Chat with").first.wait_for()
    if not page.get_by_role("heading", name=f"Chat with {name}").count():
        page.get_by_test_id("stSidebar").get_by_test_id("stSelectbox").first.click()
        page.get_by_role("option", name=name, exact=True).click()
    page.get_by_role("heading", name=f"Chat with {name}").wait_for()
    page.get_by_placeholder(f"Ask about {name}…").wait_for()  # the previous repository's box may linger a moment
    time.sleep(3.0)  # the page's first run (starter questions, when the overview has them) settles


def _ask(page, question: str, name: str) -> None:
    box = page.get_by_placeholder(f"Ask about {name}…")
    box.fill(question)
    box.press("Enter")
    deadline = time.monotonic() + 600
    footer = page.get_by_text(FOOTER)
    while not footer.count() or page.get_by_test_id("stStatusWidget").count():
        if time.monotonic() > deadline or page.get_by_test_id("stException").count():
            raise RuntimeError(f"no answer on screen for {question!r}")
        time.sleep(0.2)
    time.sleep(1.0)  # let the last redraw settle


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--home", required=True, help="CODEQA_HOME holding the indexes")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--suffix", required=True, help="before / after")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose app is served")
    parser.add_argument("--app", action="append", default=[], help="NAME=LABEL (index name, label in file names)")
    parser.add_argument("--question", action="append", default=[], help="KIND=TEXT (default: the three seeds)")
    parser.add_argument("--width", type=int, default=1400)
    args = parser.parse_args()
    apps = dict(pair.split("=", 1) for pair in args.app) or {"ctfd": "ctfd"}
    questions = dict(pair.split("=", 1) for pair in args.question) or SEEDS
    env = {**os.environ, "CODEQA_HOME": args.home, "CODEQA_LLM_BACKEND": "none", **NO_LLM,
           "PYTHONPATH": str(args.root)}  # fmt: skip
    args.out.mkdir(parents=True, exist_ok=True)
    import map_bench
    from playwright.sync_api import sync_playwright

    map_bench.ROOT = args.root  # served_app runs app.py from here
    with served_app(env, 8100 + os.getpid() % 400) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        for name, label in apps.items():
            for kind, question in questions.items():
                page = browser.new_page(viewport={"width": args.width, "height": 1100})
                page.set_default_timeout(300_000)
                try:
                    _open_chat(page, url, name)
                    _ask(page, question, name)
                except Exception:
                    page.screenshot(path=str(args.out / f"failed-{label}-{kind}-{args.suffix}.png"))
                    raise
                message = page.get_by_test_id("stChatMessage").last
                box = message.bounding_box() or {"height": 0}
                # a viewport taller than the whole page: Streamlit's scrolling container then draws all of it
                page.set_viewport_size({"width": args.width, "height": int(box["height"]) + 1600})
                time.sleep(2.0)
                message.scroll_into_view_if_needed()
                target = args.out / f"answer-{label}-{kind}-{args.suffix}.png"
                message.screenshot(path=str(target))
                box = message.bounding_box() or {"height": 0}
                print(f"{target.name}: {int(box['height'])} px", flush=True)
                page.close()
        browser.close()


if __name__ == "__main__":
    main()
