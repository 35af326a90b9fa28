"""MCP over stdio, with one repair: a request line the SDK cannot parse still gets an answer.

The SDK's JSON parser refuses a lone surrogate (``"\\ud800"``) and drops the line without a reply, so the client
waits forever. ``AnswerUnreadable`` sits on the server's read stream: when such a line still has an ``id``, it
answers a JSON-RPC error naming the argument (``params.arguments.question is not valid text``).
"""

from __future__ import annotations

import json
from typing import Any

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp.types import INVALID_PARAMS, PARSE_ERROR, ErrorData, JSONRPCError
from pydantic import ValidationError

from codeqa.retrieve.query import SURROGATE


def run_stdio(server: MCPServer) -> None:
    """``MCPServer.run("stdio")``, with unreadable requests answered."""

    async def run() -> None:
        async with stdio_server() as (read_stream, write_stream):
            lowlevel = server._lowlevel_server  # what MCPServer.run_stdio_async runs
            await lowlevel.run(
                AnswerUnreadable(read_stream, write_stream), write_stream, lowlevel.create_initialization_options()
            )

    anyio.run(run)


def _unreadable_reply(exc: Exception) -> JSONRPCError | None:
    """An error answer for a request line the SDK could not parse, when Python's parser can read its ``id``."""
    errors = exc.errors() if isinstance(exc, ValidationError) else []
    line = errors[0].get("input") if errors else None
    try:
        request = json.loads(line) if isinstance(line, str) else None
    except ValueError:
        return None
    if not isinstance(request, dict) or not isinstance(request.get("id"), int | str) or "method" not in request:
        return None
    found = _surrogate_at(request.get("params"), "params")
    if found is None:
        error = ErrorData(code=PARSE_ERROR, message="The request is not valid JSON-RPC.")
    else:
        where, char = found
        message = f"{where} is not valid text: \\u{ord(char):04x} is a lone surrogate, not a character; send UTF-8."
        error = ErrorData(code=INVALID_PARAMS, message=message)
    return JSONRPCError(jsonrpc="2.0", id=request["id"], error=error)


def _surrogate_at(value: object, where: str) -> tuple[str, str] | None:
    if isinstance(value, str):
        found = SURROGATE.search(value)
        return (where, found.group()) if found else None
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        if (found := _surrogate_at(item, f"{where}.{key}")) is not None:
            return found
    return None


class AnswerUnreadable:
    """The server's read stream, except that a request line the SDK could not parse gets an error answer."""

    def __init__(self, inner: Any, write_stream: Any) -> None:
        self.inner, self.write_stream = inner, write_stream

    def __getattr__(self, name: str) -> Any:  # last_context and the like
        return getattr(self.inner, name)

    async def receive(self) -> Any:
        while True:
            item = await self.inner.receive()
            reply = _unreadable_reply(item) if isinstance(item, Exception) else None
            if reply is None:
                return item
            await self.write_stream.send(SessionMessage(reply))

    async def aclose(self) -> None:
        await self.inner.aclose()

    def __aiter__(self) -> AnswerUnreadable:
        return self

    async def __anext__(self) -> Any:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def __aenter__(self) -> AnswerUnreadable:
        await self.inner.__aenter__()
        return self

    async def __aexit__(self, *exc_info: Any) -> bool | None:
        return await self.inner.__aexit__(*exc_info)
