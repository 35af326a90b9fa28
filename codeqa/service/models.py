"""The typed requests and results of the service operations: one schema for the MCP tools and the HTTP API.

Every limit and field rule a request must meet is declared here (bounds, lengths, enums, no unknown fields), so the
OpenAPI schema and the MCP tool schemas say what the server enforces. Rules the library states in its own words
(an empty question, text that is not Unicode) run as validators that raise its ``QueryError``: the same message the
CLI prints, whichever face the request came through. Whether a filter value occurs in a given index is not a rule of
the request: the operations answer it with a notice.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from codeqa.answer.llm.backends.registry import choices_text
from codeqa.config import BackendChoice
from codeqa.records import ChunkKind, Layer
from codeqa.retrieve.filters import MAX_FILTER_CHARS, MAX_FILTER_VALUES
from codeqa.retrieve.query import MAX_QUERY_CHARS, check_text, validate_query
from codeqa.store.manifest import MAX_NAME_CHARS, NAME_PATTERN, validate_index_name

MAX_SEARCH_K = 200
MAX_ASK_K = 50
MAX_NEIGHBORS = 100
MAX_SOURCE_CHARS = 4096  # a path (PATH_MAX on Linux) or a URL; the body limit would allow a megabyte
MAX_MODEL_CHARS = 300
NOT_BLANK = r"\S"  # at least one character that is not white space

# Shared by the request models and the MCP tools' parameters, so both schemas carry the same limits.
FilterText = Annotated[str, Field(max_length=MAX_FILTER_CHARS)]
LayerFilter = Annotated[list[Layer], Field(max_length=MAX_FILTER_VALUES)]
KindFilter = Annotated[list[ChunkKind], Field(max_length=MAX_FILTER_VALUES)]
TextFilter = Annotated[list[FilterText], Field(max_length=MAX_FILTER_VALUES)]
SearchK = Annotated[int, Field(ge=1, le=MAX_SEARCH_K)]
AskK = Annotated[int, Field(ge=1, le=MAX_ASK_K)]
NeighborLimit = Annotated[int, Field(ge=1, le=MAX_NEIGHBORS, description=f"Most results (1-{MAX_NEIGHBORS}).")]
SymbolName = Annotated[
    str,
    Field(
        min_length=1,
        max_length=MAX_FILTER_CHARS,
        pattern=NOT_BLANK,
        description="A symbol name, e.g. 'SessionStore.login' or 'login'.",
    ),
]
# No maxLength: a longer question is accepted and read up to its first MAX_QUERY_CHARS characters.
Question = Annotated[str, Field(min_length=1, pattern=NOT_BLANK)]
IndexName = Annotated[
    str,
    Field(
        max_length=MAX_NAME_CHARS,
        pattern=NAME_PATTERN,
        description=f"1-{MAX_NAME_CHARS} letters, digits, '.', '_' or '-', starting with a letter or digit.",
    ),
]
SourceText = Annotated[
    str,
    Field(
        min_length=1,
        max_length=MAX_SOURCE_CHARS,
        pattern=NOT_BLANK,
        description="A local path, GitHub URL, owner/repo or any https git URL.",
    ),
]
ModelName = Annotated[str, Field(max_length=MAX_MODEL_CHARS)]
RefText = Annotated[str, Field(max_length=MAX_FILTER_CHARS, description="Branch, tag or commit.")]


class Request(BaseModel):
    """A request: unknown fields are refused (a misspelt ``langauges`` must not widen a search), and every text in
    it must be Unicode (JSON may carry a lone surrogate such as ``"\\ud800"``)."""

    model_config = ConfigDict(extra="forbid")

    @field_validator("*", mode="before")  # before the field's own rules, which would name no position
    @classmethod
    def _is_text(cls, value: object, info: ValidationInfo) -> object:
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str):
                check_text(item, info.field_name or "A value")
        return value


class Scope(Request):
    """Filters that narrow a question; empty lists mean "any"."""

    layers: LayerFilter = Field(default_factory=list, description="Architectural layers, e.g. api, model, test.")
    kinds: KindFilter = Field(default_factory=list, description="Chunk kinds: function, method, class, module, doc…")
    languages: TextFilter = Field(default_factory=list, description="Languages, e.g. python, typescript.")
    paths: TextFilter = Field(default_factory=list, description="Directories or files (repository-relative).")
    globs: TextFilter = Field(default_factory=list, description="fnmatch patterns on paths, e.g. 'src/**/*.py'.")


class Asked(Scope):
    """A request with a question: a blank one is refused with the library's message before any other rule."""

    @field_validator("question", mode="before", check_fields=False)
    @classmethod
    def _not_blank(cls, value: object) -> object:
        if isinstance(value, str):
            validate_query(value)
        return value


class SearchRequest(Asked):
    question: Question = Field(
        description=f"A question in plain words, or identifiers (the first {MAX_QUERY_CHARS:,} characters count)."
    )
    k: SearchK = Field(default=10, description=f"How many results (1-{MAX_SEARCH_K}).")


class AskRequest(Asked):
    question: Question = Field(
        description=f"Your question, in plain words (the first {MAX_QUERY_CHARS:,} characters count)."
    )
    k: AskK = Field(default=8, description=f"How many code chunks to give the model (1-{MAX_ASK_K}).")
    backend: BackendChoice | None = Field(default=None, description=f"{choices_text()} (extractive).")
    model: ModelName | None = Field(default=None, description="Model name for the backend (default: its first).")


class IndexRequest(Request):
    source: SourceText
    name: IndexName | None = Field(default=None, description="Index name (default: derived from the source).")
    ref: RefText | None = None

    @field_validator("name", mode="before")
    @classmethod
    def _valid_name(cls, value: object) -> object:
        return validate_index_name(value) if isinstance(value, str) else value


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


FILTER_NOTICE = "Set when a layer, kind or language filter does not occur in this index (it names those it has)."


class SearchResult(BaseModel):
    index: str
    question: str
    results: list[ChunkResult]
    notice: str | None = Field(default=None, description=FILTER_NOTICE)


class FileResult(BaseModel):
    path: str
    score: float
    symbols: list[str] = Field(description="Symbols of its chunks among the top results.")
    best: str | None = Field(default=None, description="path:start-end of its best chunk among the top results.")


class FilesResult(BaseModel):
    index: str
    question: str
    files: list[FileResult]
    notice: str | None = Field(default=None, description=FILTER_NOTICE)


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
