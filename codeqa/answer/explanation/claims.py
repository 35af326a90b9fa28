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
(``holds_by_name``): B must run in A's runtime (a PHP ``env()`` call is no link to a YAML workflow, a JavaScript
``join`` none to a JSON translation file), and a method called on a receiver must be B's: ``$request->user()`` is
not ``Album::user``, ``res.render`` not the app's ``render``, ``Transfer.inflow_transaction`` not
``Transfer::Creator#inflow_transaction``. A receiver is B's when it is ``this``/``self`` in B's own file or class
family, B's class by name, a variable named after B's class, or B's module. Every answer counts its call claims:
made, verified, dropped.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import PurePosixPath

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.flow import Use, find_uses, link
from codeqa.answer.explanation.outline import holder_at
from codeqa.chunk.resolve.calls import CallSite, call_sites, names_in, use_reaches
from codeqa.chunk.tags import text_of
from codeqa.languages import runtime
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
        if proposed is None:
            return None
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
                self.tally.by_name.add(pair)
            return proposed
        text = self.file_text(user.path)
        site = self.call_of(user, used, text, names)
        if site is not None:
            self.tally.made.add(pair)
            self.tally.verified.add(pair)
            return site
        if proposed.verb == "calls":
            self.tally.made.add(pair)
            return None
        top_level = proposed.name in qualified_names(used.symbol)  # a function or class, not a method
        reaches = use_reaches(user.path, text, proposed.name, proposed.text, used.path, top_level=top_level)
        return _with_holder(user, proposed) if reaches else None

    def _held_by_name(self, user: Chunk, used: Chunk, proposed: Use, names: Sequence[str] | None) -> Use | None:
        """The first use (calls first) of ``used`` in ``user`` that ``holds_by_name``: ``flow.link`` proposes one,
        and when that one is a framework's namesake (``User.find_by``) another line may still hold
        (``user.valid_password?``)."""
        file_text = self.file_text(user.path)
        named = bool(qualified_names(user.symbol))  # then a line outside its definitions is no use by them
        if holds_by_name(user, used, proposed, file_text) and not (named and _module_level(user, proposed.line)):
            return proposed
        uses = find_uses(user, used, names)
        for use in sorted(uses, key=lambda use: use.verb != "calls"):
            candidate = Use(use.name.split("@", 1)[0], use.line, use.verb, use.text)
            if (candidate != proposed and holds_by_name(user, used, candidate, file_text)
                    and not (named and _module_level(user, candidate.line))):  # fmt: skip
                return candidate
        return None

    def call_of(self, user: Chunk, used: Chunk, text: str, names: Sequence[str] | None = None) -> Use | None:
        """The first call in ``user``'s lines that resolves to a definition in ``used``, as a use naming both."""
        if not text:
            return None
        wanted = qualified_names(used.symbol)
        lines = text.split("\n")
        for site in call_sites(user.path, text, user.start_line, user.end_line):
            callee = _callee(site, user.path, used, wanted)
            if callee and not _own_definition(site, callee) and (names is None or short_name(callee) in names):
                return Use(callee, site.line, "calls", lines[site.line - 1].strip(), site.caller)
        return None


# a top-level line that opens a definition: what is indented under it belongs to that definition
_TOP_DEFINITION = re.compile(
    r"^(?:(?:export|public|private|protected|abstract|final|default|async|static)\s+)*"
    r"(?:def|class|module|function\*?|func|fn|interface|trait|struct|impl|object|defmodule|namespace)\b"
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


CONSTRUCTORS = frozenset({"new"})  # Ruby's X.new runs X#initialize
SELF_RECEIVERS = frozenset({"this", "self", "static", "parent", "super", "cls", ""})
_RECEIVER = r"(?P<receiver>[$@]{{0,2}}\w+)(?:\([^()]*\))?\s*(?:\.|\?\.|->|::|#)\s*{name}(?![\w?!])"
# a definition of {name} in the callee's lines, in the languages checked by name
_DEFINES = (
    r"\bdef\s+(?:self\.)?{name}(?![\w?!])|\bfunction\s+{name}\b|\bfunc\s+(?:\([^)]*\)\s*)?{name}\b|\bfn\s+{name}\b|"
    r"^\s*(?:(?:public|private|protected|internal|static|async|final|override|abstract|export|default|get|set|"
    r"suspend|open)\s+)*(?:[\w<>\[\],?]+\s+)?{name}\s*(?:<[^>]*>)?\s*\(|"
    r"\b{name}\s*[:=]\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*=>|\w+\s*=>)|"
    r"\b(?:scope|has_many|has_one|belongs_to|has_and_belongs_to_many|delegate|alias_method)\s+:{name}\b|"
    r"\battr_(?:reader|writer|accessor)\b.*:{name}\b|\bdefp?\s+{name}\b"
)


_BUILDS = r"\bdef\s+initialize\b|\bfunction\s+__construct\b|^\s*constructor\s*\(|^\s*class\s+(?:[\w:]*::)?{owner}\b"


def _same_namespace(receiver: str, written: str, used: Chunk, user_file: str) -> bool:
    """``MarketDataImporter.new`` is not ``Account::MarketDataImporter``'s (unless written inside ``Account``), and
    ``Account::MarketDataImporter.new`` not the top-level ``MarketDataImporter``'s."""
    name = re.escape(receiver)
    prefix = re.search(rf"((?:\w+::)+){name}\s*\.\s*new\b", written)
    declared = re.search(rf"^\s*class\s+((?:\w+::)*){name}\b", used.text, re.MULTILINE)
    if declared is None:
        return True  # the constructor's piece of the class: its namespace is not in these lines
    namespace, wanted = declared.group(1), prefix.group(1) if prefix else ""
    if namespace == wanted:
        return True
    if not namespace and wanted:  # `class MarketDataImporter` nested in `module Account` of account/…: by its folder
        folder = "/".join(re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", part).lower() for part in wanted.split("::") if part)
        return f"{folder}/" in used.path
    outer = namespace.split("::")[0]
    return not wanted and bool(outer) and bool(re.search(rf"^\s*(?:module|class)\s+{outer}\b", user_file, re.M))


def holds_by_name(user: Chunk, used: Chunk, use: Use, user_file: str) -> bool:
    """Whether a link found by name alone (no resolver for the language) can stand: ``used`` runs in ``user``'s
    runtime, and a method reached through a receiver belongs to ``used`` (see the module docstring)."""
    if runtime(user.language) is None or runtime(user.language) != runtime(used.language):
        return False
    written = re.search(_RECEIVER.format(name=re.escape(short_name(use.name))), use.text)
    method = short_name(use.name)
    owners = _owners(used, method)
    if written is None:  # a bare name: flow.link found it where the caller's imports reach
        return used.path == user.path or _bare_name_holds(user, used, method, use.text, user_file, owners)
    receiver = written.group("receiver").lstrip("$@")
    module = PurePosixPath(used.path).stem.split(".")[0]
    if method in CONSTRUCTORS and (receiver in owners or receiver == module):
        # LoginService.new: the class's own constructor, in the lines that define it or open the class (not a later
        # piece of the class: its private helpers, its `class << self`)
        return bool(re.search(_BUILDS.format(owner=re.escape(receiver)), used.text, re.MULTILINE)) and _same_namespace(
            receiver, use.text, used, user_file
        )
    if not re.search(_DEFINES.format(name=re.escape(method)), used.text, re.MULTILINE):
        return False  # the receiver's method is not in the lines cited for it (a framework's, or another piece's)
    if receiver in SELF_RECEIVERS:  # in B's own file, or the caller's class extends or mixes in B's class
        return used.path == user.path or any(re.search(_INHERITS.format(owner=re.escape(owner)), user_file, re.M)
                                             for owner in owners)  # fmt: skip
    if receiver in owners or receiver == module:
        return True
    return receiver[:1].islower() and receiver.lower() in {owner.lower() for owner in owners}


# the caller's class extends or mixes in {owner}: `extends`, an indented PHP trait `use`, Ruby `include` or `<`,
# a Python base (a top-level PHP `use App\Models\X;` only imports X: `$this->author` is then not X's)
_INHERITS = (
    r"\b(?:extends|implements|include|prepend|extend)\s+[\w\\:.]*\b{owner}\b|^\s+use\s+[\w\\]*\b{owner}\b"
    r"|\bclass\s+[\w:]+\s*<\s*[\w:]*\b{owner}\b|\bclass\s+\w+\s*\([^)]*\b{owner}\b"
)
_OWN_DEFINITION = (
    r"\b(?:function\*?|def|func|fn)\s+{name}\b|\b(?:const|let|var)\s+{name}\s*="
    r"|^\s*{name}\s*:\s*(?:async\s+)?function\b"
    # a parameter (not a type hint: ``PasswordAuthenticator $authenticator`` names a class)
    r"|\bfunction\b[^(\n]*\((?:[^)]*,)?\s*{name}\s*[,)=:]|\(\s*(?:[\w$]+\s*,\s*)*{name}\s*(?:,\s*[\w$]+\s*)*\)\s*=>"
    r"|(?<![\w$.]){name}\s*=>"
    # a Rails association or attribute of the caller's model (`belongs_to :inflow_transaction`)
    r"|\b(?:belongs_to|has_many|has_one|has_and_belongs_to_many|attribute|delegate)\s+:{name}\b"
)
# a binding inside a function body (`\t\tconst done = function (data) {`): no other file can call it
_LOCAL_BINDING = r"^[ \t]+(?:const|let|var)\s+{name}\s*="
_PHP_IMPORT = r"^\s*use\s+\\?(?P<path>[\w\\]+\\{name})\s*;"
_JS_PACKAGE_IMPORT = r"^\s*import\b[^;]*\b{name}\b[^;]*\bfrom\s+['\"](?P<path>[^'\"./@~][^'\"]*)['\"]"


def _owners(used: Chunk, method: str) -> set[str]:
    """The classes ``method`` of ``used`` may belong to: its owner, or the chunk's own class when the chunk is the
    whole class (a method of the chunk is no owner: `family.destroy` is not a call on the chunk's `family` method)."""
    owners = {q.rpartition(".")[0].rpartition(".")[2] if q.rpartition(".")[2] == method else q.rpartition(".")[2]
              for q in qualified_names(used.symbol)}  # fmt: skip
    return {owner for owner in owners if owner[:1].isupper()}


# an instance method inside a class: Ruby `  def mail` (not `def self.mail`), a PHP method
_RUBY_INSTANCE_METHOD = r"^\s+def\s+(?!self\.){name}(?![\w?!])"
_PHP_METHOD = r"^\s+(?:(?:public|protected|private|final|abstract)\s+)*function\s+{name}\b"


def _bare_name_holds(user: Chunk, used: Chunk, name: str, use_text: str, user_file: str, owners: set[str]) -> bool:
    """A bare call to another file's ``name`` stands unless the caller's file binds the name (a parameter, its own
    definition, an import from elsewhere), the callee's is local to a function, or the callee is an instance method
    the caller cannot reach without a receiver: in PHP never (it needs ``$this->``), in Ruby only from its own class
    or one that inherits or includes it (ActionMailer's ``mail(...)`` is not ``DocMailerMaker#mail``)."""
    escaped = re.escape(name)
    if re.match(rf"\s*(?:\??\.|->|::|&\.)\s*{escaped}(?![\w?!])", use_text):
        return True  # a member call whose receiver is on a line above (`->accessible()` in a chained query)
    if re.search(_LOCAL_BINDING.format(name=escaped), used.text, re.MULTILINE):
        return False
    if _bound_elsewhere(name, used, user_file):
        return False
    if user.language == "php" and re.search(_PHP_METHOD.format(name=escaped), used.text, re.MULTILINE):
        return False
    in_class = re.search(r"^\s*class\s", used.text, re.MULTILINE)
    if user.language == "ruby" and in_class and re.search(_RUBY_INSTANCE_METHOD.format(name=escaped), used.text, re.M):
        return any(re.search(_INHERITS.format(owner=re.escape(owner)), user_file, re.M) for owner in owners)
    return True


def _bound_elsewhere(name: str, used: Chunk, user_file: str) -> bool:
    """Whether the caller's file binds ``name`` itself, so that it cannot mean ``used``'s definition: it defines
    it (Vue's local ``const play``), imports it from a package (``import { play } from 'howler'``), or imports
    it under a PHP namespace that is not ``used``'s file (``use Illuminate\\…\\Middleware``)."""
    escaped = re.escape(name)
    if re.search(_OWN_DEFINITION.format(name=escaped), user_file, re.MULTILINE):
        return True
    if re.search(_JS_PACKAGE_IMPORT.format(name=escaped), user_file, re.MULTILINE):
        return True
    php = re.search(_PHP_IMPORT.format(name=escaped), user_file, re.MULTILINE)
    if php is None:
        return False
    parts = [part.lower() for part in php.group("path").split("\\")]
    stem = PurePosixPath(used.path).with_suffix("").as_posix().lower()
    return not stem.endswith("/".join(parts[-2:]))


def _callee(site: CallSite, caller_path: str, used: Chunk, wanted: Sequence[str]) -> str:
    """The definition in ``used`` that ``site`` calls: one its symbol names (a class for its constructor), or a
    method defined in the lines of a class it names (a whole class is one chunk named after the class)."""
    for name in names_in(site, caller_path, used.path):
        if name in wanted or f"{name}.__init__" in wanted:
            return name
        owner, _, method = name.rpartition(".")
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


def _own_definition(site: CallSite, callee: str) -> bool:
    """A recursive call is not a link between two parts of the answer."""
    return site.caller == callee


def caller_name(use: Use, fallback: str) -> str:
    """Who makes the call a claim states: the enclosing definition the checker found, else ``fallback``."""
    return use.caller or fallback


def consistent_chain(hops: Sequence[Use], chunks: Sequence[Chunk] = ()) -> int:
    """How many hops of a chain "A calls B, which calls C" hold together: B called must be the B that calls C. A
    call found by name has no caller; the definition holding its line in B's chunk (``chunks[n]``) stands in."""
    for n in range(1, len(hops)):
        before, after = hops[n - 1], hops[n]
        if before.caller and after.caller and before.name != after.caller:
            return n
        holder = holder_at(chunks[n], after.line) if not after.caller and n < len(chunks) else None
        if holder and short_name(holder) != short_name(before.name):
            return n  # `before_email_time_of_day?` called; `email_decider`, beside it in the chunk, makes the next call
    return len(hops)
