"""Per-file signals the ranker's features are made of: aggregates of chunk signals, name and path matches, the
symbol graph, documentation that names code, and a file's language and place in the repository. Each returns one
value per file (numbered as in ``SearchFiles.files``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence

import numpy as np
from scipy import sparse

from codeqa.languages import CONFIG_LANGUAGES, DOC_LANGUAGES, MARKUP_LANGUAGES
from codeqa.retrieve.doc_refs import doc_references
from codeqa.retrieve.query import same_file
from codeqa.retrieve.roles import Role, roles_from_evidence
from codeqa.store.lexical import path_tokens
from codeqa.store.searchfiles import SearchFiles

NOT_CODE = frozenset((*DOC_LANGUAGES, *CONFIG_LANGUAGES, *MARKUP_LANGUAGES))
GRAPH_SEEDS = 10
GRAPH_ITERATIONS = 4  # the best hits' neighbourhood up to four hops: what the feature needs, at a fifth of the cost


def per_file_max(files: SearchFiles, values: np.ndarray, floor: float) -> np.ndarray:
    return files.files.per_file_max(values, floor)


def per_file_count(files: SearchFiles, rows: list[int]) -> np.ndarray:
    out = np.zeros(len(files.files), dtype=np.float32)
    if rows:
        np.add.at(out, files.files.row_file[np.asarray(rows)], 1.0)
    return out


def symbol_and_mention(
    files: SearchFiles, names: Iterable[str], file_names: Iterable[str]
) -> tuple[np.ndarray, np.ndarray]:
    """Per file: names it defines that the question mentions (rarer names weigh more), and file-name mentions."""
    index = files.files
    symbol = np.zeros(len(index), dtype=np.float32)
    for name in sorted(names):
        rows = files.definers.get(name, ())
        defining = {int(index.row_file[row]) for row in rows}
        if not defining or len(defining) > 20:
            continue
        weight = (1.0 + (0.5 if "." in name else 0.0)) / len(defining)
        for number in defining:
            symbol[number] += weight
    mention = np.zeros(len(index), dtype=np.float32)
    for mentioned in file_names:
        for row in files.rows_by_basename.get(mentioned.rsplit("/", 1)[-1], ()):
            if same_file(files.table.paths[row], mentioned):
                mention[index.row_file[row]] = 1.0
    return symbol, mention


def module_paths(files: SearchFiles, qualified: Sequence[Sequence[str]]) -> np.ndarray:
    """Per file: the question names its module by a qualified name whose parts end the file's path, case, ``_``
    and ``-`` aside (``Commands.Aregister`` → ``…/Commands/Aregister.hs``, ``Oban.TeamClient`` →
    ``lib/oban/team_client.ex``, ``Mix.Tasks.Absinthe.Schema`` → ``lib/mix/tasks/absinthe.schema.ex``); the last part
    may be a member of that module (``Register.postingsReport``). At least two parts must match; a name that fits
    several files is shared among them. Code files only."""
    out = np.zeros(len(files.files), dtype=np.float32)
    if not qualified:
        return out
    parts_of, by_tail = _module_parts(files)
    for parts in qualified:
        wanted = tuple(_module_word(part) for part in parts)
        for length in (len(wanted), len(wanted) - 1):
            if length < 2:
                break
            tail = wanted[:length]
            matches = [n for n in by_tail.get(tail[-2:], ()) if parts_of[n][-length:] == tail]
            if matches:
                for number in matches:
                    out[number] = max(out[number], 1.0 / len(matches))
                break
    return out


def _module_word(part: str) -> str:
    return part.replace("_", "").replace("-", "").lower()


def _module_parts(files: SearchFiles) -> tuple[list[tuple[str, ...]], dict[tuple[str, ...], list[int]]]:
    """Each code file's path as module words (folders and the dotted stem), and the files by their last two words;
    computed once per loaded index."""
    cached = getattr(files, "_module_parts", None)
    if cached is None:
        parts_of: list[tuple[str, ...]] = []
        by_tail: dict[tuple[str, ...], list[int]] = {}
        for number, path in enumerate(files.files.paths):
            words = tuple(_module_word(w) for w in re.split(r"[/.]", re.sub(r"\.[A-Za-z0-9]+$", "", path)) if w)
            parts_of.append(words)
            if len(words) >= 2 and file_language(files, number) not in NOT_CODE:
                by_tail.setdefault((words[-2], words[-1]), []).append(number)
        cached = (parts_of, by_tail)
        files._module_parts = cached  # type: ignore[attr-defined]
    return cached


def file_language(files: SearchFiles, number: int) -> str:
    return files.table.languages[int(files.files.first_row[number])]


def main_language(files: SearchFiles) -> str:
    """The repository's main programming language (most chunks, docs and config aside); cached."""
    cached = getattr(files, "_main_language", None)
    if cached is None:
        counts = Counter(
            language
            for language in files.table.languages
            if language not in DOC_LANGUAGES and language not in CONFIG_LANGUAGES and language not in MARKUP_LANGUAGES
        )
        cached = counts.most_common(1)[0][0] if counts else ""
        files._main_language = cached  # type: ignore[attr-defined]
    return cached


def graph_spread(files: SearchFiles, fused: dict[int, float]) -> np.ndarray:
    """Per file: personalized PageRank mass spread from the best chunks along uses and definitions (seeds excluded)."""
    index = files.files
    out = np.zeros(len(index), dtype=np.float32)
    if not fused:
        return out
    seeds = dict(sorted(fused.items(), key=lambda kv: (-kv[1], kv[0]))[:GRAPH_SEEDS])
    spread = files.graph.personalized_pagerank(seeds, iterations=GRAPH_ITERATIONS)
    spread[list(seeds)] = 0.0
    np.add.at(out, index.row_file, spread)
    return out


def doc_bridge(files: SearchFiles, doc_texts: list[str]) -> np.ndarray:
    """Files defining the names that the best-matching documentation mentions (rarer names weigh more), and the files
    its directives, roles, code references and paths point at (``doc_refs``; one vote per page, shared among the
    files a pointer fits)."""
    index = files.files
    bridge = np.zeros(len(index), dtype=np.float32)
    for text in doc_texts:
        references = doc_references(text)
        for name in sorted(references.names):
            defining = {int(index.row_file[row]) for row in files.definers.get(name, ())}
            if 0 < len(defining) <= 5:
                for number in defining:
                    bridge[number] += 1.0 / len(defining)
        pointed: dict[int, float] = {}
        for parts in references.targets:
            for number, share in _pointed_files(files, parts).items():
                pointed[number] = max(pointed.get(number, 0.0), share)
        for mentioned in sorted(references.files):
            for row in files.rows_by_basename.get(mentioned.rsplit("/", 1)[-1], ()):
                if same_file(files.table.paths[row], mentioned):
                    pointed[int(index.row_file[row])] = 1.0
        for number, share in pointed.items():
            bridge[number] += share
    return bridge


def _pointed_files(files: SearchFiles, parts: tuple[str, ...]) -> dict[int, float]:
    """The code files a documentation pointer names: by its module path (``pkg.mod.Cls`` → ``pkg/mod.py``, a package
    ``pkg.sub`` → ``pkg/sub/__init__.py``), else the few files defining its last part."""
    for path_parts in (parts, (*parts, "__init__")) if len(parts) >= 2 else ():
        by_path = module_paths(files, [path_parts])
        numbers = np.flatnonzero(by_path > 0)
        if numbers.size:
            return {int(n): float(by_path[n]) for n in numbers}
    defining = {int(files.files.row_file[row]) for row in files.definers.get(parts[-1].lower(), ())}
    defining = {n for n in defining if file_language(files, n) not in NOT_CODE}
    if 0 < len(defining) <= 5:
        return dict.fromkeys(defining, 1.0 / len(defining))
    return {}


def path_overlap(files: SearchFiles, numbers: Sequence[int], query_tokens: Iterable[str]) -> np.ndarray:
    """Share of a path's words (directories and file stem) that the question uses."""
    wanted = set(query_tokens)
    words = _path_words(files)
    out = np.zeros(len(numbers), dtype=np.float32)
    for i, number in enumerate(numbers):
        if words[number]:
            out[i] = len(words[number] & wanted) / len(words[number])
    return out


def _path_words(files: SearchFiles) -> list[frozenset[str]]:
    """Each file's path words (tokenized once per loaded index)."""
    cached = getattr(files, "_path_words", None)
    if cached is None:
        cached = [frozenset(path_tokens(re.sub(r"\.[A-Za-z0-9]+$", "", path))) for path in files.files.paths]
        files._path_words = cached  # type: ignore[attr-defined]
    return cached


def file_links(files: SearchFiles) -> sparse.csr_matrix:
    """File-to-file uses: ``[a, b] > 0`` when a chunk of file ``a`` uses a name a chunk of ``b`` defines; cached."""
    cached = getattr(files, "_file_links", None)
    if cached is None:
        index = files.files
        rows = len(index.row_file)
        owner = sparse.csr_matrix(
            (np.ones(rows, dtype=np.float32), (np.arange(rows), index.row_file)), shape=(rows, len(index))
        )
        cached = (owner.T @ files.graph.matrix @ owner).tocsr()
        files._file_links = cached  # type: ignore[attr-defined]
    return cached


def file_users(files: SearchFiles) -> sparse.csr_matrix:
    """``file_links`` transposed (row ``b``: the files that use ``b``); cached."""
    cached = getattr(files, "_file_users", None)
    if cached is None:
        cached = file_links(files).T.tocsr()
        files._file_users = cached  # type: ignore[attr-defined]
    return cached


def file_roles(files: SearchFiles) -> list[Role]:
    """Each file's role, from its path and whether source code uses it (computed once per loaded index)."""
    cached = getattr(files, "_roles", None)
    if cached is None:
        code = [file_language(files, n) not in NOT_CODE for n in range(len(files.files))]
        cached = roles_from_evidence(files.files.paths, code, file_links(files))
        files._roles = cached  # type: ignore[attr-defined]
    return cached


def is_init(path: str) -> float:
    name = path.rsplit("/", 1)[-1]
    return float(name in ("__init__.py", "index.js", "index.ts", "index.tsx", "mod.rs", "main.go", "lib.rs"))


def centrality(files: SearchFiles) -> np.ndarray:
    """How much the rest of the code uses each file (symbol-graph in-degree, log-scaled to 0..1); cached."""
    cached = getattr(files, "_centrality", None)
    if cached is not None:
        return cached
    index = files.files
    used_by = np.asarray(files.graph.matrix.sum(axis=0)).ravel().astype(np.float32)
    per_file = np.zeros(len(index), dtype=np.float32)
    np.add.at(per_file, index.row_file, used_by)
    per_file = np.log1p(per_file)
    per_file = per_file / per_file.max() if per_file.max() > 0 else per_file
    files._centrality = per_file  # type: ignore[attr-defined]
    return per_file
