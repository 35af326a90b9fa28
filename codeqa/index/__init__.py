"""The index stage: an ``Index`` handle over one opened index, and the one writer that builds and updates it.

Only ``codeqa.index`` opens Chroma (``codeqa.store``) or the search files (``codeqa.searchfiles``); retrieve, answer,
explore, the service and the faces take an ``Index``.
"""

from codeqa.index.freshness import FileState, Freshness
from codeqa.index.handle import Index
from codeqa.index.report import STAGES, IndexReport, ProgressCallback, ProgressEvent

__all__ = ["STAGES", "FileState", "Freshness", "Index", "IndexReport", "ProgressCallback", "ProgressEvent"]
