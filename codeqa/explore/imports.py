"""Which repository files each file imports, per language, and the module graph those imports make.

Resolution follows each language's own rules (``codeqa.explore.importers``: Python package roots, JS/TS index
files and tsconfig aliases, Ruby's load path and Rails autoloading, Go module paths, Java/Kotlin packages, PHP's
PSR-4), and a file is only ever resolved against files of its own language family (a Python ``import json`` never
lands on a ``json.tsx``). What does not resolve is an external package, listed separately (standard libraries
are left out).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath

from codeqa.explore.importers import FAMILIES, IMPORTERS, Project

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


def file_imports(path: str, language: str, text: str, project: Project) -> tuple[set[str], set[str]]:
    """(repository files imported by ``path``, external packages it uses) — empty for languages without rules."""
    resolved: set[str] = set()
    external: set[str] = set()
    family = FAMILIES.get(language)
    if family is None:
        return resolved, external
    own_family = project.family_files(family)
    for found, name in IMPORTERS[family](path, text, project):
        resolved.update(found & own_family)
        if not found and name:
            external.add(name)
    resolved.discard(path)
    return resolved, external


def import_graph(texts: Mapping[str, tuple[str, str]]) -> tuple[dict[str, tuple[str, ...]], Counter[str]]:
    """``{path: (language, text)}`` → (file → repository files it imports, external package → files using it)."""
    project = Project(texts)
    imports: dict[str, tuple[str, ...]] = {}
    external: Counter[str] = Counter()
    for path, (language, text) in texts.items():
        resolved, names = file_imports(path, language, text, project)
        if resolved:
            imports[path] = tuple(sorted(resolved))
        external.update(names)
    return imports, external


def module_of(path: str, depth: int) -> str:
    """The module a file belongs to at ``depth`` path components (extension dropped; root files → ``(root)``)."""
    parts = str(PurePosixPath(path).with_suffix("")).split("/")
    if len(parts) == 1:
        return ROOT
    return "/".join(parts[:depth])


def module_graph(imports: dict[str, tuple[str, ...]], lines: dict[str, int], depth: int = 1) -> DependencyGraph:
    """Collapse file imports to modules at ``depth``: edge weight = number of importing file→file pairs."""
    if depth < 1:
        raise ValueError("depth must be at least 1")
    weights: Counter[tuple[str, str]] = Counter()
    for source, targets in imports.items():
        for target in targets:
            a, b = module_of(source, depth), module_of(target, depth)
            if a != b:
                weights[(a, b)] += 1
    module_lines: Counter[str] = Counter()
    for path, count in lines.items():
        module_lines[module_of(path, depth)] += count
    edges = tuple(DependencyEdge(a, b, n) for (a, b), n in sorted(weights.items(), key=lambda kv: (-kv[1], kv[0])))
    modules = tuple(sorted(module_lines, key=lambda m: (-module_lines[m], m)))
    return DependencyGraph(depth=depth, modules=modules, lines=dict(module_lines), edges=edges)
