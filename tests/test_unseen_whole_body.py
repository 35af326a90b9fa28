"""A short body lost its key line to a picked handful (issue #35, class 6: the key line cut from a snippet).

Found on the real-size set (``bench/data/realsize_dev.jsonl``, tag ``s52j``): koel, "Where would I add logging to
track user behavior?" cited ``AddRequestContextForLogging`` (``app/Http/Middleware/AddRequestContextForLogging.php:
11-27``), a middleware of six code lines, and showed five of them: ``class …``, ``public function handle(…)``,
``Context::add([``, ``'user_id' => …`` and ``return $next($request);``. The line that tags the request,
``'request_id' => Uuid::generate(),`` (line 20), holds none of the question's words and was cut. A body this short
is now shown whole (its code lines, not its comments), and the line budget gives it exactly those lines.
"""

from __future__ import annotations

from codeqa.answer.explanation.code.keylines import question_terms
from codeqa.answer.explanation.code.wholebody import SHORT_BODY, body_lines, whole_body
from codeqa.answer.explanation.sources.budget import allocate_lines
from codeqa.answer.explanation.sources.choose import source_lines
from codeqa.records import Chunk
from codeqa.retrieve.question import Question

# koel/koel app/Http/Middleware/AddRequestContextForLogging.php:11-27
KOEL_MIDDLEWARE = """/**
 * Tag the request so that everything it logs — including from queued jobs it dispatches,
 * which are logged long after the response has been sent — can be traced back to it.
 */
class AddRequestContextForLogging
{
    public function handle(Request $request, Closure $next): Response
    {
        Context::add([
            'request_id' => Uuid::generate(),
            // Asking for the user here resolves the guard early, before the auth middleware runs.
            'user_id' => $request->user()?->id,
        ]);

        return $next($request);
    }
}"""

QUESTION = "Where would I add logging to track user behavior?"


def _chunk(code: str, start: int, path: str) -> Chunk:
    return Chunk(path, "php", start, start + code.count("\n"), code, "AddRequestContextForLogging", "class", "core")


def test_the_short_middleware_shows_the_line_that_tags_the_request():
    chunk = _chunk(KOEL_MIDDLEWARE, 11, "app/Http/Middleware/AddRequestContextForLogging.php")
    terms = question_terms(Question.parse(QUESTION))
    shown = source_lines(terms, chunk, [], 12)  # room for more: the comments took it (lines 12, 13, 21)
    numbers = [line.line for line in shown]
    assert 20 in numbers  # 'request_id' => Uuid::generate(),
    assert numbers == [15, 17, 19, 20, 22, 25]  # the code, whole, in file order; no comment, no brace


def test_the_budget_gives_a_short_body_its_code_lines_and_no_more():
    short = _chunk(KOEL_MIDDLEWARE, 11, "app/Http/Middleware/AddRequestContextForLogging.php")
    long_code = "\n".join(f"    $x{n} = log_user_action($request, {n});" for n in range(30))
    long = _chunk(long_code, 100, "app/Services/Long.php")
    terms = question_terms(Question.parse(QUESTION))
    counts = allocate_lines(terms, [(long, []), (short, [])], 20, (6, 5), 12)
    assert counts[1] == 6  # its six code lines (it was sure of five)
    assert counts[0] == 12  # the rest goes to the long source, up to its most


def test_only_a_short_definition_is_whole():
    chunk = _chunk(KOEL_MIDDLEWARE, 11, "app/Http/Middleware/AddRequestContextForLogging.php")
    assert body_lines(KOEL_MIDDLEWARE) == (4, 6, 8, 9, 11, 14)
    assert whole_body(chunk) == (4, 6, 8, 9, 11, 14)
    long_code = "\n".join(f"    $x{n} = {n};" for n in range(SHORT_BODY + 1))
    assert whole_body(_chunk(long_code, 1, "app/Long.php")) == ()
    assert whole_body(chunk, limit=2) == ()  # a folded source's lines cannot hold it
    settings = Chunk("config/x.php", "php", 1, 3, "<?php\nreturn [\n    'a' => env('A'),", "", "config", "config")
    assert whole_body(settings) == ()  # a file's settings are not read whole


# basecamp/once-campfire app/controllers/application_controller.rb:1-4: mixins are the class's code
CAMPFIRE_CONTROLLER = """class ApplicationController < ActionController::Base
  include AllowBrowser, Authentication, Authorization, BlockBannedRequests, SetCurrentRequest, SetPlatform
  include Turbo::Streams::Broadcasts, Turbo::Streams::StreamName
end"""


def test_a_mixin_in_a_class_is_code_and_a_php_tag_is_not():
    assert body_lines(CAMPFIRE_CONTROLLER) == (0, 1, 2)
    assert body_lines("<?php\n\nuse App\\Models\\User;\n\nfunction f() {\n    return 1;\n}") == (4, 5)
