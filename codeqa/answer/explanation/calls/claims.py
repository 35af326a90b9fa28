"""The claim checker for "A calls B": a call claim is shown only when a call in A's own lines resolves to B.

``flow.link`` proposes a link when A's text names something B defines and the name can reach B's file. That is a
match of names, and three things pass it that are false: a module-level object named like a view
(``login = LoginManager()``, then ``login.init_app(app)``), a namesake in another module (``permissions.has_access``
for ``User.has_access``), and a chunk named after its first definition when the call is made from, or made to,
another definition in it. So for Python every proposed link is checked again on the caller's file
(``chunk.resolve.calls``):
- the call site must lie in A's lines, and A is the definition that encloses it (not the chunk's first name);
- the call must resolve, through the file's imports and scopes, to a definition inside B, and B is that definition.
A claim that fails is dropped, never softened into "uses". A "uses" link is dropped too where the caller's file binds
the name to something else (an import from another module, a module-level variable), or where the name is an
attribute (``request.profile``) and B's definition a function, not a method. Languages without a
resolver keep ``flow.link``'s check and are counted apart (``by_name``), with what a name alone can still rule out
(``byname.holds_by_name``). Every answer counts its call claims: made, verified, dropped.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.calls.byname import holds_by_name, typed_receiver
from codeqa.answer.explanation.calls.flow import Use, find_uses, link
from codeqa.answer.explanation.calls.implements import Implementations
from codeqa.answer.explanation.code.jsopened import local_of_opened
from codeqa.answer.explanation.code.linenames import DECORATOR, holder_at
from codeqa.chunk.resolve.calls import CallSite, call_sites, names_in, use_reaches
from codeqa.chunk.resolve.pyscope import module_objects
from codeqa.chunk.tags import text_of
from codeqa.records import Chunk
from codeqa.symbols import qualified_names, short_name

RESOLVED_LANGUAGES = frozenset({"python"})


@dataclass
class ClaimTally:
    """Call claims of one answer, each (caller chunk, callee chunk) pair counted once."""

    made: set[tuple[str, str]] = field(default_factory=set)
    verified: set[tuple[str, str]] = field(default_factory=set)
    by_name: set[tuple[str, str]] = field(default_factory=set)  # verified by name only (no resolver for the language)

    @property
    def dropped(self) -> int:
        return len(self.made - self.verified)

    def counts(self) -> dict[str, int]:
        return {"claims_made": len(self.made), "claims_verified": len(self.verified),
                "claims_dropped": self.dropped, "claims_by_name": len(self.by_name)}  # fmt: skip


class ClaimChecker:
    """Checks the links an answer states, reading the callers' files through ``context`` (each file once)."""

    def __init__(self, context: AnswerContext, texts: dict[str, str] | None = None) -> None:
        self.context = context
        self.tally = ClaimTally()
        self.hierarchy = Implementations(context, self.file_text)  # a receiver declared as an interface
        self._texts: dict[str, str] = {} if texts is None else texts  # shared by checkers of one answer

    def file_text(self, path: str) -> str:
        if path not in self._texts:
            chunks = self.context.file_chunks([path], limit=None).get(path, [])
            self._texts[path] = text_of(chunks) if chunks else ""
        return self._texts[path]

    def link(
        self, user: Chunk, used: Chunk, imports: Mapping[str, set[str]], *, names: Sequence[str] | None = None
    ) -> Use | None:
        """``flow.link``'s use of ``used`` in ``user``, if the claim it makes holds (see the module docstring)."""
        proposed = link(user, used, imports, names=names)
        if proposed is None or local_of_opened(used, proposed.name):
            return None  # a local of the function ``used`` opens is called from that function's own body
        pair = (user.id, used.id)
        if user.language not in RESOLVED_LANGUAGES or used.language not in RESOLVED_LANGUAGES:
            held = self._held_by_name(user, used, proposed, names)
            if held is None:
                if proposed.verb == "calls":
                    self.tally.made.add(pair)
                return None
            proposed = held
            if proposed.verb == "calls":
                self.tally.made.add(pair)
                self.tally.verified.add(pair)
                typed = typed_receiver(user, used, proposed, self.file_text(user.path), self.hierarchy)
                if not typed:  # else: by its declared class (or its interface's one implementation)
                    self.tally.by_name.add(pair)
            return proposed
        if _shadowed(used, proposed.name, self.file_text(used.path)):
            return None  # `exceptions.NotAuthenticated` is the module's last `class NotAuthenticated`, not this one
        text = self.file_text(user.path)
        site = self.call_of(user, used, text, names)
        if site is not None and _abstract(used, site.name):
            return None  # `self.get_data()` runs a subclass's override, never the base's `raise NotImplementedError`
        if site is not None:
            self.tally.made.add(pair)
            self.tally.verified.add(pair)
            return site
        if proposed.verb == "calls":
            self.tally.made.add(pair)
            return None
        top_level = proposed.name in qualified_names(used.symbol)  # a function or class, not a method
        reaches = use_reaches(
            user.path, text, proposed.name, proposed.text, used.path, top_level=top_level, at=proposed.line
        )
        return _with_holder(user, proposed) if reaches else None

    def _held_by_name(self, user: Chunk, used: Chunk, proposed: Use, names: Sequence[str] | None) -> Use | None:
        """The first use (calls first) of ``used`` in ``user`` that ``holds_by_name``: ``flow.link`` proposes one,
        and when that one is a framework's namesake (``User.find_by``) another line may still hold
        (``user.valid_password?``)."""
        file_text = self.file_text(user.path)
        named = bool(qualified_names(user.symbol))  # then a line outside its definitions is no use by them
        holds = holds_by_name(user, used, proposed, file_text, self.hierarchy)
        if holds and not (named and _module_level(user, proposed.line)):
            return proposed
        uses = find_uses(user, used, names)
        for use in sorted(uses, key=lambda use: use.verb != "calls"):
            candidate = Use(use.name.split("@", 1)[0], use.line, use.verb, use.text)
            if (candidate != proposed and holds_by_name(user, used, candidate, file_text, self.hierarchy)
                    and not (named and _module_level(user, candidate.line))):  # fmt: skip
                return candidate
        return None

    def call_of(self, user: Chunk, used: Chunk, text: str, names: Sequence[str] | None = None) -> Use | None:
        """A call in ``user``'s lines that resolves to a definition in ``used``, as a use naming both: of the first
        caller's calls, the least nested one (the main path's ``login_user(user)``, not the one in a preset-admin
        branch three ``if``s deep), the first of those."""
        if not text:
            return None
        wanted = qualified_names(used.symbol)
        lines = text.split("\n")
        found: list[Use] = []
        instances = module_objects(used.path, self.file_text(used.path)) if used.language == "python" else {}
        for site in call_sites(user.path, text, user.start_line, user.end_line):
            callee = _callee(site, user.path, used, wanted, instances)
            if callee and not _own_definition(site, callee) and (names is None or short_name(callee) in names):
                use = Use(callee, site.line, "calls", lines[site.line - 1].strip(), _decorated(user, site))
                if not found or (use.caller, use.name) == (found[0].caller, found[0].name):
                    found.append(use)
        return min(found, key=lambda use: _indent(lines[use.line - 1])) if found else None


# a top-level line that opens a definition: what is indented under it belongs to that definition (a Ruby `module X`,
# not CommonJS's `module.exports = {`, a list of names, no definition)
_TOP_DEFINITION = re.compile(
    r"^(?:(?:export|public|private|protected|abstract|final|default|async|static)\s+)*"
    r"(?:def|class|module|function\*?|func|fn|interface|trait|struct|impl|object|defmodule|namespace)\b(?!\.)"
    r"|\bfunction\b|=>|\bdo\b|\blambda\b"
    r"|^(?:export\s+)?(?:const|let|var)\s+[\w$]+\s*(?::[^=]+)?=\s*(?:async\s*)?\(\s*(?:[\w${]|$)"  # `const A = ({`
)


# a line that opens nothing by itself: a closer (`}) {` ends a wrapped signature), an `end`, an attribute, a
# decorator, a comment
_NEUTRAL = re.compile(r"^\s*(?:[{}()\[\]].*|end\b.*|#\[.*|@[\w.]+.*|\*.*|/\*.*|//.*|#.*|<\?php.*)\s*$")


_DECORATES = re.compile(r"^(?:@[\w.]+|#\[)")


def _module_level(user: Chunk, line: int) -> bool:
    """Whether file line ``line`` of ``user`` lies outside every definition: at the top level, or under a top-level
    statement that defines nothing (an ``export default {`` object, a ``module.exports = {`` list)."""
    lines = user.text.split("\n")
    offset = line - user.start_line
    if not 0 <= offset < len(lines) or not lines[offset].strip():
        return False
    indent = len(lines[offset]) - len(lines[offset].lstrip())
    if indent == 0:  # a decorator (`@UseGuards(RolesGuard)`) belongs to the class below it
        return not (_TOP_DEFINITION.search(lines[offset]) or _DECORATES.match(lines[offset]))
    for above in reversed(lines[:offset]):
        if not above.strip() or above[:1].isspace():
            continue
        if _DECORATES.match(above):  # a decorator's arguments (`@Module({ imports: [UsersModule] })`)
            return False
        if not _NEUTRAL.match(above):
            return not _TOP_DEFINITION.search(above)
    return False  # the chunk starts inside a definition (one method's body)


def _shadowed(used: Chunk, name: str, used_file: str) -> bool:
    """Whether the top-level definition of ``name``'s module-level part in ``used`` is rebound further down its file
    (taiga's ``class NotAuthenticated(APIException):`` at line 76, then ``class NotAuthenticated(NotAuthenticated):``
    at 187): a use through the module reaches the last one, not this one."""
    top = re.escape(name.split(".")[0])
    heads = re.compile(rf"^(?:(?:async\s+)?def|class)\s+{top}\b|^{top}\s*(?::[^=]+)?=(?!=)")
    lines = used_file.split("\n")
    at = [n for n, line in enumerate(lines, 1) if heads.match(line)]
    return any(used.start_line <= n <= used.end_line for n in at) and any(n > used.end_line for n in at)


def _with_holder(user: Chunk, use: Use) -> Use | None:
    """A use with the definition that holds its line as the user, or None where no definition of the chunk does
    (a module-level ``add_url_rule(…, RHUserLogs)`` in a chunk named after the function below it) and the chunk is
    named after a definition: saying that definition uses it would be false."""
    holder = holder_at(user, use.line)
    if holder is not None:
        return replace(use, caller=holder)
    body = [line for line in user.text.split("\n") if line.strip()]
    module_level = any(not line[:1].isspace() for line in body)  # a chunk that is one method's body stays indented
    return None if module_level and qualified_names(user.symbol) else use


def _callee(
    site: CallSite, caller_path: str, used: Chunk, wanted: Sequence[str], instances: Mapping[str, str] | None = None
) -> str:
    """The definition in ``used`` that ``site`` calls: one its symbol names (a class for its constructor), or a
    method defined in the lines of a class it names (a whole class is one chunk named after the class). A method
    called on an object ``used``'s module makes of its own class (``instances``: ``multipass = IndicoMultipass()``,
    imported and called as ``multipass.handle_login_form(…)``) is that class's."""
    for name in names_in(site, caller_path, used.path):
        if name in wanted or f"{name}.__init__" in wanted:
            return name
        owner, _, method = name.rpartition(".")
        if instances and owner in instances and "." not in owner:
            made = f"{instances[owner]}.{method}"
            if made in wanted or (instances[owner] in wanted and _defines(used, method)):
                return made
        if owner == "*":  # a method inherited from some class of the base's module
            name = next((q for q in wanted if q.rpartition(".")[2] == method and "." in q), "")
            owner = next((q for q in wanted if "." not in q and _defines(used, method)), "") if not name else ""
            if name or owner:
                return name or f"{owner}.{method}"
            continue
        if owner in wanted and _defines(used, method):
            return name
    return ""


def _defines(chunk: Chunk, method: str) -> bool:
    return bool(re.search(rf"^\s*(?:async\s+)?def\s+{re.escape(method)}\b", chunk.text, re.M))


_NOT_IMPLEMENTED = re.compile(r"^\s*raise\s+NotImplementedError\b")
_DOCSTRING = re.compile(r"^\s*[rbuRBU]?(?:\"\"\"|\'\'\')")


def _abstract(used: Chunk, name: str) -> bool:
    """Whether method ``name`` of ``used`` only raises ``NotImplementedError`` (a docstring aside): a stub its
    subclasses override, which a call through ``self`` never runs."""
    lines = used.text.split("\n")
    head = re.compile(rf"^(\s*)(?:async\s+)?def\s+{re.escape(short_name(name))}\s*\(")
    at = next((n for n, line in enumerate(lines) if head.match(line)), None)
    if at is None or "." not in name:
        return False
    indent = len(lines[at]) - len(lines[at].lstrip())
    code: list[str] = []
    for line in lines[at + 1 :]:
        if line.strip() and len(line) - len(line.lstrip()) <= indent:
            break
        if line.strip():
            code.append(line.strip())
    if code and _DOCSTRING.match(code[0]):  # a docstring, on one line or several
        quote = code[0].lstrip("rbuRBU")[:3]
        end = next((n for n, line in enumerate(code) if line.endswith(quote) and (n or len(line) > 5)), len(code))
        code = code[end + 1 :]
    return len(code) == 1 and _NOT_IMPLEMENTED.match(code[0]) is not None


def _decorated(user: Chunk, site: CallSite) -> str:
    """Who makes a call: the resolver's enclosing scope, except on a decorator line, whose call wraps the definition
    below it (``@materialize_iterable()`` above ``def _entries`` is said of ``_entries``, not of the class around)."""
    offset = site.line - user.start_line
    lines = user.text.split("\n")
    if 0 <= offset < len(lines) and DECORATOR.match(lines[offset]):
        return holder_at(user, site.line) or site.caller
    return site.caller


def _own_definition(site: CallSite, callee: str) -> bool:
    """A recursive call is not a link between two parts of the answer."""
    return site.caller == callee


def caller_name(use: Use, fallback: str) -> str:
    """Who makes the call a claim states: the enclosing definition the checker found, else ``fallback``."""
    return use.caller or fallback


def _indent(line: str) -> int:
    return len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip())
