"""What the code view shows: the whole cited file, read back from the index, and the symbol at the cited lines.

``file_view`` rebuilds the file from the index's chunks (they cover it; blank lines between them are all that is
not stored), so the view works for a remote source whose clone is gone. Links to it: ``codeqa.answer.rendering.links``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import quote

from codeqa.answer.context import AnswerContext
from codeqa.answer.rendering.links import safe_path
from codeqa.errors import QueryError
from codeqa.index import Index
from codeqa.records import Chunk
from codeqa.store import Manifest
from codeqa.symbols import qualified_names

DEFINED = re.compile(
    r"^\s*(?:(?:export|public|private|protected|static|async|pub|default|abstract)\s+)*"
    r"(?:def\s+(?:self\.)?|class\s+|function\s*\*?\s*|func\s+(?:\([^)]*\)\s*)?|fn\s+|module\s+)([A-Za-z_$][\w$]*[?!]?)"
)


@dataclass
class FileView:
    """One file of an index as the code view shows it."""

    index: str
    path: str
    language: str
    lines: list[str]  # the file's lines (index 0 is line 1)
    chunks: list[Chunk]  # in line order
    permalink: str | None  # GitHub at the indexed commit, when the source is on GitHub
    sha: str | None

    def chunk_at(self, start: int, end: int) -> Chunk | None:
        """The chunk holding most of lines ``start-end``."""
        best, overlap = None, 0
        for chunk in self.chunks:
            shared = min(end, chunk.end_line) - max(start, chunk.start_line) + 1
            if shared > overlap:
                best, overlap = chunk, shared
        return best

    def symbol_at(self, start: int, end: int) -> str | None:
        """The name defined at the cited lines: a definition among them (``Class.method`` inside a class chunk),
        else the chunk's first symbol."""
        chunk = self.chunk_at(start, end)
        names = qualified_names(chunk.symbol) if chunk is not None else []
        first = chunk.start_line if chunk is not None else start
        indent = _indent(self.lines[start - 1]) if 0 < start <= len(self.lines) else 0
        enclosing = [n for n in range(start, first - 1, -1) if DEFINED.match(self.lines[n - 1])
                     and (n == start or _indent(self.lines[n - 1]) < indent)]  # fmt: skip
        inside = [n for n in range(start, min(end, len(self.lines)) + 1) if DEFINED.match(self.lines[n - 1])]
        for number in enclosing[:1] or inside[:1]:
            name = DEFINED.match(self.lines[number - 1]).group(1)  # type: ignore[union-attr]
            known = [n for n in names if n.split(".")[-1] == name]
            owner = names[0] if len(names) == 1 and names[0] != name else ""
            return known[0] if known else (f"{owner}.{name}" if owner else name)
        return names[0] if names else None


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip()) if line.strip() else 1_000


def github_permalink(manifest: Manifest, path: str, start: int, end: int) -> str | None:
    """The file at the indexed commit on GitHub, these lines selected (None when not a GitHub source)."""
    if not manifest.web_url or not manifest.sha or "github.com" not in manifest.web_url:
        return None
    return f"{manifest.web_url.rstrip('/')}/blob/{manifest.sha}/{quote(path)}#L{start}-L{end}"


def file_view(index: Index, path: str, *, lines: tuple[int, int] | None = None) -> FileView:
    """The whole of ``path`` as stored in ``index``; ``QueryError`` for a path the index does not hold."""
    if not safe_path(path):
        raise QueryError(f"{path!r} is not a file path in a repository (use a path such as 'src/app.py').")
    manifest = index.manifest
    search = index.files
    context = AnswerContext([], [], search.table, search.graph, index.chunks, definers=search.all_definers,
                            defines=search.defines)  # fmt: skip
    chunks = context.file_chunks([path], limit=None)[path]
    if not chunks:
        raise QueryError(
            f"Index {index.name!r} has no file {path!r}; it may have been removed since, or was not indexed."
        )
    total = max(chunk.end_line for chunk in chunks)
    text = [""] * total
    for chunk in chunks:
        for offset, line in enumerate(chunk.text.split("\n")):
            text[chunk.start_line - 1 + offset] = line
    start, end = lines or (1, 1)
    link = github_permalink(manifest, path, start, end)
    return FileView(index.name, path, chunks[0].language, text, chunks, link, manifest.sha)
