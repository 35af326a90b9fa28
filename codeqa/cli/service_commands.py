"""``codeqa serve``, ``codeqa mcp`` and ``codeqa api``: the web app, and the indexes for coding agents (MCP over
stdio) and scripts (HTTP).

The MCP server and the API are read-only unless started with ``--allow-write`` (then indexing and removal are
offered too). Library imports happen inside the commands to keep ``codeqa --help`` fast.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from codeqa.cli.console import err, out, run_or_exit, settings

# the web app's entry ships inside codeqa_ui (package data), beside codeqa in a checkout and in an install alike
APP_SERVER = Path(__file__).resolve().parent.parent.parent / "codeqa_ui" / "served" / "app_server.py"
OWN_OPTIONS = ("--server.address", "--server.port")  # set by --address/--port, where the exposure check sees them

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
    """Serve the indexes over HTTP (FastAPI): JSON operations, streamed answers, the OpenAPI schema at /openapi.json."""
    import uvicorn

    from codeqa.service import Operations
    from codeqa.service.hosts import check_bind, is_loopback, served_hosts
    from codeqa.service.http_api import create_app
    from codeqa.service.serving import api_server_options

    config = settings()
    host = host or config.api_host
    port = port or config.api_port
    token = config.api_token.get_secret_value() if config.api_token else None
    run_or_exit(lambda: check_bind(host, token))
    ops = Operations(config, allow_write=allow_write)
    run_or_exit(ops.warm)
    app = create_app(ops, bind=host)
    mode = "read-write" if allow_write else "read-only"
    auth = "token required" if token else "no token"
    schema = f"http://{host}:{port}/openapi.json"
    err.print(f"codeqa API on http://{host}:{port} ({mode}, {auth}); OpenAPI schema at {schema}", soft_wrap=True)
    if not is_loopback(host):
        names = ", ".join(served_hosts(host, config.allowed_hosts))
        err.print(f"It answers to the host names {names}; add others to CODEQA_ALLOWED_HOSTS.", soft_wrap=True)
    proxies = config.api_forwarded_allow_ips  # only then is X-Forwarded-For believed (it names the client)
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        proxy_headers=bool(proxies),
        forwarded_allow_ips=proxies or None,
        server_header=False,
        **api_server_options(),  # headers capped at 64 KB and read within 10 s (#34 finding 7)
    )


def serve(
    port: Annotated[int, typer.Option(help="Port to serve the app on.")] = 8501,
    address: Annotated[str, typer.Option(help="Address to bind (127.0.0.1 keeps it private).")] = "127.0.0.1",
    allow_remote: Annotated[
        bool,
        typer.Option(
            "--allow-remote",
            help="Allow a non-loopback --address. The app has no login: whoever reaches it can index and read "
            "folders of this machine.",
        ),
    ] = False,
    streamlit_args: Annotated[
        list[str] | None, typer.Argument(help="More Streamlit options, after --, e.g. -- --theme.base dark.")
    ] = None,
) -> None:
    """Start the web app (Streamlit) on this machine, answering only to its own host names."""
    from codeqa.service.hosts import is_loopback, served_hosts

    if not APP_SERVER.exists():
        err.print(f"[bold red]error:[/] {APP_SERVER} is missing from this installation; reinstall codeqa.")
        raise typer.Exit(1)
    extra = list(streamlit_args or [])
    if any(arg.split("=")[0] in OWN_OPTIONS for arg in extra):
        err.print("[bold red]error:[/] set the address and port with --address and --port, not as Streamlit options.")
        raise typer.Exit(2)
    if not is_loopback(address):
        if not allow_remote:
            err.print(
                f"[bold red]error:[/] refusing to serve the app on {address}: it has no login, so anyone who can "
                "reach that address could index and read folders of this machine. Use --address 127.0.0.1 (the "
                "default), or pass --allow-remote on a network you trust.",
                soft_wrap=True,
            )
            raise typer.Exit(2)
        hosts = ", ".join(served_hosts(address, settings().allowed_hosts))
        err.print(
            f"[bold yellow]warning:[/] the app is reachable from other machines on {address} and has no login. It "
            f"answers only to the host names {hosts}; add the names others use in CODEQA_ALLOWED_HOSTS.",
            soft_wrap=True,
        )
    out.print(f"codeqa app: http://{address}:{port}")
    command = [
        sys.executable, "-P", "-m", "streamlit", "run", str(APP_SERVER),
        "--server.headless", "true", "--server.address", address, "--server.port", str(port),
        "--server.fileWatcherType", "none", "--browser.gatherUsageStats", "false", *extra,
    ]  # fmt: skip
    sys.stdout.flush()
    sys.stderr.flush()
    # Started inside a repository, the server must run none of its code or settings: `-P` (and PYTHONSAFEPATH for
    # every Python the server starts) keeps the current folder off the import path, where a `streamlit/` or `json.py`
    # would shadow the real one; the app's own folder as working directory means Streamlit reads the app's
    # `.streamlit/config.toml`, never the repository's. Relative paths typed in the app still mean the launch folder.
    env = {**os.environ, "PYTHONSAFEPATH": "1"}
    env.setdefault("CODEQA_LAUNCH_DIR", os.getcwd())
    os.chdir(APP_SERVER.parent)
    os.execve(sys.executable, command, env)  # Streamlit becomes this process: a signal to it stops the server itself
