"""Import resolution: which repository files each file imports, from the imports its tags recorded at index time.

One resolver per language family, each resolving like the language does (``rules.toml`` holds the rules as data:
package roots, index files, path aliases, autoload roots, module paths, include folders); a file is only ever
resolved against files of its own family. What does not resolve is an external package, counted separately
(standard libraries are left out).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from codeqa.chunk.resolve import (
    dotnet,
    elixir,
    go,
    haskell,
    javascript,
    jsscope,
    jvm,
    native,
    php,
    phpscope,
    python,
    ruby,
    rubyscope,
    rust,
    scripts,
)
from codeqa.chunk.resolve.project import FAMILIES, Project, Resolution
from codeqa.chunk.resolve.scope import NameScope
from codeqa.records import FileTags

Resolver = Callable[[FileTags, Project], Iterator[Resolution]]

RESOLVERS: dict[str, Resolver] = {
    "python": python.imports,
    "js": javascript.imports,
    "go": go.imports,
    "jvm": jvm.imports,
    "ruby": ruby.imports,
    "php": php.imports,
    "native": native.imports,
    "rust": rust.imports,
    "dotnet": dotnet.imports,
    "lua": scripts.lua,
    "shell": scripts.shell,
    "haskell": haskell.imports,
    "elixir": elixir.imports,
}

# the families whose rules read a file's references (constants, types used); the others read imports, definitions,
# namespaces and build files only, so a stored file's references need not be decoded to resolve it
READS_REFERENCES = frozenset({"jvm", "ruby", "php", "dotnet", "elixir"})


def reads_references(language: str) -> bool:
    return FAMILIES.get(language) in READS_REFERENCES


@dataclass(frozen=True)
class ImportGraph:
    files: dict[str, tuple[str, ...]]  # file → repository files it imports (sorted)
    external: dict[str, int]  # external package → how many files use it, most used first


def file_imports(tags: FileTags, project: Project) -> tuple[set[str], set[str]]:
    """(repository files ``tags.path`` imports, external packages it uses) — empty for languages without rules."""
    resolved: set[str] = set()
    external: set[str] = set()
    family = FAMILIES.get(tags.language)
    if family is None or family not in RESOLVERS:
        return resolved, external
    own_family = project.family_files(family)
    for found, name in RESOLVERS[family](tags, project):
        resolved.update(found & own_family)
        if not found and name:
            external.add(name)
    resolved.discard(tags.path)
    return resolved, external


# the families whose files' names are resolved
SCOPES = {
    "python": python.name_scope,
    "js": jsscope.name_scope,
    "php": phpscope.name_scope,
    "ruby": rubyscope.name_scope,
}


def name_scopes(tags: Iterable[FileTags], graph: ImportGraph | None = None) -> dict[str, NameScope]:
    """How each Python, JS/TS, PHP and Ruby file binds the names it uses (``scope.NameScope``), for the symbol
    graph's links."""
    project = Project.from_tags(tags)
    files = graph.files if graph is not None else resolve_imports(project.tags.values()).files
    return {path: SCOPES[family](item, project, files) for path, item in sorted(project.tags.items())
            if (family := FAMILIES.get(item.language, "")) in SCOPES}  # fmt: skip


def resolve_imports(tags: Iterable[FileTags]) -> ImportGraph:
    """Every file's imports resolved against the whole repository."""
    project = Project.from_tags(tags)
    files: dict[str, tuple[str, ...]] = {}
    external: Counter[str] = Counter()
    for path in sorted(project.tags):
        resolved, names = file_imports(project.tags[path], project)
        if resolved:
            files[path] = tuple(sorted(resolved))
        external.update(names)
    return ImportGraph(files, dict(sorted(external.items(), key=lambda kv: (-kv[1], kv[0]))))


__all__ = [
    "FAMILIES",
    "READS_REFERENCES",
    "RESOLVERS",
    "ImportGraph",
    "NameScope",
    "Project",
    "Resolution",
    "file_imports",
    "name_scopes",
    "reads_references",
    "resolve_imports",
]
