"""The chunk stage with real tree-sitter: per-language fixtures, invariants, edge cases."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from codeqa.chunk import CHUNKER_VERSION, chunk_and_tag, chunk_file
from codeqa.chunk.treesitter import get_parser
from codeqa.config import Settings
from codeqa.languages import detect_language
from codeqa.records import Chunk, SourceFile
from tests.helpers import growth

FIXTURES = Path(__file__).parent / "fixtures" / "chunk"
SMALL = Settings(chunk_max_chars=200, chunk_min_chars=40)  # small enough to separate definitions

# (start_line, end_line, kind, symbol) of every chunk, with SMALL and path "src/<name>"
EXPECTED: dict[str, list[tuple[int, int, str, str]]] = {
    "sample.c": [
        (1, 2, "module", ""),
        (4, 9, "class", "buffer"),
        (11, 23, "function", "buffer_grow"),
        (25, 28, "function", "main"),
    ],
    "sample.cpp": [
        (1, 4, "module", "geo"),
        (6, 10, "class", "Shape, Shape.~Shape"),
        (11, 13, "method", "Shape.describe"),
        (15, 17, "class", "Shape"),
        (19, 27, "function", "total_area"),
    ],
    "sample.cs": [
        (1, 5, "module", "Shop.Api"),
        (6, 11, "class", "OrdersController"),
        (13, 16, "method", "OrdersController.OrdersController"),
        (18, 29, "method", "OrdersController.Get"),
    ],
    "sample.ex": [
        (1, 6, "class", "Shop.Cart"),
        (8, 12, "method", "Shop.Cart.add"),
        (14, 15, "method", "Shop.Cart.total"),
        (17, 17, "method", "Shop.Cart.discount"),
        (19, 25, "method", "Shop.Cart.with_cart"),
    ],
    "sample.go": [
        (1, 6, "module", ""),
        (8, 12, "class", "Server"),
        (14, 17, "class", "Store"),
        (19, 20, "method", "Server.ServeHTTP"),
        (21, 28, "method", "Server.ServeHTTP"),
        (30, 32, "function", "NewServer"),
    ],
    "sample.hs": [
        (1, 3, "module", ""),
        (5, 10, "class", "Item"),
        (12, 12, "class", "Cart"),
        (14, 18, "function", "total"),
        (19, 20, "function", "total'"),
        (22, 24, "function", "discount"),
        (26, 31, "class", "Priced, Item"),
    ],
    "sample.java": [
        (1, 4, "module", ""),
        (6, 12, "class", "OrderController"),
        (14, 16, "method", "OrderController.OrderController"),
        (18, 21, "method", "OrderController.get"),
        (23, 30, "method", "OrderController.list"),
    ],
    "sample.js": [
        (1, 2, "module", ""),
        (4, 14, "function", "loadUser"),
        (16, 19, "function", "formatUser"),
        (21, 31, "class", "UserCache"),
        (33, 33, "module", ""),
    ],
    # CommonJS: a function assigned to a member is named by it; `module.exports = function (Topics)` only wraps them
    "commonjs.js": [
        (1, 6, "module", ""),
        (7, 8, "method", "Topics.reply"),
        (9, 13, "method", "Topics.reply"),
        (15, 17, "method", "Topics.lock"),
        (19, 22, "module", ""),
    ],
    "exports.js": [
        (1, 1, "module", ""),
        (3, 8, "function", "getLogin"),
        (10, 15, "function", "postLogin"),
        (17, 19, "function", "logout"),
    ],
    "sample.kt": [
        (1, 3, "module", ""),
        (5, 6, "class", "Line"),
        (8, 8, "class", "Cart"),
        (9, 12, "method", "Cart.add"),
        (14, 15, "method", "Cart.total"),
        (17, 20, "class", "Cart"),
        (22, 26, "function", "main"),
    ],
    "sample.php": [
        (1, 6, "module", "App.Http.Controllers"),
        (8, 12, "class", "PostController"),
        (13, 17, "method", "PostController.index"),
        (19, 25, "method", "PostController.store"),
        (27, 30, "function", "slugify"),
    ],
    "sample.py": [
        (1, 6, "module", ""),
        (9, 11, "class", "SessionStore"),
        (13, 15, "method", "SessionStore.__init__"),
        (17, 21, "method", "SessionStore.make_token"),
        (23, 28, "method", "SessionStore.login"),
        (31, 33, "function", "cleanup"),
        (35, 36, "function", "cleanup.expired"),
        (38, 41, "function", "cleanup"),
        (44, 45, "module", ""),
    ],
    "sample.rb": [
        (1, 3, "module", "Billing"),
        (4, 7, "class", "Billing.Invoice"),
        (9, 11, "method", "Billing.Invoice.for_month"),
        (13, 16, "method", "Billing.Invoice.total_with_tax"),
        (18, 22, "method", "Billing.Invoice.fingerprint"),
    ],
    "sample.rs": [
        (1, 1, "module", ""),
        (3, 7, "class", "Store"),
        (9, 9, "class", "Store"),
        (10, 12, "method", "Store.new"),
        (14, 19, "method", "Store.put"),
        (21, 24, "function", "parse_line"),
    ],
    "sample.ts": [
        (1, 2, "module", ""),
        (4, 7, "class", "Order"),
        (9, 13, "class", "OrderService, OrderService.constructor"),
        (15, 21, "method", "OrderService.fetch"),
        (22, 24, "method", "OrderService.fetch"),
        (26, 28, "function", "totalOf"),
    ],
    "sample.tsx": [
        (1, 3, "module", ""),
        (5, 7, "function", "Counter, Counter.increment"),
        (8, 13, "function", "Counter"),
        (15, 17, "function", "Badge"),
        (19, 19, "module", ""),
    ],
}

EXPECTED_LAYERS = {
    "sample.go": "api",
    "sample.java": "api",
    "sample.cs": "api",
    "sample.rb": "model",
    "sample.ts": "service",
    "sample.tsx": "view",
    "sample.py": "core",
}


def source(path: str, text: str, language: str | None = None) -> SourceFile:
    return SourceFile(
        path=path,
        language=language or detect_language(path) or "text",
        text=text,
        size=len(text.encode("utf-8", "surrogatepass")),
    )


def fixture(name: str) -> SourceFile:
    return source(f"src/{name}", (FIXTURES / name).read_text(encoding="utf-8"))


def assert_invariants(file: SourceFile, chunks: list[Chunk]) -> None:
    """Exact text, valid ordered non-overlapping ranges, every non-blank line covered once."""
    lines = file.text.split("\n")
    previous_end = 0
    covered: set[int] = set()
    for chunk in chunks:
        assert 1 <= chunk.start_line <= chunk.end_line <= len(lines)
        assert chunk.start_line > previous_end
        assert chunk.text == "\n".join(lines[chunk.start_line - 1 : chunk.end_line])
        assert chunk.text.strip()
        assert chunk.path == file.path and chunk.language == file.language
        assert chunk.kind in {"function", "method", "class", "module", "doc", "config", "test", "other"}
        previous_end = chunk.end_line
        covered.update(range(chunk.start_line, chunk.end_line + 1))
    missing = [i + 1 for i, line in enumerate(lines) if line.strip() and i + 1 not in covered]
    assert not missing


def summary(chunks: list[Chunk]) -> list[tuple[int, int, str, str]]:
    return [(c.start_line, c.end_line, c.kind, c.symbol) for c in chunks]


REQUIRED = {
    "python": "py",
    "javascript": "js",
    "typescript": "ts",
    "tsx": "tsx",
    "ruby": "rb",
    "go": "go",
    "java": "java",
    "rust": "rs",
    "c": "c",
    "cpp": "cpp",
    "csharp": "cs",
    "php": "php",
    "kotlin": "kt",
    "haskell": "hs",
    "elixir": "ex",
}


def test_every_required_language_has_a_grammar_and_a_fixture() -> None:
    for language, extension in REQUIRED.items():
        assert get_parser(language) is not None
        assert detect_language(f"sample.{extension}") == language
        assert f"sample.{extension}" in EXPECTED
    assert CHUNKER_VERSION


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_chunks(name: str) -> None:
    file = fixture(name)
    chunks = chunk_file(file, SMALL)
    assert_invariants(file, chunks)
    assert summary(chunks) == EXPECTED[name]
    if name in EXPECTED_LAYERS:
        assert {c.layer for c in chunks} == {EXPECTED_LAYERS[name]}


@pytest.mark.parametrize("name", sorted(EXPECTED))
@pytest.mark.parametrize("budget", [(60, 10), (1500, 200), (100_000, 0)])
def test_fixture_invariants_at_any_budget(name: str, budget: tuple[int, int]) -> None:
    file = fixture(name)
    chunks = chunk_file(file, Settings(chunk_max_chars=budget[0], chunk_min_chars=budget[1]))
    assert_invariants(file, chunks)


def test_oversized_class_becomes_header_plus_one_chunk_per_method() -> None:
    methods = "\n".join(
        f"    def step_{i}(self, value):\n        total = value * {i}\n"
        f"        return self.scale(total) + {i} * len(str(total))\n"
        for i in range(6)
    )
    text = f'class Pipeline(Base):\n    """Runs steps."""\n\n    name = "p"\n\n{methods}'
    file = source("pkg/pipeline.py", text)
    chunks = chunk_file(file, Settings(chunk_max_chars=300, chunk_min_chars=50))
    assert_invariants(file, chunks)
    assert summary(chunks)[0] == (1, 4, "class", "Pipeline")
    assert [c.symbol for c in chunks[1:]] == [f"Pipeline.step_{i}" for i in range(6)]
    assert {c.kind for c in chunks[1:]} == {"method"}


def test_oversized_function_is_split_into_statement_groups_keeping_its_symbol() -> None:
    body = "\n".join(f"    value_{i} = compute(value_{i - 1}, factor={i})" for i in range(1, 80))
    text = f"import os\n\n\ndef long_job(value_0):\n    '''Does a lot.'''\n{body}\n    return value_79\n"
    file = source("pkg/jobs.py", text)
    chunks = chunk_file(file, Settings(chunk_max_chars=400, chunk_min_chars=50))
    assert_invariants(file, chunks)
    assert summary(chunks)[0] == (1, 1, "module", "")
    parts = chunks[1:]
    assert len(parts) >= 5
    assert {(c.symbol, c.kind) for c in parts} == {("long_job", "function")}
    assert parts[0].start_line == 4 and parts[-1].end_line == 85
    assert all(sum(not ch.isspace() for ch in c.text) <= 400 for c in parts)


def test_a_multi_clause_definition_is_one_unit_and_is_cut_between_its_clauses() -> None:
    equations = "".join(f"  | n == {i} = scale{i} * n + offset{i}\n" for i in range(6))
    haskell = f"-- | Scales a number.\nscale :: Int -> Int\nscale 0 = 0\nscale n\n{equations}\nother = 1\n"
    file = source("src/Scale.hs", haskell)
    whole = chunk_file(file, Settings(chunk_max_chars=1000, chunk_min_chars=10))
    assert summary(whole)[0] == (1, 10, "function", "scale")
    cut = chunk_file(file, Settings(chunk_max_chars=120, chunk_min_chars=10))
    assert_invariants(file, cut)
    assert [c.symbol for c in cut if c.start_line <= 10] == ["scale"] * len([c for c in cut if c.start_line <= 10])
    assert len([c for c in cut if c.start_line <= 10]) >= 2 and cut[0].start_line == 1
    elixir = "defmodule A.B do\n  def f(0), do: :zero\n\n  def f(n) when n > 0, do: :pos\n  defp g, do: 1\nend\n"
    assert summary(chunk_file(source("lib/a/b.ex", elixir), Settings(chunk_max_chars=40, chunk_min_chars=5))) == [
        (1, 1, "class", "A.B"),
        (2, 4, "method", "A.B.f"),
        (5, 6, "method", "A.B.g"),
    ]


def test_small_siblings_are_merged_up_to_the_budget() -> None:
    text = "import os\nimport sys\n\nLIMIT = 3\n\n\n" + "\n\n".join(
        f"def f{i}(x):\n    return x + {i}\n" for i in range(8)
    )
    file = source("pkg/small.py", text)
    chunks = chunk_file(file)  # default budget: everything fits in one chunk
    assert_invariants(file, chunks)
    assert len(chunks) == 1
    assert chunks[0].symbol == "f0, f1, f2, f3, f4, …"
    assert chunks[0].kind == "function"
    tight = chunk_file(file, Settings(chunk_max_chars=60, chunk_min_chars=40))
    assert_invariants(file, tight)
    assert 1 < len(tight) < 9
    assert tight[0].symbol.startswith("f0") and tight[0].start_line == 1


def test_comments_decorators_and_annotations_stay_with_their_definition() -> None:
    java = "class A {\n    // Reads it.\n    @Override\n    public int read() {\n        return 1;\n    }\n}\n"
    go = "package x\n\n// Run runs.\n// Twice.\nfunc (p *Pool) Run() {\n\tp.go()\n}\n"
    rust = "/// Doc.\n#[inline]\nimpl<T> Wrapper<T> {\n    fn get(&self) -> T { self.0 }\n}\n"
    tight = Settings(chunk_max_chars=12, chunk_min_chars=1)
    chunks = chunk_file(source("A.java", java), tight)
    assert ("A.read", 2) in [(c.symbol, c.start_line) for c in chunks]
    chunks = chunk_file(source("pool.go", go), Settings(chunk_max_chars=400, chunk_min_chars=1))
    assert summary(chunks)[-1] == (3, 7, "method", "Pool.Run")
    chunks = chunk_file(source("w.rs", rust), Settings(chunk_max_chars=20, chunk_min_chars=1))
    assert summary(chunks)[0][:2] == (1, 3) and chunks[0].symbol == "Wrapper"
    assert chunks[-1].symbol == "Wrapper.get" and chunks[-1].kind == "method"


def test_test_kind_from_path_and_from_names() -> None:
    text = "def helper():\n    return 1\n\n\ndef test_helper():\n    assert helper() == 1\n"
    tight = Settings(chunk_max_chars=60, chunk_min_chars=10)
    in_src = chunk_file(source("pkg/mod.py", text), tight)
    assert [(c.symbol, c.kind) for c in in_src] == [("helper", "function"), ("test_helper", "test")]
    in_tests = chunk_file(source("tests/test_mod.py", text), tight)
    assert {c.kind for c in in_tests} == {"test"} and {c.layer for c in in_tests} == {"test"}
    go = "package x\n\nfunc TestAdd(t *testing.T) {\n\tif add(1, 2) != 3 {\n\t\tt.Fatal()\n\t}\n}\n"
    assert chunk_file(source("add.go", go), tight)[-1].kind == "test"


def test_markdown_is_split_by_headings_with_heading_paths() -> None:
    text = (
        "# Guide\n\nIntro text that is long enough to matter here.\n\n"
        "## Install\n\nRun the installer with the right flags please.\n\n"
        "### Linux\n\n```sh\n# not a heading\napt-get install codeqa\n```\n\n"
        "## Usage\n\nAsk questions about your code base in plain words.\n"
    )
    file = source("docs/guide.md", text)
    chunks = chunk_file(file, Settings(chunk_max_chars=50, chunk_min_chars=10))
    assert_invariants(file, chunks)
    assert summary(chunks) == [
        (1, 3, "doc", "Guide"),
        (5, 7, "doc", "Guide > Install"),
        (9, 14, "doc", "Guide > Install > Linux"),
        (16, 18, "doc", "Guide > Usage"),
    ]
    assert {c.layer for c in chunks} == {"docs"}
    merged = chunk_file(file)
    assert len(merged) == 1 and merged[0].kind == "doc"


def test_rst_and_plain_text_are_docs() -> None:
    rst = "Title\n=====\n\nIntro.\n\nSection\n-------\n\nBody text.\n"
    chunks = chunk_file(source("docs/index.rst", rst), Settings(chunk_max_chars=30, chunk_min_chars=1))
    assert [c.symbol for c in chunks] == ["Title", "Title > Section"]
    text = "\n\n".join(f"Paragraph {i} " + "words " * 40 for i in range(10))
    file = source("NOTES.txt", text)
    chunks = chunk_file(file, Settings(chunk_max_chars=300, chunk_min_chars=50))
    assert_invariants(file, chunks)
    assert len(chunks) > 3 and {c.kind for c in chunks} == {"doc"}


@pytest.mark.parametrize(
    ("path", "text", "symbols"),
    [
        (
            "package.json",
            '{\n  "name": "app",\n  "scripts": {\n    "build": "vite build",\n'
            '    "test": "vitest"\n  },\n  "private": true\n}\n',
            ["name", "scripts", "private"],
        ),
        (
            "deploy/compose.yaml",
            "version: '3'\nservices:\n  web:\n    image: nginx\n    ports: ['80:80']\n  db:\n    image: postgres\n",
            ["version", "services"],
        ),
        (
            "Cargo.toml",
            '[package]\nname = "x"\nversion = "0.1.0"\n\n[dependencies]\nserde = "1"\n',
            ["package", "dependencies"],
        ),
    ],
)
def test_config_files_are_config_chunks_named_by_keys(path: str, text: str, symbols: list[str]) -> None:
    file = source(path, text)
    chunks = chunk_file(file, Settings(chunk_max_chars=30, chunk_min_chars=5))
    assert_invariants(file, chunks)
    assert {c.kind for c in chunks} == {"config"}
    names = ", ".join(c.symbol for c in chunks)
    assert all(symbol in names for symbol in symbols)
    assert chunk_file(file)[0].kind == "config"


def test_nested_config_keys_get_dotted_symbols() -> None:
    text = "services:\n" + "".join(
        f"  svc{i}:\n    image: registry.example.com/team/service-{i}:latest\n" for i in range(6)
    )
    chunks = chunk_file(source("compose.yml", text), Settings(chunk_max_chars=120, chunk_min_chars=10))
    assert any("services.svc5" in c.symbol for c in chunks)


def test_other_languages_use_langchain_with_exact_lines() -> None:
    scala_like = "\n".join(f"<div class='row-{i}'>\n  <span>{i}</span>\n</div>" for i in range(60))
    file = source("templates/rows.html", scala_like)
    chunks = chunk_file(file, Settings(chunk_max_chars=200, chunk_min_chars=20))
    assert_invariants(file, chunks)
    assert len(chunks) > 3 and {c.kind for c in chunks} == {"other"}
    assert {c.layer for c in chunks} == {"view"}
    perl = "sub hello {\n    print 'hi';\n}\n" * 40
    file = source("bin/hello.pl", perl)
    assert_invariants(file, chunk_file(file, Settings(chunk_max_chars=100, chunk_min_chars=10)))


@pytest.mark.parametrize("language", sorted(REQUIRED))
def test_syntax_errors_do_not_lose_lines(language: str) -> None:
    text = "def broken(:\n  return )))\nclass {\n  }}} fn (\n\n\nint x = ;\n@@@ '''\n\"unterminated\n"
    file = source(f"src/broken.{REQUIRED[language]}", text, language)
    assert_invariants(file, chunk_file(file, Settings(chunk_max_chars=10, chunk_min_chars=1)))


@pytest.mark.parametrize("text", ["", "\n", "   \n\n\t\n", "\n" * 1000])
@pytest.mark.parametrize("language", ["python", "markdown", "json", "text", "html"])
def test_empty_and_blank_files_give_no_chunks(text: str, language: str) -> None:
    assert chunk_file(source("x", text, language)) == []


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("python", "".join("    " * i + f"if x{i}:\n" for i in range(2000)) + " " * 8000 + "pass\n"),
        ("javascript", "x = " + "[\n" * 2000 + "]\n" * 2000),
        ("javascript", "f(" * 3000 + ")" * 3000 + "\n"),
        ("c", "int f() {\n" + "{\n" * 3000 + "}\n" * 3000 + "}\n"),
        ("ruby", "def f\n" + "if x\n" * 2000 + "end\n" * 2000 + "end\n"),
        ("json", "[" * 5000 + "]" * 5000),
        ("yaml", "".join("  " * i + f"k{i}:\n" for i in range(1000))),  # crashes the grammar
        ("yaml", "- " * 2000 + "x\n"),
        ("markdown", "".join("#" * (i % 7) + f" h{i}\n" for i in range(3000))),
    ],
)
def test_deeply_nested_input_does_not_raise(language: str, text: str) -> None:
    file = source("deep", text, language)
    chunks = chunk_file(file, Settings(chunk_max_chars=200, chunk_min_chars=20))
    assert_invariants(file, chunks)


def test_huge_single_line_stays_one_chunk() -> None:
    text = "x = '" + "a" * 300_000 + "'\ny = 1\n"
    chunks = chunk_file(source("gen.py", text))
    assert_invariants(source("gen.py", text), chunks)
    assert chunks[0].start_line == chunks[0].end_line == 1


def test_a_larger_file_is_parsed_once_and_its_chunking_grows_linearly(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 260 KB file with default settings: one parse serves its chunks and its tags, and 8 times the file costs about
    8 times as much to chunk (how fast it is, is for bench/)."""
    import codeqa.chunk
    import codeqa.chunk.treesitter

    sample = (FIXTURES / "sample.py").read_text(encoding="utf-8")
    file = source("pkg/big.py", sample * 200)  # ~260 KB
    parsed: list[str] = []

    def counted_parse(language: str, index):
        parsed.append(language)
        return real_parse(language, index)

    real_parse = codeqa.chunk.treesitter.parse
    monkeypatch.setattr(codeqa.chunk, "parse", counted_parse)
    monkeypatch.setattr(codeqa.chunk.treesitter, "parse", counted_parse)
    chunks, tags = chunk_and_tag(file)
    assert parsed == ["python"]
    assert_invariants(file, chunks)
    assert len(tags.definitions) >= 200 * len(chunk_and_tag(source("pkg/one.py", sample))[1].definitions)
    assert growth(lambda copies: chunk_file(source("pkg/big.py", sample * copies)), 25) < 3 * 8


@hypothesis_settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    language=st.sampled_from(["python", "javascript"]),
    parts=st.lists(
        st.one_of(
            st.sampled_from(
                [
                    "def f(x):",
                    "class A:",
                    "function g() {",
                    "}",
                    "{",
                    "return x",
                    "    pass",
                    "  if (a) {",
                    "# c",
                    "/* c */",
                    "@dec",
                    "'''",
                    '"',
                    "",
                    "  ",
                    "\t",
                    "x = [",
                    "]",
                    "class B extends A {",
                    "=>",
                    "\\",
                ]
            ),
            st.text(max_size=30),
        ),
        max_size=60,
    ),
    budget=st.sampled_from([(1, 0), (20, 5), (200, 40), (1500, 200)]),
)
def test_random_text_never_raises_and_keeps_invariants(
    language: str, parts: list[str], budget: tuple[int, int]
) -> None:
    text = "\n".join(parts).replace("\r", "")
    file = source("src/random", text, language)
    chunks = chunk_file(file, Settings(chunk_max_chars=budget[0], chunk_min_chars=budget[1]))
    assert_invariants(file, chunks)
