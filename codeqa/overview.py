"""What a newcomer wants to see first: sizes by language/layer/directory, big files, central symbols, module imports.

Everything is computed from the chunks already in the index (no second pass over the repository), so it works
for remote sources whose clone is gone. Pure functions over ``Chunk`` records; ``load_overview`` reads the store.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

from codeqa.config import Settings
from codeqa.records import Chunk
from codeqa.store import Manifest, Store, chunk_from_record

IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
CALL = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(")
NOT_SYMBOLS = frozenset({"doc", "config", "test"})  # headings and keys are not code anyone calls
GENERIC_NAMES = frozenset(
    [
        "__init__",
        "main",
        "run",
        "get",
        "set",
        "setup",
        "call",
        "init",
        "new",
        "test",
        "self",
        "update",
        "close",
        "open",
        "read",
        "write",
        "start",
        "stop",
        "name",
        "value",
        "data",
        "process",
        "handle",
        "apply",
        "create",
    ]
)
ROOT = "(root)"


@dataclass(frozen=True)
class FileStat:
    path: str
    language: str
    lines: int
    chunks: int
    layer: str


@dataclass(frozen=True)
class DirNode:
    """A node of the directory tree (directory or file) for a treemap: ``id`` is the path, ``parent`` its folder."""

    id: str
    parent: str
    name: str
    lines: int
    files: int
    is_file: bool


@dataclass(frozen=True)
class SymbolRef:
    """A defined symbol and how often its name appears in *other* chunks (a cheap proxy for "used a lot")."""

    name: str
    symbol: str
    kind: str
    path: str
    start_line: int
    end_line: int
    references: int  # occurrences outside the defining chunk(s)
    files: int  # distinct other files mentioning it


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


@dataclass(frozen=True)
class Overview:
    index: str
    files: int
    lines: int
    chunks: int
    lines_by_language: dict[str, int]
    chunks_by_layer: dict[str, int]
    chunks_by_kind: dict[str, int]
    directories: tuple[DirNode, ...]
    file_stats: tuple[FileStat, ...]  # largest first
    top_symbols: tuple[SymbolRef, ...]
    file_imports: dict[str, tuple[str, ...]]  # file → repo files it imports (resolved)
    external_imports: dict[str, int]  # unresolved import → how many files use it

    def largest_files(self, n: int = 15) -> tuple[FileStat, ...]:
        return self.file_stats[:n]

    def dependencies(self, depth: int = 1) -> DependencyGraph:
        return module_graph(self.file_imports, {f.path: f.lines for f in self.file_stats}, depth)


# -- sizes ---------------------------------------------------------------------------------------------------------
def file_stats(chunks: Sequence[Chunk]) -> list[FileStat]:
    """Per file: lines (last chunk line: chunks cover the file), chunks, language, most common layer."""
    by_path: dict[str, list[Chunk]] = defaultdict(list)
    for chunk in chunks:
        by_path[chunk.path].append(chunk)
    stats = [
        FileStat(
            path=path,
            language=items[0].language,
            lines=max(c.end_line for c in items),
            chunks=len(items),
            layer=Counter(c.layer for c in items).most_common(1)[0][0],
        )
        for path, items in by_path.items()
    ]
    return sorted(stats, key=lambda f: (-f.lines, f.path))


def directory_tree(stats: Iterable[FileStat]) -> list[DirNode]:
    """Every file and every ancestor directory, with summed lines; root-level entries have parent ``""``."""
    lines: Counter[str] = Counter()
    files: Counter[str] = Counter()
    nodes: list[DirNode] = []
    for stat in stats:
        parts = PurePosixPath(stat.path).parts
        for depth in range(1, len(parts)):
            folder = "/".join(parts[:depth])
            lines[folder] += stat.lines
            files[folder] += 1
        parent = "/".join(parts[:-1])
        nodes.append(DirNode(stat.path, parent, parts[-1], stat.lines, 1, True))
    for folder in sorted(lines):
        parent, _, name = folder.rpartition("/")
        nodes.append(DirNode(folder, parent, name, lines[folder], files[folder], False))
    return nodes


# -- references ----------------------------------------------------------------------------------------------------
def defined_names(symbol: str) -> list[str]:
    """The short names a chunk defines: ``"Cart.add, formatPrice"`` → ``["add", "formatPrice"]``."""
    names = []
    for part in symbol.split(","):
        last = re.split(r"[.#:/\s]+", part.strip().strip("…"))[-1]
        if last:
            names.append(last)
    return names


def _plain_word(name: str) -> bool:
    """``index``, ``search``: also ordinary words, so only call sites (``index(``) count as references."""
    return name.isalpha() and name.islower()


def most_referenced(chunks: Sequence[Chunk], n: int = 20) -> list[SymbolRef]:
    """Symbols whose last name component appears most often in other chunks (generic names skipped)."""
    mentions = [Counter(IDENTIFIER.findall(chunk.text)) for chunk in chunks]
    calls = [Counter(CALL.findall(chunk.text)) for chunk in chunks]
    definitions: dict[str, list[int]] = defaultdict(list)
    for row, chunk in enumerate(chunks):
        if chunk.kind not in NOT_SYMBOLS and chunk.symbol:
            for name in defined_names(chunk.symbol):
                ambiguous = chunk.kind == "method" and _plain_word(name)  # .append( .split( are everyone's
                if len(name) >= 3 and name not in GENERIC_NAMES and not ambiguous:
                    definitions[name].append(row)
    refs = []
    for name, rows in definitions.items():
        counts = calls if _plain_word(name) else mentions
        own = set(rows)
        using = [row for row, counter in enumerate(counts) if row not in own and counter[name]]
        outside = sum(counts[row][name] for row in using)
        if not outside:
            continue
        first = chunks[rows[0]]
        symbol = next((s.strip() for s in first.symbol.split(",") if defined_names(s) == [name]), name)
        other_files = {chunks[row].path for row in using} - {chunks[row].path for row in rows}
        refs.append(
            SymbolRef(name, symbol, first.kind, first.path, first.start_line, first.end_line, outside, len(other_files))
        )
    refs.sort(key=lambda r: (-r.files, -r.references, r.name))
    return refs[:n]


# -- imports -------------------------------------------------------------------------------------------------------
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


class _Resolver:
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


def file_imports(path: str, language: str, text: str, resolver: _Resolver) -> tuple[set[str], set[str]]:
    """(repository files imported by ``path``, unresolved import names) for Python/JS/TS/Go/Java/Ruby."""
    resolved: set[str] = set()
    external: set[str] = set()

    def add(found: set[str], name: str) -> None:
        if found:
            resolved.update(found - {path})
        else:
            external.add(name)

    if language == "python":
        package = PurePosixPath(path).parent
        for module, names in _py_targets(text):
            dots = len(module) - len(module.lstrip("."))
            if dots:
                base = package
                for _ in range(dots - 1):
                    base = base.parent
                key = "/".join(p for p in [str(base), module.lstrip(".").replace(".", "/")] if p and p != ".")
                found = (
                    set().union(*(resolver.by_key(f"{key}/{n}".strip("/"), path) for n in names)) if names else set()
                )
                add(found or resolver.by_key(key, path), module)
            else:
                key = module.replace(".", "/")
                found = set().union(*(resolver.by_key(f"{key}/{n}", path) for n in names)) if names else set()
                add(found or resolver.by_key(key, path), module.split(".")[0])
    elif language in _JS_LANGS:
        for target in _JS_IMPORT.findall(text):
            if target.startswith("."):
                add(resolver.relative(path, target, _JS_EXTENSIONS), target)
            else:
                external.add(target.split("/")[0] if not target.startswith("@") else "/".join(target.split("/")[:2]))
    elif language == "go":
        targets = _GO_IMPORT_LINE.findall(text)
        for block in _GO_IMPORT_BLOCK.findall(text):
            targets += _GO_QUOTED.findall(block)
        for target in targets:
            parts = target.split("/")
            found = next((hit for i in range(len(parts)) if (hit := resolver.by_key("/".join(parts[i:]), path))), set())
            add(found, target)
    elif language == "java" or language == "kotlin":
        for target in _JAVA_IMPORT.findall(text):
            parts = target.split(".")
            found = resolver.by_key("/".join(parts), path) or resolver.by_key("/".join(parts[:-1]), path)
            add(found, ".".join(parts[:2]))
    elif language == "ruby":
        for verb, target in _RUBY_REQUIRE.findall(text):
            if verb == "require_relative":
                add(resolver.relative(path, target, (".rb",)), target)
            else:
                add(resolver.by_key(target.removesuffix(".rb"), path), target.split("/")[0])
    return resolved, external


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


# -- putting it together -------------------------------------------------------------------------------------------
def build_overview(chunks: Sequence[Chunk], *, name: str = "", top: int = 20) -> Overview:
    stats = file_stats(chunks)
    lines_by_language: Counter[str] = Counter()
    for stat in stats:
        lines_by_language[stat.language] += stat.lines
    texts: dict[str, list[Chunk]] = defaultdict(list)
    for chunk in chunks:
        texts[chunk.path].append(chunk)
    resolver = _Resolver(texts)
    imports: dict[str, tuple[str, ...]] = {}
    external: Counter[str] = Counter()
    for path, items in texts.items():
        text = "\n".join(c.text for c in sorted(items, key=lambda c: c.start_line))
        resolved, unresolved = file_imports(path, items[0].language, text, resolver)
        if resolved:
            imports[path] = tuple(sorted(resolved))
        external.update(unresolved)
    return Overview(
        index=name,
        files=len(stats),
        lines=sum(s.lines for s in stats),
        chunks=len(chunks),
        lines_by_language=dict(lines_by_language.most_common()),
        chunks_by_layer=dict(Counter(c.layer for c in chunks).most_common()),
        chunks_by_kind=dict(Counter(c.kind for c in chunks).most_common()),
        directories=tuple(directory_tree(stats)),
        file_stats=tuple(stats),
        top_symbols=tuple(most_referenced(chunks, top)),
        file_imports=imports,
        external_imports=dict(external.most_common(top)),
    )


def load_chunks(settings: Settings, manifest: Manifest, store: Store | None = None) -> list[Chunk]:
    collection = (store or Store(settings)).open_collection(manifest)
    records = collection.get(include=["documents", "metadatas"])
    chunks = [
        chunk_from_record(doc, meta) for doc, meta in zip(records["documents"], records["metadatas"], strict=True)
    ]
    return sorted(chunks, key=lambda c: (c.path, c.start_line))


def load_overview(settings: Settings, manifest: Manifest, store: Store | None = None) -> Overview:
    return build_overview(load_chunks(settings, manifest, store), name=manifest.name)


@dataclass(frozen=True)
class Facets:
    """The values a filter can take in one index, with chunk counts (most common first)."""

    layers: dict[str, int]
    kinds: dict[str, int]
    languages: dict[str, int]
    directories: dict[str, int]  # every ancestor directory → chunks under it


def facets_from_metadata(metadatas: Iterable[dict[str, object]]) -> Facets:
    layers: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    languages: Counter[str] = Counter()
    directories: Counter[str] = Counter()
    for meta in metadatas:
        layers[str(meta.get("layer", "core"))] += 1
        kinds[str(meta.get("kind", "other"))] += 1
        languages[str(meta.get("language", "text"))] += 1
        parts = str(meta.get("path", "")).split("/")[:-1]
        directories.update("/".join(parts[: i + 1]) for i in range(len(parts)))
    return Facets(
        layers=dict(layers.most_common()),
        kinds=dict(kinds.most_common()),
        languages=dict(languages.most_common()),
        directories=dict(sorted(directories.items())),
    )


def load_facets(settings: Settings, manifest: Manifest, store: Store | None = None) -> Facets:
    collection = (store or Store(settings)).open_collection(manifest)
    return facets_from_metadata(collection.get(include=["metadatas"])["metadatas"] or [])
