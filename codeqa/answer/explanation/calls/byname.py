"""What a name alone can still rule out, for a call claim in a language without a resolver (``claims``' ``by_name``).

B must run in A's runtime (a PHP ``env()`` call is no link to a YAML workflow, a JavaScript ``join`` none to a JSON
translation file), and a method called on a receiver must be B's: ``$request->user()`` is not ``Album::user``,
``res.render`` not the app's ``render``, ``Transfer.inflow_transaction`` not ``Transfer::Creator#inflow_transaction``.
A receiver is B's when it is ``this``/``self`` in B's own file or class family, B's class by name, a variable named
after B's class, or B's module; ``X.new`` is X's constructor or class line.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import Protocol

from codeqa.answer.explanation.calls.chained import chain_holds, chained, on_self
from codeqa.answer.explanation.calls.declared import (
    PHP_IMPORT,
    class_file,
    declared_local,
    declared_owner,
    declared_types,
    defines,
    imported_elsewhere,
    mocked,
    same_namespace,
)
from codeqa.answer.explanation.calls.elixiralias import other_module
from codeqa.answer.explanation.calls.flow import Use
from codeqa.answer.explanation.calls.gopackages import go_imported, go_same_package
from codeqa.answer.explanation.calls.overloads import arity_holds
from codeqa.answer.explanation.calls.parentcalls import parent_misses, php_bare_method
from codeqa.answer.explanation.calls.rubybody import ruby_class_member, ruby_out_of_reach
from codeqa.answer.explanation.calls.valuecalls import called_on_a_value
from codeqa.answer.explanation.code.jsopened import JS_LANGUAGES
from codeqa.languages import runtime
from codeqa.records import Chunk
from codeqa.symbols import qualified_names, short_name


class Hierarchy(Protocol):
    """Which class a receiver declared as an interface can be (``implements.Implementations``)."""

    def reaches(
        self, declared: str, method: str, user: Chunk, used: Chunk, owners: set[str], user_file: str
    ) -> bool: ...

    def overloaded(self, method: str, used: Chunk) -> bool: ...

    def file_text(self, path: str) -> str: ...

    def imported_files(self, path: str) -> tuple[str, ...]: ...

    def definitions(self, name: str) -> int: ...

    def returns(self, owner: str, method: str) -> str | None: ...


CONSTRUCTORS = frozenset({"new"})  # Ruby's X.new runs X#initialize
SELF_RECEIVERS = frozenset({"this", "self", "static", "parent", "super", "cls", ""})
_RECEIVER = r"(?P<receiver>[$@]{{0,2}}\w+)(?:\([^()]*\))?\s*(?:\.|\?\.|->|::|#)\s*{name}(?![\w?!])"


_BUILDS = r"\bdef\s+initialize\b|\bfunction\s+__construct\b|^\s*constructor\s*\(|^\s*class\s+(?:[\w:]*::)?{owner}\b"


def holds_by_name(user: Chunk, used: Chunk, use: Use, user_file: str, hierarchy: Hierarchy | None = None) -> bool:
    """Whether a link found by name alone (no resolver for the language) can stand: ``used`` runs in ``user``'s
    runtime, and a method reached through a receiver belongs to ``used`` (see the module docstring)."""
    if runtime(user.language) is None or runtime(user.language) != runtime(used.language):
        return False
    written = re.search(_RECEIVER.format(name=re.escape(short_name(use.name))), use.text)
    method = short_name(use.name)
    owners = _owners(used, method)
    if re.search(rf"\bverify\(\s*\w+[^;]*\)\s*\.\s*{re.escape(method)}\s*\(", use.text):
        return False  # Mockito's `verify(cryptoService, never()).decrypt(…)` checks a mock's call; it makes none
    if written is None and called_on_a_value(method, use.text):
        return False  # `[a, b].join('\n')`: a method of a value built on the line, whose class no name tells
    if written is None:  # a bare name: flow.link found it where the caller's imports reach
        if use.verb != "calls" and declared_local(user.text, method):
            return False  # `Query query = em.createNativeQuery(sql)`: the caller's own variable, not the method
        if use.verb != "calls" and user.language == "elixir" and not _elixir_reference(method, use.text):
            return False  # `%Error{} = error`, `"error" => error`: a variable bound by a pattern, not the function
        if user.language in JS_LANGUAGES and _class_member(used, method):
            return False  # a class's method is reached through `this.` or a receiver, never by its bare name
        if chained(use, method) and on_self(user_file, use.line):  # `return $this` … `->accessible()`
            return _own_class(user, used, owners, user_file)
        if chained(use, method):  # `knex("users")` … `.update({…})`: the chain's method, in the same file or not
            return chain_holds(user, used, method, use, user_file, owners, hierarchy)
        if used.path == user.path:  # its own method (PHP's only via `$this->`), the overload the arguments fit
            return not php_bare_method(user.language, used, method) and arity_holds(method, use.text, used, user_file)
        return _bare_name_holds(user, used, method, use, user_file, owners, hierarchy)
    receiver = written.group("receiver").lstrip("$@")
    module = PurePosixPath(used.path).stem.split(".")[0]
    if method in CONSTRUCTORS and (receiver in owners or receiver == module):
        # LoginService.new: the class's own constructor, in the lines that define it or open the class (not a later
        # piece of the class: its private helpers, its `class << self`)
        return bool(re.search(_BUILDS.format(owner=re.escape(receiver)), used.text, re.MULTILINE)) and same_namespace(
            receiver, use.text, used, user_file
        )
    if not defines(used, method):
        return False  # the receiver's method is not in the lines cited for it (a framework's, or another piece's)
    if user.language == "go" and (imported := go_imported(receiver, used, user_file)) is not None:
        return imported and _go_function(method, used)  # `db.GetUserById(…)`: a function of the package `db`
    if receiver in SELF_RECEIVERS:  # in B's own file, or the caller's class extends or mixes in B's class
        misses = parent_misses(receiver, user, used, use.line, user_file, owners)  # `parent::f()`: not its own `f`
        return not misses and _own_class(user, used, owners, user_file)
    if user.language == "elixir" and other_module(use.text, method, used, user_file):
        return False  # `Helpers.format` after `alias ChatApi.Messages.{Helpers, …}`: not `Conversations.Helpers`
    named = receiver[:1].islower() and receiver.lower() in {owner.lower() for owner in owners}  # `userService.x()`
    if receiver in owners or receiver == module or named:
        return not imported_elsewhere(receiver, owners, user, used, user_file, hierarchy)  # a namesake of elsewhere
    return _declared_as_owner(receiver, method, user, used, owners, user_file, hierarchy)


def _own_class(user: Chunk, used: Chunk, owners: set[str], user_file: str) -> bool:
    """Whether a call on the object itself reaches ``used``: in B's own file, or the caller's class extends or mixes
    in B's class."""
    inherits = (re.search(_INHERITS.format(owner=re.escape(owner)), user_file, re.M) for owner in owners)
    return used.path == user.path or any(inherits)


def _go_function(name: str, used: Chunk) -> bool:
    """Whether ``used`` defines Go's ``name`` as a package's function (``func Debugf(``): a call through the package
    (``log.Debugf``) never reaches a method of one of its types (``func (wrapLogger) Debugf(``)."""
    return re.search(rf"^func\s+{re.escape(name)}\b", used.text, re.MULTILINE) is not None


def _elixir_reference(name: str, text: str) -> bool:
    """Whether an Elixir line refers to function ``name``: a capture (``&error/2``), a module attribute, or a call
    (``repositories = repositories()``); a bare lower-case name alone is a variable there (``%Error{} = error``)."""
    escaped = re.escape(name)
    pattern = rf"&(?:[\w.]+\.)?{escaped}/\d|@{escaped}(?![\w?!])|(?<![\w.@&]){escaped}\s*\("
    return re.search(pattern, text) is not None


def typed_receiver(user: Chunk, used: Chunk, use: Use, user_file: str, hierarchy: Hierarchy | None = None) -> bool:
    """Whether the call's receiver is declared, in the caller's file, as ``used``'s own class from ``used``'s file
    (``$this->auth->authenticate()`` with ``AuthenticationService $auth``), or as an interface whose one
    implementation in the index is ``used``'s class (``hierarchy``): resolved, however many classes define a method
    of that name."""
    method = short_name(use.name)
    written = re.search(_RECEIVER.format(name=re.escape(method)), use.text)
    if written is None:
        return False
    receiver = written.group("receiver").lstrip("$@")
    if user.language == "go" and go_imported(receiver, used, user_file):
        return _go_function(method, used)
    return _declared_as_owner(receiver, method, user, used, _owners(used, method), user_file, hierarchy)


def _declared_as_owner(
    receiver: str,
    method: str,
    user: Chunk,
    used: Chunk,
    owners: set[str],
    user_file: str,
    hierarchy: Hierarchy | None,
) -> bool:
    """``receiver`` is declared (``declared_types``) only as classes among ``owners``, each from ``used``'s file, or
    as interfaces whose one implementation is ``used``'s class (``hierarchy``); not through a method ``used``'s file
    overloads (``hierarchy.overloaded``); never a test's mock (its methods run no implementation)."""
    # Go reuses short names (`s` a *Server here, a string there): the caller's own lines first, then its file
    declared = (user.language == "go" and declared_types(receiver, "go", user.text)) or declared_types(
        receiver, user.language, user_file
    )
    if not declared or mocked(receiver, user_file) or (hierarchy is not None and hierarchy.overloaded(method, used)):
        return False
    return all(
        (declared_owner(t, owners, used) and class_file(t.split(".")[0], user, used, user_file, receiver))
        or (hierarchy is not None and t not in owners and "." not in t
            and hierarchy.reaches(t, method, user, used, owners, user_file))
        for t in declared
    )  # fmt: skip


# the caller's class extends or mixes in {owner}: `extends`, an indented PHP trait `use`, Ruby `include` or `<`,
# a Python base (a top-level PHP `use App\Models\X;` only imports X: `$this->author` is then not X's; the indent is
# spaces or tabs, never the line break above a top-level `use`, which `^\s+` took for one)
_INHERITS = (
    r"\b(?:extends|implements|include|prepend|extend)\s+[\w\\:.]*\b{owner}\b|^[ \t]+use\s+[\w\\]*\b{owner}\b"
    r"|\bclass\s+[\w:]+\s*<\s*[\w:]*\b{owner}\b|\bclass\s+\w+\s*\([^)]*\b{owner}\b"
)
_OWN_DEFINITION = (
    r"\b(?:function\*?|def|func|fn)\s+{name}\b|\b(?:const|let|var)\s+{name}\s*="
    # an Elixir module's own private function or macro (`defp error(stage, code)`): its bare calls are that one's
    r"|^\s*(?:defp|defmacrop?)\s+{name}(?![\w?!])"
    r"|^\s*{name}\s*:\s*(?:async\s+)?function\b"
    # a parameter (not a type hint: ``PasswordAuthenticator $authenticator`` names a class)
    r"|\bfunction\b[^(\n]*\((?:[^)]*,)?\s*{name}\s*[,)=:]|\(\s*(?:[\w$]+\s*,\s*)*{name}\s*(?:,\s*[\w$]+\s*)*\)\s*=>"
    r"|(?<![\w$.]){name}\s*=>"
    # a Rails association or attribute of the caller's model (`belongs_to :inflow_transaction`)
    r"|\b(?:belongs_to|has_many|has_one|has_and_belongs_to_many|attribute|delegate)\s+:{name}\b"
)
# a method head in a language that writes the return type first (Java, C#: `public Long getId() {`, parameters, maybe
# annotated, going on below): a bare `getId()` in that class is its own method, and the head itself is no call
_TYPED_HEAD = (
    r"^\s*(?:(?:public|private|protected|internal|static|final|abstract|synchronized|default|override|virtual|"
    r"async)\s+)*(?!(?:return|new|throw|else|await|yield|case)\b)[\w<>\[\],.?]+\s+{name}\s*"
    r"\((?:(?:[^;{{()]|\([^()]*\))*\)\s*(?:throws\s+[\w.,\s]+)?\{{?|(?:[^;{{()]|\([^()]*\))*)\s*$"
)
TYPED_HEAD_LANGUAGES = frozenset({"java", "csharp", "c", "cpp"})
# a binding inside a function body (`\t\tconst done = function (data) {`): no other file can call it
_LOCAL_BINDING = r"^[ \t]+(?:const|let|var)\s+{name}\s*="
_JS_PACKAGE_IMPORT = r"^\s*import\b[^;]*\b{name}\b[^;]*\bfrom\s+['\"](?P<path>[^'\"./@~][^'\"]*)['\"]"


def _owners(used: Chunk, method: str) -> set[str]:
    """The classes ``method`` of ``used`` may belong to: its owner, or the chunk's own class when the chunk is the
    whole class (a method of the chunk is no owner: `family.destroy` is not a call on the chunk's `family` method)."""
    owners = {q.rpartition(".")[0].rpartition(".")[2] if q.rpartition(".")[2] == method else q.rpartition(".")[2]
              for q in qualified_names(used.symbol)}  # fmt: skip
    return {owner for owner in owners if owner[:1].isupper() or (used.language == "go" and owner)}  # Go: unexported


# an instance method inside a class: Ruby `  def mail` (not `def self.mail`), a PHP method
_RUBY_INSTANCE_METHOD = r"^\s+def\s+(?!self\.){name}(?![\w?!])"


def _bare_name_holds(
    user: Chunk, used: Chunk, name: str, use: Use, user_file: str, owners: set[str], hierarchy: Hierarchy | None
) -> bool:
    """A bare call to another file's ``name`` stands unless the caller's file binds the name (a parameter, its own
    definition, an import from elsewhere), the callee's is local to a function, or the callee is an instance method
    the caller cannot reach without a receiver: in PHP never (it needs ``$this->``), in Ruby only from its own class
    or one that inherits or includes it (ActionMailer's ``mail(...)`` is not ``DocMailerMaker#mail``)."""
    escaped = re.escape(name)
    if re.search(_LOCAL_BINDING.format(name=escaped), used.text, re.MULTILINE):
        return False
    if _bound_elsewhere(name, used, user_file):
        return False
    if user.language in TYPED_HEAD_LANGUAGES and re.search(_TYPED_HEAD.format(name=escaped), user_file, re.M):
        return False  # the caller's class defines the name: its bare call is its own (its head is no call)
    if php_bare_method(user.language, used, name):
        return False
    if user.language == "elixir" and not _elixir_imported(user, name, used, user_file, hierarchy):
        return False  # another module's function is called bare only where it is imported (an `alias` is no import)
    if user.language == "go" and not re.search(rf"^func\s+{escaped}\b", used.text, re.MULTILINE):
        return False  # a bare Go call is a function's, never a method's (a chained `Create(…)` is gorm's)
    if user.language == "go" and not go_same_package(user, used, user_file):
        return False  # a bare Go call is to the caller's own package (`strHasLen` in cmd/ is not core's `strHasLen`)
    used_file = hierarchy.file_text(used.path) if hierarchy is not None else ""
    if runtime(user.language) == "ruby" and ruby_out_of_reach(user, user_file, use.line, used, name, owners, used_file):
        return False  # a class body's call reaches no instance method, another file's bare name no `def self.`,
        # a template's bare name no model's method
    member_of = ruby_class_member(used, name, used_file)  # the class around a piece without its `class` line
    in_class = re.search(r"^\s*class\s", used.text, re.MULTILINE) or member_of
    if user.language == "ruby" and in_class and re.search(_RUBY_INSTANCE_METHOD.format(name=escaped), used.text, re.M):
        owners = owners | {member_of} if member_of else owners
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
    php = re.search(PHP_IMPORT.format(name=escaped), user_file, re.MULTILINE)
    if php is None:
        return False
    parts = [part.lower() for part in php.group("path").split("\\")]
    stem = PurePosixPath(used.path).with_suffix("").as_posix().lower()
    return not stem.endswith("/".join(parts[-2:]))


def _elixir_imported(user: Chunk, name: str, used: Chunk, user_file: str, hierarchy: Hierarchy | None) -> bool:
    """Whether the caller's Elixir file imports the module defining ``used``'s ``name``: itself (``import
    X.SharedHelpers``) or through a module of the app it ``use``s, whose file imports it (``use Hexpm.Context``, whose
    ``__using__`` imports ``AuditLog``). A module it cannot name, or no index to read, get the benefit of the doubt;
    a ``use`` of a module outside the index (``use Phoenix.Controller``) imports none of the app's."""
    modules = {q.rpartition(".")[0].rpartition(".")[2] for q in qualified_names(used.symbol) if short_name(q) == name}
    modules.discard("")
    names = "|".join(map(re.escape, modules))  # `import X.SharedHelpers`, `import HexpmWeb.{ControllerHelpers, …}`
    imports = re.compile(rf"^\s*import\s+(?:[\w.]+\.)?(?:\{{[^}}]*\b(?:{names})\b|(?:{names})\b)", re.MULTILINE)
    if not modules or imports.search(user_file):
        return True
    if hierarchy is None:
        return True
    uses = re.findall(r"^\s*use\s+([A-Z][\w.]*)", user_file, re.MULTILINE)
    head = re.compile(rf"^\s*defmodule\s+(?:{'|'.join(map(re.escape, uses))})\s+do\b", re.MULTILINE)
    texts = (hierarchy.file_text(path) for path in hierarchy.imported_files(user.path)) if uses else ()
    return any(head.search(text) and imports.search(text) for text in texts)


# a JavaScript / TypeScript class member's head: `identity(force?: boolean): Observable<Account | null> {`
_MEMBER_HEAD = r"^\s+(?:(?:public|private|protected|static|async|override|readonly|get|set)\s+)*{name}\s*(?:<[^>]*>)?\("


def _class_member(used: Chunk, name: str) -> bool:
    """Whether ``used``'s ``name`` is a method of a class (``AccountService.identity``): a bare ``identity`` in the
    class's code is a parameter or a local (``authenticate(identity: Account | null)``), not that method."""
    in_class = any(q.rpartition(".")[0].rpartition(".")[2][:1].isupper()
                   for q in qualified_names(used.symbol) if short_name(q) == name)  # fmt: skip
    return in_class and re.search(_MEMBER_HEAD.format(name=re.escape(name)), used.text, re.MULTILINE) is not None
