"""A member call continued from a line above (a fluent chain) is the chain's, not a namesake's (seen on macrozheng's
mall, a Spring app in no data set: "`SecurityConfig` calls `logout` (`UmsAdminController.java:108-114`)" for
``http.authorizeRequests() … .logout()``, Spring Security's ``HttpSecurity.logout``)."""

from __future__ import annotations

from codeqa.answer.explanation.calls.byname import holds_by_name
from codeqa.answer.explanation.calls.declared import chain_root
from codeqa.answer.explanation.calls.flow import Use
from codeqa.answer.explanation.code.linenames import holder_at
from codeqa.records import Chunk

SECURITY_CONFIG = """package com.macro.mall.demo.config;

@Configuration
@EnableWebSecurity
public class SecurityConfig extends WebSecurityConfigurerAdapter {
    @Override
    protected void configure(HttpSecurity http) throws Exception {
        http.authorizeRequests()//配置权限
                .antMatchers("/**").permitAll()
                .and()//配置登录页面
                .formLogin()
                .loginPage("/login")
                .and()//配置退出路径
                .logout()
                .logoutSuccessUrl("/");
    }
}"""
CONTROLLER = """    @RequestMapping(value = "/logout", method = RequestMethod.POST)
    @ResponseBody
    public CommonResult logout(Principal principal) {
        adminService.logout(principal.getName());
        return CommonResult.success(null);
    }"""
SERVICE_CALLER = """public class UmsAdminController {
    @Autowired
    private UmsAdminService adminService;

    public CommonResult logout(Principal principal) {
        adminService
                .logout(principal.getName());
        return CommonResult.success(null);
    }
}"""


def _chunk(path: str, symbol: str, text: str, start: int = 1) -> Chunk:
    return Chunk(path, "java", start, start + text.count("\n"), text, symbol, "method", "api")


def _line(text: str, code: str) -> int:
    return next(number for number, line in enumerate(text.split("\n"), 1) if line.strip().startswith(code))


def test_the_chain_root_is_the_receiver_its_first_line_names():
    assert chain_root(SECURITY_CONFIG, _line(SECURITY_CONFIG, ".logout()")) == "http"
    assert chain_root(SERVICE_CALLER, _line(SERVICE_CALLER, ".logout(")) == "adminService"
    assert chain_root("return build()\n    .done()", 2) is None  # the chain starts on a call, not a name


def test_a_chained_call_on_a_library_object_is_not_a_namesakes_method():
    user = _chunk("mall-demo/src/main/java/com/macro/mall/demo/config/SecurityConfig.java", "SecurityConfig",
                  SECURITY_CONFIG)  # fmt: skip
    used = _chunk("mall-admin/src/main/java/com/macro/mall/controller/UmsAdminController.java",
                  "UmsAdminController.logout", CONTROLLER, 106)  # fmt: skip
    use = Use("logout", _line(SECURITY_CONFIG, ".logout()"), "calls", ".logout()")
    assert not holds_by_name(user, used, use, SECURITY_CONFIG)


def test_a_chained_call_on_a_receiver_of_the_callees_class_still_holds():
    service = """public interface UmsAdminService {
    void logout(String username);
}"""
    user = _chunk("mall-admin/src/main/java/com/macro/mall/controller/UmsAdminController.java",
                  "UmsAdminController.logout", SERVICE_CALLER)  # fmt: skip
    used = _chunk("mall-admin/src/main/java/com/macro/mall/controller/UmsAdminService.java",
                  "UmsAdminService.logout", service)  # fmt: skip
    use = Use("logout", _line(SERVICE_CALLER, ".logout("), "calls", ".logout(principal.getName());")
    assert holds_by_name(user, used, use, SERVICE_CALLER)


HANDLER = """/**
 * 全局异常处理类
 */
@ControllerAdvice
public class GlobalExceptionHandler {

    @ResponseBody
    @ExceptionHandler(value = ApiException.class)
    public CommonResult handle(ApiException e) {
        return CommonResult.failed(e.getMessage());
    }
}"""


def test_an_annotation_belongs_to_the_class_or_method_below_it():
    # mall: "the code at `GlobalExceptionHandler.java:15-68` handles exceptions for every controller" — the
    # annotations' lines were placed in no definition, so the class was not named
    chunk = _chunk("mall-common/src/main/java/com/macro/mall/common/exception/GlobalExceptionHandler.java",
                   "GlobalExceptionHandler", HANDLER, 15)  # fmt: skip
    assert holder_at(chunk, 15 + _line(HANDLER, "@ControllerAdvice") - 1) == "GlobalExceptionHandler"
    assert holder_at(chunk, 15 + _line(HANDLER, "@ExceptionHandler") - 1) == "GlobalExceptionHandler"


def test_a_class_head_is_the_class_not_its_constructor():
    # eladmin: "`LogAspect.LogAspect` wraps the methods its pointcuts select" — the class, not its constructor, does
    aspect = """@Aspect
@Component
public class LogAspect {
    private final SysLogService sysLogService;

    public LogAspect(SysLogService sysLogService) {
        this.sysLogService = sysLogService;
    }
}"""
    chunk = _chunk("eladmin-logging/src/main/java/me/zhengjie/aspect/LogAspect.java", "LogAspect.LogAspect", aspect, 34)
    assert holder_at(chunk, 34) == "LogAspect"  # the `@Aspect` above the class
    assert holder_at(chunk, 36) == "LogAspect"
    assert holder_at(chunk, 34 + _line(aspect, "this.sysLogService") - 1) == "LogAspect.LogAspect"


def test_a_class_chunk_is_named_after_the_class_not_its_constructor():
    # mall: "[2] `CommonResult.CommonResult (+3)` … defines a class"
    from codeqa.answer.explanation.code.outline import display_name

    result = """public class CommonResult<T> {
    private long code;

    protected CommonResult() {
    }

    public static <T> CommonResult<T> success(T data) {
        return new CommonResult<T>(ResultCode.SUCCESS.getCode(), ResultCode.SUCCESS.getMessage(), data);
    }
}"""
    chunk = _chunk("mall-common/src/main/java/com/macro/mall/common/api/CommonResult.java",
                   "CommonResult, CommonResult.CommonResult, CommonResult.success", result, 3)  # fmt: skip
    assert display_name(chunk) == "CommonResult (+2)"
