"""What was false or misleading on RuoYi-Vue (Spring Boot + Vue, 334 files, comments in Chinese, in no data set):
- "`SysLoginService.login` signs the user in for this request (Spring Security's context)" for
  ``authenticationManager.authenticate(token)``, which checks the credentials (the method then issues a JWT);
- "`LogAspect` … runs around the methods it matches" for a ``@Before`` (and ``@AfterReturning``) advice;
- "`SecurityConfig.java` (`…:1-20`) sets up Spring Security …: at `…:13`: `import
  org.springframework.security.web.SecurityFilterChain;`": an import line named a construct;
- "Its documentation says: “anyRequest | 匹配所有请求路径 access | SpringEl表达式结果为true时可以访问 …”": a table in
  a Javadoc joined into one line."""

from __future__ import annotations

import re

from codeqa.answer.explanation.code.leading import comment_before
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk

AUTH = "How does user authentication flow through the system?"
LOGGING = "Where would I add logging to track user behavior?"
# ruoyi-framework/.../SysLoginService.java, lines 71-76
LOGIN = """        try
        {
            UsernamePasswordAuthenticationToken token = new UsernamePasswordAuthenticationToken(username, password);
            AuthenticationContextHolder.setContext(token);
            authentication = authenticationManager.authenticate(token);
        }"""
CONTEXT = """            SecurityContextHolder.getContext().setAuthentication(authenticationToken);"""
# ruoyi-framework/.../aspectj/LogAspect.java, lines 59-71
ADVICE = """    @Before(value = "@annotation(controllerLog)")
    public void doBefore(JoinPoint joinPoint, Log controllerLog)
    {
        TIME_THREADLOCAL.set(System.currentTimeMillis());
    }

    @AfterReturning(pointcut = "@annotation(controllerLog)", returning = "jsonResult")
    public void doAfterReturning(JoinPoint joinPoint, Log controllerLog, Object jsonResult)"""
AROUND = """    @Around("execution(* com.example.service.*.*(..))")
    public Object time(ProceedingJoinPoint point) throws Throwable"""
IMPORTS = """package com.ruoyi.framework.config;

import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.UsernamePasswordAuthenticationFilter;"""
CHAIN = """    @Bean
    protected SecurityFilterChain filterChain(HttpSecurity httpSecurity) throws Exception"""
# ruoyi-framework/.../config/SecurityConfig.java, lines 70-86 (shortened)
TABLE = """    /**
     * anyRequest          |   匹配所有请求路径
     * access              |   SpringEl表达式结果为true时可以访问
     * anonymous           |   匿名可以访问
     */
    @Bean
    protected SecurityFilterChain filterChain(HttpSecurity httpSecurity) throws Exception"""
PROSE = """    /**
     * 登录验证
     *
     * @param username 用户名
     */
    public String login(String username, String password, String code, String uuid)"""
JAVADOC = re.compile(r"^\s*(?:/\*\*|\*)")
NO_PRAGMA = re.compile(r"^\s*\*\s*@|^\s*\*/")


def _said(text: str, question: str, path: str = "ruoyi-framework/src/main/java/com/ruoyi/Login.java") -> list[str]:
    chunk = Chunk(path, "java", 1, text.count("\n") + 1, text, "Login.login", "method", "service")
    return [m.phrase for m in matches_in(chunk, [c for c in load_all() if c.name == "Spring"], intents(question))]


def test_authenticating_a_token_checks_the_credentials_and_setting_the_context_signs_in():
    signs_in = "signs the user in for this request (Spring Security's context)"
    assert signs_in not in _said(LOGIN, AUTH)
    assert "checks the credentials with Spring Security's `AuthenticationManager`" in _said(LOGIN, AUTH)
    assert signs_in in _said(CONTEXT, AUTH)


def test_advice_is_said_by_its_own_annotation():
    said = _said(ADVICE, LOGGING)
    assert "runs around the methods it matches (an AOP aspect)" not in said
    assert "runs before the methods it matches (AOP advice)" in said
    assert "runs after the methods it matches (AOP advice)" in said
    assert "runs around the methods it matches (an AOP aspect)" in _said(AROUND, LOGGING)


def test_an_import_line_names_no_construct():
    security = "sets up Spring Security (which requests need which user)"
    assert security not in _said(IMPORTS, AUTH)
    assert security in _said(CHAIN, AUTH)


def test_a_table_in_a_javadoc_is_not_quoted_as_its_documentation():
    lines = TABLE.split("\n")
    assert comment_before(lines, len(lines) - 2, JAVADOC, NO_PRAGMA) == ""
    lines = PROSE.split("\n")
    assert comment_before(lines, len(lines) - 1, JAVADOC, NO_PRAGMA) == "登录验证"
