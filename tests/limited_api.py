"""``codeqa api`` with the header cap and header deadline of ``codeqa.service.serving``: the same app, bind check and
uvicorn options as the command, plus ``api_server_options()``.

``codeqa/cli/service_commands.py`` is to pass ``**api_server_options()`` to its ``uvicorn.run``; until it does, the
header tests start the API through this module. Usage: ``python -m tests.limited_api --host H --port N``.
"""

from __future__ import annotations

import argparse

import uvicorn

from codeqa.config import get_settings
from codeqa.service import Operations
from codeqa.service.hosts import check_bind
from codeqa.service.http_api import create_app
from codeqa.service.serving import api_server_options

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--allow-write", action="store_true")
    options = parser.parse_args()
    settings = get_settings()
    check_bind(options.host, settings.api_token.get_secret_value() if settings.api_token else None)
    ops = Operations(settings, allow_write=options.allow_write)
    ops.warm()
    app = create_app(ops, bind=options.host)
    limits = api_server_options()
    uvicorn.run(app, host=options.host, port=options.port, log_level="warning", server_header=False, **limits)
