"""The typed records that flow between pipeline stages (source → scan → chunk → embed → index/store → retrieve)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path, PurePosixPath

ProgressFn = Callable[[str, float | None], None]
"""A stage's progress report: ``(message, fraction done 0..1 or None when unknown)``."""


class ChunkKind(StrEnum):
    """What a chunk is; stored as its plain string value."""

    FUNCTION = "function"
    METHOD = "method"
    CLASS = "class"
    MODULE = "module"  # module-level code, or a named scope (Ruby/Rust module)
    DOC = "doc"
    CONFIG = "config"
    TEST = "test"
    OTHER = "other"


class Layer(StrEnum):
    """The architectural layer of a file (see ``codeqa.chunk.layers`` for the rules)."""

    API = "api"
    MODEL = "model"
    VIEW = "view"
    SERVICE = "service"
    CLI = "cli"
    CONFIG = "config"
    MIGRATION = "migration"
    TEST = "test"
    DOCS = "docs"
    BUILD = "build"
    UTIL = "util"
    CORE = "core"


class SkipReason(StrEnum):
    """Why the scan left a file out of the index (always reported, never silent)."""

    GITIGNORED = "gitignored"
    VENDORED = "vendored"
    BINARY = "binary"
    MINIFIED = "minified"
    GENERATED = "generated"
    GENERATED_DOCS = "generated-docs"  # a documentation generator's output (Dokka, Javadoc, Sphinx …), not code
    LOCKFILE = "lockfile"
    TOO_LARGE = "too-large"
    UNSUPPORTED_TYPE = "unsupported-type"
    SYMLINK = "symlink"
    EMPTY = "empty"
    UNDECODABLE = "undecodable"
    UNDECODABLE_NAME = "undecodable-name"  # a file or folder name that is not UTF-8 (shown as caf\xe9.py)
    UNREADABLE = "unreadable"
    EXCLUDED = "excluded"  # by the caller's exclude rule (e.g. test files in evaluations)
    LFS_POINTER = "lfs-pointer"  # a Git LFS pointer: the real content is not in the repository


def content_hash(text: str) -> str:
    """Stable hash of a piece of text; used for chunk ids and the embedding cache."""
    return hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class ResolvedSource:
    """Where a repository lives once it is on local disk (cloned or given as a path)."""

    spec: str  # what the user typed, with any credentials removed
    root: Path  # local directory holding the working tree
    subdir: str  # repo-relative directory to index ("" for the whole repository)
    kind: str  # "git" (cloned), "local-git" or "local-dir"
    ref: str | None = None
    sha: str | None = None
    web_url: str | None = None  # e.g. https://github.com/owner/repo (for permalinks), None when unknown
    default_name: str = "repo"


@dataclass(frozen=True)
class SourceFile:
    """One text file selected for indexing."""

    path: str  # repo-relative, POSIX separators
    language: str  # e.g. "python", "markdown", "text"
    text: str  # decoded contents, newlines normalized to "\n"
    size: int  # bytes on disk
    encoding: str = "utf-8"

    @property
    def line_count(self) -> int:
        return self.text.count("\n") + (0 if self.text.endswith("\n") or not self.text else 1)

    @property
    def hash(self) -> str:
        return content_hash(self.text)

    def scanned(self) -> ScannedFile:
        return ScannedFile(self.path, self.language, self.size, self.encoding, self.hash, self.line_count)


@dataclass(frozen=True, slots=True)
class ScannedFile:
    """What a scan keeps of a file it selected, without its text: the text is read again when the file is chunked,
    so a scan's memory grows with the number of files, not with their bytes (``scan.read_source``)."""

    path: str
    language: str
    size: int  # bytes on disk
    encoding: str
    hash: str  # content hash of the text the scan read (``SourceFile.hash``)
    line_count: int


@dataclass(frozen=True)
class SkippedFile:
    path: str
    reason: SkipReason


@dataclass
class ScanResult:
    files: list[ScannedFile] = field(default_factory=list)
    skipped: list[SkippedFile] = field(default_factory=list)

    def skipped_by_reason(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for item in self.skipped:
            counts[item.reason] = counts.get(item.reason, 0) + 1
        return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def ancestor_directories(path: str) -> list[str]:
    """``a/b/c.py`` → ``["a", "a/b"]``: stored per chunk so a directory prefix filter is a membership test."""
    parts = PurePosixPath(path).parts[:-1]
    return ["/".join(parts[: i + 1]) for i in range(len(parts))]


@dataclass(frozen=True)
class Chunk:
    """A meaningful unit of code (function, class, module part, doc section) with exact line range.

    ``text`` is exactly lines ``start_line``..``end_line`` (1-based, inclusive) of the file.
    """

    path: str
    language: str
    start_line: int
    end_line: int
    text: str
    symbol: str  # qualified where known ("SessionStore.login"), else "" for anonymous module code
    kind: ChunkKind | str  # a ChunkKind value
    layer: Layer | str  # a Layer value

    @property
    def directory(self) -> str:
        parent = PurePosixPath(self.path).parent.as_posix()
        return "" if parent == "." else parent

    @property
    def ancestors(self) -> list[str]:
        return ancestor_directories(self.path)

    @property
    def hash(self) -> str:
        return content_hash(self.text)

    @property
    def id(self) -> str:
        """Stable id: same file, lines and content → same id."""
        return content_hash(f"{self.path}\0{self.start_line}\0{self.end_line}\0{self.hash}")[:24]

    @property
    def location(self) -> str:
        return f"{self.path}:{self.start_line}-{self.end_line}"


@dataclass(frozen=True)
class Hit:
    """One retrieved chunk with its score (higher is better)."""

    chunk: Chunk
    score: float
    id: str = ""

    @property
    def location(self) -> str:
        return self.chunk.location


@dataclass(frozen=True, slots=True)  # slots: a large repository has millions
class Tag:
    """A name a file defines or uses, from its language's tag query (``codeqa/chunk/queries``)."""

    name: str
    category: str  # definitions: function, method, class, module, …; references: call, class, type, member, …
    line: int  # 1-based


@dataclass(frozen=True)
class ImportRef:
    """One import as written (``./db``, ``shop.config``, ``App\\Models\\User``), before it is resolved to files."""

    target: str  # quotes stripped; Python relative imports keep their dots
    line: int
    names: tuple[str, ...] = ()  # what is imported from it (``from a import b, c``; PHP ``use A\\{B, C}``)
    kind: str = ""  # "" (the language's rules), "relative" (to the file), "wildcard", "system"


@dataclass(frozen=True)
class FileTags:
    """What one file defines, uses and imports: extracted once at index time, stored beside the index."""

    path: str
    language: str
    definitions: tuple[Tag, ...] = ()
    references: tuple[Tag, ...] = ()
    imports: tuple[ImportRef, ...] = ()
    namespace: str = ""  # the package/namespace the file declares (Java, Kotlin, PHP, C#)
    build: str = ""  # the text of a build file import resolution reads (go.mod, tsconfig.json, composer.json, …)
    tagged: bool = False  # the references come from a tag query (False: the language has none)
