"""Attacks on the edge of ``codeqa api``, against the real server under uvicorn on 127.0.0.1 (security #18).

A page on another site that resolves its name to 127.0.0.1 (DNS rebinding) or posts across origins; a 200 MB body
from a stranger; ``X-Forwarded-For`` to dodge the rate limit; guessing the token; hundreds of open event streams;
the docs page loading a CDN's script. Each test reproduces the attack and asserts that it is refused.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from codeqa.config import Settings
from tests.indexed_home import build_sample_index
from tests.service_servers import ROOT, api_process, api_server, free_port, server_env

TOKEN = "a-long-random-token-for-tests-0123456789"
SEARCH = {"question": "how is the password hashed?", "k": 3}


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Settings, Path]:
    return build_sample_index(tmp_path_factory.mktemp("edge"))


def port_of(url: str) -> int:
    return int(url.rsplit(":", 1)[1])


def test_dns_rebinding_and_other_sites_are_refused(indexed):
    """Finding 1: a foreign Host (rebinding) or Origin (a cross-site POST) cannot start a job that indexes /etc."""
    env = server_env(indexed[0], CODEQA_ALLOWED_HOSTS="devbox.lan")
    with api_server(env, "--allow-write") as url:
        port = port_of(url)
        job = {"source": "/etc", "name": "stolen"}
        rebound = httpx.post(f"{url}/jobs", json=job, headers={"Host": f"evil.test:{port}"})
        assert rebound.status_code == 400 and "Invalid host header" in rebound.text
        cross_site = httpx.post(
            f"{url}/jobs",
            content=b'{"source": "/etc", "name": "stolen"}',
            headers={"Content-Type": "text/plain", "Origin": "https://evil.test"},  # a form-like simple request
        )
        assert cross_site.status_code == 403 and "evil.test" in cross_site.text
        assert httpx.get(f"{url}/indexes", headers={"Origin": "null"}).status_code == 403
        assert httpx.get(f"{url}/indexes", headers={"Host": f"evil.test:{port}"}).status_code == 400
        assert [i["name"] for i in httpx.get(f"{url}/indexes").json()["indexes"]] == ["shop"]  # no job ran

        for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}", "localhost", f"devbox.lan:{port}"):
            assert httpx.get(f"{url}/indexes", headers={"Host": host}).status_code == 200, host
        own_page = {"Origin": f"http://localhost:{port}"}
        assert httpx.post(f"{url}/indexes/shop/search", json=SEARCH, headers=own_page).status_code == 200


def _send_large_body(url: str, size: int, headers: dict[str, str], chunked: bool = False) -> tuple[int, int]:
    """Send up to ``size`` bytes of body over a raw socket, stopping once the server answers; (status, bytes sent)."""
    port = port_of(url)
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        lines = ["POST /indexes/shop/search HTTP/1.1", f"Host: 127.0.0.1:{port}", "Content-Type: application/json"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        lines.append("Transfer-Encoding: chunked" if chunked else f"Content-Length: {size}")
        answer = bytearray()

        def read() -> None:
            try:
                while b"\r\n" not in answer and (data := sock.recv(65536)):
                    answer.extend(data)
            except OSError:
                pass

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        # small pieces, so the client notices the answer soon after it comes; what the kernel still holds in its
        # buffers, or what a slow reader thread lets through under load, is bounded well below the whole body
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 64 * 1024)
        block = b'{"question": "' + b"x" * (128 * 1024)
        sent = 0
        try:
            while sent < size and reader.is_alive():
                piece = block[: min(len(block), size - sent)]
                sock.sendall(b"%x\r\n%s\r\n" % (len(piece), piece) if chunked else piece)
                sent += len(piece)
        except OSError:  # the server answered and closed the connection: the rest of the body is not wanted
            pass
        reader.join(30)
    assert answer, f"no answer after {sent} bytes"
    return int(bytes(answer).split(b" ", 2)[1]), sent


def _peak_rss_mb(pid: int) -> float:
    """The process's peak resident memory so far (VmHWM), in MB."""
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM"))) / 1024


def test_a_huge_body_is_refused_before_it_is_read(indexed):
    """Finding 4: 200 MB without a token → 401 at once and no memory spent; with the token → 413 before parsing."""
    env = server_env(indexed[0], CODEQA_API_TOKEN=TOKEN)
    with api_process(env) as (url, process):
        auth = {"Authorization": f"Bearer {TOKEN}"}
        assert httpx.post(f"{url}/indexes/shop/search", json=SEARCH, headers=auth).status_code == 200
        before = _peak_rss_mb(process.pid)
        size = 200 * 1024 * 1024
        for headers, chunked, expected in (({}, False, 401), ({}, True, 401), (auth, False, 413), (auth, True, 413)):
            status, sent = _send_large_body(url, size, headers, chunked)
            assert (status, chunked) == (expected, chunked)
            # the bound is what a refusal leaves room for (the kernel's buffers and a late reader); reading the body
            # through would send all 200 MB. The server's own memory is checked below.
            assert sent <= 48 * 1024 * 1024, f"the server took {sent >> 20} MB of the body before refusing it"
        grown = _peak_rss_mb(process.pid) - before
        assert grown < 60, f"the server's peak memory grew by {grown:.0f} MB while refusing large bodies"
        not_json = httpx.post(f"{url}/indexes/shop/search", content=b"{not json")
        assert not_json.status_code == 401  # the token is checked before the body is parsed
        assert httpx.post(f"{url}/indexes/shop/search", json=SEARCH, headers=auth).status_code == 200


def test_forwarded_for_does_not_make_a_new_client(indexed):
    """Finding 5: X-Forwarded-For from 127.0.0.1 is not believed unless a proxy is configured."""
    env = server_env(indexed[0], CODEQA_API_SEARCH_PER_HOUR="3")
    with api_server(env) as url:
        statuses = [httpx.post(f"{url}/indexes/shop/search", json=SEARCH).status_code for _ in range(3)]
        spoofed = [
            httpx.post(f"{url}/indexes/shop/search", json=SEARCH, headers={"X-Forwarded-For": f"10.0.0.{n}"})
            for n in range(1, 6)
        ]
        assert statuses == [200, 200, 200] and [r.status_code for r in spoofed] == [429] * 5
    behind_proxy = server_env(indexed[0], CODEQA_API_SEARCH_PER_HOUR="1", CODEQA_API_FORWARDED_ALLOW_IPS="127.0.0.1")
    with api_server(behind_proxy) as url:  # configured: each forwarded client has its own budget
        for client in ("10.0.0.1", "10.0.0.2"):
            headers = {"X-Forwarded-For": client}
            assert httpx.post(f"{url}/indexes/shop/search", json=SEARCH, headers=headers).status_code == 200
            assert httpx.post(f"{url}/indexes/shop/search", json=SEARCH, headers=headers).status_code == 429


def test_wrong_tokens_are_limited(indexed):
    """Finding 6: after N wrong tokens a client gets 429 with Retry-After, even for the right token then."""
    env = server_env(indexed[0], CODEQA_API_TOKEN=TOKEN, CODEQA_API_FAILED_AUTH_LIMIT="5")
    with api_server(env) as url:
        guesses = [httpx.get(f"{url}/indexes", headers={"Authorization": f"Bearer guess{n}"}) for n in range(8)]
        assert [r.status_code for r in guesses] == [401] * 5 + [429] * 3
        assert int(guesses[-1].headers["Retry-After"]) > 0 and "Too many wrong tokens" in guesses[-1].text
        right = httpx.get(f"{url}/indexes", headers={"Authorization": f"Bearer {TOKEN}"})
        assert right.status_code == 429  # no oracle: while locked out, the right token does not answer either
        assert httpx.get(f"{url}/health").status_code == 200


@pytest.mark.parametrize("weak", ["x", "   ", "short-token", "has some spaces in it", "a" * 16, "abab" * 8])
def test_a_weak_token_is_refused_off_loopback(indexed, weak: str):
    """Finding 6: a one-character or whitespace token is not accepted for binding 0.0.0.0 (the server never starts)."""
    env = server_env(indexed[0], CODEQA_API_TOKEN=weak)
    command = [sys.executable, "-m", "codeqa", "api", "--host", "0.0.0.0", "--port", str(free_port())]
    try:
        result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail(f"codeqa api started on 0.0.0.0 with the token {weak!r}")
    assert result.returncode != 0 and "at least 16 characters without spaces" in result.stderr


@contextmanager
def silent_git_server() -> Iterator[str]:
    """A TCP server that accepts connections and never answers: a clone from it stays running until cancelled."""
    listener = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"https://127.0.0.1:{listener.getsockname()[1]}/team/repo.git"
    finally:
        stop.set()
        thread.join(2)
        for conn in held:
            conn.close()
        listener.close()


def test_event_streams_are_capped_and_do_not_starve_other_requests(indexed):
    """Finding 14: 60 open job streams leave /indexes fast; streams over the cap get 429 with Retry-After."""
    env = server_env(indexed[0], CODEQA_API_MAX_STREAMS="16")
    with silent_git_server() as source, api_server(env, "--allow-write") as url:
        job = httpx.post(f"{url}/jobs", json={"source": source, "name": "slow"}).json()
        assert job["state"] == "running"
        opened: list[int] = []
        release = threading.Event()

        def hold_stream() -> None:
            try:
                with httpx.stream("GET", f"{url}/jobs/{job['id']}/events", timeout=60) as response:
                    opened.append(response.status_code)
                    if response.status_code == 200:
                        release.wait(60)
            except httpx.HTTPError:
                opened.append(-1)

        with ThreadPoolExecutor(60) as pool:
            for _ in range(60):
                pool.submit(hold_stream)
            deadline = time.monotonic() + 60
            while len(opened) < 60 and time.monotonic() < deadline:
                time.sleep(0.1)
            # the streams are released only after this: a listing that waits for them times out
            listing = httpx.get(f"{url}/indexes", timeout=30)
            refused = httpx.get(f"{url}/jobs/{job['id']}/events", timeout=10)
            release.set()
        assert listing.status_code == 200, "/indexes did not answer while 16 event streams were open"
        assert sorted(opened).count(200) == 16 and opened.count(429) == 44, sorted(opened)
        assert (
            refused.status_code == 429 and refused.headers["Retry-After"] and "CODEQA_API_MAX_STREAMS" in refused.text
        )
        deadline = time.monotonic() + 20  # closed streams give their slots back
        while True:
            with httpx.stream("GET", f"{url}/jobs/{job['id']}/events", timeout=10) as again:
                if again.status_code == 200:
                    break
            assert time.monotonic() < deadline, "closed streams did not give their slots back"
            time.sleep(0.2)
        httpx.delete(f"{url}/jobs/{job['id']}")


def test_docs_load_nothing_from_another_host(indexed):
    """Finding 15: /docs loads no script or style from a CDN; it points to the schema at /openapi.json."""
    with api_server(server_env(indexed[0])) as url:
        docs = httpx.get(f"{url}/docs")
        assert docs.status_code == 200 and "/openapi.json" in docs.text
        assert "http://" not in docs.text and "https://" not in docs.text and "//cdn" not in docs.text
        assert httpx.get(f"{url}/redoc").status_code == 404
        assert httpx.get(f"{url}/openapi.json").json()["info"]["title"] == "codeqa"
