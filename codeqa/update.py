"""Compatibility: ``update_index`` is ``Index.open(name, settings).update()`` now (``codeqa.index``)."""

from __future__ import annotations

from typing import Any

from codeqa.index.report import STAGES, IndexReport

__all__ = ["STAGES", "update_index"]


def update_index(name: str, settings: Any, *, store: Any = None, embedder: Any = None, **options: Any) -> IndexReport:
    from codeqa.index import Index

    report = Index.open(name, settings, store=store, embedder=embedder).update(**options).report
    assert report is not None
    return report
