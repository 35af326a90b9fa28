"""How much memory the served app keeps: the server's RSS after each index is visited on every page, as a user would.

Usage: python bench/server_memory.py NAME [NAME ...] [--home DIR] [--index SOURCE=NAME ...]

``codeqa serve`` (as users run it, no language model) on 127.0.0.1 with Debian's Chromium driving it (never
``playwright install``). ``--index`` first indexes SOURCE as NAME from Home, in the server process (as the app
does). Then, for each NAME: the Map, the Overview and Chat with one question. The server's resident memory (RSS, from
/proc) is printed after each step, and once more after a pause (the background warm-up finished).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.map_bench import CHROMIUM_ARGS, load_average, settled  # noqa: E402

QUESTION = "where are errors handled?"


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def pick(page, name: str) -> None:
    if not page.get_by_role("heading", name=name, exact=False).count():
        page.get_by_test_id("stSidebar").get_by_test_id("stSelectbox").first.click()
        page.get_by_role("option", name=name, exact=True).click()
    page.get_by_role("heading", name=name, exact=False).first.wait_for()


def visit(page, label: str, name: str, ready) -> None:
    page.get_by_test_id("stSidebar").get_by_role("link", name=label).click()
    page.get_by_role("heading", name=" of ").or_(page.get_by_role("heading", name="Chat with")).first.wait_for()
    pick(page, name)
    ready()
    settled(page)


def index_in_app(page, url: str, source: str, name: str) -> None:
    page.goto(url)
    page.get_by_role("heading", name="codeqa").wait_for()
    page.get_by_label("Repository").fill(source)
    page.get_by_label("Index name").fill(name)
    page.get_by_role("button", name="Index", exact=True).click()
    page.get_by_text(f"Indexed {name}").wait_for(timeout=1_500_000)
    settled(page)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="+", help="index names in the data dir")
    parser.add_argument("--home", help="CODEQA_HOME holding the indexes (default: the environment's)")
    parser.add_argument("--index", action="append", default=[], help="SOURCE=NAME to index from Home first")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    from tests.served_app import serve_app

    env = {"PYTHONPATH": str(ROOT)}
    home = Path(args.home or os.environ["CODEQA_HOME"])
    processes: list = []
    print(f"load average before: {load_average()}")
    with serve_app(home, env=env, processes=processes) as url, sync_playwright() as playwright:
        pid = processes[0].pid
        print(f"served, idle: {rss_mb(pid):,.0f} MB")
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(300_000)
        for spec in args.index:
            source, name = spec.rsplit("=", 1)
            index_in_app(page, url, source, name)
            print(f"indexed {name} from Home: {rss_mb(pid):,.0f} MB", flush=True)
        page.goto(url)
        page.get_by_role("heading", name="codeqa").wait_for()
        for name in args.names:
            visit(page, "Map", name, lambda: page.locator(".annotation-text").first.wait_for())
            visit(page, "Overview", name, lambda: page.get_by_text("Dependencies between modules").wait_for())
            visit(page, "Chat", name, lambda: page.get_by_text("Try one of these to start").wait_for())
            page.get_by_test_id("stChatInputTextArea").fill(QUESTION)
            page.keyboard.press("Enter")
            page.get_by_test_id("stChatMessage").filter(has_text=QUESTION).first.wait_for()
            page.get_by_test_id("stChatMessage").last.get_by_text("Sources", exact=True).wait_for()
            settled(page)
            print(f"after {name} (Map, Overview, Chat + a question): {rss_mb(pid):,.0f} MB", flush=True)
        time.sleep(20)
        print(f"20 s later: {rss_mb(pid):,.0f} MB")
        browser.close()
    print(f"load average after: {load_average()}")


if __name__ == "__main__":
    main()
