"""The HTTP API's error contract: which status each error answers with, how every error body reads, and how an
operation documents them (``errors``), so that the OpenAPI schema lists every status the server can return."""

from __future__ import annotations

from fastapi.responses import JSONResponse

from codeqa.errors import (
    CodeqaError,
    EmbeddingError,
    IncompatibleIndexError,
    IndexBusyError,
    IndexCancelled,
    IndexNameTakenError,
    IndexNotFoundError,
    JobNotFoundError,
    LLMError,
    QueryError,
    ReadOnlyError,
    ScanError,
    SourceError,
    StoreError,
)
from codeqa.service.models import NOT_BLANK, ErrorResult

# most specific first: the first class an error is an instance of decides its status
STATUS = [
    (IndexNotFoundError, 404),
    (JobNotFoundError, 404),
    (IndexBusyError, 409),
    (IndexNameTakenError, 409),
    (IncompatibleIndexError, 409),
    (IndexCancelled, 409),
    (StoreError, 503),
    (QueryError, 422),
    (SourceError, 422),
    (ScanError, 422),
    (ReadOnlyError, 403),
    (EmbeddingError, 500),
    (LLMError, 502),
]
ERROR_TEXT = {
    400: "A Host header this server does not answer to (plain text), or a request the library refuses.",
    401: "Missing or wrong bearer token.",
    403: "Refused: a page on another site made the request, its Origin is not this server's (plain text), or the "
    "server is read-only.",
    404: "No such index, job or route.",
    409: "The index is being built, was built by an incompatible codeqa, or its name holds another source.",
    413: "The request body is larger than CODEQA_API_MAX_BODY_BYTES.",
    422: "The request breaks a rule of this schema, or the library refuses its content; the message says which.",
    429: "Too many requests (questions, reads, wrong tokens or open event streams): retry after Retry-After seconds.",
    500: "The embedding model failed.",
    502: "The language model failed.",
    503: "The vector store is not reachable.",
}
PATTERN_WORDS = {NOT_BLANK: "must hold a character other than white space"}  # pydantic would show the regex
PLAIN_TEXT_TOO = (400, 403)  # the Host and Origin checks answer the app and the API alike, in plain text
EDGE = (400, 403)  # every path, /health included
GUARDED = (*EDGE, 429)  # every path behind the token (401 is added when the server has one)
READ_INDEX = (*GUARDED, 404, 409, 422, 503)
QUESTION = (*READ_INDEX, 413, 500)


def sse_content(*events: str) -> dict:
    """How a server-sent events answer is documented: each event, its name and its JSON data."""
    event = {
        "type": "object",
        "properties": {"event": {"enum": list(events)}, "data": {"type": "string", "description": "JSON"}},
        "required": ["event", "data"],
    }
    return {"text/event-stream": {"schema": event}}


def status_for(exc: CodeqaError) -> int:
    return next((status for kind, status in STATUS if isinstance(exc, kind)), 400)


def error_response(status: int, kind: str, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": {"type": kind, "message": message}}, status_code=status, headers=headers)


def errors(*statuses: int) -> dict[int | str, dict]:
    """The documented error answers of an operation: ``{"error": {"type", "message"}}`` (and plain text for the
    Host and Origin checks)."""
    documented: dict[int | str, dict] = {}
    for status in sorted(set(statuses)):
        documented[status] = {"model": ErrorResult, "description": ERROR_TEXT[status]}
        if status in PLAIN_TEXT_TOO:
            documented[status]["content"] = {"text/plain": {"schema": {"type": "string"}}}
    return documented


def problem(error: dict) -> str:
    """One validation error in words: where, what, and the value given when it is short."""
    where = ".".join(str(part) for part in error["loc"] if part not in ("body", "query", "path")) or "body"
    pattern = error.get("ctx", {}).get("pattern") if error["type"] == "string_pattern_mismatch" else None
    text = f"{where}: {PATTERN_WORDS.get(str(pattern), error['msg'])}"
    given = error.get("input")
    shown = isinstance(given, int | float | str) and len(repr(given)) <= 60
    if shown and error["type"] not in ("missing", "extra_forbidden", "json_invalid"):
        text += f" (got {given!r})"
    return text
