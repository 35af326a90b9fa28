"""``codeqa serve`` as users run it (``scripts/run`` goes through it), attacked in a real Chromium (security #18):

- DNS rebinding: Chromium resolves ``evil.test`` to 127.0.0.1 (``--host-resolver-rules``), as an attacker's DNS would;
  the app must not render under that name, and its WebSocket must refuse that Host, while it keeps working at
  http://127.0.0.1:PORT and http://localhost:PORT;
- privacy: no page makes the browser fetch anything from another host (the tab icon used to come from Google);
- exposure: a non-loopback ``--address`` needs ``--allow-remote`` and then warns;
- stopping: SIGTERM (a service manager, ``docker stop``) stops the server and everything it started (#21 item 12).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from codeqa.config import Settings
from tests.helpers import build_index
from tests.indexed_home import make_sample_repo
from tests.served_app import serve_app, watched_page
from tests.test_app import NO_LLM
from tests.test_browser import ROOT, free_port, wait_healthy

REBIND = ("--host-resolver-rules=MAP evil.test 127.0.0.1",)
PAGES = ("Chat", "Map", "Overview")


def port_of(url: str) -> int:
    return int(url.rsplit(":", 1)[1])


@pytest.mark.slow
def test_a_rebound_name_gets_nothing_and_the_app_works_on_its_own_names(isolated_home: Path, tmp_path: Path):
    from playwright.sync_api import expect

    build_index(str(make_sample_repo(tmp_path / "shop")), Settings(home=isolated_home), name="shop")
    with serve_app(isolated_home) as url, watched_page(args=REBIND, also_local=frozenset({"evil.test"})) as watched:
        page, port = watched.page, port_of(url)
        response = page.goto(f"http://evil.test:{port}/")
        assert response is not None and response.status == 400
        assert "Invalid host header" in page.content()
        expect(page.get_by_role("heading", name="codeqa")).to_have_count(0)

        for own in (url, f"http://localhost:{port}"):
            page.goto(own)
            expect(page.get_by_role("heading", name="codeqa")).to_be_visible()
            for name in PAGES:
                page.get_by_role("link", name=name).first.click()
                expect(page.get_by_role("heading", name="shop").first).to_be_visible()
            page.goto(f"{own}/Code?index=shop&path=shop/auth.py")
            expect(page.get_by_role("heading", name="auth.py").first).to_be_visible()
        # from the app's own page, a WebSocket to the rebound name is refused (the app's own one works: it rendered)
        opened = page.evaluate(
            """url => new Promise(done => {
                const ws = new WebSocket(url);
                ws.onopen = () => { ws.close(); done("open"); };
                ws.onerror = () => done("refused");
                setTimeout(() => done("timeout"), 10000);
            })""",
            f"ws://evil.test:{port}/_stcore/stream",
        )
        assert opened == "refused"
        assert watched.outside == [], "a page contacted another host (the tab icon used to come from Google)"

    with serve_app(isolated_home, {"CODEQA_ALLOWED_HOSTS": "devbox.lan"}) as url:
        port = port_of(url)
        for host, status in ((f"devbox.lan:{port}", 200), (f"evil.test:{port}", 400), (f"[::1]:{port}", 200)):
            assert httpx.get(f"{url}/", headers={"Host": host}).status_code == status, host
        cross_site = httpx.get(f"{url}/_stcore/health", headers={"Origin": "https://evil.test"})
        assert cross_site.status_code == 403


def _descendants(pid: int) -> set[int]:
    """Every process whose parent chain leads to ``pid``."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.slow
def test_sigterm_stops_the_server_and_everything_it_started(isolated_home: Path):
    """#21 item 12: ``docker stop`` sends SIGTERM to ``codeqa serve``; the port must be free and no child left."""
    port = free_port()
    env = {**os.environ, "CODEQA_HOME": str(isolated_home), **NO_LLM}
    command = [sys.executable, "-m", "codeqa", "serve", "--port", str(port)]
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, process, seconds=60)
        with watched_page() as watched:  # a live browser session, as when a user has the app open
            watched.page.goto(url)
            watched.page.get_by_role("heading", name="codeqa").wait_for()
            started = _descendants(process.pid)
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                pytest.fail("codeqa serve was still running 10 s after SIGTERM")
        deadline = time.monotonic() + 5
        while any(_alive(pid) for pid in started) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [pid for pid in started if _alive(pid)], "processes started by codeqa serve outlived it"
        with socket.socket() as probe:
            assert probe.connect_ex(("127.0.0.1", port)) != 0, "the port still answers after codeqa serve stopped"
    finally:
        for pid in [process.pid, *_descendants(process.pid)]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        process.wait(5)


def test_a_public_address_needs_allow_remote(isolated_home: Path):
    """Finding 15: the app has no login, so ``--address 0.0.0.0`` alone is refused before anything is bound."""
    env = {**os.environ, "CODEQA_HOME": str(isolated_home), **NO_LLM}
    command = [sys.executable, "-m", "codeqa", "serve", "--address", "0.0.0.0", "--port", str(free_port())]
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _, stderr = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        for pid in [process.pid, *_descendants(process.pid)]:
            os.kill(pid, signal.SIGKILL)
        process.wait(5)
        pytest.fail("codeqa serve --address 0.0.0.0 started the app without --allow-remote")
    assert process.returncode == 2
    assert "refusing to serve the app on 0.0.0.0" in " ".join(stderr.split()) and "--allow-remote" in stderr


def test_allow_remote_warns_and_the_launch_line(monkeypatch: pytest.MonkeyPatch):
    """With --allow-remote the server warns which names it answers to; it execs Streamlit with no file watcher."""
    from codeqa.cli import app

    launched: list[list[str]] = []
    moved: list[Path] = []
    monkeypatch.setattr(os, "execve", lambda path, argv, env: launched.append(argv) or moved.append(env))
    monkeypatch.setattr(os, "chdir", lambda folder: moved.append(Path(folder)))
    monkeypatch.setenv("CODEQA_ALLOWED_HOSTS", "devbox.lan")
    result = CliRunner().invoke(app, ["serve", "--address", "0.0.0.0", "--allow-remote", "--port", "9999"])
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert "reachable from other machines on 0.0.0.0 and has no login" in said and "devbox.lan" in said
    (argv,) = launched
    assert argv[1:5] == ["-P", "-m", "streamlit", "run"] and argv[5].endswith("app_server.py")
    folder, env = moved  # in the app's own folder, never importing from it or reading its settings (#34)
    assert folder == Path(argv[5]).parent and env["PYTHONSAFEPATH"] == "1" and env["CODEQA_LAUNCH_DIR"] == os.getcwd()
    flags = dict(zip(argv[6::2], argv[7::2], strict=False))
    assert flags["--server.address"] == "0.0.0.0" and flags["--server.port"] == "9999"
    assert flags["--server.fileWatcherType"] == "none" and flags["--server.headless"] == "true"

    sneaky = CliRunner().invoke(app, ["serve", "--", "--server.address", "0.0.0.0"])
    assert sneaky.exit_code == 2 and "--address" in sneaky.output and not launched[1:]


def _children(pid: int) -> list[tuple[int, str]]:
    """(pid, state) of each child of ``pid``, read from /proc."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid:
            found.append((int(stat.parent.name), fields[0]))
    return found


@pytest.mark.slow
def test_scripts_run_leaves_no_zombie_beside_the_server(isolated_home: Path):
    """`scripts/run` warms the server from a helper process; once it is done, nothing of it stays (#37)."""
    port = free_port()
    env = {**os.environ, "CODEQA_HOME": str(isolated_home), "CODEQA_PORT": str(port), **NO_LLM}
    process = subprocess.Popen([str(ROOT / "scripts" / "run")], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip
    try:
        wait_healthy(f"http://127.0.0.1:{port}", process, seconds=300)
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and any(state != "Z" for _, state in _children(process.pid)):
            time.sleep(0.5)  # the warm-up helper is still working (it is no child once it is fixed)
        assert [pid for pid, state in _children(process.pid) if state == "Z"] == [], "a zombie beside the server"
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(5)
