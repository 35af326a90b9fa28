"""codeqa as a user installs it: a wheel, not a checkout (#37 item 1).

An editable install reads every file from the checkout, so it hides what a wheel leaves out; these tests look at
what the wheel ships:
- every file in git under ``codeqa/`` and ``codeqa_ui/`` is a module or matched by ``package-data`` (fast);
- the checkout's ``app.py``/``pages/`` are the shipped app's twins, so ``streamlit run app.py`` and ``codeqa serve``
  run the same thing;
- the Dockerfile copies what exists, installs the whole package, and runs what the package ships (no Docker engine
  runs here: the file is read, not built);
- slow: the wheel is built, installed into a clean virtualenv outside the checkout, and indexes, searches, asks and
  serves from a temporary folder.
"""

from __future__ import annotations

import ast
import glob
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import sysconfig
import tomllib
import urllib.request
import zipfile
from fnmatch import fnmatch
from pathlib import Path

import pytest
import yaml

from codeqa.cli.service_commands import APP_SERVER
from tests.indexed_home import make_sample_repo
from tests.test_app import NO_LLM
from tests.test_browser import free_port, wait_healthy

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("codeqa", "codeqa_ui")
SERVED = ROOT / "codeqa_ui" / "served"


def tracked(*paths: str) -> list[str]:
    """Files git knows under ``paths`` (tracked, or new and not ignored), relative to the checkout."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "--", *paths],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.splitlines()  # fmt: skip
    return sorted(path for path in listed if (ROOT / path).is_file())


def pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def is_module(path: str, root: Path = ROOT) -> bool:
    """A ``.py`` file whose folders are all packages (``__init__.py``): setuptools' package finder ships it."""
    parts = Path(path).parts
    return path.endswith(".py") and all((root / Path(*parts[:depth]) / "__init__.py").is_file()
                                        for depth in range(1, len(parts)))  # fmt: skip


def package_data_files(package_data: dict[str, list[str]], root: Path = ROOT) -> set[str]:
    """What ``package-data`` puts in a wheel, found the way setuptools finds it (``glob`` under each package)."""
    found: set[str] = set()
    for package, patterns in package_data.items():
        folder = root / package.replace(".", "/")
        for pattern in patterns:
            found.update(Path(hit).relative_to(root).as_posix() for hit in glob.glob(str(folder / pattern),
                                                                                      recursive=True))  # fmt: skip
    return {path for path in found if (root / path).is_file()}


def unshipped(files: list[str], package_data: dict[str, list[str]], root: Path = ROOT) -> list[str]:
    """Files that a wheel would leave out: neither modules nor matched by ``package-data``."""
    shipped = package_data_files(package_data, root)
    return [path for path in files if not is_module(path, root) and path not in shipped]


def test_every_file_in_the_packages_ships_in_the_wheel():
    """A data file added without a ``package-data`` glob fails here, not in a user's install."""
    files = tracked(*PACKAGES)
    package_data = pyproject()["tool"]["setuptools"]["package-data"]
    assert unshipped(files, package_data) == []
    # what the code reads at run time, among them those the wheel used to leave out
    read_at_run_time = {"codeqa/chunk/resolve/rules.toml", "codeqa/chunk/queries/python-tags.scm",
                        "codeqa/frameworks/conventions/rails.toml", "codeqa/retrieve/ranker.json",
                        "codeqa/models/static-code/model.safetensors", "codeqa_ui/served/app_server.py",
                        "codeqa_ui/served/pages/1_Chat.py", "codeqa_ui/served/.streamlit/config.toml"}  # fmt: skip
    assert read_at_run_time <= package_data_files(package_data)
    scm = [path for path in files if path.endswith(".scm")]
    assert len(scm) >= 20 and not unshipped(scm, package_data)


def test_a_data_file_without_a_glob_is_reported(tmp_path: Path):
    files = ["pkg/__init__.py", "pkg/rules.toml", "pkg/q/a-tags.scm", "pkg/entry/app.py", "pkg/sub/mod.py"]
    for path in [*files, "pkg/sub/__init__.py"]:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("")
    assert unshipped(files, {"pkg": ["rules.toml"]}, tmp_path) == ["pkg/q/a-tags.scm", "pkg/entry/app.py"]
    assert unshipped(files, {"pkg": ["*.toml", "q/*.scm", "entry/*.py"]}, tmp_path) == []


def test_the_checkout_runs_the_app_the_wheel_ships():
    """``streamlit run app.py`` (checkout) and ``codeqa serve`` (``codeqa_ui/served``, shipped) run the same
    scripts with the same configuration; the scripts only call ``codeqa_ui``."""
    assert APP_SERVER == SERVED / "app_server.py" and APP_SERVER.is_file()
    twins = ["app.py", *(f"pages/{page.name}" for page in sorted((ROOT / "pages").glob("*.py"))),
             ".streamlit/config.toml"]  # fmt: skip
    assert sorted(path.name for path in (SERVED / "pages").glob("*.py")) == [Path(p).name for p in twins[1:-1]]
    for path in twins:
        assert (ROOT / path).read_text() == (SERVED / path).read_text(), f"{path} differs from codeqa_ui/served/{path}"
    for path in twins[:-1]:  # a docstring, one import from codeqa_ui, one call: nothing to keep in step by hand
        _docstring, imported, call = ast.parse((ROOT / path).read_text()).body
        assert isinstance(imported, ast.ImportFrom) and imported.module == "codeqa_ui", path
        assert isinstance(call, ast.Expr) and isinstance(call.value, ast.Call) and not call.value.args, path
    assert not (ROOT / "app_server.py").exists(), "the served entry lives in codeqa_ui/served/ only"


# --- Docker (no engine here: the files are read, never built) -------------------------------------------------


def dockerfile_instructions(path: Path = ROOT / "Dockerfile") -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with continuation lines joined and comments dropped."""
    lines = [line for line in path.read_text().splitlines() if not line.lstrip().startswith("#")]
    joined = re.sub(r"\\\n", " ", "\n".join(lines))
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in joined.splitlines() if line.strip()]


def copy_sources(arguments: str) -> list[str]:
    words = json.loads(arguments) if arguments.lstrip().startswith("[") else shlex.split(arguments)
    return [word for word in words[:-1] if not word.startswith("--")]


def docker_ignored(path: str) -> bool:
    """Whether ``.dockerignore`` keeps ``path`` (or a folder above it) out of the build context."""
    patterns = [line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
                if line.strip() and not line.startswith("#")]  # fmt: skip
    assert not [p for p in patterns if p.startswith("!")], "exceptions are not read by this check"
    parts = Path(path).parts
    prefixes = [Path(*parts[:depth]).as_posix() for depth in range(1, len(parts) + 1)]
    return any(fnmatch(prefix, pattern.strip("/")) for pattern in patterns for prefix in prefixes)


def test_every_path_the_dockerfile_copies_exists_and_reaches_the_build_context():
    in_git = set(tracked())
    copied = [source for name, arguments in dockerfile_instructions() if name == "COPY"
              for source in copy_sources(arguments)]  # fmt: skip
    assert copied
    for source in copied:
        source = source.rstrip("/")
        files = [path for path in in_git if path == source or path.startswith(f"{source}/")]
        assert files, f"the Dockerfile copies {source}, which is not in the repository"
        assert not [path for path in files if docker_ignored(path)], f".dockerignore drops {source} (or part of it)"
    for stale in ("build/lib/codeqa/x.py", "codeqa.egg-info/PKG-INFO", ".venv/bin/python", "dist/x.whl"):
        assert docker_ignored(stale), f"{stale}: old build output must not reach the image's wheel"


def test_the_dockerfile_installs_the_whole_package_and_runs_what_it_ships():
    """The package is installed from everything it is built from (the old file installed before copying
    ``codeqa_ui``), and the container starts an installed command, not a file it never copied."""
    instructions = dockerfile_instructions()
    install = next(i for i, (name, args) in enumerate(instructions)
                   if name == "RUN" and "pip install" in args and "torch" not in args)  # fmt: skip
    before = {source.rstrip("/") for name, args in instructions[:install] if name == "COPY"
              for source in copy_sources(args)}  # fmt: skip
    project = pyproject()
    needed = {"pyproject.toml", project["project"]["readme"], *PACKAGES}
    assert needed <= before, f"installed before copying {needed - before}"

    (command,) = [json.loads(args) for name, args in instructions if name == "CMD"]
    assert command[0] in project["project"]["scripts"], f"CMD runs {command[0]}, which the package does not install"
    from codeqa.cli import app

    assert command[1] in {c.name or c.callback.__name__ for c in app.registered_commands}
    (exposed,) = [args.split("/")[0] for name, args in instructions if name == "EXPOSE"]
    (health,) = [args for name, args in instructions if name == "HEALTHCHECK"]
    assert command[command.index("--port") + 1] == exposed and f"127.0.0.1:{exposed}/_stcore/health" in health

    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    assert compose["services"]["app"]["build"] == "."
    assert compose["services"]["app"]["ports"] == [f"127.0.0.1:{exposed}:{exposed}"]


# --- the wheel, installed -----------------------------------------------------------------------------------


def run(command: list[str | Path], cwd: Path, env: dict[str, str], seconds: float) -> str:
    """Run ``command``; its output, or a failure that shows it."""
    try:
        done = subprocess.run([str(word) for word in command], cwd=cwd, env=env, capture_output=True, text=True,
                              timeout=seconds)  # fmt: skip
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"{command[:3]} took more than {seconds} s:\n{exc.stdout}\n{exc.stderr}")
    assert done.returncode == 0, f"{command}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done.stdout + done.stderr


def build_wheel(base: Path) -> Path:
    """The wheel of the files git knows (copied out, so no earlier ``build/`` folder leaks into it)."""
    source = base / "source"
    for path in tracked():
        (source / path).parent.mkdir(parents=True, exist_ok=True)
        (source / path).write_bytes((ROOT / path).read_bytes())
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q",
         "-w", base / "dist", source], base, dict(os.environ), 300)  # fmt: skip
    (wheel,) = (base / "dist").glob("codeqa-*.whl")
    return wheel


def clean_venv(base: Path, wheel: Path) -> Path:
    """A new virtualenv with the wheel installed and this one's third-party packages on its path.

    This environment's site-packages is added as a plain path, so its ``.pth`` files do not run: among them is the
    editable install's, which would put the checkout on ``sys.path``."""
    venv = base / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", venv], base, dict(os.environ), 120)
    python = venv / "bin" / "python"
    run([sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index", "-q", wheel],
        base, dict(os.environ), 300)  # fmt: skip
    purelib = run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], base, dict(os.environ), 60)
    (Path(purelib.strip()) / "third_party_from_the_test_venv.pth").write_text(sysconfig.get_path("purelib") + "\n")
    return venv


@pytest.mark.slow
def test_a_wheel_in_a_clean_venv_indexes_searches_asks_and_serves(tmp_path: Path, models_dir: Path):
    wheel = build_wheel(tmp_path)
    inside = set(zipfile.ZipFile(wheel).namelist())
    assert [path for path in tracked(*PACKAGES) if path not in inside] == []

    venv = clean_venv(tmp_path, wheel)
    work = tmp_path / "elsewhere"  # a user's folder: neither the checkout nor the venv
    work.mkdir()
    env = {name: value for name, value in os.environ.items() if not name.startswith(("PYTHON", "CODEQA_"))}
    env.update(NO_LLM, CODEQA_HOME=str(tmp_path / "home"), CODEQA_MODELS_DIR=str(models_dir), CODEQA_WARM_APP="false",
               PATH=f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}")  # fmt: skip
    where = run([venv / "bin" / "python", "-c", "import codeqa, codeqa_ui; print(codeqa.__file__, codeqa_ui.__file__)"],
                work, env, 120).split()  # fmt: skip
    assert all(Path(path).is_relative_to(venv) for path in where), where

    codeqa = venv / "bin" / "codeqa"
    repo = make_sample_repo(tmp_path / "shop")
    indexed = run([codeqa, "index", repo, "--name", "shop"], work, env, 300)
    assert "Indexed shop" in indexed
    found = run([codeqa, "search", "shop", "how are passwords hashed?", "-k", "3"], work, env, 120)
    assert found.splitlines()[0].startswith("shop/auth.py:"), found
    answered = run([codeqa, "ask", "shop", "how are passwords hashed?", "--backend", "none"], work, env, 120)
    assert "Extractive map" in answered and "(shop/auth.py:" in answered, answered
    assert not any(line.startswith("**") for line in answered.splitlines()), answered  # plain text, not Markdown

    port = free_port()
    server = subprocess.Popen([str(codeqa), "serve", "--port", str(port)], cwd=work, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)  # fmt: skip
    try:
        url = f"http://127.0.0.1:{port}"
        wait_healthy(url, server, seconds=120)
        argv = Path(f"/proc/{server.pid}/cmdline").read_bytes().decode().split("\0")  # Streamlit, exec'd
        (script,) = [word for word in argv if word.endswith(".py")]
        assert Path(script).is_relative_to(venv) and script.endswith("codeqa_ui/served/app_server.py")
        # Home runs once through the script health check: on only if the shipped .streamlit/config.toml was read
        with urllib.request.urlopen(f"{url}/_stcore/script-health-check", timeout=120) as response:
            assert response.status == 200
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(5)
            pytest.fail("codeqa serve was still running 15 s after SIGTERM")
