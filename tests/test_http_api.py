"""`codeqa api` under a real uvicorn on 127.0.0.1, driven with httpx: every route, errors, auth, rate limit,
concurrency and server-sent events (answers from the OpenAI-compatible stand-in, indexing progress)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from codeqa.config import Settings
from tests.conftest import init_repo
from tests.indexed_home import build_sample_index
from tests.llm_standins import OpenAIStandIn, closed_port
from tests.service_servers import ROOT, api_server, server_env

TOKEN = "s3cret-token-for-tests"


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Settings, Path]:
    return build_sample_index(tmp_path_factory.mktemp("api"))


@pytest.fixture(scope="module")
def plain(indexed) -> Iterator[str]:
    with api_server(server_env(indexed[0])) as url:
        yield url


def events(response: httpx.Response) -> list[tuple[str, dict]]:
    """Parse a text/event-stream body into (event, data) pairs."""
    found = []
    for block in response.text.strip().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        found.append((fields["event"], json.loads(fields["data"])))
    return found


def test_read_routes(plain: str):
    health = httpx.get(f"{plain}/health").json()
    assert health["status"] == "ok" and health["allow_write"] is False

    indexes = httpx.get(f"{plain}/indexes").json()["indexes"]
    assert [i["name"] for i in indexes] == ["shop"]

    found = httpx.post(f"{plain}/indexes/shop/search", json={"question": "how is the password hashed?", "k": 3})
    assert found.status_code == 200
    top = found.json()["results"][0]
    assert top["location"] == "shop/auth.py:1-10" and top["symbol"] == "hash_password"
    assert any("def hash_password" in line["text"] for line in top["key_lines"])

    scoped = httpx.post(f"{plain}/indexes/shop/search", json={"question": "total", "paths": ["web"]}).json()
    assert scoped["results"] and {r["path"].split("/")[0] for r in scoped["results"]} == {"web"}

    files = httpx.post(f"{plain}/indexes/shop/files", json={"question": "where are sessions kept?"}).json()
    assert files["files"][0]["path"] == "shop/auth.py" and "SessionStore" in files["files"][0]["symbols"]

    defined = httpx.get(f"{plain}/indexes/shop/symbols/hash_password/definition").json()
    assert [r["path"] for r in defined["results"]] == ["shop/auth.py"] and defined["relation"] == "definition"
    callers = httpx.get(f"{plain}/indexes/shop/symbols/hash_password/callers").json()
    assert "SessionStore" in {r["symbol"] for r in callers["results"]}
    callees = httpx.get(f"{plain}/indexes/shop/symbols/SessionStore/callees", params={"limit": 5}).json()
    assert "hash_password" in {r["symbol"] for r in callees["results"]}

    view = httpx.get(f"{plain}/indexes/shop/overview").json()
    assert view["languages"][0] == {"name": "python", "count": view["languages"][0]["count"]}
    assert view["files"] == indexes[0]["files"] and view["central_symbols"]

    answer = httpx.post(f"{plain}/indexes/shop/ask", json={"question": "how does login work?"}, timeout=60).json()
    assert answer["generated"] is False and answer["backend"] == "none" and answer["sources"]

    schema = httpx.get(f"{plain}/openapi.json").json()
    assert "/indexes/{index}/search" in schema["paths"] and "/indexes/{index}/ask/stream" in schema["paths"]
    assert "/jobs" not in schema["paths"]  # read-only by default
    assert httpx.get(f"{plain}/docs").status_code == 200
    missing = httpx.post(f"{plain}/jobs", json={"source": "."})
    assert missing.status_code == 404 and missing.json()["error"]["type"] == "HTTPError"
    assert httpx.delete(f"{plain}/indexes/shop").status_code in (404, 405)


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "kind", "message"),
    [
        ("post", "/indexes/nope/search", {"question": "x"}, 404, "IndexNotFoundError", "No index named 'nope'"),
        ("post", "/indexes/shop/search", {"question": "  "}, 422, "QueryError", "The question is empty"),
        ("post", "/indexes/shop/search", {"question": "x", "kinds": ["fn"]}, 422, "ValidationError",
         "kinds.0: Input should be 'function', 'method', 'class', 'module', 'doc', 'config', 'test' or 'other' "
         "(got 'fn')"),
        ("post", "/indexes/shop/search", {"question": "x", "k": 0}, 422, "ValidationError",
         "k: Input should be greater than or equal to 1 (got 0)"),
        ("post", "/indexes/shop/ask", {"question": "x", "k": 99}, 422, "ValidationError",
         "k: Input should be less than or equal to 50 (got 99)"),
        ("post", "/indexes/shop/search", {"question": "x", "langauges": ["go"]}, 422, "ValidationError",
         "langauges: Extra inputs are not permitted"),
        ("post", "/jobs", {"source": "."}, 404, "HTTPError", "Not Found"),  # read-only: no such route
        ("get", "/indexes/shop/symbols/x/callers?limit=101", None, 422, "ValidationError",
         "limit: Input should be less than or equal to 100 (got '101')"),
        ("post", "/indexes/shop/search", {"k": 3}, 422, "ValidationError", "question: Field required"),
        ("get", "/indexes/nope/overview", None, 404, "IndexNotFoundError", "(indexes: shop)"),
        ("get", "/indexes/shop/symbols/x/parents", None, 422, "ValidationError", "relation"),
        ("get", "/indexes/shop/symbols/%20%20/callers", None, 422, "ValidationError",
         "symbol: must hold a character other than white space (got '  ')"),
    ],
)  # fmt: skip
def test_errors_are_json_with_the_cli_messages(plain: str, method, path, body, status, kind, message):
    response = httpx.request(method.upper(), f"{plain}{path}", json=body)
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error["type"] == kind and message in error["message"], error


@pytest.mark.parametrize(
    ("route", "scope", "notice"),
    [
        ("search", {"layers": ["migration"]}, "No chunk in this index has layer 'migration'; this index has these "),
        ("files", {"languages": ["rust"]}, "Unknown language 'rust'; this index has these languages: python"),
        ("ask", {"kinds": ["other"]}, "No chunk in this index has kind 'other'"),
        ("search", {"paths": ["../etc"]}, "Path filter '../etc' must be a directory inside the repository (no '..')"),
    ],
)
def test_a_well_formed_scope_that_matches_nothing_is_an_empty_answer_with_a_notice(plain: str, route, scope, notice):
    """The schema allows any layer or kind it lists and any language or path; whether this index has them is an
    answer (nothing, and why), not a refused request."""
    response = httpx.post(f"{plain}/indexes/shop/{route}", json={"question": "login", **scope}, timeout=60)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["notice"].startswith(notice), body
    assert body.get("results", body.get("files", body.get("sources"))) == []


def test_sixteen_concurrent_requests_all_succeed_with_the_same_answers(plain: str):
    questions = ["how is the password hashed?", "where are sessions kept?", "order total price", "retry http post"]

    def ask(i: int) -> tuple[int, str]:
        kind = ("search", "files")[i % 2]
        response = httpx.post(f"{plain}/indexes/shop/{kind}", json={"question": questions[i % 4]}, timeout=60)
        return response.status_code, response.text

    with ThreadPoolExecutor(16) as pool:
        results = list(pool.map(ask, range(16)))
    assert [status for status, _ in results] == [200] * 16
    for i in range(4, 16):
        assert results[i][1] == results[i % 4][1]  # same question, same ranking, under load


def test_token_and_rate_limit(indexed):
    env = server_env(indexed[0], CODEQA_API_TOKEN=TOKEN, CODEQA_API_ASK_PER_HOUR="2", CODEQA_API_SEARCH_PER_HOUR="4")
    with api_server(env) as url:
        assert httpx.get(f"{url}/health").status_code == 200  # liveness needs no token
        refused = httpx.get(f"{url}/indexes")
        assert refused.status_code == 401 and refused.json()["error"]["type"] == "Unauthorized"
        wrong = httpx.get(f"{url}/indexes", headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 401
        assert httpx.get(f"{url}/indexes", headers={"Authorization": f"Basic {TOKEN}"}).status_code == 401
        auth = {"Authorization": f"Bearer {TOKEN}"}
        assert httpx.get(f"{url}/indexes", headers=auth).status_code == 200
        schemes = httpx.get(f"{url}/openapi.json").json()["components"]["securitySchemes"]
        assert schemes["HTTPBearer"]["scheme"] == "bearer"  # the docs page offers "Authorize"

        question = {"question": "how does login work?"}
        for _ in range(2):
            assert httpx.post(f"{url}/indexes/shop/ask", json=question, headers=auth, timeout=60).status_code == 200
        limited = httpx.post(f"{url}/indexes/shop/ask", json=question, headers=auth)
        assert limited.status_code == 429 and limited.json()["error"]["type"] == "RateLimited"
        assert 0 < int(limited.headers["Retry-After"]) <= 3600
        assert "2 ask requests per hour" in limited.json()["error"]["message"]
        # reads have their own budget: 1 used above (refused requests do not count), 3 left
        statuses = [httpx.get(f"{url}/indexes", headers=auth).status_code for _ in range(4)]
        assert statuses == [200, 200, 200, 429]


def test_refuses_a_non_loopback_address_without_a_token(indexed):
    env = server_env(indexed[0])
    result = subprocess.run(
        [sys.executable, "-m", "codeqa", "api", "--host", "0.0.0.0", "--port", "1"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "Refusing to serve the API on 0.0.0.0 without a token" in result.stderr
    assert "Traceback" not in result.stderr


def test_answers_stream_as_server_sent_events(indexed):
    with OpenAIStandIn(reply=["Passwords are hashed ", "with PBKDF2 [1]. ", "Then ", "stored."]) as llm:
        env = server_env(indexed[0], CODEQA_LLM_BACKEND="openai", CODEQA_OPENAI_BASE_URL=f"{llm.url}/v1")
        with api_server(env) as url:
            body = {"question": "how are passwords hashed?", "k": 4}
            with httpx.stream("POST", f"{url}/indexes/shop/ask/stream", json=body, timeout=60) as response:
                assert response.status_code == 200
                assert response.headers["content-type"].startswith("text/event-stream")
                response.read()
            stream = events(response)
            names = [name for name, _ in stream]
            assert names == ["sources", "token", "token", "answer"]  # a sentence is sent once it is checked
            assert stream[0][1]["backend"] == "openai" and stream[0][1]["sources"]
            assert "".join(data["text"] for name, data in stream if name == "token") == stream[-1][1]["answer"]
            final = stream[-1][1]
            assert final["generated"] is True and final["citations_valid"] == 1 and final["citations_invalid"] == []
            bad = httpx.post(f"{url}/indexes/nope/ask/stream", json=body)
            assert bad.status_code == 404 and "No index named 'nope'" in bad.json()["error"]["message"]


def test_index_jobs_with_progress_events_and_remove(indexed, tmp_path: Path):
    repo = init_repo(tmp_path / "calc", {"calc.py": "def add(a, b):\n    return a + b\n", "README.md": "# calc\n"})
    with api_server(server_env(indexed[0]), "--allow-write") as url:
        started = httpx.post(f"{url}/jobs", json={"source": str(repo), "name": "calc"})
        assert started.status_code == 202, started.text
        job = started.json()
        assert job["state"] == "running" and job["id"]
        with httpx.stream("GET", f"{url}/jobs/{job['id']}/events", timeout=300) as response:
            response.read()
        stream = events(response)
        assert stream[-1][0] == "done" and stream[-1][1]["state"] == "done"
        assert len(stream) >= 2 and stream[0][1]["state"] == "running"
        assert all(name == "progress" for name, _ in stream[:-1])
        fractions = [data["fraction"] for name, data in stream if name == "progress"]
        assert fractions == sorted(fractions)
        assert httpx.get(f"{url}/jobs/{job['id']}").json()["index"]["name"] == "calc"
        assert "calc" in {i["name"] for i in httpx.get(f"{url}/indexes").json()["indexes"]}

        bad = httpx.post(f"{url}/jobs", json={"source": str(tmp_path / "missing")})
        if bad.status_code == 202:  # the source is checked in the job: the failure is its status
            with httpx.stream("GET", f"{url}/jobs/{bad.json()['id']}/events", timeout=120) as response:
                response.read()
            final = events(response)[-1][1]
            assert final["state"] == "failed" and "No such directory" in final["error"]
        else:
            assert bad.status_code == 422 and "No such directory" in bad.json()["error"]["message"]
        assert httpx.get(f"{url}/jobs/nope").status_code == 404

        assert httpx.delete(f"{url}/indexes/calc").json() == {"removed": "calc"}
        gone = httpx.delete(f"{url}/indexes/calc")
        assert gone.status_code == 404 and gone.json()["error"]["type"] == "IndexNotFoundError"


def test_an_unreachable_store_is_503_with_the_cli_message(indexed):
    env = server_env(indexed[0], CODEQA_CHROMA_URL=f"http://127.0.0.1:{closed_port()}")
    with api_server(env) as url:
        response = httpx.post(f"{url}/indexes/shop/search", json={"question": "login"}, timeout=60)
        assert response.status_code == 503
        error = response.json()["error"]
        assert error["type"] == "StoreError" and "is not reachable" in error["message"]
