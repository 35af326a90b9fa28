"""The answer-backend registry: each backend declares its traits once, beside its code, and registers itself.

Choosing a backend (``select.py``), shaping the answer (``answering.py``), the app's picker and the ``--backend``
choices read these traits instead of comparing names, so a new backend is one module that ends with
``register(BackendTraits(...))`` and is imported (for the built-ins: by ``codeqa.answer.llm.backends``).

Whether code leaves the machine is not a trait: it depends on the configured URL, so each backend instance says
it (``LLMBackend.local``) and every caller reads that.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from codeqa.answer.llm.backends.base import LLMBackend
from codeqa.config import Settings
from codeqa.errors import QueryError

AUTO, NONE = "auto", "none"  # not backends: "pick one for me" and "no language model" (the extractive map)


def always(settings: Settings) -> bool:
    return True


@dataclass(frozen=True)
class BackendTraits:
    """What the rest of codeqa needs to know about a backend, without knowing its name."""

    name: str  # what --backend, CODEQA_LLM_BACKEND, ``Answer.backend`` and ``BackendStatus.name`` say
    label: str  # the app's backend picker
    make: Callable[[Settings], LLMBackend]
    auto_order: int  # "Automatic" tries backends in this order; it is also the order of every listing
    in_auto: Callable[[Settings], bool] = always  # whether "Automatic" may try it with these settings
    auto_hint: str | None = None  # markdown for the app when it is ready but "Automatic" leaves it out
    small_model: bool = False  # a summary on top of the extractive answer, instead of an answer from the brief
    condenses_follow_ups: bool = True  # may rewrite a follow-up question into a search query (tiny models garble it)
    caveat: str | None = None  # said with every answer it gives ("Answer from <model>, <caveat>.")
    own_model: bool = False  # runs the one model it is configured with: auto mode passes it no model name


_REGISTRY: dict[str, BackendTraits] = {}


def register(traits: BackendTraits) -> BackendTraits:
    """Add a backend; registering the same traits again is a no-op, another backend under a taken name an error."""
    if traits.name in (AUTO, NONE) or not traits.name or traits.name != traits.name.strip().lower():
        raise ValueError(f"A backend cannot be called {traits.name!r}: use a lower-case name other than auto, none.")
    known = _REGISTRY.get(traits.name)
    if known is not None and known != traits:
        raise ValueError(f"A backend called {traits.name!r} is already registered.")
    _REGISTRY[traits.name] = traits
    return traits


def unregister(name: str) -> None:
    _REGISTRY.pop(name, None)


def names() -> tuple[str, ...]:
    """Every registered backend, in auto order (ties: in the order they registered)."""
    return tuple(t.name for t in sorted(_REGISTRY.values(), key=lambda t: t.auto_order))


def choices() -> tuple[str, ...]:
    """What ``--backend``, ``CODEQA_LLM_BACKEND`` and the API accept."""
    return (AUTO, *names(), NONE)


def choices_text() -> str:
    """``auto, ollama, openai, embedded or none`` (for help texts and messages)."""
    *first, last = choices()
    return f"{', '.join(first)} or {last}"


def find(name: str) -> BackendTraits | None:
    return _REGISTRY.get(name)


def get(name: str) -> BackendTraits:
    traits = _REGISTRY.get(name)
    if traits is None:
        raise QueryError(f"Unknown backend {name!r}: choose one of {', '.join(choices())}.")
    return traits


def traits_of(backend: LLMBackend) -> BackendTraits:
    """The traits of a running backend; one built by hand and never registered gets the defaults."""
    return _REGISTRY.get(backend.name) or BackendTraits(backend.name, backend.name, lambda _: backend, 1_000)


def auto_names(settings: Settings) -> list[str]:
    """The backends "Automatic" tries with ``settings``, in order."""
    return [name for name in names() if _REGISTRY[name].in_auto(settings)]
