"""Secret formats that detect-secrets (1.5) does not know, kept by hand: each pattern says why it is here.

Every pattern names the secret's own span ``v``; ``redact.py`` masks only that span.
"""

from __future__ import annotations

import re

# -----BEGIN … PRIVATE KEY----- and PGP blocks. The library's PrivateKeyDetector reports the BEGIN line only; the
# key is the body under it (to the END line, or to the end of a chunk cut in the middle of the block).
KEY_BLOCK = re.compile(
    r"-----BEGIN (?:[A-Z0-9]+ )*(?:PRIVATE|SECRET) KEY(?: BLOCK)?-----[^\n]*\n(?P<v>.*?)(?=-----END |\Z)", re.S
)

# (a word the text must hold, lower-cased, before the pattern is tried; the pattern)
LACKING: tuple[tuple[str, re.Pattern[str]], ...] = (
    # .pgpass: hostname:port:database:username:password (the port is digits or *)
    (":", re.compile(r"(?m)^[ \t]*[^\s:#][^\s:]*:(?:\d{1,5}|\*):[^\s:]+:[^\s:]+:(?P<v>\S+)[ \t]*$")),
    # .netrc: "machine host login name password value" on one line, or "password value" alone on its line
    ("password", re.compile(r"(?m)^[ \t]*(?:machine[ \t]+\S+|default)\b[^\n]*?[ \t]password[ \t]+(?P<v>\S+)")),
    ("password", re.compile(r"(?m)^[ \t]*password[ \t]+(?P<v>[^\s#]+)[ \t]*$")),
    # kubeconfig: a client's private key, base64 in YAML or JSON
    (
        "client-key-data",
        re.compile(r"""(?m)["']?client-key-data["']?[ \t]*:[ \t]*["']?(?P<v>[A-Za-z0-9+/]{16,}={0,2})"""),
    ),
    # .npmrc: _auth (base64 user:password) and an _authToken that is neither npm_… nor a UUID (the library's
    # NpmDetector knows those two); a ${VARIABLE} reference is not a secret
    ("_auth", re.compile(r"(?m)(?:^|:)_auth(?:Token)?[ \t]*=[ \t]*(?!\$\{)(?P<v>[^\s\"']{8,})")),
    # npm tokens anywhere (the library's NpmDetector finds them only in an .npmrc _authToken line)
    ("npm_", re.compile(r"\b(?P<v>npm_[A-Za-z0-9]{36})\b")),
    # GitHub tokens: the library's pattern reports only the "ghp" prefix (a capture group) and misses github_pat_
    ("gh", re.compile(r"\b(?P<v>gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b")),
    # OpenAI keys without the "T3BlbkFJ" marker the library requires, and Anthropic's sk-ant-…
    ("sk-", re.compile(r"\b(?P<v>sk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,})\b")),
    ("aiza", re.compile(r"\b(?P<v>AIza[0-9A-Za-z_-]{35})\b")),  # Google API keys: no detector in the library
    # Authorization headers: the library knows JWTs and user:password@ in URLs, not opaque bearer/basic tokens
    ("bearer", re.compile(r"(?i)\bbearer\s+(?P<v>[A-Za-z0-9._~+/-]{16,}=*)")),
    ("basic", re.compile(r"(?i)\bbasic\s+(?P<v>[A-Za-z0-9+/]{16,}={0,2})")),
)

# Names the library's keyword list lacks (it has password, secret, api_key, private_key, db_pass…, not token or
# access_key): NAME = "value", NAME: value, NAME=value, quoted or unquoted to the end of the line
_NAME = r"(?:token|access[_-]?key|api-key)"
NAMED: tuple[re.Pattern[str], ...] = (
    re.compile(rf"(?i){_NAME}['\"]?\s*(?::|=|:=|=>)\s*(?P<q>['\"])(?P<v>[^'\"\n]{{4,}})(?P=q)"),
    re.compile(rf"(?im)^\s*(?:export\s+)?[\w.-]*{_NAME}\s*[:=]\s*(?P<v>[^\s'\"#;,()\[\]]{{6,}})\s*$"),
)

# An unquoted value that reads as code or a reference, not a secret: self.token, Optional[str], true, ${VAR},
# {{ var }}, <value>
CODE_LIKE = re.compile(
    r"[A-Za-z_][A-Za-z_.\[\]|]*|true|false|null|none|\$\{.*\}|\$\w+|\{\{.*\}\}|<[^>]*>|%\(\w+\)s|\*+", re.IGNORECASE
)


def config_value(value: str) -> str:
    """An unquoted value as the keyword detector reports it (to the end of the line), cut to the value itself."""
    parts = value.split()
    return parts[0].rstrip(";,)]}`") if parts else ""
