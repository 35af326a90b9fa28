"""Python: absolute imports against the package roots, relative imports against the importing package.

A package root is a folder from which ``import a.b`` finds ``a/b.py`` or ``a/b/__init__.py``: the repository
root, ``src/`` and ``lib/``, and the parent of every top-level package (a folder with ``__init__.py`` whose own
parent has none). A script's folder (no ``__init__.py``) is on ``sys.path`` when it runs, so it is a root for the
files in it. No suffix guessing: ``import json`` is a repository file only if a root holds ``json.py``;
otherwise it is the standard library (not reported) or an external package.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator

from codeqa.explore.importers.project import Project, Resolution, join, parent

_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]+)|import[ \t]+([^\n#;]+))", re.M
)
_STDLIB = frozenset(sys.stdlib_module_names) | {"__future__"}


def statements(text: str) -> list[tuple[str, list[str]]]:
    """``(module, imported names)`` per import; relative modules keep their leading dots."""
    found: list[tuple[str, list[str]]] = []
    for match in _IMPORT.finditer(text):
        if match.group(3) is not None:
            for item in match.group(3).split(","):
                name = item.strip().split(" as ")[0].strip()
                if re.fullmatch(r"[\w.]+", name):
                    found.append((name, []))
        else:
            names = [n.strip().split(" as ")[0].strip() for n in match.group(2).strip("() \t\n").split(",")]
            found.append((match.group(1), [n for n in names if re.fullmatch(r"\w+", n)]))
    return found


def _prepare(project: Project) -> tuple[frozenset[str], frozenset[str], list[str]]:
    files = project.family_files("python")
    packages = frozenset(parent(p) for p in files if p.endswith(("/__init__.py", "/__init__.pyi")))
    roots = {"", "src", "lib"}
    for package in packages:
        top = package
        while parent(top) in packages and top:
            top = parent(top)
        roots.add(parent(top))
    return files, packages, sorted(roots, key=lambda r: (r.count("/"), r))


def _module(files: frozenset[str], base: str, dotted: str) -> str | None:
    path = join(base, dotted.replace(".", "/"))
    if path is None:
        return None
    for candidate in (f"{path}.py", f"{path}/__init__.py", f"{path}.pyi", f"{path}/__init__.pyi"):
        if candidate in files:
            return candidate
    return None


def _from_base(files: frozenset[str], base: str, module: str, names: list[str]) -> set[str]:
    """``from module import names`` looked up under ``base``: submodules first, else the module itself."""
    found = {hit for name in names if (hit := _module(files, base, f"{module}.{name}" if module else name))}
    if not found and (hit := _module(files, base, module) if module else _module(files, base, "")):
        found.add(hit)
    if not found and module:  # import a.b.c where c is a name inside a/b.py
        parts = module.split(".")
        for end in range(len(parts) - 1, 0, -1):
            if hit := _module(files, base, ".".join(parts[:end])):
                return {hit}
    return found


def imports(path: str, text: str, project: Project) -> Iterator[Resolution]:
    files, packages, roots = project.cached("python", _prepare)
    own = parent(path)
    search = roots if own in packages else [*roots, own]
    for module, names in statements(text):
        dots = len(module) - len(module.lstrip("."))
        if dots:
            base = own
            for _ in range(dots - 1):
                base = parent(base)
            yield _from_base(files, base, module.lstrip("."), names), None
            continue
        found: set[str] = set()
        for root in search:
            found = _from_base(files, root, module, names)
            if found:
                break
        top = module.split(".")[0]
        folders = project.folders.get("python", {})
        internal = any(_module(files, root, top) or join(root, top) in folders for root in search)
        yield found, None if found or internal or top in _STDLIB else top
