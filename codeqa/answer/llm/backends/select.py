"""Which backend answers: the one asked for, or in ``auto`` mode the best one that works right now.

Auto order, from the registry (``registry.py``): Ollama when reachable with a chat model, then a configured
OpenAI-compatible endpoint, then the embedded model only when the user opted in (``CODEQA_EMBEDDED_AUTO=true`` or
a ``CODEQA_GGUF_PATH`` of their own), else none (the extractive map). A backend that cannot run never raises here:
it becomes a one-line notice saying why and how to fix it.
"""

from __future__ import annotations

from dataclasses import dataclass

import codeqa.answer.llm.backends.registry as registry
from codeqa.answer.llm.backends.base import BackendStatus, LLMBackend, host_of
from codeqa.config import Settings
from codeqa.errors import LLMError, LLMUnavailableError, QueryError

FALLBACK = "Showing the extractive map."
NO_MODEL = "No language model available."  # starts the notice of an automatic choice that found none
NONE_STATUS = BackendStatus(
    registry.NONE, True, "Extractive map: the relevant code with citations, no language model needed.", [], True
)


@dataclass
class Choice:
    """The backend to use (None = extractive answer), its model, and what the user should be told."""

    backend: LLMBackend | None
    model: str | None
    notice: str | None = None


def make_backend(name: str, settings: Settings) -> LLMBackend:
    return registry.get(name).make(settings)


def list_backends(settings: Settings) -> list[BackendStatus]:
    """Every backend's status (probes Ollama and any configured endpoint; each probe is short)."""
    return [make_backend(name, settings).status() for name in registry.names()] + [NONE_STATUS]


def normalize_backend(requested: str | None, settings: Settings) -> str:
    name = (requested or settings.llm_backend or registry.AUTO).strip().lower()
    if name not in registry.choices():
        raise QueryError(f"Unknown backend {name!r}: choose one of {', '.join(registry.choices())}.")
    return name


def warning_for(backend: LLMBackend, model: str) -> str | None:
    """What the user must know about answers from this backend even when it works."""
    caveat = registry.traits_of(backend).caveat
    if caveat:
        return f"Answer from {model}, {caveat}."
    if not backend.local:
        where = host_of(getattr(backend, "base_url", None) or getattr(backend, "host", "") or "")
        return f"Your code leaves this machine: the sources are sent to {where} ({backend.name})."
    return None


def ready(backend: LLMBackend, model: str | None) -> Choice:
    """Probe ``backend`` and pick its model; raises ``LLMError`` with the reason it cannot answer."""
    status = backend.status()
    if not status.available:
        raise LLMUnavailableError(status.detail)
    chosen = backend.resolve_model(model)
    return Choice(backend, chosen, warning_for(backend, chosen))


def choose_backend(settings: Settings, requested: str | None = None, model: str | None = None) -> Choice:
    """Resolve ``requested`` (or ``CODEQA_LLM_BACKEND``) to a working backend or to a fallback notice."""
    name = normalize_backend(requested, settings)
    if name == registry.NONE:
        return Choice(None, None, None)
    if name != registry.AUTO:
        try:
            return ready(make_backend(name, settings), model)
        except LLMError as exc:
            return Choice(None, None, f"{exc} {FALLBACK}")
    return _choose_auto(settings, model)


def auto_candidates(settings: Settings) -> list[str]:
    """The backends "Automatic" tries, in order."""
    return registry.auto_names(settings)


def _choose_auto(settings: Settings, model: str | None) -> Choice:
    names = auto_candidates(settings)
    reasons: list[str] = []
    for name in names:
        try:
            choice = ready(make_backend(name, settings), None if registry.get(name).own_model else model)
        except LLMError as exc:
            reasons.append(str(exc))
            continue
        if reasons:
            choice.notice = " ".join([reasons[0], f"Using {name} instead.", choice.notice or ""]).strip()
        return choice
    return Choice(None, None, f"{NO_MODEL} {' '.join(reasons)} {FALLBACK}")
