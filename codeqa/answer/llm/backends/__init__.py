"""Language-model backends behind one small interface (``LLMBackend``): Ollama, OpenAI-compatible, embedded.

Each backend module registers its traits (``registry.py``) when imported; importing this package imports them all.
"""

from codeqa.answer.llm.backends import embedded, ollama, openai  # noqa: F401  (each registers itself)
from codeqa.answer.llm.backends.base import BackendStatus, LLMBackend, Message
from codeqa.answer.llm.backends.registry import BackendTraits, register
from codeqa.answer.llm.backends.select import (
    FALLBACK,
    NO_MODEL,
    Choice,
    auto_candidates,
    choose_backend,
    list_backends,
)

__all__ = [
    "FALLBACK",
    "NO_MODEL",
    "BackendStatus",
    "BackendTraits",
    "Choice",
    "LLMBackend",
    "Message",
    "auto_candidates",
    "choose_backend",
    "list_backends",
    "register",
]
