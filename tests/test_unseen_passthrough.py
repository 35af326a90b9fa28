"""Read on NetBox (Django, dev set): asked "Where would I add logging to track user behavior?", the answer opened on
"`RemoteUserMiddleware.__call__` (`netbox/netbox/middleware.py:153-209`) is middleware: Django runs it on every
request" and showed its remote-user code. True, but that middleware hands every request straight on unless remote
authentication is switched on (``if not settings.REMOTE_AUTH_ENABLED: return self.get_response(request)``): a logger
put in it misses every request when the setting is off. ``CoreMiddleware.__call__``, which gives each request its id
for change logging, sees them all and is the place to show first.
"""

from __future__ import annotations

from codeqa.answer.explanation.code.passthrough import passes_on_when
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.chunk import chunk_file
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk, SourceFile

LOGGING = "Where would I add logging to track user behavior?"

# netbox/netbox/middleware.py, lines 53-64 and 150-175 (shortened)
NETBOX = """class CoreMiddleware:

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):

        # Assign a random unique ID to the request. This will be used for change logging.
        request.id = uuid.uuid4()

        # Apply all registered request processors
        with apply_request_processors(request):
            response = self.get_response(request)
        return response


class RemoteUserMiddleware(middleware.RemoteUserMiddleware):

    def __call__(self, request):
        logger = logging.getLogger('netbox.authentication.RemoteUserMiddleware')
        # Bypass middleware if remote authentication is not enabled
        if not settings.REMOTE_AUTH_ENABLED:
            return self.get_response(request)
        # AuthenticationMiddleware is required so that request.user exists.
        if not hasattr(request, 'user'):
            raise ImproperlyConfigured("The Django remote user auth middleware requires the authentication middleware.")
        username = request.META[self.header]
        user = auth.authenticate(request, remote_user=username)
        if user:
            request.user = user
            auth.login(request, user)
        return self.get_response(request)
"""
# a middleware whose first test does its work before handing the request on: it sees every request
WORKS_FIRST = """class MaintenanceModeMiddleware:
    def __call__(self, request):
        if settings.MAINTENANCE_MODE:
            logger.info("maintenance: %s", request.path)
            return self.get_response(request)
        return self.get_response(request)
"""
EXPRESS = """const app = express();
app.use(helmet());
app.use((req, res, next) => {
  if (!config.auditEnabled) return next();
  audit.record(req.user, req.path);
  next();
});
app.use(cors());
if (config.compress) {
  app.use(compression());
}
"""
LARAVEL = """class EnsureTwoFactor
{
    public function handle(Request $request, Closure $next): Response
    {
        if (! config('auth.two_factor')) {
            return $next($request);
        }
        return $request->user()->hasTwoFactor() ? $next($request) : redirect('/2fa');
    }
}
"""


def _chunks(path: str, language: str, text: str) -> list[Chunk]:
    return chunk_file(SourceFile(path, language, text, len(text)))


def _at(path: str, language: str, text: str, needle: str) -> tuple[Chunk, int]:
    """The chunk holding the first line with ``needle``, and that line's number."""
    line = next(n for n, row in enumerate(text.split("\n"), start=1) if needle in row)
    return next(c for c in _chunks(path, language, text) if c.start_line <= line <= c.end_line), line


def _matches(path: str, language: str, text: str, framework: str, question: str = LOGGING) -> list:
    conventions = [c for c in load_all() if c.name == framework]
    return [m for c in _chunks(path, language, text) for m in matches_in(c, conventions, intents(question))]


def test_a_django_middleware_that_hands_requests_straight_on_is_no_place_that_sees_every_request() -> None:
    found = {m.chunk.symbol.split(".")[0]: m for m in _matches("netbox/middleware.py", "python", NETBOX, "Django")}
    core, remote = found["CoreMiddleware"], found["RemoteUserMiddleware"]
    assert core.every_request and "hands" not in core.phrase, core
    assert not remote.every_request, remote
    assert remote.phrase.endswith("hands the request straight on when `not settings.REMOTE_AUTH_ENABLED`"), remote
    assert remote.weight < core.weight  # the middleware that sees every request leads
    asked = "How does user authentication flow through the system?"  # there its test is part of the mechanism
    found = {
        m.chunk.symbol.split(".")[0]: m for m in _matches("netbox/middleware.py", "python", NETBOX, "Django", asked)
    }
    assert found["RemoteUserMiddleware"].weight == found["CoreMiddleware"].weight
    assert "REMOTE_AUTH_ENABLED" in found["RemoteUserMiddleware"].phrase


def test_a_first_test_that_does_work_before_handing_on_narrows_nothing() -> None:
    assert passes_on_when(*_at("app/middleware.py", "python", WORKS_FIRST, "def __call__")) is None


def test_express_and_laravel_middleware_that_hand_requests_on_unless_a_setting_is_on() -> None:
    assert passes_on_when(*_at("server/app.js", "javascript", EXPRESS, "app.use((req")) == "!config.auditEnabled"
    for registered in ("app.use(helmet", "app.use(cors", "app.use(compression"):  # a registration has no body
        assert passes_on_when(*_at("server/app.js", "javascript", EXPRESS, registered)) is None, registered
    laravel = _at("app/Http/Middleware/EnsureTwoFactor.php", "php", LARAVEL, "function handle")
    assert passes_on_when(*laravel) == "! config('auth.two_factor')"


# hackathon-starter (Express, dev) app.js, lines 420-436 (shortened): asked what happens when an API request fails, the
# answer said the 404 catch-all "adds the middleware written here to every request's chain" and that the app "adds
# `errorHandler` to every request's middleware chain"
CATCH_ALL = """const app = express();
app.get('/api', apiController.getApi);

/**
 * Handle 404 errors
 */
app.use((req, res, next) => {
  const err = new Error('Not Found');
  err.status = 404;
  res.status(404).send('Page Not Found');
});

if (process.env.NODE_ENV === 'development') {
  app.use(errorHandler());
}
"""


def test_the_404_catch_all_and_the_error_handler_are_no_step_of_every_request() -> None:
    found = _matches("app.js", "javascript", CATCH_ALL, "Express", "What happens when an API request fails?")
    said = {m.line: m for m in found}
    catch_all = next(n for n, text in enumerate(CATCH_ALL.split("\n"), start=1) if "app.use((req" in text)
    assert not said[catch_all].every_request, said[catch_all]
    assert said[catch_all].phrase.startswith("answers 404 to the requests no route"), said[catch_all]
    handler = next(n for n, text in enumerate(CATCH_ALL.split("\n"), start=1) if "errorHandler()" in text)
    assert handler not in said or "every request" not in said[handler].phrase, said[handler]
