"""Small helpers shared by several test modules."""

from __future__ import annotations

from typing import Any

from codeqa.records import Hit
from codeqa.retrieve import retrieve


def search_hits(name: str, query: str, settings: Any, **options: Any) -> list[Hit]:
    """The top chunks of a retrieval (what ``codeqa search`` prints)."""
    return retrieve(name, query, settings, **options).hits
