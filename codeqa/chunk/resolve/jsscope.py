"""How one JS/TS file binds the names it uses (``scope.NameScope``), from its tags and its imports resolved as
``javascript.resolve`` resolves them: named imports and ``require`` destructuring bind names to a module's files, a
default or namespace import (and ``const m = require(...)``) binds a name to the module itself, and
``const { f } = m`` inside a function binds f to m's files at that line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from codeqa.chunk.resolve.javascript import resolve
from codeqa.chunk.resolve.project import RULES, Project
from codeqa.chunk.resolve.scope import NameScope
from codeqa.records import FileTags

DESTRUCTURING_LINES = 3  # `} = prisma;` this many lines after the last name taken
METHOD = "method"  # Tag.category of a class's (or an object literal's) method
CLASS = "class"  # Tag.category of a class's definition, and of a class named in ``extends`` (or ``new``)
MODULE_BINDING = "* as "  # ImportRef.names: a local name bound to the whole module (``chunk.tags``)


def _with_entries(files: frozenset[str], graph: Mapping[str, Sequence[str]]) -> frozenset[str]:
    """``files`` and, for an ``index`` file among them, the files it imports (what a folder's index re-exports or
    assembles: ``export * from './x'``, ``require('./data')(User)``)."""
    index = RULES["js"]["index"]
    found = set(files)
    for path in files:
        if path.rpartition("/")[2].rpartition(".")[0] == index:
            found.update(graph.get(path, ()))
    return frozenset(found)


def name_scope(tags: FileTags, project: Project, graph: Mapping[str, Sequence[str]]) -> NameScope:
    """How ``tags.path`` binds names: ``import {x} from './m'`` and ``const {x} = require('./m')`` bind x to m's
    files; ``import m from``, ``import * as m`` and ``const m = require(...)`` bind m to them and make them a
    module it reaches names through (``m.f()``); a package's names bind to nothing; a method's name binds nothing
    (``obj.name()`` may be any imported class's method but the one it overrides)."""
    own_family = project.family_files("js")
    bound: dict[str, frozenset[str]] = {}
    modules: set[str] = set()
    module_names: set[str] = set()
    for ref in tags.imports:
        found, _ = resolve(tags.path, ref.target, project)
        files = _with_entries(frozenset(found & own_family), graph)
        for name in ref.names:
            local = name.removeprefix(MODULE_BINDING)
            bound[local] = bound.get(local, frozenset()) | files
            if local != name:
                modules |= files
                module_names.add(local)
    imported = _with_entries(frozenset(graph.get(tags.path, ())), graph)
    # a method's name is no binding of the file's: `this.userService.updateUserSessions()` inside the resolver's own
    # `updateUserSessions` means the service's method (a same-file caller still means the file's own, in the graph);
    # but a method its class overrides is not reached in the parent's file (`this.media.play()` in `play`)
    own = frozenset(d.name for d in tags.definitions if d.category != METHOD)
    methods = frozenset(d.name for d in tags.definitions if d.category == METHOD)
    heads = {d.line for d in tags.definitions if d.category == CLASS}
    parents = {ref.name for ref in tags.references if ref.category == CLASS and ref.line in heads}  # `extends Base`
    inherited = frozenset(path for name in parents for path in bound.get(name, ()))
    destructured = _destructured(tags, bound, module_names)
    return NameScope(imported, frozenset(modules), bound, own, destructured, methods=methods, inherited=inherited)


def _destructured(
    tags: FileTags, bound: Mapping[str, frozenset[str]], module_names: set[str]
) -> dict[str, tuple[tuple[int, frozenset[str]], ...]]:
    """``const { rawQuery } = prisma`` where ``prisma`` names an imported module: rawQuery → (its line, the module's
    files; none for a package). The destructured names come just before the object's name among the references."""
    local: dict[str, list[tuple[int, frozenset[str]]]] = {}
    run: list[tuple[str, int]] = []
    for ref in tags.references:
        if ref.category == "destructured":
            run.append((ref.name, ref.line))
            continue
        if run and ref.line - run[-1][1] <= DESTRUCTURING_LINES and ref.name in module_names:
            for name, line in run:
                local.setdefault(name, []).append((line, bound[ref.name]))
        run = []
    return {name: tuple(found) for name, found in local.items()}
