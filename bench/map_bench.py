"""How fast the map is: layout of an index cold (fresh process, imports included) and warm, and how long the app
takes to show the Map, Overview and Chat of indexes whose map was prepared after indexing.

Usage: python bench/map_bench.py NAME [NAME ...] [--home DIR] [--repeat 2] [--no-browser]

* ``layout cold``: a fresh Python process loads the index's vectors and runs ``compute_projection`` (layout +
  named regions) — what happens right after indexing; ``warm``: the same again in that process.
* ``prepare``: ``codeqa.explore.prepare`` (overview + map) in a fresh process, as after ``codeqa index``.
* with the browser (Debian's Chromium via Playwright, never ``playwright install``): a ``streamlit run`` server
  on 127.0.0.1; for each index, the seconds from clicking the page's link to the page showing that index's data
  (Map: the plot with its place names; Overview: the dependency section; Chat: the starter questions).
Targets (issue 13): map of 10k chunks shown ≤ 3 s from cache, 10k layout ≤ 30 s cold, Chat/Overview ≤ 3 s.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYOUT = """
import json, sys, time
started = time.perf_counter()
from codeqa.config import get_settings
from codeqa.explore.projection import compute_projection, load_vectors
from codeqa.index import Index
manifest = Index.open(sys.argv[1], get_settings())
data = load_vectors(manifest)
loaded = time.perf_counter()
runs = []
for _ in range(int(sys.argv[2])):
    t = time.perf_counter(); projection = compute_projection(data, manifest); runs.append(time.perf_counter() - t)
print(json.dumps({"chunks": len(data.ids), "load": loaded - started, "runs": runs, "regions": len(projection.regions),
                  "cold_total": loaded - started + runs[0]}))
"""
PREPARE = """
import json, sys, time
started = time.perf_counter()
from codeqa.config import get_settings
from codeqa.explore import prepare
from codeqa.explore.precompute import overview_path
from codeqa.explore.projection import projection_path
from codeqa.index import Index
index = Index.open(sys.argv[1], get_settings())
for path in (projection_path(index), overview_path(index)):
    path.unlink(missing_ok=True)
prepared = prepare(index)
print(json.dumps({"total": time.perf_counter() - started, "map": prepared.map_seconds,
                  "overview": prepared.overview_seconds}))
"""
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]  # fmt: skip


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def python(code: str, *args: str, env: dict[str, str]) -> dict:
    result = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, check=True)
    return json.loads(result.stdout.strip().splitlines()[-1])


def settled(page) -> None:
    """Until Streamlit's "running" indicator is gone (the script run that draws the page has finished)."""
    time.sleep(0.3)
    while page.get_by_test_id("stStatusWidget").count():
        time.sleep(0.1)


@contextlib.contextmanager
def served_app(env: dict[str, str], port: int) -> Iterator[str]:
    """``streamlit run app.py`` on 127.0.0.1:``port`` until the block ends; yields its URL once it is healthy."""
    command = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true", "--server.address",
               "127.0.0.1", "--server.port", str(port), "--browser.gatherUsageStats", "false"]  # fmt: skip
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                urllib.request.urlopen(f"{url}/_stcore/health", timeout=2)
                break
            except OSError:
                time.sleep(0.5)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def browser_times(names: list[str], env: dict[str, str]) -> list[tuple[str, str, float]]:
    from playwright.sync_api import sync_playwright

    times = []
    with served_app(env, 8500 + os.getpid() % 400) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1600, "height": 1000})
        page.set_default_timeout(300_000)
        page.goto(url)
        page.get_by_role("heading", name="codeqa").wait_for()
        for name in [*names, *names]:  # the second round: pages the browser has drawn before
            for label, ready in (
                ("Map", lambda: page.locator(".annotation-text").first.wait_for()),
                ("Overview", lambda: page.get_by_text("Dependencies between modules").wait_for()),
                ("Chat", lambda: page.get_by_text("Try one of these to start").wait_for()),
            ):
                started = time.perf_counter()
                page.get_by_test_id("stSidebar").get_by_role("link", name=label).click()
                heading = page.get_by_role("heading", name=" of ")
                heading.or_(page.get_by_role("heading", name="Chat with")).first.wait_for()
                if not page.get_by_role("heading", name=name, exact=False).count():
                    page.get_by_test_id("stSidebar").get_by_test_id("stSelectbox").first.click()
                    page.get_by_role("option", name=name, exact=True).click()
                page.get_by_role("heading", name=name, exact=False).first.wait_for()
                try:
                    ready()
                except Exception:
                    page.screenshot(path="/tmp/map_bench_failure.png")
                    raise
                settled(page)
                times.append((name, label, time.perf_counter() - started))
                print(f"  {label:<8} {name:<12} {times[-1][2]:5.1f} s", flush=True)
        browser.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="+", help="index names in the data dir")
    parser.add_argument("--home", help="CODEQA_HOME holding the indexes (default: the environment's)")
    parser.add_argument("--repeat", type=int, default=2, help="layouts per process (the first is cold)")
    parser.add_argument("--no-browser", action="store_true", help="skip the time-to-page measurements")
    args = parser.parse_args()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if args.home:
        env["CODEQA_HOME"] = args.home
    print(f"load average before: {load_average()}")
    print("(the browser visits every page twice: the first visit also loads the page's scripts and plotly.js)")
    for name in args.names:
        layout = python(LAYOUT, name, str(args.repeat), env=env)
        warm = ", ".join(f"{seconds:.1f}" for seconds in layout["runs"][1:]) or "-"
        print(
            f"{name}: {layout['chunks']:,} chunks · layout cold {layout['cold_total']:.1f} s "
            f"(process start + imports + vectors {layout['load']:.1f} s) · warm {warm} s · {layout['regions']} regions"
        )
        prepared = python(PREPARE, name, env=env)
        print(
            f"{name}: prepare in a fresh process {prepared['total']:.1f} s "
            f"(overview {prepared['overview']:.1f} s, map {prepared['map']:.1f} s)"
        )
    if not args.no_browser:
        print("time from clicking a page to its data on screen (map and overview prepared after indexing):")
        browser_times(args.names, env)
    print(f"load average after: {load_average()}")


if __name__ == "__main__":
    main()
