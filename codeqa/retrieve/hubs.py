"""Hubs judged by evidence: a file that defines nothing of its own and only gathers names other files define (a
package ``__init__.py`` that re-exports, a barrel ``index.ts``, a ``mod.rs`` of ``pub use``) holds every word of the
names it re-exports, so the word signals like it as much as the module that implements them. When such a hub leads
every file it takes names from among the best files, it moves to just after the first of them: the module that
defines the names comes first. A hub that defines something itself (a central application object) is judged by the
rankers as before.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from codeqa.retrieve.file_signals import NOT_CODE, file_language, file_links
from codeqa.store.searchfiles import SearchFiles

HUB_DEPTH = 10  # the files among which a hub gives way to the modules it re-exports


def defined_counts(files: SearchFiles) -> np.ndarray:
    """Per file: how many distinct names its chunks define; cached per loaded index."""
    cached = getattr(files, "_defined_counts", None)
    if cached is None:
        row_file = files.files.row_file
        cached = np.zeros(len(files.files), dtype=np.int64)
        for rows in files.definers.values():
            for number in {int(row_file[row]) for row in rows}:
                cached[number] += 1
        files._defined_counts = cached  # type: ignore[attr-defined]
    return cached


def reexport_hubs(files: SearchFiles) -> np.ndarray:
    """Per file: code that defines no name and uses names other files define (re-exports); cached."""
    cached = getattr(files, "_reexport_hubs", None)
    if cached is None:
        links = file_links(files)
        uses_others = np.asarray([links.indptr[n + 1] - links.indptr[n] > 0 for n in range(len(files.files))])
        for number in np.flatnonzero(uses_others):  # a file's use of its own names is no re-export
            targets = links.indices[links.indptr[number] : links.indptr[number + 1]]
            uses_others[number] = bool((targets != number).any())
        code = np.asarray([file_language(files, n) not in NOT_CODE for n in range(len(files.files))])
        cached = code & uses_others & (defined_counts(files) == 0)
        files._reexport_hubs = cached  # type: ignore[attr-defined]
    return cached


def definers_before_hubs(files: SearchFiles, numbers: Sequence[int]) -> list[int]:
    """A new order (positions into ``numbers``, file numbers best first) in which a re-export hub among the first
    ``HUB_DEPTH`` files that leads every file it takes names from comes just after the first of them."""
    order = list(range(len(numbers)))
    hubs = reexport_hubs(files)
    depth = min(HUB_DEPTH, len(numbers))
    if not any(hubs[int(numbers[p])] for p in order[:depth]):
        return order
    links = file_links(files)
    for position in range(depth):
        number = int(numbers[position])
        if not hubs[number]:
            continue
        sources = set(links.indices[links.indptr[number] : links.indptr[number + 1]].tolist()) - {number}
        at = order.index(position)
        if any(int(numbers[order[i]]) in sources for i in range(at)):
            continue  # a module it takes names from already leads it
        below = [i for i in range(at + 1, depth) if int(numbers[order[i]]) in sources]
        if below:
            order.insert(below[0], order.pop(at))
    return order
