"""The answer stage: grounded, cited, streamed answers from a local LLM, or an extractive map without one.

This is the contract the CLI and the Streamlit app code against; everything else in the subpackage is internal.
Names are resolved lazily (PEP 562) so that ``codeqa --help`` does not pay for importing the pipeline.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from codeqa.answer.answering import Answer, AnswerStream, ask
    from codeqa.answer.context import AnswerContext
    from codeqa.answer.explanation.calls.graphqa import GraphAnswer, graph_answer, graph_intent, render_graph
    from codeqa.answer.explanation.code.keylines import KeyLine, key_lines
    from codeqa.answer.explanation.explain import Explanation, explain
    from codeqa.answer.explanation.said.extractive import extractive_answer, split_more_places
    from codeqa.answer.llm.backends.base import BackendStatus, LLMBackend
    from codeqa.answer.llm.backends.select import choose_backend, list_backends
    from codeqa.answer.rendering.citations import CitationReport, check_citations
    from codeqa.answer.rendering.codeview import FileView, file_view
    from codeqa.answer.rendering.links import code_view_url, is_code_view_url, link_citations, parse_lines
    from codeqa.answer.rendering.render import (
        chart_text,
        code_span,
        escape_markdown,
        link_hosts,
        plain_text,
        safe_markdown,
    )

_EXPORTS = {
    "Answer": "codeqa.answer.answering",
    "AnswerStream": "codeqa.answer.answering",
    "ask": "codeqa.answer.answering",
    "BackendStatus": "codeqa.answer.llm.backends.base",
    "LLMBackend": "codeqa.answer.llm.backends.base",
    "CitationReport": "codeqa.answer.rendering.citations",
    "check_citations": "codeqa.answer.rendering.citations",
    "extractive_answer": "codeqa.answer.explanation.said.extractive",
    "split_more_places": "codeqa.answer.explanation.said.extractive",
    "FileView": "codeqa.answer.rendering.codeview",
    "file_view": "codeqa.answer.rendering.codeview",
    "AnswerContext": "codeqa.answer.context",
    "Explanation": "codeqa.answer.explanation.explain",
    "explain": "codeqa.answer.explanation.explain",
    "GraphAnswer": "codeqa.answer.explanation.calls.graphqa",
    "graph_answer": "codeqa.answer.explanation.calls.graphqa",
    "graph_intent": "codeqa.answer.explanation.calls.graphqa",
    "render_graph": "codeqa.answer.explanation.calls.graphqa",
    "code_view_url": "codeqa.answer.rendering.links",
    "is_code_view_url": "codeqa.answer.rendering.links",
    "link_citations": "codeqa.answer.rendering.links",
    "parse_lines": "codeqa.answer.rendering.links",
    "KeyLine": "codeqa.answer.explanation.code.keylines",
    "key_lines": "codeqa.answer.explanation.code.keylines",
    "list_backends": "codeqa.answer.llm.backends.select",
    "choose_backend": "codeqa.answer.llm.backends.select",
    "chart_text": "codeqa.answer.rendering.render",
    "code_span": "codeqa.answer.rendering.render",
    "escape_markdown": "codeqa.answer.rendering.render",
    "link_hosts": "codeqa.answer.rendering.render",
    "plain_text": "codeqa.answer.rendering.render",
    "safe_markdown": "codeqa.answer.rendering.render",
}
__all__ = [
    "chart_text",
    "Answer",
    "AnswerContext",
    "AnswerStream",
    "Explanation",
    "FileView",
    "GraphAnswer",
    "BackendStatus",
    "CitationReport",
    "KeyLine",
    "LLMBackend",
    "ask",
    "check_citations",
    "choose_backend",
    "code_span",
    "code_view_url",
    "escape_markdown",
    "explain",
    "extractive_answer",
    "file_view",
    "graph_answer",
    "graph_intent",
    "is_code_view_url",
    "link_citations",
    "parse_lines",
    "render_graph",
    "key_lines",
    "link_hosts",
    "list_backends",
    "plain_text",
    "safe_markdown",
    "split_more_places",
]


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'codeqa.answer' has no attribute {name!r}")
    return getattr(importlib.import_module(_EXPORTS[name]), name)
