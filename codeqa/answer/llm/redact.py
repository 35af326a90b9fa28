"""Mask likely secrets in code before it is sent to a language model that is not on this machine.

The detectors are Yelp's detect-secrets plugins (known token formats, and assignments whose *name* says secret),
plus a few formats that library does not know (``secret_formats.py``). Only the secret's own span is replaced,
in place, by a tag such as ``[REDACTED:3f9a1c]``; lines are never added or removed, so the ``path:start-end``
citations of a source stay exact. The tag is the same wherever the same secret appears (a keyed hash, with a key
made for this process and never sent), so the model can tell that two files share one key without learning
anything about it, and :func:`count_masked` counts the distinct secrets really masked in what is sent.
"""

from __future__ import annotations

import bisect
import functools
import hashlib
import hmac
import re
import secrets
from collections.abc import Iterator
from typing import Any

from codeqa.answer.llm.secret_formats import CODE_LIKE, KEY_BLOCK, LACKING, NAMED, config_value

MASK = "[REDACTED"  # every tag starts so: "[REDACTED:3f9a1c]"
_TAG = re.compile(r"\[REDACTED:[0-9a-f]{6}\]")
_KEY = secrets.token_bytes(16)  # this process's own: a tag says nothing about its secret to whoever reads it
# detect-secrets plugins left out: any long random-looking string, and public IP addresses, are mostly not
# secrets; private keys and GitHub tokens are found by secret_formats (the plugins report a header and a prefix);
# the keyword detector runs line by line (_named_values), the JWT one once per token (_jwts)
_LEFT_OUT = {"Base64HighEntropyString", "HexHighEntropyString", "IPPublicDetector", "PrivateKeyDetector",
             "GitHubTokenDetector", "KeywordDetector", "JwtTokenDetector"}  # fmt: skip
# a line the library's keyword detector could flag names one of these (a cheap test before its dozen regexes)
_KEYWORD_HINT = re.compile(
    r"(?i)(?:api|auth|service|account|db|database|priv|private|client)_?key|pass|pwd|secret|contrase"
)
# the slowest plugins' secrets have a shape a cheap search rules out first (a long run of one alphabet, a marker)
_NEEDS = {
    "IbmCloudIamDetector": re.compile(r"[A-Za-z0-9_-]{44}"),
    "IbmCosHmacDetector": re.compile(r"[a-f0-9]{48}"),
    "CloudantDetector": re.compile(r"[0-9a-f]{64}|[a-z]{24}"),
    "SoftlayerDetector": re.compile(r"[a-zA-Z0-9]{64}"),
    "MailchimpDetector": re.compile(r"-us[0-9]"),
    "ArtifactoryDetector": re.compile(r"AKC|AP[0-9A-F]"),
    "OpenAIDetector": re.compile(r"T3BlbkFJ"),
    "NpmDetector": re.compile(r"_authToken"),
}
_WINDOW = 1024  # characters the library's token detectors read at once (see _windows)
_TOKEN_RUN = re.compile(r"[A-Za-z0-9_=.+/-]+")
_WORD = re.compile(r"\w")
Span = tuple[int, int]


def tag_for(secret: str) -> str:
    """The mask of ``secret``: the same for the same secret everywhere in this process."""
    return f"[REDACTED:{hmac.new(_KEY, secret.encode(), hashlib.sha256).hexdigest()[:6]}]"


def count_masked(text: str) -> int:
    """How many distinct secrets are masked in ``text`` (what is sent: count the tags, not the attempts)."""
    return len(set(_TAG.findall(text)))


def redact_secrets(text: str) -> tuple[str, int]:
    """(``text`` with likely secret values replaced by their tags, how many distinct secrets were masked)."""
    spans = _secret_spans(text)
    if not spans:
        return text, 0
    pieces: list[str] = []
    last = 0
    for start, end in spans:
        tag = tag_for(text[start:end])
        masked = "\n".join(tag if line.strip() else line for line in text[start:end].split("\n"))  # keep lines
        pieces += [text[last:start], masked]
        last = end
    return "".join(pieces) + text[last:], len({text[start:end] for start, end in spans})


def redact_turns(turns: list[tuple[str, str]]) -> tuple[list[tuple[str, str]], int]:
    """The conversation with likely secrets masked (an earlier answer may have quoted a config file)."""
    masked: list[tuple[str, str]] = []
    total = 0
    for role, text in turns:
        clean, count = redact_secrets(text)
        masked.append((role, clean))
        total += count
    return masked, total


def _secret_spans(text: str) -> list[Span]:
    """Non-overlapping spans to mask, in order: known formats first, then assignments whose name says secret."""
    found: list[Span] = []  # sorted, none overlapping
    for spans in (_known_formats(text), _named_values(text)):
        for start, end in sorted(set(spans), key=lambda span: (span[0], -span[1])):  # the longest from a start
            value = text[start:end]
            if end > start and value.strip() and MASK not in value and not _overlaps(found, start, end):
                bisect.insort(found, (start, end))
    return found


def _overlaps(found: list[Span], start: int, end: int) -> bool:
    """Whether [start, end) overlaps one of ``found`` (sorted, disjoint: only its neighbours can)."""
    at = bisect.bisect_left(found, (start, end))
    return (at > 0 and found[at - 1][1] > start) or (at < len(found) and found[at][0] < end)


def _known_formats(text: str) -> Iterator[Span]:
    """Spans of the library's token detectors, key block bodies and the formats the library lacks."""
    for match in KEY_BLOCK.finditer(text):  # the library flags the BEGIN line; the key is the body below it
        yield match.span("v")
    for at, window in _windows(text):
        for name, patterns in _detectors():
            if name in _NEEDS and not _NEEDS[name].search(window):
                continue
            for pattern in patterns:  # as the plugin's own analyze_string: each group that matched, or the match
                for match in pattern.finditer(window):
                    for group in range(1, pattern.groups + 1) if pattern.groups else (0,):
                        if match.start(group) < match.end(group):
                            yield _trim(name, text, at + match.start(group), at + match.end(group))
    for start, end in _jwts(text):
        yield _trim("JwtTokenDetector", text, start, end)
    lowered = text.lower()
    for hint, pattern in LACKING:
        for match in pattern.finditer(text) if hint in lowered else ():
            yield match.span("v")


def _windows(text: str) -> Iterator[tuple[int, str]]:
    """``text`` in overlapping windows: some of the library's patterns take quadratic time on a long run of
    look-alikes (``sk-sk-sk…``), so a long text costs a bounded square per window, linear in all."""
    if len(text) <= 2 * _WINDOW:  # a chunk (1,500 characters by default): read at once
        yield 0, text
        return
    step = _WINDOW // 2  # every secret up to half a window long lies whole in one window
    for start in range(0, max(1, len(text) - step), step):
        yield start, text[start : start + _WINDOW]


def _jwts(text: str) -> Iterator[Span]:
    """JWTs by the library's pattern and check, tried once per run of token characters (linear; a JWT can be
    longer than a window)."""
    from detect_secrets.plugins.jwt import JwtTokenDetector

    pattern = JwtTokenDetector.denylist[0]
    for run in _TOKEN_RUN.finditer(text):
        start = text.find("eyJ", run.start(), run.end())
        match = pattern.match(text, start, run.end()) if start >= 0 else None
        if match and JwtTokenDetector.is_formally_valid(match.group()):
            yield match.span()


def _named_values(text: str) -> Iterator[Span]:
    """Values assigned to names that say secret: the library's keyword detector, line by line, and ``NAMED``."""
    keyword, config = _keyword_detector()
    line_end = -1
    for hint in _KEYWORD_HINT.finditer(text):
        if hint.start() < line_end:
            continue  # on a line already read
        offset = text.rfind("\n", 0, hint.start()) + 1
        line_end = text.find("\n", hint.end()) % (len(text) + 1)  # -1 (the last line) becomes len(text)
        line = text[offset:line_end]
        for at, part in _windows(line):  # a line is one window unless it is very long
            for value in set(keyword.analyze_string(part)):  # quoted values: any file type
                yield from _values_in(part, value, offset + at)
            for value in set(keyword.analyze_string(part, denylist_regex_to_group=config)):  # unquoted
                value = config_value(value)
                if value and not CODE_LIKE.fullmatch(value) and not _indirect(part):
                    yield from _values_in(part, value, offset + at)
    for pattern in NAMED:
        for match in pattern.finditer(text):
            if not CODE_LIKE.fullmatch(match.group("v")):
                yield match.span("v")


def _values_in(line: str, value: str, offset: int) -> Iterator[Span]:
    """Where ``value`` stands as a value in ``line`` (after a quote, ``=``, ``:`` or a space), not inside the name
    (``key = "key"`` masks the second one only)."""
    start = line.find(value)
    while start >= 0:
        end = start + len(value)
        if start > 0 and line[start - 1] in "\"'`=:( \t" and not (end < len(line) and _WORD.match(line, end)):
            yield offset + start, offset + end
        start = line.find(value, end)


def _trim(name: str, text: str, start: int, end: int) -> Span:
    """The secret itself within what a plugin reported (its values sometimes carry a label, a delimiter around
    them, or stop short)."""
    while start < end and text[start] in " \t=:\"'":
        start += 1
    while end > start and text[end - 1] in " \t\"'":
        end -= 1
    if name == "AzureStorageKeyDetector" and text.startswith("AccountKey=", start):
        return start + len("AccountKey="), end
    if name == "JwtTokenDetector":  # its pattern stops before the signature
        while end < len(text) and (text[end].isalnum() or text[end] in "-_=+/."):
            end += 1
        return start, end - 1 if text[end - 1] == "." else end
    return start, end


@functools.cache
def _detectors() -> list[tuple[str, tuple[re.Pattern[str], ...]]]:
    """The library's regex detectors and their patterns (imported on first use: detect-secrets takes ~0.1 s)."""
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
    from detect_secrets.plugins.base import RegexBasedDetector

    classes = get_mapping_from_secret_type_to_class().values()
    return sorted(
        (cls.__name__, tuple(cls.denylist))
        for cls in classes
        if issubclass(cls, RegexBasedDetector) and cls.__name__ not in _LEFT_OUT
    )


@functools.cache
def _keyword_detector() -> tuple[Any, dict[re.Pattern[str], int]]:
    from detect_secrets.plugins.keyword import CONFIG_DENYLIST_REGEX_TO_GROUP, KeywordDetector

    return KeywordDetector(), CONFIG_DENYLIST_REGEX_TO_GROUP


def _indirect(line: str) -> bool:
    from detect_secrets.filters.heuristic import is_indirect_reference

    return is_indirect_reference(line)
