"""The scale-out path: the same pipeline against a real `chroma run` server on 127.0.0.1."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from codeqa.config import Settings
from codeqa.errors import StoreError
from codeqa.store import Store
from tests.helpers import ask_named, build_index, search_hits
from tests.sample_repo import SAMPLE_FILES


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def chroma_server(tmp_path: Path):
    port = free_port()
    chroma = Path(sys.executable).parent / "chroma"
    process = subprocess.Popen(
        [str(chroma), "run", "--path", str(tmp_path / "chroma-server"), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"{url}/api/v2/heartbeat", timeout=1).read()
            break
        except OSError:
            time.sleep(0.2)
    else:
        process.kill()
        pytest.fail("chroma run did not start within 30 s")
    yield url
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()


def test_index_and_search_on_chroma_server(chroma_server: str, make_git_repo, isolated_home: Path):
    settings = Settings(home=isolated_home, chroma_url=chroma_server)
    repo = make_git_repo(SAMPLE_FILES)
    report = build_index(str(repo), settings, name="shop")
    assert report.chunks > 0
    assert not settings.chroma_dir.exists()  # nothing went to the embedded store
    hits = search_hits("shop", "where is the configuration loaded?", settings, k=3)
    assert hits[0].chunk.path == "shop/config.py"
    assert [m.name for m in Store(settings).list_manifests()] == ["shop"]


def test_unreachable_chroma_server_is_a_clear_error(isolated_home: Path):
    settings = Settings(home=isolated_home, chroma_url=f"http://127.0.0.1:{free_port()}")
    with pytest.raises(StoreError, match="not reachable.*chroma run"):
        Store(settings)


def test_whole_product_on_chroma_server(chroma_server: str, make_git_repo, monkeypatch):
    """CLI index + search, answers, and the app's Chat and Map pages, all against the server."""
    import streamlit as st
    from typer.testing import CliRunner

    from codeqa.cli import app as cli
    from codeqa.config import get_settings
    from tests.test_app import CHAT, MAP, NO_LLM, app, ok, source_labels
    from tests.test_app import ask as ask_in_chat

    monkeypatch.setenv("CODEQA_CHROMA_URL", chroma_server)
    for name, value in NO_LLM.items():
        monkeypatch.setenv(name, value)
    get_settings.cache_clear()
    st.cache_resource.clear()
    st.cache_data.clear()
    repo = make_git_repo(SAMPLE_FILES)

    runner = CliRunner()
    assert runner.invoke(cli, ["index", str(repo), "--name", "shop"]).exit_code == 0
    found = runner.invoke(cli, ["search", "shop", "where is the configuration loaded?", "-k", "1"])
    assert found.output.startswith("shop/config.py:")

    stream = ask_named("shop", "how are passwords checked at login?", get_settings(), backend="none")
    text = "".join(stream)
    assert "shop/auth.py:" in text and stream.result().sources[0].chunk.path == "shop/auth.py"

    chat = ok(app(CHAT))
    chat.selectbox(key="backend").set_value("none")
    chat = ask_in_chat(ok(chat.run()), "where is the configuration loaded?")
    assert any("shop/config.py:" in label for label in source_labels(chat))
    ok(app(MAP))
    assert not get_settings().chroma_dir.exists()  # everything went to the server
    st.cache_resource.clear()
    st.cache_data.clear()
    get_settings.cache_clear()
