"""Started inside the repository it explores, codeqa runs none of that repository's code or settings (security #34,
finding 1 and finding 5).

`python -m` puts the current folder first on the import path, so a repository's `streamlit/__init__.py` or `json.py`
ran when `codeqa serve` (or the embedded model's worker) was started there; and Streamlit read the repository's
`.streamlit/config.toml`, which can switch its XSRF protection off.
"""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from codeqa.answer.llm.backends.embedded_process import WorkerProcess
from tests.served_app import serve_app


def hostile_folder(root: Path) -> Path:
    """A repository whose modules shadow what a server imports, each leaving a mark when imported."""
    marker = root / "ran.txt"
    payload = f"open({str(marker)!r}, 'a').write(__name__ + '\\n')\n"
    (root / "streamlit").mkdir(parents=True)
    (root / "streamlit" / "__init__.py").write_text(payload + "raise ImportError('hostile')\n")
    for name in ("json", "typer", "codeqa_ui", "httpx"):
        (root / f"{name}.py").write_text(payload)
    (root / ".streamlit").mkdir()
    (root / ".streamlit" / "config.toml").write_text(
        '[server]\nenableXsrfProtection = false\nenableCORS = false\n[theme]\nbase = "dark"\n'
    )
    return marker


@pytest.mark.slow
@pytest.mark.parametrize("only_settings", [False, True], ids=["modules-and-settings", "settings-only"])
def test_serving_from_inside_a_repository_runs_none_of_its_code(
    isolated_home: Path, tmp_path: Path, only_settings: bool
) -> None:
    folder = tmp_path / "repo"
    marker = hostile_folder(folder)
    if only_settings:  # the settings alone, so the server starts on an unprotected main too and the check is seen
        for module in (*folder.glob("*.py"), folder / "streamlit" / "__init__.py"):
            module.unlink()
    with serve_app(isolated_home, cwd=folder) as url:
        health = httpx.get(f"{url}/_stcore/health", timeout=30)
        assert health.status_code == 200
        assert "_streamlit_xsrf" in health.headers.get("set-cookie", ""), "the repository's config turned XSRF off"
        assert not marker.exists(), f"the repository's code ran: {marker.read_text()}"


def test_the_embedded_models_worker_never_imports_from_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = hostile_folder(tmp_path / "repo")
    monkeypatch.chdir(tmp_path / "repo")
    worker = WorkerProcess()
    process = worker._start()
    try:
        assert process.stdin is not None
        process.stdin.close()  # the worker exits when its input ends: it has imported all it needs by then
        process.wait(60)
    finally:
        worker.stop()
    assert not marker.exists(), f"the repository's code ran in the worker: {marker.read_text()}"
