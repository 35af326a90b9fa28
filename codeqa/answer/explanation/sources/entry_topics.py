"""What an entry is the entry of: signing in (the login URL) or signing up (the registration URL), as data, and
which of them a question asks about as a whole (``entry_topic``). ``entry`` finds the code a topic's URL is routed to.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from codeqa.answer.explanation.code.keylines import Terms
from codeqa.frameworks.intent import SIGNUP, signing_up_asked

SIGN_IN_WORDS = ("login", "signin", "sign_in", "sign-in", "log-in", "log_in", "authenticate", "auth")
_WORD = "(?:" + "|".join(re.escape(w) for w in SIGN_IN_WORDS) + ")"
_URL = r"""['"`](?:[^'"`\s]*/)?(?:-/)?""" + _WORD + r"""/?\$?['"`]"""  # a URL whose last segment signs in
_NAME = r"""['"`](?:[\w\-]*[.:])?""" + _WORD + r"""['"`]"""  # a route name that signs in: 'login', 'auth.login'
SIGN_IN_URL = re.compile(r"(?i)" + _URL)
SIGN_IN_NAME = re.compile(r"""(?i)(?:name\s*[(=]\s*|as:\s*)""" + _NAME)  # ->name('auth.login'), name='login'
# a framework told in code how users sign in (Laravel Fortify): the code that tells it is the entry
SIGN_IN_REGISTRATION = re.compile(r"(?<![\w$])(?:loginView|authenticateUsing)\s*\(")
SESSION_RESOURCE = re.compile(r"^\s*resources?\s+:sessions?\b")  # Rails: the session resource is the sign-in
PLAIN_SIGN_IN = re.compile(r"(?i)log[-_]?in|sign[-_]?in")
# the stemmed words of a question about signing in as a whole, besides the words of signing in
AS_A_WHOLE = frozenset({"flow", "system", "through", "user", "work", "process", "happen", "overal", "whole", "app",
                        "applic", "end", "step", "path"})  # fmt: skip
SIGN_IN_TOPIC = re.compile(r"auth(?!ori[sz])|log(?:in|on)?$|sign(?:in|on)?$|session|credenti|password")

# the sign-up URL: /register, /signup, /sign_up, /join (a team's invitation), and Fortify's registerView
SIGN_UP_WORDS = ("register", "signup", "sign_up", "sign-up", "join")
_UP_WORD = "(?:" + "|".join(re.escape(w) for w in SIGN_UP_WORDS) + ")"
PLAIN_SIGN_UP = re.compile(r"(?i)regist|sign[-_]?up")
_PARAMS = r"(?:/(?::\w+|<[^<>'\"`]+>|\{[^{}'\"`]+\}))*"  # path parameters after it: join/:join_code, register/<token>


@dataclass(frozen=True)
class Topic:
    """What an entry is the entry of: signing in (the login URL) or signing up (the registration URL)."""

    name: str  # "sign-in", "sign-up": how the lead sentence names the URL
    url: re.Pattern[str]  # a URL whose last segment is the topic's word
    route_name: re.Pattern[str]  # a route named for it
    registration: re.Pattern[str]  # a framework told in code which view handles it (Laravel Fortify)
    resource: re.Pattern[str] | None  # Rails: the resource that is it
    words: tuple[str, ...]  # rows mentioning these are read for route lines
    plain: re.Pattern[str]  # a route line naming it plainly (the best tier)
    named_for: re.Pattern[str]  # a method named for it
    action: re.Pattern[str] | None = None  # a viewset method routed by its name (Django REST framework's actions)
    rails_to: bool = False  # a Rails route's ``to: "users#create"`` names the action (sign-in: its session resource)


SIGN_IN = Topic(
    "sign-in", SIGN_IN_URL, SIGN_IN_NAME, SIGN_IN_REGISTRATION, SESSION_RESOURCE,
    ("login", "signin", "authenticate", "session", "auth", "loginview", "authenticateusing"),
    PLAIN_SIGN_IN, re.compile(r"(?i)(?:^|_)(?:log_?in|sign_?in|authenticate|logon)"),
)  # fmt: skip
SIGN_UP = Topic(
    "sign-up",
    re.compile(r"""(?i)['"`](?:[^'"`\s]*/)?(?:-/)?""" + _UP_WORD + _PARAMS + r"""/?\$?['"`]"""),
    re.compile(r"""(?i)(?:name\s*[(=]\s*|as:\s*)(?:['"`](?:[\w\-]*[.:])?""" + _UP_WORD + r"""['"`]|:"""
               + _UP_WORD + r"\b)"),  # ->name('register'), name='signup', Rails' as: :join
    re.compile(r"(?<![\w$])(?:registerView|createUsersUsing)\s*\("),
    None,
    ("register", "signup", "sign_up", "join", "registerview", "createusersusing"),
    PLAIN_SIGN_UP, re.compile(r"(?i)(?:^|_)(?:regist|sign_?up|join)"),
    re.compile(r"^\s*(?:async\s+)?def\s+(?:register|signup|sign_up|join)\s*\("),
    rails_to=True,
)  # fmt: skip


def about_signing_in(terms: Terms, intents: Sequence[str]) -> bool:
    """Whether a question asks how signing in works as a whole ("how does user authentication flow through the
    system?"): signing in its leading topic, and each of its words a word of signing in or of a whole. A question
    that names a way (a proxy's header, a token on each API call, an outside account, an audio request) is
    answered by the code its words find, not by the login page."""
    if not intents or intents[0] != "auth" or not terms.words:
        return False
    return all(word in AS_A_WHOLE or SIGN_IN_TOPIC.match(word) for word in terms.words)


def about_signing_up(terms: Terms, intents: Sequence[str], question: str) -> bool:
    """Whether a question asks about signing up itself: signing up its only topic (``intent.SIGNUP``: signing up for
    a meeting is no sign-up, a setting that closes it is a setting) and not the time it sets ("after someone signs
    up, how do they prove the address is theirs?" asks about the confirmation, ``intent.signing_up_asked``)."""
    return tuple(intents) == (SIGNUP,) and bool(terms.words) and signing_up_asked(question)


def entry_topic(terms: Terms, intents: Sequence[str], question: str = "") -> Topic | None:
    """Whose entry opens the answer: the sign-in's for a question about signing in as a whole, the sign-up's for a
    question about signing up (its text tells), none for any other."""
    if about_signing_in(terms, intents):
        return SIGN_IN
    return SIGN_UP if about_signing_up(terms, intents, question) else None
