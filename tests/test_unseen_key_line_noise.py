"""Lines that only look like work took the places of a cited span's key lines (issue #35, class 6: the key line cut).

Found on real-size apps (``bench/data/realsize_dev.jsonl``), measured with ``bench/fact_loss.py``:

- netbox, "How does user authentication flow through the system?": the folded source
  ``TokenAuthentication.authenticate`` showed ``logger = logging.getLogger('netbox.auth.login')`` (line 99) as one of
  its two lines; making a logger does nothing for the reader (it was read as "the call that does the work").
  Same class: ``run_script`` showed ``logger = logging.getLogger(f"netbox.scripts.…")`` among its lines.
- netbox, the same source: ``auth[0].lower() not in (V1_KEYWORD.lower().encode(), …)`` and
  ``auth_value = auth[1].decode()`` were read as token decoding (a string turned into bytes is no token).
- netbox, ``script.log_info(message=…)`` was read as a sign-in (``log_in…(``).
- healthchecks, "What happens when an email … comes back as undeliverable": the folded ``bounces`` view showed
  ``error = f"Delivery failed ({diagnostic})"[:200]`` and its twin: the parenthesis inside the message was read
  as a call, so a message text counted as "the call that does the work".
- monica, "How is sign-up switched off, and what does a visitor see then?": the folded middleware's only key line,
  ``abort_if(! $this->app[SignupHelper::class]->isEnabled(), 403, trans('Registration is currently disabled'));``,
  was cut at 90 characters, before the 403 and the message the visitor sees.
"""

from __future__ import annotations

from codeqa.answer.explanation.choose import source_lines
from codeqa.answer.explanation.explain import Step
from codeqa.answer.explanation.extractive import folded_line
from codeqa.answer.explanation.keylines import KeyLine, question_terms
from codeqa.answer.explanation.lineroles import blank_strings, quiet, role_of
from codeqa.records import Chunk, Hit
from codeqa.retrieve.question import Question


def _shown(question: str, code: str, start: int, limit: int, *, path: str = "app/x.py") -> list[str]:
    chunk = Chunk(path, "python", start, start + code.count("\n"), code, "", "function", "core")
    terms = question_terms(Question.parse(question))
    return [line.text.strip() for line in source_lines(terms, chunk, [], limit)]


# netbox/netbox/api/authentication.py:91-122 (TokenAuthentication.authenticate, its end)
NETBOX_TOKEN_END = """        if token.is_expired:
            raise exceptions.AuthenticationFailed('Token expired')

        # Update last used, but only once per minute at most. This reduces write load on the database
        if not token.last_used or (timezone.now() - token.last_used).total_seconds() > 60:
            # If maintenance mode is enabled, assume the database is read-only, and disable updating the token's
            # last_used time upon authentication.
            if get_config().MAINTENANCE_MODE:
                logger = logging.getLogger('netbox.auth.login')
                logger.debug("Maintenance mode enabled: Disabling update of token's last used timestamp")
            else:
                Token.objects.filter(pk=token.pk).update(last_used=timezone.now())

        user = token.user

        # When LDAP authentication is active try to load user data from LDAP directory
        if 'netbox.authentication.LDAPBackend' in settings.REMOTE_AUTH_BACKEND:
            from netbox.authentication import LDAPBackend
            ldap_backend = LDAPBackend()

            # Load from LDAP if FIND_GROUP_PERMS is active
            # Always query LDAP when user is not active, otherwise it is never activated again
            if ldap_backend.settings.FIND_GROUP_PERMS or not token.user.is_active:
                ldap_user = ldap_backend.populate_user(token.user.username)
                # If the user is found in the LDAP directory use it, if not fallback to the local user
                if ldap_user:
                    user = ldap_user

        if not user.is_active:
            raise exceptions.AuthenticationFailed("User inactive")

        return user, token"""


def test_a_logger_made_is_no_key_line_of_an_authentication_flow() -> None:
    shown = _shown("How does user authentication flow through the system?", NETBOX_TOKEN_END, 91, 2)
    assert not any("getLogger" in line for line in shown)
    assert 'raise exceptions.AuthenticationFailed("User inactive")' in shown


def test_loggers_made_are_quiet_unless_the_question_is_about_logging() -> None:
    for line in (
        "logger = logging.getLogger('netbox.auth.login')",
        '        logger = logging.getLogger(f"netbox.scripts.{script.full_name}")',
        "    private static final Logger log = LoggerFactory.getLogger(AuthController.class);",
        "  private readonly logger = new Logger(AuthService.name);",
    ):
        assert role_of(line) is None and quiet(line), line
        assert role_of(line, ("logging",)) is not None, line  # "where would I add logging": the logger is the answer
    assert role_of("catalog = get_catalog(request)") is not None  # a name holding "log" is no logger


def test_bytes_encoded_or_decoded_are_no_token_and_a_log_call_is_no_sign_in() -> None:
    assert role_of("auth_value = auth[1].decode()").name == "work"
    assert role_of("if auth[0].lower() not in (V1_KEYWORD.lower().encode(), V2_KEYWORD.lower().encode()):").name == (
        "decision"
    )
    assert role_of("payload = jwt.decode(token, key, algorithms=['HS256'])").name == "session"
    assert role_of("const city = decodeHeader(headers.get(provider.cityHeader));").name == "work"
    assert role_of('script.log_info(message=_("Database changes have been reverted automatically."))').name == "call"
    assert role_of("log_in(request, user)").name == "session"


# healthchecks hc/api/views.py:881-932 (the bounces view)
BOUNCES = """@csrf_exempt
def bounces(request: HttpRequest) -> HttpResponse:
    msg = message_from_bytes(request.body, policy=email.policy.SMTP)
    to_local = msg.get("To", "").split("@")[0]

    try:
        unsigned = unsign_bounce_id(to_local, max_age=3600 * 48)
    except BadSignature:
        # If the signature is invalid or expired return HTTP 200 so the other party
        # doesn't retry over and over again-
        return HttpResponse("OK (bad signature)")

    status, diagnostic = "", ""
    for part in msg.walk():
        if "Status" in part and "Action" in part:
            status = part["Status"]
            diagnostic = part.get("Diagnostic-Code", "")
            if diagnostic.lower().startswith("smtp; "):
                diagnostic = diagnostic[6:]
            break

    permanent = status.startswith("5.")
    transient = status.startswith("4.")
    # Special case 5.4.4 (unable to route, probably due to DNS issues) as transient
    if status == "5.4.4":
        permanent = False
        transient = True

    if not permanent and not transient:
        return HttpResponse("OK (ignored)")

    if unsigned.startswith("n."):
        notification_code = unsigned[2:]
        try:
            cutoff = now() - td(hours=48)
            n = Notification.objects.get(code=notification_code, created__gt=cutoff)
        except Notification.DoesNotExist:
            return HttpResponse("OK (notification not found)")

        if diagnostic:
            error = f"Delivery failed ({diagnostic})"[:200]
        else:
            error = f"Delivery failed (SMTP status code: {status})"[:200]

        n.error = error
        n.save(update_fields=["error"])

        channel_q = Channel.objects.filter(id=n.channel_id)
        channel_q.update(last_error=error)

        if permanent:
            channel_q.update(disabled=True)"""


def test_a_message_with_a_parenthesis_is_no_call() -> None:
    assert role_of('            error = f"Delivery failed ({diagnostic})"[:200]').name == "value"
    assert blank_strings('x = f"failed ({a})" + g("b (c")') == 'x = f"xxxxxxxxxxxx" + g("xxxx")'
    shown = _shown(
        "What happens when an email the service sent comes back as undeliverable, and where does it switch off the "
        "failing destination?",
        BOUNCES,
        881,
        2,
    )
    assert sum(line.startswith('error = f"Delivery failed') for line in shown) <= 1  # not both twins


def test_a_transaction_or_a_lock_is_a_line_that_does_the_work() -> None:
    for line in (
        "with transaction.atomic(using=DEFAULT_DB_ALIAS):",
        "    DB::transaction(function () {",
        "    Account.transaction do",
        "with advisory_lock(ADVISORY_LOCK_KEYS[self.advisory_lock_key]):",
        "    s.mu.Lock()",
    ):
        assert role_of(line).name == "guard", line
    assert role_of("transaction = build_transaction(entry)").name == "work"


# monica app/Http/Middleware/EnsureSignupIsEnabled.php:24, folded into "More places"
ABORT = (
    "        abort_if(! $this->app[SignupHelper::class]->isEnabled(), 403, "
    "trans('Registration is currently disabled'));"
)


def test_a_folded_sources_outcome_line_keeps_its_status_and_message() -> None:
    chunk = Chunk("app/Http/Middleware/EnsureSignupIsEnabled.php", "php", 11, 28, ABORT, "", "class", "middleware")
    step = Step(6, Hit(chunk, 0.0, chunk.id), "defines a class", [KeyLine(24, ABORT.strip())], "")
    line = folded_line(step)
    assert "403, trans('Registration is currently disabled'));" in line
