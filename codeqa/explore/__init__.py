"""Exploring an index: the 2-D map of its chunks and its named regions, the overview a newcomer reads first, the
filter facets, and ``prepare`` — the one-off work after indexing that makes the app open at once."""

from codeqa.explore.clusters import Region
from codeqa.explore.facets import Facets, load_facets
from codeqa.explore.find import QuestionMarks, locate_question, nearest_chunks, project_query
from codeqa.explore.imports import DependencyEdge, DependencyGraph
from codeqa.explore.overview import Overview, SymbolRef, load_overview
from codeqa.explore.precompute import Prepared, get_overview, prepare
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
    "Prepared",
    "Projection",
    "QuestionMarks",
    "Region",
    "SymbolRef",
    "cached_projection",
    "chunks_by_id",
    "filter_mask",
    "get_overview",
    "get_projection",
    "is_final",
    "load_facets",
    "load_overview",
    "locate_question",
    "nearest_chunks",
    "prepare",
    "project_query",
]
