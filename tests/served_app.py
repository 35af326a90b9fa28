"""The real app served as users get it (``codeqa serve``: ``app.py`` behind the Host/Origin check) on 127.0.0.1,
and a headless Chromium page watching every request it makes: what the hostile-repository tests use to prove that
nothing on a page contacts another host."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from tests.test_app import NO_LLM
from tests.test_browser import CHROMIUM, CHROMIUM_ARGS, ROOT, free_port, wait_healthy

LOCAL_HOSTS = {"127.0.0.1", "localhost", "[::1]", "::1"}
APP_ASSET_HOSTS: set[str] = set()  # none: the tab icon is a local emoji, not a material symbol from fonts.gstatic.com


@contextlib.contextmanager
def serve_app(
    home: Path,
    env: dict[str, str] | None = None,
    processes: list[subprocess.Popen] | None = None,
    cwd: Path = ROOT,
) -> Iterator[str]:
    """``codeqa serve`` (the console script, as users run it) with ``CODEQA_HOME=home`` (and ``env``), started in
    ``cwd``, until the block ends (its process, Streamlit itself once ``codeqa serve`` has exec'd, is appended to
    ``processes`` for a test that watches it)."""
    port = free_port()
    full = {**os.environ, "CODEQA_HOME": str(home), **NO_LLM, **(env or {})}
    for name in ("CODEQA_OPENAI_BASE_URL", "CODEQA_LLM_BACKEND"):
        if name not in (env or {}):
            full.pop(name, None)
    command = [str(Path(sys.executable).with_name("codeqa")), "serve", "--address", "127.0.0.1", "--port", str(port)]
    process = subprocess.Popen(command, cwd=cwd, env=full, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}"
    if processes is not None:
        processes.append(process)
    try:
        wait_healthy(url, process)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


@dataclass
class Watched:
    """A browser page plus every request it tried to send to a host that is not this machine (all refused)."""

    page: Any
    outside: list[str] = field(default_factory=list)

    @property
    def foreign(self) -> list[str]:
        """Requests to other hosts, apart from Streamlit's own icon font."""
        return [url for url in self.outside if urlparse(url).hostname not in APP_ASSET_HOSTS]


@contextlib.contextmanager
def watched_page(
    width: int = 1400, height: int = 1000, *, args: tuple[str, ...] = (), also_local: frozenset[str] = frozenset()
) -> Iterator[Watched]:
    """A headless Chromium page whose requests to other hosts are recorded and aborted (nothing leaves).

    ``args`` are more Chromium flags (e.g. ``--host-resolver-rules``); ``also_local`` are host names let through
    because such a rule points them at this machine."""
    assert CHROMIUM.exists(), "Debian's chromium is required: apt-get install -y chromium (never playwright install)"
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=60_000)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=[*CHROMIUM_ARGS, *args])
        context = browser.new_context(viewport={"width": width, "height": height})
        watched = Watched(context.new_page())

        def route(route: Any) -> None:
            host = urlparse(route.request.url).hostname or ""
            if route.request.url.startswith(("data:", "blob:", "about:")) or host in LOCAL_HOSTS | also_local:
                route.continue_()
            else:
                watched.outside.append(route.request.url)
                route.abort()

        context.route("**/*", route)
        watched.page.set_default_timeout(60_000)
        try:
            yield watched
        finally:
            browser.close()
