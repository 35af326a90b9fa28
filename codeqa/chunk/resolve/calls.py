"""Python call sites resolved through the file's own scopes and imports, cheaply, leaving the unsure unresolved.

A call resolves to the definitions it can name, as targets ``(module or this file, qualified name)``:
- ``f()``: the file's own ``def f`` / ``class f``; else what an import binds ``f`` to (``from m import f``: ``f`` in
  m). A parameter, a local variable or a module-level assignment (``login = LoginManager()``) is not a function
  defined anywhere: no target.
- ``mod.f()`` where ``mod`` is an imported module (``import pkg.mod``, ``from pkg import mod``): ``f`` in it;
  ``Cls.f()`` where the file defines or imports ``Cls``: ``Cls.f``.
- ``self.f()`` / ``cls.f()``: ``Class.f`` of the enclosing class, and of its bases (resolved like names).
- ``obj.f()`` where the enclosing function assigns ``obj = Cls(...)`` or ``obj = Cls.make(...)``, annotates
  ``obj: Cls``, or ``obj`` is the class's name in lower case (``user`` for ``User``): ``Cls.f``.
Anything else (a call on what another call returned, on an attribute, on a name of unknown type) has no target.
Which file a module is, is decided when a target is matched against a definition's path (``Module.holds``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from tree_sitter import Node

from codeqa.chunk.resolve.project import join, parent
from codeqa.chunk.treesitter import get_parser

SELF = frozenset({"self", "cls"})


@dataclass(frozen=True)
class Module:
    """A module as an import names it: dotted, with its relative level, from the importing file."""

    dotted: str
    level: int = 0
    origin: str = ""

    def stem(self) -> str | None:
        """Its path without ``.py`` (absolute imports: the tail a file's path must end with)."""
        dotted = self.dotted.replace(".", "/")
        if not self.level:
            return dotted
        base = parent(self.origin)
        for _ in range(self.level - 1):
            base = parent(base)
        return join(base, dotted)

    def holds(self, path: str) -> bool:
        """Whether ``path`` is this module's file, or a file inside its package (a package re-exports its own)."""
        want = self.stem()
        if want is None:
            return False
        stem = path[:-3] if path.endswith(".py") else path
        stem = stem.removesuffix("/__init__")
        if self.level:
            return stem == want or (bool(want) and stem.startswith(want + "/")) or not want
        return stem == want or stem.endswith("/" + want) or stem.startswith(want + "/") or f"/{want}/" in stem


Target = tuple[Module | None, str]  # (None: this file; the qualified name defined there)


@dataclass(frozen=True)
class CallSite:
    line: int  # 1-based
    caller: str  # the qualified name of the innermost enclosing definition ("" at module level)
    written: str  # the callee as written (``permissions.has_access``)
    targets: tuple[Target, ...]


@dataclass
class _Scope:
    """Names one file binds: its definitions, imports, module-level assignments, classes' bases."""

    path: str
    defined: dict[str, str] = field(default_factory=dict)  # top-level def/class name → "def" or "class"
    assigned: dict[str, str] = field(default_factory=dict)  # module-level name → the class it is made of ("")
    imported: dict[str, tuple[Module, str]] = field(default_factory=dict)  # name → (module, name in it; "" module)
    bases: dict[str, list[str]] = field(default_factory=dict)  # qualified class name → base names


def _text(node: Node | None) -> str:
    return node.text.decode("utf-8", "replace") if node is not None and node.text is not None else ""


def _module(node: Node, origin: str) -> Module:
    if node.type == "relative_import":
        prefix = next((c for c in node.children if c.type == "import_prefix"), None)
        dotted = next((c for c in node.children if c.type == "dotted_name"), None)
        return Module(_text(dotted), len(_text(prefix)), origin)
    return Module(_text(node))


def _imports(node: Node, scope: _Scope) -> None:
    if node.type == "import_statement":
        for name in node.children_by_field_name("name"):
            if name.type == "aliased_import":
                scope.imported[_text(name.child_by_field_name("alias"))] = (
                    Module(_text(name.child_by_field_name("name"))),
                    "",
                )
            else:  # import a.b.c binds a; a.b.c.f() is looked up by its dotted receiver
                dotted = _text(name)
                scope.imported.setdefault(dotted.split(".")[0], (Module(dotted.split(".")[0]), ""))
                scope.imported[dotted] = (Module(dotted), "")
    elif node.type == "import_from_statement":
        module_node = node.child_by_field_name("module_name")
        if module_node is None:
            return
        module = _module(module_node, scope.path)
        for name in node.children_by_field_name("name"):
            original, alias = (name.child_by_field_name("name"), name.child_by_field_name("alias")) \
                if name.type == "aliased_import" else (name, name)  # fmt: skip
            scope.imported[_text(alias)] = (module, _text(original))


def _made_of(value: Node | None) -> str:
    """``Cls(...)`` or ``Cls.make(...)`` → ``Cls`` (what an assignment's value is probably an instance of)."""
    if value is None or value.type != "call":
        return ""
    function = value.child_by_field_name("function")
    if function is not None and function.type == "attribute":
        function = function.child_by_field_name("object")
    name = _text(function) if function is not None and function.type == "identifier" else ""
    return name if name[:1].isupper() else ""  # a class, by convention (``get_user()`` is not one)


@lru_cache(maxsize=64)
def _parse(path: str, text: str) -> tuple[Node, _Scope] | None:
    parser = get_parser("python")
    if parser is None:
        return None
    root = parser.parse(text.encode("utf-8", "surrogatepass")).root_node
    scope = _Scope(path)
    stack = [(root, "")]
    while stack:
        node, prefix = stack.pop()
        if node.type in ("import_statement", "import_from_statement"):
            _imports(node, scope)
            continue
        if node.type in ("function_definition", "class_definition"):
            name = _text(node.child_by_field_name("name"))
            qualified = f"{prefix}.{name}" if prefix else name
            if not prefix:
                scope.defined[name] = "class" if node.type == "class_definition" else "def"
            if node.type == "class_definition":
                arguments = node.child_by_field_name("superclasses")
                scope.bases[qualified] = [_text(c) for c in arguments.named_children] if arguments else []
            prefix = qualified
        elif node.type == "assignment" and node.parent is not None and node.parent.parent == root:
            left = node.child_by_field_name("left")
            if left is not None and left.type == "identifier":
                scope.assigned[_text(left)] = _made_of(node.child_by_field_name("right"))
        stack.extend((child, prefix) for child in reversed(node.named_children))
    return root, scope


def _locals(function: Node) -> dict[str, str]:
    """A function's parameters and local variables → the class each is probably an instance of ("" unknown)."""
    found: dict[str, str] = {}
    parameters = function.child_by_field_name("parameters")
    for parameter in parameters.named_children if parameters else []:
        if parameter.type == "identifier":
            found[_text(parameter)] = ""
        elif parameter.type in ("typed_parameter", "typed_default_parameter", "default_parameter"):
            name = parameter.child_by_field_name("name") or next(
                (c for c in parameter.named_children if c.type == "identifier"), None
            )
            kind = parameter.child_by_field_name("type")
            found[_text(name)] = _text(kind) if kind is not None and _text(kind).isidentifier() else ""
    stack = list(function.named_children)
    while stack:
        node = stack.pop()
        if node.type in ("function_definition", "class_definition", "lambda"):
            continue
        if node.type == "assignment":
            left, kind = node.child_by_field_name("left"), node.child_by_field_name("type")
            if left is not None and left.type == "identifier":
                made = _text(kind) if kind is not None and _text(kind).isidentifier() else ""
                found[_text(left)] = made or _made_of(node.child_by_field_name("right")) or found.get(_text(left), "")
            elif left is not None:
                found.update({_text(n): "" for n in left.named_children if n.type == "identifier"})
        elif node.type in ("for_statement", "with_item", "as_pattern") or node.type.endswith("_clause"):
            target = node.child_by_field_name("left") or node.child_by_field_name("alias")
            if target is not None:
                found.setdefault(_text(target), "")
        stack.extend(node.named_children)
    return found


def _name(scope: _Scope, name: str, local: dict[str, str]) -> list[Target]:
    """What a bare name ``name`` names as a function or class: this file's definition, or an import's."""
    if name in local or name in scope.assigned:
        return []  # a variable: not a definition anywhere (``login = LoginManager()``)
    if name in scope.defined:
        return [(None, name)]
    if name in scope.imported:
        module, inside = scope.imported[name]
        return [(module, inside)] if inside else []
    return []


def _member(scope: _Scope, receiver: str, attribute: str, local: dict[str, str], classes: list[str]) -> list[Target]:
    """``receiver.attribute()`` (see the module docstring)."""
    if receiver in SELF and classes:
        owner = classes[-1]
        found: list[Target] = [(None, f"{owner}.{attribute}")]
        for base in scope.bases.get(owner, []):
            found += [(module, f"{name}.{attribute}") for module, name in _name(scope, base, {})]
        return found
    if receiver in scope.imported and receiver not in local:
        module, inside = scope.imported[receiver]
        if not inside:  # import pkg.mod [as m]
            return [(module, attribute)]
        submodule = Module(f"{module.dotted}.{inside}" if module.dotted else inside, module.level, module.origin)
        return [(submodule, attribute), (module, f"{inside}.{attribute}")]  # a module, or a class, imported
    if receiver in scope.defined and receiver not in local:
        return [(None, f"{receiver}.{attribute}")]
    made = local.get(receiver) or scope.assigned.get(receiver, "")
    if not made and receiver not in scope.assigned:
        made = next((name for name in [*scope.defined, *scope.imported] if name.lower() == receiver.lower()
                     and name != receiver and name[:1].isupper()), "")  # fmt: skip
    return [(module, f"{name}.{attribute}") for module, name in _name(scope, made, {})] if made else []


def call_sites(path: str, text: str, start: int = 1, end: int | None = None) -> list[CallSite]:
    """The calls on lines ``start``..``end`` of a Python file, each with its enclosing definition and targets."""
    parsed = _parse(path, text)
    if parsed is None:
        return []
    root, scope = parsed
    last = end if end is not None else text.count("\n") + 1
    sites: list[CallSite] = []
    locals_of: dict[int, dict[str, str]] = {}

    def visit(node: Node, names: list[str], classes: list[str], function: Node | None) -> None:
        if node.end_point[0] + 1 < start or node.start_point[0] + 1 > last:
            return
        if node.type in ("function_definition", "class_definition"):
            name = _text(node.child_by_field_name("name"))
            names = [*names, name]
            if node.type == "class_definition":
                classes = [*classes, ".".join(names)]
            else:
                function = node
        if node.type == "call" and start <= node.start_point[0] + 1 <= last:
            local = {} if function is None else locals_of.setdefault(function.id, _locals(function))
            sites.append(_site(scope, node, ".".join(names), local, classes))
        for child in node.named_children:
            visit(child, names, classes, function)

    visit(root, [], [], None)
    return sites


def _site(scope: _Scope, call: Node, caller: str, local: dict[str, str], classes: list[str]) -> CallSite:
    function = call.child_by_field_name("function")
    written = _text(function)
    targets: list[Target] = []
    if function is not None and function.type == "identifier":
        targets = _name(scope, written, local)
    elif function is not None and function.type == "attribute":
        receiver, attribute = function.child_by_field_name("object"), _text(function.child_by_field_name("attribute"))
        if receiver is not None and receiver.type == "identifier":
            targets = _member(scope, _text(receiver), attribute, local, classes)
        elif receiver is not None and _text(receiver) in scope.imported:  # a.b.f() after import a.b
            targets = [(scope.imported[_text(receiver)][0], attribute)]
    return CallSite(call.start_point[0] + 1, caller, written, tuple(targets))


def names_in(site: CallSite, caller_path: str, path: str) -> list[str]:
    """The qualified names ``site`` (in ``caller_path``) can call in the file ``path``."""
    return [name for module, name in site.targets if (path == caller_path if module is None else module.holds(path))]


def resolves_to(site: CallSite, caller_path: str, path: str, qualified: str) -> bool:
    """Whether ``site`` can be a call of ``qualified`` defined in ``path``; a class's name stands for its
    constructor (``User(...)`` calls ``User.__init__``)."""
    return any(name in (qualified, qualified.removesuffix(".__init__")) for name in names_in(site, caller_path, path))


def use_reaches(path: str, text: str, name: str, line: str, used_path: str, *, top_level: bool) -> bool:
    """Whether a use of ``name`` on ``line`` (not a call) can mean its definition in ``used_path``: a bare name not
    bound to something else (an import from another module, a module-level variable); ``recv.name`` of a function
    or class only where ``recv`` is a module that holds it (``views.profile``; ``request.profile`` is not)."""
    parsed = _parse(path, text)
    if parsed is None or not name.isidentifier():
        return True
    scope = parsed[1]
    code = re.sub(r"\"[^\"]*\"|'[^']*'", '""', line)
    if re.search(rf"(?<![\w.]){re.escape(name)}\b", code):
        if name in scope.assigned and name not in scope.defined:
            return False
        if name in scope.imported:
            return _holds(*scope.imported[name], used_path)
        return True
    if not top_level:
        return True  # an attribute of an object: any class's, as far as this file tells
    receivers = re.findall(rf"([A-Za-z_]\w*)\s*\.\s*{re.escape(name)}\b", code)
    return any(r in scope.imported and _module_holds(*scope.imported[r], used_path) for r in receivers)


def _holds(module: Module, inside: str, path: str) -> bool:
    """Whether what ``from module import inside`` (or ``import module``) binds can be defined in ``path``."""
    return module.holds(path) or (bool(inside) and _module_holds(module, inside, path))


def _module_holds(module: Module, inside: str, path: str) -> bool:
    """Whether the module a name is bound to (``import a.b``, ``from a import b``) is the file ``path``."""
    named = Module(f"{module.dotted}.{inside}".strip("."), module.level, module.origin) if inside else module
    return named.holds(path)
