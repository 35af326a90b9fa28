"""One error hierarchy: every message is something a user can act on.

Library code raises these; the CLI turns them into a one-line message and a non-zero exit,
the Streamlit pages into ``st.error``. Nothing else should reach a user.
"""

from __future__ import annotations

import errno
import shutil
from pathlib import Path


class CodeqaError(Exception):
    """Base class: ``str(error)`` is the user-facing message."""

    exit_code = 1


class SourceError(CodeqaError):
    """The repository source is malformed, unsafe, unreachable or empty."""

    exit_code = 2


class UnsafeSourceError(SourceError):
    """The source uses a transport or form we refuse (``ext::``, ``file://`` from the UI, ``--option``)."""


class CloneError(SourceError):
    """Cloning failed: the repository does not exist, is private, or the network failed."""


class ScanError(CodeqaError):
    """Nothing indexable was found, or the repository exceeds a configured limit."""

    exit_code = 3


class EmbeddingError(CodeqaError):
    """The embedding model could not be loaded or used."""

    exit_code = 4


class StoreError(CodeqaError):
    """The vector store (Chroma) is unreachable or an index is missing or incompatible."""

    exit_code = 5


class IndexNotFoundError(StoreError):
    """No index with that name exists."""


class IncompatibleIndexError(StoreError):
    """The index was built with another embedding model or chunker version."""


class IndexNameTakenError(CodeqaError):
    """The index name asked for (or derived from the source) holds another source's index: nothing was replaced."""

    exit_code = 2


class IndexBusyError(StoreError):
    """Another process is indexing the same repository right now."""


class DamagedSearchFilesError(StoreError):
    """A search file beside an index's collection (chunk table, BM25, graph, vectors, file index) is damaged.

    ``path`` names the file and ``why`` says what is wrong with it; the index handle rebuilds such files from the
    store, and `codeqa repair NAME` does the same on request."""

    def __init__(self, message: str, path: Path | None = None, why: str = "") -> None:
        super().__init__(message)
        self.path, self.why = path, why


class DiskFullError(StoreError):
    """The disk holding the data dir is full; the partial work was removed, earlier indexes are unchanged."""


class QueryError(CodeqaError):
    """The question or a filter is invalid."""

    exit_code = 6


class SymbolNotFoundError(QueryError):
    """No chunk of the index defines the symbol asked about (the message lists close matches)."""


class IndexCancelled(CodeqaError):
    """The user cancelled indexing; the previous index (if any) is untouched."""

    exit_code = 130


class LLMError(CodeqaError):
    """A language-model backend failed; ``ask`` turns these into a notice plus the extractive answer."""

    exit_code = 7


class LLMUnavailableError(LLMError):
    """The backend is not running, not configured or not installed (the message says how to fix it)."""


class ModelNotFoundError(LLMError):
    """The backend runs but does not have the requested model (e.g. not pulled into Ollama)."""


class LLMCrashedError(LLMError):
    """The embedded model's process died (illegal instruction, segfault, out of memory); the app stays up."""


class LLMTimeoutError(LLMError):
    """The backend did not answer within ``CODEQA_LLM_TIMEOUT_SECONDS``."""


class JobNotFoundError(CodeqaError):
    """No indexing job with that id in this server process."""

    exit_code = 6


class ReadOnlyError(CodeqaError):
    """A write (index, remove) was asked of a server started without ``--allow-write``."""


DISK_FULL_MARKERS = ("no space left", "disk is full", "database or disk is full", "disk quota exceeded")
LOW_SPACE = 16 * 1024 * 1024  # below this, a failed write is taken to be the disk running out


def is_disk_full(exc: BaseException, where: Path | None = None) -> bool:
    """True when ``exc`` (or what caused it) says the disk is full, or the disk holding ``where`` nearly is.

    Chroma reports a full disk as a generic internal error, so the free space is the only reliable sign.
    """
    seen: BaseException | None = exc
    for _ in range(8):
        if seen is None:
            break
        if isinstance(seen, OSError) and seen.errno in (errno.ENOSPC, errno.EDQUOT):
            return True
        if any(marker in str(seen).lower() for marker in DISK_FULL_MARKERS):
            return True
        seen = seen.__cause__ or seen.__context__
    try:
        return where is not None and shutil.disk_usage(where).free < LOW_SPACE
    except OSError:
        return False


def disk_full_message(home: Path, what: str) -> str:
    """One line: what stopped, and what to do."""
    return (
        f"The disk holding {home} ran out of space: {what}. Free some space, or point CODEQA_HOME at a bigger disk, "
        "then run the command again."
    )
