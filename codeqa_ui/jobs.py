"""Background indexing jobs: moved into the library (``codeqa.jobs``) so the HTTP API and MCP server share them."""

from codeqa.jobs import IndexJob, JobRegistry, check_source

__all__ = ["IndexJob", "JobRegistry", "check_source"]
