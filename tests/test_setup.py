"""What `scripts/setup` leaves behind: a quiet editable install, a llama.cpp built for any CPU, readable progress."""

from __future__ import annotations

import io
import subprocess
import sys
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_editable_install_is_a_plain_path_without_the_same_name_warning(tmp_path: Path):
    """setuptools warned "folders … with the same name as your package" because it fell back to an import hook."""
    build = "import setuptools.build_meta as b, sys; print(b.build_editable(sys.argv[1]))"
    result = subprocess.run([sys.executable, "-W", "always", "-c", build, str(tmp_path)],
                            cwd=ROOT, capture_output=True, text=True, timeout=300)  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    output = result.stdout + result.stderr
    assert "same name" not in output and "InformationOnly" not in output
    with zipfile.ZipFile(tmp_path / result.stdout.strip().splitlines()[-1]) as wheel:
        names = wheel.namelist()
        pth = next(name for name in names if name.endswith(".pth"))
        assert wheel.read(pth).decode().strip() == str(ROOT)  # the project folder on sys.path, nothing else
    assert not [name for name in names if "finder" in name]


def test_llama_cpp_is_built_for_any_cpu_of_its_kind():
    """A -march=native build (e.g. a wheel pip cached on another machine) dies of SIGILL on a CPU without AVX-512."""
    info = "import llama_cpp; print(llama_cpp.llama_print_system_info().decode())"
    result = subprocess.run([sys.executable, "-c", info], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "CPU :" in result.stdout and "AVX512" not in result.stdout, result.stdout


def progress(lines: str, tty: bool = False) -> str:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from pip_progress import run
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    out = io.StringIO()
    run(iter(lines.splitlines(keepends=True)), out, tty=tty, started=time.time() - 180)
    return out.getvalue()


def test_progress_lines_come_as_pip_writes_them():
    """mawk held a pipe's lines back until its buffer filled: "compiling …" showed only when compiling was over."""
    reader = subprocess.Popen([sys.executable, "-u", "scripts/pip_progress.py"], cwd=ROOT, text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)  # fmt: skip
    assert reader.stdin is not None and reader.stdout is not None
    reader.stdin.write("  Building wheel for llama-cpp-python (pyproject.toml): started\n")
    reader.stdin.flush()
    assert "compiling llama-cpp-python from source" in reader.stdout.readline()  # while pip is still running
    reader.stdin.close()
    assert reader.wait(10) == 0


def test_setup_shows_what_pip_is_doing():
    collecting = "".join(
        f"Collecting package{i}>=1.0 (from codeqa==0.1.0)\n  Downloading x.whl (1 MB)\n" for i in range(45)
    )
    log = (
        "Requirement already satisfied: pip in ./.venv\n" + collecting
        + "  Building wheel for llama-cpp-python (pyproject.toml): started\n"
        + "  Building wheel for llama-cpp-python (pyproject.toml): still running...\n"
        + "Installing collected packages: " + ", ".join(f"package{i}" for i in range(45)) + "\n"
        + "WARNING: The script x is installed in '/y' which is not on PATH.\n"
        + "Successfully installed package0 …\n"
    )  # fmt: skip
    lines = progress(log).splitlines()
    assert lines[:2] == [
        "      20 packages resolved so far (package19)",
        "      40 packages resolved so far (package39)",
    ]
    assert "compiling llama-cpp-python from source" in lines[2]
    assert lines[3] == "      … still compiling llama-cpp-python (3 min so far)"
    assert lines[4].startswith("      installing 45 packages (1 already there;")
    assert lines[5].startswith("      WARNING: The script x")
    assert len(lines) == 6  # pip's hundred other lines stay in the log
    assert progress("Requirement already satisfied: torch\n").strip() == "already installed"
    on_a_terminal = progress(collecting, tty=True)
    assert on_a_terminal.count("\r\033[K") == 45 and on_a_terminal.endswith("(package44)\n")


def test_setup_shows_what_the_wheel_cache_did():
    log = "[wheel cache] reusing /c/llama.whl (built on this machine …)\nProcessing /c/llama.whl\n"
    assert progress(log).splitlines() == ["      reusing /c/llama.whl (built on this machine …)"]
