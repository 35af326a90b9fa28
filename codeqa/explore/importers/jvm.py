"""Java and Kotlin: ``import a.b.C`` names the class ``C`` of package ``a.b``, wherever its file lives.

Each file's ``package`` line gives the fully qualified names it defines (the file's class, and for Kotlin every
top-level class, object and interface); ``import a.b.*`` is every file of the package and ``import static
a.b.C.m`` is ``a.b.C``. Files without a ``package`` line fall back to the path convention (``a/b/C.java``).
The JDK and Kotlin's standard library are not reported.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator
from pathlib import PurePosixPath

from codeqa.explore.importers.project import Project, Resolution

_IMPORT = re.compile(r"^\s*import\s+(static\s+)?([\w.]+)(\.\*)?\s*;?\s*(?:as\s+\w+)?\s*$", re.M)
_PACKAGE = re.compile(r"^\s*package\s+([\w.]+)", re.M)
_DECLARED = re.compile(r"^\s*(?:[a-z]+\s+)*(?:class|interface|object|enum)\s+([A-Z]\w*)", re.M)
EXTENSIONS = (".java", ".kt", ".kts")
PLATFORM = ("java.", "javax.", "jdk.", "sun.", "kotlin.", "kotlinx.")


def _prepare(project: Project) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(fully qualified class → files, package → files)."""
    classes: dict[str, set[str]] = defaultdict(set)
    packages: dict[str, set[str]] = defaultdict(set)
    for path in project.family_files("jvm"):
        text = project.text(path)
        match = _PACKAGE.search(text)
        if not match:
            continue
        package = match.group(1)
        packages[package].add(path)
        names = {PurePosixPath(path).stem, *(_DECLARED.findall(text) if path.endswith((".kt", ".kts")) else [])}
        for name in names:
            classes[f"{package}.{name}"].add(path)
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


def imports(path: str, text: str, project: Project) -> Iterator[Resolution]:
    for _static, name, star in _IMPORT.findall(text):
        yield resolve(name, bool(star), project)
