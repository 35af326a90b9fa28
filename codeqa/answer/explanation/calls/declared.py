"""The classes a caller's file declares a receiver as, and which file a class named there is: what lets a call on a
receiver be told apart from a namesake's method (``byname``, ``implements``). Also the root of a fluent chain a
member call continues from a line above (``http.authorizeRequests()`` … ``.logout()``)."""

from __future__ import annotations

import posixpath
import re
from pathlib import PurePosixPath
from typing import Protocol

from codeqa.answer.explanation.calls.gopackages import go_package
from codeqa.records import Chunk

# how a property, parameter or field declares its class, per language ({name}: the receiver): PHP
# `private readonly AuthenticationService $auth`, TypeScript/Kotlin `private authService: AuthService`, Java
# `private final UserService userService;` — the class's last segment is captured
DECLARED = {
    # a typed parameter or property; or a variable made (`$factory = new X(…)`) or resolved from Laravel's container
    # (`$size_variant_factory = resolve(SizeVariantFactory::class)`)
    "php": r"(?:^|[(,\s])\??(?:\\?\w+\\)*(?P<type>[A-Z]\w*)\s+(?:&\s*)?\${name}\b|(?<![\w$>:])\${name}\s*=\s*"
    r"(?:new\s+|(?:resolve|app)\(\s*)\\?(?:\w+\\)*(?P<made>[A-Z]\w*)(?:\s*\(|::class\s*\))",
    "typescript": r"(?<![\w$.]){name}\s*[?!]?\s*:\s*(?:[\w$]+\.)*(?P<type>[A-Z][\w$]*)\b(?!\s*[.\[|&])",
    "java": r"(?<![\w.])(?P<type>[A-Z]\w*(?:\.[A-Z]\w*)*)\s+{name}\s*[;=,)]",  # a nested class: `Outer.Inner`
}
DECLARED["tsx"] = DECLARED["kotlin"] = DECLARED["typescript"]
# Go: a method's receiver `func (s *Server)`, a parameter, struct field or var `store *storage.Storage`, a composite
# literal `h := &handler{…}` (Go's types may be lower-case: unexported)
DECLARED["go"] = (
    r"\(\s*{name}\s+\*?(?P<type>\w+)\s*\)|(?:^|[(,]|\bvar\b)[ \t]*{name}[ \t]+\*?(?:\w+\.)?(?P<type2>\w+)\b(?![.(])|"
    r"(?<![\w.]){name}\s*:=\s*&?(?:\w+\.)?(?P<type3>\w+)\{{"
)


def class_file(name: str, user: Chunk, used: Chunk, user_file: str, receiver: str = "") -> bool:
    """Whether the class ``name`` in the caller's file is ``used``'s file's (two apps' ``AuthenticationService`` are
    told apart): by the caller's import of it, else the caller's own folder (PHP namespace, Java package) or file."""
    escaped = re.escape(name)
    stem = PurePosixPath(used.path).with_suffix("").as_posix()
    if user.language == "php":
        found = re.search(PHP_IMPORT.format(name=escaped), user_file, re.MULTILINE)
        if found is None:
            return PurePosixPath(used.path).parent == PurePosixPath(user.path).parent
        return stem.lower().endswith("/".join(part.lower() for part in found.group("path").split("\\")[-2:]))
    if user.language == "go":
        return go_package(name, user, used, user_file, receiver)
    if user.language in ("java", "kotlin"):
        found = re.search(rf"^\s*import\s+(?P<path>[\w.]+\.{escaped})\s*;?\s*$", user_file, re.MULTILINE)
        if found is None:
            return PurePosixPath(used.path).parent == PurePosixPath(user.path).parent
        return stem.endswith(found.group("path").replace(".", "/"))
    found = re.search(JS_IMPORT.format(name=escaped), user_file, re.MULTILINE)
    if found is None:
        return used.path == user.path
    source = found.group("path")
    if source.startswith("."):
        joined = posixpath.normpath(posixpath.join(posixpath.dirname(user.path), source))
        return stem in (joined, f"{joined}/index")
    tail = source.lstrip("@~/")  # an alias (`@/services/auth`): the path's end must be the file's
    return bool(tail) and (stem.endswith("/" + tail) or stem == tail or stem.endswith(f"/{tail}/index"))


class FileTexts(Protocol):
    """The index's files by path (``implements.Implementations``): "" for a file it does not hold."""

    def file_text(self, path: str) -> str: ...


def imported_elsewhere(
    receiver: str, owners: set[str], user: Chunk, used: Chunk, user_file: str, files: FileTexts | None
) -> bool:
    """Whether a receiver named as one of ``used``'s classes (``AccessKeyService.x()``, ``accessKeyService.x()``)
    names another class of that name: one the caller's Java or Kotlin file imports from another file (apollo's portal
    and biz modules each have an ``AccessKeyService``, and the portal's ``accessKeyService.findByAppId(env, appId)`` is
    not the biz's), or, with no import of it, the Java class of the caller's own package (``files`` hold
    ``<Owner>.java`` beside the caller's file): Java sees it before any other, unless imported by name."""
    if user.language not in ("java", "kotlin"):
        return False
    for owner in (owner for owner in owners if owner.lower() == receiver.lower()):
        found = re.search(rf"^\s*import\s+(?P<path>[\w.]+\.{re.escape(owner)})\s*;?\s*$", user_file, re.MULTILINE)
        if found is not None:
            if not class_file(owner, user, used, user_file):
                return True
            continue
        sibling = str(PurePosixPath(user.path).parent / f"{owner}.java")
        if user.language == "java" and files is not None and sibling != used.path and files.file_text(sibling):
            return True
    return False


def declared_owner(declared: str, owners: set[str], used: Chunk) -> bool:
    """Whether a declared class is one of ``owners``, ``used``'s classes. A nested class written with its outer class
    (``OmsOrderExample.Criteria criteria``) is the outer class's file's (Java keeps one top-level class a file): the
    namesake method of another file's nested class (``OmsCartItemExample``'s ``andMemberIdEqualTo``) is not its."""
    if "." in declared:
        return PurePosixPath(used.path).stem == declared.split(".")[0]
    return declared in owners


def declared_types(receiver: str, language: str | None, user_file: str) -> set[str]:
    """The classes ``receiver`` is declared as in the caller's file (a typed property, parameter or field); empty
    where the language declares none or the file does not declare it."""
    pattern = DECLARED.get(language or "")
    if pattern is None:
        return set()
    found = re.finditer(pattern.format(name=re.escape(receiver)), user_file, re.MULTILINE)
    return {next(group for group in m.groups() if group) for m in found}


PHP_IMPORT = r"^\s*use\s+\\?(?P<path>[\w\\]+\\{name})\s*;"
JS_IMPORT = r"^\s*import\b[^;]*\b{name}\b[^;]*\bfrom\s+['\"](?P<path>[^'\"]+)['\"]"
# a line that goes on a member chain begun above it (`.logout()`, `->accessible()`)
CONTINUED = re.compile(r"^\s*(?:\??\.|->|::|&\.)")
# the chain's first line: its receiver (`http` in `http.authorizeRequests()`, `return $query->…`, `x = user.a()`)
CHAIN_HEAD = re.compile(
    r"^\s*(?:return\s+|(?:[\w<>\[\],.?]+\s+)?[$\w]+\s*=\s*)?(?P<root>[$@]{0,2}\w+)\s*(?:\??\.|->|::|$)"
)
COMMENT = ("//", "#", "*", "/*", "--")


def chain_root(user_file: str, line: int) -> str | None:
    """The receiver a member chain continued on file line ``line`` (1-based) starts from, or None when the chain's
    head is not a name (a call, a literal) or not found within a screen above."""
    lines = user_file.split("\n")
    for number in range(line - 2, max(-1, line - 42), -1):
        text = lines[number] if number < len(lines) else ""
        if not text.strip() or text.strip().startswith(COMMENT) or CONTINUED.match(text):
            continue
        head = CHAIN_HEAD.match(text)
        return head.group("root").lstrip("$@") if head else None
    return None


def chain_constructed(user_file: str, line: int) -> str | None:
    """The class a member chain continued on file line ``line`` (1-based) starts by constructing, its last name
    (``new UrlContextListResult.Builder<ListedPostVo>()`` … ``.build()``: ``Builder``); None when the chain starts
    otherwise (a name, a static call) or its head is not within a screen above."""
    lines = user_file.split("\n")
    above: list[str] = []
    for number in range(line - 2, max(-1, line - 42), -1):
        above.append(lines[number] if number < len(lines) else "")
        if not CONTINUED.match(above[-1]):
            break
    text = "\n".join(reversed(above)).rstrip()
    while text.endswith(")"):
        depth, start = 0, -1
        for at in range(len(text) - 1, -1, -1):  # the `(` that opens the last call's arguments
            depth += {")": 1, "(": -1}.get(text[at], 0)
            if depth == 0:
                start = at
                break
        head = text[:start].rstrip() if start >= 0 else ""
        if made := re.search(r"\bnew\s+([\w.]+)\s*(?:<[^()]*>)?$", head):
            return made.group(1).rpartition(".")[2]
        call = re.search(r"\??\.\s*\w+\s*(?:<[^()]*>)?$", head)  # `.listResult(list)` goes on the chain
        if call is None:
            return None
        text = head[: call.start()].rstrip()
    return None


def chain_types(user_file: str, line: int, language: str) -> set[str]:
    """The classes the receiver of a member chain continued on file line ``line`` is declared as (``HttpSecurity
    http`` … ``.logout()``), or the class it starts by constructing; empty when neither is known."""
    root = chain_root(user_file, line)
    declared = declared_types(root, language, user_file) if root else set()
    made = None if declared else chain_constructed(user_file, line)
    return declared or ({made} if made else set())


def mocked(receiver: str, user_file: str) -> bool:
    """Whether the caller's file makes ``receiver`` a mock (``@Mock CryptoService cryptoService;``, ``@MockBean``,
    ``x = mock(X.class)``): a call on it (``when(cryptoService.decrypt(…))``, ``verify(…).decrypt(…)``) reaches no
    implementation of the method."""
    name = re.escape(receiver)
    modifiers = r"(?:(?:private|protected|public|final)\s+)*"
    field = rf"@(?:Mock|MockBean|MockitoBean)\b(?:\([^)]*\))?\s+{modifiers}[\w<>,.? ]+\s{name}\s*;"
    made = rf"\b{name}\s*=\s*(?:Mockito\.)?mock\("
    return re.search(field, user_file) is not None or re.search(made, user_file) is not None


def same_namespace(receiver: str, written: str, used: Chunk, user_file: str) -> bool:
    """``MarketDataImporter.new`` is not ``Account::MarketDataImporter``'s (unless written inside ``Account``), and
    neither ``Account::MarketDataImporter.new`` nor ``::MarketDataImporter.new`` is a nested class's."""
    name = re.escape(receiver)
    prefix = re.search(rf"((?:\w+::)+){name}\s*\.\s*new\b", written)
    declared = re.search(rf"^\s*class\s+((?:\w+::)*){name}\b", used.text, re.MULTILINE)
    if declared is None:
        return True  # the constructor's piece of the class: its namespace is not in these lines
    namespace, wanted = declared.group(1), prefix.group(1) if prefix else ""
    if re.search(rf"(?<![\w:])::{name}\s*\.\s*new\b", written):  # `::Money.new`: the top-level class, not Spree's
        return not namespace and not declared.group(0)[:1].isspace()
    if namespace == wanted:
        return True
    if not namespace and wanted:  # `class MarketDataImporter` nested in `module Account` of account/…: by its folder
        folder = "/".join(re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", part).lower() for part in wanted.split("::") if part)
        return f"{folder}/" in used.path
    outer = namespace.split("::")[0]
    return not wanted and bool(outer) and bool(re.search(rf"^\s*(?:module|class)\s+{outer}\b", user_file, re.M))


# a definition of {name} in the callee's lines, in the languages checked by name
_DEFINES = (
    r"\bdef\s+(?:self\.)?{name}(?![\w?!])|\bfunction\s+{name}\b|\bfunc\s+(?:\([^)]*\)\s*)?{name}\b|\bfn\s+{name}\b|"
    r"\b{name}\s*[:=]\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*=>|\w+\s*=>)|"
    r"\b(?:scope|has_many|has_one|belongs_to|has_and_belongs_to_many|delegate|alias_method)\s+:{name}\b|"
    r"\battr_(?:reader|writer|accessor)\b.*:{name}\b|\bdefp?\s+{name}\b"
)
# a head with no keyword (`getId(` after its modifiers and type): in a language whose definitions always have one
# (`def`, `function`, `func`), a line opening so is a call (diaspora's `where(opts.merge!(…))` in `def self.for`)
_HEAD = (
    r"|^\s*(?:(?:public|private|protected|internal|static|async|final|override|abstract|export|default|get|set|"
    r"suspend|open)\s+)*(?:[\w<>\[\],?]+\s+)?{name}\s*(?:<[^>]*>)?\s*\("
)
KEYWORD_DEFINED = frozenset({"ruby", "php", "go", "elixir", "python"})


def defines(used: Chunk, name: str) -> bool:
    """Whether ``used``'s lines define ``name`` (not only call it)."""
    pattern = _DEFINES + ("" if used.language in KEYWORD_DEFINED else _HEAD)
    return re.search(pattern.format(name=re.escape(name)), used.text, re.MULTILINE) is not None


# a parameter of a Ruby or Python method (`def process_export(export)`, `def f(self, *, export=None)`) or of a Ruby
# block (`each do |export|`, `{ |a, export| … }`): inside it the bare name is the value passed in
PARAMETER = (
    r"^\s*def\s+[\w.]+[?!]?\s*\((?:[^)]*,)?\s*[*&]{{0,2}}{name}\s*(?:[,)=:]|$)"
    r"|\|\s*(?:[^|]*,\s*)?[*&]?{name}\s*(?:,[^|]*)?\|"
)


# a typed parameter or field with no value of its own (Java, C#: `final GrayReleaseRulesHolder grayReleaseRulesHolder)`,
# `private final ConfigService configService;`): a Spring bean method of that name elsewhere is not what it reads
TYPED = r"(?<![\w.$])[A-Z][\w.]*(?:<[^;(){{}}=]*>)?(?:\[\])*\s+{name}\s*[,;)]"


def declared_local(text: str, name: str) -> bool:
    """Whether ``text`` assigns ``name`` as a local of its own (``Query query =``, ``query :=``, ``const query =``,
    ``query = …``), takes it as a parameter (``PARAMETER``) or declares it with a type (``TYPED``), and never calls
    it (Elixir's ``repositories = repositories()`` does): a bare use of the name then reads that variable."""
    declared = rf"^\s*(?:(?:final|const|let|var)\s+)?(?:[A-Z][\w<>\[\],.?]*\s+)?{re.escape(name)}\s*(?::=|=(?![=>~]))"
    called = rf"(?<![\w.$]){re.escape(name)}\s*\("
    bound = (
        re.search(declared, text, re.MULTILINE)
        or re.search(PARAMETER.format(name=re.escape(name)), text, re.M)
        or re.search(TYPED.format(name=re.escape(name)), text)
    )
    return bound is not None and re.search(called, text) is None
