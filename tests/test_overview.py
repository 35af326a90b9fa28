"""Overview statistics over hand-made chunks (pure functions) and over a real index."""

from __future__ import annotations

import pytest

from codeqa.explore.facets import facets_of
from codeqa.explore.imports import auto_modules, import_graph, module_graph, module_of
from codeqa.explore.overview import build_overview
from codeqa.languages import detect_language
from codeqa.records import Chunk
from codeqa.searchfiles import ChunkTable
from codeqa.symbols import short_names


def chunk(path: str, text: str, *, symbol: str = "", kind: str = "function", start: int = 1, lang: str = "python"):
    lines = text.count("\n") + 1
    return Chunk(path, lang, start, start + lines - 1, text, symbol, kind, "core")


REPO = [
    chunk("app/auth.py", "from app.db import connect\n\ndef login(user):\n    return connect(user)", symbol="login"),
    chunk("app/db.py", "import sqlite3\n\ndef connect(user):\n    return sqlite3.connect(user)", symbol="connect"),
    chunk(
        "app/views.py",
        "from .auth import login\nfrom . import db\n\ndef page():\n    login(1)\n    db.connect(2)",
        symbol="page",
    ),
    chunk(
        "web/main.ts",
        "import { api } from './lib/api';\nimport React from 'react';\napi();",
        symbol="",
        kind="module",
        lang="typescript",
    ),
    chunk("web/lib/api.ts", "export function api() {\n  return fetch('/x');\n}", symbol="api", lang="typescript"),
    chunk(
        "tests/test_auth.py",
        "from app.auth import login\n\ndef test_login():\n    assert login('a')",
        symbol="test_login",
        kind="test",
    ),
    chunk("README.md", "# Demo\n\nCall login() to start.", symbol="Demo", kind="doc", lang="markdown"),
]


def test_sizes_languages_layers_and_tree():
    overview = build_overview(REPO, name="demo")
    assert overview.files == 7 and overview.chunks == 7
    assert overview.lines_by_language["python"] == 4 + 4 + 6 + 4
    assert overview.lines_by_language["typescript"] == 3 + 3
    assert overview.chunks_by_kind["function"] == 4
    tree = {node.id: node for node in overview.directories}
    assert tree["app"].lines == 14 and tree["app"].files == 3 and tree["app"].parent == ""
    assert tree["web/lib"].parent == "web" and tree["web/lib/api.ts"].is_file
    assert overview.largest_files(1)[0].path == "app/views.py"


def test_most_referenced_symbols_count_other_chunks_only():
    symbols = {ref.name: ref for ref in build_overview(REPO).top_symbols}
    assert symbols["login"].files == 2  # views and the test use it; its own chunk and the README's prose do not count
    assert symbols["login"].references == 2  # a plain word: only its calls count, not the imports
    assert symbols["connect"].files == 2
    assert list(symbols)[:2] == ["connect", "login"]  # used as much as each other: ties go by name
    assert "Demo" not in symbols and "test_login" not in symbols  # docs and tests are not "central symbols"


def test_python_and_typescript_imports_resolve_to_files():
    overview = build_overview(REPO)
    assert overview.file_imports["app/auth.py"] == ("app/db.py",)
    assert set(overview.file_imports["app/views.py"]) == {"app/auth.py", "app/db.py"}
    assert overview.file_imports["web/main.ts"] == ("web/lib/api.ts",)
    assert overview.external_imports == {"react": 1}  # sqlite3 is Python's standard library: not a dependency


@pytest.mark.parametrize(
    ("path", "language", "text", "files", "expected"),
    [
        (
            "cmd/main.go",
            "go",
            'import (\n  "fmt"\n  "example.com/m/internal/auth"\n)',
            ["internal/auth/auth.go"],
            {"internal/auth/auth.go"},
        ),
        (
            "src/main/java/com/x/App.java",
            "java",
            "import com.x.util.Strings;\nimport java.util.List;",
            ["src/main/java/com/x/util/Strings.java"],
            {"src/main/java/com/x/util/Strings.java"},
        ),
        (
            "lib/shop.rb",
            "ruby",
            "require 'shop/cart'\nrequire_relative 'helpers'\nrequire 'json'",
            ["lib/shop/cart.rb", "lib/helpers.rb"],
            {"lib/shop/cart.rb", "lib/helpers.rb"},
        ),
        (
            "src/a.js",
            "javascript",
            "const b = require('../lib/b');\nexport * from './c';",
            ["lib/b/index.js", "src/c.jsx"],
            {"lib/b/index.js", "src/c.jsx"},
        ),
    ],
)
def test_imports_in_other_languages(path, language, text, files, expected):
    texts = {path: (language, text), **{f: (detect_language(f) or "text", "") for f in files}}
    imports, _ = import_graph(texts)
    assert set(imports[path]) == expected


def test_relative_imports_cannot_escape_the_repository():
    imports, external = import_graph({"a.js": ("javascript", "import x from '../../etc/passwd'")})
    assert imports == {} and not external


def test_module_graph_collapses_files_by_depth():
    overview = build_overview(REPO)
    top = overview.dependencies(1)
    assert {(e.source, e.target) for e in top.edges} == {("tests", "app")}
    assert top.modules[0] == "app" and top.lines["(root)"] == 3
    deeper = overview.dependencies(2)
    assert ("app/views", "app/auth") in {(e.source, e.target) for e in deeper.edges}
    assert module_of("README.md", 2) == "(root)" and module_of("a/b/c.py", 2) == "a/b"
    with pytest.raises(ValueError):
        module_graph({}, {}, 0)


def test_short_names_and_facets():
    assert short_names("Cart.add, formatPrice") == ["add", "formatPrice"]
    assert short_names("Cart#total, pkg::mod::f, …") == ["total", "f"]
    table = ChunkTable()
    table.append(
        [
            Chunk("a/b/x.py", "python", 1, 2, "class X: pass", "X", "class", "model"),
            Chunk("y.md", "markdown", 1, 1, "# Y", "Y", "doc", "docs"),
        ]
    )
    facets = facets_of(table)
    assert facets.directories == {"a": 1, "a/b": 1}
    assert facets.layers == {"model": 1, "docs": 1} and facets.languages == {"python": 1, "markdown": 1}


def test_empty_index_gives_an_empty_overview():
    overview = build_overview([])
    assert overview.files == 0 and overview.top_symbols == () and overview.dependencies(1).edges == ()


def test_auto_modules_split_the_folder_that_holds_the_importing_code():
    imports = {
        "src/routes/notes.ts": ("src/services/notes.ts",),
        "src/services/notes.ts": ("src/models/note.ts", "src/db.ts"),
        "test/notes.test.ts": ("src/routes/notes.ts",),
    }
    lines = {path: 40 for path in [*imports, "src/models/note.ts", "src/db.ts"]}
    lines["public/locales/en.json"] = 90_000  # data, not code: it must not decide the modules
    modules = auto_modules(imports, lines)
    assert modules == ("src/", "src/models", "src/routes", "src/services", "test")
    graph = module_graph(imports, lines, modules=modules)
    assert {(e.source, e.target) for e in graph.edges} == {
        ("src/routes", "src/services"),
        ("src/services", "src/models"),
        ("src/services", "src"),
        ("test", "src/routes"),
    }
    assert graph.depth == 0 and graph.lines["public"] == 90_000
