"""Citations you can follow: links from ``path:start-end`` (and ``[n]``) in an answer to the app's code view.

The code view is a page of the app, ``Code?index=…&path=…&lines=a-b``: ``code_view_url`` writes that relative link,
``is_code_view_url`` is the strict check the render gate uses so that only such links — a valid index name, a plain
repository path, a line range, nothing else — are let through in answers, and ``link_citations`` turns the
citations of an answer's prose into those links (code blocks are left alone; only paths among the answer's sources
are linked, so a citation that points nowhere stays plain text).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import PurePosixPath
from urllib.parse import parse_qs, quote, urlsplit

from codeqa.answer.rendering.citations import FENCED_BLOCK, NUMBERED, PATH_WITH_LINES, looks_like_path
from codeqa.records import Hit
from codeqa.store.manifest import NAME_RE

CODE_PAGE = "Code"  # the page's URL path (pages/4_Code.py)
LINES = re.compile(r"^(\d{1,7})(?:-(\d{1,7}))?$")
MAX_PATH = 1024
CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)
EXISTING_LINK = re.compile(r"\[[^\]\n]*\]\([^)\n]*\)")
SPAN_CITATION = re.compile(r"^\s*(?:\./)?(?P<path>[^\s`].*?):(?P<start>\d+)(?:\s*[-–]\s*(?P<end>\d+))?\s*$")


def code_view_url(index: str, path: str, start: int, end: int | None = None) -> str:
    """The relative link to the code view of ``path`` in ``index`` with lines ``start-end`` highlighted."""
    lines = f"{start}-{end}" if end is not None and end != start else f"{start}"
    return f"{CODE_PAGE}?index={quote(index, safe='')}&path={quote(path, safe='/')}&lines={lines}"


def safe_path(path: str) -> bool:
    """A plain repository-relative path: no scheme, no ``..``, not absolute, no control characters."""
    if not path or len(path) > MAX_PATH or path.startswith(("/", "\\")) or "\\" in path or path.endswith("/"):
        return False
    if any(ord(c) < 32 or ord(c) == 127 for c in path):
        return False
    return all(part not in ("", ".", "..") for part in PurePosixPath(path).parts)


def parse_lines(lines: str | None) -> tuple[int, int] | None:
    """``"12-30"`` → ``(12, 30)``, ``"7"`` → ``(7, 7)``; None when absent or not a line range."""
    match = LINES.match((lines or "").strip())
    if not match:
        return None
    start, end = int(match.group(1)), int(match.group(2) or match.group(1))
    return (min(start, end), max(start, end)) if min(start, end) >= 1 else None


def is_code_view_url(url: str) -> bool:
    """True only for our own code-view links: ``Code?index=NAME&path=PATH&lines=A-B`` and nothing else."""
    parts = urlsplit(url.strip())
    if parts.scheme or parts.netloc or parts.fragment or parts.path not in (CODE_PAGE, f"./{CODE_PAGE}"):
        return False
    query = parse_qs(parts.query, keep_blank_values=True)
    if set(query) != {"index", "path", "lines"} or any(len(values) != 1 for values in query.values()):
        return False
    index, path, lines = query["index"][0], query["path"][0], query["lines"][0]
    return bool(NAME_RE.match(index)) and safe_path(path) and parse_lines(lines) is not None


def _source_path(cited: str, paths: Sequence[str]) -> str | None:
    """The source path a citation means (exact, or the model dropped leading directories)."""
    cited = cited.lstrip("./")
    return next((p for p in paths if p == cited), None) or next((p for p in paths if p.endswith("/" + cited)), None)


def _link_text(text: str, index: str, sources: Sequence[Hit], paths: Sequence[str]) -> str:
    """Bare ``path:a-b`` and ``[n]`` in plain text (outside code spans and existing links) as links."""

    def number(match: re.Match[str]) -> str:
        numbers = [int(n) for n in re.findall(r"\d+", match.group(1))]
        if len(numbers) != 1 or not 1 <= numbers[0] <= len(sources):
            return match.group(0)
        chunk = sources[numbers[0] - 1].chunk
        return f"[\\[{numbers[0]}\\]]({code_view_url(index, chunk.path, chunk.start_line, chunk.end_line)})"

    def located(match: re.Match[str]) -> str:
        path = _source_path(match.group(1), paths) if looks_like_path(match.group(1)) else None
        if path is None:
            return match.group(0)
        start = int(match.group(2) or match.group(4))
        end = int(match.group(3) or match.group(5) or start)
        return f"[{match.group(0)}]({code_view_url(index, path, min(start, end), max(start, end))})"

    pieces, last = [], 0
    for link in EXISTING_LINK.finditer(text):
        pieces.append(PATH_WITH_LINES.sub(located, NUMBERED.sub(number, text[last : link.start()])))
        pieces.append(link.group(0))
        last = link.end()
    pieces.append(PATH_WITH_LINES.sub(located, NUMBERED.sub(number, text[last:])))
    return "".join(pieces)


def _link_prose(prose: str, index: str, sources: Sequence[Hit], paths: Sequence[str]) -> str:
    out, last = [], 0
    for span in CODE_SPAN.finditer(prose):
        out.append(_link_text(prose[last : span.start()], index, sources, paths))
        cited = SPAN_CITATION.match(span.group(2))
        path = _source_path(cited.group("path").strip(), paths) if cited else None
        already = prose[max(0, span.start() - 1) : span.start()] == "[" and prose[span.end() : span.end() + 2] == "]("
        if path is not None and cited is not None and not already:
            start, end = int(cited.group("start")), int(cited.group("end") or cited.group("start"))
            out.append(f"[{span.group(0)}]({code_view_url(index, path, min(start, end), max(start, end))})")
        else:
            out.append(span.group(0))
        last = span.end()
    out.append(_link_text(prose[last:], index, sources, paths))
    return "".join(out)


def link_citations(markdown: str, index: str, sources: Sequence[Hit]) -> str:
    """``markdown`` with every citation of a source (``path:a-b``, in code or not, and ``[n]``) linked to the code
    view; fenced code is left exactly as it is."""
    paths = list(dict.fromkeys(hit.chunk.path for hit in sources))
    out, last = [], 0
    for block in FENCED_BLOCK.finditer(markdown):
        out.append(_link_prose(markdown[last : block.start()], index, sources, paths))
        out.append(block.group(0))
        last = block.end()
    out.append(_link_prose(markdown[last:], index, sources, paths))
    return "".join(out)
