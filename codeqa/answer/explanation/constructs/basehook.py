"""The app's own base request handler, found by its structure: for "where would I add logging?" when the app routes
requests through a class of its own (Indico's ``RH``), not only through a framework hook.

A *template method*: a base class ``C`` defines a method ``h`` (``_process``) that many classes in other files
define too, and another method of ``C`` calls ``self.h()`` (``_do_process`` → ``self._process()``). The classes
defining ``h`` are the handlers; every one derived from ``C`` runs ``C``'s calling method — the place one line of
code sees each of their requests. Found from the names the chunks define (``searchfiles.defines``: which classes
define which methods, in which files) and its symbol graph (a ``self.h()`` call links the calling method to ``C.h``;
``resolve.calls``), with no text read but the few candidate methods', which must handle a request (name
``request``/``req``) to count.

``base_hooks`` computes them once per loaded index; ``hook_candidates`` brings their code to a placement question
as sources whose hook line (the ``self.h()`` call, or the call into the method holding it from the class's entry
method) is a match on every request's path, said as the count the definitions show.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from codeqa.answer.context import AnswerContext, code_tokens
from codeqa.answer.explanation.code.linenames import holder_at
from codeqa.answer.explanation.constructs.mechanism import Match, answers_poorly
from codeqa.frameworks.conventions import Construct
from codeqa.frameworks.intent import HOOK
from codeqa.records import Chunk

MIN_FILES = 20  # a method name defined by classes in at least this many other files is a handler's hook
# over a framework's app-wide filters (1.3 each; two in one source ≈ 1.7): the base handler the conclusion
# recommends also leads the answer (chosen on realsizedev-indico-02, the one dev question it fires on)
HOOK_WEIGHT = 2.0
MIN_DERIVED = 5  # classes in other files whose header derives from the base, at least
SUBCLASS_ROWS = 300  # chunks naming the base read for those headers
SUBCLASS = r"^[ \t]*(?:export[ \t]+)?(?:abstract[ \t]+)?class[ \t]+(\w+)[^\n]*?(?:\(|<|\bextends\b)[^\n]*?\b{owner}\b"
MAX_HOOKS = 2  # base classes brought to an answer, the most subclassed first
PER_HOOK = 2  # owners of one hook name checked, the most used first
CHECKED = 8  # candidate base classes whose methods are read
MAX_UP = 2  # calls followed up the base class from the method calling the hook (``process`` → ``_do_process``)
# a request the chain is handed or reads (Flask's global `request`, a `request` parameter), not one a class keeps as
# an attribute (`self.request.space`: an importer the view built with the request, not a request handler)
REQUEST = re.compile(r"(?<![\w$.])(?:request|req|\$request)(?![\w$])")
HOOK_CONSTRUCT = Construct(
    framework="",
    kind="base-handler",
    intents=(HOOK,),
    pattern=re.compile(r"(?!)"),  # never matched on text: found by structure
    says="",
    weight=HOOK_WEIGHT,
    every_request=True,
)


@dataclass(frozen=True)
class BaseHook:
    """``owner.entry`` (row ``entry_row``) leads to ``owner.caller`` (row ``caller_row``), which calls
    ``self.hook()``, a method ``classes`` classes in ``files`` other files define (at least: a method is counted
    where its chunk shows its class, ``searchfiles.defines``)."""

    owner: str
    path: str
    hook: str
    chain: tuple[tuple[Chunk, str, int], ...]  # (chunk, method, line calling the next) from the entry to the caller
    classes: int
    files: int
    derived: int  # classes in other files seen deriving from ``owner`` directly (at least)


def _methods(symbols: str) -> list[tuple[str, str]]:
    """``(owner, method)`` of each ``Owner.method`` a row defines (a nested function's owner is skipped)."""
    found = []
    for entry in symbols.split(", "):
        owner, dot, method = entry.rpartition(".")
        if dot and owner and method and "." not in owner and method.isidentifier():
            found.append((owner, method))
    return found


def base_hooks(context: AnswerContext) -> list[BaseHook]:
    """The template-method base handlers of the index behind ``context``, the most widely defined hook first
    (cached per loaded index)."""
    return context.table.derived("base hooks", lambda: _find(context))


def _find(context: AnswerContext) -> list[BaseHook]:
    table = context.table
    members: dict[tuple[str, str], dict[int, set[str]]] = defaultdict(dict)  # (owner, path) -> row -> methods
    defined: dict[str, dict[tuple[str, str], int]] = defaultdict(dict)  # method -> (owner, path) -> row
    for row, symbols in enumerate(table.symbols):
        if table.layers[row] in ("test", "docs", "migration") or not context.in_scope(row):
            continue
        for owner, method in _methods(symbols):
            members[(owner, table.paths[row])].setdefault(row, set()).add(method)
        for owner, method in _methods(", ".join(context.defines[row])):  # a class kept whole in one chunk too
            defined[method].setdefault((owner, table.paths[row]), row)
    bases: list[tuple[int, str, str, str]] = []  # (-files, owner, path, hook)
    for hook, owners in defined.items():
        if hook.startswith("__") or len(owners) < MIN_FILES + 1:  # fewer owners: fewer files
            continue
        files = {table.paths[row] for row in context.definers.get(hook.lower(), [])}
        if len(files) < MIN_FILES + 1:
            continue
        mentions = set(context.rows_mentioning(hook))
        for owner, path in owners:  # the owner's methods other than the hook mention it: a call, maybe
            if owner.isidentifier() and any(row in mentions and methods != {hook}
                                            for row, methods in members[(owner, path)].items()):  # fmt: skip
                bases.append((-len(files - {path}), owner, path, hook))
    used = {owner: _mentions(context, owner) for owner in {b[1] for b in bases}}
    bases.sort(key=lambda b: (b[0], -used.get(b[1], 0), b[2]))
    per_hook: dict[str, int] = defaultdict(int)
    for base in list(bases):  # the most used owners of each hook name: the base, not a subclass split into methods
        per_hook[base[3]] += 1
        if per_hook[base[3]] > PER_HOOK:
            bases.remove(base)
    bases = bases[:CHECKED]
    rows = sorted({row for _, owner, path, _ in bases for row in members[(owner, path)]})
    texts = {c.id: c for c in context.chunks(rows)}
    kept: list[BaseHook] = []
    for _, owner, path, hook in bases:
        chunks = [texts[table.ids[row]] for row in members[(owner, path)] if table.ids[row] in texts]
        chain = _chain(chunks, hook)
        if not chain or any(answers_poorly(chunk) for chunk, _, _ in chain):
            continue
        if not any(REQUEST.search(chunk.text) for chunk, _, _ in chain):  # it handles a request
            continue
        if _called_by_handlers(context, owner, path, chain[0][1], set(members[(owner, path)])):
            continue  # a helper its handlers call (`self.handle_mark_as_read(…)` in a `post`): no request's way in
        derived = _derived(context, owner, path)
        if len(derived) < MIN_DERIVED:  # not a base: the classes defining the hook derive from something else
            continue
        others = {(o, p) for o, p in defined[hook] if p != path}
        kept.append(BaseHook(owner, path, hook, tuple(chain), len(others), len({p for _, p in others}),
                             len(derived)))  # fmt: skip
        if len(kept) >= MAX_HOOKS:
            break
    return kept


def _derived(context: AnswerContext, owner: str, path: str) -> set[tuple[str, str]]:
    """``(class, file)`` of the classes in other files whose header derives from ``owner`` (``class RHFoo(RH)``,
    ``class Foo < Owner``, ``class Foo extends Owner``), among the chunks naming it that the word index ranks first."""
    header = re.compile(SUBCLASS.format(owner=re.escape(owner)), re.MULTILINE)
    rows = [row for row in context.rows_mentioning(owner)[:SUBCLASS_ROWS] if context.table.paths[row] != path]
    return {(hit.group(1), chunk.path) for chunk in context.chunks(rows) for hit in header.finditer(chunk.text)}


def _called_by_handlers(context: AnswerContext, owner: str, path: str, method: str, own: set[int]) -> bool:
    """Whether code outside ``owner``'s own methods, in a file naming ``owner`` (a class derived from it), calls
    ``self.method()``: the handlers choose to call it (Misago's ``ListView.handle_mark_as_read``, called from a
    subclass's ``post``), so it is no way every request takes, and neither is the hook it calls."""
    files = {path} | {context.table.paths[row] for row in context.rows_mentioning(owner)}
    rows = [row for row in context.rows_mentioning(method) if row not in own and context.table.paths[row] in files
            and context.table.layers[row] not in ("test", "docs")]  # fmt: skip
    return any(_call_lines(chunk, method) for chunk in context.chunks(rows[:SUBCLASS_ROWS]))


def _mentions(context: AnswerContext, name: str) -> int:
    """How many rows hold the identifier ``name`` (a count from the word index, without ranking the rows)."""
    tokens = code_tokens(name)[:1]
    if context.lexical is None or not tokens:
        return len(context.rows_mentioning(name))
    return int(np.count_nonzero(context.lexical.scores(tokens) > 0))


def _chain(chunks: list[Chunk], hook: str) -> list[tuple[Chunk, str, int]]:
    """``(chunk, method, line)`` from the class's entry method down to the one calling ``self.hook()``: each calls
    the next at ``line`` (the last calls ``hook``); empty when no method of the class calls ``self.hook()``."""
    chain: list[tuple[Chunk, str, int]] = []
    callee = hook
    while len(chain) <= MAX_UP:
        found = next(((chunk, method, line) for chunk in chunks for line in _call_lines(chunk, callee)
                      if (method := _method_at(chunk, line)) and method not in (callee, hook)
                      and all(method != m for _, m, _ in chain)), None)  # fmt: skip
        if found is None:
            break
        chain.insert(0, found)
        callee = found[1]
    return chain


def _method_at(chunk: Chunk, line: int) -> str:
    held = holder_at(chunk, line)
    return held.rsplit(".", 1)[-1] if held else ""


_CALL = r"(?:self|this|\$this|cls)\s*(?:\.|->)\s*{name}\s*\("


def _call_lines(chunk: Chunk, name: str) -> list[int]:
    """The file lines where ``chunk`` calls ``self.name(…)`` (``this.name(``), the last first (past a profiling
    branch's)."""
    pattern = re.compile(_CALL.format(name=re.escape(name)))
    lines = [n for n, line in enumerate(chunk.text.split("\n")) if pattern.search(line)]
    return [chunk.start_line + n for n in reversed(lines)]


def hook_candidates(context: AnswerContext) -> list[tuple[Chunk, list[Match]]]:
    """The base handlers' code for a placement question, each chunk with its hook match: the entry method's call
    into the chain, and the caller's ``self.hook()`` line."""
    out: list[tuple[Chunk, list[Match]]] = []
    entries: set[tuple[str, str, int]] = set()  # one hook per entry line: the most widely defined one (bases' order)
    for base in base_hooks(context):
        entry_at = (base.owner, base.chain[0][0].id, base.chain[0][2])
        if entry_at in entries:  # `RH.process` leads to `_process` and `_process_args`: said once, of `_process`
            continue
        entries.add(entry_at)
        plural = "es" if base.classes != 1 else ""
        count = f"at least {base.classes} class{plural} in {base.files} other files"
        each = f"so each request a class derived from `{base.owner}` handles passes here"
        names = [method for _, method, _ in base.chain[1:]] + [base.hook]
        entry = f"{base.owner}.{base.chain[0][1]}"
        for n, (chunk, _, line) in enumerate(base.chain):
            through = "".join(f", which calls `self.{name}()`" for name in names[n + 1 :])
            said = f"calls `self.{names[n]}()`{through} — a method {count} define — {each}"
            if n:  # said once, at the entry: the methods it leads to are on its way
                said = f"calls `self.{names[n]}()` on the way from `{entry}`"
            weight = HOOK_WEIGHT + 0.01 * (len(base.chain) - n)  # the entry is where one line sees the whole request
            match = Match(HOOK_CONSTRUCT, chunk, line, _text(chunk, line), said, weight)
            held = next((matches for known, matches in out if known.id == chunk.id), None)
            if held is None:
                out.append((chunk, [match]))
            else:
                held.append(match)  # the entry and the caller in one chunk
    return out


def _text(chunk: Chunk, line: int) -> str:
    return chunk.text.split("\n")[line - chunk.start_line].strip()
