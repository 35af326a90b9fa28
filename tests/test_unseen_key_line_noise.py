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

from codeqa.answer.explanation.code.keylines import KeyLine, question_terms
from codeqa.answer.explanation.code.lineroles import blank_strings, quiet, role_of
from codeqa.answer.explanation.explain import Step
from codeqa.answer.explanation.said.extractive import folded_line
from codeqa.answer.explanation.sources.choose import source_lines
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
    assert blank_strings('x = f"failed ({a})" + g("b (c")') == 'x = f"xxxxxxxx{a}x" + g("xxxx")'
    # code interpolated in a template is still code (nodebb's upload URL built from the config)
    assert role_of("const url = `${nconf.get('url') + nconf.get('upload_url')}${path}`;").name == "work"
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


# NodeBB src/user/posts.js:38-91 (User.isReady): the condition that holds newcomers back spans four lines
# (two error messages shortened to fit a line)
NODEBB_READY = """\tasync function isReady(uid, cid, field) {
\t\tif (activitypub.helpers.isUri(uid) || parseInt(uid, 10) === 0) {
\t\t\treturn;
\t\t}
\t\tconst [userData, isAdminOrMod, isMemberOfExempt] = await Promise.all([
\t\t\tUser.getUserFields(uid, ['uid', 'mutedUntil', 'joindate', 'email', 'reputation'].concat([field])),
\t\t\tprivileges.categories.isAdminOrMod(cid, uid),
\t\t\tgroups.isMemberOfAny(uid, meta.config.groupsExemptFromNewUserRestrictions),
\t\t]);

\t\tif (!userData.uid) {
\t\t\tthrow new Error('[[error:no-user]]');
\t\t}

\t\tif (isAdminOrMod) {
\t\t\treturn;
\t\t}

\t\tawait User.checkMuted(uid);

\t\tconst { shouldIgnoreDelays } = await plugins.hooks.fire('filter:user.posts.isReady', {
\t\t\tshouldIgnoreDelays: false,
\t\t\tuser: userData,
\t\t\tcid,
\t\t\tfield,
\t\t\tisAdminOrMod,
\t\t\tisMemberOfExempt,
\t\t});
\t\tif (shouldIgnoreDelays) {
\t\t\treturn;
\t\t}

\t\tconst now = Date.now();
\t\tif (now - userData.joindate < meta.config.initialPostDelay * 1000) {
\t\t\tthrow new Error(`[[error:user-too-new, ${meta.config.initialPostDelay}]]`);
\t\t}

\t\tconst lasttime = userData[field] || 0;

\t\tif (
\t\t\t!isMemberOfExempt &&
\t\t\tmeta.config.newbiePostDelay > 0 &&
\t\t\tmeta.config.newbieReputationThreshold > userData.reputation &&
\t\t\tnow - lasttime < meta.config.newbiePostDelay * 1000
\t\t) {
\t\t\tif (meta.config.newbiewPostDelay % 60 === 0) {
\t\t\t\tthrow new Error(`[[error:too-many-posts-newbie-minutes, ${Math.floor(meta.config.newbiePostDelay / 60)}]]`);
\t\t\t} else {
\t\t\t\tthrow new Error(`[[error:too-many-posts-newbie, ${meta.config.newbiePostDelay}]]`);
\t\t\t}
\t\t} else if (now - lasttime < meta.config.postDelay * 1000) {
\t\t\tthrow new Error(`[[error:too-many-posts, ${meta.config.postDelay}]]`);
\t\t}
\t}"""


def test_each_line_of_a_condition_over_several_lines_decides() -> None:
    """NodeBB, "How does the forum stop brand-new or low-reputation members from posting too quickly?": the
    reputation test (a line of a four-line ``if``) played no role and was cut for the message's formatting test."""
    line = "\t\t\tmeta.config.newbieReputationThreshold > userData.reputation &&"
    assert role_of(line).name == "decision"
    assert role_of("            || user.is_superuser").name == "decision"
    question = "How does the forum stop brand-new or low-reputation members from posting too quickly?"
    shown = _shown(question, NODEBB_READY, 38, 9, path="src/user/posts.js")
    assert line.strip() in shown


def test_work_put_off_a_flag_switched_and_a_token_read_are_lines_that_do_the_work() -> None:
    """indico's ``send_email`` queues the mail until the commit (``g.email_queue.append(...)``) and its Celery task
    retries; monica switches a notification channel off after too many failures; umami reads the token from the
    request (``parseSecureToken``). Each was ranked as a plain call or a value below lines that only held words."""
    assert role_of("        g.email_queue.append((fn, email, log_entry))").name == "effect"
    assert role_of("        task.retry(countdown=delay, max_retries=(MAX_TRIES - 1))").name == "effect"
    assert role_of("                    $userNotificationChannel->active = false;").name == "switch"
    assert role_of("            channel_q.update(disabled=True)").name == "switch"
    assert role_of("  const payload = parseSecureToken(token, secret());").name == "session"
    assert role_of("queue = []").name == "value"  # a queue made is no work put off
    assert role_of("users = User.objects.filter(is_active=True)").name == "work"  # a flag read is no switch
    assert role_of("      update active: false, email: deactivated_email").name == "switch"  # maybe's User#deactivate
