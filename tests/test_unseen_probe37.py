"""False and misleading sentences on two apps in no data set (probe37: apolloconfig/apollo, a Spring Boot
configuration center, and muety/wakapi, a Go chi coding-statistics server):

- "**Not found:** nothing in this index mentions “only”" of an index where 28 files say it: the question word's
  stem (`onli`) was stemmed again on its way to the index (`on`, a stopword no row holds);
- "`MetricsHandler.RegisterRoutes` puts `middlewares.NewAuthenticateMiddleware` in front of every route": the
  middleware is on a router the method makes (`r := chi.NewRouter()`) and mounts under `/metrics`
  (`router.Mount("/metrics", r)`); so is the login handler's on the `/logout` router ("in front of the routes", of
  which none said);
- "`DefaultConfigService` … uses `grayReleaseRulesHolder` (`ConfigServiceAutoConfiguration.java:66-69`)" and
  "`releaseMessageScanner` … uses `configService` (…:71-79)": the class's field and constructor parameter, and the
  bean method's parameter, are named like a Spring `@Bean` method; a bare read of one is the value it holds;
- "`GlobalDefaultExceptionHandler.handleError` (…:117-150) … is called by `exception`, … and `restTemplateException`":
  they call the class's other `handleError`, the one taking three arguments (``calls.overloads``);
- "`MetricsHandler.RegisterRoutes` puts … in front of the routes … (middleware). Then `MetricsHandler.RegisterRoutes`
  logs with `slog.Info(…)` (`routes/api/metrics.go:91`)": the log runs above the construct the sentence before told
  (line 94); it is what the method also does;
- "`ServerAccessKeyOpenApiService.findAccessKeys` calls `findByAppId` (`apollo-biz/…/AccessKeyService.java:27-45`)":
  the file imports `com.ctrip.framework.apollo.portal.service.AccessKeyService`, the portal's class of that name; and
  "`AppService.createAppInLocal` … calls `createDefaultAppNamespace` (`apollo-biz/…/AppNamespaceService.java:104-121`)":
  with no import, `appNamespaceService` is the portal's `AppNamespaceService`, in `AppService`'s own package; and
  "`ReleaseController.rollback` (adminservice) … calls `rollback` (`apollo-portal/…/ReleaseService.java:146-161`)":
  the link was read off the controller's own head, `public void rollback(@PathVariable("releaseId") long releaseId,`,
  whose annotated parameter hid that it is a head;
- "`PortalUserSessionFilter` … runs on every request of the `apollo-portal` app (a servlet or security filter)": the
  filter's registration (`filter.addUrlPatterns("/openapi/*")` in `AuthFilterConfiguration`) runs it on the OpenAPI's
  requests only;
- "`OpenApiModelConverters.fromAccessKeyDTO` … Its documentation says: “region Permission and access key
  conversions”": an editor's folding marker over a group of methods, not the method's documentation; and
  "Its documentation says: “WakaTimeURL returns the user's effective WakaTime URL, i.e.”" cut a sentence at an
  abbreviation, and "“https://github.com/go-gorm/gorm/issues/5789 https://…”" quoted two links as what a struct does;
- "`AuthenticateMiddleware.WithOptionalFor (+4)` … handles the request": a builder's setter, its head returning the
  middleware's struct (`*AuthenticateMiddleware`), not a handler or middleware function.
"""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.calls.byname import holds_by_name
from codeqa.answer.explanation.calls.declared import declared_local
from codeqa.answer.explanation.calls.flow import Use
from codeqa.answer.explanation.code.keylines import KeyLine
from codeqa.answer.explanation.code.outline import summary
from codeqa.answer.explanation.constructs.mechanism import Match, matches_in
from codeqa.answer.explanation.constructs.springfilter import registered_paths
from codeqa.answer.explanation.explain import Step
from codeqa.answer.explanation.said.told import then_and_also
from codeqa.answer.explanation.sources.missing import missing_words
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk, Hit
from codeqa.searchfiles.lexical import LexicalIndex
from codeqa.tokens import code_tokens

# apolloconfig/apollo apollo-configservice/.../service/config/DefaultConfigService.java, lines 30-45
DEFAULT_CONFIG_SERVICE = """/**
 * config service with no cache
 *
 * @author Jason Song(song_s@ctrip.com)
 */
public class DefaultConfigService extends AbstractConfigService {

  private final ReleaseService releaseService;
  private final GrayReleaseRulesHolder grayReleaseRulesHolder;

  public DefaultConfigService(final ReleaseService releaseService,
      final GrayReleaseRulesHolder grayReleaseRulesHolder) {
    super(grayReleaseRulesHolder);
    this.releaseService = releaseService;
    this.grayReleaseRulesHolder = grayReleaseRulesHolder;
  }
"""

# apolloconfig/apollo apollo-common/.../common/condition/ConditionalOnProfile.java, lines 27-36
ON_PROFILE = """/**
 * {@link Conditional} that only matches when the specified profiles are active.
 *
 * @author Jason Song(song_s@ctrip.com)
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Conditional(OnProfileCondition.class)
public @interface ConditionalOnProfile {
"""

ROOT = "apollo-configservice/src/main/java/com/ctrip/framework/apollo/configservice/service/config"


def _only_question_chunks() -> tuple[Chunk, Chunk]:
    shown = Chunk(f"{ROOT}/DefaultConfigService.java", "java", 30, 45, DEFAULT_CONFIG_SERVICE, "DefaultConfigService",
                  "class", "service")  # fmt: skip
    other = Chunk("apollo-common/src/main/java/com/ctrip/framework/apollo/common/condition/ConditionalOnProfile.java",
                  "java", 27, 36, ON_PROFILE, "ConditionalOnProfile", "class", "other")  # fmt: skip
    return shown, other


def test_a_word_the_index_holds_is_not_said_missing_though_its_stem_stemmed_again_is_a_stopword() -> None:
    shown, other = _only_question_chunks()
    question = "How does a gray release send new configuration to only some instances?"
    assert code_tokens(code_tokens("only")[0]) != code_tokens("only")  # the stem is not a fixed point
    in_memory = AnswerContext.from_chunks([shown, other], [])
    assert "only" not in missing_words(question, [shown], in_memory)
    lexical = LexicalIndex.build(code_tokens(chunk.text) for chunk in in_memory.chunks(range(len(in_memory.table))))
    in_memory.lexical = lexical  # the index's path: BM25 over the same tokens
    assert "only" not in missing_words(question, [shown], in_memory)
    assert "instances" in missing_words(question, [shown], in_memory)  # a word no row holds is still said missing


# muety/wakapi routes/api/metrics.go, lines 86-98
METRICS_ROUTES = """func (h *MetricsHandler) RegisterRoutes(router chi.Router) {
	if !h.config.Security.ExposeMetrics {
		return
	}

	slog.Info("exposing prometheus metrics under /api/metrics")

	r := chi.NewRouter()
	r.Use(middlewares.NewAuthenticateMiddleware(h.userSrvc).Handler)
	r.Get("/", h.Get)

	router.Mount("/metrics", r)
}
"""

# muety/wakapi routes/login.go, lines 86-96
LOGOUT_ROUTES = """	authMiddleware := middlewares.NewAuthenticateMiddleware(h.userSrvc).
		WithRedirectTarget(defaultErrorRedirectTarget()).
		WithRedirectErrorMessage("unauthorized").
		WithOptionalFor("/logout")

	logoutRouter := chi.NewRouter()
	logoutRouter.Use(authMiddleware.Handler)
	logoutRouter.Post("/", h.PostLogout)
	router.Mount("/logout", logoutRouter)
}
"""

# the root router, served whole (a main.go's shape: `router := chi.NewRouter()`, `router.Use(…)`, then served)
ROOT_ROUTES = """	router := chi.NewRouter()
	router.Use(middlewares.NewPrincipalMiddleware())
	router.Use(middlewares.NewLoggingMiddleware(slog.Info, []string{"/assets"}))
	apiRouter := chi.NewRouter()
	apiRouter.Use(middlewares.NewPrincipalMiddleware())
	router.Mount("/api", apiRouter)
	listen(router)
"""


def _go_matches(path: str, start: int, text: str, question: str) -> dict[int, Match]:
    chunk = Chunk(path, "go", start, start + text.count("\n"), text, "RegisterRoutes", "method", "api")
    conventions = [c for c in load_all() if c.name == "Go net/http"]
    return {m.line: m for m in matches_in(chunk, conventions, intents(question))}


def test_middleware_on_a_router_mounted_under_a_path_is_not_every_routes() -> None:
    metrics = _go_matches(
        "routes/api/metrics.go", 86, METRICS_ROUTES, "Where would I add logging to track user behavior?"
    )
    assert not metrics[94].every_request
    assert metrics[94].phrase == (
        "puts `middlewares.NewAuthenticateMiddleware` in front of the routes of the router mounted under `/metrics` "
        "on line 97 (middleware)"
    )
    logout = _go_matches("routes/login.go", 86, LOGOUT_ROUTES, "How does user authentication flow through the system?")
    assert logout[92].phrase == (
        "puts `authMiddleware.Handler` in front of the routes of the router mounted under `/logout` on line 94 "
        "(middleware)"
    )
    piece = LOGOUT_ROUTES[: LOGOUT_ROUTES.index("\trouter.Mount")]  # the index's piece ends above the mount
    cut = _go_matches("routes/login.go", 86, piece, "How does user authentication flow through the system?")
    assert cut[92].phrase == (
        "puts `authMiddleware.Handler` in front of the routes of `logoutRouter`, made on line 91 (middleware)"
    )
    root = _go_matches("main.go", 300, ROOT_ROUTES, "Where would I add logging to track user behavior?")
    assert root[301].every_request and "every route" in root[301].phrase  # the root router, mounted nowhere
    assert root[304].phrase.endswith(
        "in front of the routes of the router mounted under `/api` on line 305 (middleware)"
    )


CONFIG_ROOT = "apollo-configservice/src/main/java/com/ctrip/framework/apollo/configservice"

# apolloconfig/apollo apollo-configservice/.../ConfigServiceAutoConfiguration.java, lines 66-79
BEAN_METHODS = """  @Bean
  public GrayReleaseRulesHolder grayReleaseRulesHolder() {
    return new GrayReleaseRulesHolder(grayReleaseRuleRepository, bizConfig);
  }

  @Bean
  public ConfigService configService() {
    // enable local cache
    if (bizConfig.isConfigServiceCacheEnabled()) {
      return new ConfigServiceWithCache(releaseService, releaseMessageService,
          grayReleaseRulesHolder(), bizConfig, meterRegistry);
    }
    return new DefaultConfigService(releaseService, grayReleaseRulesHolder());
  }
"""

# the same file, lines 108-130 (abridged to the lines that matter)
SCANNER_BEAN = """  @Bean
  public ReleaseMessageScanner releaseMessageScanner(
      final NotificationController notificationController,
      final GrayReleaseRulesHolder grayReleaseRulesHolder,
      final ConfigService configService, final ReleaseMessageRepository releaseMessageRepository) {
    ReleaseMessageScanner releaseMessageScanner =
        new ReleaseMessageScanner(bizConfig, releaseMessageRepository);
    releaseMessageScanner.addMessageListener(grayReleaseRulesHolder);
    releaseMessageScanner.addMessageListener(configService);
    return releaseMessageScanner;
  }
"""


def test_a_java_field_or_parameter_named_like_a_bean_method_is_no_use_of_it() -> None:
    holder = Chunk(f"{CONFIG_ROOT}/ConfigServiceAutoConfiguration.java", "java", 66, 69, BEAN_METHODS[:130],
                   "ConfigServiceAutoConfiguration.grayReleaseRulesHolder", "method", "config")  # fmt: skip
    service = Chunk(f"{ROOT}/DefaultConfigService.java", "java", 30, 45, DEFAULT_CONFIG_SERVICE, "DefaultConfigService",
                    "class", "service")  # fmt: skip
    use = Use("grayReleaseRulesHolder", 41, "uses", "super(grayReleaseRulesHolder);")
    assert not holds_by_name(service, holder, use, DEFAULT_CONFIG_SERVICE, None)
    scanner = Chunk(f"{CONFIG_ROOT}/ConfigServiceAutoConfiguration.java", "java", 108, 118, SCANNER_BEAN,
                    "ConfigServiceAutoConfiguration.releaseMessageScanner", "method", "config")  # fmt: skip
    config = Chunk(holder.path, "java", 71, 79, BEAN_METHODS[BEAN_METHODS.index("  @Bean\n  public Config"):],
                   "ConfigServiceAutoConfiguration.configService", "method", "config")  # fmt: skip
    use = Use("configService", 116, "uses", "releaseMessageScanner.addMessageListener(configService);")
    assert not holds_by_name(scanner, config, use, SCANNER_BEAN + BEAN_METHODS, None)
    # the bean method that calls `grayReleaseRulesHolder()` does use it
    assert not declared_local(BEAN_METHODS, "grayReleaseRulesHolder")
    assert declared_local("  private final ConfigService configService;\n", "configService")
    assert declared_local("  private final Map<String, List<Long>> configService;\n", "configService")
    assert not declared_local("    return configService.loadConfig(appId);\n", "configService")


# apolloconfig/apollo apollo-common/.../common/controller/GlobalDefaultExceptionHandler.java, lines 55-131 (abridged)
EXCEPTION_HANDLER = """@ControllerAdvice
public class GlobalDefaultExceptionHandler {

  private static final Logger logger = LoggerFactory.getLogger(GlobalDefaultExceptionHandler.class);

  // 处理系统内置的Exception
  @ExceptionHandler(Throwable.class)
  public ResponseEntity<Map<String, Object>> exception(HttpServletRequest request, Throwable ex) {
    return handleError(request, INTERNAL_SERVER_ERROR, ex);
  }

  @ExceptionHandler({HttpRequestMethodNotSupportedException.class, HttpMediaTypeException.class})
  public ResponseEntity<Map<String, Object>> badRequest(HttpServletRequest request,
      ServletException ex) {
    return handleError(request, BAD_REQUEST, ex, WARN);
  }

  private ResponseEntity<Map<String, Object>> handleError(HttpServletRequest request,
      HttpStatusCode status, Throwable ex) {
    return handleError(request, status, ex, ERROR);
  }

  private ResponseEntity<Map<String, Object>> handleError(HttpServletRequest request,
      HttpStatusCode status, Throwable ex, Level logLevel) {
    String message = getMessageWithRootCause(ex);
    printLog(message, ex, logLevel);

    Map<String, Object> errorAttributes = new HashMap<>();
    boolean errorHandled = false;
  }
}
"""


def _piece(first: int, last: int, symbol: str) -> Chunk:
    """The method at file lines ``first``-``last`` of the handler (its first line is file line 55)."""
    body = "\n".join(EXCEPTION_HANDLER.split("\n")[first - 55 : last - 55 + 1])
    path = "apollo-common/src/main/java/com/ctrip/framework/apollo/common/controller/GlobalDefaultExceptionHandler.java"
    return Chunk(path, "java", first, last, body, f"GlobalDefaultExceptionHandler.{symbol}", "method", "api")


def test_a_bare_call_links_to_the_overload_its_arguments_fit() -> None:
    exception, bad_request = _piece(61, 64, "exception"), _piece(66, 70, "badRequest")
    three, four = _piece(72, 75, "handleError"), _piece(77, 84, "handleError")
    assert three.text.count("Throwable ex)") == 1 and "Level logLevel" in four.text
    from_exception = Use("handleError", 63, "calls", "return handleError(request, INTERNAL_SERVER_ERROR, ex);")
    assert holds_by_name(exception, three, from_exception, EXCEPTION_HANDLER, None)
    assert not holds_by_name(exception, four, from_exception, EXCEPTION_HANDLER, None)
    from_bad_request = Use("handleError", 69, "calls", "return handleError(request, BAD_REQUEST, ex, WARN);")
    assert holds_by_name(bad_request, four, from_bad_request, EXCEPTION_HANDLER, None)
    assert not holds_by_name(bad_request, three, from_bad_request, EXCEPTION_HANDLER, None)
    from_three = Use("handleError", 74, "calls", "return handleError(request, status, ex, ERROR);")
    assert holds_by_name(three, four, from_three, EXCEPTION_HANDLER, None)
    # a method the file defines once keeps its link, whatever the call's line shows
    renamed = "handleFailure(HttpServletRequest request,\n      HttpStatusCode status, Throwable ex)"
    one = EXCEPTION_HANDLER.replace(renamed.replace("handleFailure", "handleError"), renamed)
    assert holds_by_name(exception, four, Use("handleError", 63, "calls", "return handleError("), one, None)


def test_a_line_above_the_construct_told_is_what_the_function_also_does() -> None:
    matches = list(_go_matches("routes/api/metrics.go", 86, METRICS_ROUTES, "Where would I add logging?").values())
    chunk = Chunk(
        "routes/api/metrics.go", "go", 86, 98, METRICS_ROUTES, "MetricsHandler.RegisterRoutes", "method", "api"
    )
    step = Step(1, Hit(chunk, 1.0, chunk.id), "is a method", [], "", matches=matches)
    used = [m for m in matches if m.line == 94]
    logs = ("logs with", step, KeyLine(91, '\tslog.Info("exposing prometheus metrics under /api/metrics")'))
    mounts = ("answers with", step, KeyLine(97, '\trouter.Mount("/metrics", r)'))
    assert then_and_also([logs, mounts], step, None, "", [(step, used)]) == ([mounts], [logs])
    assert then_and_also([logs], step, None, "", []) == ([logs], [])  # no construct told: it may follow


# apolloconfig/apollo apollo-portal/.../openapi/server/service/ServerAccessKeyOpenApiService.java, lines 17-47
OPEN_API_ACCESS_KEYS = """package com.ctrip.framework.apollo.openapi.server.service;

import static com.ctrip.framework.apollo.common.constants.AccessKeyMode.FILTER;

import com.ctrip.framework.apollo.common.dto.AccessKeyDTO;
import com.ctrip.framework.apollo.openapi.model.OpenAccessKeyDTO;
import com.ctrip.framework.apollo.openapi.util.OpenApiModelConverters;
import com.ctrip.framework.apollo.portal.environment.Env;
import com.ctrip.framework.apollo.portal.service.AccessKeyService;
import java.util.List;
import org.springframework.stereotype.Service;

/**
 * Default server-side OpenAPI implementation for access key management.
 */
@Service
public class ServerAccessKeyOpenApiService implements AccessKeyOpenApiService {

  private final AccessKeyService accessKeyService;

  public ServerAccessKeyOpenApiService(AccessKeyService accessKeyService) {
    this.accessKeyService = accessKeyService;
  }

  @Override
  public List<OpenAccessKeyDTO> findAccessKeys(String appId, String env) {
    return OpenApiModelConverters
        .fromAccessKeyDTOs(accessKeyService.findByAppId(normalizeEnv(env), appId));
  }
"""

# apollo-biz/.../biz/service/AccessKeyService.java, lines 27-45 (abridged), and apollo-portal/.../portal/service/
# AccessKeyService.java, lines 29-40
BIZ_ACCESS_KEYS = """@Service
public class AccessKeyService {

  private final AccessKeyRepository accessKeyRepository;

  public List<AccessKey> findByAppId(String appId) {
    return accessKeyRepository.findByAppId(appId);
  }
"""
PORTAL_ACCESS_KEYS = """@Service
public class AccessKeyService {

  private final AdminServiceAPI.AccessKeyAPI accessKeyAPI;

  public List<AccessKeyDTO> findByAppId(Env env, String appId) {
    return accessKeyAPI.findByAppId(env, appId);
  }
"""


def test_a_receiver_named_as_a_class_the_file_imports_from_another_package_is_not_its_namesakes() -> None:
    root = "apollo-portal/src/main/java/com/ctrip/framework/apollo"
    user = Chunk(f"{root}/openapi/server/service/ServerAccessKeyOpenApiService.java", "java", 17, 47,
                 OPEN_API_ACCESS_KEYS, "ServerAccessKeyOpenApiService", "class", "service")  # fmt: skip
    biz = Chunk("apollo-biz/src/main/java/com/ctrip/framework/apollo/biz/service/AccessKeyService.java", "java", 27,
                34, BIZ_ACCESS_KEYS, "AccessKeyService", "class", "service")  # fmt: skip
    portal = Chunk(f"{root}/portal/service/AccessKeyService.java", "java", 29, 36, PORTAL_ACCESS_KEYS,
                   "AccessKeyService", "class", "service")  # fmt: skip
    use = Use("findByAppId", 46, "calls", ".fromAccessKeyDTOs(accessKeyService.findByAppId(normalizeEnv(env), appId));")
    assert not holds_by_name(user, biz, use, OPEN_API_ACCESS_KEYS, None)
    assert holds_by_name(user, portal, use, OPEN_API_ACCESS_KEYS, None)
    unimported = OPEN_API_ACCESS_KEYS.replace(
        "import com.ctrip.framework.apollo.portal.service.AccessKeyService;\n", ""
    )
    assert holds_by_name(user, biz, use, unimported, None)  # no import read: the name still leads to it


# apolloconfig/apollo apollo-portal/.../openapi/util/OpenApiModelConverters.java, lines 494-500
REGION = """  // endregion

  // region Permission and access key conversions
  public static OpenAccessKeyDTO fromAccessKeyDTO(final AccessKeyDTO accessKey) {
    Preconditions.checkArgument(accessKey != null);
    return BeanUtils.transform(OpenAccessKeyDTO.class, accessKey);
  }
"""


def test_an_editors_folding_marker_is_no_documentation() -> None:
    path = "apollo-portal/src/main/java/com/ctrip/framework/apollo/openapi/util/OpenApiModelConverters.java"
    chunk = Chunk(path, "java", 494, 500, REGION, "OpenApiModelConverters.fromAccessKeyDTO", "method", "other")
    assert summary(chunk) == ""
    documented = REGION.replace("  public static", "  /** Converts an access key for the OpenAPI. */\n  public static")
    chunk = Chunk(path, "java", 494, 501, documented, "OpenApiModelConverters.fromAccessKeyDTO", "method", "other")
    assert summary(chunk) == "Converts an access key for the OpenAPI."  # the marker is left out, the doc kept
    kotlin = REGION.replace("// region", "//region").replace("// endregion", "//endregion")
    assert (
        summary(Chunk(path, "java", 494, 500, kotlin, "OpenApiModelConverters.fromAccessKeyDTO", "method", "x")) == ""
    )


# muety/wakapi models/user.go, lines 192-198, and models/leaderboard.go, lines 21-29
WAKATIME_URL = (
    "// WakaTimeURL returns the user's effective WakaTime URL, i.e. a custom one (which could also point to another "
    "Wakapi instance) or fallback if not specified otherwise.\n"
    """func (u *User) WakaTimeURL(fallback string) string {
\tif u.WakatimeApiUrl != "" {
\t\treturn strings.TrimSuffix(u.WakatimeApiUrl, "/")
\t}
\treturn fallback
}
"""
)
RANKED = """// https://github.com/go-gorm/gorm/issues/5789
// https://github.com/go-gorm/gorm/issues/5284#issuecomment-1107775806
type LeaderboardItemRanked struct {
	LeaderboardItem
	Rank uint
}
"""


def test_a_documentation_sentence_goes_past_an_abbreviation_and_links_alone_say_nothing() -> None:
    said = summary(Chunk("models/user.go", "go", 192, 198, WAKATIME_URL, "User.WakaTimeURL", "method", "model"))
    assert said.startswith("WakaTimeURL returns the user's effective WakaTime URL, i.e. a custom one")
    assert (
        summary(Chunk("models/leaderboard.go", "go", 21, 26, RANKED, "LeaderboardItemRanked", "struct", "model")) == ""
    )
    noted = RANKED.replace("// https://github.com/go-gorm/gorm/issues/5789", "// Ranked items, see gorm#5789.")
    ranked = Chunk("models/leaderboard.go", "go", 21, 26, noted, "LeaderboardItemRanked", "struct", "model")
    assert summary(ranked).startswith("Ranked items, see gorm#5789.")


# codetriage app/models/email_rate_limit.rb, lines 46-50
RATE_LIMIT = """  # When a user provides a default frequency use that value
  # For instance if a user has "twice_a_week" selected as a default yet we calculate their
  # send rate as "daily" the higher value will be used i.e. "twice_a_week". If however
  # they are inactive and calculated frequency is "once_a_month" we will use that instead.
  def minimum_calculated_frequency
    frequency
  end
"""


def test_a_long_documentation_sentence_is_cut_between_words() -> None:
    name = "EmailRateLimit.minimum_calculated_frequency"
    chunk = Chunk("app/models/email_rate_limit.rb", "ruby", 46, 52, RATE_LIMIT, name, "method", "model")
    said = summary(chunk)
    assert said.endswith("the higher value will be used i.e.…"), said
    words = "  # " + "word " * 39 + "words and more words.\n  def minimum_calculated_frequency\n    frequency\n  end\n"
    said = summary(Chunk("app/models/email_rate_limit.rb", "ruby", 46, 49, words, name, "method", "model"))
    assert said.endswith("word words…"), said  # the 200th character ends a word: the word stays


# muety/wakapi middlewares/authenticate.go, lines 49-78
MIDDLEWARE_BUILDER = """func (m *AuthenticateMiddleware) WithOptionalFor(paths ...string) *AuthenticateMiddleware {
\tm.optionalForPaths = paths
\treturn m
}

func (m *AuthenticateMiddleware) WithOptionalForMethods(methods ...string) *AuthenticateMiddleware {
\tm.optionalForMethods = methods
\treturn m
}

func (m *AuthenticateMiddleware) Handler(h http.Handler) http.Handler {
\treturn http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
\t\tm.ServeHTTP(w, r, h.ServeHTTP)
\t})
}
"""


def test_a_go_builder_returning_the_middlewares_struct_does_not_handle_the_request() -> None:
    from codeqa.answer.explanation.said.lead import LAYER_VERBS
    from codeqa.answer.explanation.said.roles_said import role_phrase

    def role(text: str, symbol: str) -> str:
        chunk = Chunk("middlewares/authenticate.go", "go", 49, 49 + text.count("\n"), text, symbol, "method", "api")
        return role_phrase(chunk, LAYER_VERBS, "")

    assert role(MIDDLEWARE_BUILDER, "AuthenticateMiddleware.WithOptionalFor") == "is a method"
    handler = MIDDLEWARE_BUILDER[MIDDLEWARE_BUILDER.index("func (m *AuthenticateMiddleware) Handler") :]
    assert role(handler, "AuthenticateMiddleware.Handler") == "handles the request"  # it returns an `http.Handler`


# apolloconfig/apollo apollo-portal/.../portal/service/AppService.java, lines 146-167 (abridged)
CREATE_APP_IN_LOCAL = """  private App createAppInLocal(App app, String operator) {
    validateOperator(operator);
    String appId = app.getAppId();
    App createdApp = appRepository.save(app);

    appNamespaceService.createDefaultAppNamespace(appId, operator);
    roleInitializationService.initAppRoles(createdApp);
    return createdApp;
  }
"""
# apollo-biz/.../biz/service/AppNamespaceService.java, lines 104-108 (abridged), and the portal's file of that name
BIZ_DEFAULT_NAMESPACE = """  @Transactional
  @ApolloAuditLog(type = OpType.CREATE, name = "AppNamespace.createDefault")
  public void createDefaultAppNamespace(String appId, String createBy) {
    appNamespaceRepository.save(appNs);
  }
"""
PORTAL_APP_NAMESPACES = """package com.ctrip.framework.apollo.portal.service;

@Service
public class AppNamespaceService {
  public void createDefaultAppNamespace(String appId, String operator) {
  }
}
"""


class _Files:
    """The index's files as ``implements.Implementations`` reads them (a file it does not hold reads "")."""

    def __init__(self, texts: dict[str, str]) -> None:
        self.texts = texts

    def file_text(self, path: str) -> str:
        return self.texts.get(path, "")

    def reaches(self, declared: str, method: str, user: Chunk, used: Chunk, owners: set[str], user_file: str) -> bool:
        return False

    def overloaded(self, method: str, used: Chunk) -> bool:
        return False

    def imported_files(self, path: str) -> tuple[str, ...]:
        return ()

    def definitions(self, name: str) -> int:
        return 2

    def returns(self, owner: str, method: str) -> str | None:
        return None


def test_a_java_receiver_named_as_a_class_of_the_callers_own_package_is_that_class() -> None:
    portal = "apollo-portal/src/main/java/com/ctrip/framework/apollo/portal/service"
    user = Chunk(f"{portal}/AppService.java", "java", 146, 154, CREATE_APP_IN_LOCAL, "AppService.createAppInLocal",
                 "method", "service")  # fmt: skip
    path = "apollo-biz/src/main/java/com/ctrip/framework/apollo/biz/service/AppNamespaceService.java"
    name = "AppNamespaceService.createDefaultAppNamespace"
    biz = Chunk(path, "java", 102, 106, BIZ_DEFAULT_NAMESPACE, name, "method", "service")
    use = Use(
        "createDefaultAppNamespace", 151, "calls", "appNamespaceService.createDefaultAppNamespace(appId, operator);"
    )
    file = "package com.ctrip.framework.apollo.portal.service;\n\n" + CREATE_APP_IN_LOCAL
    files = _Files({f"{portal}/AppNamespaceService.java": PORTAL_APP_NAMESPACES})
    assert not holds_by_name(user, biz, use, file, files)
    assert holds_by_name(user, biz, use, file, _Files({}))  # no class of that name beside it: the name leads to biz's
    imported = file.replace("\n\n", "\n\nimport com.ctrip.framework.apollo.biz.service.AppNamespaceService;\n", 1)
    assert holds_by_name(user, biz, use, imported, files)  # imported by name, the biz class is the one it sees


# apolloconfig/apollo apollo-adminservice/.../adminservice/controller/ReleaseController.java, lines 182-202 (abridged)
ADMIN_ROLLBACK = """  @Transactional
  @PutMapping("/releases/{releaseId}/rollback")
  public void rollback(@PathVariable("releaseId") long releaseId,
      @RequestParam(name = "toReleaseId", defaultValue = "-1") long toReleaseId,
      @RequestParam("operator") String operator) {

    Release release;
    if (toReleaseId > -1) {
      release = releaseService.rollbackTo(releaseId, toReleaseId, operator);
    } else {
      release = releaseService.rollback(releaseId, operator);
    }
  }
"""
# apollo-portal/.../portal/service/ReleaseService.java, lines 155-161
PORTAL_ROLLBACK = """  public void rollback(Env env, long releaseId, String operator) {
    releaseAPI.rollback(env, releaseId, operator);
  }

  public void rollbackTo(Env env, long releaseId, long toReleaseId, String operator) {
    releaseAPI.rollbackTo(env, releaseId, toReleaseId, operator);
  }
"""


def test_a_java_methods_own_head_with_annotated_parameters_is_no_call_of_a_namesake() -> None:
    path = "apollo-adminservice/src/main/java/com/ctrip/framework/apollo/adminservice/controller/ReleaseController.java"
    user = Chunk(path, "java", 182, 194, ADMIN_ROLLBACK, "ReleaseController.rollback", "method", "api")
    service = "apollo-portal/src/main/java/com/ctrip/framework/apollo/portal/service/ReleaseService.java"
    names = "ReleaseService.rollback, ReleaseService.rollbackTo"
    portal = Chunk(service, "java", 155, 161, PORTAL_ROLLBACK, names, "method", "service")
    file = "import com.ctrip.framework.apollo.biz.service.ReleaseService;\n\n" + ADMIN_ROLLBACK
    head = Use("rollback", 184, "calls", '  public void rollback(@PathVariable("releaseId") long releaseId,')
    assert not holds_by_name(user, portal, head, file, None)
    call = Use("rollback", 192, "calls", "      release = releaseService.rollback(releaseId, operator);")
    assert not holds_by_name(user, portal, call, file, None)  # the biz `ReleaseService` the file imports


# apolloconfig/apollo apollo-portal/.../portal/filter/PortalUserSessionFilter.java, lines 39-52 (abridged)
SESSION_FILTER = """/**
 * Filter to handle Portal user session validation for OpenAPI requests.
 */
public class PortalUserSessionFilter implements Filter {

  private static final Logger logger = LoggerFactory.getLogger(PortalUserSessionFilter.class);
"""
# apollo-portal/.../portal/spi/configuration/AuthFilterConfiguration.java, lines 72-103 (abridged)
FILTER_BEANS = """  @Bean
  public FilterRegistrationBean<UserTypeResolverFilter> authTypeResolverFilter() {
    FilterRegistrationBean<UserTypeResolverFilter> authTypeResolverFilter =
        new FilterRegistrationBean<>();
    authTypeResolverFilter.setFilter(new UserTypeResolverFilter());
    authTypeResolverFilter.addUrlPatterns("/*");
    return authTypeResolverFilter;
  }

  @Bean
  public FilterRegistrationBean<PortalUserSessionFilter> portalUserSessionFilter(
      Environment environment) {
    FilterRegistrationBean<PortalUserSessionFilter> filter = new FilterRegistrationBean<>();

    filter.setFilter(new PortalUserSessionFilter(environment));
    filter.addUrlPatterns("/openapi/*");
    filter.setOrder(OPEN_API_AUTH_ORDER - 1);

    return filter;
  }
"""
# apollo-portal/.../portal/filter/UserTypeResolverFilter.java, line 36
RESOLVER_FILTER = """public class UserTypeResolverFilter extends OncePerRequestFilter {
"""


def test_a_spring_filter_runs_on_the_paths_its_registration_gives_it() -> None:
    root = "apollo-portal/src/main/java/com/ctrip/framework/apollo/portal"
    session = Chunk(f"{root}/filter/PortalUserSessionFilter.java", "java", 39, 44, SESSION_FILTER,
                    "PortalUserSessionFilter", "class", "api")  # fmt: skip
    resolver = Chunk(f"{root}/filter/UserTypeResolverFilter.java", "java", 36, 36, RESOLVER_FILTER,
                     "UserTypeResolverFilter", "class", "api")  # fmt: skip
    beans = Chunk(f"{root}/spi/configuration/AuthFilterConfiguration.java", "java", 74, 93, FILTER_BEANS,
                  "AuthFilterConfiguration", "class", "config")  # fmt: skip
    context = AnswerContext.from_chunks([session, resolver, beans], [])
    spring = [c for c in load_all() if c.name == "Spring"]
    question = intents("How does user authentication flow through the system?")
    said = registered_paths(context, matches_in(session, spring, question)[0])
    assert said.phrase == (
        "runs on the requests under `/openapi/*` (a servlet or security filter), registered at "
        f"`{root}/spi/configuration/AuthFilterConfiguration.java:88`"
    )
    assert said.narrowed
    every = matches_in(resolver, spring, question)[0]
    assert registered_paths(context, every) == every  # registered for `/*`: every request it is
