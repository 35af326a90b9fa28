"""How one Ruby file binds the names it uses (``scope.NameScope``), resolved as Ruby and Rails (Zeitwerk) do.

A constant (``Account``, ``Billing::Plan``, each segment of it) means the file that autoloads it, the file's own
nesting first (``ruby.place``); a constant no autoload root spells (a gem's, or one a required file defines)
reaches only the files the file requires. A method (``foo``, ``self.foo``, ``account.foo``) reaches the files the
file requires or whose constants it names (associations included: ``has_many :entries``), and the ancestors of its
own classes (superclass, ``include``/``extend``/``prepend`` modules, followed up the chain); where the call names its
receiver it decides: ``m(…)`` and ``self.m`` reach the ancestors (and required files), ``Account.m`` Account's file
and its ancestors.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from codeqa.chunk.resolve.project import Project, join, parent
from codeqa.chunk.resolve.ruby import _prepare, _required, nesting, place, underscore
from codeqa.chunk.resolve.scope import NameScope, ancestry, calls_by_receiver
from codeqa.records import FileTags

# the references that name a constant (``ruby-tags.scm``)
CONSTANT_KINDS = frozenset({"constant", "class", "ancestor", "called_class"})


def constants(tags: FileTags, project: Project) -> dict[str, frozenset[str]]:
    """Each constant the file names, whole and by segment (``Billing::Plan``: ``Billing``, ``Plan``,
    ``Billing::Plan``) → the file autoloading it; a constant no file autoloads is left out."""
    _, autoload, _ = project.cached("ruby", _prepare)
    if not autoload:
        return {}
    namespaces = [*nesting(tags), *_enclosing(tags.path, project)]
    bound: dict[str, set[str]] = {}
    for ref in tags.references:
        if ref.category not in CONSTANT_KINDS:
            continue
        parts = ref.name.lstrip(":").split("::")
        for end in range(1, len(parts) + 1):
            hit = place(underscore("::".join(parts[:end])), namespaces, autoload, tags.path)
            if hit is not None:
                for key in (parts[end - 1], "::".join(parts[:end])):
                    bound.setdefault(key, set()).add(hit)
    return {name: frozenset(found) for name, found in bound.items()}


def _enclosing(path: str, project: Project) -> list[str]:
    """The modules a file's autoload name spells, innermost first (``provider/openai.rb`` defines
    ``Provider::Openai``: ``provider/openai``, ``provider``), for a file whose class is written ``class A::B``."""
    names = project.cached("ruby-names", lambda p: {file: key for key, file in p.cached("ruby", _prepare)[1].items()})
    key = names.get(path, "")
    parts = key.split("/") if key else []
    return ["/".join(parts[:end]) for end in range(len(parts), 0, -1)]


def _parents(project: Project) -> dict[str, frozenset[str]]:
    """Every Ruby file → the files of its classes' superclasses and mixins."""
    found: dict[str, frozenset[str]] = {}
    for path in project.family_files("ruby"):
        tags = project.tags[path]
        named = {ref.name.lstrip(":") for ref in tags.references if ref.category == "ancestor"}
        if named:
            bound = constants(tags, project)
            found[path] = frozenset(f for name in named for f in bound.get(name, ()))
    return found


def name_scope(tags: FileTags, project: Project, graph: Mapping[str, Sequence[str]]) -> NameScope:
    """``tags.path``'s name scope: constants bound to their autoloaded files, other top-level names to required
    files, methods to the files it loads or names and its classes' ancestors."""
    files, _, roots = project.cached("ruby", _prepare)
    required: set[str] = set()
    for ref in tags.imports:
        if ref.kind == "relative":
            target = ref.target if ref.target.endswith(".rb") else ref.target + ".rb"
            hit = join(parent(tags.path), target)
            if hit is not None and hit in files:
                required.add(hit)
        else:
            required |= _required(files, roots, ref.target)
    parents = project.cached("ruby-parents", _parents)
    ancestors = ancestry(tags.path, parents)
    imported = (frozenset(graph.get(tags.path, ())) | ancestors | required) - {tags.path}
    bound = constants(tags, project)
    loaded = frozenset(required) - {tags.path}

    def receiver(name: str) -> frozenset[str]:
        name = name.lstrip(":")
        if name not in bound:
            return loaded
        return bound[name].union(*(ancestry(path, parents) for path in bound[name]))

    where = {"by_self": ancestors | loaded, "call": imported}
    own = frozenset(d.name for d in tags.definitions)
    return NameScope(imported, loaded, bound, own, calls_by_receiver(tags, where, receiver))
