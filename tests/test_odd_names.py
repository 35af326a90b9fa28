"""Names and text that are not what they seem (security #18 findings 7, 11, 12), against the real processes.

- A file name that is not UTF-8 (``caf\\xe9.py``, common in Latin-1 repositories) used to abort the whole index in
  the tokenizer; a command-line question with such bytes gave a traceback; ``"\\ud800"`` gave the API a plain-text
  500 and left an MCP client waiting forever.
- An index name with a trailing newline passed the name check (``$``) and then looked like a damaged store.
- A repository whose default branch is ``-evil`` could be indexed once but never updated ("Invalid git ref").
"""

from __future__ import annotations

import json
import os
import selectors
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from codeqa.config import Settings
from codeqa.errors import CloneError, IndexNotFoundError, QueryError
from codeqa.index import Index
from codeqa.store import Store
from tests.conftest import git
from tests.git_http import git_http_server
from tests.helpers import build_index
from tests.indexed_home import build_sample_index
from tests.service_servers import ROOT, api_server, server_env

LATIN1_FILE = b"caf\xe9.py"
LATIN1_DIR = b"d\xe9j\xe0"


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Settings, Path]:
    return build_sample_index(tmp_path_factory.mktemp("odd"))


def codeqa(settings: Settings, *args: str | bytes, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """The real ``codeqa`` command (arguments may be bytes, as a shell in another encoding passes them)."""
    return subprocess.run(
        [sys.executable, "-m", "codeqa", *args],
        cwd=ROOT, env=server_env(settings), capture_output=True, text=True, timeout=timeout,
    )  # fmt: skip


def test_a_file_name_that_is_not_utf8_is_skipped_with_a_readable_reason(tmp_path: Path):
    repo = tmp_path / "latin"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    base = os.fsencode(repo)
    for name, text in ((LATIN1_FILE, "def cafe():\n    return 'noir'\n"), (LATIN1_DIR + b"/vu.py", "X = 1\n")):
        os.makedirs(os.path.dirname(base + b"/" + name), exist_ok=True)
        Path(os.fsdecode(base + b"/" + name)).write_text(text)
    (repo / "menu.py").write_text("def order_coffee(size):\n    return f'coffee {size}'\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "latin-1 names")
    settings = Settings(home=tmp_path / "home")

    indexed = codeqa(settings, "index", str(repo), "--name", "latin", "--no-map", "-v")
    assert indexed.returncode == 0, indexed.stdout + indexed.stderr
    assert "Traceback" not in indexed.stderr
    said = " ".join(indexed.stdout.split())
    assert "undecodable-name caf\\xe9.py" in said and "undecodable-name d\\xe9j\\xe0/" in said
    manifest = Store(settings).get_manifest("latin")
    assert manifest.counts["files"] == 1 and manifest.skipped == {"undecodable-name": 2}
    found = codeqa(settings, "search", "latin", "how do I order a coffee?")
    assert found.returncode == 0 and "menu.py:1-2" in found.stdout


def test_a_command_line_question_with_invalid_bytes_is_one_clear_line(indexed):
    for command in ("search", "ask"):
        result = codeqa(indexed[0], command, "shop", b"caf\xe9 password")
        assert result.returncode == QueryError.exit_code and "Traceback" not in result.stderr, result.stderr
        said = " ".join(result.stderr.split())
        assert "The question is not valid text: the byte \\xe9 at character 4" in said and "UTF-8" in said


def test_the_api_answers_a_lone_surrogate_with_a_json_422(indexed):
    with api_server(server_env(indexed[0])) as url:
        for route, body in (
            ("search", b'{"question": "\\ud800"}'),
            ("ask", b'{"question": "hash \\ud800 password"}'),
            ("ask/stream", b'{"question": "\\udce9"}'),
            ("search", b'{"question": "password", "layers": ["\\ud83d"]}'),
            ("search", b'{"question": "password", "languages": ["\\ud83d"]}'),
            ("ask", b'{"question": "password", "backend": "\\ud800"}'),
            ("ask", b'{"question": "password", "model": "\\ud800"}'),
        ):
            response = httpx.post(
                f"{url}/indexes/shop/{route}", content=body, headers={"content-type": "application/json"}
            )
            assert response.status_code == 422, (route, body, response.text)
            assert response.headers["content-type"] == "application/json"
            assert "is not valid text" in response.json()["error"]["message"]
        assert httpx.post(f"{url}/indexes/shop/search", json={"question": "password"}).status_code == 200


def _read_message(process: subprocess.Popen, seconds: float) -> dict | None:
    """The next JSON-RPC message the server writes, or None when it writes nothing for ``seconds``."""
    deadline = time.monotonic() + seconds
    # selectors, not select.select: late in a full run this process holds more than 1024 descriptors
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        while time.monotonic() < deadline:
            if not selector.select(max(0.0, deadline - time.monotonic())):
                return None
            line = process.stdout.readline()
            if not line:
                return None
            message = json.loads(line)
            if "id" in message:  # skip notifications (log messages)
                return message
    return None


def test_the_mcp_server_answers_a_lone_surrogate_instead_of_hanging(indexed):
    """The SDK client refuses to send such text, other clients do: raw JSON-RPC lines to the real ``codeqa mcp``."""
    command = [sys.executable, "-m", "codeqa", "mcp"]
    process = subprocess.Popen(
        command, cwd=ROOT, env=server_env(indexed[0]), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, text=True, encoding="utf-8",
    )  # fmt: skip
    assert process.stdin is not None
    try:

        def send(line: str) -> None:
            process.stdin.write(line + "\n")
            process.stdin.flush()

        hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}
        send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello}))
        assert (_read_message(process, 120) or {}).get("id") == 1
        send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        call = '{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "search", "arguments": '
        send(call + '{"index": "shop", "question": "hash \\ud800 password"}}}')
        answer = _read_message(process, 30)
        assert answer is not None, "codeqa mcp did not answer a request holding a lone surrogate"
        assert answer["id"] == 2 and "params.arguments.question is not valid text" in answer["error"]["message"]
        send(call.replace('"id": 2', '"id": 3') + '{"index": "shop", "question": "how is the password hashed?"}}}')
        fine = _read_message(process, 60)
        assert fine is not None and fine["id"] == 3 and "shop/auth.py" in json.dumps(fine)
    finally:
        process.kill()
        process.wait(10)


def test_an_index_name_with_a_trailing_newline_is_refused_as_a_name(indexed, tmp_path: Path):
    settings, repo = indexed
    with pytest.raises(QueryError, match="Invalid index name 'shop2\\\\n'"):
        build_index(str(repo), settings, name="shop2\n")
    cli = codeqa(settings, "index", str(repo), "--name", "shop2\n", "--no-map")
    assert cli.returncode == QueryError.exit_code and "Invalid index name 'shop2\\n'" in cli.stderr
    assert "repair" not in cli.stderr
    for name in ("shop\n", "sh\udce9p"):
        with pytest.raises(IndexNotFoundError):
            Store(settings).get_manifest(name)
    lookup = codeqa(settings, "search", "shop\n", "password")
    assert lookup.returncode == IndexNotFoundError.exit_code and "No index named 'shop\\n'" in lookup.stderr
    assert "cannot be used" not in lookup.stderr and "repair" not in lookup.stderr
    assert [m.name for m in Store(settings).list_manifests()] == ["shop"]


def test_a_default_branch_named_like_an_option_is_indexed_and_updated(tmp_path: Path):
    work = tmp_path / "work"
    work.mkdir()
    git(work, "init", "-q")
    git(work, "symbolic-ref", "HEAD", "refs/heads/-evil")
    (work / "a.py").write_text("def first():\n    return 1\n")
    git(work, "add", "-A")
    git(work, "commit", "-q", "-m", "first")
    served = tmp_path / "served" / "evil.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(served)], check=True)
    settings = Settings(home=tmp_path / "home", allow_insecure_sources=True, clone_timeout_seconds=60)
    with git_http_server(tmp_path / "served") as (base, _):
        url = f"{base}/evil.git"
        first = build_index(url, settings, name="evil").manifest
        assert first.ref == "-evil"
        (work / "b.py").write_text("def second():\n    return 2\n")
        git(work, "add", "-A")
        git(work, "commit", "-q", "-m", "second")
        git(work, "push", "-q", str(served), "refs/heads/-evil:refs/heads/-evil")
        updated = Index.open("evil", settings).update().manifest
        assert updated.sha != first.sha and updated.counts["files"] == 2
        with pytest.raises(CloneError, match="Ref '-upload-pack=touch' was not found"):  # a name, never an option
            build_index(url, settings, name="opt", ref="-upload-pack=touch")
