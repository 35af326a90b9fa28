"""First visits of a fresh server: seconds until Home, Map and Chat are usable, then the same pages again.

Usage: python bench/first_visit_bench.py --home DIR [--root CHECKOUT] [--runs 3] [--warm] [--delay 8]

Each run starts ``streamlit run app.py`` from ``--root`` (another checkout, e.g. main, runs with its own code on
``PYTHONPATH``), waits for ``/_stcore/health``, optionally does what ``scripts/run`` does beside the server
(``--warm``: ``python -m codeqa_ui.warm URL``), waits ``--delay`` seconds (a person opening the browser), then a
fresh headless Chromium (Debian's, via Playwright) opens Home (the index table shown), Map (the plot and "Find on
the map") and Chat (the chat input and its heading) in turn, and again. The load average is printed with each run.
Target (#21): every page usable within 3 s on the first visit.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]  # fmt: skip
NO_LLM = {"OLLAMA_HOST": "http://127.0.0.1:9", "CODEQA_GGUF_PATH": "/nonexistent.gguf", "CODEQA_WARM_APP": "true"}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def serve(root: Path, home: str, warm: bool) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = {**os.environ, "CODEQA_HOME": home, **NO_LLM}
    if root != ROOT:
        env["PYTHONPATH"] = str(root)
    command = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
               "--server.address", "127.0.0.1", "--server.port", str(port)]  # fmt: skip
    process = subprocess.Popen(command, cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    while True:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2):
                break
        except OSError:
            time.sleep(0.2)
    if warm:
        subprocess.Popen([sys.executable, "-m", "codeqa_ui.warm", url], cwd=root, env=env)
    return process, url


def visit(page, url: str, name: str) -> float:
    from playwright.sync_api import expect

    started = time.monotonic()
    if name == "Home":
        page.goto(url)
        expect(page.get_by_test_id("stDataFrame").first).to_be_visible()
    elif name == "Map":
        page.goto(f"{url}/Map")
        expect(page.get_by_test_id("stPlotlyChart").locator("canvas").first).to_be_attached()
        expect(page.get_by_label("Find on the map")).to_be_visible()
    else:
        page.goto(f"{url}/Chat")
        expect(page.get_by_test_id("stChatInputTextArea")).to_be_visible()
        expect(page.get_by_role("heading", name="Chat with")).to_be_visible()
    return round(time.monotonic() - started, 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--home", required=True)
    parser.add_argument("--root", type=Path, default=ROOT)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--warm", action="store_true")
    parser.add_argument("--delay", type=float, default=8.0)
    options = parser.parse_args()
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=120_000)
    for _ in range(options.runs):
        process, url = serve(options.root.resolve(), options.home, options.warm)
        time.sleep(options.delay)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                first = {name: visit(page, url, name) for name in ("Home", "Map", "Chat")}
                again = {name: visit(page, url, name) for name in ("Home", "Map", "Chat")}
                browser.close()
            print(json.dumps({"first": first, "repeat": again, "load": round(os.getloadavg()[0], 1)}), flush=True)
        finally:
            process.terminate()
            process.wait(20)


if __name__ == "__main__":
    main()
