"""Read on Snipe-IT (a Laravel app, 7,251 files, in no data set), asked what happens when an API request fails: the
answer named ``Handler.render`` (``app/Exceptions/Handler.php``), the method every exception the app leaves uncaught
reaches, and ended there with no "Where errors go:" (no Laravel construct was marked app-wide). The Handler's own
``render(…, Throwable $e)`` and Laravel 11's ``->withExceptions(`` are where errors go; a ``->renderable(function
(NotFoundHttpException $e)`` answers one kind and is not."""

from __future__ import annotations

from codeqa.answer.explanation.code.keylines import KeyLine
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.explain import Explanation, Step
from codeqa.answer.explanation.said.conclusion import where_errors_go
from codeqa.chunk import chunk_file
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Hit, SourceFile

QUESTION = "What happens when an API request fails?"
# app/Exceptions/Handler.php, lines 54-76 (shortened)
HANDLER = """<?php

namespace App\\Exceptions;

class Handler extends ExceptionHandler
{
    /**
     * Render an exception into an HTTP response.
     */
    public function render($request, Throwable $e)
    {
        if ($e instanceof JsonException) {
            return response()->json(Helper::formatStandardApiResponse('error', null, 'Invalid JSON'), 422);
        }
        return parent::render($request, $e);
    }
}
"""
# a Handler's register(): one kind of error answered
RENDERABLE = """<?php

namespace App\\Exceptions;

class Handler extends ExceptionHandler
{
    public function register()
    {
        $this->renderable(function (NotFoundHttpException $e) {
            return response()->json(['message' => 'Not found'], 404);
        });
    }
}
"""


def _ending(text: str) -> str:
    laravel = [c for c in load_all() if c.name == "Laravel"]
    chunk = chunk_file(SourceFile("app/Exceptions/Handler.php", "php", text, len(text)))[-1]
    matches = matches_in(chunk, laravel, intents(QUESTION))
    lines = [KeyLine(n, line) for n, line in enumerate(chunk.text.split("\n"), chunk.start_line)]
    step = Step(1, Hit(chunk, 1.0, chunk.id), "api", lines, "", matches)
    explanation = Explanation(QUESTION, [step], [], [], [step.hit], opened=1, intents=intents(QUESTION))
    said = where_errors_go(explanation)
    return said[1] if said else ""


def test_the_exception_handler_s_render_is_where_errors_go() -> None:
    said = _ending(HANDLER)
    assert said.startswith("Where errors go: to the code at app/Exceptions/Handler.php:10, because it turns "), said


def test_a_handler_for_one_kind_of_error_is_not_where_errors_go() -> None:
    assert _ending(RENDERABLE) == ""
