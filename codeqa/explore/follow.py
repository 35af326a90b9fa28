"""The map follows an update: the chunks it did not touch keep their places, the new ones are placed among them.

An update changes a few files. Laying the whole map out again costs seconds on thousands of chunks, most of an
update's time, and moves every point the reader had learnt. So when the update handed the previous generation's map
forward (``Index.previous_path``), the new map keeps the position, subsystem and area of every chunk it still has,
puts each new chunk where its nearest unchanged neighbours in embedding space, its file and its folder are
(``layout.place``, ``layout.structure_pulls``: the pulls of the layout's own edges) and in the area whose centre is
nearest there (how k-means assigned the others), and re-measures the regions with their names kept
(``clusters.remeasure``). Removed chunks are gone: the map is row-aligned with the new chunk table.

When the layout is redone instead: once the chunks added or removed since it was computed (its *drift*, summed
over the updates since) pass ``FOLLOW_LIMIT`` of the map. A placed chunk moves nothing: the layout would have
pulled its neighbours towards it, and a new topic would have made a place of its own, where placement can only
put it between existing ones. At a few percent of the chunks that is invisible (the chunks sit among the
neighbours a layout gives them, and the regions are those a layout would find); past a tenth the map starts to
describe the code as it was. A full layout is also ten to a hundred times the cost of following, so redoing it
after about every tenth of the code has changed keeps updates cheap on average. Pure, no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from codeqa.explore.clusters import AREA, Region, remeasure
from codeqa.explore.layout import place, structure_pulls
from codeqa.explore.mapfile import Projection

FOLLOW_LIMIT = 0.10  # share of the map added or removed since its layout, past which the layout is redone


@dataclass(frozen=True)
class Followed:
    """The followed map's points (row-aligned with the new ids), their regions, and its drift."""

    coords: np.ndarray
    subsystems: np.ndarray
    areas: np.ndarray
    regions: tuple[Region, ...]
    drift: int
    placed: int  # how many points were placed (new or changed chunks)


def follow(
    previous: Projection, ids: Sequence[str], vectors: np.ndarray, paths: Sequence[str], *, seed: int = 42
) -> Followed | None:
    """``previous`` followed to the chunks ``ids`` (unit ``vectors`` and ``paths``, row-aligned, in the chunk
    table's order); None when the change is too large for that (see ``FOLLOW_LIMIT``): lay the map out again."""
    where = {chunk_id: row for row, chunk_id in enumerate(previous.ids)}
    old = np.asarray([where.get(chunk_id, -1) for chunk_id in ids], dtype=np.int64)
    kept = old >= 0
    added, removed = int((~kept).sum()), len(previous) - int(kept.sum())
    drift = previous.drift + added + removed
    areas_before = previous.level(AREA)
    if not kept.any() or not areas_before or drift > FOLLOW_LIMIT * max(len(ids), len(previous)):
        return None
    coords = np.zeros((len(ids), 2), dtype=np.float32)
    coords[kept] = np.stack([previous.x, previous.y], axis=1)[old[kept]]
    subsystems = np.zeros(len(ids), dtype=np.int32)
    areas = np.zeros(len(ids), dtype=np.int32)
    subsystems[kept], areas[kept] = previous.subsystems[old[kept]], previous.areas[old[kept]]
    new = np.flatnonzero(~kept)
    if len(new):
        vectors = np.asarray(vectors, dtype=np.float32)
        pulls = structure_pulls(paths, kept, coords)
        coords[new] = place(vectors[kept], coords[kept], vectors[new], pulls=pulls, seed=seed)
        centres = np.asarray([[region.x, region.y] for region in areas_before])
        nearest = np.argmin(((coords[new, None, :] - centres[None]) ** 2).sum(axis=-1), axis=1)
        areas[new] = [areas_before[i].id for i in nearest]
        subsystems[new] = [areas_before[i].parent for i in nearest]
    regions = remeasure(previous.regions, coords, subsystems, areas)
    return Followed(coords, subsystems, areas, tuple(regions), drift, len(new))
