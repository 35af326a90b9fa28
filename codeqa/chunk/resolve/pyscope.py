"""What one Python file binds, read from its syntax tree: imports, top-level definitions, module-level assignments,
classes' bases, functions' return annotations, and a function's locals (``chunk.resolve.calls`` reads them).

Modules are kept as an import names them (dotted, with a relative level); which file one is, is decided when it is
matched against a path (``Module.holds``), so no repository-wide lookup is needed to read one file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from tree_sitter import Node

from codeqa.chunk.resolve.project import join, parent
from codeqa.chunk.treesitter import get_parser


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


@dataclass
class FileScope:
    """Names one file binds: its definitions, imports, module-level assignments, classes' bases."""

    path: str
    defined: dict[str, str] = field(default_factory=dict)  # top-level def/class name → "def" or "class"
    assigned: dict[str, str] = field(default_factory=dict)  # module-level name → the class it is made of ("")
    imported: dict[str, tuple[Module, str]] = field(default_factory=dict)  # name → (module, name in it; "" module)
    bases: dict[str, list[str]] = field(default_factory=dict)  # qualified class name → base names
    functions: set[str] = field(default_factory=set)  # every qualified function name (nested ones too)
    returns: dict[str, str] = field(default_factory=dict)  # function name → the class its annotation returns
    starred: list[Module] = field(default_factory=list)  # modules imported with ``*``


def text_of(node: Node | None) -> str:
    return node.text.decode("utf-8", "replace") if node is not None and node.text is not None else ""


def _module(node: Node, origin: str) -> Module:
    if node.type == "relative_import":
        prefix = next((c for c in node.children if c.type == "import_prefix"), None)
        dotted = next((c for c in node.children if c.type == "dotted_name"), None)
        return Module(text_of(dotted), len(text_of(prefix)), origin)
    return Module(text_of(node))


def _imports(node: Node, scope: FileScope) -> None:
    if node.type == "import_statement":
        for name in node.children_by_field_name("name"):
            if name.type == "aliased_import":
                scope.imported[text_of(name.child_by_field_name("alias"))] = (
                    Module(text_of(name.child_by_field_name("name"))),
                    "",
                )
            else:  # import a.b.c binds a; a.b.c.f() is looked up by its dotted receiver
                dotted = text_of(name)
                scope.imported.setdefault(dotted.split(".")[0], (Module(dotted.split(".")[0]), ""))
                scope.imported[dotted] = (Module(dotted), "")
    elif node.type == "import_from_statement":
        module_node = node.child_by_field_name("module_name")
        if module_node is None:
            return
        module = _module(module_node, scope.path)
        if any(child.type == "wildcard_import" for child in node.named_children):
            scope.starred.append(module)  # from m import *: any name m defines
        for name in node.children_by_field_name("name"):
            original, alias = (name.child_by_field_name("name"), name.child_by_field_name("alias")) \
                if name.type == "aliased_import" else (name, name)  # fmt: skip
            scope.imported[text_of(alias)] = (module, text_of(original))


def made_of(value: Node | None, returns: dict[str, str] | None = None) -> str:
    """``Cls(...)``, ``Cls.make(...)`` or ``f(...)`` where ``f`` is annotated ``-> Cls``: ``Cls`` (what an
    assignment's value is probably an instance of)."""
    if value is None or value.type != "call":
        return ""
    function = value.child_by_field_name("function")
    if function is not None and function.type == "attribute":
        function = function.child_by_field_name("object")
    name = text_of(function) if function is not None and function.type == "identifier" else ""
    if returns and name in returns:
        return returns[name]
    return name if name[:1].isupper() else ""  # a class, by convention (``get_user()`` is not one)


@lru_cache(maxsize=64)
def parse_scope(path: str, text: str) -> tuple[Node, FileScope] | None:
    parser = get_parser("python")
    if parser is None:
        return None
    root = parser.parse(text.encode("utf-8", "surrogatepass")).root_node
    scope = FileScope(path)
    stack = [(root, "")]
    while stack:
        node, prefix = stack.pop()
        if node.type in ("import_statement", "import_from_statement"):
            _imports(node, scope)
            continue
        if node.type in ("function_definition", "class_definition"):
            name = text_of(node.child_by_field_name("name"))
            qualified = f"{prefix}.{name}" if prefix else name
            if not prefix:
                scope.defined[name] = "class" if node.type == "class_definition" else "def"
            if node.type == "class_definition":
                arguments = node.child_by_field_name("superclasses")
                scope.bases[qualified] = [text_of(c) for c in arguments.named_children] if arguments else []
            else:
                scope.functions.add(qualified)
                returned = text_of(node.child_by_field_name("return_type"))
                if returned.isidentifier() and returned[:1].isupper() and not prefix:
                    scope.returns[name] = returned
            prefix = qualified
        elif node.type == "assignment" and _module_level(node, root):
            left = node.child_by_field_name("left")
            if left is not None and left.type == "identifier":
                scope.assigned[text_of(left)] = made_of(node.child_by_field_name("right"))
        stack.extend((child, prefix) for child in reversed(node.named_children))
    return root, scope


def imports_of(function: Node, path: str) -> dict[str, tuple[Module, str]]:
    """The names a function's own import statements bind (``from dispatch.common.utils.cli import install_plugins``
    inside ``def start_tasks``): there they mean the import, not the file's top-level definition of the same name."""
    scope = FileScope(path)
    stack = list(function.named_children)
    while stack:
        node = stack.pop()
        if node.type in ("function_definition", "class_definition", "lambda"):
            continue
        if node.type in ("import_statement", "import_from_statement"):
            _imports(node, scope)
            continue
        stack.extend(node.named_children)
    return scope.imported


def module_objects(path: str, text: str) -> dict[str, str]:
    """The module-level objects a file makes of a class it defines (``multipass = IndicoMultipass()``): name → class."""
    parsed = parse_scope(path, text)
    scope = parsed[1] if parsed is not None else FileScope(path)
    return {name: made for name, made in scope.assigned.items() if scope.defined.get(made) == "class"}


def _module_level(node: Node, root: Node) -> bool:
    """A statement of the module itself: a child of the root, or of an ``expression_statement`` that is (grammars
    differ in whether that node is shown)."""
    parent = node.parent
    return parent is not None and (parent.id == root.id or (parent.parent is not None and parent.parent.id == root.id))


def locals_of(function: Node, returns: dict[str, str]) -> dict[str, str]:
    """A function's parameters and local variables → the class each is probably an instance of ("" unknown)."""
    found: dict[str, str] = {}
    parameters = function.child_by_field_name("parameters")
    for parameter in parameters.named_children if parameters else []:
        if parameter.type == "identifier":
            found[text_of(parameter)] = ""
        elif parameter.type in ("typed_parameter", "typed_default_parameter", "default_parameter"):
            name = parameter.child_by_field_name("name") or next(
                (c for c in parameter.named_children if c.type == "identifier"), None
            )
            kind = parameter.child_by_field_name("type")
            found[text_of(name)] = text_of(kind) if kind is not None and text_of(kind).isidentifier() else ""
    stack = list(function.named_children)
    while stack:
        node = stack.pop()
        if node.type in ("function_definition", "class_definition", "lambda"):
            continue
        if node.type == "assignment":
            left, kind = node.child_by_field_name("left"), node.child_by_field_name("type")
            if left is not None and left.type == "identifier":
                made = text_of(kind) if kind is not None and text_of(kind).isidentifier() else ""
                made = made or made_of(node.child_by_field_name("right"), returns)
                found[text_of(left)] = made or found.get(text_of(left), "")
            elif left is not None:
                found.update({text_of(n): "" for n in left.named_children if n.type == "identifier"})
        elif node.type in ("for_statement", "with_item", "as_pattern") or node.type.endswith("_clause"):
            target = node.child_by_field_name("left") or node.child_by_field_name("alias")
            if target is not None:
                found.setdefault(text_of(target), "")
        stack.extend(node.named_children)
    return found
