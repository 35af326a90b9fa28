"""How one file binds the names it uses, for the symbol graph: what a name there can refer to in another file.

Built per language family from the file's tags and its resolved imports (``python.name_scope``,
``javascript.name_scope``); ``searchfiles.graph`` keeps a link to another file only where the scope reaches it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from codeqa.records import FileTags


@dataclass(frozen=True)
class NameScope:
    """How one file binds names, for the symbol graph: what a name there can refer to in another file."""

    imports: frozenset[str]  # repository files it imports, and what the package entries among them import
    modules: frozenset[str]  # ... those imported as modules (``import a.b``, ``from a import b``, JS ``* as m``)
    bound: Mapping[str, frozenset[str]]  # a name an import binds (``from m import name``) → m's files (empty: external)
    own: frozenset[str]  # names it binds itself (functions, classes, variables, parameters)
    # a name bound at one line only (JS ``const { f } = m`` where m is an imported module) → (line, m's files)
    local: Mapping[str, tuple[tuple[int, frozenset[str]], ...]] = field(default_factory=dict)
    # JS/TS: its classes' method names (not in ``own``: ``obj.name()`` may mean another class's method), which reach
    # no function or class elsewhere, and no method in ``inherited`` (its classes' parents' files: it overrides those)
    methods: frozenset[str] = frozenset()
    inherited: frozenset[str] = frozenset()

    def reaches(self, name: str, path: str, *, top_level: bool, lines: tuple[int, int] | None = None) -> bool:
        """Whether ``name`` used in this file (within ``lines``, when known) can mean a definition in ``path``
        (another file): a name bound within those lines from a module means that module's; a name imported from a
        module means that module's; a name of its own means its own; another module's function or class is reached
        through that module (``mod.f``), a method through any object of a class it imports."""
        if lines is not None and name in self.local:
            here = [files for line, files in self.local[name] if lines[0] <= line <= lines[1]]
            before = [(line, files) for line, files in self.local[name] if line < lines[0]]
            if not here and before and name not in self.bound and name not in self.own | self.methods:
                here = [max(before, key=lambda binding: binding[0])[1]]  # a later piece of a long function
            if here:
                return any(path in files for files in here)
        if name in self.bound:
            return path in self.bound[name]
        if name in self.own or (name in self.methods and (top_level or path in self.inherited)):
            return False
        return path in (self.modules if top_level else self.imports)


def ancestry(path: str, parents: Mapping[str, frozenset[str]]) -> frozenset[str]:
    """The files of ``path``'s classes' ancestors (``parents``: each file → the files of its classes' direct parents,
    traits and mixins), followed to the root; ``path`` itself is left out."""
    found: set[str] = set()
    todo = list(parents.get(path, ()))
    while todo:
        item = todo.pop()
        if item not in found and item != path:
            found.add(item)
            todo.extend(parents.get(item, ()))
    return frozenset(found)


Calls = dict[str, tuple[tuple[int, frozenset[str]], ...]]  # ``NameScope.local``: name → (line, files) per call


def calls_by_receiver(
    tags: FileTags, where: Mapping[str, frozenset[str]], receiver: Callable[[str], frozenset[str]]
) -> Calls:
    """Each call's name → (its line, the files it can mean there) as its receiver decides (PHP and Ruby tag queries:
    ``by_self``, ``by_parent``, ``function``, ``call`` → ``where[kind]``; ``by_class`` → ``receiver(name of the
    called_class just before it)``)."""
    found: dict[str, list[tuple[int, frozenset[str]]]] = {}
    called = ""
    for ref in tags.references:
        if ref.category == "called_class":
            called = ref.name
        elif ref.category == "by_class":
            found.setdefault(ref.name, []).append((ref.line, receiver(called)))
        elif ref.category in where:
            found.setdefault(ref.name, []).append((ref.line, where[ref.category]))
    return {name: tuple(lines) for name, lines in found.items()}
