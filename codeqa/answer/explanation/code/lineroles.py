"""What a line of code *does* for a newcomer reading a snippet, whatever words it holds.

A question's words find the lines that talk about its topic; the lines a newcomer needs to see are often others in
the same span: the outcome (a raise, a return of a response or a status, a redirect, a render), the call that does
the work (``login(user)``, ``session.commit()``, ``jwt.decode(token)``, ``executor.submit(job)``), the decision in
front of it, the registration that wires code in (a decorator, ``app.use(...)``, a route or middleware entry), a
write to the session or to an object's state, a transaction or a lock, a flag switched on or off, and the definition
line with its base class. Each is a ``LineRole`` with a weight; a line takes the weight of the strongest role it
plays. Comments, docstrings, imports, log calls, loggers made and lone punctuation play none: they are what a snippet
can drop first. A call is looked for outside the strings' text (``f"Delivery failed ({status})"`` calls nothing).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from codeqa.answer.explanation.code.effects import ISSUES_TOKEN, QUEUES_JOB, SENDS_SIGNAL, SIGNS_IN


@dataclass(frozen=True)
class LineRole:
    name: str
    pattern: re.Pattern[str]
    weight: float
    hints: tuple[str, ...] = ()  # the pattern is only tried on a line holding one of these (lower case): speed
    code_only: bool = False  # the pattern is tried with the strings' text blanked: "failed (SMTP" calls nothing

    def plays(self, line: str, lower: str) -> bool:
        if self.hints and not any(hint in lower for hint in self.hints):
            return False
        return bool(self.pattern.search(blank_strings(line) if self.code_only else line))


def _role(name: str, pattern: str, weight: float, hints: tuple[str, ...] = (), code_only: bool = False) -> LineRole:
    return LineRole(name, re.compile(pattern), weight, hints, code_only)


STRING = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|`(?:[^`\\]|\\.)*`')


@lru_cache(maxsize=16384)
def blank_strings(line: str) -> str:
    """``line`` with the text inside its string literals replaced by ``x`` (quotes kept): a parenthesis in a message
    (``error = f"Delivery failed ({status})"``) is no call; code interpolated in braces (``${conf.get('url')}``,
    ``f"{len(items)}"``) stays."""
    return STRING.sub(_blank, line)


def _blank(match: re.Match[str]) -> str:
    text, depth, kept = match.group(0), 0, []
    for char in text[1:-1]:
        depth += (char == "{") - (char == "}" and depth > 0)
        kept.append(char if depth or char == "}" else "x")
    return text[0] + "".join(kept) + text[-1]


# work put off for later beyond a job queued: an entry put on a queue (``g.email_queue.append(...)``), a retry
LATER = r"\b\w*queue\w*\s*\.\s*(?:append|push|put|put_nowait|add|offer|enqueue)\s*\(|\.retry\(\s*\w"
EFFECTS = "|".join(f"(?:{p.pattern})" for p in (SIGNS_IN, ISSUES_TOKEN, QUEUES_JOB, SENDS_SIGNAL)) + f"|{LATER}"


# the sign-in page, form or link (``provider.login_form()``, ``Fortify::loginView(…)``, ``signInUrl()``) signs nobody in
_SIGN_IN_PAGE = r"_?(?:[Ff]orm|[Uu]rl|URL|[Pp]age|[Pp]ath|[Vv]iew|[Tt]emplate|[Ll]ink)s?\s*\("
# Checked in order; the first that matches decides.
ROLES: tuple[LineRole, ...] = (
    _role(  # a bare answer (``return False``, ``return nil``): an outcome, but not one a reader learns much from
        "plain outcome",
        r"^\s*return\s*(?:True|False|None|nil|null|true|false|undefined|-?[01]|\[\]|\{\}|\"\"|''|err|self|this)?\s*;?"
        r"\s*(?:(?:#|//).*)?$",
        0.2,
    ),
    _role(  # where errors are handled: an error middleware, an exception handler registered or declared
        "error handler",
        r"\(\s*(?:err|error|exc|exception|e)\s*(?::\s*\w+)?\s*,\s*(?:req|request|_req|_request)\b|@ExceptionHandler|"
        r"\brescue_from\b|\berrorhandler\b|register_error_handler|\bhandler(?:400|403|404|500)\b|"
        r"\bset_error_handler\b|\bHTTPErrorHandler\b|@Catch\(|\buseGlobalFilters\(|\bhandle_errors\b",
        0.9,
        ("err", "exc", "rescue", "handler", "catch", "filters", "req"),
    ),
    _role(  # an error answered: a raise, an error response, an error status (the outcome an error question wants)
        "error outcome",
        r"^\s*(?:raise|throw|abort|panic|reject|fail)\b|\bthrow\s+new\b|\b(?:Error|Err|Exception|NotFound|Forbidden|"
        r"Unauthori[sz]ed|BadRequest|Invalid)\w*\s*\(|\b(?:4\d\d|5\d\d)\b|:(?:not_found|forbidden|unauthorized|"
        r"unprocessable_entity|bad_request)\b|\bnext\(\s*(?:err|error|e)\b|flash.*\berror|\berrors?\.(?:add|push)\b",
        0.6,
        (
            "raise",
            "throw",
            "abort",
            "panic",
            "reject",
            "fail",
            "err",
            "exception",
            "not",
            "forbidden",
            "unauthori",
            "bad",
            "invalid",
            "unprocessable",
            "flash",
            "next(",
            "4",
            "5",
        ),
    ),
    _role(  # the outcome: what the caller or the client gets
        "outcome",
        r"^\s*(?:return|redirect(?:_to|_back)?|render|head|halt|respond_with|send_file|yield)\b(?!\s*[;)]?\s*$)"
        r"|\b(?:res|response|reply|ctx|c|w|conn)\s*\.\s*(?:status|json|send|redirect|render|sendStatus|JSON|String|"
        r"HTML|Redirect\w*|NoContent|PlainText|WriteHeader|put_status|halt)\s*\("
        r"|\bhttp\.(?:Error|Redirect)\(|\bsend_resp\(|\bput_flash\(|\bredirect\(|\bRedirect\(|\|>\s*(?:render|redirect)",
        1.0,
    ),
    _role(  # the call that does the thing asked about: signs in, issues a token, queues a job, stores, sends a signal
        "effect",
        EFFECTS,
        1.0,
    ),
    _role(  # what makes the work all-or-nothing or one-at-a-time: a transaction, a lock
        "guard",
        r"\btransaction\.atomic\b|\bDB::transaction\(|\.transaction\s*(?:do\b|\{|\()|@Transactional\b|"
        r"\b(?:with_|advisory_|acquire_)lock\b|\.(?:lock|lockForUpdate|with_lock|select_for_update)!?\s*\(|"
        r"\bsynchronized\s*\(|\.(?:Lock|RLock|TryLock)\(\)|\b(?:BEGIN|ROLLBACK)\b|\brollback\w*\s*\(",
        1.0,
        ("transaction", "lock", "synchronized", "begin", "rollback"),
    ),
    _role(  # something switched on or off: a destination disabled after failures, a job paused, a user locked
        "switch",
        # the flag written (a statement or an update), not read (``filter(is_active=True)``, ``where(active: true)``)
        r"^\s*(?:\$?[\w\]\[.'\"]+(?:->|\.))*(?:active|enabled|disabled|is_active|is_enabled|is_disabled|locked|banned|"
        r"blocked|suspended|paused|is_pause|isPause)\s*=\s*(?:false|true|False|True)\b\s*;?\s*$|"
        r"(?:\.|^\s*)update\w*!?[\s(].*\b(?:active|enabled|disabled|is_active|locked|banned|blocked|suspended|paused)\s*(?:=|:|=>)"
        r"\s*(?:false|true|False|True)\b|\b(?:set|update)(?:Active|Enabled|Disabled|IsPause|Paused|Locked|Banned|"
        r"Blocked)\s*\(",
        1.0,
        ("active", "enabled", "disabled", "locked", "banned", "blocked", "suspended", "pause"),
    ),
    _role(  # wiring: decorators, annotations, middleware and route registration, rules
        "registration",
        r"^\s*@[A-Za-z_][\w.]*\b(?![\w.]|\s*[-+|&]?=)|^\s*#\[|\.\s*(?:use|Use|register\w*|add_middleware|"
        r"add_url_rule|route|include_router|useGlobal\w+|middleware|requestMatchers|addFilter\w*|plug|connect|"
        r"on|subscribe|schedule|every)\s*\(|^\s*(?:plug|pipe_through|pipeline|before_action|after_action|"
        r"around_action|skip_before_action|before_request|after_request|rule|scope|resources?|get|post|put|patch|"
        r"delete|has_many|belongs_to|has_one|validates?|after_\w+|before_\w+)\s+[:\"'(/\w]"
        r"|^\s*(?:include|extend|prepend)\s+[A-Z]|\$\w+->(?:web|api|alias|append|prepend|group)\(|^\s*[\\\w.]+::class,?\s*$|^\s*(?:MIDDLEWARE|"
        r"INSTALLED_APPS|AUTHENTICATION_BACKENDS|urlpatterns|routes|ROUTES)\b",
        0.9,
    ),
    _role(  # an entry of a registration list: a dotted path in quotes (``MIDDLEWARE``, ``INSTALLED_APPS``, backends)
        "listed",
        r"^\s*[\"'][A-Za-z_]\w*(?:\.[A-Za-z_]\w*){2,}[\"'],?\s*(?:#.*)?$",
        0.8,
        (".",),
    ),
    _role(  # who is signed in: writes to the session, a cookie, a token
        "session",
        r"\b(?:session|sess|cookies?|Cookie|token|jwt|JWT|Session)\w*(?:\.\w+)*\s*(?:\[[^\]]+\])?\s*(?:\.\w+\s*)?"
        r"(?:=|\|\|=|:=)\s*\S|\b(?:(?:login|log_in(?!fo)|logout|sign)(?!\w*?" + _SIGN_IN_PAGE + r")|"
        r"authenticate|auth_login|set_cookie|setCookie|put_session|SetCookie|createToken|verify|compare|"
        r"check_password|checkpw|hashpw)\w*\s*\(|"
        r"\b(?:parse|validate|verify|check|get_validated|read)\w*(?:Token|_token|JWT|Jwt|_jwt)\s*\(|"  # a token read
        # ``jwt.decode(token)``, not bytes (``auth[1].decode()``) nor a header (``decodeHeader(...)``)
        r"\b(?:decode|encode)(?:_?(?:token|Token|jwt|JWT|session|Session|cookie|Cookie))?\s*\(\s*[^\s)]",
        0.9,
        (
            "sess",
            "cookie",
            "token",
            "jwt",
            "login",
            "log_in",
            "logout",
            "sign",
            "auth",
            "verify",
            "decode",
            "encode",
            "compare",
            "password",
            "checkpw",
            "hashpw",
        ),
    ),
    _role(  # what the request brings: a header, a parameter, a cookie, the session, the environment
        "input",
        r"\b(?:request|req|ctx|c|r|conn)\s*\.\s*(?:headers?|Header|env|params|query|body|cookies?|Cookie|session|"
        r"META|GET|POST|FILES|data|form|args|remote_ip|remote_addr|RemoteAddr|ip|get_header|getHeader|header|Get)\b"
        r"|(?<![\w.])(?:params|cookies|session|headers|ENV)\s*\[|\bos\.(?:getenv|environ)\b|\bprocess\.env\b|"
        r"\bgetenv\(|\bget_req_header\(|\bgetHeader\(",
        0.8,
        ("req", "ctx", "conn", "c.", "r.", "params", "cookie", "session", "header", "env"),
    ),
    _role(  # a class and what it builds on (``class WebhooksController < ApplicationController``)
        "class with base",
        r"^\s*(?:(?:export|public|private|protected|abstract|final|default|sealed|open|data)\s+)*class\s+[\w.:]+"
        r"(?:<[^>]*>)?\s*(?:\(\s*[\w.]|<\s*[\w:]|extends\b|implements\b|:\s*[\w.])(?!.*(?:;\s*end|\{\s*\}|:\s*pass)\s*$)",
        0.8,
        ("class",),
    ),
    _role(  # the definition line, and the class with its base
        "definition",
        r"^\s*(?:(?:export|public|private|protected|static|async|default|abstract|final|override|pub)\s+)*"
        r"(?:def|class|function|func|fn|interface|struct|module|defmodule|defp?)\b",
        0.5,
    ),
    _role(
        "decision",
        r"^\s*(?:if|elif|else\s+if|unless|when|case|switch|guard|catch|except|rescue)\b|\bif\s+.*\S$"
        r"|(?:&&|\|\|)\s*$|^\s*(?:&&|\|\|)",  # a condition over several lines: each of them decides
        0.7,
    ),
    _role(  # the call that does the work, its result kept (or a context it opens: ``with transaction.atomic():``)
        "work",
        r"^\s*(?:(?:const|let|var|val|auto|final|[A-Z][\w<>\[\], ]*)\s+)?[\w.$\[\]\"'@>,\s-]*?[\w\]'\"]+[?!]?\s*"
        r"(?:=|:=|\|\|=|\?\?=)\s*(?:await\s+|yield\s+|try\s+|new\s+)?[^=(]*?[\w$]+[!?]?(?:<[^>]*>)?\s*\(|"
        r"^\s*(?:async\s+)?with\s+[\w.]+\(",
        0.8,
        ("=", "with"),
        code_only=True,
    ),
    _role(  # a write to state: an attribute, an entry
        "state",
        r"^\s*(?:\$?\w+(?:->|\.))+\w+(?:\[[^\]]+\])?\s*(?:=|\|\|=)\s*\S|^\s*[\w.$>-]+\[[^\]]+\]\s*=\s*\S",
        0.6,
    ),
    _role(  # a call made for its effect
        "call",
        r"^\s*(?:await\s+|yield\s+|go\s+|defer\s+)?[\w.$:>\[\]\"'?-]*[\w$][!?]?\s*"
        r"(?:\((?!.*=>)|\s+[\w:\"'@](?!.*[^=!<>]=[^=]))",  # ``f(key=value)``: a keyword argument, no assignment
        0.6,
        code_only=True,
    ),
    _role("value", r"^\s*[\w.$\"'\[\]]+\s*(?:=|:=|:|=>)\s*\S", 0.3),
)
# A question's intents (``codeqa.frameworks.intent``) raise the roles that answer them.
INTENT_ROLES: dict[str, dict[str, float]] = {
    "errors": {"error handler": 1.5, "error outcome": 1.7, "decision": 1.2},
    "auth": {"session": 1.3, "input": 1.2, "outcome": 1.2, "effect": 1.3},
    "access": {"decision": 1.3, "error outcome": 1.3, "registration": 1.2},
    "hook": {"registration": 1.3, "effect": 1.2},
    "entry": {"registration": 1.3},
    "logging": {"registration": 1.2},
    "config": {"input": 1.3, "value": 2.0},
    "jobs": {"registration": 1.2, "work": 1.1, "effect": 1.3},
}
QUIET = re.compile(  # lines that play no role: comments, imports, declarations, lone punctuation
    r"^\s*(?:#(?!\[)|//|/\*|\*|--|<!--|\"\"\"|''')"
    r"|^\s*(?:import|from\s+\S+\s+import|require|use|using|#include|package)\b"
    r"|^\s*(?:var|let|val)\s+[\w, ]+(?:\s+[\w.*\[\]]+)?\s*;?\s*$"  # a declaration without a value
    r"|^\s*[{}()\[\];,]*\s*$|^\s*(?:end|else|try|begin|do|pass|\}\s*else\s*\{)\s*[:{]?\s*$"
)
LOG = re.compile(  # a log, metric or print call, or a logger made: quiet, unless the question is about logging
    r"^\s*(?:(?:\\|\$this->|\$)?[\w.]*\b(?:log(?:ger)?|Log|logging|console|slog|statsd|stdout|stderr|print|println|printf|puts|p|pp|"
    r"fmt\.Print\w*)\b(?!\s*[-+|&]?=)\s*(?:(?:\.|::)\s*\w+\s*)?(?:[.(\s]|::|->))"
    # ``logger = logging.getLogger(__name__)``, ``private static final Logger log = LoggerFactory.getLogger(...)``
    r"|^\s*(?:(?:private|protected|public|static|final|readonly|const|let|var|val)\s+)*(?:Logger\s+)?"
    r"(?:self\.|this\.|\$)?_*(?:log|logger|LOG|LOGGER|Logger|log_)\w*\s*(?::\s*[\w.]+\s*)?(?:=|:=)\s*(?:new\s+)?"
    r"[\w.]*(?:getLogger|Logger|logger|LoggerFactory)\b"
)
LOGGING_INTENTS = frozenset({"logging"})
LOG_ROLE = LineRole("log", LOG, 0.8)


def quiet(line: str, intents: tuple[str, ...] = ()) -> bool:
    """A comment, an import, a declaration, a log call (unless the question asks about logging): its words say
    less about the code than a statement's."""
    if not line.strip():
        return False
    return bool(QUIET.match(line)) or (bool(LOG.match(line)) and LOGGING_INTENTS.isdisjoint(intents))


def role_of(line: str, intents: tuple[str, ...] = ()) -> LineRole | None:
    """The strongest role ``line`` plays, None for a line a snippet can drop first."""
    if _logs(line):
        return LOG_ROLE if not LOGGING_INTENTS.isdisjoint(intents) else None
    return _code_role(line)


@lru_cache(maxsize=16384)
def _logs(line: str) -> bool:
    return bool(line.strip()) and not QUIET.match(line) and bool(LOG.match(line))


@lru_cache(maxsize=16384)  # an answer reads the same lines several times
def _code_role(line: str) -> LineRole | None:
    if not line.strip() or QUIET.match(line) or LOG.match(line):
        return None
    lower = line.lower()
    return next((role for role in ROLES if role.plays(line, lower)), None)


def role_weight(line: str, intents: tuple[str, ...] = ()) -> float:
    """The weight of the strongest role ``line`` plays, raised when the question's intents ask for that role."""
    role = role_of(line, intents)
    if role is None:
        return 0.0
    return role.weight * max((INTENT_ROLES.get(intent, {}).get(role.name, 1.0) for intent in intents), default=1.0)
