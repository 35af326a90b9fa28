"""What a question is about, in the handful of topics a newcomer asks a web application about.

A question can have several intents ("where is a failed login logged?": auth, errors, logging). Signing in
(``auth``: who the user is) and permissions (``access``: what the user may do) are apart: "how are the dashboard's
permissions checked?" is not answered by the login view. They choose which
framework constructs (``conventions``) count as evidence of the mechanism: for "what happens when a request fails"
that is the error handlers and the error middleware, for "how does authentication flow" the filters, guards and
session set-up. Words are matched as the question spells them (lower case, word starts), so "authenticating",
"logged" and "misconfigured" count.

"Where would I add logging?" asks for a *place*: for a concern every request meets (logging, auth) that is the
hook every request passes through — the middleware, the base controller's filters, the router's pipeline, the
interceptor — more than the code that already logs somewhere. Such a question leads with the derived intent
``HOOK``, which the constructs on every request's path answer (``Construct.every_request``); its topics follow.
(Errors are not such a concern: where to handle one is the error handler, an intent of its own.)
"""

from __future__ import annotations

import re
from functools import lru_cache

# signing up itself: the words that name making an account (an invitation is a way to it, and its own words)
_PEOPLE = r"(?:person|people|users?|members?|someone|somebody|visitors?|strangers?|they|you|i)"
SIGN_UP = (
    r"sign(?:s|ed|ing)?[\s-]?ups?\b|registration|" + _PEOPLE + r" regist(?:ers?|ering)\b|"
    r"accounts? (?:is|are|gets?|was) registered|creat(?:e|es|ed|ing) (?:an? |their |new |an? new )?accounts?\b|"
    r"accounts? (?:is|are|gets?) created|new accounts?|" + _PEOPLE + r" (?:\w+ )?join\b"
)
INTENTS: dict[str, str] = {
    "auth": r"auth(?!ori[sz])|log(?:s|ged|ging)?[\s-]?in\b|sign(?:s|ed|ing)?[\s-]?(?:in|on)\b|sign-?in(?!g\b)|"
    r"login|logon|password|session|token|jwt|oauth|credential|current.user|who is (?:signed|logged)|identity|prove who",
    "signup": SIGN_UP + r"|joining\b(?! (?:tables?|data|rows|lists?|strings?|paths?)\b)|invit(?:es?|ed|ing|ations?)\b",
    "access": r"permi(?:ssion|tted)|authori[sz]|roles?\b|access (?:control|rights?|level)|privilege|polic(?:y|ies)|"
    r"(?:only|just) (?:admins?|administrators?|staff|owners?)\b|who (?:may|can|is allowed)|allowed to|forbidden|"
    r"read-only access|full access",
    "errors": r"error|fail|exception|crash|goes wrong|went wrong|broke|reject|denied|refus|not found|404|500|raise|"
    r"throw",
    "logging": r"log(?!\s?(?:\w+\s)?(?:in|on|out|off)\b)(?:s|ged|ger|ging)?\b|"
    r"track(?:s|ed|ing)? (?:user|what|behaviou?r|activit)|audit|telemetry|metric|behaviou?r|user activit",
    "config": r"config|settings?\b|environment variable|env var|\.env\b|feature flag",
    "entry": r"entry.?point|boot|bootstrap|request (?:flow|lifecycle|pipeline)|middleware|"
    r"where does .* (?:begin|start)|main (?:file|function|module)|wired",
    "jobs": r"background|queue|schedul|cron|worker|periodic|every (?:day|hour|minute)",
}
_COMPILED = {name: re.compile(rf"\b(?:{pattern})", re.IGNORECASE) for name, pattern in INTENTS.items()}
_SIGN_UP = re.compile(rf"\b(?:{SIGN_UP})", re.IGNORECASE)
PRIMARY = ("errors", "logging", "signup", "auth", "access", "config", "jobs", "entry")  # the more specific topic leads
HOOK = "hook"
SIGNUP, AUTH = "signup", "auth"
# signing up *for* something or *to* do something enrols in it (a meeting, a project's e-mails): no account is made
ENROLMENT = re.compile(
    r"\bsign(?:s|ed|ing)?[\s-]?up (?:for|to)\b|\bregist(?:er|ers|ered|ering) (?:for|to)\b", re.IGNORECASE
)
GIVEN = re.compile(r"\b(?:when|whenever|after|once|before|who|that|if)\b", re.IGNORECASE)  # a clause that sets a time
CROSS_CUTTING = ("logging", "auth", "access")
PLACEMENT = re.compile(
    r"\bwhere (?:would|should|could|can|do|might|to|is the (?:best |right )?place to) (?:i |we |you |one )?"
    r"(?:best )?(?:add|put|hook|plug|insert|wire|attach|register|implement|introduce)\b",
    re.IGNORECASE,
)


def signing_up_asked(question: str) -> bool:
    """Whether the question asks about signing up itself ("how does a new person sign up?", "how is sign-up switched
    off?", "how do new people join?"; an invitation alone is not), not about what follows it ("after someone signs
    up, how do they prove …", "when a new person registers, how does their account get …", "people who sign up but
    never confirm"): the clause naming it does not set a time or a person by it."""
    found = _SIGN_UP.search(question)
    if found is None or ENROLMENT.search(question):
        return False
    clause = re.split(r"[,.;:?!]", question[: found.start()])[-1]
    return not GIVEN.search(clause)


@lru_cache(maxsize=512)
def intents(question: str) -> tuple[str, ...]:
    """The question's intents, most specific first (``PRIMARY`` order), led by ``HOOK`` when it asks where to add
    a concern every request meets; empty when none applies."""
    found = tuple(name for name in PRIMARY if _COMPILED[name].search(question))
    if SIGNUP in found and ENROLMENT.search(question):  # signing up for a meeting, to help a project: no account
        found = tuple(name for name in found if name != SIGNUP)
    if SIGNUP in found and AUTH in found:  # the one the question names first leads: signing in after signing up
        first = {name: match.start() for name in (SIGNUP, AUTH) if (match := _COMPILED[name].search(question))}
        lead, other = sorted((SIGNUP, AUTH), key=lambda name: first[name])
        found = tuple(lead if name == SIGNUP else other if name == AUTH else name for name in found)
    if found and found[0] in CROSS_CUTTING and PLACEMENT.search(question):
        return (HOOK, *found)
    return found
