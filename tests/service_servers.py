"""Start the real servers for tests: ``codeqa api`` under uvicorn on 127.0.0.1, ``codeqa mcp`` over stdio."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from codeqa.config import Settings

ROOT = Path(__file__).resolve().parent.parent
NO_LLM = {
    "OLLAMA_HOST": "http://127.0.0.1:9",
    "CODEQA_GGUF_PATH": "/nonexistent/model.gguf",
    "CODEQA_LLM_BACKEND": "none",
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def server_env(settings: Settings, **extra: str) -> dict[str, str]:
    """The environment of a server over ``settings``' data dir: no language model unless ``extra`` names one."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("CODEQA_", "OLLAMA_"))}
    env.update(NO_LLM)
    env["CODEQA_HOME"] = str(settings.home)
    env["CODEQA_MODELS_DIR"] = os.environ.get("CODEQA_MODELS_DIR", str(settings.derived_models_dir))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    env.update(extra)
    return env


@contextmanager
def api_process(
    env: dict[str, str], *args: str, seconds: float = 120, module: str = "codeqa api"
) -> Iterator[tuple[str, subprocess.Popen]]:
    """``python -m codeqa api --port N ARGS`` (or another ``module``) until it answers /health; yields its base URL
    and process."""
    port = free_port()
    command = [sys.executable, "-m", *module.split(), "--host", "127.0.0.1", "--port", str(port), *args]
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + seconds
        while True:
            if process.poll() is not None:
                raise AssertionError(f"{module} exited early:\n{process.stdout.read() if process.stdout else ''}")
            try:
                if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"{module} did not answer /health within {seconds} s")
            time.sleep(0.3)
        yield url, process
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


@contextmanager
def api_server(env: dict[str, str], *args: str, seconds: float = 120) -> Iterator[str]:
    """``python -m codeqa api --port N ARGS`` until it answers /health; yields its base URL, stops it after."""
    with api_process(env, *args, seconds=seconds) as (url, _):
        yield url
