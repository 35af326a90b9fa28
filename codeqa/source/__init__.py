"""The source stage: what the user typed (a URL, ``owner/repo`` or a path) → a local working tree pinned to a commit."""

from codeqa.source.clone import resolve_source
from codeqa.source.parse import SourceSpec, parse_source

__all__ = ["SourceSpec", "parse_source", "resolve_source"]
