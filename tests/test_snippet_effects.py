"""The line that does the thing stays in the snippet (issue #35, failure class 6): an answer shows a few lines of each
span it cites, and the sign-in itself or the signal an error sends must not be cut for lines that only set
details around it (the session's timezone and language, an ``elif`` chain picking an error page).

``conference`` is a small Flask app shaped like the real-size app this class was read from: ``login_user`` puts the
user into the session among a dozen session writes; the middleware's ``process_exception`` sends Django's
``got_request_exception`` signal with keyword arguments (read as an assignment before, so it played no role).
"""

from __future__ import annotations

import re

from codeqa.answer.explanation.code.keylines import question_terms
from codeqa.answer.explanation.code.lineroles import role_of
from codeqa.answer.explanation.sources.choose import source_lines
from codeqa.answer.rendering.citations import check_citations
from codeqa.config import Settings
from codeqa.records import Chunk
from codeqa.retrieve.question import Question
from tests.helpers import ask_named

LOGIN = '''"""Signing users in: the session holds who they are."""
from datetime import timedelta

from flask import request, session

from conference.core import signals
from conference.core.config import config
from conference.util.date_time import now_utc


def login_user(user, identity=None, admin_impersonation=False):
    """Set the session user and performs on-login logic.

    When specifying `identity`, the provider/identifier information
    is saved in the session so the identity management page can prevent
    the user from removing the identity he used to login.
    """
    if user.settings.get('force_timezone'):
        session.timezone = user.settings.get('timezone', config.DEFAULT_TIMEZONE)
    else:
        session.timezone = 'LOCAL'
    session.set_session_user(user)
    session.lang = user.settings.get('lang')
    session.theme = user.settings.get('theme', 'light')
    session.date_format = user.settings.get('date_format', config.DEFAULT_DATE_FORMAT)
    if not admin_impersonation:
        if config.SESSION_MAX_LIFETIME:
            session.hard_expiry = now_utc() + timedelta(seconds=config.SESSION_MAX_LIFETIME)
        if identity:
            identity.register_login(request.remote_addr)
            session['login_identity'] = identity.id
            session['login_provider'] = identity.provider
        else:
            session.pop('login_identity', None)
            session.pop('login_provider', None)
        if changes := user.synchronize_data():
            user.log_update(changes, from_sync=True)
    signals.users.logged_in.send(user, identity=identity, admin_impersonation=admin_impersonation)


def logout_user():
    """Log the user out of the session."""
    session.clear()
    session.set_session_user(None)
'''

CONTROLLERS = '''from flask import redirect, render_template, request

from conference.auth import login_user
from conference.auth.forms import LoginForm
from conference.auth.models import Identity


def login():
    """The sign-in page: checks the password of the identity the form names."""
    form = LoginForm(request.form)
    if request.method == 'POST' and form.validate():
        identity = Identity.query.filter_by(identifier=form.username.data).first()
        if identity is not None and identity.check_password(form.password.data):
            login_user(identity.user, identity)
            return redirect(request.args.get('next') or '/')
        form.password.errors.append('Invalid username or password')
    return render_template('auth/login.html', form=form)
'''

MIDDLEWARE = '''from django.core.signals import got_request_exception
from django.db import OperationalError, ProgrammingError
from django.http import Http404
from django.conf import settings

from conference.api.exceptions import handle_rest_api_exception, is_api_request
from conference.views.errors import handler_500


class CoreMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        """Implement custom error handling logic for production deployments."""
        # Don't catch exceptions when in debug mode
        if settings.DEBUG:
            return None

        # Cleanly handle exceptions that occur from REST API requests
        if is_api_request(request):
            # Fire Django's got_request_exception signal so error-tracking integrations capture the exception.
            got_request_exception.send(sender=self.__class__, request=request)
            return handle_rest_api_exception(request)

        # Ignore Http404s (defer to Django's built-in 404 handling)
        if isinstance(exception, Http404):
            return None

        # Determine the type of exception. If it's a common issue, return a custom error page with instruction
        custom_template = None
        if isinstance(exception, ProgrammingError):
            custom_template = 'exceptions/programming_error.html'
        elif isinstance(exception, ImportError):
            custom_template = 'exceptions/import_error.html'
        elif isinstance(exception, PermissionError):
            custom_template = 'exceptions/permission_error.html'
        elif isinstance(exception, TimeoutError):
            custom_template = 'exceptions/timeout_error.html'
        elif isinstance(exception, OperationalError):
            custom_template = 'exceptions/database_error.html'
        elif isinstance(exception, FileNotFoundError):
            custom_template = 'exceptions/missing_file.html'
        elif isinstance(exception, MemoryError):
            custom_template = 'exceptions/memory_error.html'

        # Return a custom error message, or fall back to Django's default 500 error handling
        if custom_template:
            return handler_500(request, template_name=custom_template)
        return None
'''

APP: dict[str, str] = {
    "requirements.txt": "flask==3.0.0\nDjango==4.2\n",
    "conference/__init__.py": '"""The conference application."""\n',
    "conference/auth/__init__.py": LOGIN,
    "conference/auth/controllers.py": CONTROLLERS,
    "conference/middleware.py": MIDDLEWARE,
}

INDEXED_APPS = {"conference": APP}  # indexed once by apps_home (tests/conftest.py)


def _answer(apps_settings: Settings, question: str) -> str:
    result = ask_named("conference", question, apps_settings, backend="none").result()
    assert not result.generated and check_citations(result.text, result.sources).invalid == []
    return result.text


def _snippet(text: str, path: str) -> list[str]:
    """The code lines the answer shows from the first source citing ``path`` (its numbered lines, stripped)."""
    lines = text.split("\n")
    head = re.compile(r"^- \*\*\[\d+\]\*\* `[^`]*` \(`" + re.escape(path) + ":")
    start = next(n for n, line in enumerate(lines) if head.match(line))
    body = lines[start + 2 : next(n for n in range(start + 2, len(lines)) if lines[n].strip() == "```")]
    return [line.strip().split(None, 1)[1] if len(line.split()) > 1 else "" for line in body]


def test_the_sign_in_itself_is_shown_not_only_the_session_settings_around_it(apps_settings: Settings) -> None:
    text = _answer(apps_settings, "How does user authentication flow through the system?")
    shown = _snippet(text, "conference/auth/__init__.py")
    assert "session.set_session_user(user)" in shown, text
    assert any(line.startswith("session.timezone") for line in shown)  # the details still come, after it


def test_an_api_error_shows_the_signal_it_sends_with_keyword_arguments(apps_settings: Settings) -> None:
    text = _answer(apps_settings, "What happens when an API request fails?")
    shown = _snippet(text, "conference/middleware.py")
    assert "got_request_exception.send(sender=self.__class__, request=request)" in shown, text
    assert "return handle_rest_api_exception(request)" in shown


def test_the_effect_role_reads_the_call_not_its_words() -> None:
    assert role_of("    session.set_session_user(user)").name == "effect"  # type: ignore[union-attr]
    assert role_of("    got_request_exception.send(sender=self.__class__, request=request)").name == "effect"  # type: ignore[union-attr]
    assert role_of("    SendReminder::dispatch($reminder)->onQueue('low');").name == "effect"  # type: ignore[union-attr]
    assert role_of("    token = jwt.encode(payload, key, algorithm='HS256')").name == "effect"  # type: ignore[union-attr]
    assert role_of("    sock.send(data)").name == "call"  # type: ignore[union-attr]  # a socket's send is no signal
    assert role_of("    log_user_update(user, changes, from_sync=True)").name == "call"  # type: ignore[union-attr]
    assert role_of("    items.forEach((x) => go(x));") is None  # a callback, as before


EXECUTION_JOB = """try {
    long startTime = System.currentTimeMillis();
    future.get();
    long times = System.currentTimeMillis() - startTime;
    log.setTime(times);
    redisUtils.set(uuid, true);
} catch (Exception e) {
    long times = System.currentTimeMillis() - startTime;
    log.setTime(times);
    quartzJobService.updateIsPause(quartzJob);
}"""


def test_a_line_said_twice_in_a_span_is_shown_once_and_its_room_goes_to_another() -> None:
    chunk = Chunk("quartz/ExecutionJob.java", "java", 70, 80, EXECUTION_JOB, "", "method", "core")
    terms = question_terms(Question.parse("How long does a timed job take to run?"))
    shown = [line.text.strip() for line in source_lines(terms, chunk, [], 3)]
    assert shown.count("long times = System.currentTimeMillis() - startTime;") == 1, shown
    assert "quartzJobService.updateIsPause(quartzJob);" in shown, shown
