# ruff: noqa: E501 - the per-language snippets read best one per line
"""Symbol graph extraction on real chunks of every tree-sitter language we support."""

from __future__ import annotations

import pytest

from codeqa.chunk import chunk_file
from codeqa.config import Settings
from codeqa.store.graph import SymbolGraph
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
