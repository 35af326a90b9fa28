"""Language detection as data: file extension / file name → language name.

Language names are our own stable identifiers; ``chunk`` maps them to tree-sitter grammars and
langchain splitters.
"""

from __future__ import annotations

from pathlib import PurePosixPath

EXTENSIONS: dict[str, str] = {
    ".py": "python",
    ".pyi": "python",
    ".pyw": "python",
    ".js": "javascript",
    ".jsx": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
    ".rb": "ruby",
    ".rake": "ruby",
    ".gemspec": "ruby",
    ".jbuilder": "ruby",  # Rails JSON views
    ".rabl": "ruby",
    ".builder": "ruby",
    ".ru": "ruby",  # Rack's config.ru
    ".thor": "ruby",
    ".haml": "haml",
    ".slim": "slim",
    ".coffee": "coffeescript",
    ".go": "go",
    ".java": "java",
    ".rs": "rust",
    ".c": "c",
    ".h": "c",
    ".cc": "cpp",
    ".cpp": "cpp",
    ".cxx": "cpp",
    ".hpp": "cpp",
    ".hh": "cpp",
    ".hxx": "cpp",
    ".cs": "csharp",
    ".php": "php",
    ".kt": "kotlin",
    ".kts": "kotlin",
    ".scala": "scala",
    ".sc": "scala",
    ".swift": "swift",
    ".lua": "lua",
    ".sh": "bash",
    ".bash": "bash",
    ".zsh": "bash",
    ".ex": "elixir",
    ".exs": "elixir",
    ".hs": "haskell",
    ".pl": "perl",
    ".pm": "perl",
    ".r": "r",
    ".R": "r",
    ".sql": "sql",
    ".vue": "vue",
    ".svelte": "svelte",
    ".html": "html",
    ".htm": "html",
    ".erb": "erb",
    ".jinja": "html",
    ".jinja2": "html",
    ".j2": "html",
    ".twig": "html",
    ".hbs": "html",
    ".handlebars": "html",
    ".mustache": "html",
    ".ejs": "html",
    ".njk": "html",
    ".liquid": "html",
    ".pug": "pug",
    ".css": "css",
    ".scss": "scss",
    ".sass": "scss",
    ".less": "css",
    ".md": "markdown",
    ".mdc": "markdown",  # Cursor rules: markdown with front matter
    ".markdown": "markdown",
    ".mdx": "markdown",
    ".rst": "rst",
    ".txt": "text",
    ".adoc": "text",
    ".ipynb": "jupyter",
    ".json": "json",
    ".webmanifest": "json",
    ".jsonc": "json",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".toml": "toml",
    ".ini": "ini",
    ".cfg": "ini",
    ".conf": "ini",
    ".properties": "ini",
    ".env": "ini",
    ".xml": "xml",
    ".gradle": "groovy",
    ".mk": "make",
    ".prisma": "prisma",
    ".groovy": "groovy",
    ".proto": "proto",
    ".graphql": "graphql",
    ".gql": "graphql",
    ".tf": "hcl",
    ".hcl": "hcl",
    ".dart": "dart",
    ".m": "objc",
    ".mm": "objc",
    ".zig": "zig",
    ".jl": "julia",
    ".clj": "clojure",
    ".elm": "elm",
    ".erl": "erlang",
    ".fs": "fsharp",
    ".ml": "ocaml",
    ".nim": "nim",
    ".sol": "solidity",
}

FILENAMES: dict[str, str] = {
    "Dockerfile": "dockerfile",
    "Makefile": "make",
    "makefile": "make",
    "GNUmakefile": "make",
    "CMakeLists.txt": "cmake",
    "Rakefile": "ruby",
    "Gemfile": "ruby",
    "Guardfile": "ruby",
    "Capfile": "ruby",
    "Brewfile": "ruby",
    "Podfile": "ruby",
    "Fastfile": "ruby",
    "Dangerfile": "ruby",
    "Berksfile": "ruby",
    "Pipfile": "toml",
    "go.mod": "gomod",
    "go.work": "gomod",
    "Justfile": "make",
    "justfile": "make",
    "Caddyfile": "text",
    ".babelrc": "json",
    ".eslintrc": "json",
    ".prettierrc": "json",
    ".editorconfig": "ini",
    ".envrc": "bash",
    ".flaskenv": "ini",
    "Procfile": "text",
    "Jenkinsfile": "groovy",
    "Vagrantfile": "ruby",
    "README": "text",
    "LICENSE": "text",
    "requirements.txt": "text",
    ".gitignore": "text",
    ".env.example": "ini",
}

# An extensionless script says what it is on its first line (``#!/usr/bin/env ruby``): interpreter → language.
INTERPRETERS: dict[str, str] = {
    "python": "python",
    "ruby": "ruby",
    "node": "javascript",
    "nodejs": "javascript",
    "deno": "typescript",
    "bun": "typescript",
    "ts-node": "typescript",
    "tsx": "typescript",
    "bash": "bash",
    "sh": "bash",
    "dash": "bash",
    "zsh": "bash",
    "ksh": "bash",
    "php": "php",
    "perl": "perl",
    "lua": "lua",
    "Rscript": "r",
    "elixir": "elixir",
    "groovy": "groovy",
    "kotlin": "kotlin",
}

DOC_LANGUAGES = frozenset({"markdown", "rst", "text"})
CONFIG_LANGUAGES = frozenset({"json", "yaml", "toml", "ini", "xml", "hcl", "dockerfile", "make", "cmake", "gomod"})


def detect_language(path: str) -> str | None:
    """The language of a repo-relative path, or None when we do not index that kind of file."""
    pure = PurePosixPath(path)
    if pure.name in FILENAMES:
        return FILENAMES[pure.name]
    if pure.name.startswith("Dockerfile"):
        return "dockerfile"
    if pure.name.startswith(".env."):  # .env.local.example, .env.test
        return "ini"
    if pure.name.startswith("Procfile."):
        return "text"
    return EXTENSIONS.get(pure.suffix) or EXTENSIONS.get(pure.suffix.lower())


MARKUP_LANGUAGES = frozenset({"html", "erb", "css", "scss", "xml"})  # templates and styles

# Languages whose code calls each other's names directly (one runtime, or a bridge every build uses). A name an
# Elixir module uses is not a TypeScript class of the same name; a C++ file does call a C header's function.
RUNTIMES: dict[str, str] = {
    **dict.fromkeys(("javascript", "typescript", "tsx", "vue", "svelte", "coffeescript"), "javascript"),
    **dict.fromkeys(("ruby", "erb", "haml", "slim"), "ruby"),
    **dict.fromkeys(("python", "jupyter"), "python"),
    **dict.fromkeys(("java", "kotlin", "scala", "groovy", "clojure"), "jvm"),
    **dict.fromkeys(("c", "cpp", "objc", "swift"), "native"),
    **dict.fromkeys(("elixir", "erlang"), "beam"),
    **dict.fromkeys(("csharp", "fsharp"), "dotnet"),
}
# Languages that name code without running in a runtime of their own: docs, configuration, generic templates,
# styles, schemas and queries. Their links go to any language, and any language's links go to them.
NEUTRAL_LANGUAGES = (
    DOC_LANGUAGES | CONFIG_LANGUAGES | frozenset({"html", "pug", "css", "scss", "sql", "proto", "graphql", "prisma"})
)


def runtime(language: str | None) -> str | None:
    """The runtime whose names ``language``'s code can call (None: a neutral language, or none known)."""
    if not language or language in NEUTRAL_LANGUAGES:
        return None
    return RUNTIMES.get(language, language)


def has_extension(name: str) -> bool:
    """``bin/setup`` and ``.envrc`` have none; ``app.py`` has one."""
    return "." in name.lstrip(".")


def detect_shebang(text: str) -> str | None:
    """The language an extensionless script names on its first line (``#!/usr/bin/env -S node --x`` → javascript)."""
    if not text.startswith("#!"):
        return None
    words = text[2 : text.find("\n") if "\n" in text else None].split()
    if words and PurePosixPath(words[0]).name == "env":
        words = [word for word in words[1:] if not word.startswith("-") and "=" not in word]
    if not words:
        return None
    program = PurePosixPath(words[0]).name
    return INTERPRETERS.get(program) or INTERPRETERS.get(program.rstrip("0123456789.").rstrip("-"))


def largest_first(counts: dict[str, int], limit: int | None = None) -> list[tuple[str, int]]:
    """Languages (or anything counted) largest first, ties by name: the one order they are shown in everywhere."""
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]
