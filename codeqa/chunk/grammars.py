"""Per-language tree-sitter tables: which nodes are definitions and where their names live.

Language support is data: adding a language means adding one ``Grammar`` entry here (and an
extension in ``codeqa.languages``), not writing a class. The chunker in ``treesitter.py`` only
consults these tables.

Definition kinds used here: ``function`` (becomes ``method`` inside a class), ``class`` (classes,
structs, interfaces, enums, traits, impls, objects), ``module`` (named scopes that qualify the
symbols inside them: Ruby/Rust modules), ``namespace`` (scopes that do *not* qualify symbols:
C#/C++/PHP/TS namespaces, so Java/C#/Kotlin symbols read ``Class.method``) and ``config`` (keys and
tables of JSON/YAML/TOML files).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

COMMON_PREFIXES = frozenset({"comment", "line_comment", "block_comment", "multiline_comment"})


@dataclass(frozen=True)
class CallDefinitions:
    """Definitions written as calls (Elixir ``def f(x) do … end``): the callee picks the kind."""

    node: str  # the call node type
    target: str  # field holding the callee
    arguments: str  # child type holding the arguments; the name is in the first one
    kinds: dict[str, str]  # callee -> definition kind
    name_fields: tuple[str, ...]  # followed from the first argument to a name node (`f(x) when …` → f)


@dataclass(frozen=True)
class AssignmentTargets:
    """Which left-hand sides make an assignment of a function a definition (JS ``exports.f = () => …``)."""

    field: str  # the field holding the left-hand side
    types: frozenset[str]  # node types it may be (a name or a member, not ``a[b]``)
    modules: frozenset[str]  # targets that stand for the module itself: not a definition
    dropped: tuple[str, ...] = ("module.exports.", "exports.", "this.")  # prefixes left out of the name


@dataclass(frozen=True)
class Grammar:
    """How to find definitions in one tree-sitter grammar."""

    ts_name: str  # name in tree_sitter_language_pack
    definitions: dict[str, str]  # node type -> definition kind (see module docstring)
    # node type -> field holding the wrapped node (None: its single definition child)
    wrappers: dict[str, str | None] = field(default_factory=dict)
    name_fields: tuple[str, ...] = ("name",)  # fields tried in order for a definition's name
    name_chain: str | None = None  # C/C++: follow this field repeatedly (declarator → identifier)
    name_types: frozenset[str] = frozenset()  # fallback: first named child of one of these types
    receiver_field: str | None = None  # Go methods: `Receiver.Method`
    # variable declarator type -> field whose node type makes it a function (JS `const f = () => …`)
    assigned_functions: dict[str, tuple[str, frozenset[str]]] = field(default_factory=dict)
    assigned_targets: AssignmentTargets | None = None  # left-hand sides an assigned function is named by
    prefixes: frozenset[str] = COMMON_PREFIXES  # nodes that belong to the definition right below them
    body_fields: tuple[str, ...] = ("body",)
    # parse only files whose lines start with fewer than this many indentation/indicator chars:
    # the grammar's external scanner crashes the process on deeper nesting (tree-sitter-yaml 0.7)
    max_indent: int | None = None
    calls: CallDefinitions | None = None
    # node type -> (field, node type): the name is the first such node inside that field (Haskell instances)
    name_descendants: dict[str, tuple[str, str]] = field(default_factory=dict)
    # node types whose consecutive same-named siblings are one definition (a Haskell signature and its equations)
    clauses: frozenset[str] = frozenset()
    inline: frozenset[str] = frozenset()  # lists whose items count as the parent's members (Haskell declarations)


_JS_DEFS = {
    "function_declaration": "function",
    "generator_function_declaration": "function",
    "method_definition": "function",
    "class_declaration": "class",
    "class": "class",
    "variable_declarator": "function",  # only when assigned a function, see assigned_functions
    "assignment_expression": "function",  # CommonJS `exports.f = …`, `Topics.reply = async function …`
    "pair": "function",  # `logout: async (req, res) => …` in an object of handlers
}
_JS_WRAPPERS: dict[str, str | None] = {
    "export_statement": "declaration",
    "lexical_declaration": None,
    "variable_declaration": None,
    "expression_statement": None,
}
_JS_FUNCTIONS = frozenset({"arrow_function", "function_expression", "function", "generator_function"})
_JS_ASSIGNED = {
    "variable_declarator": ("value", _JS_FUNCTIONS),
    "assignment_expression": ("right", _JS_FUNCTIONS),
    "pair": ("value", _JS_FUNCTIONS),
}
# `module.exports = function (Topics) { … }` wraps a whole module: its members are the definitions
_JS_TARGETS = AssignmentTargets(
    "left", frozenset({"identifier", "member_expression"}), frozenset({"module.exports", "exports"})
)
_JS_NAMES = ("name", "left", "key")
_TS_DEFS = {
    **_JS_DEFS,
    "abstract_class_declaration": "class",
    "interface_declaration": "class",
    "enum_declaration": "class",
    "internal_module": "namespace",
    "module": "namespace",
    "function_signature": "function",
    "abstract_method_signature": "function",
}
_JS_PREFIXES = COMMON_PREFIXES | {"decorator"}

_C_DEFS = {
    "function_definition": "function",
    "struct_specifier": "class",
    "union_specifier": "class",
    "enum_specifier": "class",
    "type_definition": "class",
}

_TS = Grammar(
    "typescript",
    _TS_DEFS,
    _JS_WRAPPERS,
    _JS_NAMES,
    assigned_functions=_JS_ASSIGNED,
    assigned_targets=_JS_TARGETS,
    prefixes=_JS_PREFIXES,
)

_HASKELL_DEFS = {
    "function": "function",
    "bind": "function",
    "signature": "function",
    "foreign_import": "function",
    "data_type": "class",
    "newtype": "class",
    "type_synomym": "class",  # sic: the grammar's spelling
    "type_family": "class",
    "data_family": "class",
    "type_instance": "class",
    "data_instance": "class",
    "class": "class",
    "instance": "class",  # named by its type, like a Rust impl: `instance Show (Tree a)` → Tree
}
_ELIXIR_CALLS = CallDefinitions(
    "call",
    "target",
    "arguments",
    {
        "defmodule": "class",
        "defprotocol": "class",
        "defimpl": "class",
        "defstruct": "class",  # anonymous: takes its module's name
        "defexception": "class",
        **dict.fromkeys(("def", "defp", "defmacro", "defmacrop", "defguard", "defguardp", "defdelegate"), "function"),
    },
    ("target", "left"),
)

GRAMMARS: dict[str, Grammar] = {
    "python": Grammar(
        "python",
        {"function_definition": "function", "class_definition": "class"},
        {"decorated_definition": "definition"},
    ),
    "javascript": replace(_TS, ts_name="javascript", definitions=_JS_DEFS),
    "typescript": _TS,
    "tsx": replace(_TS, ts_name="tsx"),
    "ruby": Grammar(
        "ruby",
        {"method": "function", "singleton_method": "function", "class": "class", "module": "module"},
    ),
    "go": Grammar(
        "go",
        {"function_declaration": "function", "method_declaration": "function", "type_spec": "class"},
        {"type_declaration": None},
        receiver_field="receiver",
    ),
    "java": Grammar(
        "java",
        {
            "class_declaration": "class",
            "interface_declaration": "class",
            "enum_declaration": "class",
            "record_declaration": "class",
            "annotation_type_declaration": "class",
            "method_declaration": "function",
            "constructor_declaration": "function",
        },
    ),
    "rust": Grammar(
        "rust",
        {
            "function_item": "function",
            "function_signature_item": "function",
            "struct_item": "class",
            "enum_item": "class",
            "union_item": "class",
            "trait_item": "class",
            "impl_item": "class",
            "mod_item": "module",
            "macro_definition": "function",
        },
        name_fields=("name", "type"),  # impl blocks are named by their Self type
        prefixes=COMMON_PREFIXES | {"attribute_item"},
    ),
    "c": Grammar("c", _C_DEFS, name_fields=("name",), name_chain="declarator"),
    "cpp": Grammar(
        "cpp",
        {**_C_DEFS, "class_specifier": "class", "namespace_definition": "namespace"},
        {"template_declaration": None},
        name_chain="declarator",
    ),
    "csharp": Grammar(
        "csharp",
        {
            "class_declaration": "class",
            "interface_declaration": "class",
            "struct_declaration": "class",
            "enum_declaration": "class",
            "record_declaration": "class",
            "method_declaration": "function",
            "constructor_declaration": "function",
            "local_function_statement": "function",
            "namespace_declaration": "namespace",
        },
    ),
    "php": Grammar(
        "php",
        {
            "function_definition": "function",
            "method_declaration": "function",
            "class_declaration": "class",
            "interface_declaration": "class",
            "trait_declaration": "class",
            "enum_declaration": "class",
            "namespace_definition": "namespace",
        },
        prefixes=COMMON_PREFIXES | {"attribute_list"},
    ),
    "kotlin": Grammar(
        "kotlin",
        {
            "class_declaration": "class",
            "object_declaration": "class",
            "companion_object": "class",
            "function_declaration": "function",
            "secondary_constructor": "function",
        },
        name_types=frozenset({"type_identifier", "simple_identifier"}),
    ),
    "scala": Grammar(
        "scala",
        {
            "class_definition": "class",
            "object_definition": "class",
            "trait_definition": "class",
            "function_definition": "function",
        },
    ),
    "swift": Grammar(
        "swift",
        {
            "class_declaration": "class",
            "protocol_declaration": "class",
            "function_declaration": "function",
            "init_declaration": "function",
        },
        name_types=frozenset({"type_identifier", "simple_identifier", "user_type"}),
    ),
    "lua": Grammar("lua", {"function_declaration": "function"}),
    "bash": Grammar("bash", {"function_definition": "function"}),
    "haskell": Grammar(
        "haskell",
        _HASKELL_DEFS,
        inline=frozenset({"declarations", "class_declarations", "instance_declarations"}),
        prefixes=COMMON_PREFIXES | {"haddock", "pragma"},
        name_descendants={"instance": ("patterns", "name")},
        clauses=frozenset({"signature", "function", "bind"}),
    ),
    "elixir": Grammar(
        "elixir",
        {},
        name_types=frozenset({"identifier", "alias"}),
        prefixes=COMMON_PREFIXES | {"unary_operator"},  # `@doc`, `@spec` above a def
        calls=_ELIXIR_CALLS,
        clauses=frozenset({"call"}),  # `def f(0)`, `def f(n)`
    ),
    # Config files: keys and tables are the units; symbols are dotted key paths.
    "json": Grammar("json", {"pair": "config"}, name_fields=("key",)),
    "yaml": Grammar("yaml", {"block_mapping_pair": "config"}, name_fields=("key",), max_indent=160),
    "toml": Grammar(
        "toml",
        {"table": "config", "table_array_element": "config", "pair": "config"},
        name_types=frozenset({"bare_key", "dotted_key", "quoted_key"}),
    ),
}
