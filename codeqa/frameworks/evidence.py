"""Which frameworks an app is built on, and in which of its parts: only what its manifests declare and its code
imports says so (``frameworks.manifests``; an import statement, never a comment or a docstring that mentions one).

An app can have several parts: a Flask backend under ``backend/`` (its ``requirements.txt``) and a React client
under ``frontend/`` (its ``package.json``). Each piece of evidence is kept with its part: the folder of the manifest
that declares the framework, or for an import the nearest folder with a manifest of the same ecosystem (else the
importing files' common top folder). An answer names the framework of the part the code it cites is in
(``opening``), and a sentence that names a framework this evidence does not back for its cited code loses the name
(``drop_unbacked``): "Django runs it" becomes "the framework runs it", "Django's logging" becomes "logging".
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fnmatch import fnmatch
from functools import lru_cache
from pathlib import PurePosixPath

from codeqa.frameworks.conventions import Convention, load_all
from codeqa.frameworks.manifests import ECOSYSTEMS, dependencies, manifest_kind

TEMPLATE_FOLDER = re.compile(r"\{\{[^/]*\}\}/")  # a folder named by a template placeholder
MAX_MANIFESTS = 80  # manifests read per index, the shallowest first (a monorepo's hundred packages are enough)
_COMMENT = re.compile(r"^\s*(?:#|//|/\*|\*|--|<!--|%)")
_IMPORT_LINES: dict[str, str] = {  # ecosystem → an import statement of module {m} (and its submodules)
    "python": r"^\s*(?:from\s+{m}(?:\.[\w.]+)?\s+import\b|import\s+{m}(?:\.[\w.]+)?\s*(?:,|$|\sas\s))",
    "js": r"""(?:^\s*import\s+|\bfrom\s+|\brequire\s*\(\s*|\bimport\s*\(\s*)["']{m}(?:/[^"']*)?["']""",
    "ruby": r"""^\s*require\s*\(?\s*["']{m}(?:/[^"']*)?["']""",
    "php": r"^\s*use\s+\\?{m}\\",
    "jvm": r"^\s*import\s+(?:static\s+)?{m}\.",
    "elixir": r"^\s*(?:use|import|alias|require)\s+{m}\b",
    "go": r"""^\s*(?:import\s+)?(?:[\w.]+\s+)?"{m}(?:/[^"]*)?"\s*$""",
}
# [(word, languages)] → for each, (path, language, text) of indexed code holding the word: where imports may be
Code = tuple[str, str, str]
Lookup = Callable[[Sequence[tuple[str, tuple[str, ...]]]], dict[tuple[str, tuple[str, ...]], list[Code]]]


@dataclass(frozen=True)
class Found:
    """One piece of evidence: ``framework`` is used by the part under ``part`` ("" : the whole repository)."""

    framework: str
    part: str
    source: str  # the manifest that declares it, or a file that imports it
    how: str  # "manifest" or "import"


@dataclass(frozen=True)
class Declared:
    """A manifest that declares dependencies, and the folder (part) it describes."""

    path: str
    folder: str
    ecosystem: str
    names: frozenset[str]


def _conventions() -> dict[str, Convention]:
    return {c.name: c for c in load_all() if not c.common}


def ecosystems(convention: Convention) -> set[str]:
    return {ECOSYSTEMS[language] for language in convention.languages if language in ECOSYSTEMS}


def _contains(part: str, path: str) -> bool:
    return not part or path.startswith(part + "/")


COMPONENT_LANGUAGES = ("tsx", "jsx", "vue", "svelte")  # a file of these is a client's component
# code that runs on the server whatever it imports: under a server folder, or importing a database or Node's own modules
SERVER_PATH = re.compile(r"(?:^|/)(?:server|server-only|jobs?|workers?|backend|migrations)/")
SERVER_IMPORT = re.compile(
    r"""(?:^\s*import\s+|\bfrom\s+|\brequire\s*\(\s*)["'](?:@prisma/client|[\w@./-]*/prisma|prisma|server-only|"""
    r"""node:[\w/]+|fs|fs/promises|child_process|pg|mongoose|sequelize|typeorm|knex|drizzle-orm(?:/[\w-]+)?)["']""",
    re.MULTILINE,
)


@dataclass(frozen=True)
class Evidence:
    """The frameworks an index's manifests and imports show, each with its part."""

    found: tuple[Found, ...] = ()
    packages: frozenset[str] = frozenset()  # every dependency the manifests declare

    def declares(self, globs: Sequence[str]) -> bool:
        """Whether a manifest declares a dependency matching one of ``globs`` (``devise``, ``omniauth*``)."""
        return any(fnmatch(name, glob) for name in self.packages for glob in globs)

    def frameworks(self) -> tuple[str, ...]:
        """Every framework with evidence, most evident first (manifests before imports)."""
        score = Counter({f.framework: 0 for f in self.found})
        for item in self.found:
            score[item.framework] += 1000 if item.how == "manifest" else 1
        order = {name: n for n, name in enumerate(_conventions())}
        return tuple(sorted(score, key=lambda name: (-score[name], order.get(name, 99))))

    def backs(self, framework: str, paths: Sequence[str] = ()) -> bool:
        """Whether ``framework`` has evidence in the part of one of ``paths`` (anywhere, when no path is given)."""
        if not paths:
            return framework in self.frameworks()
        return any(f.framework == framework and _contains(f.part, path) for f in self.found for path in paths)

    def framework_of(self, path: str, language: str = "") -> Found | None:
        """The framework of the part ``path`` is in, and that part. Where parts overlap (a Laravel backend and a
        Vue client both at the root), the one of the file's own ecosystem; then the deepest part; then one a
        manifest declares (a stray import of another does not decide); then the one imported nearest the file (an
        Express ``server/`` and a React ``client/`` under one ``package.json``), then the most imported. A file of
        another ecosystem in a part with one framework is in that part (a Rails app's Stimulus controllers); with
        several and none of its own, it has none."""
        conventions = _conventions()
        held = [f for f in self.found if _contains(f.part, path) and f.framework in conventions]
        names = {f.framework for f in held}
        held = [f for f in held if not set(conventions[f.framework].yields_to) & names]
        ecosystem = ECOSYSTEMS.get(language)
        own = [f for f in held if ecosystem in ecosystems(conventions[f.framework])]
        held = own or (held if len({f.framework for f in held}) == 1 else [])
        if not held:
            return None
        declared = {f.framework for f in held if f.how == "manifest"}
        imports = Counter(f.framework for f in held if f.how == "import")
        near: Counter[str] = Counter()
        folders = PurePosixPath(path).parts[:-1]
        shared = {id(f): len(os.path.commonprefix([folders, PurePosixPath(f.source).parts[:-1]])) for f in held}
        for item in held:
            if item.how == "import":
                near[item.framework] = max(near[item.framework], shared[id(item)])
        # as near, the one imported by more files there: `server/entity/x.ts` is the Express backend's when `server/`
        # holds thirty Express imports and one of Next.js (its custom server), whatever `src/pages/` imports
        around = Counter(f.framework for f in held if f.how == "import" and shared[id(f)] == near[f.framework])
        order = self.frameworks()

        def rank(item: Found) -> tuple[int, bool, int, int, int, int]:
            name = item.framework
            depth = item.part.count("/") + bool(item.part)
            return -depth, name not in declared, -near[name], -around[name], -imports[name], order.index(name)

        return min(held, key=rank)

    def opening(self, path: str, language: str = "", head: str | None = None) -> str:
        """How an answer citing ``path`` first begins: "In this Flask app, " when the app has one framework, "In the
        Flask backend (`backend/`), " when it has several, "" when the part of ``path`` has none. A client framework
        (React) is said of a component file, or of one whose ``head`` (its first lines) imports it and neither sits in
        a server folder nor imports a database or Node's own modules: a Koa server's ``server/main.ts`` beside React
        components under one ``package.json`` is no React client."""
        found = self.framework_of(path, language)
        if found is None:
            return ""
        conventions = _conventions()
        convention = conventions[found.framework]
        component = language in COMPONENT_LANGUAGES or head is None
        if (
            convention.role == "client"
            and not component
            and (
                not any(imports_module(head or "", language, module) for module in convention.imports)
                or SERVER_PATH.search(path)
                or SERVER_IMPORT.search(head or "")
            )
        ):  # a job's handler importing `createElement` from react to render an e-mail is no client
            return ""
        names = set(self.frameworks())
        distinct = {name for name in names if not set(conventions[name].yields_to) & names}
        label = convention.label(self.packages)
        if len(distinct) <= 1:
            return f"In this {label} app, "
        where = f" (`{found.part}/`)" if found.part else ""
        return f"In the {label} {convention.role}{where}, "

    def drop_unbacked(self, text: str, paths: Sequence[str]) -> str:
        """``text`` without the framework names this evidence does not back for ``paths`` (the code it cites)."""
        for name in sorted(_conventions(), key=len, reverse=True):
            if name in text and not self.backs(name, paths):
                text = _drop_name(text, name)
        return text


def _drop_name(text: str, name: str) -> str:
    """``name`` taken out of ``text`` where it stands for the framework, outside code spans (a product named after
    it, "Flask-Login" or "Spring Security", stays): "Django's logging" → "logging", ": Django runs it" → ": the
    framework runs it", "the Rails log" → "the log", "(Next.js `middleware`)" → "(`middleware`)"."""
    word = rf"(?<![\w./-]){re.escape(name)}(?![\w-])(?! [A-Z])"
    pieces = re.split(r"(`[^`]*`)", text)
    for index in range(0, len(pieces), 2):  # the odd pieces are code spans
        piece = re.sub(word + r"'s\s+", "", pieces[index])
        piece = re.sub(rf"(^|[:(,;]\s*|\.\s+){word}\s+(?=[a-z])", r"\1the framework ", piece)
        piece = re.sub(r"\s*\(\s*" + word + r"\s*\)", "", piece)
        pieces[index] = re.sub(word + r"(?:\s+|(?=[),.;:]))", "", piece)
    dropped = "".join(pieces)
    return "The framework" + dropped[len("the framework") :] if dropped.startswith("the framework ") else dropped


def _code_lines(text: str) -> Iterable[str]:
    """The lines of ``text`` that are code: comment lines and the inside of triple-quoted strings left out."""
    quoted = False
    for line in text.split("\n"):
        fences = line.count('"""') + line.count("'''")
        if quoted:
            quoted = fences % 2 == 0
            continue
        opens_with_string = line.strip()[:3] in ('"""', "'''")
        quoted = fences % 2 == 1
        if not opens_with_string and not _COMMENT.match(line):
            yield line


@lru_cache(maxsize=256)
def _import_pattern(ecosystem: str, module: str) -> re.Pattern[str] | None:
    template = _IMPORT_LINES.get(ecosystem)
    return re.compile(template.replace("{m}", re.escape(module)), re.MULTILINE) if template else None


def imports_module(text: str, language: str, module: str) -> bool:
    """Whether a code line of ``text`` (in ``language``) imports ``module`` or one of its submodules."""
    pattern = _import_pattern(ECOSYSTEMS.get(language, ""), module)
    return pattern is not None and any(pattern.search(line) for line in _code_lines(text))


def lookup_word(module: str) -> str:
    """The identifier an index is searched by for ``module``'s import lines (its longest word: ``@nestjs/core`` →
    ``nestjs``, ``org.springframework`` → ``springframework``)."""
    return max(re.findall(r"[A-Za-z0-9]+", module), key=len, default=module).lower()


def _part(path: str, folders: set[str]) -> str | None:
    """The deepest of ``folders`` holding ``path`` ("" : the root), None when none does."""
    held = [folder for folder in folders if _contains(folder, path)]
    return max(held, key=lambda f: (f.count("/") + bool(f), f)) if held else None


def gather(paths: Sequence[str], read: Callable[[list[str]], dict[str, str]], lookup: Lookup) -> Evidence:
    """The evidence of an index: ``paths`` are its files, ``read`` gives the text of some of them (its manifests),
    ``lookup`` the code that holds a word (where an import of a framework may be)."""
    # a manifest under a template's placeholder folder (cookiecutter's `{{cookiecutter.site}}/`) is a scaffold's:
    # the projects it makes have that backend, this repository does not
    found_in = [p for p in set(paths) if manifest_kind(p) and not TEMPLATE_FOLDER.search(p)]
    manifests = sorted(found_in, key=lambda p: (p.count("/"), p))[:MAX_MANIFESTS]
    texts = read(manifests) if manifests else {}
    declared: list[Declared] = []
    for path in manifests:
        ecosystem, names = dependencies(path, texts.get(path, ""))
        if names:  # a file named setup.py that declares nothing is no manifest
            folder = str(PurePosixPath(path).parent)
            declared.append(Declared(path, "" if folder == "." else folder, ecosystem, frozenset(names)))
    conventions = _conventions()
    wanted = [(lookup_word(m), c.languages) for c in conventions.values() for m in c.imports]
    code = lookup(list(dict.fromkeys(wanted)))
    found: list[Found] = []
    for name, convention in conventions.items():
        own = ecosystems(convention)
        found += [
            Found(name, item.folder, item.path, "manifest")
            for item in declared
            if item.ecosystem in own and any(fnmatch(dep, glob) for dep in item.names for glob in convention.packages)
        ]
        found += _imported(name, convention, declared, code)
    return Evidence(tuple(found), frozenset(name for item in declared for name in item.names))


def _imported(
    name: str, convention: Convention, declared: Sequence[Declared], code: dict[tuple[str, tuple[str, ...]], list[Code]]
) -> list[Found]:
    """Evidence from the files whose code imports the framework, each placed in the part of the nearest manifest of
    its ecosystem (files no manifest holds: their common top folder, or the root)."""
    importing: dict[str, str | None] = {}  # path → its part (None: no manifest of its ecosystem holds it)
    for module in convention.imports:
        for path, language, text in code.get((lookup_word(module), convention.languages), []):
            if path not in importing and imports_module(text, language, module):
                folders = {item.folder for item in declared if item.ecosystem == ECOSYSTEMS.get(language)}
                importing[path] = _part(path, folders)
    top = {PurePosixPath(path).parts[0] if "/" in path else "" for path, part in importing.items() if part is None}
    fallback = top.pop() if len(top) == 1 else ""
    return [Found(name, fallback if part is None else part, path, "import") for path, part in importing.items()]
