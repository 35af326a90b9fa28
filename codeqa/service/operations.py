"""The operations an agent or a script can ask of codeqa, over the library's public API only.

The MCP server and the HTTP API are thin faces over one ``Operations`` object per process: every request opens its
index (``Index.open``: one registry read), reuses the process-wide caches (store client, embedder, search files) and
is safe to call from many threads at once.
Every user error is a ``CodeqaError`` with the same message the CLI prints.
"""

from __future__ import annotations

import re
import threading
from pathlib import PurePosixPath

from codeqa.answer import Answer, AnswerStream, ask
from codeqa.answer.explanation.said.extractive import no_match
from codeqa.config import Settings
from codeqa.embed import get_embedder
from codeqa.errors import IndexBusyError, JobNotFoundError, QueryError, ReadOnlyError
from codeqa.explore import load_overview
from codeqa.index import STAGES, Index
from codeqa.jobs import IndexJob, JobRegistry
from codeqa.retrieve import Filters, check_filter_values, neighbors, normalize_path_filter, retrieve, validate_query
from codeqa.service.models import (
    AskRequest,
    AskResult,
    CentralSymbol,
    Count,
    FileResult,
    FilesResult,
    IndexList,
    IndexRequest,
    JobStatus,
    OverviewResult,
    Removed,
    Scope,
    SearchRequest,
    SearchResult,
    SymbolResult,
)
from codeqa.service.results import answer_text, chunk_result, index_info, job_status, plain_text

ENTRY_POINT_STEMS = frozenset({"main", "app", "manage", "cli", "server", "__main__", "wsgi", "asgi"})
INDEX_LANGUAGES = frozenset({"javascript", "typescript", "tsx", "jsx", "php"})  # index.js / index.php start a program
MAIN_GUARD = re.compile(r"""__name__\s*==\s*['"]__main__['"]""")
MAX_ENTRY_POINTS = 20


class Operations:
    """search, find_files, ask, definition/callers/callees, overview, list_indexes, index, remove."""

    def __init__(self, settings: Settings, *, allow_write: bool = False) -> None:
        self.settings = settings
        self.allow_write = allow_write
        self.jobs = JobRegistry()
        self._lock = threading.Lock()
        self._overviews: dict[str, OverviewResult] = {}  # by index generation: an update is a new one
        self._loading: dict[str, threading.Lock] = {}

    def warm(self) -> None:
        """Load the embedding model now, so the first request does not pay for it."""
        get_embedder(self.settings)

    def _open(self, name: str) -> Index:
        """The index, with its search files loaded once even when many requests arrive together."""
        index = Index.open(name, self.settings)
        with self._lock:
            loading = self._loading.setdefault(index.key, threading.Lock())
        with loading:  # the first request loads; the others wait, then hit the library's per-process cache
            index.files  # noqa: B018 - loading is the point
        return index

    # -- reading ---------------------------------------------------------------------------------------------------
    def _filters(self, index: str, scope: Scope) -> tuple[Index, Filters, str | None]:
        """The opened index, the request's filters and a notice when they can match nothing here: a layer, kind or
        language this index does not have (the notice names those it has), or a path outside the repository."""
        filters = Filters(
            layers=tuple(str(layer) for layer in scope.layers),
            kinds=tuple(str(kind) for kind in scope.kinds),
            languages=tuple(scope.languages),
            paths=tuple(scope.paths),
            globs=tuple(scope.globs),
        )
        opened = self._open(index)
        try:
            for path in filters.paths:
                normalize_path_filter(path)  # '..' can name nothing inside the repository
            if filters.layers or filters.kinds or filters.languages:
                check_filter_values(filters, opened.files.table)
        except QueryError as nothing:
            return opened, filters, str(nothing)
        return opened, filters, None

    def search(self, index: str, request: SearchRequest) -> SearchResult:
        """The chunks that best match a question, each with its key lines."""
        question = validate_query(request.question)
        opened, filters, notice = self._filters(index, request)
        if notice:
            return SearchResult(index=index, question=question, results=[], notice=notice)
        found = retrieve(opened, question, k=request.k, filters=filters)
        results = [chunk_result(h, question) for h in found.hits]
        return SearchResult(index=index, question=question, results=results)

    def find_files(self, index: str, request: SearchRequest) -> FilesResult:
        """The files that best match a question (for "where is…" questions)."""
        question = validate_query(request.question)
        opened, filters, notice = self._filters(index, request)
        if notice:
            return FilesResult(index=index, question=question, files=[], notice=notice)
        found = retrieve(opened, question, k=request.k, filters=filters)
        files = [
            FileResult(
                path=file.path,
                score=round(file.score, 6),
                symbols=list(dict.fromkeys(h.chunk.symbol for h in file.hits if h.chunk.symbol)),
                best=file.hits[0].location if file.hits else None,
            )
            for file in found.files[: request.k]
        ]
        return FilesResult(index=index, question=question, files=files)

    def ask_stream(self, index: str, request: AskRequest) -> AnswerStream:
        """Retrieve now and return the answer stream (iterate it for text; ``result()`` for the checked answer)."""
        question = validate_query(request.question)
        opened, filters, notice = self._filters(index, request)
        if notice:  # nothing in scope: the extractive "no match" answer, saying why
            empty = no_match(question)
            return AnswerStream(question=question, query=question, sources=[], extractive=empty, notice=notice)
        return ask(opened, question, filters=filters, backend=request.backend, model=request.model, k=request.k)

    def ask(self, index: str, request: AskRequest) -> AskResult:
        """A cited answer (generated, or the extractive map when no model can answer)."""
        stream = self.ask_stream(index, request)
        return self.answer_result(index, stream.result())

    @staticmethod
    def answer_result(index: str, answer: Answer) -> AskResult:
        return AskResult(
            index=index,
            question=answer.question,
            answer=answer_text(answer.text),
            sources=[chunk_result(hit, answer.question) for hit in answer.sources],
            backend=answer.backend,
            model=answer.model,
            generated=answer.generated,
            citations_valid=answer.citations_valid,
            citations_invalid=answer.citations_invalid,
            notice=None if answer.notice is None else plain_text(answer.notice),
        )

    def symbol(self, index: str, symbol: str, relation: str, limit: int = 20) -> SymbolResult:
        """Where ``symbol`` is defined, what uses it (callers) or what it uses (callees), from the symbol graph."""
        symbol = symbol.strip()  # not blank: both faces declare it (SymbolName)
        opened = self._open(index)
        graph = neighbors(opened, symbol, limit=limit)
        short = symbol.replace("#", ".").replace("::", ".").split(".")[-1]
        notice = None
        if not graph.definitions and short != symbol:  # methods merged into their class chunk are found by name
            graph = neighbors(opened, short, limit=limit)
            notice = f"No definition of {symbol!r} as such; showing {short!r}." if graph.definitions else None
        if not graph.definitions:
            notice = f"No definition of {symbol!r} in index {index!r}; try the short name or `search`."
        hits = {"definition": graph.definitions, "callers": graph.callers, "callees": graph.callees}[relation]
        results = [chunk_result(hit, short) for hit in hits]
        return SymbolResult(index=index, symbol=symbol, relation=relation, results=results, notice=notice)  # type: ignore[arg-type]

    def overview(self, index: str) -> OverviewResult:
        """Languages by size, layers, entry points and central symbols (computed once per index generation)."""
        opened = self._open(index)
        with self._lock:
            computing = self._loading.setdefault(f"overview:{opened.key}", threading.Lock())
        with computing:  # concurrent first requests wait for one computation
            cached = self._overviews.get(opened.key)
            return cached if cached is not None else self._overview(opened)

    def _overview(self, index: Index) -> OverviewResult:
        view = load_overview(index)
        manifest = index.manifest
        result = OverviewResult(
            index=index.name,
            source=manifest.source,
            files=view.files,
            lines=view.lines,
            chunks=view.chunks,
            languages=[Count(name=k, count=v) for k, v in view.lines_by_language.items()],
            layers=[Count(name=k, count=v) for k, v in view.chunks_by_layer.items()],
            entry_points=self._entry_points(index),
            central_symbols=[
                CentralSymbol(
                    symbol=ref.symbol,
                    kind=ref.kind,
                    location=f"{ref.path}:{ref.start_line}-{ref.end_line}",
                    references=ref.references,
                    files=ref.files,
                )
                for ref in view.top_symbols
            ],
        )
        with self._lock:
            self._overviews[index.key] = result
        return result

    def _entry_points(self, index: Index) -> list[str]:
        """Files that start a program: named main/app/cli/server…, defining a ``main`` function, or (Python) ending
        in an ``if __name__ == "__main__":`` block. Read from the chunk table; only last chunks are fetched."""
        table = index.files.table
        last: dict[str, int] = {}  # Python file → row of its last chunk
        found: set[str] = set()
        skip: set[str] = set()
        for row, path in enumerate(table.paths):
            if table.layers[row] in ("test", "docs"):
                skip.add(path)
            stem = PurePosixPath(path).stem.lower()
            if stem in ENTRY_POINT_STEMS or (stem == "index" and table.languages[row] in INDEX_LANGUAGES):
                found.add(path)
            if table.kinds[row] == "function" and "main" in (s.strip() for s in table.symbols[row].split(",")):
                found.add(path)
            if table.languages[row] == "python" and (path not in last or table.starts[row] > table.starts[last[path]]):
                last[path] = row
        endings = index.chunks([table.ids[row] for row in last.values()])
        found.update(chunk.path for chunk in endings if MAIN_GUARD.search(chunk.text))
        return sorted(found - skip, key=lambda p: (p.count("/"), p))[:MAX_ENTRY_POINTS]

    def list_indexes(self) -> IndexList:
        return IndexList(indexes=[index_info(opened.manifest) for opened in Index.all(self.settings)])

    # -- writing (only with --allow-write) ---------------------------------------------------------------------------
    def _check_write(self, what: str) -> None:
        if not self.allow_write:
            raise ReadOnlyError(f"This codeqa server is read-only: restart it with --allow-write to {what}.")

    def start_index(self, request: IndexRequest) -> JobStatus:
        """Start indexing in the background (one job at a time); poll ``job`` for its progress."""
        self._check_write("index repositories")
        job = self.jobs.start(request.source, self.settings, name=request.name or None, ref=request.ref)
        return job_status(job)

    def job(self, job_id: str) -> JobStatus:
        return job_status(self._job(job_id))

    def job_stages(self, job_id: str) -> list[tuple[str, str]]:
        """Every stage the job has reached so far, in pipeline order, with its latest message."""
        events = self._job(job_id).events
        return [(stage, events[stage].message) for stage in STAGES if stage in events]

    def cancel_job(self, job_id: str) -> JobStatus:
        self._check_write("cancel indexing")
        job = self._job(job_id)
        job.cancel()
        return job_status(job)

    def _job(self, job_id: str) -> IndexJob:
        job = self.jobs.get(job_id)
        if job is None:
            raise JobNotFoundError(f"No indexing job {job_id!r} in this server (jobs are kept until it restarts).")
        return job

    def remove(self, index: str) -> Removed:
        self._check_write("remove indexes")
        if self.jobs.current is not None and self.jobs.current.running and self.jobs.current.name == index:
            raise IndexBusyError(f"Index {index!r} is being built right now; cancel that job first.")
        opened = Index.open(index, self.settings)
        opened.remove()
        with self._lock:
            self._overviews.pop(opened.key, None)
        return Removed(removed=opened.name)
