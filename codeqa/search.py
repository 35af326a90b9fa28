"""Search's public face: filters, question validation and ``search`` (chunk hits); the work is in ``retrieve``."""

from __future__ import annotations

from dataclasses import dataclass, field

from codeqa.config import Settings
from codeqa.embed import Embedder
from codeqa.errors import QueryError
from codeqa.records import Hit
from codeqa.store import Store
from codeqa.table import ChunkTable

MAX_QUERY_CHARS = 20_000


@dataclass(frozen=True)
class Filters:
    """Scope a search. Empty tuples mean "any"; ``paths`` are directory prefixes or exact file paths."""

    layers: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    languages: tuple[str, ...] = ()
    paths: tuple[str, ...] = field(default=())
    globs: tuple[str, ...] = ()  # fnmatch patterns on the repo-relative path, e.g. "src/**/*.py"

    @property
    def active(self) -> bool:
        return bool(self.layers or self.kinds or self.languages or self.paths or self.globs)

    def mask(self, table: ChunkTable):
        """The filter as a boolean mask over the chunk table's rows; every retrieval stage applies it."""
        return table.mask(
            layers=self.layers,
            kinds=self.kinds,
            languages=self.languages,
            paths=tuple(normalize_path_filter(p) for p in self.paths),
            globs=self.globs,
        )


def normalize_path_filter(raw: str) -> str:
    path = raw.strip().replace("\\", "/").strip("/")
    while path.startswith("./"):
        path = path[2:]
    if ".." in path.split("/"):
        raise QueryError(f"Path filter {raw!r} must be a directory inside the repository (no '..').")
    return path or "."


def validate_query(query: str) -> str:
    query = (query or "").strip()
    if not query:
        raise QueryError("The question is empty: type what you are looking for, e.g. 'where is the config loaded?'")
    return query[:MAX_QUERY_CHARS]


def search(
    name: str,
    query: str,
    settings: Settings,
    *,
    k: int = 10,
    filters: Filters | None = None,
    embedder: Embedder | None = None,
    store: Store | None = None,
) -> list[Hit]:
    """Top-``k`` chunks of index ``name`` for ``query`` (best first), restricted by ``filters``."""
    if k < 1:
        raise QueryError("k must be at least 1.")
    from codeqa.retrieve import retrieve

    return retrieve(name, query, settings, k=k, filters=filters, embedder=embedder, store=store).hits
