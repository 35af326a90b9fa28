"""Elixir: ``alias``, ``import``, ``require`` and ``use`` name a module, found by the ``defmodule`` that defines it.

Elixir resolves by module name, not by path: ``alias Oban.{Config, Job}`` names ``Oban.Config`` and ``Oban.Job``,
defined by whichever files say ``defmodule Oban.Config`` (a ``defmodule Job`` nested in ``defmodule Oban`` is
``Oban.Job`` too; ``Oban.Job.Inner`` is in the file of ``Oban.Job``); a module no file defines falls back to the
conventional ``lib/oban/config.ex``. A module needs no directive to be used, so the modules a file names fully
qualified (``Oban.Repo.all``) or through its aliases (``Job.new`` after ``alias Oban.Job``) link too. What does
not resolve is a dependency (``Ecto.Query`` → ``Ecto``); Elixir's own modules (``Logger``, ``GenServer``) are not
reported.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from codeqa.chunk.resolve.project import RULES, Project, Resolution, nearest, words
from codeqa.chunk.resolve.ruby import underscore
from codeqa.records import FileTags

_RULES = RULES["elixir"]
EXTENSIONS: tuple[str, ...] = tuple(_RULES["extensions"])
STDLIB = words(_RULES["stdlib"])
_SOURCE = _RULES["source_folder"]


def _prepare(project: Project) -> dict[str, set[str]]:
    """Module name → the files defining it."""
    modules: dict[str, set[str]] = defaultdict(set)
    for path in project.family_files("elixir"):
        tags = project.tags[path]
        for definition in tags.definitions:
            if definition.category != "module":
                continue
            modules[definition.name].add(path)
            if tags.namespace and not definition.name.startswith(tags.namespace):  # perhaps nested in the first
                modules[f"{tags.namespace}.{definition.name}"].add(path)
    return modules


def defined(module: str, importer: str, project: Project) -> set[str]:
    """The files defining ``module`` or, for ``A.B.Inner``, the module it is nested in (down to ``A.B``)."""
    modules = project.cached("elixir", _prepare)
    parts = module.split(".")
    for end in range(len(parts), min(len(parts), 2) - 1, -1):
        if hit := modules.get(".".join(parts[:end])):
            return {importer} if importer in hit else nearest(importer, hit)  # a file's own module is its own
    return set()


def resolve(module: str, importer: str, project: Project) -> Resolution:
    if hit := defined(module, importer, project):
        return hit, None
    if by_path := project.by_suffix("elixir", f"{_SOURCE}/{underscore(module.replace('.', '::'))}", EXTENSIONS):
        return nearest(importer, by_path), None
    modules = project.cached("elixir", _prepare)
    first = module.split(".")[0]
    if first in STDLIB or any(name.startswith(module + ".") for name in modules):  # `alias Oban.Queue`: a namespace
        return set(), None
    return set(), ".".join(module.split(".")[:2]) if first in modules else first  # Oban.Pro.Worker: another package


def _named(tags: FileTags) -> list[str]:
    """The modules the file's directives name (``alias A.{B, C}`` → ``A.B``, ``A.C``)."""
    return [f"{ref.target}.{name}" for ref in tags.imports for name in ref.names] + [
        ref.target for ref in tags.imports if not ref.names
    ]


def _used(tags: FileTags, named: list[str]) -> set[str]:
    """Modules the file names in its code, their first name expanded through its aliases (``Job`` → ``Oban.Job``)."""
    aliases = {module.rpartition(".")[2]: module for module in named}
    used = set()
    for ref in tags.references:
        if ref.category == "class" and ref.name[:1].isupper():
            first, dot, rest = ref.name.partition(".")
            used.add(aliases[first] + dot + rest if first in aliases else ref.name)
    return used


def imports(tags: FileTags, project: Project) -> Iterator[Resolution]:
    named = _named(tags)
    for module in named:
        yield resolve(module, tags.path, project)
    yield {hit for module in _used(tags, named) for hit in defined(module, tags.path, project)}, None
