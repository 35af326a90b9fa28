"""Which repository files each file imports, per language, and the module graph those imports make.

Each language has an importer: a function that reads the file's import statements and resolves each one to
repository files, or names it as external. The table ``IMPORTERS`` maps a language to its importer; files are
only ever resolved against files of the same language family (a Python ``import json`` never lands on a
``json.tsx``).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

ROOT = "(root)"
_PY_IMPORT = re.compile(r"^\s*(?:from\s+(\.*[\w.]*)\s+import\s+([\w*, ()]+)|import\s+([\w., ]+))", re.M)
_JS_IMPORT = re.compile(
    r"""(?:import\s+(?:[\w*{}\s,]+\s+from\s+)?|export\s+[\w*{}\s,]+\s+from\s+|require\(\s*|import\(\s*)['"]([^'"]+)['"]"""
)
_GO_IMPORT_BLOCK = re.compile(r"^\s*import\s*\(([^)]*)\)", re.M | re.S)
_GO_IMPORT_LINE = re.compile(r'^\s*import\s+(?:[\w.]+\s+)?"([^"]+)"', re.M)
_GO_QUOTED = re.compile(r'"([^"]+)"')
_JAVA_IMPORT = re.compile(r"^\s*import\s+(?:static\s+)?([\w.]+)(?:\.\*)?\s*;", re.M)
_RUBY_REQUIRE = re.compile(r"""^\s*(require|require_relative|load)\s*\(?\s*['"]([^'"]+)['"]""", re.M)
_JS_LANGS = frozenset({"javascript", "typescript", "tsx", "vue", "svelte"})
_JS_EXTENSIONS = (".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".vue", ".svelte")
FAMILIES: dict[str, str] = {
    "python": "python",
    **{language: "js" for language in _JS_LANGS},
    "go": "go",
    "java": "jvm",
    "kotlin": "jvm",
    "ruby": "ruby",
}


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


def _py_targets(text: str) -> list[tuple[str, list[str]]]:
    """``(module, imported names)`` for each Python import; module keeps leading dots for relative imports."""
    found = []
    for match in _PY_IMPORT.finditer(text):
        if match.group(3):
            found.extend((name.split(" as ")[0].strip(), []) for name in match.group(3).split(","))
        else:
            names = [n.split(" as ")[0].strip(" ()") for n in match.group(2).split(",")]
            found.append((match.group(1), [n for n in names if n and n != "*"]))
    return found


class Resolver:
    """Maps import strings to repository files by path suffix (``a.b.c`` → ``src/a/b/c.py``).

    File stems are tried first; a directory (a Go/Java package, a Python package without ``__init__``) matches
    the files directly inside it.
    """

    def __init__(self, paths: Iterable[str]):
        self.paths = set(paths)
        self.modules: dict[str, set[str]] = defaultdict(set)
        self.packages: dict[str, set[str]] = defaultdict(set)
        for path in self.paths:
            parts = str(PurePosixPath(path).with_suffix("")).split("/")
            if parts[-1] in ("__init__", "index", "mod") and len(parts) > 1:
                parts = parts[:-1]
            for i in range(len(parts)):
                self.modules["/".join(parts[i:])].add(path)
            folder = path.split("/")[:-1]
            for i in range(len(folder)):
                self.packages["/".join(folder[i:])].add(path)

    def by_key(self, key: str, near: str) -> set[str]:
        """Files matching ``key`` as a path suffix; when ambiguous, those sharing the most leading dirs with near."""
        key = key.strip("/")
        candidates = self.modules.get(key) or self.packages.get(key) or set()
        if len(candidates) <= 1:
            return set(candidates)
        best = max(_shared_prefix(c, near) for c in candidates)
        return {c for c in candidates if _shared_prefix(c, near) == best}

    def relative(self, base: str, target: str, extensions: Sequence[str]) -> set[str]:
        joined = _normalize(str(PurePosixPath(base).parent / target))
        if joined is None:
            return set()
        options = [joined, *(joined + ext for ext in extensions), *(f"{joined}/index{ext}" for ext in extensions)]
        return {option for option in options if option in self.paths}


def _shared_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a.split("/"), b.split("/"), strict=False):
        if x != y:
            break
        n += 1
    return n


def _normalize(path: str) -> str | None:
    parts: list[str] = []
    for part in path.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                return None
            parts.pop()
        else:
            parts.append(part)
    return "/".join(parts)


Resolution = tuple[set[str], str]  # (repository files found, the name to report as external when none)
Importer = Callable[[str, str, "Resolver"], Iterator[Resolution]]


def _python_imports(path: str, text: str, resolver: Resolver) -> Iterator[Resolution]:
    package = PurePosixPath(path).parent
    for module, names in _py_targets(text):
        dots = len(module) - len(module.lstrip("."))
        if dots:
            base = package
            for _ in range(dots - 1):
                base = base.parent
            key = "/".join(p for p in [str(base), module.lstrip(".").replace(".", "/")] if p and p != ".")
            found = set().union(*(resolver.by_key(f"{key}/{n}".strip("/"), path) for n in names)) if names else set()
            yield found or resolver.by_key(key, path), module
        else:
            key = module.replace(".", "/")
            found = set().union(*(resolver.by_key(f"{key}/{n}", path) for n in names)) if names else set()
            yield found or resolver.by_key(key, path), module.split(".")[0]


def _js_imports(path: str, text: str, resolver: Resolver) -> Iterator[Resolution]:
    for target in _JS_IMPORT.findall(text):
        if target.startswith("."):
            yield resolver.relative(path, target, _JS_EXTENSIONS), target
        else:
            yield set(), target.split("/")[0] if not target.startswith("@") else "/".join(target.split("/")[:2])


def _go_imports(path: str, text: str, resolver: Resolver) -> Iterator[Resolution]:
    targets = _GO_IMPORT_LINE.findall(text)
    for block in _GO_IMPORT_BLOCK.findall(text):
        targets += _GO_QUOTED.findall(block)
    for target in targets:
        parts = target.split("/")
        found = next((hit for i in range(len(parts)) if (hit := resolver.by_key("/".join(parts[i:]), path))), set())
        yield found, target


def _jvm_imports(path: str, text: str, resolver: Resolver) -> Iterator[Resolution]:
    for target in _JAVA_IMPORT.findall(text):
        parts = target.split(".")
        found = resolver.by_key("/".join(parts), path) or resolver.by_key("/".join(parts[:-1]), path)
        yield found, ".".join(parts[:2])


def _ruby_imports(path: str, text: str, resolver: Resolver) -> Iterator[Resolution]:
    for verb, target in _RUBY_REQUIRE.findall(text):
        if verb == "require_relative":
            yield resolver.relative(path, target, (".rb",)), target
        else:
            yield resolver.by_key(target.removesuffix(".rb"), path), target.split("/")[0]


IMPORTERS: dict[str, Importer] = {
    "python": _python_imports,
    "js": _js_imports,
    "go": _go_imports,
    "jvm": _jvm_imports,
    "ruby": _ruby_imports,
}


def file_imports(path: str, language: str, text: str, resolver: Resolver) -> tuple[set[str], set[str]]:
    """(repository files imported by ``path``, unresolved import names) for Python/JS/TS/Go/Java/Kotlin/Ruby."""
    resolved: set[str] = set()
    external: set[str] = set()
    importer = IMPORTERS.get(FAMILIES.get(language, ""))
    if importer is None:
        return resolved, external
    for found, name in importer(path, text, resolver):
        if found:
            resolved.update(found - {path})
        else:
            external.add(name)
    return resolved, external


def import_graph(texts: Mapping[str, tuple[str, str]]) -> tuple[dict[str, tuple[str, ...]], Counter[str]]:
    """``{path: (language, text)}`` → (file → repository files it imports, external name → files importing it).

    Each language family resolves only against its own files.
    """
    by_family: dict[str, list[str]] = defaultdict(list)
    for path, (language, _) in texts.items():
        if language in FAMILIES:
            by_family[FAMILIES[language]].append(path)
    resolvers = {family: Resolver(paths) for family, paths in by_family.items()}
    imports: dict[str, tuple[str, ...]] = {}
    external: Counter[str] = Counter()
    for path, (language, text) in texts.items():
        family = FAMILIES.get(language)
        if family is None:
            continue
        resolved, unresolved = file_imports(path, language, text, resolvers[family])
        if resolved:
            imports[path] = tuple(sorted(resolved))
        external.update(unresolved)
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
