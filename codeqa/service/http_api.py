"""``codeqa api``: the service operations over HTTP (FastAPI), with the OpenAPI schema at ``/openapi.json``.

Only translation happens here: path and body in, a typed result out; a ``CodeqaError`` becomes
``{"error": {"type", "message"}}`` with a fitting status (404 unknown index, 422 bad input, 503 store down…).
Before FastAPI sees a request, the edge (``hosts``, ``guards``) refuses foreign Host/Origin headers, a missing or
wrong bearer token (``CODEQA_API_TOKEN``, required off loopback; repeated failures get 429) and bodies over the
limit. Each client has a per-hour budget for questions and for other reads (429 with ``Retry-After`` beyond it).
Answers and indexing progress stream as server-sent events, a bounded number at once.

The schema is the contract (checked by schemathesis in tests/test_api_contract.py): the request models declare every
limit, each operation lists every status it can answer, and the bearer scheme appears only when the server has a
token (on loopback it may have none, and then nothing asks for one).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, FastAPI, Path, Query, Request, Security
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, StreamingResponse
from fastapi.security import HTTPBearer
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware import Middleware

from codeqa.errors import CodeqaError
from codeqa.service.api_errors import (
    EDGE,
    GUARDED,
    QUESTION,
    READ_INDEX,
    error_response,
    errors,
    problem,
    sse_content,
    status_for,
)
from codeqa.service.events import StreamSlots, event_stream, job_progress, sse
from codeqa.service.guards import BodyLimit, CrossSiteGuard, TokenGuard
from codeqa.service.hosts import guard_middleware, served_hosts
from codeqa.service.models import (
    AskRequest,
    AskResult,
    FilesResult,
    IndexList,
    IndexRequest,
    JobStatus,
    NeighborLimit,
    OverviewResult,
    Removed,
    SearchRequest,
    SearchResult,
    SymbolName,
    SymbolResult,
)
from codeqa.service.operations import Operations
from codeqa.service.ratelimit import RateLimiter
from codeqa.service.results import AnswerPieces, chunk_result
from codeqa.version import __version__

PUBLIC_PATHS = ("/health", "/openapi.json", "/docs")  # answered without a token
STREAM_RETRY_SECONDS = 5
DOCS_PAGE = (
    "<!doctype html><title>codeqa API</title><h1>codeqa API</h1><p>The interactive docs are off: they would load "
    "their scripts from a CDN, and nothing of codeqa leaves this machine. The OpenAPI schema is at "
    '<a href="/openapi.json">/openapi.json</a>; open it in any OpenAPI viewer you have installed.</p>'
)
BEARER = HTTPBearer(auto_error=False, description="The server's CODEQA_API_TOKEN (checked before FastAPI runs).")
IndexPath = Annotated[str, Path(description="Index name, as listed by GET /indexes.")]


class Refused(Exception):
    """A request refused at the edge (auth, rate limit): status, error type, message and extra headers."""

    def __init__(self, status: int, kind: str, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status, self.kind, self.message, self.headers = status, kind, message, headers or {}


def edge(settings, bind: str) -> list[Middleware]:
    """What runs before FastAPI, outermost first: Host and Origin check, other sites' requests, token, body size."""
    token = settings.api_token.get_secret_value() if settings.api_token else None
    return [
        *guard_middleware(served_hosts(bind, settings.allowed_hosts)),
        Middleware(CrossSiteGuard),
        Middleware(TokenGuard, token=token, failures_allowed=settings.api_failed_auth_limit, public=PUBLIC_PATHS),
        Middleware(BodyLimit, limit=settings.api_max_body_bytes),
    ]


def create_app(ops: Operations, bind: str | None = None) -> FastAPI:
    """The API for a server bound to ``bind`` (default ``CODEQA_API_HOST``): the only host names it answers to."""
    settings = ops.settings
    token = settings.api_token.get_secret_value() if settings.api_token else None
    # The schema says what this server requires: the bearer scheme only when it has a token (loopback may have none).
    guard = [Security(BEARER)] if token else []
    auth = (401,) if token else ()
    limiter = RateLimiter({"ask": settings.api_ask_per_hour, "search": settings.api_search_per_hour})
    streams = StreamSlots(settings.api_max_streams)
    app = FastAPI(
        title="codeqa",
        version=__version__,
        description="Search, ask and explore locally indexed codebases. Errors are "
        '`{"error": {"type", "message"}}` with the same messages as the `codeqa` CLI.',
        docs_url=None,
        redoc_url=None,
        middleware=edge(settings, bind or settings.api_host),
    )

    def authorized(request: Request) -> str:
        """The client's identity for rate limits (the token was checked by ``TokenGuard`` before the body was read)."""
        return request.client.host if request.client else "unknown"

    def stream_slot() -> None:
        if not streams.take():
            message = f"Too many open event streams ({streams.limit}, CODEQA_API_MAX_STREAMS); close one or retry."
            raise Refused(429, "TooManyStreams", message, {"Retry-After": str(STREAM_RETRY_SECONDS)})

    def limited(bucket: str):
        def check(client: str = Depends(authorized)) -> None:
            wait = limiter.check(client, bucket)
            if wait is not None:
                limit = limiter.limits[bucket]
                message = f"Rate limit: {limit} {bucket} requests per hour per client; retry in {wait} s."
                raise Refused(429, "RateLimited", message, {"Retry-After": str(wait)})

        return check

    @app.exception_handler(CodeqaError)
    async def library_error(_: Request, exc: CodeqaError) -> JSONResponse:
        return error_response(status_for(exc), type(exc).__name__, str(exc))

    @app.exception_handler(Refused)
    async def refused(_: Request, exc: Refused) -> JSONResponse:
        return error_response(exc.status, exc.kind, exc.message, exc.headers)

    @app.exception_handler(RequestValidationError)
    async def bad_request(_: Request, exc: RequestValidationError) -> JSONResponse:
        problems = "; ".join(problem(error) for error in exc.errors())
        return error_response(422, "ValidationError", f"Invalid request: {problems}.")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        return error_response(exc.status_code, "HTTPError", str(exc.detail))

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return HTMLResponse(DOCS_PAGE)

    @app.get("/health", tags=["service"], responses=errors(*EDGE))
    def health() -> dict[str, object]:
        """Liveness (no token needed): version and whether write operations are enabled."""
        return {"status": "ok", "version": __version__, "allow_write": ops.allow_write}

    reads = APIRouter(dependencies=[*guard, Depends(limited("search"))])
    asks = APIRouter(dependencies=[*guard, Depends(limited("ask"))])

    @reads.get("/indexes", tags=["indexes"], responses=errors(*GUARDED, *auth, 503))
    def list_indexes() -> IndexList:
        """The indexes on this machine."""
        return ops.list_indexes()

    @reads.post("/indexes/{index}/search", tags=["search"], responses=errors(*QUESTION, *auth))
    def search(index: IndexPath, request: SearchRequest) -> SearchResult:
        """Ranked chunks for a question: path:start-end, symbol, kind, layer, score and the key lines."""
        return ops.search(index, request)

    @reads.post("/indexes/{index}/files", tags=["search"], responses=errors(*QUESTION, *auth))
    def find_files(index: IndexPath, request: SearchRequest) -> FilesResult:
        """Ranked files for a question ("where is …?")."""
        return ops.find_files(index, request)

    @reads.get("/indexes/{index}/symbols/{symbol}/{relation}", tags=["symbols"], responses=errors(*READ_INDEX, *auth))
    def symbol(
        index: IndexPath,
        symbol: Annotated[SymbolName, Path()],
        relation: Literal["definition", "callers", "callees"],
        limit: Annotated[NeighborLimit, Query()] = 20,
    ) -> SymbolResult:
        """Where a symbol is defined, what uses it (callers) or what it uses (callees), from the symbol graph."""
        return ops.symbol(index, symbol, relation, limit)

    @reads.get("/indexes/{index}/overview", tags=["indexes"], responses=errors(*READ_INDEX, *auth))
    def overview(index: IndexPath) -> OverviewResult:
        """Languages by size, layers, entry points and central symbols."""
        return ops.overview(index)

    @asks.post("/indexes/{index}/ask", tags=["ask"], responses=errors(*QUESTION, *auth, 502))
    def ask(index: IndexPath, request: AskRequest) -> AskResult:
        """A cited answer; the extractive answer (a map of the sources) when no language model can answer."""
        return ops.ask(index, request)

    @asks.post(
        "/indexes/{index}/ask/stream",
        tags=["ask"],
        response_class=StreamingResponse,
        responses={
            200: {"content": sse_content("sources", "token", "answer"), "description": "sources, token…, answer"},
            **errors(*QUESTION, *auth, 502),
        },
    )
    def ask_stream(index: IndexPath, request: AskRequest) -> StreamingResponse:
        """The answer as server-sent events: ``sources`` first, then ``token`` pieces, then the final ``answer``
        (with its citation report)."""
        stream_slot()
        try:
            stream = ops.ask_stream(index, request)
        except BaseException:
            streams.give()
            raise

        def events() -> Iterator[bytes]:
            sources = [chunk_result(hit, stream.question).model_dump() for hit in stream.sources]
            yield sse("sources", {"sources": sources, "backend": stream.backend, "notice": stream.notice})
            pieces = AnswerPieces()  # the tokens join into the final answer's text, made safe the same way
            for piece in stream:
                if text := pieces.feed(piece):
                    yield sse("token", {"text": text})
            if text := pieces.flush():
                yield sse("token", {"text": text})
            yield sse("answer", ops.answer_result(index, stream.result()))

        return event_stream(events(), streams.give)

    app.include_router(reads)
    app.include_router(asks)
    if ops.allow_write:
        app.include_router(write_routes(ops, guard, auth, stream_slot, streams))
    return app


def write_routes(ops: Operations, guard: list, auth: tuple[int, ...], stream_slot, streams: StreamSlots) -> APIRouter:
    """Indexing jobs and removal: only when the server was started with ``--allow-write``."""
    router = APIRouter(dependencies=guard, tags=["write"])

    @router.post("/jobs", status_code=202, responses=errors(*GUARDED, *auth, 409, 413, 422, 503))
    def start_index(request: IndexRequest) -> JobStatus:
        """Start indexing a local path or a URL in the background; poll ``GET /jobs/{id}`` or stream its events."""
        return ops.start_index(request)

    @router.get("/jobs/{job_id}", responses=errors(*GUARDED, *auth, 404, 422))
    def job(job_id: str) -> JobStatus:
        return ops.job(job_id)

    @router.delete("/jobs/{job_id}", responses=errors(*GUARDED, *auth, 404, 422))
    def cancel(job_id: str) -> JobStatus:
        """Cancel a running job (the previous index, if any, is untouched)."""
        return ops.cancel_job(job_id)

    @router.get(
        "/jobs/{job_id}/events",
        response_class=StreamingResponse,
        responses={
            200: {"content": sse_content("progress", "done"), "description": "Events: progress…, done."},
            **errors(*GUARDED, *auth, 404, 422),
        },
    )
    def job_events(job_id: str) -> StreamingResponse:
        """Progress as server-sent events: ``progress`` on each change, then ``done`` with the final status."""
        status = ops.job(job_id)
        stream_slot()
        return event_stream(job_progress(ops, status), streams.give)

    @router.delete("/indexes/{index}", responses=errors(*GUARDED, *auth, 404, 409, 422, 503))
    def remove(index: IndexPath) -> Removed:
        """Delete an index (the repository itself is not touched)."""
        return ops.remove(index)

    return router
