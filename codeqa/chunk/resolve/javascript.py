"""JavaScript and TypeScript: relative paths, ``index`` files, tsconfig/jsconfig path aliases, workspace packages.

A specifier resolves like the bundlers do: ``./x`` tries ``x``, ``x.ts``, ``x.tsx``, … and ``x/index.*`` (and
``./x.js`` also finds ``x.ts``, as TypeScript's ESM output requires); ``@/x`` follows ``compilerOptions.paths`` of
the nearest ``tsconfig.json``/``jsconfig.json`` (``extends`` of a relative file is followed), then ``baseUrl``;
a bare name is a workspace package (a ``package.json`` in the repository with that ``name``) or an external
package; ``@/`` and ``~/`` without a config are tried under ``src/`` and the root. Node built-ins are not reported.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from codeqa.chunk.resolve.project import RULES, Project, Resolution, join, parent, read_json, words
from codeqa.records import FileTags

_RULES = RULES["js"]
EXTENSIONS: tuple[str, ...] = tuple(_RULES["extensions"])
_COMPILED = tuple(_RULES["compiled"])
BUILTINS = words(_RULES["builtins"])


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
        if inherited and inherited in project.tags:
            options = {**_compiler_options(project, inherited, depth + 1), **options}
    return options


def _prepare(project: Project) -> tuple[list[Aliases], dict[str, str]]:
    configs = []
    for path in project.named(*_RULES["configs"]):
        options = _compiler_options(project, path)
        paths_option = options.get("paths")
        patterns = paths_option if isinstance(paths_option, dict) else {}
        paths = tuple((str(k), tuple(str(t) for t in v if isinstance(t, str))) for k, v in patterns.items())
        configs.append(Aliases(parent(path), options.get("_base"), options.get("_paths_root"), paths))
    configs.sort(key=lambda c: -c.folder.count("/") - (1 if c.folder else 0))  # the nearest config first
    packages = {}
    for path in project.named(_RULES["workspace_manifest"]):
        name = read_json(project.text(path)).get("name")
        if isinstance(name, str) and name:
            packages[name] = parent(path)
    return configs, packages


def _candidates(base: str) -> list[str]:
    index = _RULES["index"]
    options = [base, *(base + ext for ext in EXTENSIONS), *(f"{base}/{index}{ext}" for ext in EXTENSIONS)]
    if base.endswith(_COMPILED):
        stem = base.rsplit(".", 1)[0]
        options += [stem + ext for ext in _RULES["compiled_from"]]
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
        return next((hit for sub in _RULES["workspace_sources"] if (hit := _find(files, join(folder, sub, rest)))),
                    set()), None  # fmt: skip
    for alias, folders in _RULES["default_aliases"].items():
        if specifier.startswith(alias):  # the common alias when no indexed config defines it
            rest = specifier[len(alias) :]
            return next((hit for folder in folders if (hit := _find(files, join(folder, rest)))), set()), None
    if specifier.startswith(tuple(_RULES["not_packages_prefixes"])) or name in BUILTINS:
        return set(), None
    return set(), name


def imports(tags: FileTags, project: Project) -> Iterator[Resolution]:
    for specifier in dict.fromkeys(ref.target for ref in tags.imports):
        yield resolve(tags.path, specifier, project)
