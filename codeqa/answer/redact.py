"""Mask likely secrets in code before it is sent to a language model that is not on this machine.

Only the secret *value* is replaced, in place, by ``[REDACTED]``: lines are never added or removed, so the
``path:start-end`` citations of a source stay exact. The patterns are deliberately specific (known token formats,
key blocks, credentials in URLs, and assignments whose *name* says secret) to keep ordinary code readable.
"""

from __future__ import annotations

import re

MASK = "[REDACTED]"

_NAME = (
    r"(?:password|passwd|pwd|secret|api[_-]?key|apikey|access[_-]?key|private[_-]?key|auth[_-]?token|token"
    r"|client[_-]?secret)"
)
_PATTERNS: tuple[re.Pattern[str], ...] = (
    # -----BEGIN ... PRIVATE KEY----- blocks: the body lines are masked, the BEGIN/END lines kept
    re.compile(r"(?<=-----BEGIN )(?:[A-Z0-9 ]*PRIVATE KEY)-----\n(?P<v>(?:.*\n)*?)(?=-----END )"),
    re.compile(r"\b(?P<v>(?:AKIA|ASIA|AGPA|AIDA|AROA)[A-Z0-9]{16})\b"),  # AWS access key ids
    re.compile(r"(?i)aws_?secret_?access_?key\W{0,5}(?P<v>[A-Za-z0-9/+=]{40})"),
    re.compile(r"\b(?P<v>gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b"),  # GitHub tokens
    re.compile(r"\b(?P<v>xox[abposr]-[A-Za-z0-9-]{10,})\b"),  # Slack
    re.compile(r"\b(?P<v>sk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,})\b"),  # OpenAI / Anthropic style keys
    re.compile(r"\b(?P<v>AIza[0-9A-Za-z_-]{35})\b"),  # Google API keys
    re.compile(r"(?i)\bbearer\s+(?P<v>[A-Za-z0-9._~+/-]{16,}=*)"),  # Authorization: Bearer …
    re.compile(r"(?i)\bbasic\s+(?P<v>[A-Za-z0-9+/]{16,}={0,2})"),  # Authorization: Basic …
    re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^/\s:@'\"]*:(?P<v>[^/\s@'\"]+)@"),  # scheme://user:password@host
    # NAME = "value" / NAME: value / NAME=value in code and config files (quoted, or unquoted to end of line)
    re.compile(rf"(?i)\b[\w.-]*{_NAME}[\w.-]*['\"]?\s*(?::|=|:=|=>)\s*(?P<q>['\"])(?P<v>[^'\"\n]{{4,}})(?P=q)"),
)
# unquoted values (``.env``, ini, yaml): only when the value does not read like code (``self.token``, ``f(x)``)
_UNQUOTED = re.compile(rf"(?im)^\s*(?:export\s+)?[\w.-]*{_NAME}[\w.-]*\s*[:=]\s*(?P<v>[^\s'\"#;,()\[\]]{{6,}})\s*$")
_CODE_LIKE = re.compile(r"[A-Za-z_][A-Za-z_.]*|true|false|null|none", re.IGNORECASE)


def redact_secrets(text: str) -> tuple[str, int]:
    """(``text`` with likely secret values replaced by ``[REDACTED]``, how many were replaced)."""
    count = 0
    for pattern in (*_PATTERNS, _UNQUOTED):
        pieces: list[str] = []
        last = 0
        for match in pattern.finditer(text):
            start, end = match.span("v")
            value = match.group("v")
            if start < last or MASK in value or not value.strip():
                continue
            if pattern is _UNQUOTED and _CODE_LIKE.fullmatch(value):
                continue
            masked = "\n".join(MASK if line.strip() else line for line in value.split("\n"))  # keep line breaks
            pieces += [text[last:start], masked]
            last = end
            count += 1
        if pieces:
            text = "".join(pieces) + text[last:]
    return text, count


def redact_turns(turns: list[tuple[str, str]]) -> tuple[list[tuple[str, str]], int]:
    """The conversation with likely secrets masked (an earlier answer may have quoted a config file)."""
    masked: list[tuple[str, str]] = []
    total = 0
    for role, text in turns:
        clean, count = redact_secrets(text)
        masked.append((role, clean))
        total += count
    return masked, total
