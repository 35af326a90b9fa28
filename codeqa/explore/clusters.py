"""Regions of the map and their names, like place names on a city map: subsystems, and areas inside them.

Points are grouped on the 2-D layout (k-means: what is close on the map is one place), at two nested levels:
*subsystems* (a handful, shown when the whole map is in view) and *areas* (each subsystem split in a few, shown
when zoomed in); the finest level, files, is named by the files themselves. A region's name is its dominant
folder — the deepest folder holding most of its chunks — plus its most telling words: the identifiers and file
names that are frequent in the region and rare in the others (TF-IDF against the rest of the repository).
Pure functions; deterministic for a seed.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from codeqa.symbols import IDENTIFIER, identifier_words
from codeqa.tokens import STOPWORDS

SUBSYSTEM, AREA = 0, 1
MIN_SHARE = 0.3  # a folder can name a region when it holds at least this share of the region's chunks
SOURCE_ROOTS = frozenset({"src", "app", "lib", "main", "java", "kotlin", "scala", "com", "org", "net", "pkg"})
TERMS = 3
GENERIC = frozenset(
    """
    test tests spec get set init new index main value data name type args kwargs obj item items list dict str int
    create update delete run handle php tsx jsx rb py go java html css scss json yaml yml md txt vue src lib app
    mixed root other default base abstract interface impl helper helpers util utils common core file files
    png jpg jpeg gif svg ico webp bmp pdf toml ini cfg env lock http https www com org net github gitlab
    """.split()  # noqa: SIM905 - a word list reads better as text
)
LINKS = re.compile(  # each alternative starts where a run of its characters starts: a long symbol is read once
    r"(?<![\w+.-])[A-Za-z][\w+.-]*://\S+|\]\([^)\s\]]*\)|(?<![\w.-])[\w.-]+\.(?:png|jpe?g|gif|svg|ico|webp)\b"
)
TOP_LEVEL = "top-level files"  # a region of files at the repository's root (README, package.json, tsconfig…)


@dataclass(frozen=True)
class Region:
    """A named place on the map: its level, members' centre, bounds (2nd-98th percentile box) and name."""

    level: int  # SUBSYSTEM or AREA
    id: int
    parent: int  # the subsystem an area lies in; -1 for a subsystem
    folder: str  # the dominant folder ("" when the region mixes several)
    place: str  # its short name, e.g. "forum" for flaskbb/forum
    terms: tuple[str, ...]  # the most telling words, best first
    size: int
    x: float
    y: float
    bounds: tuple[float, float, float, float]  # x0, x1, y0, y1

    @property
    def title(self) -> str:
        return self.place or (self.terms[0] if self.terms else "(mixed)")

    @property
    def label(self) -> str:
        words = [t for t in self.terms if t != self.title][:TERMS]
        return f"{self.title} · {', '.join(words)}" if words else self.title


def kmeans(points: np.ndarray, k: int, seed: int, iterations: int = 60) -> np.ndarray:
    """Cluster index per point (k-means++ start, Lloyd iterations); k is capped by the number of points."""
    n = len(points)
    k = max(1, min(k, n))
    rng = np.random.default_rng(seed)
    centres = [points[rng.integers(n)]]
    for _ in range(1, k):
        d2 = np.min(((points[:, None, :] - np.asarray(centres)[None]) ** 2).sum(-1), axis=1)
        total = float(d2.sum())
        centres.append(points[rng.choice(n, p=d2 / total)] if total > 0 else points[rng.integers(n)])
    centre = np.asarray(centres, dtype=np.float64)
    labels = np.zeros(n, dtype=np.int64)
    for _ in range(iterations):
        labels = np.argmin(((points[:, None, :] - centre[None]) ** 2).sum(-1), axis=1)
        moved = np.asarray([points[labels == c].mean(axis=0) if (labels == c).any() else centre[c] for c in range(k)])
        if np.allclose(moved, centre):
            break
        centre = moved
    return _renumber(labels)


def _renumber(labels: np.ndarray) -> np.ndarray:
    """Biggest cluster first (stable numbering for colours)."""
    order = [label for label, _ in Counter(labels.tolist()).most_common()]
    mapping = np.zeros(max(order) + 1, dtype=np.int64)
    mapping[order] = np.arange(len(order))
    return mapping[labels]


def subsystem_count(n: int) -> int:
    """About sqrt(n/25) subsystems (2 to 12): a handful of places for a small repository, a dozen for a big one."""
    return int(np.clip(round(math.sqrt(n / 25)), 2, 12)) if n >= 8 else 1


def _separation(points: np.ndarray, labels: np.ndarray) -> float:
    """Mean simplified silhouette: how much closer each point is to its own centre than to the next one."""
    centres = np.asarray([points[labels == c].mean(axis=0) for c in range(int(labels.max()) + 1)])
    distances = np.sqrt(((points[:, None, :] - centres[None]) ** 2).sum(-1))
    own = distances[np.arange(len(points)), labels]
    distances[np.arange(len(points)), labels] = np.inf
    other = distances.min(axis=1)
    return float(np.mean((other - own) / np.maximum(np.maximum(other, own), 1e-12)))


def choose_subsystems(points: np.ndarray, seed: int) -> int:
    """The count near ``subsystem_count`` that separates the map's islands best (judged on a sample)."""
    base = subsystem_count(len(points))
    if base < 2:
        return base
    sample = points[np.random.default_rng(seed).permutation(len(points))[:1500]]
    options = range(max(2, base - 2), min(12, base + 2, len(sample) - 1) + 1)
    scores = {k: _separation(sample, kmeans(sample, k, seed)) for k in options}
    return max(scores, key=lambda k: (round(scores[k], 2), -abs(k - base)))


def nested(coords: np.ndarray, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(subsystem per point, area per point): areas split each subsystem, so an area lies in one subsystem."""
    n = len(coords)
    if n == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    top = kmeans(coords, choose_subsystems(coords, seed), seed)
    areas = np.zeros(n, dtype=np.int64)
    next_id = 0
    for group in range(int(top.max()) + 1):
        members = np.flatnonzero(top == group)
        parts = int(np.clip(round(math.sqrt(len(members) / 40)), 1, 6))
        sub = kmeans(coords[members], parts, seed + group + 1) if parts > 1 else np.zeros(len(members), np.int64)
        areas[members] = sub + next_id
        next_id += int(sub.max()) + 1
    return top, areas


def words(path: str, symbol: str) -> list[str]:
    """Lower-case words of a chunk's symbol and file name (identifiers split at camelCase and snake_case)."""
    stem = path.rsplit("/", 1)[-1].lstrip(".").split(".")[0]  # ".env.example" → "env"
    found = []
    for identifier in IDENTIFIER.findall(f"{LINKS.sub(' ', symbol)} {stem}"):  # a heading's link or image is no name
        for word in identifier_words(identifier):
            if len(word) >= 3 and word not in STOPWORDS and word not in GENERIC and not word.isdigit():
                found.append(word)
    return found


def folder_counts(paths: Sequence[str]) -> Counter[str]:
    """Chunks under each folder (every ancestor counts)."""
    counts: Counter[str] = Counter()
    for path in paths:
        parts = path.split("/")[:-1]
        counts.update("/".join(parts[: i + 1]) for i in range(len(parts)))
    return counts


def dominant_folder(paths: Sequence[str], repository: Counter[str], total: int) -> str:
    """The folder that best names ``paths``: holding many of them and few of the rest of the repository.

    Score = share in the region × log(share in the region / share in the repository), over folders holding at
    least ``MIN_SHARE`` of the region; "" when none does (a region mixing many folders).
    """
    counts = folder_counts(paths)
    best, best_score = "", 0.0
    for folder, count in counts.items():
        share = count / len(paths)
        if share < MIN_SHARE:
            continue
        score = share * math.log(share / (repository[folder] / max(total, 1)))
        if score > best_score + 1e-9 or (abs(score - best_score) <= 1e-9 and folder.count("/") > best.count("/")):
            best, best_score = folder, score
    return best


def display_folder(folder: str, repository: Counter[str], total: int) -> str:
    """A short name for a folder: without the package that holds most of the repository, source-root noise
    (``src``, ``app``, ``lib``…) and all but the last two parts (a leading ``tests``/``docs`` is kept)."""
    parts = folder.split("/") if folder else []
    if len(parts) > 1 and repository[parts[0]] > 0.4 * total:
        parts = parts[1:]
    meaningful = [p for p in parts if p.lower() not in SOURCE_ROOTS] or parts[-1:]
    shown = meaningful[-2:]
    if meaningful and meaningful[0].lower() in ("tests", "test", "spec", "docs") and meaningful[0] not in shown:
        shown = [meaningful[0], *meaningful[-1:]]
    return "/".join(shown)


def _main_parts(paths: Sequence[str], folder: str) -> str:
    """ "auth + user": the (at most two) subfolders of ``folder`` holding most of ``paths``, when they are many."""
    depth = folder.count("/") + 1 if folder else 0
    inside = [path for path in paths if not folder or path.startswith(folder + "/")]
    below = Counter(path.split("/")[depth] for path in inside if path.count("/") > depth)
    top = [name for name, count in below.most_common(2) if count >= 0.15 * len(paths)]
    return " + ".join(top) if top and sum(below[name] for name in top) >= 0.4 * len(paths) else ""


def telling_terms(bags: Sequence[Counter[str]], exclude: Sequence[set[str]]) -> list[tuple[str, ...]]:
    """Per bag of words, the words frequent in it and rare in the other bags (tf × idf), best first."""
    df: Counter[str] = Counter()
    for bag in bags:
        df.update(bag.keys())
    result = []
    for bag, skip in zip(bags, exclude, strict=True):
        total = max(sum(bag.values()), 1)
        scored = sorted(
            ((count / total) * math.log((1 + len(bags)) / df[word]), word)
            for word, count in bag.items()
            if word not in skip and count >= 2
        )
        chosen: list[str] = []
        for _, word in reversed(scored):
            if not any(word.startswith(c[:5]) or c.startswith(word[:5]) for c in chosen):
                chosen.append(word)
            if len(chosen) == TERMS + 1:
                break
        result.append(tuple(chosen))
    return result


def _bounds(x: np.ndarray, y: np.ndarray) -> tuple[float, float, float, float]:
    (x0, x1), (y0, y1) = np.quantile(x, [0.02, 0.98]), np.quantile(y, [0.02, 0.98])
    return float(x0), float(x1), float(y0), float(y1)


def regions(
    coords: np.ndarray, paths: Sequence[str], symbols: Sequence[str], *, seed: int = 42
) -> tuple[np.ndarray, np.ndarray, list[Region]]:
    """(subsystem per point, area per point, every region named) for a layout and its chunks."""
    top, areas = nested(np.asarray(coords, dtype=np.float64), seed)
    chunk_words = [words(path, symbol) for path, symbol in zip(paths, symbols, strict=True)]
    repository = folder_counts(paths)
    found: list[Region] = []
    for level, assignment in ((SUBSYSTEM, top), (AREA, areas)):
        groups = [np.flatnonzero(assignment == g) for g in range(int(assignment.max()) + 1 if len(assignment) else 0)]
        folders = [dominant_folder([paths[i] for i in members], repository, len(paths)) for members in groups]
        bags = [Counter(w for i in members for w in chunk_words[i]) for members in groups]
        skip = [set(re.split(r"[/_.\-]", folder.lower())) for folder in folders]
        for g, (members, folder, terms) in enumerate(zip(groups, folders, telling_terms(bags, skip), strict=True)):
            x, y = coords[members, 0], coords[members, 1]
            parent = -1 if level == SUBSYSTEM else int(top[members[0]])
            centre = (float(np.median(x)), float(np.median(y)))
            place = display_folder(folder, repository, len(paths))
            vague = not folder or folder.rsplit("/", 1)[-1].lower() in SOURCE_ROOTS
            if vague or repository[folder] > 0.4 * len(paths):  # "app", or the package holding most code
                place = _main_parts([paths[i] for i in members], folder) or place
            if not folder and sum("/" not in paths[i] for i in members) >= 0.5 * len(members):
                place = TOP_LEVEL
            found.append(Region(level, g, parent, folder, place, terms, len(members), *centre, _bounds(x, y)))
    return top, areas, found


def remeasure(found: Sequence[Region], coords: np.ndarray, top: np.ndarray, areas: np.ndarray) -> list[Region]:
    """The same regions, names kept, with the size, centre and bounds of the members they have now (``top`` and
    ``areas`` per point); a region left with no member is gone. For a map that followed a small change: renaming
    would cost as much as the change, and a name that stays put is one the reader has already learnt."""
    kept: list[Region] = []
    for region in found:
        members = np.flatnonzero((top if region.level == SUBSYSTEM else areas) == region.id)
        if len(members) == 0:
            continue
        x, y = coords[members, 0], coords[members, 1]
        centre = (float(np.median(x)), float(np.median(y)))
        kept.append(replace(region, size=len(members), x=centre[0], y=centre[1], bounds=_bounds(x, y)))
    return kept
