"""A 2-D layout of chunks in plain numpy: UMAP's neighbour graph and forces, plus the repository's structure.

Why not the ``umap-learn`` package: its numba JIT costs 40-120 s in the first process on two busy cores (see
``bench/README.md``), before any work is done. The same method in vectorised numpy needs no compile:

1. reduce the normalized embeddings to ``REDUCED_DIMENSIONS`` with PCA and find each chunk's exact ``k`` nearest
   neighbours (blocked matrix products);
2. weight those edges like UMAP's fuzzy simplicial set (each point's distance scale found by bisection) and
   symmetrize;
3. add *structure edges*: consecutive chunks of a file, and a few random pairs within each folder, so a folder
   stays one place on the map (the map is read like a city: districts are folders, streets are files);
4. start from the PCA plane and run UMAP's attractive/repulsive updates epoch by epoch (all edges of an epoch at
   once, each node's step clipped);
5. centre on the median and scale the bulk (2nd-98th percentile) to the unit square; outliers are pulled in with a
   soft clip, so a few stray points never squeeze the map into a corner.

``place`` puts new chunks on an existing layout (an update's few changed chunks) without moving the others.
Deterministic for a given seed. Pure functions, no I/O. ``umap_layout`` runs the reference implementation
(umap-learn) on the same reduced vectors, for users who choose it (``CODEQA_MAP_LAYOUT=umap``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

import numpy as np

REDUCED_DIMENSIONS = 64
NEIGHBOURS = 15
NEGATIVE_SAMPLES = 5
FILE_WEIGHT = 1.0  # consecutive chunks of one file: as strong as a chunk's closest semantic neighbour
FOLDER_WEIGHT = 0.6  # random pairs within a folder: enough to make folders districts, not islands
FOLDER_PAIRS = 3
# A new chunk's place on an existing map (``place``): its 8 nearest chunks (fuzzy weights summing to log2(8) = 3),
# its file's neighbours (2 each) and its folder's centre (2). Chosen by placing 300 chunks held out of a laid-out
# 4,470-chunk map: mean distance to where the layout had them 0.079 with neighbours alone, 0.036 with the structure
# (p90 0.20 → 0.077; the map is about 2 wide). Weights from 1 to 3 all gave 0.036-0.047.
PLACE_NEIGHBOURS = 8
PLACE_FILE_WEIGHT = 2.0
PLACE_FOLDER_WEIGHT = 2.0
PLACE_JITTER = 0.004  # of a map scaled to about [-1, 1]: a point's width on screen, no more
_A, _B = 1.577, 0.895  # UMAP's curve for min_dist=0.1, spread=1


def principal_axes(vectors: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray]:
    """(mean, the ``count`` leading principal axes as rows): an eigendecomposition of the d × d covariance,
    much cheaper than an SVD of the n × d data when n is large."""
    vectors = np.asarray(vectors, dtype=np.float32)
    mean = vectors.mean(axis=0) if len(vectors) else np.zeros(vectors.shape[1], dtype=np.float32)
    centred = vectors - mean
    _, axes = np.linalg.eigh((centred.T @ centred).astype(np.float64))
    top = axes[:, ::-1][:, : min(count, vectors.shape[1])].T
    signs = np.sign(top[np.arange(len(top)), np.abs(top).argmax(axis=1)])  # deterministic orientation
    return mean.astype(np.float32), (top * signs[:, None]).astype(np.float32)


def reduce(vectors: np.ndarray, dimensions: int = REDUCED_DIMENSIONS) -> np.ndarray:
    """PCA to ``dimensions`` (re-normalized), which keeps neighbourhoods and makes the k-NN search cheap."""
    vectors = np.asarray(vectors, dtype=np.float32)
    if vectors.shape[1] <= dimensions or len(vectors) <= dimensions:
        reduced = vectors
    else:
        mean, axes = principal_axes(vectors, dimensions)
        reduced = (vectors - mean) @ axes.T
    norms = np.linalg.norm(reduced, axis=1, keepdims=True)
    return (reduced / np.where(norms > 0, norms, 1)).astype(np.float32)


def nearest(vectors: np.ndarray, k: int, block: int = 2048) -> tuple[np.ndarray, np.ndarray]:
    """Exact ``k`` nearest neighbours by euclidean distance of unit vectors: (indices, distances), n × k."""
    n = len(vectors)
    k = max(1, min(k, n - 1))
    indices = np.empty((n, k), dtype=np.int64)
    distances = np.empty((n, k), dtype=np.float32)
    for start in range(0, n, block):
        similarity = vectors[start : start + block] @ vectors.T
        rows = np.arange(similarity.shape[0])
        similarity[rows, start + rows] = -np.inf
        best = np.argpartition(similarity, n - k, axis=1)[:, n - k :]
        best_sim = np.take_along_axis(similarity, best, axis=1)
        order = np.argsort(-best_sim, axis=1, kind="stable")
        indices[start : start + block] = np.take_along_axis(best, order, axis=1)
        sims = np.take_along_axis(best_sim, order, axis=1)
        distances[start : start + block] = np.sqrt(np.clip(2.0 - 2.0 * sims, 0.0, None))
    return indices, distances


def fuzzy_weights(distances: np.ndarray) -> np.ndarray:
    """UMAP's membership strengths: exp(-(d - rho) / sigma) with sigma chosen so each row sums to log2(k)."""
    k = distances.shape[1]
    rho = distances[:, :1]
    shifted = np.maximum(distances - rho, 0.0)
    target = np.log2(max(k, 2))
    low = np.zeros((len(distances), 1))
    high = np.full((len(distances), 1), np.inf)
    sigma = np.ones((len(distances), 1))
    for _ in range(48):
        total = np.exp(-shifted / sigma).sum(axis=1, keepdims=True)
        too_big = total > target
        high = np.where(too_big, sigma, high)
        low = np.where(too_big, low, sigma)
        sigma = np.where(np.isinf(high), sigma * 2, (low + high) / 2)
    mean_distance = max(float(distances.mean()), 1e-6)
    sigma = np.maximum(sigma, 1e-3 * mean_distance)
    return np.exp(-shifted / sigma).astype(np.float32)


def structure_edges(paths: Sequence[str], seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(heads, tails, weights): consecutive chunks of each file, and a few random partners in each folder."""
    rng = np.random.default_rng(seed)
    heads: list[int] = []
    tails: list[int] = []
    weights: list[float] = []
    folders: dict[str, list[int]] = defaultdict(list)
    for i, path in enumerate(paths):
        if i and paths[i - 1] == path:
            heads.append(i - 1)
            tails.append(i)
            weights.append(FILE_WEIGHT)
        folders[path.rpartition("/")[0]].append(i)
    for members in folders.values():
        if len(members) < 2:
            continue
        ids = np.asarray(members)
        for _ in range(FOLDER_PAIRS):
            partners = rng.permutation(ids)
            keep = partners != ids
            heads.extend(ids[keep].tolist())
            tails.extend(partners[keep].tolist())
            weights.extend([FOLDER_WEIGHT] * int(keep.sum()))
    return np.asarray(heads, dtype=np.int64), np.asarray(tails, dtype=np.int64), np.asarray(weights, np.float32)


def graph(vectors: np.ndarray, paths: Sequence[str], seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The weighted, symmetric edge list the layout pulls along: semantic neighbours plus structure."""
    from scipy.sparse import coo_matrix

    n = len(vectors)
    indices, distances = nearest(reduce(vectors), NEIGHBOURS)
    weights = fuzzy_weights(distances)
    rows = np.repeat(np.arange(n), indices.shape[1])
    knn = coo_matrix((weights.ravel(), (rows, indices.ravel())), shape=(n, n)).tocsr()
    knn = knn + knn.T - knn.multiply(knn.T)  # fuzzy union: a ∨ b = a + b - ab
    heads, tails, extra = structure_edges(paths, seed)
    if len(heads):
        structure = coo_matrix((extra, (heads, tails)), shape=(n, n)).tocsr()
        knn = knn.maximum(structure.maximum(structure.T))
    knn = knn.tocoo()
    keep = knn.row < knn.col  # one entry per undirected edge: both ends move
    return knn.row[keep].astype(np.int64), knn.col[keep].astype(np.int64), knn.data[keep].astype(np.float32)


def optimize(
    start: np.ndarray, heads: np.ndarray, tails: np.ndarray, weights: np.ndarray, *, epochs: int, seed: int
) -> np.ndarray:
    """UMAP's forces, one epoch at a time: each edge attracts with probability ∝ its weight, negatives repel."""
    rng = np.random.default_rng(seed)
    y = start.astype(np.float64).copy()
    n = len(y)
    probability = weights / max(float(weights.max()), 1e-12) if len(weights) else weights
    for epoch in range(epochs):
        alpha = 1.0 - epoch / epochs
        chosen = rng.random(len(heads)) < probability
        h, t = heads[chosen], tails[chosen]
        delta = y[h] - y[t]
        d2 = (delta**2).sum(axis=1, keepdims=True)
        coeff = np.where(d2 > 0, -2 * _A * _B * d2 ** (_B - 1) / (_A * d2**_B + 1), 0.0)
        pull = np.clip(coeff * delta, -4, 4) * alpha
        step = np.zeros_like(y)
        for axis in (0, 1):
            step[:, axis] += np.bincount(h, pull[:, axis], minlength=n) - np.bincount(t, pull[:, axis], minlength=n)
        ends = np.concatenate([h, t])
        others = rng.integers(0, n, size=(len(ends), NEGATIVE_SAMPLES)).ravel()
        own = np.repeat(ends, NEGATIVE_SAMPLES)
        delta = y[own] - y[others]
        d2 = (delta**2).sum(axis=1, keepdims=True)
        coeff = 2 * _B / ((0.001 + d2) * (_A * d2**_B + 1))
        push = np.where(d2 > 0, np.clip(coeff * delta, -4, 4), 4.0) * alpha
        push[own == others] = 0.0
        for axis in (0, 1):
            step[:, axis] += np.bincount(own, push[:, axis], minlength=n)
        length = np.linalg.norm(step, axis=1, keepdims=True)
        y += step * np.minimum(1.0, 4 * alpha / np.maximum(length, 1e-12))  # no node jumps across the map
    return y.astype(np.float32)


def normalize(coords: np.ndarray, *, bulk: float = 0.98, margin: float = 0.12) -> np.ndarray:
    """The central ``bulk`` of each axis in [-1, 1]; points outside are squeezed into ``margin``."""
    if len(coords) == 0:
        return coords.astype(np.float32)
    low, high = np.quantile(coords, [(1 - bulk) / 2, (1 + bulk) / 2], axis=0)
    half = np.maximum((high - low) / 2, 1e-9)
    scaled = (coords - (low + high) / 2) / half.max()  # one scale for both axes: distances stay comparable
    radius = np.abs(scaled)
    squeezed = np.where(radius > 1, 1 + margin * np.tanh((radius - 1) / margin), radius)
    return (np.sign(scaled) * squeezed).astype(np.float32)


def _pca_plane(vectors: np.ndarray, seed: int) -> np.ndarray:
    """The first two principal components, scaled to a 10-unit spread (UMAP's starting size), plus a little noise."""
    mean, axes = principal_axes(vectors, 2)
    plane = (np.asarray(vectors, dtype=np.float32) - mean) @ axes.T
    plane = plane / max(float(np.abs(plane).max()), 1e-9) * 10.0
    return plane + np.random.default_rng(seed).normal(scale=1e-3, size=plane.shape)


def layout(vectors: np.ndarray, paths: Sequence[str], *, seed: int = 42, epochs: int | None = None) -> np.ndarray:
    """The map positions (n × 2, roughly in [-1.1, 1.1]) of row-aligned ``vectors`` and their ``paths``."""
    n = len(vectors)
    if n < 3:
        return np.zeros((n, 2), dtype=np.float32)
    heads, tails, weights = graph(vectors, paths, seed)
    start = _pca_plane(vectors, seed)
    epochs = epochs or (200 if n <= 10_000 else 120)
    return normalize(optimize(start, heads, tails, weights, epochs=epochs, seed=seed))


def umap_layout(vectors: np.ndarray, *, seed: int = 42) -> np.ndarray:
    """The same picture by umap-learn itself (slower to start: numba compiles on first use), scaled like ``layout``."""
    import umap  # imported here: its first import compiles for seconds

    reduced = reduce(np.asarray(vectors, dtype=np.float32))
    reducer = umap.UMAP(
        n_components=2,
        n_neighbors=min(NEIGHBOURS, len(reduced) - 1),
        min_dist=0.1,
        metric="euclidean",  # normalized, PCA-reduced vectors: orders pairs like cosine, without another compile
        init="pca",
        random_state=seed,  # reproducible (umap then runs single-threaded)
        n_jobs=1,
    )
    return normalize(np.asarray(reducer.fit_transform(reduced), dtype=np.float32))


def structure_pulls(paths: Sequence[str], known: np.ndarray, coords: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each row not ``known``: where ``layout``'s structure edges would pull it on a map where the known rows
    sit at ``coords`` (row-aligned). (points, weights), each row three pulls: the nearest known chunks before and
    after it in its file (a file's rows are consecutive, as in the chunk table), and its folder's known centre."""
    new = np.flatnonzero(~known)
    points, weights = np.zeros((len(new), 3, 2)), np.zeros((len(new), 3))
    folder_of = [path.rpartition("/")[0] for path in paths]
    wanted = {folder_of[i] for i in new}
    members: dict[str, list[int]] = defaultdict(list)
    for i in np.flatnonzero(known).tolist():
        if folder_of[i] in wanted:
            members[folder_of[i]].append(i)
    for j, i in enumerate(new.tolist()):
        for slot, step in ((0, -1), (1, 1)):
            row = i + step
            while 0 <= row < len(paths) and paths[row] == paths[i] and not known[row]:
                row += step
            if 0 <= row < len(paths) and paths[row] == paths[i]:
                points[j, slot], weights[j, slot] = coords[row], PLACE_FILE_WEIGHT
        if members.get(folder_of[i]):
            points[j, 2], weights[j, 2] = coords[members[folder_of[i]]].mean(axis=0), PLACE_FOLDER_WEIGHT
    return points, weights


def place(
    anchors: np.ndarray,
    anchor_coords: np.ndarray,
    vectors: np.ndarray,
    *,
    pulls: tuple[np.ndarray, np.ndarray] | None = None,
    seed: int = 42,
) -> np.ndarray:
    """Positions for new ``vectors`` on an existing map, whose ``anchors`` (unit vectors) sit at ``anchor_coords``.

    What UMAP's ``transform`` starts from, without a fitted model on disk: each new point goes to the weighted mean
    of its ``PLACE_NEIGHBOURS`` nearest anchors in embedding space (UMAP's membership strengths: the closest
    dominate) and of its ``pulls`` (``structure_pulls``: its file's and folder's places, as the layout's structure
    edges would pull it), plus a little jitter so two near-identical chunks do not hide each other. It moves no
    anchor: fine for a few new points, which is when it is used (``follow.py``).
    """
    vectors = np.asarray(vectors, dtype=np.float32)
    if len(vectors) == 0 or len(anchors) == 0:
        return np.zeros((len(vectors), 2), dtype=np.float32)
    k = min(PLACE_NEIGHBOURS, len(anchors))
    similarity = vectors @ np.asarray(anchors, dtype=np.float32).T
    best = np.argpartition(-similarity, k - 1, axis=1)[:, :k]
    sims = np.take_along_axis(similarity, best, axis=1)
    order = np.argsort(-sims, axis=1, kind="stable")
    best, sims = np.take_along_axis(best, order, axis=1), np.take_along_axis(sims, order, axis=1)
    weights = fuzzy_weights(np.sqrt(np.clip(2.0 - 2.0 * sims, 0.0, None))).astype(np.float64)
    points = np.asarray(anchor_coords, dtype=np.float64)[best]
    if pulls is not None:
        points, weights = np.concatenate([points, pulls[0]], axis=1), np.concatenate([weights, pulls[1]], axis=1)
    coords = (weights[:, :, None] * points).sum(axis=1) / weights.sum(axis=1, keepdims=True)
    jitter = np.random.default_rng(seed).normal(scale=PLACE_JITTER, size=coords.shape)
    return (coords + jitter).astype(np.float32)
