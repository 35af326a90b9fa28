"""False on halo (a Spring Boot WebFlux app in no data set), asked how user authentication flows:
"``OAuth2SecurityConfigurer`` … runs on every request (a servlet or security filter)" for a configurer whose
``configure`` puts a filter in the chain with ``http.addFilterBefore(…)``: the chain is built once, at start-up; the
filter it adds runs on each request, not the code that adds it (dev's jhipster ``SecurityConfiguration.filterChain``
said the same of a bean method). And "``HaloErrorConfiguration`` … calls ``HaloErrorWebExceptionHandler`` (…:23-29) and
``HaloErrorWebExceptionHandler`` (…:31-48)" for one ``new HaloErrorWebExceptionHandler(…)``: the class and its
constructor, chunked apart, are one definition called once. And, asked how a theme renders a post page,
"``AuthorPostsRouteFactory.postList`` … calls ``build`` (``ListOptions.java:132-143``)" for the ``.build()`` that ends
a chain begun with ``new UrlContextListResult.Builder<ListedPostVo>()``: a chain that starts by constructing a class
calls that class's methods, not a namesake's. Asked what happens when an API request fails:
"``SchemaViolationException`` … answers with an error status" for an exception whose constructor hands
``HttpStatus.BAD_REQUEST`` to its base class: it carries the status, whoever handles it answers. Asked how plugins are
loaded: "``PluginServiceImpl.reload`` … is called by ``PluginEndpoint.InstallFromUriRequest (+2)``", a record, for the
call made by the chunk's third definition, the method ``reload`` (a Java method's head has no ``def``). And
"``RsaKeyService.decrypt`` … is called by ``LoginAuthenticationConverterTest.shouldTriggerRateLimit``", a test that
verifies a ``@Mock CryptoService`` is never asked to decrypt: a mock's method runs no implementation."""

from __future__ import annotations

from codeqa.answer.explanation.calls.byname import holds_by_name, typed_receiver
from codeqa.answer.explanation.calls.callplace import caller_name
from codeqa.answer.explanation.calls.flow import Use
from codeqa.answer.explanation.code.linenames import holder_at
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.said.placing import same_definition
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk

AUTH = "How does user authentication flow through the system?"
# application/src/main/java/run/halo/app/security/authentication/oauth2/OAuth2SecurityConfigurer.java:40-45
CONFIGURER = """    @Override
    public void configure(ServerHttpSecurity http) {
        var mapOAuth2Filter = new MapOAuth2AuthenticationFilter(
                securityContextRepository, connectionService, authenticationSession, authenticationCache);
        http.addFilterBefore(mapOAuth2Filter, SecurityWebFiltersOrder.AUTHENTICATION);
    }"""
FILTER = """public class JWTFilter extends GenericFilterBean {

    @Override
    public void doFilter(ServletRequest servletRequest, ServletResponse servletResponse, FilterChain filterChain) {
        filterChain.doFilter(servletRequest, servletResponse);
    }
}"""


def _said(chunk: Chunk) -> list[str]:
    spring = [c for c in load_all() if c.name in ("Spring", "any framework")]
    return [m.phrase for m in matches_in(chunk, spring, intents(AUTH))]


def test_the_code_that_adds_a_filter_does_not_run_on_every_request():
    path = "application/src/main/java/run/halo/app/security/authentication/oauth2/OAuth2SecurityConfigurer.java"
    configure = Chunk(path, "java", 40, 45, CONFIGURER, "OAuth2SecurityConfigurer.configure", "method", "core")
    said = _said(configure)
    assert "adds a filter to Spring Security's filter chain" in said, said
    assert not any("every request" in phrase for phrase in said), said


def test_a_servlet_contexts_filter_is_not_spring_securitys():
    registration = """    public void onStartup(ServletContext servletContext) {
        FilterRegistration.Dynamic cors = servletContext.addFilter("corsFilter", corsFilter());
    }"""
    path = "src/main/java/app/config/WebConfigurer.java"
    chunk = Chunk(path, "java", 30, 32, registration, "WebConfigurer.onStartup",
                  "method", "config")  # fmt: skip
    assert "adds a filter to Spring Security's filter chain" not in _said(chunk)
    chained = CONFIGURER.replace("http.addFilterBefore(mapOAuth2Filter, SecurityWebFiltersOrder.AUTHENTICATION)",
                                 "http.csrf().disable()\n            .addFilter(mapOAuth2Filter)")  # fmt: skip
    configure = Chunk("src/main/java/app/config/SecurityConfig.java", "java", 40, 46, chained,
                      "SecurityConfig.configure", "method", "core")  # fmt: skip
    assert "adds a filter to Spring Security's filter chain" in _said(configure)


def test_a_filter_class_still_runs_on_every_request():
    jwt = Chunk("src/main/java/app/security/jwt/JWTFilter.java", "java", 1, 7, FILTER, "JWTFilter", "class", "core")
    assert "runs on every request (a servlet or security filter)" in _said(jwt)


# application/src/main/java/run/halo/app/infra/exception/handlers/HaloErrorWebExceptionHandler.java, chunked at 23-29
# (the class's head) and 31-48 (its constructor), as the index holds it
HANDLER_CLASS = """public class HaloErrorWebExceptionHandler extends DefaultErrorWebExceptionHandler {

    private static final Logger logger = LoggerFactory.getLogger(HaloErrorWebExceptionHandler.class);

    private final ThemeTemplateAvailabilityProvider templateAvailabilityProvider;"""
HANDLER_CONSTRUCTOR = """    public HaloErrorWebExceptionHandler(
            ErrorAttributes errorAttributes,
            WebProperties.Resources resources,
            ErrorProperties errorProperties,
            ApplicationContext applicationContext) {
        super(errorAttributes, resources, errorProperties, applicationContext);
    }"""
EXPIRE = """    public boolean expire(String key, long time, TimeUnit timeUnit) {
        return redisTemplate.expire(key, time, timeUnit);
    }"""


def test_a_class_and_its_constructor_are_one_callee():
    path = "application/src/main/java/run/halo/app/infra/exception/handlers/HaloErrorWebExceptionHandler.java"
    head = Chunk(path, "java", 23, 29, HANDLER_CLASS, "HaloErrorWebExceptionHandler", "class", "core")
    names = "HaloErrorWebExceptionHandler.HaloErrorWebExceptionHandler"
    constructor = Chunk(path, "java", 31, 48, HANDLER_CONSTRUCTOR, names, "method", "core")
    assert same_definition(constructor, "HaloErrorWebExceptionHandler")
    assert not same_definition(head, "HaloErrorWebExceptionHandler")


def test_an_overload_is_still_a_definition_of_its_own():
    overload = Chunk("src/main/java/app/utils/RedisUtils.java", "java", 80, 82, EXPIRE, "RedisUtils.expire", "method",
                     "util")  # fmt: skip
    assert not same_definition(overload, "expire")


# application/src/main/java/run/halo/app/theme/router/factories/AuthorPostsRouteFactory.java:91-113 (shortened)
POST_LIST = """    private Mono<UrlContextListResult<ListedPostVo>> postList(ServerRequest request, String name) {
        String path = request.path();
        int pageNum = pageNumInPathVariable(request);
        return configuredPageSize(environmentFetcher, SystemSetting.Post::getAuthorPageSize)
                .flatMap(pageSize -> postFinder.listByOwner(pageNum, pageSize, name))
                .map(list -> new UrlContextListResult.Builder<ListedPostVo>()
                        .listResult(list)
                        .nextUrl(PageUrlUtils.nextPageUrl(path, totalPage(list)))
                        .prevUrl(PageUrlUtils.prevPageUrl(path))
                        .build());
    }"""
LIST_OPTIONS_BUILD = """        public ListOptions build() {
            var listOptions = new ListOptions();
            return listOptions;
        }"""
RESULT_BUILD = """        public UrlContextListResult<T> build() {
            return new UrlContextListResult<>(listResult, nextUrl, prevUrl);
        }"""


def test_a_chain_begun_by_constructing_a_class_calls_that_classs_methods():
    path = "application/src/main/java/run/halo/app/theme/router/factories/AuthorPostsRouteFactory.java"
    caller = Chunk(path, "java", 91, 101, POST_LIST, "AuthorPostsRouteFactory.postList", "method", "core")
    options = Chunk("api/src/main/java/run/halo/app/extension/ListOptions.java", "java", 132, 135,
                    LIST_OPTIONS_BUILD, "ListOptions.ListOptionsBuilder.build", "method", "core")  # fmt: skip
    result = Chunk("application/src/main/java/run/halo/app/theme/router/UrlContextListResult.java", "java", 60, 62,
                   RESULT_BUILD, "UrlContextListResult.Builder.build", "method", "core")  # fmt: skip
    use = Use("build", 100, "calls", ".build());")
    whole = "\n" * 90 + POST_LIST  # the caller's file, its lines where the file has them
    assert not holds_by_name(caller, options, use, whole)
    assert holds_by_name(caller, result, use, whole)


def test_a_chain_begun_on_a_static_call_still_links_by_name():
    text = """    Mono<Void> list() {
        var options = ListOptions.builder()
                .labelSelector(selector)
                .build();
    }"""
    caller = Chunk("src/main/java/app/PostService.java", "java", 10, 14, text, "PostService.list", "method", "core")
    options = Chunk("api/src/main/java/run/halo/app/extension/ListOptions.java", "java", 132, 135,
                    LIST_OPTIONS_BUILD, "ListOptions.ListOptionsBuilder.build", "method", "core")  # fmt: skip
    assert holds_by_name(caller, options, Use("build", 13, "calls", ".build();"), "\n" * 9 + text)


# api/src/main/java/run/halo/app/extension/exception/SchemaViolationException.java:12-20
SCHEMA_VIOLATION = """public class SchemaViolationException extends ExtensionException {

    private final ValidationResults errors;

    public SchemaViolationException(GroupVersionKind gvk, ValidationResults errors) {
        super(HttpStatus.BAD_REQUEST, "Failed to validate " + gvk, null, null, new Object[] {gvk, errors});
        this.errors = errors;
    }"""


def test_an_exception_carrying_a_status_does_not_answer():
    errors = "What happens when an API request fails?"
    spring = [c for c in load_all() if c.name in ("Spring", "any framework")]
    path = "api/src/main/java/run/halo/app/extension/exception/SchemaViolationException.java"
    chunk = Chunk(path, "java", 12, 19, SCHEMA_VIOLATION, "SchemaViolationException", "class", "core")
    said = [m.phrase for m in matches_in(chunk, spring, intents(errors))]
    assert said == ["is an exception that carries an error status"], said
    handler = "        return ResponseEntity.status(HttpStatus.BAD_REQUEST).body(error);"
    answer = Chunk("src/main/java/app/web/ErrorHandler.java", "java", 30, 30, handler, "ErrorHandler.handle", "method",
                   "api")  # fmt: skip
    assert [m.phrase for m in matches_in(answer, spring, intents(errors))] == ["answers with an error status"]


# application/src/main/java/run/halo/app/core/endpoint/console/PluginEndpoint.java:432-451 (its comments shortened)
RECORDS = """    /** Payload for installing a plugin from a remote URI. */
    public record InstallFromUriRequest(
            @Schema(requiredMode = REQUIRED) URI uri) {}

    /** Payload for upgrading a plugin from a remote URI. */
    public record UpgradeFromUriRequest(
            @Schema(requiredMode = REQUIRED) URI uri) {}

    private Mono<ServerResponse> reload(ServerRequest serverRequest) {
        var name = serverRequest.pathVariable("name");
        return ServerResponse.ok().body(pluginService.reload(name), Plugin.class);
    }"""


def test_a_call_in_a_chunk_of_several_is_said_of_the_java_method_holding_it():
    path = "application/src/main/java/run/halo/app/core/endpoint/console/PluginEndpoint.java"
    names = "PluginEndpoint.InstallFromUriRequest, PluginEndpoint.UpgradeFromUriRequest, PluginEndpoint.reload"
    chunk = Chunk(path, "java", 432, 432 + RECORDS.count("\n"), RECORDS, names, "class", "api")
    text = "return ServerResponse.ok().body(pluginService.reload(name), Plugin.class);"
    line = chunk.start_line + [row.strip() for row in RECORDS.split("\n")].index(text)
    assert caller_name(Use("reload", line, "calls", text), chunk) == "PluginEndpoint.reload"


ASPECT = """@Component
@Aspect
public class LogAspect {

    private final SysLogService sysLogService;

    public LogAspect(SysLogService sysLogService) {
        this.sysLogService = sysLogService;
    }

    @Pointcut("@annotation(me.zhengjie.annotation.Log)")
    public void logPointcut() {
    }
}"""


def test_a_method_above_that_has_ended_holds_no_line_of_the_next():
    names = "LogAspect, LogAspect.LogAspect, LogAspect.logPointcut"
    chunk = Chunk("eladmin-logging/src/main/java/me/zhengjie/aspect/LogAspect.java", "java", 38, 52, ASPECT, names,
                  "class", "core")  # fmt: skip
    rows = ASPECT.split("\n")
    assert holder_at(chunk, 38 + rows.index("        this.sysLogService = sysLogService;")) == "LogAspect.LogAspect"
    assert holder_at(chunk, 38 + rows.index("@Aspect")) == "LogAspect"  # the class's annotation, not a method's
    pointcut = holder_at(chunk, 38 + rows.index('    @Pointcut("@annotation(me.zhengjie.annotation.Log)")'))
    assert pointcut in ("LogAspect", "LogAspect.logPointcut")  # never the constructor ended above it


# application/src/test/java/run/halo/app/security/authentication/login/LoginAuthenticationConverterTest.java (lines cut)
CONVERTER_TEST = """@ExtendWith(MockitoExtension.class)
class LoginAuthenticationConverterTest {

    @Mock
    CryptoService cryptoService;

    @Test
    void shouldTriggerRateLimit() {
        StepVerifier.create(converter.convert(exchange)).verifyError(RequestNotPermitted.class);
        verify(cryptoService, never()).decrypt(password.getBytes());
    }

    @Test
    void applyUsernameAndPasswordThenCreatesTokenSuccess() {
        when(cryptoService.decrypt(password.getBytes())).thenReturn(Mono.just(decryptedPassword.getBytes()));
    }
}"""
# application/src/main/java/run/halo/app/security/authentication/impl/RsaKeyService.java:105-108 (shortened)
DECRYPT = """    @Override
    public Mono<byte[]> decrypt(byte[] encryptedMessage) {
        return Mono.just(this.keyPair).map(keyPair -> cipher.doFinal(encryptedMessage));
    }"""


class _OneImplementation:
    """The index's answer for the interface: ``RsaKeyService`` is ``CryptoService``'s one implementation."""

    def reaches(self, declared, method, user, used, owners, user_file):  # noqa: ANN001, ANN201
        return declared == "CryptoService"

    def overloaded(self, method, used):  # noqa: ANN001, ANN201
        return False

    def file_text(self, path):  # noqa: ANN001, ANN201
        return ""

    def imported_files(self, path):  # noqa: ANN001, ANN201
        return ()

    def definitions(self, name):  # noqa: ANN001, ANN201
        return 1

    def returns(self, owner, method):  # noqa: ANN001, ANN201
        return None


def test_a_mocks_method_is_no_call_of_the_implementation():
    path = "application/src/test/java/run/halo/app/security/authentication/login/LoginAuthenticationConverterTest.java"
    test = Chunk(path, "java", 30, 30 + CONVERTER_TEST.count("\n"), CONVERTER_TEST,
                 "LoginAuthenticationConverterTest", "class", "test")  # fmt: skip
    rsa = Chunk("application/src/main/java/run/halo/app/security/authentication/impl/RsaKeyService.java", "java", 105,
                108, DECRYPT, "RsaKeyService.decrypt", "method", "core")  # fmt: skip
    whole = "\n" * 29 + CONVERTER_TEST
    rows = [row.strip() for row in CONVERTER_TEST.split("\n")]
    for text in (
        "verify(cryptoService, never()).decrypt(password.getBytes());",
        "when(cryptoService.decrypt(password.getBytes())).thenReturn(Mono.just(decryptedPassword.getBytes()));",
    ):
        use = Use("decrypt", 30 + rows.index(text), "calls", text)
        assert not holds_by_name(test, rsa, use, whole, _OneImplementation()), text
        assert not typed_receiver(test, rsa, use, whole, _OneImplementation()), text
    real = whole.replace("    @Mock\n", "    @Autowired\n")  # the same field injected for real: its call stands
    text = rows[rows.index("@Test", 8) + 2]
    use = Use("decrypt", 30 + rows.index(text), "calls", text)
    assert typed_receiver(test, rsa, use, real, _OneImplementation())
