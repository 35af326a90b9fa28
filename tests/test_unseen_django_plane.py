"""Sentences read on Plane (a Django + Next.js app, 4,832 files, in no data set):

- asked where to add logging: "`APITokenLogMiddleware.process_request` … is middleware: Django runs it on every
  request", then "Where to add it: in `APITokenLogMiddleware.process_request`": a helper of that name with Django's
  hook's name but not its parameters (``process_request(self, request, response, request_body)``, called by the
  class's ``__call__``), which returns at once unless the request carries an API key;
- asked what happens when an API request fails: "`ReadReplicaRoutingMiddleware.process_exception` … handles
  exceptions raised by views" for a hook that only cleans up and returns None ("Don't handle the exception");
- and "`APIKeyAuthentication.validate_api_token` stores `api_token.save(update_fields=["last_used"])`": the success
  path after an ``except … : raise AuthenticationFailed(…)``, said as what happens on failure (a raise in the source
  counted as an error handler's answer).
"""

from __future__ import annotations

from codeqa.answer.explanation.code.keylines import KeyLine
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.explain import Step
from codeqa.answer.explanation.said.outcomes import _fails
from codeqa.chunk import chunk_file
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk, Hit, SourceFile

# apps/api/plane/middleware/logger.py, lines 78-125 (shortened)
LOGGER = """class APITokenLogMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request_body = request.body
        response = self.get_response(request)
        self.process_request(request, response, request_body)
        return response

    def process_request(self, request, response, request_body):
        api_key = request.headers.get("X-Api-Key")
        if not api_key:
            return
        process_logs.delay(log_data={"path": request.path})
"""
HOOKS = """class TimezoneMiddleware(MiddlewareMixin):
    def process_request(self, request):
        timezone.activate(request.user.timezone)

    def process_view(self, request, view_func, view_args, view_kwargs):
        request.view_name = view_func.__name__

    def process_response(self, request: HttpRequest, response: HttpResponse):
        return response
"""
# apps/api/plane/middleware/db_routing.py, lines 146-164 (shortened)
ROUTING = """class ReadReplicaRoutingMiddleware:
    def process_exception(self, request: HttpRequest, exception: Exception) -> None:
        \"\"\"Handle exceptions that occur during view processing.\"\"\"
        clear_read_replica_context()
        # Return None to let the exception continue propagating
        return None
"""
# apps/api/plane/api/middleware/api_authentication.py, lines 17-51 (shortened)
API_KEY = """class APIKeyAuthentication(authentication.BaseAuthentication):
    \"\"\"Authentication with an API Key\"\"\"

    auth_header_name = "X-Api-Key"

    def validate_api_token(self, token):
        try:
            api_token = APIToken.objects.get(token=token, is_active=True)
        except APIToken.DoesNotExist:
            raise AuthenticationFailed("Given API token is not valid")

        # save api token last used
        api_token.last_used = timezone.now()
        api_token.save(update_fields=["last_used"])
        return (api_token.user, api_token.token)

    def authenticate(self, request):
        token = request.headers.get(self.auth_header_name)
        if not token:
            return None
        user, token = self.validate_api_token(token)
        return user, token
"""


def _chunks(path: str, text: str) -> list[Chunk]:
    return chunk_file(SourceFile(path, "python", text, len(text)))


def _said(path: str, text: str, question: str) -> list[tuple[int, str, bool]]:
    django = [c for c in load_all() if c.name == "Django"]
    asked = intents(question)
    return [(m.line, m.phrase, m.construct.every_request) for c in _chunks(path, text)
            for m in matches_in(c, django, asked)]  # fmt: skip


def test_a_helper_named_like_a_django_hook_is_not_said_to_run_on_every_request() -> None:
    found = _said("plane/middleware/logger.py", LOGGER, "Where would I add logging to track user behavior?")
    assert not any(line == 11 for line, _, _ in found), found  # the helper `process_request(self, request, …)`
    assert any(line == 5 and every for line, _, every in found), found  # `__call__` is the middleware
    hooks = _said("app/middleware.py", HOOKS, "Where would I add logging to track user behavior?")
    assert {line for line, _, every in hooks if every} >= {2, 5, 8}, hooks  # Django's own three hooks still are


def test_a_process_exception_hook_is_not_said_to_handle_the_exception() -> None:
    found = _said("plane/middleware/db_routing.py", ROUTING, "What happens when an API request fails?")
    phrases = [phrase for _, phrase, _ in found]
    assert "is called when a view raises an exception (`process_exception`)" in phrases, phrases
    assert not any(phrase.startswith("handles") for phrase in phrases), phrases


def test_the_success_path_of_a_function_that_raises_is_not_what_happens_on_failure() -> None:
    chunk = _chunks("plane/api/middleware/api_authentication.py", API_KEY)[0]
    django = [c for c in load_all() if c.name == "Django"]
    matches = matches_in(chunk, django, intents("What happens when an API request fails?"))
    assert any(m.construct.kind == "error" and m.text.startswith("raise ") for m in matches), matches
    lines = [KeyLine(n, text) for n, text in enumerate(chunk.text.split("\n"), chunk.start_line)]
    step = Step(1, Hit(chunk, 1.0, chunk.id), "api", lines, "", matches)
    raised = next(line for line in lines if "raise AuthenticationFailed" in line.text)
    saved = next(line for line in lines if "api_token.save(" in line.text)
    assert _fails("raises", step, raised)
    assert not _fails("stores", step, saved)  # the raise is no handler whose answer every line is
    # an error handler's own answer still is the failure's (``render_error``'s return)
    exc = _chunks("app/exc.py", HANDLER)[0]
    own = matches_in(exc, django, intents("What happens when it fails?"))
    exc_lines = [KeyLine(n, text) for n, text in enumerate(exc.text.split("\n"), exc.start_line)]
    assert _fails("answers with", Step(1, Hit(exc, 1.0, exc.id), "api", exc_lines, "", own), exc_lines[-1]), own


# a REST framework exception handler (the EXCEPTION_HANDLER construct), whose last line answers
HANDLER = """def custom_exception_handler(exc, context):
    response = exception_handler(exc, context)
    return response
"""
