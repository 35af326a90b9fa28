"""Java, Kotlin and Scala: ``import a.b.C`` names the class ``C`` of package ``a.b``, wherever its file lives.

Each file's ``package`` (its tags' namespace) gives the fully qualified names it defines: the file's own name and
every class, interface, object and enum it declares. ``import a.b.*`` (Scala ``a.b._``) is every file of the
package, ``import static a.b.C.m`` is ``a.b.C``, and a class of the file's own package needs no import. Files
without a ``package`` fall back to the path convention (``a/b/C.java``). The platform's libraries are not reported.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from pathlib import PurePosixPath

from codeqa.chunk.resolve.project import RULES, Project, Resolution
from codeqa.records import FileTags

_RULES = RULES["jvm"]
EXTENSIONS: tuple[str, ...] = tuple(_RULES["extensions"])
PLATFORM: tuple[str, ...] = tuple(_RULES["platform"])
WILDCARDS = frozenset({"_", "*"})
_TYPE_KINDS = frozenset({"class", "interface", "enum", "type"})
_USE_KINDS = frozenset({"class", "type", "call"})


def _prepare(project: Project) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(fully qualified class → files, package → files)."""
    classes: dict[str, set[str]] = defaultdict(set)
    packages: dict[str, set[str]] = defaultdict(set)
    for path in project.family_files("jvm"):
        tags = project.tags[path]
        if not tags.namespace:
            continue
        packages[tags.namespace].add(path)
        names = {PurePosixPath(path).stem, *(d.name for d in tags.definitions if d.category in _TYPE_KINDS)}
        for name in names:
            classes[f"{tags.namespace}.{name}"].add(path)
    return classes, packages


def resolve(name: str, star: bool, project: Project) -> Resolution:
    classes, packages = project.cached("jvm", _prepare)
    if star and name in packages:
        return set(packages[name]), None
    parts = name.split(".")
    for end in range(len(parts), 1, -1):  # a.b.C.Inner and a.b.C.method are in a.b.C
        if hit := classes.get(".".join(parts[:end])):
            return set(hit), None
    for end in range(len(parts), 1, -1):
        if hit := project.by_suffix("jvm", "/".join(parts[:end]), EXTENSIONS):
            return hit, None
    if name.startswith(PLATFORM) or any(p == name or p.startswith(name + ".") for p in packages):
        return set(), None
    return set(), ".".join(parts[:2])


def imports(tags: FileTags, project: Project) -> Iterator[Resolution]:
    for ref in tags.imports:
        if ref.kind == "wildcard" or set(ref.names) & WILDCARDS:  # Java `a.b.*`, Scala `a.b._` or `a.b.{_}`
            yield resolve(ref.target, True, project)
        for name in [f"{ref.target}.{n}" for n in ref.names if n not in WILDCARDS] if ref.names else [ref.target]:
            yield resolve(name, False, project)
    if tags.namespace:  # classes of the same package are used without an import
        classes, _ = project.cached("jvm", _prepare)
        used = {ref.name for ref in tags.references if ref.category in _USE_KINDS and ref.name[:1].isupper()}
        own = {hit for name in used for hit in classes.get(f"{tags.namespace}.{name}", ())}
        yield own - {tags.path}, None
