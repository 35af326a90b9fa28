"""Which web frameworks' constructs to look for in an index: marker paths that exist and identifiers its code uses,
gated by language. A guess good enough to choose constructs, never to name the app: that takes a manifest or an
import (``frameworks.evidence``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from fnmatch import fnmatch

from codeqa.frameworks.conventions import Convention, load_all

DETECTED = 2.0  # detection score a framework needs: a marker path counts 1.5, an identifier its code uses 1
PATH_WEIGHT = 1.5
LANGUAGE_SHARE = 0.15  # a framework's languages must make this share of the index's chunks


def detect(
    paths: Sequence[str], holds: Callable[[str, Sequence[str]], bool], languages: Sequence[str] = ()
) -> tuple[Convention, ...]:
    """The frameworks whose marker paths or identifiers an index holds (``common`` always), most evident first.

    ``holds(word, languages)`` says whether code in those languages uses the identifier; ``languages`` (one per
    chunk) gates the frameworks: one counts only where its languages make ``LANGUAGE_SHARE`` of the code (a Rails
    app's few JavaScript assets do not make it an Express app)."""
    counts = Counter(languages)
    total = sum(counts.values())
    scored: list[tuple[float, int, Convention]] = []
    for order, convention in enumerate(load_all()):
        if convention.common:
            scored.append((99.0, order, convention))
            continue
        share = sum(counts[language] for language in convention.languages) / total if total else 1.0
        if convention.languages and share < LANGUAGE_SHARE:
            continue
        score = PATH_WEIGHT * sum(any(fnmatch(path, glob) for path in paths) for glob in convention.detect_paths)
        score += sum(holds(word, convention.languages) for word in convention.detect_words)
        if score >= DETECTED:
            scored.append((score, order, convention))
    return tuple(convention for _, _, convention in sorted(scored, key=lambda item: (-item[0], item[1])))
