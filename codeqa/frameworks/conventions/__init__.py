"""Framework conventions as data: which constructs of a web framework are its entry points, filters and middleware,
error handlers, auth hooks, configuration and logging set-up — one TOML file per framework in this folder.

A file names the framework, its ``role`` in an app (``backend``, ``client``), how to recognise it in an index
(``detect``: paths that exist and identifiers the code uses, which choose the constructs to look for; ``packages``
its manifests declare and ``imports`` its code makes, the evidence that may name it, ``frameworks.evidence``) and its
constructs. A construct is one line pattern (a regular expression, matched on code lines, never on
comments) with the question intents it answers (``intent.INTENTS``), a kind (what it is, for the sentence that
cites it), an optional identifier the index must hold for it (``anchor``, found through the word index so the
answer can bring in the line even when retrieval ranked it low) and ``says``: how the answer's lead sentence
describes a match, with the pattern's named groups filled in (``runs `{name}` before each action``). ``requires`` and
``unless`` (regular expressions) hold a construct to the definition its line opens: an Express function with the
four error arguments that calls ``next(err)`` passes errors on, it is not where they end.

A file may also list ``layers``: literal text that gives a file its architectural layer when its path says nothing
(``@app.route(`` → ``api``, ``models.Model`` → ``model``), read by ``codeqa.chunk.layers``. Signals of libraries
that belong to no framework here (SQLAlchemy, argparse, pytest …) are in ``common.toml``.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fnmatch import fnmatch
from functools import lru_cache
from importlib import resources

from codeqa.frameworks.intent import HOOK
from codeqa.records import Layer

KINDS = ("entry", "route", "filter", "auth", "error", "logging", "config", "job", "data")
COMMON = "common.toml"  # constructs of any application, loaded first
SECONDARY_INTENT = 0.5  # a construct for the question's second or third intent counts half


UNNAMED = re.compile(r"\s*\(`it`\)")
_COMMENT_LINE = re.compile(r"^\s*(?://|#(?![\[!{])|/\*|\*|<!--)")  # not Rust's `#[…]`, a shebang, Elixir's `#{…}`


@dataclass(frozen=True)
class Construct:
    framework: str
    kind: str
    intents: tuple[str, ...]
    pattern: re.Pattern[str]
    says: str
    anchor: str = ""  # an identifier the code holds where the construct is used ("" : only seen in retrieved code)
    paths: tuple[str, ...] = ()  # globs the file must match (none: any file of the framework's languages)
    weight: float = 1.0
    languages: tuple[str, ...] = ()  # narrower than the framework's (none: the framework's)
    every_request: bool = False  # on the path of every request of the app (global middleware, a base controller's
    # filters): the hook for "where would I add …"; a blueprint's or one controller's filter is not
    requires: re.Pattern[str] | None = None  # the definition the match opens must hold this (a response, …)
    unless: re.Pattern[str] | None = None  # … and must not hold this (`next(err)`: it passes errors on)
    app_wide: re.Pattern[str] | None = None  # an error construct whose matched line holds this is the app's one place
    # for errors (``app.register_error_handler``, not a blueprint's; an ``app.use`` error middleware, not a router's)
    packages: tuple[str, ...] = ()  # globs: the library ``says`` names, which a manifest must declare (``devise``)
    says_unbacked: str = ""  # what is said where none is declared ("": the construct does not apply there)
    not_in: re.Pattern[str] | None = None  # a chunk holding this is other code (a Vue client's `createApp(App)`:
    # its `app.use(router)` adds a plugin, no request's middleware)
    hook_word: str = ""  # an every-request hook's own word (`get_response`): finds the app's hooks when the code
    # retrieved holds none (``apphook``); unlike ``anchor`` it brings nothing into other answers
    wraps: bool = False  # a middleware's definition (`func(next http.Handler) http.Handler`): it sees the requests of
    # the handler it is applied to, which its definition does not say (no ``every_request``); its tests are said
    scope: str = (
        ""  # the reader (``codeqa.answer.explanation.code.scopes``) of where the matched line applies, read below
    )
    # it in the chunk: the construct is found only where the reader finds its scope (`served`: the wrapped Go handler
    # is the server's; `all_routes`/`some_routes`: NestJS's `forRoutes(…)` names every route or some)
    skipped_by: re.Pattern[str] | None = None  # a line that opts one class out of the handler (its ``names`` group
    # lists the handlers skipped, ``options`` narrows the skip to some actions): ``skip_before_action :x``
    skip_word: str = ""  # the skip line's words, an anchor (``|`` alternatives) to find it in the index
    skipped_after: str = ""  # where in ``says`` the classes that skip it are named ("for every controller")

    def holds_in(self, body: str) -> bool:
        """Whether the definition the matched line opens (``body``) is what ``says`` says it is, by its code lines
        (a comment's "responded with a status code" builds no response)."""
        code = "\n".join(line for line in body.split("\n") if not _COMMENT_LINE.match(line))
        return (self.requires is None or bool(self.requires.search(code))) and not (
            self.unless is not None and self.unless.search(code)
        )

    def weight_for(self, intents: Sequence[str]) -> float:
        """The construct's weight for a question of these intents (most specific first): full for the first intent
        it answers, ``SECONDARY_INTENT`` of it for a later one, 0 when it answers none. A construct on every
        request's path answers ``HOOK`` ("where would I add logging?")."""
        for position, intent in enumerate(intents):
            if intent in self.intents or (intent == HOOK and self.every_request):
                return self.weight * (1.0 if position == 0 else SECONDARY_INTENT)
        return 0.0

    def applies_to(self, path: str, language: str = "") -> bool:
        if self.languages and language and language not in self.languages:
            return False
        return not self.paths or any(fnmatch(path, glob) for glob in self.paths)

    def describe(self, match: re.Match[str]) -> str:
        """``says`` with the match's named groups filled in; a group that did not take part takes the value of one
        that did (alternatives name the same thing), else reads as "it"; a list cut at the line's end ends in "…"."""
        taken = [value.strip() for value in match.groupdict().values() if value]
        groups = {key: (value or (taken[0] if taken else "it")).strip() for key, value in match.groupdict().items()}
        # a list the line leaves open goes on below (`devise :database_authenticatable, :registerable,`): marked
        groups = {key: f"{value} …" if value.endswith(",") else value for key, value in groups.items()}
        try:
            said = self.says.format(**groups)
        except (KeyError, IndexError):
            return self.says
        return UNNAMED.sub("", said)  # "(`it`)" names nothing: "checks the credentials", not "… (`it`)"


@dataclass(frozen=True)
class Convention:
    name: str  # "Rails", "Flask", …
    languages: tuple[str, ...]
    detect_paths: tuple[str, ...]  # globs: a file of the index matching one is evidence
    detect_words: tuple[str, ...]  # identifiers the framework's users write (``before_action``, ``Blueprint``)
    constructs: tuple[Construct, ...]
    packages: tuple[str, ...] = ()  # globs: a dependency a manifest of its languages declares (``flask``)
    imports: tuple[str, ...] = ()  # modules its code imports (``flask``, ``@angular/core``, ``org.springframework``)
    role: str = "app"  # what the part it runs is, in an answer's opening ("backend", "client")
    yields_to: tuple[str, ...] = ()  # frameworks built on it that name a part better (React in a Next.js app)
    layer_signals: tuple[tuple[Layer, tuple[str, ...]], ...] = ()  # literal text → a file's layer (``chunk.layers``)
    named: tuple[tuple[str, str], ...] = ()  # (package glob, name): the library a family's app declares (Go's Echo)

    def label(self, packages: Iterable[str]) -> str:
        """The name an answer gives the framework: the one library of the family the manifests declare ("Go Echo"
        for an app declaring ``github.com/labstack/echo/v4``), else the family's name."""
        said = {name for glob, name in self.named for package in packages if fnmatch(package, glob)}
        return said.pop() if len(said) == 1 else self.name

    @property
    def common(self) -> bool:
        """The constructs of any application (no framework to recognise)."""
        return not (self.detect_paths or self.detect_words or self.packages or self.imports)


def _compiled(framework: str, raw: dict, field: str) -> re.Pattern[str] | None:
    if field not in raw:
        return None
    try:
        return re.compile(raw[field])
    except re.error as exc:  # a data file bug: say which construct
        raise ValueError(f"{framework}: bad {field} {raw.get(field)!r}: {exc}") from exc


def _construct(framework: str, raw: dict) -> Construct:
    pattern = _compiled(framework, raw, "pattern")
    if pattern is None:
        raise ValueError(f"{framework}: a construct without a pattern")
    kind = raw["kind"]
    if kind not in KINDS:
        raise ValueError(f"{framework}: unknown kind {kind!r} (one of {', '.join(KINDS)})")
    return Construct(
        framework,
        kind,
        tuple(raw["intents"]),
        pattern,
        raw["says"],
        raw.get("anchor", ""),
        tuple(raw.get("paths", ())),
        float(raw.get("weight", 1.0)),
        tuple(raw.get("languages", ())),
        bool(raw.get("every_request", False)),
        _compiled(framework, raw, "requires"),
        _compiled(framework, raw, "unless"),
        _compiled(framework, raw, "app_wide"),
        tuple(raw.get("packages", ())),
        raw.get("says_unbacked", ""),
        _compiled(framework, raw, "not_in"),
        raw.get("hook_word", ""),
        bool(raw.get("wraps", False)),
        raw.get("scope", ""),
        _compiled(framework, raw, "skipped_by"),
        raw.get("skip_word", ""),
        raw.get("skipped_after", ""),
    )


def _layer_signals(framework: str, raw: object) -> tuple[tuple[Layer, tuple[str, ...]], ...]:
    if not isinstance(raw, dict):
        raise ValueError(f"{framework}: [layers] must be a table of layer = [signals]")
    signals = []
    for layer, texts in raw.items():
        if layer not in {str(known) for known in Layer}:
            raise ValueError(f"{framework}: unknown layer {layer!r} in [layers] (one of {', '.join(Layer)})")
        if not isinstance(texts, list) or not all(isinstance(text, str) and text for text in texts):
            raise ValueError(f"{framework}: [layers] {layer} must be a list of non-empty strings")
        signals.append((Layer(layer), tuple(texts)))
    return tuple(signals)


def parse(text: str) -> Convention:
    """One framework's conventions from TOML text (see the module docstring for the fields)."""
    data = tomllib.loads(text)
    name = data["name"]
    detect = data.get("detect", {})
    constructs = tuple(_construct(name, raw) for raw in data.get("construct", []))
    return Convention(
        name,
        tuple(data.get("languages", ())),
        tuple(detect.get("paths", ())),
        tuple(detect.get("words", ())),
        constructs,
        tuple(detect.get("packages", ())),
        tuple(detect.get("imports", ())),
        data.get("role", "app"),
        tuple(data.get("yields_to", ())),
        _layer_signals(name, data.get("layers", {})),
        tuple((str(glob), str(said)) for glob, said in data.get("named", {}).items()),
    )


@lru_cache(maxsize=1)
def load_all() -> tuple[Convention, ...]:
    """Every framework's conventions shipped with codeqa."""
    folder = resources.files(__name__)
    names = sorted(entry.name for entry in folder.iterdir() if entry.name.endswith(".toml"))
    names.sort(key=lambda name: name != COMMON)
    return tuple(parse(folder.joinpath(name).read_text(encoding="utf-8")) for name in names)


def anchor_rows(anchor: str, rows_holding: Callable[[str], Iterable[int]]) -> list[int]:
    """Rows holding a construct's anchor, in ``rows_holding``'s order: every word of it (``err req res next``), or any
    of its ``|`` alternatives (``jwt|jwtVerify|verifyToken``)."""
    if "|" in anchor:
        parts = (anchor_rows(part.strip(), rows_holding) for part in anchor.split("|") if part.strip())
        return list(dict.fromkeys(row for part in parts for row in part))
    rows: list[int] | None = None
    for word in anchor.split():
        found = list(rows_holding(word))
        held = set(found)
        rows = found if rows is None else [row for row in rows if row in held]
        if not rows:
            return []
    return rows or []
