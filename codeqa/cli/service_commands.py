"""``codeqa mcp`` and ``codeqa api``: serve the indexes to coding agents (MCP over stdio) and scripts (HTTP).

Both are read-only unless started with ``--allow-write`` (then indexing and removal are offered too). Library
imports happen inside the commands to keep ``codeqa --help`` fast.
"""

from __future__ import annotations

from typing import Annotated

import typer

from codeqa.cli.console import err, run_or_exit, settings

AllowWrite = Annotated[
    bool, typer.Option("--allow-write", help="Also offer indexing and removing indexes (off: read-only).")
]


def mcp(allow_write: AllowWrite = False) -> None:
    """Serve the indexes as MCP tools over stdio, for coding agents (Claude Code, Cursor, Copilot, Continue)."""
    from codeqa.service import Operations
    from codeqa.service.mcp_server import serve_stdio

    ops = Operations(settings(), allow_write=allow_write)
    run_or_exit(ops.warm)
    serve_stdio(ops)


def api(
    host: Annotated[str | None, typer.Option(help="Address to bind (default CODEQA_API_HOST, 127.0.0.1).")] = None,
    port: Annotated[int | None, typer.Option(help="Port (default CODEQA_API_PORT, 8765).")] = None,
    allow_write: AllowWrite = False,
) -> None:
    """Serve the indexes over HTTP (FastAPI): JSON operations, streamed answers, OpenAPI docs at /docs."""
    import uvicorn

    from codeqa.service import Operations
    from codeqa.service.http_api import check_bind, create_app

    config = settings()
    host = host or config.api_host
    port = port or config.api_port
    token = config.api_token.get_secret_value() if config.api_token else None
    run_or_exit(lambda: check_bind(host, token))
    ops = Operations(config, allow_write=allow_write)
    run_or_exit(ops.warm)
    app = create_app(ops)
    mode = "read-write" if allow_write else "read-only"
    auth = "token required" if token else "no token"
    err.print(f"codeqa API on http://{host}:{port} ({mode}, {auth}); docs at http://{host}:{port}/docs", soft_wrap=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")
