"""Property tests (hypothesis, bounded): the URL parser and the chunker, for every tree-sitter language.

- ``parse_source`` never raises anything but a ``SourceError``; what it accepts is safe to hand to git (https, or a
  local path / file:// only when local sources are allowed, http only for loopback when insecure is allowed; never
  an option, never credentials).
- ``chunk_file`` never raises on mutated real code (the per-language fixtures with lines deleted, duplicated,
  truncated or replaced by hostile snippets), and its chunks tile the file: valid ordered ranges, exact text, every
  non-blank line in exactly one chunk (``assert_invariants`` from ``test_chunk``).
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from codeqa.chunk import chunk_file
from codeqa.config import Settings
from codeqa.errors import SourceError
from codeqa.source import parse_source
from tests.helpers import growth
from tests.test_chunk import FIXTURES, REQUIRED, assert_invariants, source

URL_EXAMPLES = 200
CHUNK_EXAMPLES = 150
BOUNDED = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow], "database": None}

URL_PIECES = [
    "https://", "http://", "file://", "ssh://", "git://", "git@", "ext::", "fd::", "github.com", "gitlab.com",
    "127.0.0.1", "[::1]", "[::1", "localhost", ":", ":443", ":99999", ":x", "/", "//", "owner", "repo", ".git",
    "tree", "blob", "commit", "-", "--upload-pack=", "-o", "..", ".", "%2e%2e", "%00", "%0a", "%2D", "@", "user:",
    "x-access-token:tok@", "?", "#", "~", "\\", " ", "\n", "\t", "é", "\u202e", "a" * 40,
]  # fmt: skip
SNIPPETS = [
    "def f(x):", "class A:", "function g() {", "}", "{", "(", ")", "[", "]", "return x;", "    pass", "end",
    "fn main() {", "impl T for U {", "func (s *S) M() {", "public class C {", "<?php", "namespace N;", "#include <x>",
    "template <typename T>", "@decorator", "'''", '"""', '"', "'", "`", "/*", "*/", "//", "#", "--", "\\", "\t",
    "  ", "", "=>", "->", "::", "\x00", "\ufeff", "é✓", "x" * 300, "    " * 40 + "x",
]  # fmt: skip


@hypothesis_settings(max_examples=URL_EXAMPLES, **BOUNDED)
@given(
    parts=st.lists(st.one_of(st.sampled_from(URL_PIECES), st.text(max_size=6)), max_size=12),
    ref=st.one_of(
        st.none(), st.sampled_from(["main", "--orphan", "a..b", "v1.2", "feature/x", ""]), st.text(max_size=8)
    ),
    allow_local=st.booleans(),
    allow_insecure=st.booleans(),
)
def test_url_parser_only_raises_source_errors_and_accepts_only_safe_urls(
    parts: list[str], ref: str | None, allow_local: bool, allow_insecure: bool
) -> None:
    spec = "".join(parts)
    try:
        parsed = parse_source(spec, ref=ref, allow_local=allow_local, allow_insecure=allow_insecure)
    except SourceError:
        return
    if parsed.kind == "local":
        assert allow_local and parsed.local_path is not None and parsed.local_path.is_dir()
        return
    url = parsed.clone_url or ""
    scheme = url.split("://", 1)[0]
    assert scheme in ("https", "file", "git") or (allow_insecure and scheme == "http"), url
    if scheme == "file":
        assert allow_local
    if scheme in ("http", "git"):
        assert urlsplit(url).hostname in ("127.0.0.1", "localhost", "::1") or urlsplit(url).hostname.startswith("127.")
    assert not url.startswith("-") and not any(c.isspace() or ord(c) < 32 for c in url)
    assert "@" not in urlsplit(url).netloc and "tok@" not in url  # no credentials reach git
    assert parsed.ref is None or not parsed.ref.startswith("-")
    assert ".." not in parsed.subdir.split("/")
    assert all(c.isalnum() or c in "._-" for c in parsed.default_name) and parsed.default_name[:1] not in ".-"


def _mutate(lines: list[str], ops: list[tuple[int, int, int]]) -> str:
    for op, where, which in ops:
        if not lines:
            lines = [SNIPPETS[which % len(SNIPPETS)]]
            continue
        i = where % len(lines)
        if op == 0:
            del lines[i]
        elif op == 1:
            lines.insert(i, lines[which % len(lines)])
        elif op == 2:
            lines[i] = lines[i][: which % (len(lines[i]) + 1)]
        elif op == 3:
            lines.insert(i, SNIPPETS[which % len(SNIPPETS)])
        else:
            lines[i] = SNIPPETS[which % len(SNIPPETS)] + lines[i]
    return "\n".join(lines)


FIXTURE_LINES = {
    lang: (FIXTURES / f"sample.{ext}").read_text(encoding="utf-8").split("\n") for lang, ext in REQUIRED.items()
}


@hypothesis_settings(max_examples=CHUNK_EXAMPLES, **BOUNDED)
@given(
    language=st.sampled_from(sorted(REQUIRED)),
    ops=st.lists(st.tuples(st.integers(0, 4), st.integers(0, 10_000), st.integers(0, 10_000)), max_size=25),
    budget=st.sampled_from([(1, 0), (40, 10), (200, 40), (1500, 200)]),
)
def test_chunker_keeps_invariants_on_mutated_code_in_every_language(
    language: str, ops: list[tuple[int, int, int]], budget: tuple[int, int]
) -> None:
    text = _mutate(list(FIXTURE_LINES[language]), ops).replace("\r", "")
    file = source(f"src/fuzzed.{REQUIRED[language]}", text, language)
    chunks = chunk_file(file, Settings(chunk_max_chars=budget[0], chunk_min_chars=budget[1]))
    assert_invariants(file, chunks)


@hypothesis_settings(max_examples=CHUNK_EXAMPLES, **BOUNDED)
@given(
    language=st.sampled_from(sorted(REQUIRED)),
    parts=st.lists(st.one_of(st.sampled_from(SNIPPETS), st.text(max_size=20)), max_size=50),
)
def test_chunker_keeps_invariants_on_random_snippets_in_every_language(language: str, parts: list[str]) -> None:
    text = "\n".join(parts).replace("\r", "")
    file = source(f"src/random.{REQUIRED[language]}", text, language)
    assert_invariants(file, chunk_file(file, Settings(chunk_max_chars=60, chunk_min_chars=10)))


@pytest.mark.parametrize(("unit", "end"), [("a", "-"), ("a-", "!"), ("a.", "-")])
def test_hostile_host_names_do_not_hang_the_parser(unit: str, end: str) -> None:
    """Regression: a nested host pattern backtracked exponentially on long labels (found by the fuzzer). A refused
    host 8 times as long must cost about 8 times as much to refuse (and a 60-character one must be refused at all)."""

    def refuse(units: int) -> None:
        with pytest.raises(SourceError):
            parse_source(f"https://{unit * units}{end}/owner/repo")

    refuse(60)
    assert growth(refuse, 600) < 3 * 8
