"""Framework evidence for what a question is about: the files whose code holds a construct of the index's framework
for the question's topic (``codeqa.frameworks.intent``).

"What happens when an API request fails?" names no identifier of the code, yet in a Rails app the answer sits where
``rescue_from`` is written, in a Phoenix app in the ``action_fallback`` controller, in Express in the four-argument
error middleware; "where would I add logging?" points at the ``before_action`` filters and the middleware. The
answer stage matches those constructs on code lines (``codeqa.answer.explanation.constructs.mechanism``);
retrieval has no text, so it looks each construct's ``anchor`` identifier up in the word index (a commented-out
anchor counts too: this is a feature the ranker weighs, not proof). Frameworks and anchor files are found once per
loaded index.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np

from codeqa.frameworks.conventions import Construct, Convention, anchor_rows
from codeqa.frameworks.detection import detect
from codeqa.searchfiles.files import SearchFiles
from codeqa.tokens import code_tokens

DETECTION_ROWS = 200  # rows checked for an identifier's language when detecting a framework
BROAD = 30  # an anchor found in more files than this says less: its weight shrinks as BROAD / files
_LOCK = threading.Lock()


def _rows_holding(files: SearchFiles, word: str) -> np.ndarray:
    tokens = code_tokens(word)
    if not tokens:
        return np.zeros(0, dtype=np.int64)
    return np.flatnonzero(files.lexical.scores(tokens[:1]) > 0)


def index_conventions(files: SearchFiles) -> tuple[Convention, ...]:
    """The frameworks the index uses, most evident first (``common`` constructs always); cached per loaded index."""
    cached = getattr(files, "_conventions", None)
    if cached is None:
        languages = files.table.languages

        def holds(word: str, wanted: Sequence[str]) -> bool:
            rows = _rows_holding(files, word)[:DETECTION_ROWS]
            return any(not wanted or languages[row] in wanted for row in rows)

        cached = detect(sorted(set(files.table.paths)), holds, languages)
        files._conventions = cached  # type: ignore[attr-defined]
    return cached


def _anchor_files(files: SearchFiles, construct: Construct, languages: Sequence[str]) -> np.ndarray:
    """File numbers whose code holds the construct's anchor, in a file the construct applies to (cached)."""
    with _LOCK:
        cache = getattr(files, "_anchor_files", None)
        if cache is None:
            cache = files._anchor_files = {}  # type: ignore[attr-defined]
        if construct in cache:
            return cache[construct]
    table, row_file = files.table, files.files.row_file
    numbers = {
        int(row_file[row])
        for row in anchor_rows(construct.anchor, lambda word: _rows_holding(files, word).tolist())
        if (not languages or table.languages[row] in languages)
        and construct.applies_to(table.paths[row], table.languages[row])
    }
    found = np.asarray(sorted(numbers), dtype=np.int64)
    with _LOCK:
        cache[construct] = found
    return found


def construct_evidence(files: SearchFiles, topics: Sequence[str]) -> np.ndarray:
    """Per file: the weight of the strongest construct for the question's topics that the file's code holds (0 when
    the question has no such topic, or the index no framework construct for it), shrunk for an anchor that many
    files hold (``BROAD``). ``topics``: the question's intents."""
    out = np.zeros(len(files.files), dtype=np.float32)
    if not topics:
        return out
    for convention in index_conventions(files):
        for construct in convention.constructs:
            if not construct.anchor:
                continue
            weight = construct.weight_for(topics)
            if weight <= 0:
                continue
            numbers = _anchor_files(files, construct, convention.languages)
            if numbers.size:
                out[numbers] = np.maximum(out[numbers], weight * min(1.0, BROAD / numbers.size))
    return out
