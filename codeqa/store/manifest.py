"""What an index is: its manifest (model, versions, commit, counts) and the rules for its name."""

from __future__ import annotations

import json
import re
import time
from dataclasses import asdict, dataclass, field

from codeqa.errors import IncompatibleIndexError, QueryError

MAX_NAME_CHARS = 63
NAME_PATTERN = "^[A-Za-z0-9][A-Za-z0-9._-]*$"  # with MAX_NAME_CHARS: the rule as a JSON Schema states it
NAME_RE = re.compile(rf"\A[A-Za-z0-9][A-Za-z0-9._-]{{0,{MAX_NAME_CHARS - 1}}}\Z")  # \Z: "$" lets a newline through


@dataclass
class Manifest:
    """Everything needed to trust, reopen and describe an index."""

    name: str
    source: str
    collection: str
    model: str
    dimension: int
    chunker_version: str
    codeqa_version: str
    source_kind: str = "local-dir"
    ref: str | None = None
    sha: str | None = None
    web_url: str | None = None
    subdir: str = ""
    root: str = ""
    created_at: float = field(default_factory=time.time)
    counts: dict[str, int] = field(default_factory=dict)
    languages: dict[str, int] = field(default_factory=dict)
    skipped: dict[str, int] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)
    model_revision: int = 1  # the embedder's revision (same model id, other vectors)
    generation: int = 0  # which search files describe the collection now (0: before generations were kept)

    @property
    def key(self) -> str:
        """Names this generation of this index (a re-index or an update makes a new one): a cache key."""
        return f"{self.collection}@{self.generation}"

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    def check_model(self, model: str, dimension: int | None = None, revision: int = 1) -> None:
        """Refuse to query this index with an embedding model other than the one that built it."""
        if self.model == model and self.model_revision != revision:
            raise IncompatibleIndexError(
                f"Index {self.name!r} was built with an earlier version of the embedding model {model!r}; "
                f"re-index it with `codeqa index {self.source} --name {self.name}` (unchanged code is embedded "
                "again once, then cached)."
            )
        if self.model != model or (dimension and self.dimension != dimension):
            raise IncompatibleIndexError(
                f"Index {self.name!r} was built with embedding model {self.model!r} ({self.dimension} dims) but "
                f"{model!r} is configured. Re-index it with `codeqa index {self.source} --name {self.name}` "
                f"or set CODEQA_EMBEDDING_MODEL={self.model}."
            )

    @classmethod
    def from_json(cls, text: str) -> Manifest:
        data = json.loads(text)
        known = {f for f in cls.__dataclass_fields__}
        return cls(**{k: v for k, v in data.items() if k in known})


def validate_index_name(name: str) -> str:
    if not isinstance(name, str) or not NAME_RE.match(name):
        raise QueryError(
            f"Invalid index name {name!r}: use 1-{MAX_NAME_CHARS} letters, digits, '.', '_' or '-', starting with a "
            "letter or digit."
        )
    return name
