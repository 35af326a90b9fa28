"""What `codeqa ask` writes: Markdown rendered on a real terminal, plain unwrapped text when piped, Markdown as is
with --markdown. The answer comes from a stand-in OpenAI-compatible server through the real CLI and backend."""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from codeqa.cli.answer_text import MarkdownWriter, PlainWriter
from codeqa.config import Settings
from tests.conftest import write_files
from tests.helpers import build_index
from tests.llm_standins import OpenAIStandIn

ROOT = Path(__file__).resolve().parent.parent
LONG_PATH = "services/billing/internal/adapters/persistence/postgres/repositories/invoice_repository_impl.py:10-42"
REPLY = [
    "The **deploy** step lives in `shop/deploy.py:1-3` [1].\n\n",
    "```python\ndef deploy(target):\n",
    "    return target\n```\n\n",
    f"## Where it is stored\n\nInvoices are saved by {LONG_PATH}, which the deploy step never calls.\n",
]


@pytest.fixture
def shop_home(tmp_path: Path, isolated_home: Path) -> Path:
    write_files(tmp_path / "repo", {"shop/deploy.py": "def deploy(target):\n    return target\n"})
    build_index(str(tmp_path / "repo"), Settings(home=isolated_home), name="shop")
    return isolated_home


def _ask(home: Path, server: OpenAIStandIn, *extra: str, pty: bool) -> str:
    """``codeqa ask`` in a child process, under a real pseudo-terminal or with stdout piped; what stdout got."""
    args = [sys.executable, "-m", "codeqa", "ask", "shop", "how is the shop deployed?", "--backend", "openai",
            "--model", "local-model", *extra]  # fmt: skip
    env = {**os.environ, "CODEQA_HOME": str(home), "CODEQA_OPENAI_BASE_URL": server.url, "PYTHONPATH": str(ROOT),
           "TERM": "xterm-256color"}  # fmt: skip
    env.pop("COLUMNS", None)
    if pty:
        assert shutil.which("script"), "util-linux `script` runs the CLI under a real pty"
        command = " ".join("'" + part.replace("'", "'\\''") + "'" for part in args)
        env["COLUMNS"] = "100"
        result = subprocess.run(["script", "-qec", command, "/dev/null"], capture_output=True, env=env, timeout=180)
    else:
        result = subprocess.run(args, capture_output=True, env=env, timeout=180)
    output = result.stdout.decode("utf-8", errors="replace").replace("\r\n", "\n")
    assert result.returncode == 0, output + result.stderr.decode(errors="replace")
    return output


def test_on_a_terminal_the_answer_is_rendered_markdown(shop_home: Path) -> None:
    with OpenAIStandIn(reply=REPLY) as server:
        output = _ask(shop_home, server, pty=True)
    answer = output.split("Sources")[0]
    assert "**" not in answer and "```" not in answer and "## " not in answer
    assert "\x1b[1mdeploy\x1b[0m" in answer  # strong emphasis is bold
    text = re.sub(r"\x1b\[[0-9;]*m", "", answer)
    assert "Where it is stored" in text and "def deploy(target):" in text


def test_piped_the_answer_is_plain_text_never_wrapped(shop_home: Path) -> None:
    with OpenAIStandIn(reply=REPLY) as server:
        output = _ask(shop_home, server, pty=False)
    lines = output.splitlines()
    assert "The deploy step lives in shop/deploy.py:1-3 [1]." in lines
    assert "    def deploy(target):" in lines and "        return target" in lines  # code indented, fences gone
    assert "Where it is stored" in lines
    assert any(LONG_PATH in line for line in lines)  # one line, never hard-wrapped at 80 columns
    assert "**" not in output and "```" not in output and "\x1b" not in output
    assert any(line.startswith("Citations: ") for line in lines)


def test_markdown_flag_keeps_the_answer_as_written(shop_home: Path) -> None:
    with OpenAIStandIn(reply=REPLY) as server:
        output = _ask(shop_home, server, "--markdown", pty=False)
    assert output.startswith("".join(REPLY))


def _console(terminal: bool) -> tuple[Console, io.StringIO]:
    buffer = io.StringIO()
    return Console(file=buffer, force_terminal=terminal, width=60, color_system=None, highlight=False), buffer


def test_writers_split_streamed_pieces_anywhere() -> None:
    text = "".join(REPLY) + "\n~~~\n**not bold in code**\n~~~\n1. one\n\n2. two"
    for size in (1, 3, 7, len(text)):
        pieces = [text[i : i + size] for i in range(0, len(text), size)]
        console, buffer = _console(terminal=False)
        plain = PlainWriter(console)
        for piece in pieces:
            plain.feed(piece)
        plain.close()
        assert "    **not bold in code**" in buffer.getvalue().splitlines()
        assert buffer.getvalue().endswith("1. one\n\n2. two\n")
        console, buffer = _console(terminal=True)
        rendered = MarkdownWriter(console)
        for piece in pieces:
            rendered.feed(piece)
        rendered.close()
        shown = buffer.getvalue()
        assert "**not bold in code**" in shown and "**deploy**" not in shown
        assert " 2 two" in shown  # a list split by a blank line keeps its numbers


def test_piped_index_summary_keeps_a_long_path_on_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from codeqa.cli import app

    monkeypatch.delenv("COLUMNS", raising=False)
    deep = tmp_path / "a-checkout-with-a-rather-long-folder-name" / "and-another-one-below-it" / "shop-service"
    write_files(deep, {"shop/deploy.py": "def deploy(target):\n    return target\n"})
    result = CliRunner().invoke(app, ["index", str(deep), "--name", "shop"])
    assert result.exit_code == 0, result.output
    assert len(str(deep)) > 80 and f"Indexed shop  ({deep})" in result.output.splitlines()


def test_plain_lines_drop_markdown_marks_but_keep_code_and_paths() -> None:
    from codeqa.cli.answer_text import plain_line

    assert plain_line(r"- **[1]** `load` (`app/__init__.py:1-9`) reads DATABASE\_URL") == (
        "- [1] load (app/__init__.py:1-9) reads DATABASE_URL"
    )
    assert plain_line(r"### More places ###") == "More places"
    # a span holding backticks (a template literal) is fenced with two: its inside is shown whole, as written
    assert plain_line("raises ``new Error(`Failed: ${e}`);`` when `!res.ok` (`a.js:206`)") == (
        "raises new Error(`Failed: ${e}`); when !res.ok (a.js:206)"
    )
    assert plain_line(r"in `a\_b` and C:\Users\me, 2 * 3 * 4") == r"in a\_b and C:\Users\me, 2 * 3 * 4"
