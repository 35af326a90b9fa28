"""Where a symbol is defined, what uses it and what it uses — read from the symbol graph."""

from __future__ import annotations

from dataclasses import dataclass

from codeqa.index import Index
from codeqa.records import Hit
from codeqa.retrieve.retrieval import materialize


@dataclass
class Neighbors:
    """Where a symbol is defined, what uses it and what it uses (from the symbol graph)."""

    definitions: list[Hit]
    callers: list[Hit]
    callees: list[Hit]


def neighbors(index: Index, symbol: str, *, limit: int = 20) -> Neighbors:
    """The graph around ``symbol`` (``"SessionStore.login"`` or just ``"login"``) in ``index``."""
    files = index.files
    rows = files.definers.get(symbol.lower(), [])
    callers = list(dict.fromkeys(r for row in rows for r in files.graph.callers(row) if r not in rows))
    callees = list(dict.fromkeys(r for row in rows for r in files.graph.callees(row) if r not in rows))

    def as_hits(selected: list[int]) -> list[Hit]:
        selected = selected[:limit]
        fused = {row: 1.0 for row in selected}
        return materialize(index, files.table, selected, fused, len(selected)).hits

    return Neighbors(as_hits(rows), as_hits(callers), as_hits(callees))
