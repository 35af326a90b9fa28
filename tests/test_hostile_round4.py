"""Security round 4 (#34), the medium and low findings, each against the real server it is about: ``codeqa api``
under uvicorn, the app as ``codeqa serve`` serves it, raw sockets for what no polite client sends.

A page on another local port; clients hanging up on a streamed answer; a 20,000-character pathological question;
a 200 MB header and 300 slowloris connections; cross-site ``<img>`` tags guessing no token; ``git://`` to names
that only look like loopback.
"""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

import httpx
import pytest

from codeqa.config import Settings
from codeqa.errors import UnsafeSourceError
from codeqa.jobs import check_source
from codeqa.retrieve.query import CODE_LIKE, FILE_LIKE, _identifiers, qualified_names, query_identifiers
from codeqa.service.serving import HEADER_TIMEOUT_SECONDS
from tests.helpers import growth, search_hits
from tests.indexed_home import build_sample_index
from tests.llm_standins import OpenAIStandIn
from tests.served_app import serve_app
from tests.service_servers import api_server, server_env

TOKEN = "a-long-random-token-for-tests-0123456789"
SEARCH = {"question": "how is the password hashed?", "k": 3}
PATHOLOGICAL = {  # name: (start, unit repeated to ~20,000 characters)
    "traceback": ('File "', "a"),
    "word": ("", "a1"),
    "dots": ("", "a."),
    "camel": ("", "aA"),
    "snake": ("", "a_"),
}


def pathological(name: str, characters: int = 20_000) -> str:
    start, unit = PATHOLOGICAL[name]
    return start + unit * ((characters - len(start)) // len(unit))


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Settings, Path]:
    return build_sample_index(tmp_path_factory.mktemp("round4"))


def port_of(url: str) -> int:
    return int(url.rsplit(":", 1)[1])


def websocket_status(port: int, origin: str, host: str | None = None) -> int:
    """The status a WebSocket upgrade to the app's ``/_stcore/stream`` gets (101 = opened), sent as a browser would."""
    lines = [
        "GET /_stcore/stream HTTP/1.1",
        f"Host: {host or f'127.0.0.1:{port}'}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version: 13",
        f"Origin: {origin}",
    ]
    with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        answer = b""
        while b"\r\n" not in answer and (data := sock.recv(4096)):
            answer += data
    return int(answer.split(b" ", 2)[1])


def test_a_page_on_another_port_cannot_open_the_apps_websocket(isolated_home: Path):
    """Finding 3: a page on http://localhost:3000 opened the app's WebSocket (101) and could re-run its pages."""
    with serve_app(isolated_home) as url:
        port = port_of(url)
        for other in ("http://localhost:3000", "http://127.0.0.1:3000", f"https://localhost:{port + 1}"):
            assert websocket_status(port, other) == 403, other
            assert httpx.get(f"{url}/_stcore/health", headers={"Origin": other}).status_code == 403, other
        for own in (f"http://localhost:{port}", f"http://127.0.0.1:{port}"):
            assert websocket_status(port, own) == 101, own
        # a published container port (8080 → this port): the browser's Origin and Host both say 8080
        assert websocket_status(port, "http://localhost:8080", host="localhost:8080") == 101
        assert websocket_status(port, "http://localhost:3000", host="localhost:8080") == 403


def test_a_page_on_another_port_is_refused_by_the_api(indexed):
    """Finding 3, the API: only its own port is its own origin."""
    with api_server(server_env(indexed[0])) as url:
        port = port_of(url)
        search = f"{url}/indexes/shop/search"
        for other in ("http://localhost:3000", f"http://127.0.0.1:{port + 1}", "http://localhost"):
            refused = httpx.post(search, json=SEARCH, headers={"Origin": other})
            assert refused.status_code == 403 and other in refused.text, other
        for own in (f"http://localhost:{port}", f"http://127.0.0.1:{port}"):
            assert httpx.post(search, json=SEARCH, headers={"Origin": own}).status_code == 200, own


def test_a_client_that_hangs_up_gives_its_stream_slot_back(indexed):
    """Finding 4: two clients giving up on a streamed answer (``curl -m 2``) left every later stream refused."""
    model_may_answer = threading.Event()

    def silent_model(_: dict) -> list[str]:
        model_may_answer.wait(60)  # the model thinks for a long time before its first word
        return ["Hashed with PBKDF2 [1]."]

    with OpenAIStandIn(reply=silent_model) as llm:
        env = server_env(
            indexed[0], CODEQA_LLM_BACKEND="openai", CODEQA_OPENAI_BASE_URL=f"{llm.url}/v1", CODEQA_API_MAX_STREAMS="2"
        )
        try:
            with api_server(env) as url:
                stream = f"{url}/indexes/shop/ask/stream"
                for _ in range(2):  # read the sources, then hang up while the model is silent
                    with httpx.stream("POST", stream, json=SEARCH, timeout=30) as response:
                        assert response.status_code == 200
                        assert next(response.iter_lines()).startswith("event: sources")
                deadline = time.monotonic() + 10
                while True:
                    with httpx.stream("POST", stream, json=SEARCH, timeout=30) as again:
                        if again.status_code == 200:
                            break
                        assert again.status_code == 429
                    assert time.monotonic() < deadline, "streams whose clients left still hold their slots"
                    time.sleep(0.5)
        finally:
            model_may_answer.set()


def test_a_pathological_question_parses_in_linear_time(indexed):
    """Finding 6: ``File "`` and 19,994 × 'a' took 14 s to parse (each start of a long word rescanned the rest, so the
    work grew with the square of the question). 8 times the question must cost about 8 times, not 64: parsing it and
    searching with it (in-process, on the real index; the served search must answer the same questions)."""

    search_hits("shop", "warm up", indexed[0], k=3)  # the model and the index loaded before anything is measured
    for name in PATHOLOGICAL:

        def parse(characters: int, name: str = name) -> None:
            _identifiers.cache_clear()
            question = pathological(name, characters)
            CODE_LIKE.findall(question), FILE_LIKE.findall(question)
            query_identifiers(question), qualified_names(question)

        def search(characters: int, name: str = name) -> None:
            search_hits("shop", pathological(name, characters), indexed[0], k=3)

        assert growth(parse, 2_500) < 3 * 8, name
        assert growth(search, 2_500, repeats=1) < 3 * 8, name  # once each: the tokenizer caches what it has seen
    names, files = query_identifiers('File "pkg/auth.py", line 3, in hash_password and Hasher.make_hash(pw)')
    assert {"hash_password", "hasher.make_hash", "make_hash"} <= names and "pkg/auth.py" in files
    with api_server(server_env(indexed[0])) as url:
        for name in PATHOLOGICAL:
            found = httpx.post(f"{url}/indexes/shop/search", json={"question": pathological(name), "k": 3}, timeout=60)
            assert found.status_code == 200 and found.json(), name


def send_huge_header(port: int, size: int) -> tuple[bytes, int]:
    """A request whose one header grows to ``size`` bytes until the server answers or hangs up; (answer, bytes sent)."""
    answer = bytearray()
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:

        def read() -> None:
            try:
                while data := sock.recv(65536):
                    answer.extend(data)
            except OSError:
                pass

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        sock.sendall(f"GET /indexes HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Filler: ".encode())
        block = b"a" * (1 << 20)
        try:
            while sent < size and reader.is_alive():
                sock.sendall(block)
                sent += len(block)
        except OSError:  # the server gave up on this request and closed the connection
            pass
        reader.join(10)
    return bytes(answer), sent


def slowloris(port: int, connections: int, seconds: float) -> int:
    """Open ``connections`` requests that send a header line every second and never finish; how many are still
    open after ``seconds`` (a request that is cut off sees the connection closed)."""
    socks = []
    for _ in range(connections):
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        sock.sendall(f"GET /health HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode())
        sock.setblocking(False)
        socks.append(sock)
    deadline = time.monotonic() + seconds
    open_ = set(socks)
    try:
        while open_ and time.monotonic() < deadline:
            for sock in list(open_):
                try:
                    if sock.recv(4096) == b"":
                        open_.discard(sock)
                        continue
                except BlockingIOError:
                    pass
                except OSError:
                    open_.discard(sock)
                    continue
                try:
                    sock.send(b"X-Slow: 1\r\n")
                except BlockingIOError:
                    pass
                except OSError:
                    open_.discard(sock)
            time.sleep(1)
        return len(open_)
    finally:
        for sock in socks:
            sock.close()


def check_header_limits(url: str, health: str) -> None:
    """The 200 MB header is refused after at most a few MB; 300 slow requests are all cut off in time while
    ``health`` keeps answering."""
    port = port_of(url)
    answer, sent = send_huge_header(port, 200 * 1024 * 1024)
    assert sent <= 8 * 1024 * 1024, f"the server read {sent >> 20} MB of one header"
    assert answer == b"" or answer.startswith((b"HTTP/1.1 400", b"HTTP/1.1 431")), answer[:80]
    still_open: list[int] = []
    holding = threading.Thread(target=lambda: still_open.append(slowloris(port, 300, HEADER_TIMEOUT_SECONDS + 15)))
    holding.start()
    time.sleep(2)
    assert httpx.get(f"{url}{health}", timeout=10).status_code == 200
    holding.join()
    assert still_open == [0], f"{still_open[0]} of 300 slow requests were still open"  # cut off by the timeout


def test_a_huge_or_slow_header_is_cut_off_by_the_api(indexed):
    """Finding 7, the API: a 200 MB header was read in full; 300 slowloris connections were never closed."""
    with api_server(server_env(indexed[0], CODEQA_API_TOKEN=TOKEN)) as url:
        check_header_limits(url, "/health")
        assert httpx.get(f"{url}/indexes", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200


def test_a_huge_or_slow_header_is_cut_off_by_the_app(isolated_home: Path):
    """Finding 7, the served app (uvicorn under Streamlit): the same two attacks."""
    with serve_app(isolated_home) as url:
        check_header_limits(url, "/_stcore/health")


IMAGE_ON_ANOTHER_SITE = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "image"}


def test_cross_site_requests_cannot_lock_out_the_token(indexed):
    """Finding 10: twenty ``<img src=…/indexes>`` on another site locked the real token out for 600 s."""
    env = server_env(indexed[0], CODEQA_API_TOKEN=TOKEN, CODEQA_API_FAILED_AUTH_LIMIT="5")
    with api_server(env) as url:
        auth = {"Authorization": f"Bearer {TOKEN}"}
        for site in ("cross-site", "same-site"):  # same-site: a page on another port of localhost
            headers = {**IMAGE_ON_ANOTHER_SITE, "Sec-Fetch-Site": site}
            images = [httpx.get(f"{url}/indexes", headers=headers) for _ in range(20)]
            assert {r.status_code for r in images} == {403} and "another site" in images[0].json()["error"]["message"]
        bare = [httpx.get(f"{url}/indexes").status_code for _ in range(20)]  # no token at all is no guess
        assert bare == [401] * 20
        assert httpx.get(f"{url}/indexes", headers=auth).status_code == 200
        followed = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"}
        assert httpx.get(f"{url}/health", headers=followed).status_code == 200  # a link the user clicked
        assert httpx.get(f"{url}/indexes", headers=followed).status_code == 401
        own = {**auth, "Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "cors"}
        assert httpx.get(f"{url}/indexes", headers=own).status_code == 200
        guesses = [httpx.get(f"{url}/indexes", headers={"Authorization": f"Bearer guess{n}"}) for n in range(6)]
        assert [r.status_code for r in guesses] == [401] * 5 + [429]  # a wrong token still counts


@pytest.mark.parametrize("host", ["127.evil.example", "127.0.0.1.nip.io"])
def test_git_to_a_name_that_only_looks_like_loopback_is_refused(host: str):
    """Finding 11: ``git://127.evil.example/r.git`` passed the loopback test (a prefix match on "127.")."""
    with pytest.raises(UnsafeSourceError, match="git:// is accepted from this machine only"):
        check_source(f"git://{host}/team/r.git", None)
    for own in ("127.0.0.1", "127.0.0.2:9418", "localhost", "[::1]"):
        assert check_source(f"git://{own}/team/r.git", None)


def test_git_to_a_lookalike_name_is_refused_by_the_api(indexed):
    """Finding 11 through ``POST /jobs``: refused before any clone starts."""
    with api_server(server_env(indexed[0]), "--allow-write") as url:
        for host in ("127.evil.example", "127.0.0.1.nip.io"):
            job = httpx.post(f"{url}/jobs", json={"source": f"git://{host}/team/r.git", "name": "r"})
            assert job.status_code == 422 and "from this machine only" in job.json()["error"]["message"], job.text
