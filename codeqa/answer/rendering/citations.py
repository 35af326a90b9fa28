"""Check an answer's citations against the sources it was given: every ``[n]`` and ``path:start-end`` must point
into one of them. Answers are shown with the count of valid citations and the list of ones that point nowhere.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from codeqa.languages import EXTENSIONS
from codeqa.records import Hit

FENCED_BLOCK = re.compile(r"^[ \t]*(`{3,}|~{3,})[^\n]*\n.*?^[ \t]*\1[`~]*[ \t]*$", re.MULTILINE | re.DOTALL)
INLINE_CODE = re.compile(r"`[^`\n]*`")
NUMBERED = re.compile(r"(?<![\w)])\[(\d{1,4}(?:\s*(?:,|-|–|;)\s*\d{1,4})*)\](?!\()")
LINES = r"(?::(\d+)(?:\s*(?:-|–)\s*(\d+))?|#L(\d+)(?:-L?(\d+))?)"  # :12, :12-30, #L12, #L12-L30
PATH_WITH_LINES = re.compile(r"(?<![\w/.:\-@])((?:\.?/)?(?:[\w.@+-]+/)*[\w.@+-]+)" + LINES + r"(?![\w])")
SIMPLE_PATH = re.compile(r"[\w./@+-]+")


@dataclass(frozen=True)
class Citation:
    """One reference in an answer: a source number, or a path with a line range."""

    label: str  # normalized, e.g. "[2]" or "shop/auth.py:8-10"
    number: int | None = None
    path: str | None = None
    start: int | None = None
    end: int | None = None


@dataclass
class CitationReport:
    valid: list[str] = field(default_factory=list)
    invalid: list[str] = field(default_factory=list)

    @property
    def summary(self) -> str:
        text = f"Citations: {len(self.valid)} valid, {len(self.invalid)} not in the sources"
        return text + (f" ({', '.join(self.invalid)})" if self.invalid else "")


def _numbers(group: str) -> list[int]:
    numbers: list[int] = []
    for part in re.split(r"\s*[,;]\s*", group.strip()):
        bounds = [int(n) for n in re.split(r"\s*[-–]\s*", part) if n]
        if len(bounds) == 2 and 0 < bounds[1] - bounds[0] <= 20:
            numbers.extend(range(bounds[0], bounds[1] + 1))
        else:
            numbers.extend(bounds)
    return numbers


def looks_like_path(path: str) -> bool:
    """Tell ``shop/auth.py:12`` from ``localhost:8080`` or ``12:30``."""
    if "/" in path.strip("./"):
        return True
    suffix = PurePosixPath(path).suffix
    return bool(suffix) and (suffix in EXTENSIONS or suffix.lower() in EXTENSIONS)


def _spelled_out(plain: str, paths: Sequence[str]) -> tuple[list[re.Match[str]], str]:
    """Citations of known paths a plain path pattern cannot read (spaces, brackets…), and ``plain`` without them.

    A source path, or its trailing part (models drop leading directories), is matched literally.
    """
    names = {"/".join(parts[i:]) for path in paths for parts in [path.split("/")] for i in range(len(parts))}
    matches: list[re.Match[str]] = []
    for name in sorted((n for n in names if not SIMPLE_PATH.fullmatch(n)), key=len, reverse=True):
        for match in re.finditer(rf"(?<![\w/.])(?:\./)?({re.escape(name)}){LINES}(?![\w])", plain):
            matches.append(match)
            plain = plain[: match.start()] + " " * (match.end() - match.start()) + plain[match.end() :]
    return matches, plain


def parse_citations(text: str, paths: Sequence[str] = ()) -> list[Citation]:
    """Citations in order of appearance (duplicates kept); code blocks are skipped for ``[n]``.

    ``paths`` are the sources' paths: one with spaces or other unusual characters is recognised when cited whole.
    """
    prose = FENCED_BLOCK.sub(" ", text)
    found: list[tuple[int, Citation]] = []
    for match in NUMBERED.finditer(INLINE_CODE.sub(" ", prose)):
        found.extend((match.start(), Citation(f"[{n}]", number=n)) for n in _numbers(match.group(1)))
    spelled, plain = _spelled_out(prose.replace("`", " "), paths)
    for match in [*spelled, *PATH_WITH_LINES.finditer(plain)]:
        path = match.group(1)
        while path.startswith("./"):
            path = path[2:]
        if match.re is PATH_WITH_LINES and not looks_like_path(path):
            continue
        start = int(match.group(2) or match.group(4))
        end = int(match.group(3) or match.group(5) or start)
        start, end = min(start, end), max(start, end)
        label = f"{path}:{start}-{end}" if end != start else f"{path}:{start}"
        found.append((match.start(), Citation(label, path=path.lstrip("/"), start=start, end=end)))
    return [citation for _, citation in sorted(found, key=lambda item: item[0])]


def _same_file(cited: str, source: str) -> bool:
    """Exact, or the model dropped leading directories (``auth.py`` for ``shop/auth.py``)."""
    return cited == source or source.endswith("/" + cited)


def points_into(citation: Citation, sources: list[Hit]) -> bool:
    if citation.number is not None:
        return 1 <= citation.number <= len(sources)
    assert citation.path is not None and citation.start is not None and citation.end is not None
    return any(
        _same_file(citation.path, hit.chunk.path)
        and citation.start <= hit.chunk.end_line
        and citation.end >= hit.chunk.start_line
        for hit in sources
    )


def check_citations(text: str, sources: list[Hit]) -> CitationReport:
    """Distinct citations of ``text``, split into those that point into ``sources`` and those that do not."""
    report = CitationReport()
    for citation in parse_citations(text, [hit.chunk.path for hit in sources]):
        bucket = report.valid if points_into(citation, sources) else report.invalid
        if citation.label not in report.valid and citation.label not in report.invalid:
            bucket.append(citation.label)
    return report
