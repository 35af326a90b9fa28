"""The second file of a flow (issue #35): code the best sources run, reached by a checked call, reaches the answer
even when retrieval did not bring it.

Each app is a few real files chunked and tagged as indexing does; the retrieved pool is given (what retrieval
found on the real-size app this class was read from), so the test shows what the answer adds to it.
"""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.calls.flow import find_uses
from codeqa.answer.explanation.explain import explain
from codeqa.chunk import chunk_file
from codeqa.records import Chunk, Hit, SourceFile

LARAVEL_ERRORS = {
    "composer.json": '{"require": {"php": "^8.2", "laravel/framework": "^11.0"}}\n',
    "bootstrap/app.php": """<?php

use App\\Exceptions\\ApiErrorRenderer;
use Illuminate\\Foundation\\Application;
use Illuminate\\Foundation\\Configuration\\Exceptions;
use Illuminate\\Http\\Request;

return Application::configure(basePath: dirname(__DIR__))
    ->withRouting(api: __DIR__.'/../routes/api.php')
    ->withExceptions(static function (Exceptions $exceptions): void {
        $exceptions->render(
            static fn (Throwable $e, Request $request) => ApiErrorRenderer::render($e, $request)
        );
    })
    ->create();
""",
    "app/Exceptions/ApiErrorRenderer.php": """<?php

namespace App\\Exceptions;

use Illuminate\\Http\\JsonResponse;
use Illuminate\\Http\\Request;
use Throwable;

class ApiErrorRenderer
{
    public static function render(Throwable $e, Request $request): ?JsonResponse
    {
        if (! $request->is('api/*')) {
            return null;
        }

        return response()->json(['message' => $e->getMessage(), 'code' => 'server_error'], 500);
    }
}
""",
    "app/Http/Requests/API/Request.php": """<?php

namespace App\\Http\\Requests\\API;

use Illuminate\\Foundation\\Http\\FormRequest;

abstract class Request extends FormRequest
{
    public function authorize(): bool
    {
        return true;
    }
}
""",
}

LARAVEL_SIGNUP = {
    "composer.json": '{"require": {"php": "^8.2", "laravel/framework": "^11.0"}}\n',
    "app/Http/Middleware/EnsureSignupIsEnabled.php": """<?php

namespace App\\Http\\Middleware;

use App\\Helpers\\SignupHelper;
use Closure;
use Illuminate\\Http\\Request;

class EnsureSignupIsEnabled
{
    public function handle(Request $request, Closure $next)
    {
        abort_if(! app(SignupHelper::class)->isEnabled(), 403, 'Sign-up is disabled');

        return $next($request);
    }
}
""",
    "app/Helpers/SignupHelper.php": """<?php

namespace App\\Helpers;

class SignupHelper
{
    public function isEnabled(): bool
    {
        return ! ($this->isDisabledByConfig() && $this->hasAccounts());
    }

    public function isDisabledByConfig(): bool
    {
        return config('app.disable_signup', false);
    }
}
""",
    "app/Console/Commands/SetupDummyAccount.php": """<?php

namespace App\\Console\\Commands;

use Illuminate\\Console\\Command;

class SetupDummyAccount extends Command
{
    protected $signature = 'account:dummy';

    public function handle(): void
    {
        $this->info('Creating a dummy account so someone can sign up and log in');
    }
}
""",
}

FLASK_REPORTS = {
    "requirements.txt": "flask==3.0.0\n",
    "reports/views.py": '''from flask import Blueprint, request

from reports.services import queue_report

bp = Blueprint("reports", __name__)


@bp.route("/reports", methods=["POST"])
def create_report():
    """A user asks for a report."""
    report = queue_report(request.form["title"])
    return {"id": report.id}, 202
''',
    "reports/services.py": '''from reports.tasks import build_report


def queue_report(title):
    """The report is stored as pending and built by a worker."""
    report = Report(title=title, status="pending")
    report.save()
    build_report.delay(report.id)
    return report
''',
    "reports/tasks.py": """def build_report(report_id):
    return report_id
""",
    "reports/admin.py": '''def list_reports(user):
    """The reports an admin sees."""
    return [r for r in user.reports if r.visible]
''',
}

LANGUAGES = {".php": "php", ".py": "python", ".json": "json", ".txt": "text"}


def chunks_of(app: dict[str, str]) -> list[Chunk]:
    chunks: list[Chunk] = []
    for path, text in app.items():
        language = next(lang for suffix, lang in LANGUAGES.items() if path.endswith(suffix))
        chunks += chunk_file(SourceFile(path, language, text, len(text)))
    return chunks


def context_for(app: dict[str, str], retrieved: list[str]) -> AnswerContext:
    """The app's chunks; retrieval found only the files in ``retrieved`` (best first)."""
    chunks = chunks_of(app)
    pool = [Hit(c, 1.0 / (1 + n), c.id) for n, c in enumerate(c for p in retrieved for c in chunks if c.path == p)]
    return AnswerContext.from_chunks(chunks, pool, retrieved)


def shown_lines(question: str, context: AnswerContext) -> dict[str, list[str]]:
    """The open sources' key lines by path, as the answer shows them."""
    explanation = explain(question, context)
    shown: dict[str, list[str]] = {}
    for step in explanation.open_steps:
        shown.setdefault(step.chunk.path, []).extend(line.text.strip() for line in step.lines)
    return shown


def test_an_arrow_function_on_its_signature_line_calls_what_its_body_calls() -> None:
    bootstrap = next(c for c in chunks_of(LARAVEL_ERRORS) if c.path == "bootstrap/app.php")
    renderer = next(c for c in chunks_of(LARAVEL_ERRORS) if c.symbol.startswith("ApiErrorRenderer"))
    uses = find_uses(bootstrap, renderer)
    assert [(use.verb, use.line) for use in uses] == [("calls", 12)]
    assert uses[0].name == "ApiErrorRenderer.render"


def test_the_renderer_an_exception_handler_registers_is_shown_with_its_response() -> None:
    context = context_for(LARAVEL_ERRORS, ["bootstrap/app.php", "app/Http/Requests/API/Request.php"])
    shown = shown_lines("What happens when an API request fails?", context)
    renderer = shown.get("app/Exceptions/ApiErrorRenderer.php", [])
    assert any("'code' => 'server_error'], 500);" in line for line in renderer), shown
    assert next(iter(shown)) == "bootstrap/app.php"  # the registration still opens the answer


def test_a_helper_the_container_makes_and_calls_is_followed() -> None:
    context = context_for(LARAVEL_SIGNUP, ["app/Http/Middleware/EnsureSignupIsEnabled.php",
                                           "app/Console/Commands/SetupDummyAccount.php"])  # fmt: skip
    shown = shown_lines("How is sign-up switched off, and what does a visitor see then?", context)
    helper = shown.get("app/Helpers/SignupHelper.php", [])
    assert any("config('app.disable_signup', false)" in line for line in helper), shown


def test_a_view_leads_to_the_service_it_calls_and_not_to_unrelated_code() -> None:
    context = context_for(FLASK_REPORTS, ["reports/views.py", "reports/admin.py"])
    shown = shown_lines("What happens when a user asks for a report?", context)
    service = shown.get("reports/services.py", [])
    assert any('Report(title=title, status="pending")' in line for line in service), shown
    assert "reports/tasks.py" not in shown  # called by the service, but it holds none of the question's words
