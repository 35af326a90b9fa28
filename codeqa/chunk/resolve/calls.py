"""Python call sites resolved through the file's own scopes and imports, cheaply, leaving the unsure unresolved.

A call resolves to the definitions it can name, as targets ``(module or this file, qualified name)``:
- ``f()``: the file's own ``def f`` / ``class f``; else what an import binds ``f`` to (``from m import f``: ``f`` in
  m; ``from m import *``: ``f`` in m). A parameter, a local variable or a module-level assignment
  (``login = LoginManager()``) is not a function defined anywhere: no target.
- ``mod.f()`` where ``mod`` is an imported module (``import pkg.mod``, ``from pkg import mod``): ``f`` in it;
  ``Cls.f()`` where the file defines or imports ``Cls``: ``Cls.f``.
- ``f()`` inside a function that defines ``f`` itself: that nested function; inside a function that imports ``f``
  itself (``from m import f`` in its body): ``f`` in m, not the file's own ``def f``.
- ``self.f()`` / ``cls.f()``: ``Class.f`` of the enclosing class, of its bases in the file, and of any class in an
  imported base's module (its own bases are there or further up).
- ``task.delay()`` / ``task.apply_async()`` where ``task`` names a function (a Celery task): ``task`` itself, run
  later by a worker (the call enqueues it; ``ENQUEUES``).
- ``obj.f()`` where the enclosing function assigns ``obj = Cls(...)``, ``obj = Cls.make(...)`` or
  ``obj = make()`` with ``make`` annotated ``-> Cls``, annotates ``obj: Cls``, or ``obj`` (or ``x.obj``) is the
  class's name in lower case (``user`` for ``User``): ``Cls.f``.
Anything else (a call on what another call returned, on a name of unknown type) has no target.
Which file a module is, is decided when a target is matched against a definition's path (``Module.holds``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Node

from codeqa.chunk.resolve.pyscope import FileScope, Module, imports_of, locals_of, parse_scope, text_of

SELF = frozenset({"self", "cls"})
ENQUEUES = frozenset({"delay", "apply_async"})  # Celery: ``task.delay(...)`` queues ``task`` for a worker

Target = tuple[Module | None, str]  # (None: this file; the qualified name defined there)


@dataclass(frozen=True)
class CallSite:
    line: int  # 1-based
    caller: str  # the qualified name of the innermost enclosing definition ("" at module level)
    written: str  # the callee as written (``permissions.has_access``)
    targets: tuple[Target, ...]


def _name(scope: FileScope, name: str, local: dict[str, str]) -> list[Target]:
    """What a bare name ``name`` names as a function or class: this file's definition, or an import's."""
    if name in local or name in scope.assigned:
        return []  # a variable: not a definition anywhere (``login = LoginManager()``)
    if name in scope.defined:
        return [(None, name)]
    if name in scope.imported:
        module, inside = scope.imported[name]
        return [(module, inside)] if inside else []
    return [(module, name) for module in scope.starred]


def _member(scope: FileScope, receiver: str, attribute: str, local: dict[str, str], classes: list[str]) -> list[Target]:
    """``receiver.attribute()`` (see the module docstring)."""
    if receiver in SELF and classes:
        return _inherited(scope, classes[-1], attribute)
    if attribute in ENQUEUES:
        queued = [target for target in _name(scope, receiver, local) if "." not in target[1]]
        if queued:
            return queued
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
        made = _class_named(scope, receiver)
    return [(module, f"{name}.{attribute}") for module, name in _name(scope, made, {})] if made else []


def _class_named(scope: FileScope, variable: str) -> str:
    """The class the file defines or imports whose name is ``variable`` capitalized (``user`` → ``User``)."""
    return next((name for name in [*scope.defined, *scope.imported] if name.lower() == variable.lower()
                 and name != variable and name[:1].isupper()), "")  # fmt: skip


def _inherited(scope: FileScope, owner: str, attribute: str, depth: int = 3) -> list[Target]:
    """``self.attribute()`` in class ``owner``: its own method, its bases' in this file (a few levels up), and in
    an imported base's module any class's (the base's own bases live there or further: ``*.attribute``)."""
    found: list[Target] = [(None, f"{owner}.{attribute}")]
    if f"{owner}.{attribute}" in scope.functions:
        return found  # the class's own method: its bases' are overridden
    for base in scope.bases.get(owner, []) if depth else []:
        if base in scope.defined and base not in scope.assigned:
            found += _inherited(scope, base, attribute, depth - 1)
        for module, name in _name(scope, base, {}):
            if module is not None:
                found += [(module, f"{name}.{attribute}"), (module, f"*.{attribute}")]
    return found


def call_sites(path: str, text: str, start: int = 1, end: int | None = None) -> list[CallSite]:
    """The calls on lines ``start``..``end`` of a Python file, each with its enclosing definition and targets."""
    parsed = parse_scope(path, text)
    if parsed is None:
        return []
    root, scope = parsed
    last = end if end is not None else text.count("\n") + 1
    sites: list[CallSite] = []
    found_locals: dict[int, dict[str, str]] = {}
    found_imports: dict[int, dict[str, tuple[Module, str]]] = {}

    def visit(node: Node, names: list[str], classes: list[str], function: Node | None) -> None:
        if node.end_point[0] + 1 < start or node.start_point[0] + 1 > last:
            return
        if node.type in ("function_definition", "class_definition"):
            name = text_of(node.child_by_field_name("name"))
            names = [*names, name]
            if node.type == "class_definition":
                classes = [*classes, ".".join(names)]
            else:
                function = node
        if node.type == "call" and start <= node.start_point[0] + 1 <= last:
            if function is not None and function.id not in found_locals:
                found_locals[function.id] = locals_of(function, scope.returns)
                found_imports[function.id] = imports_of(function, path)
            local = {} if function is None else found_locals[function.id]
            imported = {} if function is None else found_imports[function.id]
            sites.append(_site(scope, node, names, local, classes, imported))
        for child in node.named_children:
            visit(child, names, classes, function)

    visit(root, [], [], None)
    return sites


def _site(
    scope: FileScope,
    call: Node,
    names: list[str],
    local: dict[str, str],
    classes: list[str],
    imported: dict[str, tuple[Module, str]],
) -> CallSite:
    function = call.child_by_field_name("function")
    written = text_of(function)
    targets: list[Target] = []
    if function is not None and function.type == "identifier" and written in imported:  # the function's own import
        module, inside = imported[written]
        targets = [(module, inside)] if inside else []
    elif function is not None and function.type == "identifier":
        targets = _nested(scope, written, names, classes) or _name(scope, written, local)
    elif function is not None and function.type == "attribute":
        receiver, attribute = function.child_by_field_name("object"), text_of(function.child_by_field_name("attribute"))
        if receiver is not None and receiver.type == "identifier":
            targets = _member(scope, text_of(receiver), attribute, local, classes)
        elif receiver is not None and text_of(receiver) in scope.imported:  # a.b.f() after import a.b
            targets = [(scope.imported[text_of(receiver)][0], attribute)]
        elif receiver is not None and receiver.type == "attribute":  # request.user.check_password(): a User's
            made = _class_named(scope, text_of(receiver.child_by_field_name("attribute")))
            targets = [(module, f"{name}.{attribute}") for module, name in _name(scope, made, {})] if made else []
    return CallSite(call.start_point[0] + 1, ".".join(names), written, tuple(targets))


def _nested(scope: FileScope, name: str, names: list[str], classes: list[str]) -> list[Target]:
    """A function defined inside an enclosing function (not a class: its body does not see class attributes)."""
    for end in range(len(names), 0, -1):
        prefix = ".".join(names[:end])
        if prefix not in classes and f"{prefix}.{name}" in scope.functions:
            return [(None, f"{prefix}.{name}")]
    return []


def names_in(site: CallSite, caller_path: str, path: str) -> list[str]:
    """The qualified names ``site`` (in ``caller_path``) can call in the file ``path``."""
    return [name for module, name in site.targets if (path == caller_path if module is None else module.holds(path))]


def resolves_to(site: CallSite, caller_path: str, path: str, qualified: str) -> bool:
    """Whether ``site`` can be a call of ``qualified`` defined in ``path``; a class's name stands for its
    constructor (``User(...)`` calls ``User.__init__``)."""
    method = qualified.rpartition(".")[2]
    return any(name in (qualified, qualified.removesuffix(".__init__")) or (name == f"*.{method}" and "." in qualified)
               for name in names_in(site, caller_path, path))  # fmt: skip


def use_reaches(path: str, text: str, name: str, line: str, used_path: str, *, top_level: bool, at: int = 0) -> bool:
    """Whether a use of ``name`` on ``line`` (file line ``at``, 0 unknown; not a call) can mean its definition in
    ``used_path``: a bare name not bound to something else (an import from another module, a module-level variable,
    a parameter or a local variable of the function the line is in: pontoon's ``update_contribution_timeline``
    assigns ``contributor = User.objects.get(…)``, no use of the view ``def contributor``); ``recv.name`` of a
    function or class only where ``recv`` is a module that holds it (``views.profile``; ``request.profile`` is not)."""
    parsed = parse_scope(path, text)
    if parsed is None or not name.isidentifier():
        return True
    root, scope = parsed
    code = re.sub(r"\"[^\"]*\"|'[^']*'", '""', line)
    if re.search(rf"(?<![\w.]){re.escape(name)}\b", code):
        if name in scope.assigned and name not in scope.defined:
            return False
        function = _function_at(root, at) if at else None
        if function is not None and name in locals_of(function, {}) and name not in imports_of(function, path):
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


def _function_at(node: Node, line: int) -> Node | None:
    """The innermost function definition holding file line ``line`` (1-based) under ``node``."""
    found = None
    for child in node.named_children:
        if child.start_point[0] + 1 <= line <= child.end_point[0] + 1:
            if child.type == "function_definition":
                found = child
            return _function_at(child, line) or found
    return found
