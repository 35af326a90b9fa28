"""A receiver declared as an interface (or abstract class) reaches its one implementation (issue #35, class 2).

``private final DeployService deployService;`` then ``deployService.stopServer(r)`` runs
``DeployServiceImpl.stopServer`` when ``DeployServiceImpl implements DeployService`` and no other class in the index
implements or extends ``DeployService`` (with two, which one runs is decided at run time: nothing is said). The
interface must be declared in the index as an interface or an abstract class (a concrete class's own instances may
be the receiver), the caller's ``DeployService`` and the implementation's must be the same file (``class_file``:
by import, else the same folder), and the implementation must be ``used``'s class, in ``used``'s file.
TypeScript interfaces are typed structurally (any object of that shape is one): only its abstract classes count.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.calls.byname import _TYPED_HEAD
from codeqa.answer.explanation.calls.declared import class_file
from codeqa.records import Chunk
from codeqa.symbols import qualified_names

# a class or interface head, up to its body (``{``) or a ``;``, over lines: ``public class DeployServiceImpl
# implements DeployService {``, Kotlin ``class A(private val x: X) : B, C {`` (or ``object A : B``), PHP ``final class A
# extends B``, an enum or record implementing an interface
_HEAD = re.compile(
    r"^[^\S\n]*(?:(?:export|public|private|protected|internal|final|abstract|open|data|sealed|default|readonly|"
    r"static)\s+)*(?P<kind>class|interface|enum|record|object)\s+(?P<name>\w+)(?P<rest>[^{;]*)",
    re.MULTILINE,
)
# {name} as a direct parent in the rest of a head (a generic argument ``Repo<DeployService>`` is none)
_PARENT = r"(?:\bimplements|\bextends|:|,)\s*(?:[\w$]+[.\\])*\\?{name}\b(?!\s*[.>])"
# an implementation without a class name: Java ``new DeployService() {``, PHP ``new class … implements DeployService``
_ANONYMOUS = r"\bnew\s+(?:[\w.]+\.)?{name}\s*(?:<[^>]*>)?\s*\([^;{{]*\)\s*\{{|\bnew\s+class\b[^{{;]*\b{name}\b"
# a method's head, where one class may define several of a name (overloads)
_OVERLOAD = {"java": _TYPED_HEAD, "kotlin": r"\bfun\s+(?:<[^>]*>\s*)?(?:[\w.]+\.)?{name}\s*\("}
_LANGUAGES = frozenset({"java", "kotlin", "php", "typescript", "tsx"})
# a method's declared return type (its last name; a generic's outer class: ``Mono<User>`` is a ``Mono``)
_RETURNS = {
    "php": r"\bfunction\s+{name}\s*\([^)]*\)\s*:\s*\??\\?(?:\w+\\)*(?P<type>\w+)",
    "java": r"^\s*(?:(?:public|protected|private|static|final|synchronized)\s+)*(?:<[^>]*>\s*)?"
    r"(?!(?:return|new|throw|else|await|case)\b)(?:\w+\.)*(?P<type>\w+)(?:<[^>]*>)?\s+{name}\s*\(",
    "kotlin": r"\bfun\s+{name}\s*\([^)]*\)\s*:\s*(?:\w+\.)*(?P<type>\w+)",
    "typescript": r"\b{name}\s*\([^)]*\)\s*:\s*(?P<type>\w+)",
}


def _abstract(name: str, language: str) -> re.Pattern[str]:
    kinds = r"abstract\s+class" if language in ("typescript", "tsx") else r"interface|abstract\s+class"
    return re.compile(rf"^[^\S\n]*(?:(?:export|public|default)\s+)*(?:{kinds})\s+{re.escape(name)}\b", re.MULTILINE)


class Implementations:
    """Who implements which interface, read from the index once per interface name (cached on its chunk table)."""

    def __init__(self, context: AnswerContext, file_text: Callable[[str], str]) -> None:
        self.context, self.file_text = context, file_text

    def imported_files(self, path: str) -> tuple[str, ...]:
        """The files ``path``'s imports resolve to (Elixir: its ``alias``, ``import`` and ``use`` modules' files)."""
        return tuple(self.context.file_imports.get(path, ()))

    def definitions(self, name: str) -> int:
        """How many definitions of ``name`` the index holds (``AnswerContext.definitions_of``)."""
        return self.context.definitions_of(name)

    def returns(self, owner: str, method: str) -> str | None:
        """The class ``owner``'s ``method`` is declared to return, its last name (PHP ``function query(…):
        SongBuilder``, ``: static`` the owner itself; Java ``static Builder builder()``), where the index defines it."""
        for chunk in self.context.chunks(self.context.definers.get(method.lower(), [])):
            pattern = _RETURNS.get(chunk.language)
            if pattern is None or not any(q.split(".")[-2:] == [owner, method] for q in qualified_names(chunk.symbol)):
                continue
            found = re.search(pattern.format(name=re.escape(method)), chunk.text, re.MULTILINE)
            if found:
                return owner if found.group("type") in ("self", "static") else found.group("type")
        return None

    def implementers(self, name: str) -> list[tuple[str, str]]:
        """``(class, path)`` of every class or interface in the index whose head names ``name`` as its parent, plus
        ``("", path)`` for an anonymous one."""
        return self._read(name)[0]

    def _read(self, name: str) -> tuple[list[tuple[str, str]], list[Chunk]]:
        """``name``'s implementers, and the chunks declaring it an interface or abstract class."""
        return self.context.table.derived(f"implementers of {name}", lambda: self._scan(name))

    def _scan(self, name: str) -> tuple[list[tuple[str, str]], list[Chunk]]:
        rows = [row for row in self.context.rows_mentioning(name) if self.context.table.languages[row] in _LANGUAGES]
        parent = re.compile(_PARENT.format(name=re.escape(name)))
        anonymous = re.compile(_ANONYMOUS.format(name=re.escape(name)))
        found: set[tuple[str, str]] = set()
        declaring: dict[str, Chunk] = {}
        for chunk in self.context.chunks(rows):
            for head in _HEAD.finditer(chunk.text):
                rest = re.sub(r"\([^()]*\)", "", head.group("rest"))  # Kotlin's constructor parameters
                if head.group("name") != name and parent.search(rest):
                    found.add((head.group("name"), chunk.path))
            if anonymous.search(chunk.text):
                found.add(("", chunk.path))
            if _abstract(name, chunk.language).search(chunk.text):
                declaring.setdefault(chunk.path, chunk)
        return sorted(found), list(declaring.values())

    def reaches(self, declared: str, method: str, user: Chunk, used: Chunk, owners: set[str], user_file: str) -> bool:
        """Whether ``method`` called on a receiver declared as ``declared`` in ``user``'s file can only be ``used``'s
        (see the module docstring); not when ``used``'s file overloads it (Java's ``getTables()`` and
        ``getTables(name, startEnd)``: which one a call runs is not read here)."""
        if user.language not in _LANGUAGES or used.language not in _LANGUAGES:
            return False
        implementers, declaring = self._read(declared)
        if len(implementers) != 1:
            return False
        owner, path = implementers[0]
        if owner not in owners or path != used.path:
            return False
        interfaces = [chunk for chunk in declaring if class_file(declared, user, chunk, user_file)]
        if len(interfaces) != 1:
            return False  # the caller's name is no interface or abstract class of the index, or which one is unsure
        if self.overloaded(method, used):
            return False
        head = Chunk(used.path, used.language, 1, 1, "", owner, "class", used.layer)
        return class_file(declared, head, interfaces[0], self.file_text(used.path))

    def overloaded(self, method: str, used: Chunk) -> bool:
        """Whether ``used``'s file defines ``method`` more than once (Java, Kotlin overloads): a call by name alone
        may run either."""
        overload = _OVERLOAD.get(used.language)
        if overload is None:
            return False
        heads = re.findall(overload.format(name=re.escape(method)), self.file_text(used.path), re.MULTILINE)
        return len(heads) > 1
