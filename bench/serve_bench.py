"""What the Host/Origin check in front of the app costs: ``streamlit run app.py`` (no check) vs ``codeqa serve``.

For each way of serving: the median and p95 of N sequential ``GET /`` and ``GET /_stcore/health`` (httpx, one
connection), and the time a fresh Chromium page takes from ``goto`` to the Home heading (R times, one server).

    python bench/serve_bench.py [--requests 300] [--loads 5]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
MODES = {
    "streamlit run app.py (before)": ["-m", "streamlit", "run", "app.py", "--server.headless", "true",
                                      "--server.fileWatcherType", "none", "--server.address", "127.0.0.1"],
    "codeqa serve (after)": ["-m", "codeqa", "serve", "--address", "127.0.0.1"],
}  # fmt: skip


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def served(args: list[str], home: str) -> Iterator[str]:
    port = free_port()
    env = {**os.environ, "CODEQA_HOME": home}
    process = subprocess.Popen(
        [sys.executable, *args, "--server.port" if args[1] == "streamlit" else "--port", str(port)],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(240):
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{url}/_stcore/health", timeout=2).status_code == 200:
                    break
            time.sleep(0.25)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def http_times(url: str, path: str, n: int) -> tuple[float, float]:
    with httpx.Client() as client:
        client.get(f"{url}{path}")
        times = []
        for _ in range(n):
            started = time.perf_counter()
            client.get(f"{url}{path}").raise_for_status()
            times.append((time.perf_counter() - started) * 1000)
    times.sort()
    return statistics.median(times), times[int(0.95 * (len(times) - 1))]


def page_loads(url: str, loads: int) -> list[float]:
    from playwright.sync_api import sync_playwright

    seconds = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        for _ in range(loads):
            page = browser.new_page()
            started = time.perf_counter()
            page.goto(url)
            page.get_by_role("heading", name="codeqa").wait_for(timeout=120_000)
            seconds.append(time.perf_counter() - started)
            page.close()
        browser.close()
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--loads", type=int, default=5)
    parser.add_argument("--home", default=os.environ.get("CODEQA_HOME", str(Path.home() / ".codeqa")))
    options = parser.parse_args()
    print(f"load: {os.getloadavg()[0]:.2f}")
    for mode, args in MODES.items():
        with served(args, options.home) as url:
            root = http_times(url, "/", options.requests)
            health = http_times(url, "/_stcore/health", options.requests)
            loads = page_loads(url, options.loads)
        print(
            f"{mode}: GET / {root[0]:.2f} ms (p95 {root[1]:.2f}), GET /_stcore/health {health[0]:.2f} ms "
            f"(p95 {health[1]:.2f}), Home in Chromium first {loads[0]:.2f} s, then median "
            f"{statistics.median(loads[1:] or loads):.2f} s (n={len(loads)})"
        )


if __name__ == "__main__":
    main()
