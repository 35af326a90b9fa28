# ruff: noqa: E501 - the per-language snippets read best one per line
"""Symbol graph extraction on real chunks of every tree-sitter language we support."""

from __future__ import annotations

import pytest

from codeqa.chunk import chunk_file
from codeqa.config import Settings
from codeqa.searchfiles.graph import SymbolGraph
from codeqa.symbols import defined_names, referenced_names
from tests.test_chunk import FIXTURES, REQUIRED, source

SMALL = Settings(chunk_max_chars=300, chunk_min_chars=40)

# language → (file defining computeTotal, file calling it)
CROSS_FILE = {
    "python": ("billing.py", "def compute_total(items):\n    return sum(items)\n",
               "app.py", "from billing import compute_total\n\ndef checkout(cart):\n    return compute_total(cart)\n"),
    "javascript": ("billing.js", "export function computeTotal(items) {\n  return items.length;\n}\n",
                   "app.js", "import { computeTotal } from './billing';\nexport function checkout(c) {\n  return computeTotal(c);\n}\n"),
    "typescript": ("billing.ts", "export function computeTotal(items: number[]): number {\n  return items.length;\n}\n",
                   "app.ts", "import { computeTotal } from './billing';\nexport function checkout(c: number[]) {\n  return computeTotal(c);\n}\n"),
    "go": ("billing.go", "package shop\n\nfunc ComputeTotal(items []int) int {\n\treturn len(items)\n}\n",
           "app.go", "package shop\n\nfunc Checkout(cart []int) int {\n\treturn ComputeTotal(cart)\n}\n"),
    "java": ("Billing.java", "class Billing {\n  static int computeTotal(int[] items) {\n    return items.length;\n  }\n}\n",
             "App.java", "class App {\n  int checkout(int[] cart) {\n    return Billing.computeTotal(cart);\n  }\n}\n"),
    "ruby": ("billing.rb", "def compute_total(items)\n  items.sum\nend\n",
             "app.rb", "def checkout(cart)\n  compute_total(cart)\nend\n"),
    "rust": ("billing.rs", "pub fn compute_total(items: &[i32]) -> i32 {\n    items.len() as i32\n}\n",
             "app.rs", "pub fn checkout(cart: &[i32]) -> i32 {\n    compute_total(cart)\n}\n"),
}  # fmt: skip


@pytest.mark.parametrize("language", sorted(CROSS_FILE))
def test_a_call_links_the_caller_to_the_definition(language: str):
    def_name, def_text, use_name, use_text = CROSS_FILE[language]
    chunks = chunk_file(source(f"src/{def_name}", def_text), SMALL) + chunk_file(
        source(f"src/{use_name}", use_text), SMALL
    )
    graph = SymbolGraph.build([c.symbol for c in chunks], [referenced_names(c.text) for c in chunks])
    definer = next(i for i, c in enumerate(chunks) if c.path.endswith(def_name) and c.symbol)
    caller = next(i for i, c in enumerate(chunks) if c.path.endswith(use_name) and "heckout" in c.text)
    assert definer in graph.callees(caller), [c.symbol for c in chunks]
    assert caller in graph.callers(definer)


@pytest.mark.parametrize("language", sorted(REQUIRED))
def test_every_edge_is_a_real_use(language: str):
    """On each language's fixture: an edge a→b only exists when a's text mentions a name b defines."""
    path = FIXTURES / f"sample.{REQUIRED[language]}"
    chunks = chunk_file(source(f"src/{path.name}", path.read_text(encoding="utf-8")), SMALL)
    graph = SymbolGraph.build([c.symbol for c in chunks], [referenced_names(c.text) for c in chunks])
    for row, chunk in enumerate(chunks):
        mentioned = referenced_names(chunk.text)
        for target in graph.callees(row):
            assert target != row
            assert mentioned & set(defined_names(chunks[target].symbol)), (chunk.location, chunks[target].symbol)


# (path, text): a Phoenix app whose React front end defines a class with the name of Elixir's Logger module
MIXED_APP = [
    ("lib/chat/tracking.ex", "defmodule Chat.Tracking do\n  require Logger\n\n  def track(event) do\n    Logger.info(\"tracked #{event}\")\n    Chat.Mailer.deliver(event)\n  end\nend\n"),
    ("lib/chat/mailer.ex", "defmodule Chat.Mailer do\n  def deliver(event) do\n    {:ok, event}\n  end\nend\n"),
    ("assets/src/logger.tsx", "export class Logger {\n  info(message: string) {\n    console.log(message);\n  }\n}\n"),
    ("assets/src/app.tsx", "import { Logger } from './logger';\nexport function start() {\n  new Logger().info('started');\n}\n"),
    ("native/codec.c", "int decode_frame(const char *buffer, int length) {\n  return length;\n}\n"),
    ("native/player.cpp", "#include \"codec.h\"\nint play(const char *buffer) {\n  return decode_frame(buffer, 42);\n}\n"),
    ("docs/logging.md", "# Logging\n\nEvents go through `Logger` and `Chat.Tracking`.\n"),
]  # fmt: skip


def test_a_name_links_only_to_code_its_runtime_can_call():
    chunks = [chunk for path, text in MIXED_APP for chunk in chunk_file(source(path, text), SMALL)]
    graph = SymbolGraph.build(
        [c.symbol for c in chunks], [referenced_names(c.text) for c in chunks], [c.language for c in chunks]
    )

    def row(path: str, symbol_part: str = "") -> int:
        return next(i for i, c in enumerate(chunks) if c.path == path and symbol_part in c.symbol)

    def callee_paths(path: str) -> set[str]:
        return {chunks[target].path for source in range(len(chunks)) if chunks[source].path == path
                for target in graph.callees(source)}  # fmt: skip

    assert callee_paths("lib/chat/tracking.ex") == {"lib/chat/mailer.ex"}  # not the TypeScript Logger
    assert "assets/src/logger.tsx" in callee_paths("assets/src/app.tsx")  # tsx and ts are one runtime
    assert "native/codec.c" in callee_paths("native/player.cpp")  # C++ calls C
    assert {"assets/src/logger.tsx", "lib/chat/tracking.ex"} <= callee_paths("docs/logging.md")  # docs name any code
    assert row("lib/chat/tracking.ex") not in graph.callers(row("assets/src/logger.tsx", "Logger"))
    unsplit = SymbolGraph.build([c.symbol for c in chunks], [referenced_names(c.text) for c in chunks])
    assert "assets/src/logger.tsx" in {  # without languages every chunk is neutral: the link this rule removes
        chunks[t].path for s, c in enumerate(chunks) if c.path == "lib/chat/tracking.ex" for t in unsplit.callees(s)
    }


def _elixir_module(name: str, caller: str, key: str) -> str:
    """A module whose ``caller`` calls its own private ``configured()``; bodies long enough to be chunks of their own."""
    log = '    Logger.debug("checking the #{inspect(__MODULE__)} settings before each delivery attempt")\n' * 3
    return (f"defmodule {name} do\n  def {caller}(event) do\n{log}    if configured(), do: send_event(event)\n  end\n\n"
            f"  defp configured() do\n{log}    System.get_env(\"{key}\") != nil\n  end\nend\n")  # fmt: skip


def test_a_name_its_own_file_defines_means_that_definition():
    files = [
        ("lib/chat/emails/customer_io.ex", _elixir_module("Chat.CustomerIO", "track", "CUSTOMER_IO_KEY")),
        ("lib/chat/emails/debounce.ex", _elixir_module("Chat.Debounce", "check", "DEBOUNCE_KEY")),
        (
            "lib/chat/reports.ex",
            "defmodule Chat.Reports do\n  def weekly do\n    if configured(), do: :sent\n  end\nend\n",
        ),
    ]
    chunks = [chunk for path, text in files for chunk in chunk_file(source(path, text), SMALL)]
    graph = SymbolGraph.build(
        [c.symbol for c in chunks],
        [referenced_names(c.text) for c in chunks],
        [c.language for c in chunks],
        [c.path for c in chunks],
    )

    def callee_paths(path: str) -> set[str]:  # what the calling function's chunks link to (not the definitions')
        rows = [i for i, c in enumerate(chunks) if c.path == path and not c.symbol.endswith("configured")]
        return {chunks[target].path for row in rows for target in graph.callees(row)}

    definers = {c.path for c in chunks if c.symbol.endswith("configured")}
    assert definers == {"lib/chat/emails/customer_io.ex", "lib/chat/emails/debounce.ex"}, [c.symbol for c in chunks]
    assert callee_paths("lib/chat/emails/customer_io.ex") == {"lib/chat/emails/customer_io.ex"}
    assert callee_paths("lib/chat/reports.ex") == definers  # no local definition: both namesakes
