"""Exploring an index: the 2-D map of its chunks, the overview a newcomer reads first, and the filter facets."""

from codeqa.explore.facets import Facets, load_facets
from codeqa.explore.find import QuestionMarks, locate_question, nearest_chunks, project_query
from codeqa.explore.imports import DependencyEdge, DependencyGraph
from codeqa.explore.overview import Overview, SymbolRef, load_overview
from codeqa.explore.projection import (
    Projection,
    cached_projection,
    chunks_by_id,
    filter_mask,
    get_projection,
    is_final,
)

__all__ = [
    "DependencyEdge",
    "DependencyGraph",
    "Facets",
    "Overview",
    "Projection",
    "QuestionMarks",
    "SymbolRef",
    "cached_projection",
    "chunks_by_id",
    "filter_mask",
    "get_projection",
    "is_final",
    "load_facets",
    "load_overview",
    "locate_question",
    "nearest_chunks",
    "project_query",
]
