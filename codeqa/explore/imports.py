"""The module graph a repository's imports make, at any depth of its folder tree.

The imports themselves are extracted at index time (``codeqa.chunk.tags``) and resolved to files by each
language's rules (``codeqa.chunk.resolve``); the index stores the result, and this module only groups files
into modules. ``import_graph`` runs both steps on texts in memory (the overview of chunks, tests).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath

from codeqa.chunk.resolve import resolve_imports
from codeqa.chunk.tags import tag_text

ROOT = "(root)"


@dataclass(frozen=True)
class DependencyEdge:
    source: str
    target: str
    imports: int  # file-level imports from source to target


@dataclass(frozen=True)
class DependencyGraph:
    depth: int
    modules: tuple[str, ...]
    lines: dict[str, int]  # module → lines of code
    edges: tuple[DependencyEdge, ...]


def import_graph(texts: Mapping[str, tuple[str, str]]) -> tuple[dict[str, tuple[str, ...]], Counter[str]]:
    """``{path: (language, text)}`` → (file → repository files it imports, external package → files using it)."""
    graph = resolve_imports(tag_text(path, language, text) for path, (language, text) in texts.items())
    return graph.files, Counter(graph.external)


def module_of(path: str, depth: int) -> str:
    """The module a file belongs to at ``depth`` path components (extension dropped; root files → ``(root)``)."""
    parts = str(PurePosixPath(path).with_suffix("")).split("/")
    if len(parts) == 1:
        return ROOT
    return "/".join(parts[:depth])


def auto_modules(
    imports: Mapping[str, tuple[str, ...]],
    lines: Mapping[str, int],
    *,
    share: float = 0.4,
    enough: int = 12,
    most: int = 24,
    cap: int = 60,
) -> tuple[str, ...]:
    """Folders that show how a repository's code hangs together, starting from the top-level folders:

    - a folder holding more than ``share`` of the importing code is split into its subfolders (``src/``,
      ``app/``, ``internal/``, ``apps/web/``), up to ``cap`` modules;
    - then, while there are fewer than ``enough`` modules, the biggest is split if that keeps them ≤ ``most``.

    Only files that import or are imported count (not locale data, fixtures, assets). A web app keeps nearly all
    its code under one folder, so top-level modules would hide every import inside it.
    """
    linked = set(imports) | {target for targets in imports.values() for target in targets}
    code = {path: lines.get(path, 1) for path in linked}
    total = sum(code.values()) or 1
    sizes: Counter[str] = Counter()
    for path, count in code.items():
        parts = path.split("/")[:-1]
        for end in range(1, len(parts) + 1):
            sizes["/".join(parts[:end])] += count
    children: dict[str, set[str]] = {}
    for folder in sizes:
        children.setdefault(folder.rpartition("/")[0], set()).add(folder)
    modules = set(children.get("", set()))
    while True:
        splittable = sorted((m for m in modules if children.get(m)), key=lambda m: (-sizes[m], m))
        if not splittable:
            break
        biggest = splittable[0]
        grown = len(modules) - 1 + len(children[biggest])
        dominant = sizes[biggest] > share * total and grown <= cap
        if not dominant and not (len(modules) < enough and grown <= most):
            break
        modules = (modules - {biggest}) | children[biggest]
        if sum(sizes[c] for c in children[biggest]) < sizes[biggest]:  # its own files stay in a module of that name
            modules.add(biggest + "/")
    return tuple(sorted(modules))


def _module_in(path: str, modules: tuple[str, ...]) -> str:
    """The deepest of ``modules`` holding ``path`` (``app/`` holds only the files directly in ``app``)."""
    folder = path.rpartition("/")[0]
    while folder:
        if folder in modules:
            return folder
        folder = folder.rpartition("/")[0]
    parent = path.rpartition("/")[0]
    return parent if parent + "/" in modules else (ROOT if "/" not in path else parent.split("/")[0])


def module_graph(
    imports: Mapping[str, tuple[str, ...]],
    lines: Mapping[str, int],
    depth: int = 1,
    *,
    modules: tuple[str, ...] | None = None,
) -> DependencyGraph:
    """Collapse file imports to modules (``depth`` path components, or the folders ``modules`` lists): edge
    weight = number of importing file→file pairs. ``depth`` is 0 in the result for ``modules``."""
    if depth < 1:
        raise ValueError("depth must be at least 1")
    group = (lambda path: _module_in(path, modules)) if modules is not None else (lambda p: module_of(p, depth))
    weights: Counter[tuple[str, str]] = Counter()
    for source, targets in imports.items():
        for target in targets:
            a, b = group(source), group(target)
            if a != b:
                weights[(a, b)] += 1
    module_lines: Counter[str] = Counter()
    for path, count in lines.items():
        module_lines[group(path)] += count
    edges = tuple(DependencyEdge(a, b, n) for (a, b), n in sorted(weights.items(), key=lambda kv: (-kv[1], kv[0])))
    ordered = tuple(sorted(module_lines, key=lambda m: (-module_lines[m], m)))
    return DependencyGraph(depth=0 if modules is not None else depth, modules=ordered, lines=dict(module_lines),
                           edges=edges)  # fmt: skip
