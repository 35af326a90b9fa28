"""The source stage: what the user typed (a URL, ``owner/repo`` or a path) → a local working tree pinned to a commit."""

from codeqa.source.clone import resolve_source
from codeqa.source.parse import SourceSpec, looks_like_git_dir, parse_source, source_key

__all__ = ["SourceSpec", "looks_like_git_dir", "parse_source", "resolve_source", "source_key"]
