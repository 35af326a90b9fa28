"""cAST-style chunking of source code with tree-sitter.

Definitions (functions, methods, classes…) are the units. A unit larger than the budget is split
into its members (a class into a header plus its methods, a function into runs of statements),
recursively; adjacent small siblings are merged up to the budget (``lines.merge``). Everything is
done on whole lines so chunks tile the file exactly. Which nodes are definitions is data
(``grammars.GRAMMARS``); this module holds the one algorithm for all languages.

Recursion only follows oversized nodes and is capped (``MAX_DEPTH``), beyond which a line-based
split takes over, so pathological nesting cannot hit Python's recursion limit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

from tree_sitter import Node, Parser, Tree

from codeqa.chunk.grammars import GRAMMARS, Grammar
from codeqa.chunk.lines import LineIndex, Piece, merge, split_lines

MAX_DEPTH = 48  # nested oversized nodes followed before falling back to line splitting
MAX_DESCENT = 24  # single-child wrapper levels skipped while looking for a node's members
_RECEIVER = re.compile(r"\(\s*(?:[A-Za-z_]\w*\s+)?\*?\s*([A-Za-z_]\w*)")
_GENERICS = re.compile(r"<[^<>]*>|\[[^\[\]]*\]")


@cache
def get_parser(language: str) -> Parser | None:
    """A cached parser for one of our language names, or None when there is no grammar."""
    grammar = GRAMMARS.get(language)
    if grammar is None:
        return None
    from tree_sitter_language_pack import get_parser as pack_parser

    try:
        return pack_parser(grammar.ts_name)  # type: ignore[arg-type]
    except LookupError:
        return None


def supports(language: str) -> bool:
    return get_parser(language) is not None


@dataclass(frozen=True)
class Scope:
    """Where we are: the prefix for names defined here and the label of anonymous code."""

    prefix: str = ""
    symbol: str = ""
    kind: str = "module"
    container: str = "module"  # module | class | function | namespace | config


@dataclass
class Atom:
    """Sibling nodes that share lines (so cannot be separated), plus comments attached above."""

    start: int
    end: int
    nodes: list[Node]
    defs: list[Node] = field(default_factory=list)
    prefix_only: bool = False
    clauses: list[Atom] = field(default_factory=list)  # the atoms of one definition's clauses, when grouped


def rows(node: Node) -> tuple[int, int]:
    """First and last line of a node; a node ending at column 0 ends on the line before."""
    start, end = node.start_point, node.end_point
    last = end.row - 1 if end.column == 0 and end.row > start.row else end.row
    return start.row, last


def parse(language: str, index: LineIndex) -> tuple[Tree, bytes]:
    """The syntax tree of a file and the bytes it was parsed from; LookupError when the grammar cannot take it."""
    parser = get_parser(language)
    grammar = GRAMMARS.get(language)
    if parser is None or grammar is None:
        raise LookupError(language)
    if grammar.max_indent is not None and _deepest_indent(index) >= grammar.max_indent:
        raise LookupError(f"{language}: nesting too deep for its grammar")
    source = index.text.encode("utf-8", "surrogatepass")
    return parser.parse(source), source


def chunk_tree(
    language: str, index: LineIndex, max_chars: int, min_chars: int, tree: Tree | None = None
) -> list[Piece]:
    """Pieces covering every line of the file (``tree``: its parse, when already made); LookupError: no grammar."""
    grammar = GRAMMARS.get(language)
    if tree is None or grammar is None:
        tree, _ = parse(language, index)
        grammar = GRAMMARS[language]
    chunker = _Chunker(grammar, index, max_chars, min_chars)
    return chunker.split(tree.root_node, 0, index.last, Scope(), 0, header_is_def=False)


class _Chunker:
    def __init__(self, grammar: Grammar, index: LineIndex, max_chars: int, min_chars: int):
        self.g = grammar
        self.index = index
        self.max_chars = max_chars
        self.min_chars = min_chars

    def split(self, node: Node, lo: int, hi: int, scope: Scope, depth: int, *, header_is_def: bool) -> list[Piece]:
        """Pieces covering lines ``lo..hi`` of an oversized ``node`` (the root included)."""
        template = Piece(lo, hi, [scope.symbol] if scope.symbol else [], scope.kind, header_is_def)
        if depth > MAX_DEPTH:
            return split_lines(self.index, lo, hi, self.max_chars, template)
        atoms = self.atoms(self.members(node), lo, hi)
        if not atoms:
            return split_lines(self.index, lo, hi, self.max_chars, template)
        pieces: list[Piece] = []
        if atoms[0].start > lo:  # header: signature, decorators, docstring before the members
            pieces.append(Piece(lo, atoms[0].start - 1, list(template.symbols), scope.kind, header_is_def))
        for atom in atoms:
            pieces.extend(self.atom_pieces(atom, scope, depth))
        return merge(pieces, self.index, self.max_chars)

    def atom_pieces(self, atom: Atom, scope: Scope, depth: int) -> list[Piece]:
        """One piece for an atom that fits, or the recursive split of one that does not."""
        size = self.index.size(atom.start, atom.end)
        if size > self.max_chars and atom.end > atom.start:
            if atom.clauses:  # an oversized multi-clause definition is cut between its clauses first
                return [piece for clause in atom.clauses for piece in self.atom_pieces(clause, scope, depth + 1)]
            if atom.defs:
                target = max(atom.defs, key=_span)
                inner = self.describe(scope, target)[2]
                parts = self.split(target, atom.start, atom.end, inner, depth + 1, header_is_def=True)
                if inner.container in ("class", "function") and parts:
                    # a split class/function keeps to itself: its header does not absorb the
                    # imports above, its last part not the code below (wrappers like
                    # namespaces and modules stay open)
                    parts[0].sealed_start = parts[-1].sealed_end = True
                return parts
            target = max(atom.nodes, key=_span)
            return self.split(target, atom.start, atom.end, scope, depth + 1, header_is_def=False)
        if atom.defs:
            described = [self.describe(scope, d) for d in atom.defs]
            symbols = list(dict.fromkeys(s for s, _, _ in described if s))
            return [Piece(atom.start, atom.end, symbols, described[0][1], True, size >= self.min_chars)]
        return [Piece(atom.start, atom.end, [scope.symbol] if scope.symbol else [], scope.kind)]

    def members(self, node: Node) -> list[Node]:
        """The child nodes to cut ``node`` at: its body's statements/members.

        Descends through wrappers whose children share lines and span the whole node
        (``describe("x", () => {``, Kotlin ``class X {`` without a body field) until there is a
        line to cut at.
        """
        current = node
        kids: list[Node] = []
        for _ in range(MAX_DESCENT):
            body = self.body(current)
            kids = list((body if body is not None else current).named_children)
            if self.g.inline:
                kids = [g for k in kids for g in (k.named_children if k.type in self.g.inline else [k])]
            if body is not None:  # comments between the signature and the body (Ruby)
                first_row = node.start_point.row
                extra = [
                    k
                    for k in current.named_children
                    if k.type in self.g.prefixes and k.start_point.row > first_row and k.end_byte <= body.start_byte
                ]
                kids = sorted(extra + kids, key=lambda k: k.start_byte) if extra else kids
            if not kids or _spread(kids) or not _covers(kids, current):
                return kids
            widest = max(kids, key=_span)
            if _span(widest) == 0 or self.definition(widest) is not None:
                return kids  # a definition is cut by its own atom, in its own scope
            current = widest
        return kids

    def body(self, node: Node) -> Node | None:
        for name in self.g.body_fields:
            body = node.child_by_field_name(name)
            if body is not None and body.named_child_count:
                return body
        return None

    def atoms(self, kids: list[Node], lo: int, hi: int) -> list[Atom]:
        """Group kids sharing lines, attach comments directly above definitions, tile lo..hi."""
        found: list[Atom] = []
        for kid in kids:
            start, end = rows(kid)
            start, end = max(start, lo), min(end, hi)
            if start > hi or end < lo:
                continue
            definition = self.definition(kid)
            is_prefix = kid.type in self.g.prefixes
            last = found[-1] if found else None
            if last is not None and start <= last.end:
                last.end = max(last.end, end)
                last.nodes.append(kid)
                last.defs.extend([definition] if definition is not None else [])
                last.prefix_only = last.prefix_only and is_prefix
                continue
            if last is not None and definition is not None and start == last.end + 1:
                self.carve_trailing_comment(found)
            found.append(Atom(start, end, [kid], [definition] if definition else [], is_prefix))
        for i in range(len(found) - 2, -1, -1):
            above, below = found[i], found[i + 1]
            if above.prefix_only and below.defs and below.start == above.end + 1:
                below.start, below.nodes = above.start, above.nodes + below.nodes
                del found[i]
        if found and self.index.size(lo, found[0].start - 1) == 0:
            found[0].start = lo  # no header when only blank lines precede the first member
        for current, following in zip(found, found[1:], strict=False):
            current.end = following.start - 1
        if found:
            found[-1].end = hi
        return self.group_clauses(found) if self.g.clauses else found

    def group_clauses(self, found: list[Atom]) -> list[Atom]:
        """Join consecutive clauses of one definition (``f :: …``, ``f 0 = …``, ``f n = …``) into one atom."""
        out: list[Atom] = []
        for atom in found:
            last = out[-1] if out else None
            name = self.clause_name(atom.defs[0]) if atom.defs else ""
            if last is not None and last.defs and name and name == self.clause_name(last.defs[-1]):
                clauses = [*(last.clauses or [last]), atom]
                out[-1] = Atom(last.start, atom.end, last.nodes + atom.nodes, last.defs + atom.defs, False, clauses)
            else:
                out.append(atom)
        return out

    def clause_name(self, node: Node) -> str:
        return self.name(node) if node.type in self.g.clauses else ""

    def carve_trailing_comment(self, found: list[Atom]) -> None:
        """Split off a comment that the grammar tucked inside the end of the previous node.

        Some grammars (Kotlin imports) put the doc comment of the next definition inside the
        previous node; it belongs to the definition below.
        """
        last = found[-1]
        if last.prefix_only or last.defs:
            return
        node = last.nodes[-1]
        for _ in range(8):
            count = node.child_count
            if count == 0:
                return
            tail = node.child(count - 1)
            if tail is None:
                return
            if tail.type in self.g.prefixes:
                i = count - 1
                while i > 0 and (prev := node.child(i - 1)) is not None and prev.type in self.g.prefixes:
                    i -= 1
                first = node.child(i)
                row = first.start_point.row if first is not None else last.end + 1
                if last.start < row <= last.end:
                    found.append(Atom(row, last.end, [], [], True))
                    last.end = row - 1
                return
            node = tail

    def definition(self, node: Node) -> Node | None:
        """The definition node ``node`` is or wraps (decorators, exports, templates), if any."""
        current = node
        for _ in range(4):
            kind = current.type
            if self.call_kind(current):
                return current
            if kind in self.g.definitions:
                rule = self.g.assigned_functions.get(kind)
                if rule is None:
                    return current
                value = current.child_by_field_name(rule[0])
                is_function = value is not None and value.type in rule[1]
                return current if is_function and self.names_a_definition(current) else None
            if kind not in self.g.wrappers:
                return None
            field_name = self.g.wrappers[kind]
            if field_name:
                inner = current.child_by_field_name(field_name)
            else:
                candidates = [
                    c for c in current.named_children if c.type in self.g.definitions or c.type in self.g.wrappers
                ]
                inner = candidates[0] if len(candidates) == 1 else None
            if inner is None:
                return None
            current = inner
        return None

    def names_a_definition(self, node: Node) -> bool:
        """Whether an assigned function's left-hand side names it (``exports.f``, ``Topics.reply``), rather than
        standing for the module (``module.exports``) or being computed (``handlers[name]``)."""
        targets = self.g.assigned_targets
        left = node.child_by_field_name(targets.field) if targets is not None else None
        if targets is None or left is None:
            return True
        text = left.text.decode("utf-8", "replace") if left.text else ""
        return left.type in targets.types and "".join(text.split()) not in targets.modules

    def describe(self, scope: Scope, node: Node) -> tuple[str, str, Scope]:
        """Symbol, chunk kind and inner scope of a definition node."""
        def_kind = self.g.definitions.get(node.type) or self.call_kind(node) or "function"
        name = self.name(node)
        if def_kind == "namespace":
            return name, "module", Scope(scope.prefix, name, "module", "namespace")
        qualified = f"{scope.prefix}.{name}" if scope.prefix and name else (name or scope.prefix)
        if def_kind == "function":
            kind = "method" if scope.container == "class" or "." in name else "function"
            return qualified, kind, Scope(qualified, qualified, kind, "function")
        return qualified, def_kind, Scope(qualified, qualified, def_kind, def_kind)

    def call_kind(self, node: Node) -> str | None:
        """The definition kind of a call that defines (Elixir ``def``, ``defmodule``), else None."""
        calls = self.g.calls
        if calls is None or node.type != calls.node:
            return None
        target = node.child_by_field_name(calls.target)
        return calls.kinds.get(target.text.decode("utf-8", "replace")) if target and target.text else None

    def call_name(self, node: Node) -> Node | None:
        """The name node of a defining call: inside its first argument (None: anonymous, like ``defstruct``)."""
        calls = self.g.calls
        assert calls is not None
        arguments = next((c for c in node.named_children if c.type == calls.arguments), None)
        found = arguments.named_children[0] if arguments is not None and arguments.named_child_count else None
        for _ in range(8):
            if found is None or found.type in self.g.name_types:
                return found
            found = next(filter(None, (found.child_by_field_name(f) for f in calls.name_fields)), None)
        return None

    def name_node(self, node: Node) -> Node | None:
        rule = self.g.name_descendants.get(node.type)
        holder = node.child_by_field_name(rule[0]) if rule else None
        if rule and holder is not None:
            return next((n for n in _descendants(holder) if n.type == rule[1]), None)
        found: Node | None = None
        for field_name in self.g.name_fields:
            found = node.child_by_field_name(field_name)
            if found is not None:
                break
        if found is None and self.g.name_chain:
            current = node.child_by_field_name(self.g.name_chain)
            for _ in range(16):
                deeper = current.child_by_field_name(self.g.name_chain) if current else None
                if deeper is None:
                    break
                current = deeper
            found = current
        if found is None and self.g.name_types:
            found = next((c for c in node.named_children if c.type in self.g.name_types), None)
        return found

    def name(self, node: Node) -> str:
        """The bare (or receiver-qualified) name of a definition; "" when anonymous."""
        found = self.call_name(node) if self.call_kind(node) else self.name_node(node)
        name = clean_name(found.text.decode("utf-8", "replace")) if found and found.text else ""
        targets = self.g.assigned_targets
        if targets is not None and found is not None and found.type in targets.types and "." in name:
            name = _assigned_name(name, targets.dropped)
        receiver = node.child_by_field_name(self.g.receiver_field) if self.g.receiver_field else None
        if receiver is not None and receiver.text:
            match = _RECEIVER.match(receiver.text.decode("utf-8", "replace"))
            if match:
                return f"{match.group(1)}.{name}"
        return name


def clean_name(text: str) -> str:
    """One-line, language-neutral name: ``a::b``/``a\\b`` → ``a.b``, generics and quotes dropped."""
    text = " ".join(text.split())
    text = _GENERICS.sub("", text).replace("::", ".").replace("\\", ".")
    if len(text) > 1 and text[0] == text[-1] and text[0] in "\"'`":  # not Haskell's `f'`
        text = text[1:-1]
    text = text.lstrip("*&")
    if "(" in text:
        text = text.split("(", 1)[0].strip()
    return text[:120]


def _assigned_name(name: str, dropped: tuple[str, ...]) -> str:
    """``exports.postLogin`` → ``postLogin``, ``User.prototype.save`` → ``User.save``."""
    for prefix in dropped:
        if name.startswith(prefix) and len(name) > len(prefix):
            name = name[len(prefix) :]
            break
    return name.replace(".prototype.", ".")


def _descendants(node: Node, limit: int = 64) -> list[Node]:
    """Named nodes below ``node`` in pre-order (at most ``limit``)."""
    out: list[Node] = []
    stack = list(reversed(node.named_children))
    while stack and len(out) < limit:
        current = stack.pop()
        out.append(current)
        stack.extend(reversed(current.named_children))
    return out


def _span(node: Node) -> int:
    return node.end_point.row - node.start_point.row


def _deepest_indent(index: LineIndex) -> int:
    """Longest run of indentation and block indicators (``- ``, ``? ``, ``: ``) starting a line."""
    return max((len(line) - len(line.lstrip(" \t-?:")) for line in index.lines), default=0)


def _covers(kids: list[Node], node: Node) -> bool:
    """True when the kids span every line of ``node`` (no header or trailer line to cut at)."""
    first, last = rows(node)
    return rows(kids[0])[0] <= first and max(rows(k)[1] for k in kids) >= last


def _spread(kids: list[Node]) -> bool:
    """True when the kids do not all share lines with each other (there is a place to cut)."""
    end = -1
    for kid in kids:
        start, last = rows(kid)
        if end >= 0 and start > end:
            return True
        end = max(end, last)
    return False
