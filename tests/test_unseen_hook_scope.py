"""Where a hook runs, read from its registration (#35, scope2): "every request" only for what the whole app runs.

Read in dev 183's and the real-size set's answers, and on probe apps:

- koel and monica (Laravel 11, ``bootstrap/app.php``): "`app.php` … adds middleware to every request of the app" for
  ``$middleware->api(prepend: [...])`` and ``$middleware->web(append: [...])``: those fill the ``api`` and ``web``
  route groups (the routes that use them), not the global stack (``$middleware->append(…)``); monica's
  ``$middleware->web(remove: [...])`` takes one out;
- nestjs-boilerplate: "`validation-options.ts` validates every request; a failure becomes an error response (a global
  pipe)" for the options object's ``exceptionFactory:`` — the pipe is made global in ``main.ts``
  (``app.useGlobalPipes(new ValidationPipe(validationOptions))``), the options file validates nothing;
- ghostfolio (NestJS): ``export class BullBoardAuthMiddleware implements NestMiddleware`` was said to run "around
  every request it is applied to (an interceptor)": it is middleware, run on the routes ``forRoutes`` gives it;
- hexpm: "`HexpmWeb.AuthController` … runs the `Ueberauth` plug on each request": a controller's plug runs on the
  requests that controller handles;
- opengist (Echo, its own ``Router``) and remark42 (routegroup): ``sA.Use(logged)`` below
  ``sA := r.SubGroup("/-/settings")`` and ``rapi.Use(apiCSPMiddleware)`` below ``rapi := router.Mount("/api/v1")``
  were "in front of the routes" with no word of which: the group's prefix and the line that makes it say it;
- overseerr (Express): ``server.use('/imageproxy', clearCookies, imageproxy)`` was "the middleware chain of the routes
  it mounts": it adds ``clearCookies`` to the requests under ``/imageproxy``;
- ruoyi (Spring): ``implements HandlerInterceptor`` was said to run "before and after each request handler" and taken
  for every request's hook, when its registration (``addPathPatterns``) decides which paths it sees;
- DocuSeal (Rails): a filter of ``Api::ApiBaseController`` runs for the API's controllers, not "for every controller
  (a filter in `ApplicationController`)".
"""

from __future__ import annotations

from codeqa.answer.explanation.code.keylines import question_terms
from codeqa.answer.explanation.constructs.mechanism import Match, matches_in
from codeqa.answer.explanation.said.phrasing import said_of
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk

LOGGING = "Where would I add logging to track user behavior?"
AUTH = "How does user authentication flow through the system?"
ERRORS = "What happens when an API request fails?"

KOEL_APP = """    ->withMiddleware(static function (Middleware $middleware): void {
        $middleware->api(prepend: [
            AddRequestContextForLogging::class,
        ]);

        $middleware->web(prepend: [
            AddRequestContextForLogging::class,
        ]);

        $middleware->api(append: [
            RestrictPlusFeatures::class,
            HandleDemoMode::class,
            ForceHttps::class,
        ]);
"""
MONICA_APP = """        $middleware->web(remove: [
            \\Illuminate\\Routing\\Middleware\\SubstituteBindings::class,
        ]);
        $middleware->web(append: [
            \\CodeZero\\Localizer\\Middleware\\SetLocale::class,"""
VALIDATION_OPTIONS = """const validationOptions: ValidationPipeOptions = {
  transform: true,
  whitelist: true,
  errorHttpStatusCode: HttpStatus.UNPROCESSABLE_ENTITY,
  exceptionFactory: (errors: ValidationError[]) => {
    return new UnprocessableEntityException({
      status: HttpStatus.UNPROCESSABLE_ENTITY,
      errors: generateErrors(errors),
    });
  },
};"""
NEST_MAIN = """  app.enableVersioning({
    type: VersioningType.URI,
  });
  app.useGlobalPipes(new ValidationPipe(validationOptions));"""
BULL_BOARD_AUTH = """@Injectable()
export class BullBoardAuthMiddleware implements NestMiddleware {
  public use(req: Request, res: Response, next: NextFunction) {"""
PERFORMANCE_LOGGING = """@Injectable()
export class PerformanceLoggingInterceptor implements NestInterceptor {"""
AUTH_CONTROLLER = """defmodule HexpmWeb.AuthController do
  use HexpmWeb, :controller
  plug :check_oauth_config when action in [:request]
  plug Ueberauth
"""
OPENGIST_ROUTES = """		r.GET("/mfa", auth.Mfa, inMFASession)
		r.POST("/mfa/totp/assertion", auth.AssertTotp, inMFASession)

		sA := r.SubGroup("/-/settings")
		{
			sA.Use(logged)
			sA.GET("", settings.UserAccount)"""
REMARK42_ROUTES = """	router := routegroup.New(http.NewServeMux())
	router.Use(R.Throttle(1000), realIPMiddleware(s.TrustedProxies), R.Recoverer(log.Default()))
	router.Use(securityHeadersMiddleware(s.ExternalImageProxy, s.AllowedAncestors))

	authMiddleware := s.Authenticator.Middleware()

	// api routes
	rapi := router.Mount("/api/v1")
	rapi.Use(apiCSPMiddleware)"""
OVERSEERR_SERVER = """    server.use('/api/v1', routes);

    // Do not set cookies so CDNs can cache them
    server.use('/imageproxy', clearCookies, imageproxy);"""
RUOYI_CONFIG = """    @Override
    public void addInterceptors(InterceptorRegistry registry)
    {
        registry.addInterceptor(repeatSubmitInterceptor).addPathPatterns("/**");
    }"""
RUOYI_INTERCEPTOR = """@Component
public abstract class RepeatSubmitInterceptor implements HandlerInterceptor
{
    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler)
            throws Exception"""
DOCUSEAL_API_BASE = """module Api
  class ApiBaseController < ActionController::API
    include ActiveStorage::SetCurrent
    include Pagy::Method

    DEFAULT_LIMIT = 10
    MAX_LIMIT = 100

    impersonates :user, with: ->(uuid) { User.find_by(uuid:) }

    wrap_parameters false

    before_action :authenticate_user!"""


def _matches(path: str, language: str, start: int, text: str, framework: str, question: str) -> dict[int, Match]:
    chunk = Chunk(path, language, start, start + text.count("\n"), text, "", "module", "api")
    conventions = [c for c in load_all() if c.name == framework]
    return {m.line: m for m in matches_in(chunk, conventions, intents(question))}


def test_a_laravel_route_groups_middleware_is_not_every_requests() -> None:
    found = _matches("bootstrap/app.php", "php", 35, KOEL_APP, "Laravel", LOGGING)
    assert found[35].every_request and found[35].phrase == "sets up the app's middleware"  # where to add one
    api, web = found[36], found[40]
    assert not api.every_request and not web.every_request
    assert api.phrase == "adds middleware to the `api` routes only (a route group's middleware)"
    assert web.phrase == "adds middleware to the `web` routes only (a route group's middleware)"
    said = said_of(list(found.values()), question_terms(LOGGING))
    assert "every request" not in said and "routes only (a route group's middleware)" in said, said
    removed = _matches("bootstrap/app.php", "php", 32, MONICA_APP, "Laravel", AUTH)
    assert 32 not in removed  # `web(remove: [...])` adds nothing
    assert removed[35].phrase == "adds middleware to the `web` routes only (a route group's middleware)"


def test_nest_validation_options_are_no_global_pipe() -> None:
    options = _matches("src/utils/validation-options.ts", "typescript", 25, VALIDATION_OPTIONS, "NestJS", ERRORS)
    said = [m.phrase for m in options.values()]
    assert "turns a failed validation into an error response (`exceptionFactory`)" in said
    assert not any("every request" in phrase or "global pipe" in phrase for phrase in said)
    main = _matches("src/main.ts", "typescript", 43, NEST_MAIN, "NestJS", ERRORS)
    assert main[46].phrase == "validates every request; a failure becomes an error response (a global pipe)"


def test_a_nest_middleware_is_no_interceptor() -> None:
    path = "apps/api/src/middlewares/bull-board-auth.middleware.ts"
    middleware = _matches(path, "typescript", 8, BULL_BOARD_AUTH, "NestJS", LOGGING)[9]
    assert not middleware.every_request and "interceptor" not in middleware.phrase
    assert middleware.phrase == "is middleware: it runs before the route handlers it is applied to (`NestMiddleware`)"
    path = "apps/api/src/interceptors/performance-logging/performance-logging.interceptor.ts"
    interceptor = _matches(path, "typescript", 12, PERFORMANCE_LOGGING, "NestJS", LOGGING)[13]
    assert interceptor.phrase == "runs around every request it is applied to (an interceptor)"


def test_a_controllers_plug_runs_on_the_requests_it_handles() -> None:
    found = _matches("lib/hexpm_web/controllers/auth_controller.ex", "elixir", 1, AUTH_CONTROLLER, "Phoenix", AUTH)
    assert found[4].phrase == "runs the `Ueberauth` plug on each request it handles"
    assert found[3].phrase == "runs the `check_oauth_config` plug on some actions (`when action in [:request]`)"


def test_a_go_groups_middleware_names_the_groups_prefix_and_line() -> None:
    opengist = _matches("internal/web/server/router.go", "go", 61, OPENGIST_ROUTES, "Go net/http", LOGGING)
    assert not opengist[66].every_request
    assert opengist[66].phrase == (
        "puts `logged` in front of the routes of the group under `/-/settings` made on line 64 (middleware)"
    )
    remark42 = _matches("backend/app/rest/api/rest.go", "go", 219, REMARK42_ROUTES, "Go net/http", LOGGING)
    assert remark42[220].every_request and "every route" in remark42[220].phrase  # the root router's own
    assert not remark42[227].every_request
    assert remark42[227].phrase == (
        "puts `apiCSPMiddleware` in front of the routes of the group under `/api/v1` made on line 226 (middleware)"
    )


def test_express_middleware_under_a_path_says_the_path() -> None:
    found = _matches("server/index.ts", "typescript", 184, OVERSEERR_SERVER, "Express", LOGGING)
    assert 184 not in found  # `server.use('/api/v1', routes)` mounts routes
    assert not found[187].every_request
    assert found[187].phrase == (
        "adds `clearCookies` to the middleware chain of the requests under `/imageproxy` (run in `app.use` order)"
    )


def test_a_spring_interceptor_runs_where_its_registration_says() -> None:
    path = "ruoyi-framework/src/main/java/com/ruoyi/framework/interceptor/RepeatSubmitInterceptor.java"
    interceptor = _matches(path, "java", 19, RUOYI_INTERCEPTOR, "Spring", LOGGING)
    assert not interceptor[20].every_request and "registered for" in interceptor[20].phrase
    config = "ruoyi-framework/src/main/java/com/ruoyi/framework/config/ResourcesConfig.java"
    every = _matches(config, "java", 45, RUOYI_CONFIG, "Spring", LOGGING)
    assert every[46].every_request  # `addPathPatterns("/**")`: every path
    narrowed = _matches(config, "java", 45, RUOYI_CONFIG.replace('"/**"', '"/system/**"'), "Spring", LOGGING)
    assert not narrowed[46].every_request and "path patterns" in narrowed[46].phrase


def test_an_api_base_controllers_filter_is_the_apis() -> None:
    found = _matches("app/controllers/api/api_base_controller.rb", "ruby", 3, DOCUSEAL_API_BASE, "Rails", AUTH)
    filter_ = found[15]
    assert not filter_.every_request
    assert filter_.phrase == (
        "runs `authenticate_user!` for every controller of the API (a filter in the API's base controller)"
    )
    assert "ApplicationController" not in filter_.phrase
