"""Haskell: ``import qualified A.B.C as X`` names module ``A.B.C``, wherever the package keeps its sources.

A module's file declares it (``module A.B.C where``, the tags' namespace), and GHC finds it as ``A/B/C.hs``
under one of the package's ``hs-source-dirs`` (``src/``, ``lib/``, ``app/``, a package folder such as
``hledger-lib/``); so the header decides, and a file without one (a ``Main``) is found by that path at a folder
boundary. When several packages define the same module the importer's own package wins. What does not resolve is
another package (``Data.Map`` of containers, reported by its first two names
but never by a base module's); base is not reported.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from codeqa.chunk.resolve.project import RULES, Project, Resolution, nearest, words
from codeqa.records import FileTags

_RULES = RULES["haskell"]
EXTENSIONS: tuple[str, ...] = tuple(_RULES["extensions"])
BASE = words(_RULES["base"])
BASE_PREFIXES: tuple[str, ...] = tuple(_RULES["base_prefixes"])


def _prepare(project: Project) -> dict[str, set[str]]:
    """Module name → the files whose header declares it."""
    modules: dict[str, set[str]] = defaultdict(set)
    for path in project.family_files("haskell"):
        if namespace := project.tags[path].namespace:
            modules[namespace].add(path)
    return modules


def resolve(module: str, importer: str, project: Project) -> Resolution:
    modules = project.cached("haskell", _prepare)
    if hit := modules.get(module):
        return {importer} if importer in hit else nearest(importer, hit), None
    by_path = project.by_suffix("haskell", module.replace(".", "/"), EXTENSIONS)
    if headerless := {path for path in by_path if not project.tags[path].namespace}:
        return nearest(importer, headerless), None
    if module in BASE or module.startswith(BASE_PREFIXES):
        return set(), None
    parts = module.split(".")
    package = next((".".join(parts[:end]) for end in range(2, len(parts)) if ".".join(parts[:end]) not in BASE), module)
    return set(), package  # Data.Text.IO → Data.Text; under a base module: Data.List.Extra


def imports(tags: FileTags, project: Project) -> Iterator[Resolution]:
    for ref in tags.imports:
        yield resolve(ref.target, tags.path, project)
