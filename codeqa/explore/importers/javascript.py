"""JavaScript and TypeScript: relative paths, ``index`` files, tsconfig/jsconfig path aliases, workspace packages.

A specifier resolves like the bundlers do: ``./x`` tries ``x``, ``x.ts``, ``x.tsx``, … and ``x/index.*`` (and
``./x.js`` also finds ``x.ts``, as TypeScript's ESM output requires); ``@/x`` follows ``compilerOptions.paths`` of
the nearest ``tsconfig.json``/``jsconfig.json`` (``extends`` of a relative file is followed), then ``baseUrl``;
a bare name is a workspace package (a ``package.json`` in the repository with that ``name``) or an external
package. Node built-ins are not reported.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from codeqa.explore.importers.project import Project, Resolution, join, parent, read_json

EXTENSIONS = (".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts", ".vue", ".svelte", ".d.ts")
_JS_OUT = (".js", ".jsx", ".mjs", ".cjs")
_SPECIFIER = re.compile(
    r"""(?:\bimport\s+(?:type\s+)?(?:[\w$*{}\s,]+?\s+from\s+)?|\bexport\s+(?:type\s+)?[\w$*{}\s,]+?\s+from\s+"""
    r"""|\brequire\(\s*|\bimport\(\s*)['"]([^'"\n]+)['"]"""
)
BUILTINS = frozenset(
    """
    assert async_hooks buffer child_process cluster console constants crypto dgram dns domain events fs http
    http2 https inspector module net os path perf_hooks process punycode querystring readline repl stream
    string_decoder timers tls tty url util v8 vm worker_threads zlib
    """.split()  # noqa: SIM905 - a word list reads better as text
)


@dataclass(frozen=True)
class Aliases:
    """One tsconfig/jsconfig: the folder it governs, its ``baseUrl`` and its ``paths`` patterns."""

    folder: str
    base: str | None  # baseUrl as a repository path
    paths_root: str | None  # what the ``paths`` targets are relative to
    paths: tuple[tuple[str, tuple[str, ...]], ...]


def _compiler_options(project: Project, path: str, depth: int = 0) -> dict:
    """``compilerOptions`` with ``extends`` (relative files) merged; folders made repository paths:
    ``_base`` = baseUrl, ``_paths_root`` = what ``paths`` are relative to (baseUrl, else the defining file)."""
    data = read_json(project.text(path))
    options = dict(data.get("compilerOptions") or {})
    if isinstance(options.get("baseUrl"), str):
        options["_base"] = join(parent(path), options["baseUrl"])
    if isinstance(options.get("paths"), dict):
        options["_paths_root"] = options.get("_base", parent(path))
    extends = data.get("extends")
    if isinstance(extends, str) and extends.startswith(".") and depth < 3:
        inherited = join(parent(path), extends if extends.endswith(".json") else extends + ".json")
        if inherited and inherited in project.texts:
            options = {**_compiler_options(project, inherited, depth + 1), **options}
    return options


def _prepare(project: Project) -> tuple[list[Aliases], dict[str, str]]:
    configs = []
    for path in project.named("tsconfig.json", "jsconfig.json", "tsconfig.base.json", "tsconfig.app.json"):
        options = _compiler_options(project, path)
        patterns = options.get("paths") if isinstance(options.get("paths"), dict) else {}
        paths = tuple((str(k), tuple(str(t) for t in v if isinstance(t, str))) for k, v in patterns.items())
        configs.append(Aliases(parent(path), options.get("_base"), options.get("_paths_root"), paths))
    configs.sort(key=lambda c: -c.folder.count("/") - (1 if c.folder else 0))  # the nearest config first
    packages = {}
    for path in project.named("package.json"):
        name = read_json(project.text(path)).get("name")
        if isinstance(name, str) and name:
            packages[name] = parent(path)
    return configs, packages


def _candidates(base: str) -> list[str]:
    options = [base, *(base + ext for ext in EXTENSIONS), *(f"{base}/index{ext}" for ext in EXTENSIONS)]
    if base.endswith(_JS_OUT):
        stem = base.rsplit(".", 1)[0]
        options += [stem + ext for ext in (".ts", ".tsx", ".mts", ".cts")]
    return options


def _find(files: frozenset[str], base: str | None) -> set[str]:
    if base is None:
        return set()
    return next(({option} for option in _candidates(base) if option in files), set())


def _aliased(files: frozenset[str], config: Aliases, specifier: str) -> set[str] | None:
    """Files for ``specifier`` under one config's ``paths``/``baseUrl``; None when the config says nothing."""
    root = config.paths_root if config.paths_root is not None else config.folder
    for pattern, targets in config.paths:
        prefix, star, suffix = pattern.partition("*")
        if (star and specifier.startswith(prefix) and specifier.endswith(suffix)) or specifier == pattern:
            middle = specifier[len(prefix) : len(specifier) - len(suffix)] if star else ""
            for target in targets:
                if found := _find(files, join(root, target.replace("*", middle, 1))):
                    return found
            return set()
    if config.base is not None and (found := _find(files, join(config.base, specifier))):
        return found
    return None


def package_name(specifier: str) -> str:
    parts = specifier.split("/")
    return "/".join(parts[:2]) if specifier.startswith("@") and len(parts) > 1 else parts[0]


def resolve(path: str, specifier: str, project: Project) -> Resolution:
    files = project.family_files("js")
    if specifier.startswith("."):
        return _find(files, join(parent(path), specifier)), None
    configs, packages = project.cached("js", _prepare)
    for config in configs:
        if not config.folder or path.startswith(config.folder + "/"):
            found = _aliased(files, config, specifier)
            if found is not None:
                return found, None
    name = package_name(specifier)
    if name in packages:
        rest = specifier[len(name) :].lstrip("/")
        folder = packages[name]
        found = _find(files, join(folder, rest)) or _find(files, join(folder, "src", rest))
        return found, None
    if specifier.startswith(("@/", "~/")):  # the common alias when no config is indexed: src/ or the root
        rest = specifier[2:]
        return _find(files, join("src", rest)) or _find(files, rest), None
    if specifier.startswith("node:") or name in BUILTINS or specifier.startswith(("http:", "https:", "/")):
        return set(), None
    return set(), name


def imports(path: str, text: str, project: Project) -> Iterator[Resolution]:
    for specifier in dict.fromkeys(_SPECIFIER.findall(text)):
        yield resolve(path, specifier, project)
