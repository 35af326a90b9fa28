"""The dependencies a project declares: what its manifests name (``requirements.txt``, ``pyproject.toml``, ``setup.py``,
``setup.cfg``, ``Pipfile``, ``Gemfile`` and ``Gemfile.lock``, ``package.json``, ``composer.json``, ``pom.xml``,
``build.gradle(.kts)``, ``mix.exs``, ``go.mod``).

What an app *is* is decided here and by its imports, never by a word in a comment: a Flask app whose docstrings
compare it to Django declares ``flask``. Parsing is forgiving (a manifest read back from the index's chunks may not
be valid JSON or TOML): a regular expression reads what a parser could not. Names come back lower-cased, with ``_``
read as ``-`` for Python (``Flask_Login`` is ``flask-login``); Maven and Gradle give ``group:artifact`` and the
plugin ids they apply.
"""

from __future__ import annotations

import configparser
import json
import re
import tomllib
from collections.abc import Callable, Iterable

Parser = Callable[[str], set[str]]

_PEP508 = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")
_QUOTED = re.compile(r"""["']([^"'\n]+)["']""")


def _python_name(spec: str) -> str:
    found = _PEP508.match(spec)
    return re.sub(r"[_.]+", "-", found.group(1)).lower() if found else ""


def _names(specs: Iterable[str]) -> set[str]:
    return {name for name in map(_python_name, specs) if name}


def requirements(text: str) -> set[str]:
    """``requirements*.txt``: one requirement a line; options (``-r``, ``--hash``) skipped, ``#egg=`` read."""
    found: set[str] = set()
    for raw in text.split("\n"):
        line = raw.split(" #", 1)[0].strip()
        if "#egg=" in line:
            found.add(_python_name(line.split("#egg=", 1)[1]))
        elif line and not line.startswith(("#", "-")) and "://" not in line:
            found.add(_python_name(line))
    return found - {""}


def _toml(text: str) -> dict:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return {}


def pyproject(text: str) -> set[str]:
    """PEP 621 ``[project]`` dependencies and extras, ``[dependency-groups]``, Poetry's dependency tables."""
    data = _toml(text)
    project = data.get("project", {})
    specs = list(project.get("dependencies", []))
    for extra in project.get("optional-dependencies", {}).values():
        specs += extra
    for group in data.get("dependency-groups", {}).values():
        specs += [item for item in group if isinstance(item, str)]
    poetry = data.get("tool", {}).get("poetry", {})
    tables = [poetry.get("dependencies", {}), poetry.get("dev-dependencies", {})]
    tables += [group.get("dependencies", {}) for group in poetry.get("group", {}).values()]
    specs += [name for table in tables for name in table]
    if not data:  # not TOML as read: the requirement strings of its dependency arrays and tables, read by line
        specs = _pyproject_lines(text)
    return _names(specs) - {"python"}


_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]")
_KEY = re.compile(r"""^\s*["']?([A-Za-z0-9][A-Za-z0-9._-]*)["']?\s*=""")
_ARRAYS = {"project": {"dependencies"}, "project.optional-dependencies": None, "dependency-groups": None}
_POETRY_TABLE = re.compile(r"^tool\.poetry\.(?:(?:dev-)?dependencies|group\.[^.]+\.dependencies)$")


def _pyproject_lines(text: str) -> list[str]:
    """A ``pyproject.toml`` that does not parse, read by line: the strings of the dependency arrays (``[project]``
    ``dependencies``, optional dependencies, dependency groups) and the keys of Poetry's dependency tables — never
    any other quoted string (a description naming a framework is no dependency)."""
    specs: list[str] = []
    table, in_array = "", False
    for line in text.split("\n"):
        code = line.split("#", 1)[0]
        if in_array:
            specs += [m.group(1) for m in _QUOTED.finditer(code)]
            in_array = "]" not in code
            continue
        header = _HEADER.match(code)
        if header:
            table = header.group(1).strip().strip('"')
            continue
        key = _KEY.match(code)
        if key is None:
            continue
        value = code[key.end() :]
        if _POETRY_TABLE.match(table):
            specs.append(key.group(1))
        elif table in _ARRAYS and value.strip().startswith("[") and key.group(1) in (_ARRAYS[table] or {key.group(1)}):
            specs += [m.group(1) for m in _QUOTED.finditer(value)]
            in_array = "]" not in value
    return specs


def setup_py(text: str) -> set[str]:
    """``setup.py``: the strings of ``install_requires=[...]`` and ``extras_require``."""
    specs: list[str] = []
    for found in re.finditer(r"(?:install_requires|extras_require|tests_require)\s*=\s*([\[{])", text):
        closing = "]" if found.group(1) == "[" else "}"
        body = text[found.end() : text.find(closing, found.end()) if closing in text[found.end() :] else None]
        specs += [m.group(1) for m in _QUOTED.finditer(body) if not m.group(1).endswith(":")]
    return _names(specs)


def setup_cfg(text: str) -> set[str]:
    """``setup.cfg``: ``[options] install_requires`` and ``[options.extras_require]``, one requirement a line."""
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text)
    except configparser.Error:
        return set()
    values = [parser.get("options", "install_requires", fallback="")]
    if parser.has_section("options.extras_require"):
        values += [value for _, value in parser.items("options.extras_require")]
    return _names(line for value in values for line in value.split("\n") if line.strip())


def pipfile(text: str) -> set[str]:
    data = _toml(text)
    return _names([*data.get("packages", {}), *data.get("dev-packages", {})])


def gemfile(text: str) -> set[str]:
    return {m.group(1).lower() for m in re.finditer(r"""^\s*gem\s*\(?\s*["']([^"']+)["']""", text, re.MULTILINE)}


def gemfile_lock(text: str) -> set[str]:
    """``Gemfile.lock``: the gems resolved (``specs:``, four spaces in) and the ones asked for (``DEPENDENCIES``)."""
    specs = re.findall(r"^    ([A-Za-z0-9][\w.-]*) \(", text, re.MULTILINE)
    section = text.split("\nDEPENDENCIES\n", 1)
    asked = re.findall(r"^  ([A-Za-z0-9][\w.-]*)", section[1], re.MULTILINE) if len(section) > 1 else []
    return {name.lower() for name in [*specs, *asked]}


def _json_keys(text: str, tables: tuple[str, ...]) -> set[str]:
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if isinstance(data, dict):
        return {str(name).lower() for table in tables if isinstance(data.get(table), dict) for name in data[table]}
    found: set[str] = set()  # not JSON as read: the keys inside each named table's braces
    for table in tables:
        for block in re.finditer(rf'"{re.escape(table)}"\s*:\s*\{{([^}}]*)', text):
            found |= {name.lower() for name in re.findall(r'"([^"]+)"\s*:', block.group(1))}
    return found


def package_json(text: str) -> set[str]:
    return _json_keys(text, ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies"))


def composer_json(text: str) -> set[str]:
    return _json_keys(text, ("require", "require-dev"))


def pom_xml(text: str) -> set[str]:
    """``pom.xml``: ``group:artifact`` of each dependency, plugin and parent (comments left out)."""
    text = re.sub(r"<!--.*?-->", "", text, flags=re.DOTALL)
    found = set()
    for block in re.finditer(r"<(dependency|plugin|parent)>(.*?)</\1>", text, re.DOTALL):
        group = re.search(r"<groupId>\s*([^<\s]+)\s*</groupId>", block.group(2))
        artifact = re.search(r"<artifactId>\s*([^<\s]+)\s*</artifactId>", block.group(2))
        if artifact:
            found.add(f"{group.group(1) if group else ''}:{artifact.group(1)}".lower())
    return found


_GRADLE_DEPENDENCY = re.compile(
    r"""^\s*\w*(?:[Ii]mplementation|[Aa]pi|[Cc]ompile\w*|[Rr]untime\w*|[Oo]nly)\s*\(?\s*["']([\w.-]+):([\w.-]+)""",
    re.MULTILINE,
)
_GRADLE_PLUGIN = re.compile(r"""^\s*(?:id\s*\(?|apply\s+plugin:)\s*["']([\w.-]+)["']""", re.MULTILINE)


def gradle(text: str) -> set[str]:
    """``build.gradle(.kts)``: ``group:artifact`` of each dependency, and each plugin id applied."""
    found = {f"{group}:{artifact}".lower() for group, artifact in _GRADLE_DEPENDENCY.findall(text)}
    return found | {plugin.lower() for plugin in _GRADLE_PLUGIN.findall(text)}


def mix_exs(text: str) -> set[str]:
    return {name.lower() for name in re.findall(r"\{\s*:(\w+)\s*,", text)}


def go_mod(text: str) -> set[str]:
    """``go.mod``: the modules required, one-line and in ``require ( ... )`` blocks."""
    found = set(re.findall(r"^\s*require\s+([^\s(]+)\s+v", text, re.MULTILINE))
    for block in re.finditer(r"^\s*require\s*\((.*?)\)", text, re.MULTILINE | re.DOTALL):
        found |= set(re.findall(r"^\s*([^\s/]+\.[^\s]+)\s+v", block.group(1), re.MULTILINE))
    return {name.lower() for name in found}


# file name glob → (ecosystem, parser); the ecosystems are those of ``ECOSYSTEMS`` below
MANIFESTS: tuple[tuple[str, str, Parser], ...] = (
    ("requirements*.txt", "python", requirements),
    ("pyproject.toml", "python", pyproject),
    ("setup.py", "python", setup_py),
    ("setup.cfg", "python", setup_cfg),
    ("Pipfile", "python", pipfile),
    ("Gemfile", "ruby", gemfile),
    ("Gemfile.lock", "ruby", gemfile_lock),
    ("package.json", "js", package_json),
    ("composer.json", "php", composer_json),
    ("pom.xml", "jvm", pom_xml),
    ("build.gradle", "jvm", gradle),
    ("build.gradle.kts", "jvm", gradle),
    ("mix.exs", "elixir", mix_exs),
    ("go.mod", "go", go_mod),
)
ECOSYSTEMS: dict[str, str] = {  # a code language → the ecosystem whose manifests declare its packages
    "python": "python",
    "ruby": "ruby",
    "erb": "ruby",
    "javascript": "js",
    "typescript": "js",
    "tsx": "js",
    "jsx": "js",
    "vue": "js",
    "svelte": "js",
    "php": "php",
    "java": "jvm",
    "kotlin": "jvm",
    "groovy": "jvm",
    "scala": "jvm",
    "elixir": "elixir",
    "go": "go",
}


_BY_NAME: dict[str, tuple[str, Parser]] = {glob: (ecosystem, parser) for glob, ecosystem, parser in MANIFESTS}


def manifest_kind(path: str) -> tuple[str, Parser] | None:
    """(ecosystem, parser) of a manifest path, None for any other file (``requirements/base.txt`` is one too)."""
    folder, _, name = path.rpartition("/")
    if name in _BY_NAME:
        return _BY_NAME[name]
    if name.endswith(".txt") and (name.startswith("requirements") or folder.endswith("requirements")):
        return "python", requirements
    return None


def dependencies(path: str, text: str) -> tuple[str, set[str]]:
    """(ecosystem, the dependency names the manifest at ``path`` declares); ("", empty) for another file."""
    kind = manifest_kind(path)
    if kind is None:
        return "", set()
    ecosystem, parser = kind
    return ecosystem, parser(text)
