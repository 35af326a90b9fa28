"""Which definition holds a line of a chunk: a chunk is named after its first definition, and the line a sentence
quotes may be in another one (the next method of a class, a Flask error handler beside three others), or in a local
function of one (``async function addMembers`` inside ``Groups.getOwnersAndMembers = …``), which is no definition of
its own to name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from codeqa.answer.explanation.code.jsopened import JS_LANGUAGES, JS_OPENED, js_opened_name
from codeqa.answer.explanation.code.outline import CONTAINER, display_name
from codeqa.records import Chunk
from codeqa.symbols import qualified_names

FUNCTION_HEAD = re.compile(r"^(\s*)(?:(?:export|public|private|protected|static|async|pub)\s+)*"
                           r"(?:def|function|func|fn)\s+(?:\([^)]*\)\s*)?(?:self\.)?(?P<name>\w+[?!]?)")  # fmt: skip


def name_at(chunk: Chunk, line: int) -> str:
    """The definition that holds file line ``line`` of ``step``'s chunk (a chunk of several methods is named after
    its first, which is not where every line is), prefixed like the chunk's name; the chunk's name when unsure."""
    lines = chunk.text.split("\n")
    offset = line - chunk.start_line
    if not 0 <= offset < len(lines):
        return display_name(chunk).split(" (+", 1)[0]
    indent = len(lines[offset]) - len(lines[offset].lstrip())
    chunk_name = display_name(chunk).split(" (+", 1)[0]
    inner, enclosed, inner_at = "", False, offset  # a definition the chunk does not name; whether another holds it
    for at in range(offset, -1, -1):
        head = _head(lines[at], chunk.language)
        if head is None or head[0] >= indent:
            continue
        if not _holds(lines, at, inner_at, head[0]):
            continue  # ended above it (Ruby's `def date … end` above a `private` method indented deeper)
        known = [q for q in qualified_names(chunk.symbol) if q.replace("::", ".").rpartition(".")[2] == head[1]]
        if known and not inner:
            return _one_of(known, lines[at]) or chunk_name
        if known:  # a local function of a definition the chunk names
            return inner
        enclosed = enclosed or bool(inner)
        inner, indent, inner_at = inner or head[2], head[0], inner_at if inner else at
    # a local function (`async function addMembers` in `Groups.get = …`, a hook an app factory registers) or one the
    # chunker did not name (`exports.getLogin = …`): by its own name, never a made-up `Groups.addMembers`
    if enclosed or not chunk.symbol or "." in inner:
        return inner or chunk_name
    if inner:
        owner = _owner_of(chunk, chunk_name)
        owner = _outer_class(lines, inner_at) or owner  # unless its lines show another class holding it
        return f"{owner}.{inner}" if owner else inner
    return chunk_name


def _owner_of(chunk: Chunk, chunk_name: str) -> str:
    """The class a definition the chunk's names leave out belongs to: a class's chunk is its own (a capital names a
    class), a function's or a method's chunk names a function, never a class, whatever its case (Go's exported
    ``CurrentLevel``, C#'s ``Login``): its owner is what the name is qualified by, "" for a top-level function."""
    if chunk.kind in ("function", "method"):
        return chunk_name.rpartition(".")[0]
    return chunk_name if chunk_name.rpartition(".")[2][:1].isupper() else chunk_name.rpartition(".")[0]


def apart(chunk: Chunk, one: int, other: int) -> bool:
    """Whether file lines ``one`` and ``other`` of ``chunk`` lie in two different functions it opens (a file of
    response helpers: ``badRequest()``'s ``{ status: 400 }`` and ``ok()``'s ``return``); False when either lies in
    none (a class body's ``rescue_from`` and a method of the class)."""
    first, second = _function_at(chunk, one), _function_at(chunk, other)
    return first is not None and second is not None and first != second


def same_function(chunk: Chunk, one: int, other: int) -> bool:
    """Whether file lines ``one`` and ``other`` of ``chunk`` lie in one function it opens (False when either lies in
    none: a class body's ``rescue_from`` blocks are no sequence)."""
    first = _function_at(chunk, one)
    return first is not None and first == _function_at(chunk, other)


def _line_at(chunk: Chunk, line: int) -> tuple[list[str], int, int] | None:
    """``chunk``'s lines, the offset of file line ``line`` among them and that line's indent (None: not in it)."""
    lines = chunk.text.split("\n")
    offset = line - chunk.start_line
    if not 0 <= offset < len(lines):
        return None
    return lines, offset, len(lines[offset]) - len(lines[offset].lstrip())


def _function_at(chunk: Chunk, line: int) -> int | None:
    """The index of the line opening the function that file line ``line`` of ``chunk`` opens or sits in."""
    found = _line_at(chunk, line)
    if found is None:
        return None
    lines, offset, indent = found
    for at in range(offset, -1, -1):
        head = _head(lines[at], chunk.language)
        if head is not None and (at == offset or head[0] < indent):
            return at
    return None


CLOSER = re.compile(r"^\s*(?:[}\])]|end\b)")  # the line closing a body at its head's indent (`}`, `})`, Ruby's `end`)


def held_lines(chunk: Chunk, line: int, name: str) -> tuple[int, int] | None:
    """The file lines (first, last) of the innermost function ``name`` of ``chunk`` holding file line ``line`` (a
    local ``const executeSave = () => {`` inside ``saveObject``): what a sentence naming that function cites; None
    when the line sits in none of that name."""
    found = _line_at(chunk, line)
    if found is None:
        return None
    lines, offset, indent = found
    for at in range(offset, -1, -1):
        head = _head(lines[at], chunk.language)
        if head is None or not (at == offset or (head[0] < indent and _holds(lines, at, offset, head[0]))):
            continue
        if name.replace("::", ".").rpartition(".")[2] not in (head[1], head[2]):
            return None  # the innermost function is another one: the sentence names what holds it
        end = next((n for n in range(at + 1, len(lines)) if lines[n].strip() and not SIGNATURE_END.match(lines[n])
                    and len(lines[n]) - len(lines[n].lstrip()) <= head[0]), len(lines))  # fmt: skip
        if end < len(lines) and CLOSER.match(lines[end]):
            end += 1
        last = max(n for n in range(at, end) if lines[n].strip() or n == at)
        return chunk.start_line + at, chunk.start_line + last
    return None


def _one_of(known: list[str], head: str) -> str | None:
    """Which of the chunk's definitions of one short name ``head`` opens: the only one, else the one whose owner
    the head names (Go's ``func (m Middleware) toEcho()`` beside ``func (h Handler) toEcho()``); None when unsure."""
    if len(known) == 1:
        return known[0]
    owned = [q for q in known if re.search(rf"\b{re.escape(_owner(q))}\b", head) and _owner(q)]
    return owned[0] if len(owned) == 1 else None


def _owner(qualified: str) -> str:
    return qualified.replace("::", ".").rpartition(".")[0].rpartition(".")[2]


def _holds(lines: list[str], head_at: int, inner_at: int, head_indent: int) -> bool:
    """Whether the definition opened on ``lines[head_at]`` goes on down to ``lines[inner_at]``: every code line
    between is indented deeper than its head."""
    between = [line for line in lines[head_at + 1 : inner_at] if line.strip() and not SIGNATURE_END.match(line)]
    return all(len(line) - len(line.lstrip()) > head_indent for line in between)


def _head(line: str, language: str) -> tuple[int, str, str] | None:
    """(indent, name, full name) of the definition ``line`` opens: ``def``/``function``/``func``/``fn``, or a
    JavaScript function assigned (``Groups.get = async function (…) {``: ``get``, ``Groups.get``)."""
    found = FUNCTION_HEAD.match(line)
    if found:
        return len(found.group(1)), found.group("name"), found.group("name")
    opened = JS_OPENED.match(line) if language in JS_LANGUAGES else None
    full = js_opened_name(opened) if opened is not None else ""
    if opened is not None and full:
        return len(opened.group("indent")), full.rpartition(".")[2], full
    method = JS_METHOD.match(line) if language in JS_LANGUAGES else None
    if method is not None and method.group("name") not in JS_KEYWORDS:
        return len(method.group("indent")), method.group("name"), method.group("name")
    return None


# a class's method written short (`supported() {`, `async pushManager() {`, TypeScript's `login(u: User): Promise<void>
# {`): its lines are that method's, not the chunk's first definition's (ntfy's ``Notifier``)
JS_METHOD = re.compile(
    r"^(?P<indent>\s*)(?:(?:static|async|get|set|public|private|protected|readonly|override)\s+)*\*?"
    r"(?P<name>[A-Za-z_$][\w$]*)\s*\([^()]*(?:\([^()]*\)[^()]*)*\)\s*(?::\s*[^={;]+)?\{\s*$"
)
JS_KEYWORDS = frozenset({"if", "for", "while", "switch", "catch", "with", "function", "return", "else", "do"})


DECORATOR = re.compile(r"^\s*@[\w.]")
# a method head that writes its return type first (Java, C#: `private Mono<ServerResponse> reload(ServerRequest r) {`),
# its parameters maybe going on below; not a statement (`return x(`, `new X(`, `String s = f(`, a call ending in `;`)
TYPED_METHOD = re.compile(
    r"^(\s*)(?:(?:public|private|protected|internal|static|final|abstract|synchronized|default|override|virtual|"
    r"async)\s+)*(?!(?:return|new|throw|else|await|yield|case)\b)[\w\[\].?]+(?:<[\w<>\[\],.? ]*>)?(?:\[\])*\s+"
    r"(?P<name>\w+)\s*\([^;]*$"
)
TYPED_LANGUAGES = frozenset({"java", "csharp"})
# at its head's indent, a long signature's last line (`) -> int:`, `) {`) or the brace that opens the body below it
SIGNATURE_END = re.compile(r"^\s*(?:\)|\{\s*$)")


def holder_at(chunk: Chunk, line: int) -> str | None:
    """The definition that holds file line ``line`` of ``chunk``, as ``name_at`` names it, where that is certain: a
    decorator line belongs to the definition below it; a line outside every definition of the chunk (class-level
    ``rescue_from`` after a method, a module's statement) has none (None), and neither has a line of a chunk the
    scan cannot place."""
    lines = chunk.text.split("\n")
    offset = line - chunk.start_line
    if not 0 <= offset < len(lines):
        return None
    if DECORATOR.match(lines[offset]) and chunk.language != "ruby":  # Ruby's `@user = …` sets an instance variable
        below = next((n for n in range(offset + 1, len(lines)) if not DECORATOR.match(lines[n])), None)
        if below is None:
            return None
        if not FUNCTION_HEAD.match(lines[below]):  # Java's `@ControllerAdvice` above its class, an annotation above
            return holder_at(chunk, chunk.start_line + below)  # a typed method's head: whoever holds that line
        return name_at(chunk, chunk.start_line + below + 1) if below + 1 < len(lines) else None
    own = FUNCTION_HEAD.match(lines[offset]) or CONTAINER.match(lines[offset])
    if own:  # the line declares a definition (`class VaultPolicy`, `def authenticate(self, request)`): that one
        name = own.group("name").replace("::", ".")
        known = [q for q in qualified_names(chunk.symbol) if q.replace("::", ".").rpartition(".")[2] == name]
        # a class's head is the class's, not its constructor's (`LogAspect.LogAspect`)
        if CONTAINER.match(lines[offset]):
            known = [q for q in known if q.replace("::", ".").rpartition(".")[0].rpartition(".")[2] != name]
        owner = _owner_of(chunk, display_name(chunk).split(" (+", 1)[0])
        if known:
            return _one_of(known, lines[offset])  # two `toEcho` methods: the one whose receiver the head names
        if CONTAINER.match(lines[offset]) or not owner or owner.rpartition(".")[2] == name:
            return name
        return f"{owner}.{name}"
    indent = len(lines[offset]) - len(lines[offset].lstrip())
    for at in range(offset - 1, -1, -1):
        above = lines[at]
        found = FUNCTION_HEAD.match(above) or CONTAINER.match(above)
        typed = TYPED_METHOD.match(above) if found is None and chunk.language in TYPED_LANGUAGES else None
        if typed is not None:  # a Java method's head: the line is that method's when the method holds it
            if len(typed.group(1)) < indent and _holds(lines, at, offset, len(typed.group(1))):
                return _typed_name(chunk, lines, at, typed.group("name"))
            continue
        if found is None and chunk.language in JS_LANGUAGES:  # `User.isReadyToPost = async function (uid, cid) {`
            opened = _head(above, chunk.language)
            if opened is not None and opened[0] < indent and _holds(lines, at, offset, opened[0]):
                return name_at(chunk, line)
            continue
        if not found or len(found.group(1)) >= indent or not _holds(lines, at, offset, len(found.group(1))):
            continue  # a definition ended above the line (`error_handler` above the loop that registers it)
        if FUNCTION_HEAD.match(above):
            return name_at(chunk, line)
        name = found.group("name").replace("::", ".")  # a class-level line (`before_action`, `rescue_from`)
        if outer := _outer_class(lines, at):  # `class Meta:` inside `class AppInstalled(…)`: that one's, not any Meta
            name = f"{outer}.{name}"
        chunk_name = display_name(chunk).split(" (+", 1)[0]
        return chunk_name if chunk_name.rpartition(".")[2] == name.rpartition(".")[2] else name
    return None


def _typed_name(chunk: Chunk, lines: list[str], at: int, name: str) -> str | None:
    """The chunk's definition a typed method head on ``lines[at]`` opens (``PluginEndpoint.reload``); its class's
    method when the chunk's names do not list it; None when two of the chunk's definitions share the name."""
    known = list(dict.fromkeys(q for q in qualified_names(chunk.symbol) if q.rpartition(".")[2] == name))
    known = [q for q in known if "." in q] or known  # a constructor's head: the constructor, not its class
    if known:
        return known[0] if len(known) == 1 else None
    owner = _outer_class(lines, at) or display_name(chunk).split(" (+", 1)[0]
    owner = owner if owner.rpartition(".")[2][:1].isupper() else owner.rpartition(".")[0]
    return f"{owner}.{name}" if owner else name


def _outer_class(lines: list[str], at: int) -> str:
    """The class that holds the class opened on ``lines[at]`` (a nested class), as it is written; "" for none."""
    indent = len(lines[at]) - len(lines[at].lstrip())
    for above in range(at - 1, -1, -1):
        found = CONTAINER.match(lines[above])
        if found and len(found.group(1)) < indent and _holds(lines, above, at, len(found.group(1))):
            return found.group("name").replace("::", ".")
    return ""


def elsewhere(chunk: Chunk, anchors: Sequence[int], line: int) -> bool:
    """Whether file line ``line`` of ``chunk`` is in another definition than the one the ``anchors`` lines are in
    (``refresh``'s ``head :ok`` beside ``create``'s ``sign_in user``; a class-level line anchors nothing)."""
    held = {anchor: home for anchor in anchors if (home := holder_at(chunk, anchor))}
    homes = {home for home in held.values() if not any(other.startswith(f"{home}.") for other in held.values())}
    if len(homes) != 1 or holder_at(chunk, line) in (None, *homes):
        return False
    lines = chunk.text.split("\n")
    anchor = next(anchor for anchor, home in held.items() if home in homes) - chunk.start_line
    indent = len(lines[anchor]) - len(lines[anchor].lstrip())
    for at in range(anchor - 1, -1, -1):  # the home's head: is the line inside it (a function it nests)?
        head = FUNCTION_HEAD.match(lines[at])
        if head and len(head.group(1)) < indent and _holds(lines, at, anchor, len(head.group(1))):
            return not _holds(lines, at, line - chunk.start_line, len(head.group(1)))
    return True
