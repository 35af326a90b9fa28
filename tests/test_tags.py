"""Tag queries: what each language's ``queries/<language>-tags.scm`` finds in a real file, parsed by tree-sitter."""

from __future__ import annotations

from pathlib import Path

import pytest

import codeqa.chunk as chunking
from codeqa.chunk import chunk_and_tag, chunk_file
from codeqa.chunk.grammars import GRAMMARS
from codeqa.chunk.tags import QUERIES, query_text, split_patterns, tag_query, tag_text
from codeqa.languages import CONFIG_LANGUAGES, detect_language
from codeqa.records import FileTags, SourceFile

FIXTURES = Path(__file__).parent / "fixtures" / "tags"


def tags_of(name: str) -> FileTags:
    path = FIXTURES / name
    language = detect_language(name)
    assert language is not None
    return tag_text(name, language, path.read_text())


def imports_of(tags: FileTags) -> list[tuple[str, str, tuple[str, ...]]]:
    return [(ref.target, ref.kind, ref.names) for ref in tags.imports]


# file, definitions (name, kind), references (name, kind), imports (target, kind, names)
CASES = [
    (
        "shop.py",
        {("Checkout", "class"), ("total", "function"), ("compute_total", "function"), ("LIMIT", "constant")},
        {("compute_total", "call"), ("BaseService", "class"), ("Decimal", "type"), ("fee", "identifier")},
        [
            ("json", "", ()),
            ("os.path", "", ()),
            ("decimal", "", ("Decimal",)),
            ("shop.base", "", ("BaseService",)),
            ("shop.config", "", ("DEBUG", "settings")),
            ("..models", "", ("Customer",)),
            ("..models", "", ("Order",)),
            (".", "", ("schemas",)),
        ],
    ),
    (
        "app.js",
        {("UserController", "class"), ("show", "method"), ("findUser", "function"), ("lazyPage", "function")},
        {("findUser", "call"), ("BaseController", "class"), ("json", "call"), ("params", "member")},
        [
            ("express", "", ("* as express",)),  # a default import binds the module
            ("express", "", ("Router",)),  # two statements
            ("./db/index.js", "", ("* as db",)),
            ("./routes/users", "", ("* as users",)),  # const users = require(...)
            ("../lib/helper", "", ("helper",)),  # a re-export
            ("./pages/home", "", ()),
        ],
    ),
    (
        "service.ts",
        {
            ("Priced", "interface"),
            ("Id", "type"),
            ("Status", "enum"),
            ("OrderService", "class"),
            ("price", "method"),
            ("totalOf", "function"),
            ("Billing", "module"),
            ("charge", "function"),
        },
        {("OrderRepository", "type"), ("Order", "type"), ("totalOf", "call"), ("load", "call")},
        [
            ("@angular/core", "", ("Injectable",)),
            ("@/models/order", "", ("Order",)),
            ("./config", "", ("* as config",)),  # import config = require(...)
            ("./types", "", ()),  # export *: no name
        ],
    ),
    (
        "view.tsx",
        {("Props", "type"), ("View", "function"), ("Panel", "function")},
        {("Button", "class"), ("View", "class"), ("useState", "call"), ("Props", "type")},
        [
            ("react", "", ("* as React", "useState")),
            ("~/components/Button", "", ("Button",)),
            ("./view.module.css", "", ("* as styles",)),
        ],
    ),
    (
        "server.go",
        {("Server", "type"), ("Handler", "type"), ("NewServer", "function"), ("Login", "method")},
        {("Check", "call"), ("DB", "type"), ("Fprintln", "call"), ("Name", "member")},
        [
            ("fmt", "", ()),
            ("net/http", "", ()),
            ("example.com/shop/internal/auth", "", ()),
            ("example.com/shop/internal/store", "", ()),
            ("example.com/shop/internal/log", "", ()),
        ],
    ),
    (
        "invoice.rb",
        {("Billing", "module"), ("Invoice", "class"), ("for_month", "method"), ("total_with_tax", "method")},
        {
            ("ApplicationRecord", "ancestor"),  # a superclass and a mixin: the class's ancestors
            ("Tax::Calculator", "called_class"),  # the receiver of `.new`
            ("Payable", "ancestor"),
            (":customer", "association"),
            ("where", "by_self"),  # no receiver: a method of the class or its ancestors
            ("apply", "call"),
        },
        [("digest", "", ()), ("../support/money", "relative", ()), ("shop/cart", "", ())],
    ),  # fmt: skip
    (
        "Cart.hs",
        {
            ("Item", "class"),
            ("itemPrice", "property"),
            ("total", "function"),
            ("total'", "function"),
            ("discount", "function"),
            ("Priced", "interface"),
            ("price", "function"),
        },
        {("discount", "call"), ("null", "call"), ("Cart", "class"), ("Int", "type"), ("items", "identifier")},
        [("Data.Map", "", ()), ("Data.List", "", ("sortOn", "foldl'"))],
    ),  # fmt: skip
    (
        "cart.ex",
        {
            ("Shop.Cart", "module"),
            ("add", "function"),
            ("total", "function"),
            ("discount", "function"),
            ("with_cart", "macro"),
        },
        {("Enum", "class"), ("map", "call"), ("div", "call"), ("items", "identifier")},
        [("Shop.Item", "", ()), ("Shop", "", ("Repo", "Tax")), ("Ecto.Query", "", ())],
    ),  # fmt: skip
    (
        "Orders.java",
        {("Orders", "class"), ("open", "method"), ("Listener", "interface"), ("State", "enum")},
        {("BaseRepository", "class"), ("Invoice", "type"), ("stream", "call"), ("isOpen", "call")},
        [
            ("java.util.List", "", ()),
            ("com.shop.billing.Invoice", "", ()),
            ("com.shop.util", "wildcard", ()),
            ("com.shop.util.Strings.join", "", ()),
        ],
    ),
    (
        "UserController.php",
        {("UserController", "class"), ("show", "method"), ("helper_fn", "function"), ("HasRoutes", "interface")},
        {
            ("Controller", "ancestor"),
            ("Notifies", "ancestor"),
            ("User", "called_class"),
            ("findOrFail", "by_class"),
            ("present", "by_self"),
            ("view", "function"),
            ("Mailer", "class"),
            ("Request", "type"),
        },  # fmt: skip
        [
            ("App\\Models\\User", "", ()),
            ("Illuminate\\Http\\Request", "", ()),
            ("App\\Services", "", ("Mailer", "Billing\\Invoices")),
            ("App\\Support\\helper", "", ()),
            ("/../bootstrap.php", "relative", ()),
        ],
    ),
    (
        "lib.rs",
        {
            ("Cache", "class"),
            ("Lookup", "interface"),
            ("lookup", "function"),
            ("Mode", "enum"),
            ("cached", "macro"),
            ("build", "function"),
            ("auth", "module"),
        },
        {("HashMap", "type"), ("Lookup", "class"), ("cloned", "call"), ("new", "call")},
        [
            ("std::collections::HashMap", "", ()),
            ("crate::store", "", ("Store", "Key")),
            ("super::config::Settings", "", ()),
            ("auth", "relative", ()),
            ("handlers", "relative", ()),
        ],
    ),  # fmt: skip
    (
        "store.c",
        {("entry", "class"), ("entry_t", "type"), ("hash", "function"), ("store_put", "function")},
        {("hash", "call"), ("printf", "call"), ("entry", "type"), ("value", "member")},
        [("stdio.h", "system", ()), ("store.h", "", ()), ("util/strings.h", "", ())],
    ),
    (
        "cache.cpp",
        {("shop", "module"), ("Cache", "class"), ("get", "method"), ("identity", "function")},
        {("Base", "class"), ("lookup", "call"), ("score", "call")},
        [("map", "system", ()), ("cache.hpp", "", ())],
    ),
    (
        "Orders.cs",
        {
            ("OrderService", "class"),
            ("Open", "method"),
            ("IOrderService", "interface"),
            ("Money", "class"),
            ("State", "enum"),
        },
        {("ServiceBase", "class"), ("IOrderService", "class"), ("FindAll", "call")},
        [
            ("System", "", ()),
            ("System.Collections.Generic", "", ()),
            ("Shop.Billing", "", ()),
            ("Shop.Domain.Models", "", ()),
        ],
    ),  # fmt: skip
    (
        "Orders.kt",
        {("OrderService", "class"), ("open", "function"), ("Registry", "class"), ("topLevel", "function")},
        {("BaseService", "class"), ("Invoice", "type"), ("register", "call"), ("filter", "call")},
        [
            ("com.shop.billing.Invoice", "", ()),
            ("com.shop.util", "wildcard", ()),
            ("kotlinx.coroutines.launch", "", ()),
        ],
    ),
    (
        "Orders.scala",
        {("Repository", "interface"), ("OrderService", "class"), ("open", "function"), ("create", "function")},
        {("BaseService", "class"), ("Invoice", "class"), ("filter", "call")},
        [
            ("com.shop.billing.Invoice", "", ()),
            ("com.shop.util", "", ("_",)),  # Scala: `_` is what it imports
            ("scala.collection.mutable", "", ("Map", "Set")),
        ],
    ),  # fmt: skip
    (
        "Orders.swift",
        {("Repository", "interface"), ("OrderService", "class"), ("open", "function"), ("makeService", "function")},
        {("BaseService", "class"), ("Invoice", "type"), ("filter", "call")},
        [("Foundation", "", ()), ("ShopKit", "", ())],
    ),
    (
        "cart.lua",
        {("new", "function"), ("add", "method"), ("total", "function")},
        {("setmetatable", "call"), ("copy", "call"), ("insert", "call")},
        [("cjson", "", ()), ("shop.util", "", ())],
    ),
    (
        "deploy.sh",
        {("build", "function"), ("release", "function")},
        {("compile_assets", "call"), ("upload_release", "call")},
        [("./lib/common.sh", "relative", ()), ("/env.sh", "relative", ())],
    ),
]


@pytest.mark.parametrize(("name", "definitions", "references", "imports"), CASES, ids=[c[0] for c in CASES])
def test_each_language_finds_definitions_references_and_imports(name, definitions, references, imports):
    tags = tags_of(name)
    assert tags.tagged
    assert definitions <= {(d.name, d.category) for d in tags.definitions}
    assert references <= {(r.name, r.category) for r in tags.references}
    assert imports_of(tags) == imports


def test_every_grammar_but_config_has_a_query_that_compiles():
    languages = {language for language in GRAMMARS if language not in CONFIG_LANGUAGES}
    assert languages >= {"python", "javascript", "typescript", "tsx", "go", "ruby", "java", "php", "rust", "c",
                         "cpp", "csharp", "kotlin", "scala", "swift", "lua", "bash", "haskell", "elixir"}  # fmt: skip
    for language in languages:
        query = tag_query(language)
        assert query is not None and query.roles, language


def test_query_files_use_only_the_capture_conventions():
    allowed = ("name.definition.", "name.reference.", "import", "namespace", "_")
    for path in QUERIES.glob("*-tags.scm"):
        language = path.name.removesuffix("-tags.scm")
        text = query_text(language)
        assert text is not None
        for pattern in split_patterns(text):
            captures = [word[1:] for word in pattern.replace(")", " ").split() if word.startswith("@")]
            assert captures, (path.name, pattern)
            assert all(capture.startswith(allowed) for capture in captures), (path.name, pattern)


def test_split_patterns_keeps_strings_and_skips_comments():
    text = '; a comment (with a paren\n(call (x) @a (#eq? @a ")(")) @b\n\n[(y) (z)] @c\n(w) @name.reference.call'
    assert split_patterns(text) == ['(call (x) @a (#eq? @a ")(")) @b', "[(y) (z)] @c", "(w) @name.reference.call"]


def test_names_in_comments_and_strings_are_not_references():
    used = {r.name for r in tags_of("shop.py").references}
    assert "compute_total" in used  # the call
    assert "price_of" not in used  # only in a comment
    ruby = tag_text("a.rb", "ruby", 'x = "Account ID is required"  # Customer\nUser.find(1)\n')
    assert {r.name for r in ruby.references if r.category in ("constant", "called_class")} == {"User"}


def test_short_plain_names_are_dropped_but_short_calls_are_kept():
    tags = tag_text("a.py", "python", "def f(x):\n    return g(x) + x.y\n")
    assert {(r.name, r.category) for r in tags.references} == {("g", "call")}


def test_build_files_keep_their_text_and_other_files_do_not():
    assert tag_text("web/tsconfig.json", "json", '{"compilerOptions": {}}').build == '{"compilerOptions": {}}'
    assert tag_text("go.mod", "gomod", "module example.com/x\n").build == "module example.com/x\n"
    assert tag_text("config/app.json", "json", "{}").build == ""
    assert not tag_text("README.md", "markdown", "# Hi").tagged


def test_vue_and_svelte_components_are_tagged_from_their_script_blocks():
    text = "<template><div/></template>\n<script setup lang=\"ts\">\nimport Card from './Card.vue'\n" \
           "import { api } from '@/lib/api'\nconst load = () => api.get()\n</script>\n"  # fmt: skip
    tags = tag_text("src/Page.vue", "vue", text)
    assert [(i.target, i.line) for i in tags.imports] == [("./Card.vue", 3), ("@/lib/api", 4)]
    assert ("load", "function", 5) in {(d.name, d.category, d.line) for d in tags.definitions}
    assert not tags.tagged  # the template uses names too: the symbol graph reads the whole text


def test_chunk_and_tag_parses_once_and_cuts_the_same_chunks():
    file = SourceFile("shop.py", "python", (FIXTURES / "shop.py").read_text(), 100)
    chunks, tags = chunk_and_tag(file)
    assert chunks == chunk_file(file)
    assert tags == tags_of("shop.py")
    assert chunk_and_tag(SourceFile("empty.py", "python", "\n\n", 2)) == ([], FileTags("empty.py", "python"))


def test_a_failing_query_never_loses_the_file(monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("query bug")

    monkeypatch.setattr(chunking, "tag_tree", broken)
    file = SourceFile("shop.py", "python", (FIXTURES / "shop.py").read_text(), 100)
    chunks, tags = chunk_and_tag(file)
    assert chunks == chunk_file(file) and tags == FileTags("shop.py", "python")
