"""Language-model backends behind one small interface (``LLMBackend``): Ollama, OpenAI-compatible, embedded."""

from codeqa.answer.backends.base import BackendStatus, LLMBackend, Message
from codeqa.answer.backends.select import (
    BACKENDS,
    FALLBACK,
    NO_MODEL,
    Choice,
    auto_candidates,
    choose_backend,
    list_backends,
)

__all__ = [
    "BACKENDS",
    "FALLBACK",
    "NO_MODEL",
    "BackendStatus",
    "Choice",
    "LLMBackend",
    "Message",
    "auto_candidates",
    "choose_backend",
    "list_backends",
]
