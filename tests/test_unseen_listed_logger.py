"""Read on Plane (Django + Next.js, in no data set): asked "Where would I add logging to track user behavior?", the
answer showed the ``MIDDLEWARE`` list with its line ``"plane.middleware.logger.RequestLoggerMiddleware",`` and said
"Where to add it: in `common.py` …, at `apps/api/plane/settings/common.py:103`" — the list's first line — while the
middleware that list names for logging (``RequestLoggerMiddleware``, which logs each request with the user's id) was
never shown. On Koel (Laravel, dev) the same: "Where to add it: in `app.php` …, at `bootstrap/app.php:35`" beside
``$middleware->web(prepend: [AddRequestContextForLogging::class])``.
"""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.constructs.listedlog import named_for_logging
from codeqa.answer.explanation.explain import explain
from codeqa.answer.explanation.said.conclusion import placement
from codeqa.chunk import chunk_file
from codeqa.records import Hit, SourceFile

LOGGING = "Where would I add logging to track user behavior?"
# apps/api/plane/settings/common.py, lines 103-117 (shortened)
SETTINGS = """import os

MIDDLEWARE = [
    "corsheaders.middleware.CorsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "crum.CurrentRequestUserMiddleware",
    "plane.middleware.logger.RequestLoggerMiddleware",
]

ROOT_URLCONF = "plane.urls"
"""
# apps/api/plane/middleware/logger.py, lines 1-75 (shortened)
LOGGER = """import logging
import time

api_logger = logging.getLogger("plane.api.request")


class RequestLoggerMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        start_time = time.time()
        response = self.get_response(request)
        duration = time.time() - start_time
        user_id = request.user.id if request.user.is_authenticated else None
        api_logger.info(
            f"{request.method} {request.get_full_path()} {response.status_code}",
            extra={"duration_ms": int(duration * 1000), "user_id": user_id},
        )
        return response
"""
# a view the question's words find first
VIEW = """def track_event(request):
    user = request.user
    return JsonResponse({"user": user.id, "tracked": True})
"""
# bootstrap/app.php and app/Http/Middleware/AddRequestContextForLogging.php (Koel, shortened)
APP_PHP = """<?php

use App\\Http\\Middleware\\AddRequestContextForLogging;
use Illuminate\\Foundation\\Application;
use Illuminate\\Foundation\\Configuration\\Middleware;

return Application::configure(basePath: dirname(__DIR__))
    ->withMiddleware(static function (Middleware $middleware): void {
        $middleware->api(prepend: [
            AddRequestContextForLogging::class,
        ]);

        $middleware->api(append: [
            ForceHttps::class,
        ]);
    })
    ->create();
"""
CONTEXT_PHP = """<?php

namespace App\\Http\\Middleware;

class AddRequestContextForLogging
{
    public function handle(Request $request, Closure $next): Response
    {
        Log::withContext([
            'request_id' => Uuid::generate(),
            'user_id' => $request->user()?->id,
        ]);

        return $next($request);
    }
}
"""


def _said(files: list[tuple[str, str, str]], retrieved: set[str]) -> tuple[str, str] | None:
    chunks = [c for path, language, text in files for c in chunk_file(SourceFile(path, language, text, len(text)))]
    hits = [Hit(c, 1.0, c.id) for c in chunks if c.path in retrieved]
    return placement(explain(LOGGING, AnswerContext.from_chunks(chunks, hits)))


def test_names_for_logging() -> None:
    assert named_for_logging("RequestLoggerMiddleware") and named_for_logging("AddRequestContextForLogging")
    assert named_for_logging("APITokenLogMiddleware")
    assert not named_for_logging("LoginRequiredMiddleware") and not named_for_logging("CatalogMiddleware")


def test_the_logging_middleware_the_django_middleware_list_names_is_where_to_add_logging() -> None:
    files = [("plane/settings/common.py", "python", SETTINGS), ("plane/middleware/logger.py", "python", LOGGER),
             ("plane/views/events.py", "python", VIEW)]  # fmt: skip
    said = _said(files, {"plane/settings/common.py", "plane/views/events.py"})  # the logger itself is not retrieved
    assert said is not None and "RequestLoggerMiddleware" in said[1], said
    assert "plane/middleware/logger.py" in said[1], said


def test_the_logging_middleware_a_laravel_middleware_group_names_is_where_to_add_logging() -> None:
    files = [("bootstrap/app.php", "php", APP_PHP),
             ("app/Http/Middleware/AddRequestContextForLogging.php", "php", CONTEXT_PHP)]  # fmt: skip
    said = _said(files, {"bootstrap/app.php"})
    line = next(
        n for n, text in enumerate(APP_PHP.split("\n"), start=1) if "AddRequestContextForLogging::class" in text
    )
    assert said is not None, said
    assert said[1].startswith("Where to add it: in AddRequestContextForLogging"), said
    assert f"names this logging middleware at bootstrap/app.php:{line}." in said[1], said


# eladmin (Spring, dev): an aspect is no middleware list; the annotation it names is no logging middleware
ASPECT = """package app.aspect;

import org.aspectj.lang.ProceedingJoinPoint;
import org.aspectj.lang.annotation.Around;
import org.aspectj.lang.annotation.Aspect;
import org.aspectj.lang.annotation.Pointcut;
import org.springframework.stereotype.Component;

@Component
@Aspect
public class LogAspect {
    @Pointcut("@annotation(me.zhengjie.annotation.Log)")
    public void logPointcut() {
    }

    @Around("logPointcut()")
    public Object logAround(ProceedingJoinPoint joinPoint) throws Throwable {
        Object result = joinPoint.proceed();
        return result;
    }
}
"""
LOG = """@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
public @interface Log {
    String value() default "";
}
"""


def test_an_aspect_naming_an_annotation_is_no_list_of_logging_middleware() -> None:
    files = [("src/main/java/app/aspect/LogAspect.java", "java", ASPECT),
             ("src/main/java/app/annotation/Log.java", "java", LOG)]  # fmt: skip
    said = _said(files, {"src/main/java/app/aspect/LogAspect.java"})
    assert said is None or "names this logging middleware" not in said[1], said
