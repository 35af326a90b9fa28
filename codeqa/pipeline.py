"""Compatibility: ``build_index`` is ``Index.build(...).report`` now (``codeqa.index``); kept while callers move."""

from __future__ import annotations

from typing import Any

from codeqa.index.report import STAGES, IndexReport, ProgressCallback, ProgressEvent, StageClock

__all__ = ["STAGES", "IndexReport", "ProgressCallback", "ProgressEvent", "StageClock", "build_index"]


def build_index(source: str, settings: Any, **options: Any) -> IndexReport:
    from codeqa.index import Index

    report = Index.build(source, settings, **options).report
    assert report is not None
    return report
