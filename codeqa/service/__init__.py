"""codeqa as a service for coding agents and scripts: one set of operations, two faces.

``Operations`` (``codeqa.service.operations``) does the work over the library's public API; ``mcp_server`` exposes
it as MCP tools over stdio (``codeqa mcp``) and ``http_api`` as a FastAPI app (``codeqa api``). The faces only
translate: arguments in, typed results out, ``CodeqaError`` messages as tool errors or JSON errors.
"""

from codeqa.service.models import AskRequest, IndexRequest, Scope, SearchRequest
from codeqa.service.operations import Operations
from codeqa.service.ratelimit import RateLimiter

__all__ = ["AskRequest", "IndexRequest", "Operations", "RateLimiter", "Scope", "SearchRequest"]
