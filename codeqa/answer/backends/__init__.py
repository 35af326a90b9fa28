"""Language-model backends behind one small interface (``LLMBackend``): Ollama, OpenAI-compatible, embedded."""

from codeqa.answer.backends.base import BackendStatus, LLMBackend, Message
from codeqa.answer.backends.select import BACKENDS, Choice, choose_backend, list_backends

__all__ = ["BACKENDS", "BackendStatus", "Choice", "LLMBackend", "Message", "choose_backend", "list_backends"]
