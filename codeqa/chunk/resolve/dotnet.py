"""C#: ``using A.B;`` brings the types of namespace ``A.B`` into scope (as does the file's own namespace).

A type the file uses links to the file of an imported (or its own, or an enclosing) namespace that declares it;
platform namespaces (``System``, ``Microsoft``) are not reported, other unresolved namespaces are.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from codeqa.chunk.resolve.project import RULES, Project, Resolution
from codeqa.records import FileTags

PLATFORM = tuple(RULES["dotnet"]["platform"])
_TYPE_KINDS = frozenset({"class", "interface", "enum", "type"})


def _prepare(project: Project) -> tuple[dict[tuple[str, str], set[str]], set[str]]:
    """((namespace, type name) → files declaring it, every namespace declared in the repository)."""
    declared: dict[tuple[str, str], set[str]] = defaultdict(set)
    for path in project.family_files("dotnet"):
        tags = project.tags[path]
        for definition in tags.definitions:
            if definition.category in _TYPE_KINDS:
                declared[(tags.namespace, definition.name)].add(path)
    return declared, {namespace for namespace, _ in declared}


def _enclosing(namespace: str) -> list[str]:
    parts = namespace.split(".") if namespace else []
    return [".".join(parts[:end]) for end in range(len(parts), -1, -1)]


def imports(tags: FileTags, project: Project) -> Iterator[Resolution]:
    declared, namespaces = project.cached("dotnet", _prepare)
    scopes = [*_enclosing(tags.namespace), *(ref.target for ref in tags.imports)]
    used = {ref.name for ref in tags.references if ref.name[:1].isupper()}
    found = {path for name in used for scope in scopes for path in declared.get((scope, name), ())}
    yield found - {tags.path}, None
    for ref in tags.imports:
        known = ref.target in namespaces or any(n.startswith(ref.target + ".") for n in namespaces)
        if not known and not ref.target.startswith(PLATFORM):
            yield set(), ref.target.split(".")[0]
