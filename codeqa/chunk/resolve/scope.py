"""How one file binds the names it uses, for the symbol graph: what a name there can refer to in another file.

Built per language family from the file's tags and its resolved imports (``python.name_scope``,
``javascript.name_scope``); ``searchfiles.graph`` keeps a link to another file only where the scope reaches it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class NameScope:
    """How one file binds names, for the symbol graph: what a name there can refer to in another file."""

    imports: frozenset[str]  # repository files it imports, and what the package entries among them import
    modules: frozenset[str]  # ... those imported as modules (``import a.b``, ``from a import b``, JS ``* as m``)
    bound: Mapping[str, frozenset[str]]  # a name an import binds (``from m import name``) → m's files (empty: external)
    own: frozenset[str]  # names it binds itself (functions, classes, variables, parameters)
    # a name bound at one line only (JS ``const { f } = m`` where m is an imported module) → (line, m's files)
    local: Mapping[str, tuple[tuple[int, frozenset[str]], ...]] = field(default_factory=dict)

    def reaches(self, name: str, path: str, *, top_level: bool, lines: tuple[int, int] | None = None) -> bool:
        """Whether ``name`` used in this file (within ``lines``, when known) can mean a definition in ``path``
        (another file): a name bound within those lines from a module means that module's; a name imported from a
        module means that module's; a name of its own means its own; another module's function or class is reached
        through that module (``mod.f``), a method through any object of a class it imports."""
        if lines is not None and name in self.local:
            here = [files for line, files in self.local[name] if lines[0] <= line <= lines[1]]
            before = [(line, files) for line, files in self.local[name] if line < lines[0]]
            if not here and before and name not in self.bound and name not in self.own:
                here = [max(before, key=lambda binding: binding[0])[1]]  # a later piece of a long function
            if here:
                return any(path in files for files in here)
        if name in self.bound:
            return path in self.bound[name]
        if name in self.own:
            return False
        return path in (self.modules if top_level else self.imports)
