"""The call flow between the chunks of an answer: roles from layers, links from the symbol graph checked in code.

A link ``A → B`` is claimed only when
1. the symbol graph has the edge (A's text names something B defines, and the name is not defined all over), and
2. A really uses the name in *code*: on a line that is not a comment, with string literals blanked out (a
   template file name ``"reset_password.html"`` is not a use of ``reset_password``), and not B's own definition,
3. and the use can reach B: same file; or A's file imports B's file (resolved at index time); or a member access
   (``obj.save(``) of a method B defines; or A's language resolves names without imports (Ruby, PHP, Go in one
   package directory).
Steps are grouped by role (entry point → logic → data → configuration → docs → tests, from each chunk's layer)
and ordered inside a role so that callers come before what they call.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

from codeqa.records import Chunk
from codeqa.symbols import qualified_names, short_name

ROLE_OF_LAYER = {
    "api": "entry", "cli": "entry", "view": "entry",
    "service": "logic", "core": "logic", "util": "logic",
    "model": "data", "migration": "data",
    "config": "config", "build": "config",
    "docs": "docs", "test": "test",
}  # fmt: skip
ROLES = ("entry", "logic", "data", "config", "docs", "test")
ROLE_TITLES = {
    "entry": "Entry point",
    "logic": "Logic",
    "data": "Data and storage",
    "config": "Configuration",
    "docs": "Documentation",
    "test": "Tests",
}
LAYER_ORDER = {"api": 0, "cli": 1, "view": 2, "service": 0, "core": 1, "util": 2, "model": 0, "migration": 1}
EXPLICIT_IMPORTS = frozenset({"python", "javascript", "typescript", "tsx", "jsx", "vue", "svelte", "java", "kotlin"})
STRING = re.compile(r"\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\\n]|\\.)*`")
COMMENT_LINE = re.compile(r"^\s*(?:#|//|/\*|\*|--|<!--)")
TYPESPEC = re.compile(r"^\s*@(?:spec|callback|macrocallback)\b|^-(?:spec|callback)\b")  # Elixir, Erlang
TRAILING_COMMENT = re.compile(r"\s(?:#|//)\s.*$")
IMPORT_LINE = re.compile(r"^\s*(?:import|from\s+\S+\s+import|require|use|using|#include|export\s+\{?.*from)\b")
DEFINES = r"(?:def|class|function\*?|func|fn|interface|struct|module|type|const|let|var)\s+(?:\([^)]*\)\s*)?"
OPENS = {"(": ")", "{": "}"}
MEMBER_CALL = re.compile(r"(?:\.|::|->)([A-Za-z_]\w*[?!]?)\s*\(")
RUBY_MEMBER_CALL = re.compile(r"(?:\.|::)([a-z_]\w*[?!]?)")
ENTRY_STEMS = frozenset({"__init__", "index", "mod"})
SIGNATURE = re.compile(r"^\s*(?:(?:export|public|private|protected|static|async|pub)\s+)*(?:def|func|fn|function)\b")
RECEIVER = re.compile(r"(?<![\w.])([A-Z][\w]*(?:::[A-Z]\w*)*)\s*(?:\.|::|->)$")
ANNOTATING_LANGUAGES = frozenset({"java", "kotlin", "scala", "csharp"})  # `@Name(…)` is metadata, not a call
METHOD_HEAD = r"^\s*(?:(?:async|static|public|private|protected|override|get|set|function)\s+)*"


@dataclass(frozen=True)
class Use:
    """Where chunk A uses a name chunk B defines."""

    name: str
    line: int  # 1-based file line in A
    verb: str  # "calls" or "uses" (a type, a base class, a constant, a reference passed along)
    text: str  # that line, stripped
    caller: str = ""  # the definition enclosing the line, where a resolver found it (``claims``)


def said_verb(use: Use) -> str:
    """How a sentence says ``use``: "throws" for an exception built to be thrown (``throw new DaemonConnectionException(
    $e)``, ``raise NotFound(…)``): what a reader calls raising an error, not calling it; else its verb."""
    if use.verb != "calls":
        return use.verb
    name = re.escape(short_name(_bare(use.name)))
    thrown = re.search(rf"\b(?:throw|raise)\s+(?:new\s+)?(?:[\w\\.]*[\\.])?{name}\s*\(", use.text)
    return "throws" if thrown else use.verb


def role_of(chunk: Chunk) -> str:
    return ROLE_OF_LAYER.get(str(chunk.layer), "logic")


def code_part(line: str) -> str:
    """``line`` with string literals blanked and a trailing comment cut (what the code itself names)."""
    line = STRING.sub('""', line)
    return TRAILING_COMMENT.sub("", line)


def names_of(chunk: Chunk) -> list[str]:
    """The names a chunk defines that can be looked for in other code (short names, 3+ characters)."""
    names = []
    for qualified in qualified_names(chunk.symbol):
        last = short_name(qualified)
        if len(last) >= 3 and last not in names:
            names.append(last)
    return names


def is_method(chunk: Chunk, name: str) -> bool:
    """True when ``name`` is defined inside a class or module in this chunk (``Class.name``)."""
    return any(short_name(q) == name and q != name for q in qualified_names(chunk.symbol))


def find_uses(user: Chunk, used: Chunk, names: Sequence[str] | None = None) -> list[Use]:
    """The code lines of ``user`` that name something ``used`` defines (or one of ``names``); comments, strings and
    definitions are skipped."""
    names = list(names) if names is not None else names_of(used)
    if not names:
        return []
    alternatives = "|".join(map(re.escape, sorted(names, key=len, reverse=True)))
    pattern = re.compile(rf"(?<![\w$])(?P<name>{alternatives})(?![\w$])(?P<call>\s*\()?")
    found: list[Use] = []
    closer: str | None = None  # inside a multi-line import: the bracket that ends it
    exporting = False  # inside a multi-line export list (`module.exports = {`)
    for offset, line in enumerate(user.text.split("\n")):
        if closer is not None:
            closer = None if closer in line else closer
            continue
        if exporting and EXPORTED_ENTRY.match(line):
            exporting = "}" not in line
            continue  # `  confirmUserDelete,`: exported, not used
        exporting = user.language in EXPORTING_LANGUAGES and bool(EXPORT_LIST_OPEN.match(line))
        if exporting or (user.language in EXPORTING_LANGUAGES and EXPORT_LINE.match(line)):
            continue
        if IMPORT_LINE.match(line):
            opened = next((o for o in "({" if o in line and OPENS[o] not in line), None)
            closer = OPENS[opened] if opened else None
            continue  # an import is not a use: the lines that use the name are
        if COMMENT_LINE.match(line) or TYPESPEC.match(line):
            continue  # a comment, or a typespec: Elixir's `@spec start_flow(…) :: …` types a function, calls none
        code = code_part(line)
        if SIGNATURE.match(line):  # a function's own signature: types named there are not uses of code ...
            arrow = code.find("=>")
            if arrow < 0:
                continue
            code = code[arrow + 2 :]  # ... but an arrow function's body on the same line is
        for match in pattern.finditer(code):
            name = match.group("name")
            if re.search(rf"\b{DEFINES}{re.escape(name)}\b", code) or re.match(
                rf"{METHOD_HEAD}{re.escape(name)}\s*\([^)]*\)?[^;=]*\{{\s*$", code
            ):
                continue  # a definition of the name (its own, or a method of the same name), not a use
            if _key(code, match, user.language):
                continue  # `admin: utils.isAdmin(user)`: an object's key, not the function `admin`
            if _ruby_data(code, match, user.language):
                continue  # `@avatar`, `params[:avatar]`: a variable, a hash's key, not the method `avatar`
            verb = "calls" if match.group("call") else "uses"
            before = code[: match.start()].rstrip()
            if before.endswith("@") and user.language in ANNOTATING_LANGUAGES:
                verb = "uses"  # a Java annotation (`@Log("停止服务")`) marks the method: nothing calls `Log`
            member = before.endswith((".", "->", "::", "#"))
            receiver = RECEIVER.search(before) if member else None  # Sentry.set_user: only Sentry's set_user
            member_call = RUBY_MEMBER_CALL if user.language == "ruby" else MEMBER_CALL  # Ruby calls need no parens
            called = member_call.match(code, match.end())  # User.find_by(...): a call of the class's method
            if verb == "uses" and called:
                verb, name = "calls", f"{name}.{called.group(1)}"
            tag = ("@member" + (f"={receiver.group(1)}" if receiver else "")) if member else ""
            found.append(Use(name + tag, user.start_line + offset, verb, line.strip()))
            break
    return found


# a JavaScript file's export list names what it exports, it uses none of them: `module.exports = {` (then a name a
# line: `confirmUserDelete,`, `deleteUser: remove,`, `...knexUtils,`, up to its `}`), `module.exports = { a, b };`,
# `exports.remove = remove;`, `export { a, b };`, `export default router;`
EXPORTING_LANGUAGES = frozenset({"javascript", "typescript", "tsx", "jsx"})
EXPORT_LIST_OPEN = re.compile(r"^\s*(?:module\.exports|exports)\s*=\s*\{\s*$|^\s*export\s*\{\s*$")
EXPORTED_ENTRY = re.compile(r"^\s*(?:(?:[\w$]+\s*:\s*)?(?:\.\.\.)?[\w$.]+\s*,?\s*)?\}?\s*;?\s*$")
EXPORT_LINE = re.compile(
    r"^\s*(?:(?:module\.exports|exports)(?:\.[\w$]+)?\s*=\s*|export\s+default\s+|export\s*(?=\{))"
    r"(?:\{[\w$\s,:.]*\}|[\w$.]+)\s*;?\s*$"
)


# a key in a JavaScript object or a Ruby hash or call (`{ admin: utils.isAdmin(user) }`, `link_to(admin: true)`) names
# a property, not the definition of that name; a Ruby key has its colon right after it (`admin :x` is a call)
KEYED_LANGUAGES = frozenset({"javascript", "typescript", "tsx", "jsx", "vue", "svelte", "ruby"})


def _key(code: str, match: re.Match[str], language: str | None) -> bool:
    """Whether ``match`` (a name in ``code``) is a key: ``name:`` first on the line or after ``{``, ``,`` or ``(``
    (``cond ? admin : other`` and ``case admin:`` use it)."""
    if language not in KEYED_LANGUAGES:
        return False
    colon = r":(?!:)" if language == "ruby" else r"\s*:(?!:)"
    if not re.match(colon, code[match.end("name") :]):
        return False
    before = code[: match.start("name")].rstrip()
    return not before or before.endswith(("{", ",", "("))


RUBY_FAMILY = frozenset({"ruby", "erb", "haml", "slim"})


def _ruby_data(code: str, match: re.Match[str], language: str | None) -> bool:
    """Whether ``match`` names data in Ruby code, no method: an instance or class variable (``@avatar``,
    ``@@assets``), a key a hash is read by (``params[:avatar]``) or a translation's key (``t :opportunity_summary``)."""
    if language not in RUBY_FAMILY:
        return False
    before = code[: match.start("name")]
    return before.endswith("@") or bool(re.search(r"\[\s*:$|(?<![\w.])(?:I18n\.)?(?:t|translate)[\s(]\s*:$", before))


def reaches(user: Chunk, used: Chunk, uses: Sequence[Use], imports: Mapping[str, set[str]]) -> bool:
    """Whether the uses found can refer to ``used`` (see the module docstring, rule 3)."""
    uses = [use for use in uses if _receiver_fits(use, used)]
    if not uses:
        return False  # every use is a method of another class or module (``Sentry.set_user``)
    if user.path == used.path:
        return True
    imported = imports.get(user.path, set())
    if used.path in imported:
        return True
    if any(used.path in imports.get(entry, set()) for entry in imported if PurePosixPath(entry).stem in ENTRY_STEMS):
        return True  # re-exported by a package's __init__ / index file
    if user.language == "go":
        return PurePosixPath(user.path).parent == PurePosixPath(used.path).parent
    if user.language not in EXPLICIT_IMPORTS:
        return True
    return any("@member" in use.name and is_method(used, _bare(use.name)) for use in uses)


def _bare(name: str) -> str:
    return name.split("@", 1)[0]


def _receiver_fits(use: Use, used: Chunk) -> bool:
    """A member use on a named class or module (``Sentry.set_user``) reaches only code inside that class/module."""
    if "@member=" not in use.name:
        return True
    receiver = use.name.split("@member=", 1)[1].split("::")[-1]
    return any(receiver in qualified.replace("::", ".").split(".")[:-1] for qualified in qualified_names(used.symbol))


def link(
    user: Chunk, used: Chunk, imports: Mapping[str, set[str]], *, names: Sequence[str] | None = None
) -> Use | None:
    """The first real use of ``used`` (of one of ``names``) in ``user``'s code that can reach it, preferring calls."""
    uses = find_uses(user, used, names)
    if not uses or not reaches(user, used, uses, imports):
        return None
    best = next((use for use in uses if use.verb == "calls"), uses[0])
    return Use(_bare(best.name), best.line, best.verb, best.text)


def flow_order(chunks: Sequence[Chunk], edges: set[tuple[int, int]]) -> list[int]:
    """Indexes of ``chunks`` grouped by role, callers before callees inside a role, else in the given order."""
    order: list[int] = []
    for role in ROLES:
        members = [i for i, chunk in enumerate(chunks) if role_of(chunk) == role]
        members.sort(key=lambda i: (LAYER_ORDER.get(str(chunks[i].layer), 3), i))
        remaining = list(members)
        while remaining:
            ready = [i for i in remaining if not any((j, i) in edges for j in remaining if j != i)]
            chosen = (ready or remaining)[0]
            order.append(chosen)
            remaining.remove(chosen)
    return order


def chains(order: Sequence[int], edges: set[tuple[int, int]]) -> list[list[int]]:
    """The longest call chain through the steps (deterministic), as step indexes; empty when nothing links. Of chains
    as long, the one of the steps first in ``order`` (the better sources): a chain between two later ones tells
    another story (a playlist folder's update, asked how unchanged files are skipped, where the lead's caller
    calls it)."""
    position = {step: n for n, step in enumerate(order)}
    best: list[int] = []

    def walk(path: list[int]) -> None:
        nonlocal best
        if (len(path), -sum(position[s] for s in path)) > (len(best), -sum(position[s] for s in best)):
            best = list(path)
        for nxt in sorted((b for a, b in edges if a == path[-1] and b not in path), key=position.get):
            walk([*path, nxt])

    for start in order:
        walk([start])
    return [best] if len(best) > 1 else []
