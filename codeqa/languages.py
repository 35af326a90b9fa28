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
    ".j2": "html",
    ".css": "css",
    ".scss": "scss",
    ".sass": "scss",
    ".less": "css",
    ".md": "markdown",
    ".markdown": "markdown",
    ".mdx": "markdown",
    ".rst": "rst",
    ".txt": "text",
    ".adoc": "text",
    ".ipynb": "jupyter",
    ".json": "json",
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
    "Procfile": "text",
    "Jenkinsfile": "groovy",
    "Vagrantfile": "ruby",
    "README": "text",
    "LICENSE": "text",
    "requirements.txt": "text",
    ".gitignore": "text",
    ".env.example": "ini",
}

DOC_LANGUAGES = frozenset({"markdown", "rst", "text"})
CONFIG_LANGUAGES = frozenset({"json", "yaml", "toml", "ini", "xml", "hcl", "dockerfile", "make", "cmake"})


def detect_language(path: str) -> str | None:
    """The language of a repo-relative path, or None when we do not index that kind of file."""
    pure = PurePosixPath(path)
    if pure.name in FILENAMES:
        return FILENAMES[pure.name]
    if pure.name.startswith("Dockerfile"):
        return "dockerfile"
    return EXTENSIONS.get(pure.suffix) or EXTENSIONS.get(pure.suffix.lower())


MARKUP_LANGUAGES = frozenset({"html", "erb", "css", "scss", "xml"})  # templates and styles
