"""The retrieve stage: dense + lexical + exact symbol matches (+ optional graph evidence), fused, filtered.

One entry point, ``retrieve``; ``neighbors`` reads the symbol graph around a name.
"""

from codeqa.retrieve.filters import Filters, check_filter_values, normalize_path_filter
from codeqa.retrieve.fusion import Weights
from codeqa.retrieve.neighbors import Neighbors, neighbors
from codeqa.retrieve.query import MAX_QUERY_CHARS, query_identifiers, validate_query
from codeqa.retrieve.question import Question
from codeqa.retrieve.retrieval import FileHit, Retrieval, retrieve

__all__ = [
    "MAX_QUERY_CHARS",
    "FileHit",
    "Filters",
    "Neighbors",
    "Question",
    "Retrieval",
    "Weights",
    "check_filter_values",
    "neighbors",
    "normalize_path_filter",
    "query_identifiers",
    "retrieve",
    "validate_query",
]
