"""Read on netbox (real-size dev), asked "What happens when an API request fails?": the answer opened on
`CoreMiddleware.process_exception`, whose line holding the question's words is `return handle_rest_api_exception(
request)`, but never showed `handle_rest_api_exception` itself, so the JSON error body (`'exception':
exception_name`, `return JsonResponse(data, status=status.HTTP_500_INTERNAL_SERVER_ERROR)`) was missing: the
callee says "exception" and "JSON", not "API request fails", and was only followed when it held the question's
words. The code called on the source's best-worded line is the next step, whatever its own words; but not a test
the line decides on (`if is_api_request(request) …`), nor a one-line delegate (nestjs-boilerplate's
`findByEmail(email) { return this.usersRepository.findByEmail(email); }`, which pushed a guard out of the answer).
"""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.calls.flow import Use
from codeqa.answer.explanation.explain import explain
from codeqa.answer.explanation.sources.follow import _does
from codeqa.chunk import chunk_file
from codeqa.records import Chunk, Hit, SourceFile

QUESTION = "What happens when an API request fails?"
NETBOX = {  # netbox-community/netbox, shortened; paths from its Django project root, as its imports read
    "netbox/middleware.py": '''import uuid

from django.conf import settings
from django.core.signals import got_request_exception
from django.db import ProgrammingError
from django.contrib import messages
from django.db.utils import InternalError
from django.http import Http404, HttpResponseRedirect
from django_prometheus import middleware

from netbox.config import get_config
from netbox.metrics import Metrics

from netbox.views import handler_500
from utilities.api import is_api_request, is_graphql_request
from utilities.error_handlers import handle_rest_api_exception


class CoreMiddleware:

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):

        # Assign a random unique ID to the request. This will be used for change logging.
        request.id = uuid.uuid4()
        response = self.get_response(request)

        # If this is an API request, attach an HTTP header annotating the API version (e.g. '3.5').
        if is_api_request(request):
            response['API-Version'] = settings.REST_FRAMEWORK_VERSION

        return response

    def process_exception(self, request, exception):
        """
        Implement custom error handling logic for production deployments.
        """
        # Don't catch exceptions when in debug mode
        if settings.DEBUG:
            return None

        # Cleanly handle exceptions that occur from REST or GraphQL API requests
        if is_api_request(request) or is_graphql_request(request):
            # Fire Django's got_request_exception signal so error-tracking
            # integrations (e.g. Sentry) capture the exception.
            got_request_exception.send(sender=self.__class__, request=request)
            return handle_rest_api_exception(request)

        # Ignore Http404s (defer to Django's built-in 404 handling)
        if isinstance(exception, Http404):
            return None

        # Determine the type of exception. If it's a common issue, return a custom error page with instructions.
        custom_template = None
        if isinstance(exception, ProgrammingError):
            custom_template = 'exceptions/programming_error.html'

        # Return a custom error message, or fall back to Django's default 500 error handling
        if custom_template:
            got_request_exception.send(sender=self.__class__, request=request)
            return handler_500(request, template_name=custom_template)
        return None


class MaintenanceModeMiddleware:
    """
    Middleware that checks if the application is in maintenance mode
    and restricts write-related operations to the database.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if get_config().MAINTENANCE_MODE:
            self._set_session_type(
                allow_write=request.path_info.startswith(settings.MAINTENANCE_EXEMPT_PATHS)
            )

        return self.get_response(request)

    def process_exception(self, request, exception):
        """
        Prevent any write-related database operations if an exception is raised.
        """
        if get_config().MAINTENANCE_MODE and isinstance(exception, InternalError):
            error_message = 'NetBox is currently operating in maintenance mode and is unable to perform write ' \\
                            'operations. Please try again later.'

            if is_api_request(request) or is_graphql_request(request):
                return handle_rest_api_exception(request, error=error_message)

            messages.error(request, error_message)
            return HttpResponseRedirect(request.path_info)
        return None


class PrometheusAfterMiddleware(middleware.PrometheusAfterMiddleware):
    metrics_cls = Metrics

    def process_response(self, request, response):
        response = super().process_response(request, response)

        # Increment REST API request counters
        if is_api_request(request):
            method = self._method(request)
            name = self._get_view_name(request)
            self.label_metric(self.metrics.rest_api_requests, request, method=method).inc()
            self.label_metric(self.metrics.rest_api_requests_by_view_method, request, method=method, view=name).inc()

        # Increment GraphQL API request counters
        elif is_graphql_request(request):
            self.metrics.graphql_api_requests.inc()

        return response
''',
    "utilities/error_handlers.py": '''import platform
import sys

from django.conf import settings
from django.http import JsonResponse
from rest_framework import status


def handle_rest_api_exception(request, *args, **kwargs):
    """
    Handle exceptions and return a useful error message for REST API requests.
    """
    if 'error' in kwargs:
        error_message = str(kwargs['error'])
        type_, __ = sys.exc_info()[:2]
        exception_name = type_.__name__ if type_ else 'Exception'
    else:
        type_, error = sys.exc_info()[:2]
        error_message = str(error)
        exception_name = type_.__name__
    data = {
        'error': error_message,
        'exception': exception_name,
        'netbox_version': settings.RELEASE.full_version,
        'python_version': platform.python_version(),
    }
    return JsonResponse(data, status=status.HTTP_500_INTERNAL_SERVER_ERROR)
''',
    "utilities/api.py": '''from django.urls import reverse

HTTP_CONTENT_TYPE_JSON = 'application/json'


def is_api_request(request):
    """
    Return True of the request is being made via the REST API.
    """
    return request.path_info.startswith(reverse('api-root'))


def is_graphql_request(request):
    """
    Return True of the request is being made via the GraphQL API.
    """
    return request.path_info == reverse('graphql') and request.content_type == HTTP_CONTENT_TYPE_JSON
''',
    "utilities/request.py": '''from django.utils.datastructures import MultiValueDict

HTTP_REQUEST_META_SAFE_COPY = ('CONTENT_LENGTH', 'CONTENT_TYPE', 'HTTP_ACCEPT', 'HTTP_HOST', 'REMOTE_ADDR')
HTTP_REQUEST_META_SENSITIVE = ('HTTP_AUTHORIZATION', 'HTTP_COOKIE')


def copy_safe_request(request, include_files=True):
    """
    Copy selected attributes from a request object into a new fake request object. This is needed in places where
    thread safe pickling of the useful request data is needed.
    """
    meta = {}
    for k, v in request.META.items():
        if not isinstance(v, str):
            continue
        if k in HTTP_REQUEST_META_SAFE_COPY:
            meta[k] = v
        elif k.startswith('HTTP_') and k not in HTTP_REQUEST_META_SENSITIVE:
            meta[k] = v
    data = {
        'META': meta,
        'COOKIES': request.COOKIES,
        'POST': request.POST,
        'GET': request.GET,
        'user': request.user,
        'method': request.method,
        'path': request.path,
        'id': getattr(request, 'id', None),  # UUID assigned by middleware
    }
    if include_files:
        data['FILES'] = request.FILES
    else:
        data['FILES'] = MultiValueDict()

    return NetBoxFakeRequest(data)
''',
    "netbox/views/errors.py": '''import platform
import sys

from django.conf import settings
from django.http import HttpResponseServerError
from django.template import loader
from django.views.decorators.csrf import requires_csrf_token

ERROR_500_TEMPLATE_NAME = '500.html'


@requires_csrf_token
def handler_500(request, template_name=ERROR_500_TEMPLATE_NAME):
    """
    Custom 500 handler to provide additional context when rendering 500.html.
    """
    template = loader.get_template(template_name)
    type_, error = sys.exc_info()[:2]

    return HttpResponseServerError(template.render({
        'request': request,
        'error': error,
        'exception': str(type_),
        'netbox_version': settings.RELEASE.full_version,
        'python_version': platform.python_version(),
    }))
''',
}
RETRIEVED = ["netbox/middleware.py", "utilities/api.py", "utilities/request.py", "netbox/views/errors.py"]

# nestjs-boilerplate's src/users/users.service.ts (shortened): three one-line delegates in one chunk
DELEGATES = """export class UsersService {
  findById(id: User['id']): Promise<NullableType<User>> {
    return this.usersRepository.findById(id);
  }

  findByIds(ids: User['id'][]): Promise<User[]> {
    return this.usersRepository.findByIds(ids);
  }

  findByEmail(email: User['email']): Promise<NullableType<User>> {
    return this.usersRepository.findByEmail(email);
  }
}
"""


def context_for(app: dict[str, str], retrieved: list[str]) -> AnswerContext:
    chunks: list[Chunk] = []
    for path, text in app.items():
        chunks += chunk_file(SourceFile(path, "python", text, len(text)))
    pool = [Hit(c, 1.0 / (1 + n), c.id) for n, c in enumerate(c for p in retrieved for c in chunks if c.path == p)]
    return AnswerContext.from_chunks(chunks, pool, retrieved)


def test_the_code_called_on_the_best_worded_line_is_shown_with_its_response() -> None:
    explanation = explain(QUESTION, context_for(NETBOX, RETRIEVED))
    shown = {step.chunk.path: [line.text.strip() for line in step.lines] for step in explanation.open_steps}
    handler = shown.get("utilities/error_handlers.py", [])
    assert "return JsonResponse(data, status=status.HTTP_500_INTERNAL_SERVER_ERROR)" in handler, shown
    assert "netbox/middleware.py" in shown  # the middleware that calls it stays open


def test_a_test_the_line_decides_on_is_not_the_next_step() -> None:
    test = Use("is_api_request", 38, "calls", "if is_api_request(request) or is_graphql_request(request):")
    api = next(
        c
        for c in chunk_file(
            SourceFile("utilities/api.py", "python", NETBOX["utilities/api.py"], len(NETBOX["utilities/api.py"]))
        )
        if "is_api_request" in c.text
    )
    assert not _does(test, api)
    handler_text = NETBOX["utilities/error_handlers.py"]
    handler = chunk_file(SourceFile("utilities/error_handlers.py", "python", handler_text, len(handler_text)))
    call = Use("handle_rest_api_exception", 42, "calls", "return handle_rest_api_exception(request)")
    assert _does(call, next(c for c in handler if "def handle_rest_api_exception" in c.text))


def test_a_one_line_delegate_only_passes_the_call_on() -> None:
    chunk = chunk_file(SourceFile("src/users/users.service.ts", "typescript", DELEGATES, len(DELEGATES)))[0]
    call = Use("findByEmail", 45, "calls", "const user = await this.usersService.findByEmail(loginDto.email);")
    assert not _does(call, chunk)


def test_a_class_whose_method_decides_is_no_delegate() -> None:
    """taiga's permission component (taiga/base/api/permissions.py), instantiated on the worded line
    ``update_perms = HasProjectPerm('modify_us')``: its ``check_permissions`` is where the decision is made."""
    text = """class HasProjectPerm(PermissionComponent):
    def __init__(self, perm, *components):
        self.project_perm = perm
        super().__init__(*components)

    def check_permissions(self, request, view, obj=None):
        return user_has_perm(request.user, self.project_perm, obj)
"""
    chunk = chunk_file(SourceFile("taiga/base/api/permissions.py", "python", text, len(text)))[0]
    assert _does(Use("HasProjectPerm", 20, "calls", "update_perms = HasProjectPerm('modify_us')"), chunk)
