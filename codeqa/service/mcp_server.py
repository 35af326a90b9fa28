"""``codeqa mcp``: the service operations as Model Context Protocol tools over stdio (the official ``mcp`` SDK).

Each tool only translates: typed, documented parameters in, the operation's typed result out as structured
content. A ``CodeqaError`` becomes a tool error whose text is the CLI's message. ``index`` and ``remove`` are
registered only when the server is started with ``--allow-write``; ``index`` reports the pipeline's progress
as MCP progress notifications while it runs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.types import CallToolResult, TextContent
from pydantic import BaseModel, Field

from codeqa.answer.llm.backends.registry import names as backend_names
from codeqa.config import BackendChoice
from codeqa.errors import CodeqaError
from codeqa.service.mcp_stdio import run_stdio
from codeqa.service.models import (
    MAX_ASK_K,
    MAX_SEARCH_K,
    AskK,
    AskRequest,
    AskResult,
    FilesResult,
    IndexList,
    IndexName,
    IndexRequest,
    JobStatus,
    KindFilter,
    LayerFilter,
    ModelName,
    NeighborLimit,
    OverviewResult,
    RefText,
    Removed,
    SearchK,
    SearchRequest,
    SearchResult,
    SourceText,
    SymbolName,
    SymbolResult,
    TextFilter,
)
from codeqa.service.operations import Operations
from codeqa.version import __version__

INSTRUCTIONS = (
    "codeqa searches and explains codebases indexed on this machine. Call list_indexes first to get an index "
    "name. search returns ranked chunks with path:start-end and the lines that matched; find_files ranks files; "
    "ask gives a cited answer; definition/callers/callees walk the symbol graph; overview summarizes a repository."
)
PROGRESS_POLL_SECONDS = 0.25
BACKEND_HELP = f"auto (default), {', '.join(backend_names())}, or none for the extractive map."
M = TypeVar("M", bound=BaseModel)

# The parameters carry the request models' own types (codeqa.service.models), so the tools' input schemas state the
# same limits as the HTTP API's: k and limit bounds, filter counts and lengths, the layer and kind enums.
Index = Annotated[str, Field(description="Index name, as listed by list_indexes.")]
Question = Annotated[str, Field(description="A question in plain words, or identifiers to look for.")]
Symbol = SymbolName
Layers = Annotated[LayerFilter | None, Field(description="Only these layers (api, model, view, service, cli, test…).")]
Kinds = Annotated[KindFilter | None, Field(description="Only these kinds (function, method, class, module, doc…).")]
Languages = Annotated[TextFilter | None, Field(description="Only these languages (python, typescript, go…).")]
Paths = Annotated[TextFilter | None, Field(description="Only under these directories or files.")]
Globs = Annotated[TextFilter | None, Field(description="Only paths matching these globs, e.g. 'src/**/*.py'.")]
Limit = NeighborLimit


def _scope(layers, kinds, languages, paths, globs) -> dict[str, list[str]]:
    return {
        "layers": layers or [],
        "kinds": kinds or [],
        "languages": languages or [],
        "paths": paths or [],
        "globs": globs or [],
    }


def _error(exc: CodeqaError) -> CallToolResult:
    message = str(exc)
    error = {"error": {"type": type(exc).__name__, "message": message}}
    return CallToolResult(content=[TextContent(type="text", text=message)], structured_content=error, is_error=True)


def _ok(result: BaseModel) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=result.model_dump_json(indent=2))],
        structured_content=result.model_dump(mode="json"),
    )


async def _call(action: Callable[[], M]) -> CallToolResult:
    """Run an operation on a worker thread (the event loop keeps serving) and translate its outcome."""
    try:
        return _ok(await anyio.to_thread.run_sync(action))
    except CodeqaError as exc:
        return _error(exc)


def build_server(ops: Operations) -> MCPServer:
    server: MCPServer = MCPServer("codeqa", version=__version__, instructions=INSTRUCTIONS)

    @server.tool()
    async def search(
        index: Index,
        question: Question,
        k: Annotated[SearchK, Field(description=f"How many chunks (1-{MAX_SEARCH_K}).")] = 10,
        layers: Layers = None,
        kinds: Kinds = None,
        languages: Languages = None,
        paths: Paths = None,
        globs: Globs = None,
    ) -> Annotated[CallToolResult, SearchResult]:
        """Ranked code chunks for a question: path:start-end, symbol, kind, layer, language, score and the few
        lines that best match the question (with line numbers)."""
        scope = _scope(layers, kinds, languages, paths, globs)
        return await _call(lambda: ops.search(index, SearchRequest(question=question, k=k, **scope)))

    @server.tool()
    async def find_files(
        index: Index,
        question: Question,
        k: Annotated[SearchK, Field(description=f"How many files (1-{MAX_SEARCH_K}).")] = 10,
        layers: Layers = None,
        kinds: Kinds = None,
        languages: Languages = None,
        paths: Paths = None,
        globs: Globs = None,
    ) -> Annotated[CallToolResult, FilesResult]:
        """Ranked files for a question ("where is X handled?"), with their matching symbols."""
        scope = _scope(layers, kinds, languages, paths, globs)
        return await _call(lambda: ops.find_files(index, SearchRequest(question=question, k=k, **scope)))

    @server.tool()
    async def ask(
        index: Index,
        question: Question,
        k: Annotated[AskK, Field(description=f"How many code chunks to give the model (1-{MAX_ASK_K}).")] = 8,
        backend: Annotated[BackendChoice | None, Field(description=BACKEND_HELP)] = None,
        model: Annotated[ModelName | None, Field(description="Model name for that backend.")] = None,
        layers: Layers = None,
        kinds: Kinds = None,
        languages: Languages = None,
        paths: Paths = None,
        globs: Globs = None,
    ) -> Annotated[CallToolResult, AskResult]:
        """A grounded answer citing [n] sources and path:start-end, with a citation check. Without a language
        model it is the extractive answer: a map of the most relevant code."""
        scope = _scope(layers, kinds, languages, paths, globs)
        asked = {"question": question, "k": k, "backend": backend, "model": model}
        return await _call(lambda: ops.ask(index, AskRequest(**asked, **scope)))

    @server.tool()
    async def definition(index: Index, symbol: Symbol, limit: Limit = 20) -> Annotated[CallToolResult, SymbolResult]:
        """Where a symbol is defined."""
        return await _call(lambda: ops.symbol(index, symbol, "definition", limit))

    @server.tool()
    async def callers(index: Index, symbol: Symbol, limit: Limit = 20) -> Annotated[CallToolResult, SymbolResult]:
        """The code that uses a symbol (calls, imports, extends it), from the symbol graph."""
        return await _call(lambda: ops.symbol(index, symbol, "callers", limit))

    @server.tool()
    async def callees(index: Index, symbol: Symbol, limit: Limit = 20) -> Annotated[CallToolResult, SymbolResult]:
        """What a symbol uses (the definitions its code refers to), from the symbol graph."""
        return await _call(lambda: ops.symbol(index, symbol, "callees", limit))

    @server.tool()
    async def overview(index: Index) -> Annotated[CallToolResult, OverviewResult]:
        """A first look at a repository: languages by size, layers, entry points and central symbols."""
        return await _call(lambda: ops.overview(index))

    @server.tool()
    async def list_indexes() -> Annotated[CallToolResult, IndexList]:
        """The indexes on this machine (name, source, commit, files, chunks)."""
        return await _call(ops.list_indexes)

    if ops.allow_write:
        add_write_tools(server, ops)
    return server


def add_write_tools(server: MCPServer, ops: Operations) -> None:
    @server.tool()
    async def index(
        source: SourceText,
        name: Annotated[IndexName | None, Field(description="Index name (default: derived from the source).")] = None,
        ref: RefText | None = None,
        ctx: Context | None = None,
    ) -> Annotated[CallToolResult, JobStatus]:
        """Index a repository (clone, scan, chunk, embed, store); reports progress while it runs and returns the
        finished job with the new index."""
        status: JobStatus | None = None
        try:
            request = IndexRequest(source=source, name=name, ref=ref)
            status = await anyio.to_thread.run_sync(lambda: ops.start_index(request))
            said: dict[str, Any] = {}  # stage -> what was last reported for it
            while True:
                if ctx is not None:  # every stage reached, also those begun and ended between two polls
                    for stage, message in ops.job_stages(status.id):
                        seen = (message, round(status.fraction, 3)) if stage == status.stage else said.get(stage)
                        if stage not in said or said[stage] != seen:
                            said[stage] = seen
                            await ctx.report_progress(status.fraction, 1.0, f"{stage}: {message}")
                if status.state != "running":
                    break
                await anyio.sleep(PROGRESS_POLL_SECONDS)
                status = ops.job(status.id)
        except CodeqaError as exc:
            return _error(exc)
        except anyio.get_cancelled_exc_class():  # the client gave up: stop the job too (the old index stays)
            if status is not None:
                ops.cancel_job(status.id)
            raise
        if status.state != "done":
            message = status.error or "Indexing was cancelled; the previous index (if any) is unchanged."
            kind = "IndexCancelled" if status.state == "cancelled" else "IndexFailed"
            error = {"error": {"type": kind, "message": message}, "job": status.model_dump(mode="json")}
            content = [TextContent(type="text", text=message)]
            return CallToolResult(content=content, structured_content=error, is_error=True)
        if ctx is not None:
            await ctx.report_progress(1.0, 1.0, "done")
        return _ok(status)

    @server.tool()
    async def remove(index: Index) -> Annotated[CallToolResult, Removed]:
        """Delete an index (the repository itself is not touched)."""
        return await _call(lambda: ops.remove(index))


def serve_stdio(ops: Operations) -> None:
    """Serve MCP over this process's stdin/stdout until the client closes it."""
    run_stdio(build_server(ops))
