"""The words a newcomer uses and the words code uses for the same thing, as data.

A question says "sign in", the code says ``login``/``authenticate``; "saved" is ``persist``/``insert``/``commit``;
"fails" is ``raise``/``throw``/``abort``/``catch``. Each group below is one concept in the vocabulary of web
applications (the day-one topics: authentication, passwords, sessions and tokens, permissions, errors,
persistence, configuration, jobs, email, logging, uploads, search, validation, routing). A question word that
belongs to a group brings the group's other words in as weaker evidence (``expansions``). Words are written as
people and code spell them; they are tokenized and stemmed like code when loaded.
"""

from __future__ import annotations

import re
from functools import lru_cache

from codeqa.tokens import code_tokens

CONCEPTS: tuple[str, ...] = (
    "login logon signin sign_in sign-in authenticate authentication authenticated auth credential credentials",
    "logout signout sign_out",
    "password passwords passwd pwd passphrase hash hashed hashing bcrypt argon2 pbkdf2 scrypt salt digest",
    "compare compared comparison check verify verified match matches equal",
    "session sessions cookie cookies remember",
    "token tokens jwt bearer signed signature",
    "expire expires expired expiry expiration ttl lifetime duration timedelta max_age maxage valid_until",
    "permission permissions authorize authorization authorized role roles access policy policies allow allowed "
    "deny forbidden grant can_edit",
    "register registration signup sign_up",
    "reset forgot forgotten recover recovery",
    "activate activation confirm confirmation verify_email",
    "error errors fail fails failed failure exception exceptions raise throw abort catch rescue except panic status",
    "store stored storing save saved saving persist persisted write written insert create created commit",
    "delete deleted remove removed destroy",
    "update updated edit modify",
    "database db sql query orm",
    "config configuration configured setting settings env environ environment option options",
    "log logs logged logger logging audit",
    "email emails mail mailer smtp send sent",
    "job jobs task tasks queue queued worker workers schedule scheduled scheduler cron periodic background "
    "celery retry retries",
    "often frequency frequently interval every period periodic ticker tick cron daily hourly minutes",
    "upload uploads uploaded attachment attachments file files storage",
    "search searching query index indexed lookup",
    "valid validate validated validation validator sanitize required",
    "request requests route routes router routing endpoint endpoints handler handlers controller api",
    "response respond reply status_code",
    "limit limits rate throttle attempts attempt lockout locked block blocked",
    "user users account accounts member members",
    "cache cached caching",
    "notify notification notifications",
    "encrypt encrypted decrypt cipher crypto",
    "template templates render rendered view",
    "import imports export exports backup",
)
EXPANSION_WEIGHT = 0.5
# "log in", "logged on", "log out": signing in or out, not the log (whose words would find loggers and audit trails)
SIGN_IN_PHRASE = re.compile(r"\blog(?:s|ged|ging)?[\s-]?(?:in|on|out)\b", re.IGNORECASE)
# the same in code: `UserLoggedIn`, `user_logged_in?`, `isLoggedIn`, `logged_out` name a signed-in state, not the log
SIGN_IN_CODE = re.compile(
    r"(?:(?<=[a-z0-9])L|(?<![A-Za-z0-9])[Ll])og(?:s|ged|ging)?(?:_?(?:in|on|out)(?![a-z])|(?:In|On|Out)(?![a-z]))"
)
LOG_WORD = re.compile(r"\blog(?:s|ged|ger|gers|ging)?\b", re.IGNORECASE)


def sign_in_read(words: frozenset[str], text: str) -> frozenset[str]:
    """``words`` with "log in" read as ``login``, and "log" kept only where the question also says it on its own."""
    if "log" not in words or not SIGN_IN_PHRASE.search(text):
        return words
    return (words if LOG_WORD.search(SIGN_IN_PHRASE.sub(" ", text)) else words - {"log"}) | {"login"}


def signed_in_code(line: str) -> str:
    """``line`` with code's "logged in" written as signing in (``UserLoggedIn`` → ``UserLogin``,
    ``user_logged_out?`` → ``user_logout?``): Solidus's promotion condition ``UserLoggedIn`` is not where to log."""
    return SIGN_IN_CODE.sub(lambda m: m.group(0)[0] + ("ogout" if m.group(0).lower().endswith("out") else "ogin"), line)


@lru_cache(maxsize=1)
def _groups() -> tuple[frozenset[str], ...]:
    return tuple(frozenset(code_tokens(group.replace("-", " "))) for group in CONCEPTS)


def expansions(terms: frozenset[str] | set[str]) -> frozenset[str]:
    """Stemmed code words of every concept a question term belongs to, minus the terms themselves."""
    found: set[str] = set()
    for group in _groups():
        if group & terms:
            found |= group
    return frozenset(found - set(terms))
