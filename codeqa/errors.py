"""One error hierarchy: every message is something a user can act on.

Library code raises these; the CLI turns them into a one-line message and a non-zero exit,
the Streamlit pages into ``st.error``. Nothing else should reach a user.
"""

from __future__ import annotations


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


class IndexBusyError(StoreError):
    """Another process is indexing the same repository right now."""


class QueryError(CodeqaError):
    """The question or a filter is invalid."""

    exit_code = 6


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


class LLMTimeoutError(LLMError):
    """The backend did not answer within ``CODEQA_LLM_TIMEOUT_SECONDS``."""


class JobNotFoundError(CodeqaError):
    """No indexing job with that id in this server process."""

    exit_code = 6


class ReadOnlyError(CodeqaError):
    """A write (index, remove) was asked of a server started without ``--allow-write``."""
