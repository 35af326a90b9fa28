"""Paths with spaces are citations like any other, and a source view never renders more than it can show."""

from __future__ import annotations

from pathlib import Path

from codeqa.config import Settings
from codeqa.records import Chunk
from codeqa_ui.components import code_html
from tests.conftest import write_files
from tests.helpers import ask_named, build_index
from tests.llm_standins import OpenAIStandIn

FILES = {
    "my dir/naïve файл.py": "def grüße():\n    return 'hallo'\n",
    "docs/Read Me (draft).md": "# Greeting\n\nThe greeting says hallo.\n",
}


def test_citations_to_paths_with_spaces_are_recognised(tmp_path: Path, settings: Settings) -> None:
    write_files(tmp_path / "repo", FILES)
    build_index(str(tmp_path / "repo"), settings, name="spaces")
    reply = [
        "The greeting is `my dir/naïve файл.py:1-2`, described in docs/Read Me (draft).md:1-3; ",
        "see naïve файл.py:1 and my dir/naïve файл.py:40-41.",
    ]
    with OpenAIStandIn(reply=reply) as server:
        configured = settings.model_copy(update={"openai_base_url": server.url})
        answer = ask_named("spaces", "what does the greeting say?", configured, backend="openai", k=4).result()
    assert answer.generated
    assert answer.citations_valid == 3, answer  # the three that point into the sources ...
    assert answer.citations_invalid == ["my dir/naïve файл.py:40-41"]  # ... and the one that does not


def test_a_source_view_is_capped(tmp_path: Path) -> None:
    one_line = Chunk("report.ipynb", "jupyter", 1, 1, "x = '" + "A" * 900_000 + "'", "", "module", "core")
    many_lines = Chunk("big.py", "python", 1, 9000, "\n".join(f"value_{i} = {i}" for i in range(9000)), "", "module",
                       "core")  # fmt: skip
    for chunk in (one_line, many_lines):
        html = code_html(chunk)
        assert len(html) < 200_000, len(html)  # uncapped: 1 MB of highlighted HTML, redrawn on every rerun
        assert "Showing the first" in html
    assert html.count("user-select:none") == 400  # one gutter number per line shown
    small = Chunk("a.py", "python", 10, 12, "a = 1\nb = 2\nc = 3", "", "module", "core")
    assert "Showing the first" not in code_html(small) and ">12</span>" in code_html(small)
