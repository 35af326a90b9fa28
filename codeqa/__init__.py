"""codeqa: a private, local map of any codebase — index, search, ask, explore.

The public API is these few names (``Index`` first: open, build, update an index, then ``retrieve`` and ``ask``
with it); each stage package (``codeqa.source``, ``.scan``, ``.chunk``, ``.embed``, ``.index``, ``.store``,
``.retrieve``, ``.answer``, ``.explore``) has its own for finer work. Names load lazily, so
``import codeqa`` (and ``codeqa --help``) stays instant.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from codeqa.version import __version__

if TYPE_CHECKING:
    from codeqa.answer import Answer, AnswerStream, ask
    from codeqa.config import Settings, get_settings
    from codeqa.errors import CodeqaError
    from codeqa.index import Index, IndexReport, ProgressEvent
    from codeqa.records import Chunk, Hit
    from codeqa.retrieve import Filters, Neighbors, Retrieval, neighbors, retrieve
    from codeqa.store import Manifest

_EXPORTS = {
    "Index": "codeqa.index",
    "IndexReport": "codeqa.index",
    "ProgressEvent": "codeqa.index",
    "retrieve": "codeqa.retrieve",
    "Retrieval": "codeqa.retrieve",
    "Filters": "codeqa.retrieve",
    "neighbors": "codeqa.retrieve",
    "Neighbors": "codeqa.retrieve",
    "ask": "codeqa.answer",
    "Answer": "codeqa.answer",
    "AnswerStream": "codeqa.answer",
    "Manifest": "codeqa.store",
    "Chunk": "codeqa.records",
    "Hit": "codeqa.records",
    "Settings": "codeqa.config",
    "get_settings": "codeqa.config",
    "CodeqaError": "codeqa.errors",
}
__all__ = [
    "Answer",
    "AnswerStream",
    "Chunk",
    "CodeqaError",
    "Filters",
    "Hit",
    "Index",
    "IndexReport",
    "Manifest",
    "Neighbors",
    "ProgressEvent",
    "Retrieval",
    "Settings",
    "__version__",
    "ask",
    "get_settings",
    "neighbors",
    "retrieve",
]


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'codeqa' has no attribute {name!r}")
    return getattr(importlib.import_module(_EXPORTS[name]), name)
