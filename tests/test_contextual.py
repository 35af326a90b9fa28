"""The contextual stage (#36): the packaged MiniLM reads the question with each best file's text, fused with today's
order; its text vectors are cached beside the index; a broken model folder is reported and skipped; the setting
turns it off; every surface (search, search --files, ask, the service behind the API and MCP) goes through it."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from codeqa.cli import app
from codeqa.config import Settings, get_settings
from codeqa.embed import contextual as encoders
from codeqa.embed.contextual import ContextualEncoder, build_encoder, load_contextual_encoder
from codeqa.errors import EmbeddingError
from codeqa.index import Index
from codeqa.retrieve import contextual
from codeqa.retrieve.contextual import cache_path, contextual_stage
from codeqa.retrieve.ranking import Stages
from codeqa.service.models import SearchRequest
from codeqa.service.operations import Operations
from codeqa.tokens import code_tokens
from tests.conftest import init_repo
from tests.helpers import ask_named, build_index, retrieve_named

KIT = {
    "kit/summary.py": '''"""After the run: print how many tests passed and failed."""


def print_summary(tests, failed):
    """Print one line per failed test, then the totals."""
    for test in failed:
        print("FAILED", test)
    print(f"{len(tests) - len(failed)} tests passed, {len(failed)} failed")
''',
    "kit/capture.py": '''"""Swap sys.stdout and sys.stderr for in-memory buffers while a case runs."""

import io
import sys


class OutputGrabber:
    def __enter__(self):
        self.saved = sys.stdout, sys.stderr
        self.out, self.err = io.StringIO(), io.StringIO()
        sys.stdout, sys.stderr = self.out, self.err
        return self

    def __exit__(self, *exc):
        sys.stdout, sys.stderr = self.saved
        return False
''',
    "kit/scratch.py": '''"""A fresh temporary directory for each case, removed afterwards."""

import shutil
import tempfile


def make_dir(prefix):
    return tempfile.mkdtemp(prefix=prefix)


def remove_dir(path):
    shutil.rmtree(path, ignore_errors=True)
''',
    "kit/settings.py": '''"""Options read from the environment, with defaults."""

import os


def option(name, default):
    return os.environ.get("KIT_" + name.upper(), default)


def verbose():
    return option("verbose", "0") == "1"
''',
    "kit/colors.py": '''"""Terminal colours for the report."""

RED = "\\033[31m"
GREEN = "\\033[32m"
RESET = "\\033[0m"


def paint(text, color):
    return f"{color}{text}{RESET}"
''',
}
# none of the temporary-directory module's words: the word "test" leads the word signals to the summary module
QUESTION = "where is the per-test sandbox folder created and thrown away"
TARGET = "kit/scratch.py"


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("contextual")
    build_index(str(init_repo(base / "kit", KIT)), Settings(home=base / "home"), name="kit")
    return base / "home"


def paths(home: Path, **settings: object) -> list[str]:
    return [f.path for f in retrieve_named("kit", QUESTION, Settings(home=home, **settings)).files]  # type: ignore[arg-type]


def test_the_question_shares_no_word_with_the_module_it_is_about():
    asked = set(code_tokens(QUESTION))
    assert not asked & set(code_tokens(TARGET + "\n" + KIT[TARGET]))
    assert asked & set(code_tokens(KIT["kit/summary.py"]))  # "test": the word signals' pick


def test_the_stage_lifts_the_module_the_words_miss_and_the_setting_turns_it_off(home: Path):
    off = paths(home)  # the default
    assert off[0] == "kit/summary.py" and TARGET in off[1:4], off
    assert paths(home, contextual_stage=False) == off
    on = paths(home, contextual_stage=True)
    assert on[0] == TARGET, on
    assert sorted(on) == sorted(off)  # a new order of the same files
    assert contextual_stage(Index.open("kit", Settings(home=home))) is None
    stage_on = Settings(home=home, contextual_stage=True)
    switched = retrieve_named("kit", QUESTION, stage_on, stages=Stages(contextual=False))
    assert [f.path for f in switched.files] == off  # the ablation's switch


def test_text_vectors_are_cached_beside_the_index_and_survive_a_restart(home: Path):
    settings = Settings(home=home, contextual_stage=True)
    encoder = load_contextual_encoder(settings)
    assert encoder is not None
    path = cache_path(Index.open("kit", settings), encoder.model_id)
    path.unlink(missing_ok=True)  # earlier tests asked too
    contextual._STAGES.clear()
    paths(home, contextual_stage=True)
    stage = contextual_stage(Index.open("kit", settings))
    assert stage is not None
    first = stage.vectors.encoded
    assert first == 2 * len(KIT)  # a chunk and a card per file (all five are among the best)
    assert path.is_file()
    retrieve_named("kit", "which part makes folders for a case", settings)
    assert stage.vectors.encoded == first  # the same files: nothing new to encode
    contextual._STAGES.clear()  # as a new process
    assert paths(home, contextual_stage=True)[0] == TARGET
    again = contextual_stage(Index.open("kit", settings))
    assert again is not None and again.vectors is not stage.vectors and again.vectors.encoded == 0


def test_the_cache_goes_with_the_index(tmp_path: Path):
    settings = Settings(home=tmp_path / "home", contextual_stage=True)
    build_index(str(init_repo(tmp_path / "kit", KIT)), settings, name="gone")
    retrieve_named("gone", QUESTION, settings)
    index = Index.open("gone", settings)
    encoder = load_contextual_encoder(settings)
    assert encoder is not None
    path = cache_path(index, encoder.model_id)
    assert path.is_file()
    index.remove()
    assert not path.exists()


def _compact_folder(folder: Path, layers: int, *, drop: str | None = None) -> Path:
    """A compact encoder in the format the training recipe saves: the first ``layers`` layers, fp16, no word
    embeddings (``drop``: leave one more tensor out, as a broken save would)."""
    from safetensors.torch import save_file

    bert = encoders._packaged_model()[0].auto_model
    state = {
        name: tensor.half().contiguous()
        for name, tensor in bert.state_dict().items()
        if name != "embeddings.word_embeddings.weight"
        and not (name.startswith("encoder.layer.") and int(name.split(".")[2]) >= layers)
        and name != drop
    }
    folder.mkdir(parents=True)
    save_file(state, str(folder / "layers.safetensors"))
    config = {"base": "packaged:all-MiniLM-L6-v2", "layers": layers, "max_tokens": 64, "pooling": "mean"}
    (folder / "contextual.json").write_text(json.dumps({**config, "normalize": True, "revision": "t1"}))
    return folder


def test_a_compact_encoder_folder_loads_with_its_layers(tmp_path: Path):
    encoder = build_encoder(str(_compact_folder(tmp_path / "cut3", 3)))
    assert isinstance(encoder, ContextualEncoder) and "t1" in encoder.model_id
    vectors = encoder.encode(["a temporary directory", "a fresh folder for a case", "terminal colours"])
    assert vectors.dtype == np.float32 and vectors.shape == (3, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-3)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2]
    assert len(encoder._model[0].auto_model.encoder.layer) == 3


def test_a_broken_model_folder_is_reported_once_and_retrieval_goes_on(home: Path, tmp_path: Path, caplog):
    missing_layer = _compact_folder(tmp_path / "broken", 2, drop="encoder.layer.1.output.dense.weight")
    with pytest.raises(EmbeddingError, match="does not fit a 2-layer MiniLM"):
        build_encoder(str(missing_layer))
    garbage = tmp_path / "garbage"
    garbage.mkdir()
    (garbage / "contextual.json").write_text("{not json")
    off = paths(home)
    for folder in (missing_layer, garbage):
        with caplog.at_level(logging.WARNING, logger="codeqa.embed.contextual"):
            caplog.clear()
            assert paths(home, contextual_stage=True, contextual_model=str(folder)) == off
            assert paths(home, contextual_stage=True, contextual_model=str(folder)) == off
        warnings = [r.getMessage() for r in caplog.records]
        assert len(warnings) == 1 and "contextual stage is skipped" in warnings[0], warnings
        assert str(folder) in warnings[0] and "CODEQA_CONTEXTUAL_STAGE=false" in warnings[0]


def test_every_surface_uses_the_stage(home: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("CODEQA_HOME", str(home))
    monkeypatch.setenv("CODEQA_CONTEXTUAL_STAGE", "true")
    get_settings.cache_clear()
    cli = CliRunner()
    files = cli.invoke(app, ["search", "kit", QUESTION, "--files"])
    assert files.exit_code == 0 and files.output.split()[0] == TARGET, files.output
    chunks = cli.invoke(app, ["search", "kit", QUESTION, "-k", "3"])
    assert chunks.exit_code == 0 and chunks.output.strip().splitlines()[0].startswith(TARGET), chunks.output

    settings = Settings(home=home, contextual_stage=True)
    service = Operations(settings)
    assert service.find_files("kit", SearchRequest(question=QUESTION, k=3)).files[0].path == TARGET  # API, MCP
    assert service.search("kit", SearchRequest(question=QUESTION, k=3)).results[0].path == TARGET
    sources = {}
    for on in (False, True):
        answer = ask_named("kit", QUESTION, Settings(home=home, contextual_stage=on)).result()
        sources[on] = [source.chunk.path for source in answer.sources]
    assert sources[True].index(TARGET) < sources[False].index(TARGET), sources  # the answer chooses its lead itself

    monkeypatch.setenv("CODEQA_CONTEXTUAL_STAGE", "false")
    get_settings.cache_clear()
    plain = cli.invoke(app, ["search", "kit", QUESTION, "--files"])
    assert plain.output.split()[0] == "kit/summary.py", plain.output


def test_eval_ablation_reports_each_stage_per_language_group(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from tests.conftest import write_files

    commit = "c" * 40
    write_files(tmp_path / "trees" / "acme__kit" / commit, KIT)
    dataset = tmp_path / "kit.jsonl"
    line = {"repo": "acme/kit", "base_commit": commit, "gold_files": [TARGET]}
    dataset.write_text(json.dumps({**line, "instance_id": "kit-1", "problem_statement": QUESTION}) + "\n")
    out = tmp_path / "ablation.json"
    args = ["eval", "--ablation", "--dataset", str(dataset), "--trees", str(tmp_path / "trees"), "--json", str(out)]
    result = CliRunner().invoke(app, args, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "ablation: files Acc@1 / Acc@5 / Acc@10" in result.output and "Python (1)" in result.output
    table = json.loads(out.read_text())["ablation"]
    assert list(table) == [
        "full (contextual on)",
        "− contextual stage",
        "− doc-to-code votes",
        "− hub evidence",
        "− second stage (trees)",
        "BM25 alone",
    ]
    assert table["full (contextual on)"]["Python"] == {"n": 1, "acc@1": 100.0, "hits@1": 1, "acc@5": 100.0,
                                                      "hits@5": 1, "acc@10": 100.0, "hits@10": 1}  # fmt: skip
    assert table["− contextual stage"]["all"]["hits@1"] == 0  # the stage's first place, as above
    assert table["− hub evidence"]["all"]["hits@1"] == 1  # no hub here: nothing changes
