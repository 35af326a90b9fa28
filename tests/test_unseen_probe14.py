"""False and misleading on Mealie (FastAPI), BookWyrm (Django) and Akaunting (Laravel), apps in no data set, read as
a newcomer (probe 14):

- BookWyrm, "What happens when an API request fails?": "Then ``settings.py`` raises
  ``ImproperlyConfigured("You must change the SECRET_KEY env variable")``": a settings file's top-level check, run
  once as the app starts, taken for the end of a failing request;
- Mealie, the same question: "``register_debug_handler`` (``mealie/routes/handlers.py:18-31``) handles the request"
  of a function handed the app that registers a closure (the closure takes the request); BookWyrm:
  "``is_api_request`` (``bookwyrm/views/helpers.py:54-63``) handles the request" of a predicate that returns a bool.
"""

from __future__ import annotations

from codeqa.answer.explanation.code.keylines import KeyLine
from codeqa.answer.explanation.explain import Explanation, Step
from codeqa.answer.explanation.said.lead import LAYER_VERBS
from codeqa.answer.explanation.said.outcomes import outcome_lines
from codeqa.answer.explanation.said.roles_said import role_phrase
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk, Hit

FAILS = "What happens when an API request fails?"

SETTINGS = """# SECURITY WARNING: don't run with debug turned on in production!
DEBUG = env.bool("DEBUG", False)
USE_HTTPS = env.bool("USE_HTTPS", not DEBUG)

SECRET_KEY = env("SECRET_KEY", None)
if not DEBUG and SECRET_KEY in [
    None,
    "7(2w1sedok=aznpq)ta1mc4i%4h=xx@hxwx*o57ctsuml0x%fr",
]:
    raise ImproperlyConfigured("You must change the SECRET_KEY env variable")

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", ["*"])"""

REGISTER = """def register_debug_handler(app: FastAPI):
    settings = get_app_settings()

    if settings.PRODUCTION and not settings.TESTING:
        return

    @app.exception_handler(RequestValidationError)
    async def validation_exception_handler(request: Request, exc: RequestValidationError):
        exc_str = f"{exc}".replace("\\n", " ").replace("   ", " ")
        log_wrapper(request, exc)
        content = {"status_code": status.HTTP_422_UNPROCESSABLE_ENTITY, "message": exc_str, "data": None}
        return JSONResponse(content=content, status_code=status.HTTP_422_UNPROCESSABLE_ENTITY)

    return validation_exception_handler"""

IS_API = """def is_api_request(request: HttpRequest):
    \"\"\"check whether a request is asking for html or data\"\"\"
    is_api = "json" in request.headers.get("Accept", "") or re.match(
        r".*\\.json/?$", request.path
    )
    if is_api:
        # don't allow API requests if federation is disabled
        models.SiteSettings.raise_federation_disabled()
    return is_api"""

VIEW = """def api_book_search(request):
    \"\"\"Return books via API response\"\"\"
    query = request.GET.get("q")
    query = isbn_check_and_format(query)
    min_confidence = request.GET.get("min_confidence", 0)
    # only return local book results via json so we don't cascade
    book_results = search(query, min_confidence=min_confidence)
    return JsonResponse(
        [format_search_result(r) for r in book_results[:10]], safe=False
    )"""

CLASS_VIEW = """class ReactivateUser(View):
    \"\"\"now reactivate the user\"\"\"

    def get(self, request):
        \"\"\"the form to reactivate a user\"\"\"
        login_form = forms.LoginForm()
        return TemplateResponse(request, "landing/reactivate.html", {"login_form": login_form})"""

STATUS_GET = """    @vary_on_headers("Accept")
    def get(self, request, username, status_id, slug=None):
        \"\"\"display a particular status (and replies, etc)\"\"\"

        # the user profile and status in question
        user = get_user_from_username(request.user, username)
        status = get_object_or_404(
            models.Status.objects.select_subclasses(), user=user, id=status_id, deleted=False
        )
        # make sure the user is authorized to see the status
        status.raise_visible_to_user(request.user)

        if is_api_request(request):
            return ActivitypubResponse(status.to_activity(pure=not is_bookwyrm_request(request)))"""


def _chunk(text: str, name: str, kind: str, layer: str, path: str, start: int = 92) -> Chunk:
    return Chunk(path, "python", start, start + text.count("\n"), text, name, kind, layer)


def _outcomes(chunk: Chunk, question: str) -> list[tuple[str, str]]:
    """What the opening says ends the story in ``chunk`` (verb, line), every line shown."""
    lines = [KeyLine(chunk.start_line + n, text) for n, text in enumerate(chunk.text.split("\n")) if text.strip()]
    step = Step(1, Hit(chunk, 1.0), "module", lines, "")
    explanation = Explanation(question, [step], [], [], [step.hit], opened=1, intents=tuple(intents(question)))
    return [(verb, line.text.strip()) for verb, _, line in outcome_lines(explanation, set())]


def test_a_settings_files_start_up_check_is_no_requests_outcome():
    settings = _chunk(SETTINGS, "", "module", "config", "bookwyrm/settings.py")
    assert not [text for _, text in _outcomes(settings, FAILS) if "ImproperlyConfigured" in text]
    # asked about the settings themselves, the check is what happens (a test on one line, said with the raise) ...
    asked = "What error is raised when the SECRET_KEY setting is not configured?"
    split_test = SETTINGS[SETTINGS.index("SECRET_KEY in [") : SETTINGS.index("]:") + 2]
    one_line = SETTINGS.replace(split_test, "SECRET_KEY is None:")
    checked = _chunk(one_line, "", "module", "config", "bookwyrm/settings.py")
    assert ("raises", 'raise ImproperlyConfigured("You must change the SECRET_KEY env variable")') in _outcomes(
        checked, asked
    )
    # ... but under bookwyrm's own test, split over four lines, the raise is no outcome said as if it always ran
    assert not [text for _, text in _outcomes(settings, asked) if "ImproperlyConfigured" in text]
    # the same raise in a function that serves requests is still its outcome
    served = _chunk(one_line, "check_secret", "function", "service", "bookwyrm/views/helpers.py")
    assert [text for verb, text in _outcomes(served, FAILS) if verb == "raises"]


def test_handles_the_request_only_of_the_definition_handed_it_with_a_response():
    register = _chunk(REGISTER, "register_debug_handler", "function", "api", "mealie/routes/handlers.py", 18)
    is_api = _chunk(IS_API, "is_api_request", "function", "api", "bookwyrm/views/helpers.py", 54)
    assert role_phrase(register, LAYER_VERBS, "is here") == "is a function"
    assert role_phrase(is_api, LAYER_VERBS, "is here") == "is a function"
    view = _chunk(VIEW, "api_book_search", "function", "api", "bookwyrm/views/search.py", 58)
    assert role_phrase(view, LAYER_VERBS, "is here") == "handles the request"
    method = _chunk(CLASS_VIEW.split("\n\n", 1)[1], "ReactivateUser.get", "method", "api", "bookwyrm/views/a.py")
    assert role_phrase(method, LAYER_VERBS, "is here") == "handles the request"
    decorated = _chunk(STATUS_GET, "Status.get", "method", "api", "bookwyrm/views/feed.py", 138)
    assert role_phrase(decorated, LAYER_VERBS, "is here") == "handles the request"  # its head below the decorator
    klass = _chunk(CLASS_VIEW, "ReactivateUser", "class", "api", "bookwyrm/views/preferences/delete_user.py", 46)
    assert role_phrase(klass, LAYER_VERBS, "is here") == "handles the request"


HANDLER = """<?php

namespace App\\Exceptions;

use Akaunting\\Money\\Exceptions\\UnexpectedAmountException;
use App\\Events\\Email\\InvalidEmailDetected;
use App\\Exceptions\\Http\\Resource as ResourceException;
use Illuminate\\Auth\\AuthenticationException;
use Illuminate\\Database\\Eloquent\\ModelNotFoundException;
use Illuminate\\Foundation\\Exceptions\\Handler as ExceptionHandler;
use Illuminate\\Http\\Exceptions\\ThrottleRequestsException;
use Illuminate\\Http\\Response;
use Illuminate\\Support\\Str;
use Illuminate\\Validation\\ValidationException;
use Illuminate\\View\\ViewException;
use Symfony\\Component\\ErrorHandler\\Error\\FatalError;
use Symfony\\Component\\HttpKernel\\Exception\\HttpExceptionInterface;
use Symfony\\Component\\HttpKernel\\Exception\\NotFoundHttpException;
use Symfony\\Component\\Mailer\\Exception\\HttpTransportException as MailerHttpTransportException;
use Throwable;

class Handler extends ExceptionHandler
{
    /**
     * Render an exception into an HTTP response.
     *
     * @param  \\Illuminate\\Http\\Request  $request
     * @param  \\Throwable  $exception
     * @return \\Symfony\\Component\\HttpFoundation\\Response
     *
     * @throws \\Throwable
     */
    public function render($request, Throwable $exception)
    {
        if (request_is_api($request)) {
            return $this->handleApiExceptions($request, $exception);
        }

        if (config('app.debug') === false) {
            return $this->handleWebExceptions($request, $exception);
        }

        return parent::render($request, $exception);
    }

    protected function handleWebExceptions($request, $exception)
    {
        if ($exception instanceof NotFoundHttpException) {
            // ajax 404 json feedback
            if ($request->ajax()) {
                return response()->json([
                    'error' => trans('errors.header.404'),
                ], 404);
            }

            flash(trans('errors.body.page_not_found'))->error()->important();

            // normal 404 view page feedback
            return redirect()
                ->back()
                ->withErrors(['msg', trans('errors.body.page_not_found')]);
        }

        if ($exception instanceof ModelNotFoundException) {
            // ajax 404 json feedback
            if ($request->ajax()) {
                return response()->json([
                    'error' => trans('errors.header.404'),
                ], 404);
            }

            try {
                $names = explode('.', $request->route()->getName());
                $names[count($names) - 1] = 'index';

                $route = route(implode('.', $names));

                flash(trans('errors.message.record'))->warning()->important();

                return redirect($route);
            } catch (\\Exception $e) {
                // normal 404 view page feedback
                return response()->view('errors.404', [], 404);
            }
        }

        if ($exception instanceof FatalError) {
            // ajax 500 json feedback
            if ($request->ajax()) {
                return response()->json([
                    'error' => trans('errors.header.500'),
                ], 500);
            }

            // normal 500 view page feedback
            return response()->view('errors.500', [], 500);
        }

        if ($exception instanceof ThrottleRequestsException) {
            // ajax 500 json feedback
            if ($request->ajax()) {
                return response()->json([
                    'error' => $exception->getMessage(),
                ], 429);
            }
        }

        if ($exception instanceof ViewException) {
            $real_exception = $this->getRealException($exception, ViewException::class);

            if ($real_exception instanceof UnexpectedAmountException) {
                if ($request->ajax()) {
                    return response()->json([
                        'error' => trans('errors.message.amount'),
                    ], 500);
                }

                return response()->view('errors.500', [
                    'message' => trans('errors.message.amount'),
                ], 500);
            }
        }

        if ($exception instanceof MailerHttpTransportException) {
            $email = $this->handleMailerExceptions($exception);

            if (! empty($email)) {
                $message = trans('notifications.menu.invalid_email.description', ['email' => $email]);

                if ($request->ajax()) {
                    return response()->json([
                        'error' => $message,
                    ], $exception->getCode());
                }

                return response()->view('errors.403', [
                    'message' => $message,
                ], $exception->getCode());
            }
        }

        return parent::render($request, $exception);
    }

    protected function handleApiExceptions($request, $exception): Response
    {
        $replacements = $this->prepareApiReplacements($exception);

        $response = config('api.error_format');

        array_walk_recursive($response, function (&$value, $key) use ($replacements) {
            if (Str::startsWith($value, ':') && isset($replacements[$value])) {
                $value = $replacements[$value];
            }
        });

        $response = $this->recursivelyRemoveEmptyApiReplacements($response);

        return new Response($response, $this->getStatusCode($exception), $this->getHeaders($exception));
    }
}
"""


def test_asked_about_an_api_request_the_walk_takes_no_page_branch():
    """Akaunting, "What happens when an API request fails?": "1. ``Handler.render`` calls ``handleWebExceptions``
    when ``config('app.debug') === false``" then "answers with ``parent::render(…)``", the browser's branch, below
    ``if (request_is_api($request)) { return $this->handleApiExceptions(…); }``."""
    from codeqa.answer.context import AnswerContext
    from codeqa.answer.explanation.calls.claims import ClaimChecker
    from codeqa.answer.explanation.story.walk import walk
    from codeqa.chunk import chunk_file
    from codeqa.records import SourceFile

    path = "app/Exceptions/Handler.php"
    chunks = chunk_file(SourceFile(path, "php", HANDLER, len(HANDLER)))
    render = next(chunk for chunk in chunks if chunk.symbol.endswith("render"))
    context = AnswerContext.from_chunks(chunks, [Hit(render, 1.0, render.id)], [path])
    found = walk(FAILS, context, ClaimChecker(context), [render])
    called = [hop.use.name for hop in found.hops] if found is not None else []
    assert not [name for name in called if "handleWebExceptions" in name], called
    # asked about a page's request, the same walk may take the browser's branch
    page = walk("What happens when a page request fails?", context, ClaimChecker(context), [render])
    assert page is not None and [hop.use.name for hop in page.hops if "handleWebExceptions" in hop.use.name]


UNBLOCK = """@receiver(signals.post_delete, sender=models.UserBlocks)
# pylint: disable=unused-argument
def add_statuses_on_unblock(sender: type, instance: models.UserBlocks, *args, **kwargs):
    \"\"\"add statuses back to all feeds on unblock\"\"\"
    # make sure there isn't a block in the other direction
    if models.UserBlocks.objects.filter(
        user_subject=instance.user_object,
        user_object=instance.user_subject,
    ).exists():
        return"""

BUGSNAG = """    /*
    |--------------------------------------------------------------------------
    | User
    |--------------------------------------------------------------------------
    |
    | Enable this if you'd like us to set the current user logged in via
    | Laravel's authentication system.
    |
    | If you'd like to add your own user resolver, you can do this by using
    | callbacks via Bugsnag::registerCallback.
    |
    */

    'user' => env('BUGSNAG_USER', true),

    /*
    |--------------------------------------------------------------------------
    | Logger Notify Level
    |--------------------------------------------------------------------------
    |
    | This sets the level at which a logged message will trigger a notification
    | to Bugsnag.  By default this level will be 'notice'.
    |"""


def _phrases(text: str, path: str, language: str, start: int, symbol: str, question: str) -> dict[int, str]:
    from codeqa.answer.explanation.constructs.mechanism import matches_in
    from codeqa.frameworks.conventions import load_all

    chunk = Chunk(path, language, start, start + text.count("\n"), text, symbol, "function", "core")
    return {m.line: m.phrase for m in matches_in(chunk, load_all(), intents(question))}


def test_a_receiver_of_one_senders_signal_says_the_sender():
    """BookWyrm, the logging question: "``add_statuses_on_unblock`` … runs whenever ``signals.post_delete`` fires (a
    signal receiver)", of a receiver that runs only when a ``UserBlocks`` row is deleted."""
    logging = "Where would I add logging to track user behavior?"
    found = _phrases(UNBLOCK, "bookwyrm/activitystreams.py", "python", 517, "add_statuses_on_unblock", logging)
    assert found[517] == "runs whenever `signals.post_delete` fires for `models.UserBlocks` (a signal receiver)"
    alone = _phrases("@receiver(user_logged_in)\ndef on_login(sender, user, **kwargs):\n    pass", "app/signals.py",
                     "python", 1, "on_login", logging)  # fmt: skip
    assert alone[1] == "runs whenever `user_logged_in` fires (a signal receiver)"


def test_an_error_trackers_name_in_a_comment_reports_nothing():
    """Akaunting, the logging question: "``bugsnag.php`` (``config/bugsnag.php:248-297``) reports errors to an error
    tracker", of a settings file whose comments end a sentence on "Bugsnag."."""
    logging = "Where would I add logging to track user behavior?"
    found = _phrases(BUGSNAG, "config/bugsnag.php", "php", 248, "bugsnag.php", logging)
    assert "reports errors to an error tracker" not in found.values(), found
    code = _phrases("        Bugsnag::notifyException($exception);", "app/Exceptions/Handler.php", "php", 80,
                    "Handler.report", logging)  # fmt: skip
    assert code[80] == "reports errors to an error tracker"
