"""The typed requests and results of the service operations: one schema for the MCP tools and the HTTP API.

Bounds (``k``, empty questions, unknown filter values) are checked by the operations, not here, so a bad value
gets the library's own message (the same one the CLI prints) whichever face it came through.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, ValidationInfo, field_validator

from codeqa.answer.backends.registry import choices_text
from codeqa.retrieve.query import check_text


class Request(BaseModel):
    """A request: every text in it must be Unicode (JSON may carry a lone surrogate such as ``"\\ud800"``)."""

    @field_validator("*", mode="after")
    @classmethod
    def _is_text(cls, value: object, info: ValidationInfo) -> object:
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str):
                check_text(item, info.field_name or "A value")
        return value


class Scope(Request):
    """Filters that narrow a question; empty lists mean "any"."""

    layers: list[str] = Field(default_factory=list, description="Architectural layers, e.g. api, model, test.")
    kinds: list[str] = Field(default_factory=list, description="Chunk kinds: function, method, class, module, doc…")
    languages: list[str] = Field(default_factory=list, description="Languages, e.g. python, typescript.")
    paths: list[str] = Field(default_factory=list, description="Directories or files (repository-relative).")
    globs: list[str] = Field(default_factory=list, description="fnmatch patterns on paths, e.g. 'src/**/*.py'.")


class SearchRequest(Scope):
    question: str = Field(description="A question in plain words, or identifiers.")
    k: int = Field(default=10, description="How many results (1-200).")


class AskRequest(Scope):
    question: str = Field(description="Your question, in plain words.")
    k: int = Field(default=8, description="How many code chunks to give the model (1-50).")
    backend: str | None = Field(default=None, description=f"{choices_text()} (extractive).")
    model: str | None = Field(default=None, description="Model name for the backend (default: its first).")


class IndexRequest(Request):
    source: str = Field(description="A local path, GitHub URL, owner/repo or any https git URL.")
    name: str | None = Field(default=None, description="Index name (default: derived from the source).")
    ref: str | None = Field(default=None, description="Branch, tag or commit.")


class KeyLine(BaseModel):
    line: int
    text: str = Field(description="The line of code as written, without control characters and terminal escapes: "
                      "code to show as text, not markdown to render.")  # fmt: skip


class ChunkResult(BaseModel):
    """One code chunk: where it is, what it is, its score and the lines that matched."""

    location: str = Field(description="path:start-end")
    path: str
    start_line: int
    end_line: int
    symbol: str
    kind: str
    layer: str
    language: str
    score: float
    key_lines: list[KeyLine] = Field(default_factory=list, description="The lines that best match the question.")


class SearchResult(BaseModel):
    index: str
    question: str
    results: list[ChunkResult]


class FileResult(BaseModel):
    path: str
    score: float
    symbols: list[str] = Field(description="Symbols of its chunks among the top results.")
    best: str | None = Field(default=None, description="path:start-end of its best chunk among the top results.")


class FilesResult(BaseModel):
    index: str
    question: str
    files: list[FileResult]


class AskResult(BaseModel):
    index: str
    question: str
    answer: str = Field(
        description="Markdown; cites [n] (the numbered sources) and path:start-end. Safe to render: images and links "
        "to other hosts are shown as text, raw HTML is inert, control characters and terminal escapes are removed."
    )
    sources: list[ChunkResult]
    backend: str = Field(description="The backend that answered; 'none' for the extractive answer.")
    model: str | None
    generated: bool = Field(description="False when this is the extractive answer (no language model).")
    citations_valid: int
    citations_invalid: list[str]
    notice: str | None = Field(None, description=(
        "Advisory notes: no model reachable, secrets masked, or sources that may contain instructions aimed at an "
        "AI assistant (a heuristic that spots common phrasings; such text is sent as quoted data, which does not "
        "guarantee a model ignores it)."))  # fmt: skip


class SymbolResult(BaseModel):
    index: str
    symbol: str
    relation: Literal["definition", "callers", "callees"]
    results: list[ChunkResult]
    notice: str | None = None


class Count(BaseModel):
    name: str
    count: int


class CentralSymbol(BaseModel):
    symbol: str
    kind: str
    location: str
    references: int = Field(description="Mentions outside its own chunk.")
    files: int = Field(description="Other files that mention it.")


class OverviewResult(BaseModel):
    index: str
    source: str
    files: int
    lines: int
    chunks: int
    languages: list[Count] = Field(description="Lines per language, largest first.")
    layers: list[Count] = Field(description="Chunks per layer, largest first.")
    entry_points: list[str] = Field(description="Files that start a program: main/app/cli/server…, __main__.")
    central_symbols: list[CentralSymbol] = Field(description="The symbols most used from other files.")


class IndexInfo(BaseModel):
    name: str
    source: str
    ref: str | None
    sha: str | None
    model: str
    files: int
    chunks: int
    languages: dict[str, int]
    created_at: float


class IndexList(BaseModel):
    indexes: list[IndexInfo]


class JobStatus(BaseModel):
    id: str
    source: str
    name: str | None
    state: Literal["running", "done", "failed", "cancelled"]
    stage: str
    message: str
    fraction: float = Field(description="Overall progress 0..1.")
    elapsed: float
    eta: float | None
    error: str | None = None
    index: IndexInfo | None = Field(default=None, description="The index, once built.")


class Removed(BaseModel):
    removed: str


class ErrorBody(BaseModel):
    type: str
    message: str


class ErrorResult(BaseModel):
    error: ErrorBody
