"""Understanding the question: validate it, and pull out the names and file names it mentions."""

from __future__ import annotations

import re
from functools import lru_cache

from codeqa.errors import QueryError

MAX_QUERY_CHARS = 20_000
SURROGATE = re.compile("[\ud800-\udfff]")
# Linear on any text (a 20,000-character question once took 14 s): a name starts where no letter precedes it (a
# later start in the same word cannot match where the word's start did not), runs are bounded and possessive, so no
# start scans the rest of a long word again. The matches are those of the plain patterns for names under 100 chars.
_NAME = r"[A-Za-z_]\w{0,100}+"
_START = r"(?<![A-Za-z_])"
CODE_LIKE = re.compile(
    rf"{_START}{_NAME}(?:(?:\.{_NAME})+|(?=\())"  # dotted: module.func, obj.attr; or a call: name(
    rf"|{_START}[A-Za-z]\w{{0,100}}_\w+|{_START}_\w+"  # snake_case / _private
    r"|(?<![a-z])[a-z]{1,100}+[A-Z]\w*|[A-Z][a-z0-9]{1,100}+[A-Z]\w*"  # camelCase / PascalCase
    r"|`[^`\n]{2,60}`"  # inline code
)
FILE_LIKE = re.compile(  # from the start of a path-like run only: a later start finds nothing the first did not
    r"(?<![\w./-])[\w./-]+\."
    r"(?:py|js|jsx|ts|tsx|rb|go|java|rs|c|h|cc|cpp|hpp|cs|php|kt|swift|scala|md|rst|yaml|yml|toml|json)\b"
)
TRACEBACK_FRAME = re.compile(r'File "([^"\n]+)", line \d+, in ([A-Za-z_][\w]*)')
MODULE_PATH = re.compile(r"\b[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*){2,}\b")  # package.module.sub → a file
QUALIFIED = re.compile(r"\b[A-Za-z_]\w*(?:(?:\.|::|\\+)[A-Za-z_]\w*)+")  # Mod.Sub, Mod::Sub, Ns\\Class


def validate_query(query: str) -> str:
    query = (query or "").strip()
    if not query:
        raise QueryError("The question is empty: type what you are looking for, e.g. 'where is the config loaded?'")
    check_text(query, "The question")
    return query[:MAX_QUERY_CHARS]


def check_text(text: str, what: str) -> None:
    """Raise ``QueryError`` for text that is not Unicode: bytes a terminal could not decode (a command line in
    another encoding) or a lone surrogate (``"\\ud800"`` in JSON). The message shows where, as escapes."""
    found = SURROGATE.search(text)
    if found is None:
        return
    char = found.group()
    if "\udc80" <= char <= "\udcff":  # how Python keeps an undecodable byte of the command line
        shown = f"the byte \\x{ord(char) - 0xDC00:02x}"
        hint = "it is not UTF-8; set your terminal to UTF-8 (e.g. LANG=C.UTF-8) and type it again"
    else:
        shown = f"\\u{ord(char):04x}"
        hint = "a lone surrogate is not a character; send the text as UTF-8"
    raise QueryError(f"{what} is not valid text: {shown} at character {found.start() + 1}; {hint}.")


def query_identifiers(query: str) -> tuple[set[str], set[str]]:
    """Names (lower-cased, each dotted part too) and file paths a question mentions.

    Traceback frames give both (``File ".../pkg/mod.py", line 3, in func``); a dotted module path
    (``pkg.sub.mod``) also names the file ``pkg/sub/mod.py``. Paths may be absolute or relative: they are matched
    against repository paths by suffix. Parsed once per question (the sets returned are the caller's own).
    """
    names, files = _identifiers(query)
    return set(names), set(files)


@lru_cache(maxsize=32)
def _identifiers(query: str) -> tuple[frozenset[str], frozenset[str]]:
    names: set[str] = set()
    for raw in CODE_LIKE.findall(query):
        raw = raw.strip("`").strip()
        for part in re.split(r"[.\s()]+", raw):
            if len(part) > 2:
                names.add(part.lower())
        names.add(raw.lower())
    files = {match.lower().lstrip("./") for match in FILE_LIKE.findall(query)}
    for path, function in TRACEBACK_FRAME.findall(query):
        files.add(path.replace("\\", "/").lower().lstrip("./"))
        if len(function) > 2 and not function.startswith("<"):
            names.add(function.lower())
    for module in MODULE_PATH.findall(query):
        files.add(module.replace(".", "/") + ".py")
    return frozenset(names), frozenset(files)


def qualified_names(query: str) -> tuple[tuple[str, ...], ...]:
    """Qualified names the question mentions, as their parts: ``Commands.Aregister`` (Haskell, Elixir, Java),
    ``Devise::Models::Confirmable`` (Ruby, Rust, C++), ``App\\Http\\Kernel`` (PHP), ``pkg.sub.mod``. Two lower-case
    parts (``obj.attr``, ``os.path``, ``example.com``) are too common to name a file and are left out."""
    found = []
    for match in QUALIFIED.findall(query):
        parts = tuple(part for part in re.split(r"\.|::|\\+", match) if part)
        if len(parts) >= 2 and not (len(parts) == 2 and all(part.islower() for part in parts)):
            found.append(parts)
    return tuple(dict.fromkeys(found))


def same_file(repo_path: str, mentioned: str) -> bool:
    """A mentioned path names a repository file when one is a suffix of the other (at a ``/`` boundary)."""
    lower = repo_path.lower()
    return lower == mentioned or lower.endswith("/" + mentioned) or mentioned.endswith("/" + lower)
