"""Which definition of a chunk a relation is said of: a chunk is named after its first definition (``createToken
(+4)``), and the call a sentence reports may be made by another of them, or by code outside them all. A checked claim
knows its caller; a link found by name (a language with no resolver) is placed by the lines around it, and left
unplaced when they do not show it. ``placing`` names quoted lines the same way.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from codeqa.answer.explanation.calls.byname import CONSTRUCTORS
from codeqa.answer.explanation.calls.flow import Use
from codeqa.answer.explanation.code.embedded import string_body_lines
from codeqa.answer.explanation.code.jsopened import JS_LANGUAGES
from codeqa.answer.explanation.code.linenames import FUNCTION_HEAD, _head, holder_at
from codeqa.answer.explanation.code.outline import CONTAINER, display_name
from codeqa.answer.rendering.render import code_span
from codeqa.records import Chunk
from codeqa.symbols import qualified_names, short_name


def several(chunk: Chunk) -> bool:
    """A chunk of several definitions, named after its first (``createToken (+4)``)."""
    return " (+" in display_name(chunk)


def _file_named(chunk: Chunk) -> bool:
    """A chunk named after its file (``membership.js``), whose lines may still hold functions (a module wrapper's
    ``Groups.isMember = async function …``)."""
    return display_name(chunk) == chunk.path.rsplit("/", 1)[-1]


def others(chunk: Chunk) -> bool:
    """A chunk named after one definition that holds code of others above it (``publishLocalAnalytics``, lines 1-76
    of ``analytics.js``, holds ``Analytics.init`` and ``Analytics.writeLocalData`` before its own ``function
    publishLocalAnalytics() {`` at 71): a line of it is not said of the name without placing it."""
    if not chunk.symbol or several(chunk) or _file_named(chunk):
        return False
    lines = chunk.text.split("\n")
    top = min((len(line) - len(line.lstrip()) for line in lines if line.strip()), default=0)
    own = short_name(display_name(chunk).split(" (+", 1)[0])
    for line in lines:  # a definition opened at the chunk's outermost level that is not its own
        head = _head(line, chunk.language) if len(line) - len(line.lstrip()) == top else None
        if head is not None and short_name(head[2]) != own:
            return True
    return False


def placed_caller(use: Use, chunk: Chunk) -> str:
    """The definition of a chunk not named after it that makes call ``use`` (a link found by name): the one its
    lines show holding the call (``User.isReadyToPost`` in ``posts.js``; ``propagate!``, not ``run``, in ``run
    (+4)``), else ""."""
    if use.caller or not (_file_named(chunk) or several(chunk) or others(chunk)):
        return ""
    return placed(chunk, use.line) or enclosing(chunk)


def enclosing(chunk: Chunk) -> str:
    """The definition of a JavaScript / TypeScript chunk of several that holds all the others (``AuthProvider`` of
    ``AuthProvider.hasCapability, AuthProvider``: a component and a handler nested in it): a line none of the others
    is seen to hold (an effect's callback below ``hasCapability``) is still inside it; "" when none holds them all."""
    names = qualified_names(chunk.symbol)
    if chunk.language not in JS_LANGUAGES or "…" in chunk.symbol or len(names) < 2:
        return ""
    dotted = [name.replace("::", ".") for name in names]
    for name, plain in zip(names, dotted, strict=True):
        if all(other == plain or other.startswith(plain + ".") for other in dotted):
            return name
    return ""


def from_clause(use: Use, own: str, chunk: Chunk) -> str:
    """A call made by another definition than the one the sentence names: which one. A checked claim knows it; a
    link found by name (no resolver for the language) in a chunk of several definitions is placed by its line
    (``User.request_impersonation_for (+4)``: ``verify_otp?``, not ``request_impersonation_for``, calls
    ``verify_backup_code?``)."""
    placing = several(chunk) or _file_named(chunk) or others(chunk)
    caller = use.caller or ((placed(chunk, use.line) or enclosing(chunk)) if placing else "")
    return f" from {code_span(caller)}" if caller and short_name(caller) != short_name(own) else ""


def unplaced(use: Use, chunk: Chunk) -> bool:
    """A call found by name in a chunk named after one definition that holds others (``_others``), on a line no
    definition is seen to hold, or a Python module's statement (``module_level``): saying the named one makes it
    would be false, so it is not said."""
    return not use.caller and ((others(chunk) and not placed(chunk, use.line)) or module_level(use, chunk))


# a JavaScript / TypeScript module's own statement: a declaration at the left margin (`const basePath = env(…)`)
JS_STATEMENT = re.compile(  # not a function's (`const formatResults = (steps: Array<FunnelStep>) => …`)
    r"^(?:export\s+)?(?:const|let|var)\s+[\w${}\[\], ]+=(?!\s*(?:async\s*)?(?:function\b|\([^)]*\)\s*(?::[^=]+)?=>|"
    r"[\w$]+\s*=>|<))"
)


def module_level(use: Use, chunk: Chunk) -> bool:
    """A call a module's statement makes in a chunk named after the one definition it also holds (settings'
    ``EMAIL_USE_VERIFICATION = envbool(…)`` in ``immutable_file_test``'s chunk; ``const basePath = env(…)`` below
    ``export interface HonoEnv {…}``): the module makes it."""
    lines = chunk.text.split("\n")
    offset = use.line - chunk.start_line
    if chunk.language not in ("python", *JS_LANGUAGES) or not chunk.symbol or not 0 <= offset < len(lines):
        return False
    text, strings = lines[offset], string_body_lines(lines)
    if not text.strip() or text.lstrip().startswith(("@", "#")) or holder_at(chunk, use.line) is not None:
        return False
    if offset in strings:  # a string's text from the first column (an f-string's body): no statement
        return False
    indent = len(text) - len(text.lstrip())
    if chunk.language != "python" and (indent or not JS_STATEMENT.match(text)):  # a component's body is indented
        return False
    for at in range(offset - 1, -1, -1):  # up through the blocks around it: a module's `if`, never a `def`
        if indent == 0:
            break
        above = lines[at]
        depth = len(above) - len(above.lstrip())
        if not above.strip() or depth >= indent or at in strings:
            continue
        if FUNCTION_HEAD.match(above) or CONTAINER.match(above):
            return False
        indent = depth
    return indent == 0  # a split method's piece shows no `def` above its lines: not the module's


def as_module(chunk: Chunk) -> tuple[str, str] | None:
    """``(name, role)`` for a Python chunk named after the one function it holds that opens on the module's
    statements (settings' ``MIDDLEWARE = [`` above ``def patched_process_response``), or that closes on them when
    they are most of its code (a 3-line ``before_request`` hook above 40 lines of ``api.add_resource(…)``): the
    file's code, with the function; None for any other chunk."""
    if chunk.language != "python" or not chunk.symbol or several(chunk) or _file_named(chunk):
        return None
    lines = chunk.text.split("\n")
    code = [n for n, line in enumerate(lines) if line.strip() and not line.lstrip().startswith("#")]

    def statement(n: int) -> bool:
        return module_level(Use("", chunk.start_line + n, "uses", lines[n].strip()), chunk)

    if not code or not (statement(code[0]) or (statement(code[-1]) and 2 * sum(map(statement, code)) > len(code))):
        return None
    return chunk.path.rsplit("/", 1)[-1], f"is the file's top-level code, with {code_span(display_name(chunk))}"


def caller_name(use: Use, chunk: Chunk) -> str:
    """Who makes call ``use`` of ``chunk`` where the chunk's name would be wrong: the checked caller, the definition
    placed by its lines (``placed_caller``), or the file for a module's statement; "" when the chunk's name holds."""
    if use.caller:
        return use.caller
    return chunk.path.rsplit("/", 1)[-1] if module_level(use, chunk) else placed_caller(use, chunk)


_CLOSER = re.compile(r"^\s*(?:[}\])]|end\b)")


def placed(chunk: Chunk, line: int) -> str:
    """The definition holding file line ``line`` of ``chunk`` where its lines show it: the nearest line above that
    opens a block around it is that definition's head (not a top-level ``self.addEventListener(…, (event) => {``
    below a closed ``async function updateBadgeCount``), else ""."""
    holder = holder_at(chunk, line)
    lines = chunk.text.split("\n")
    offset = line - chunk.start_line
    if not holder or not 0 <= offset < len(lines):
        return ""
    name = re.escape(short_name(holder))
    if FUNCTION_HEAD.match(lines[offset]) and re.search(rf"(?<![\w$]){name}(?![\w$?!])", lines[offset]):
        return holder  # the line opens it: `def add_handlers(app):`
    indent = len(lines[offset]) - len(lines[offset].lstrip())
    for text in reversed(lines[:offset]):
        depth = len(text) - len(text.lstrip())
        if not text.strip() or depth >= indent or text.strip() == "{":  # a body's brace below its head (PSR-12)
            continue
        if _CLOSER.match(text):
            return ""  # a block closed at a lesser depth: the line is not inside it
        if re.search(rf"(?<![\w$]){name}(?![\w$?!])", text):
            return holder
        if depth == 0:
            return ""  # a top-level statement that is not the definition holds it
        indent = depth
    return ""


def for_clause(use: Use, own: str, chunk: Chunk) -> str:
    """A call to another definition of the chunk than the one the sentence names: which one. A link found by name
    names the definition it reached (``createToken (+4)`` is called by the login route for ``createSecureToken``)."""
    if use.caller or several(chunk):
        owner, _, method = use.name.rpartition(".")
        called = owner if method in CONSTRUCTORS and owner else use.name  # `Transfer.new` builds the class itself
        return f" for {code_span(use.name)}" if short_name(called) != short_name(own) else ""
    return ""


def consistent_chain(hops: Sequence[Use], chunks: Sequence[Chunk] = ()) -> int:
    """How many hops of a chain "A calls B, which calls C" hold together: B called must be the B that calls C. A
    call found by name has no caller; the definition holding its line in B's chunk (``chunks[n]``) stands in. One
    with no caller (a decorator's argument) still names its B: a ``check`` nested in B, returned, does not run."""
    for n in range(1, len(hops)):
        before, after = hops[n - 1], hops[n]
        if before.caller and after.caller and before.name != after.caller:
            return n
        if after.caller and not before.caller and short_name(before.name) != short_name(after.caller):
            return n
        holder = holder_at(chunks[n], after.line) if not after.caller and n < len(chunks) else None
        if holder and short_name(holder) != short_name(before.name):
            return n  # `before_email_time_of_day?` called; `email_decider`, beside it in the chunk, makes the next call
    return len(hops)
