"""What was false or misleading on Pterodactyl Panel (Laravel + React, 1,455 files, in no data set), read as a user
does:
- "`Handler.register` (`app/Exceptions/Handler.php:68-89`) turns exceptions into responses": ``register()`` only holds
  two ``->reportable(function (\\PDOException $ex)`` that clean the trace written to the log; the Handler's
  ``render($request, \\Throwable $e)`` (its ``\\`` missed by the pattern) is what answers;
- "`ActivityLogService.getActivity` writes the history of changes (an audit log)": a getter, named after the log;
- "`RequireTwoFactorAuthentication.handle` … calls `TwoFactorAuthRequiredException`" for ``throw new …()``;
- "`BulkPowerActionCommand.handle` runs the command (and 1 more like it: `app/Models/Permission.php:101-127`)": a
  permissions table folded into a command because both hold ``'key' => '…',`` lines."""

from __future__ import annotations

from codeqa.answer.explanation.calls.flow import Use, said_verb
from codeqa.answer.explanation.code.keylines import KeyLine
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.sources.fold import signature, similar
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk

ERRORS = "What happens when an API request fails?"
LOGGING = "Where would I add logging to track user behavior?"
# app/Exceptions/Handler.php, lines 76-89 and 124-142 (shortened)
REGISTER = """    public function register(): void
    {
        if (config('app.exceptions.report_all', false)) {
            $this->dontReport = [];
        }

        $this->reportable(function (\\PDOException $ex) {
            $ex = $this->generateCleanedExceptionStack($ex);
        });
    }"""
RENDER = """    public function render($request, \\Throwable $e): Response
    {
        $connections = $this->container->make(Connection::class);
        if ($connections->transactionLevel()) {
            $connections->rollBack(0);
        }

        return parent::render($request, $e);
    }"""
# app/Services/Activity/ActivityLogService.php, lines 194-200, and a method that does write one
GETTER = """    protected function getActivity(): ActivityLog
    {
        if ($this->activity) {
            return $this->activity;
        }
        $this->activity = new ActivityLog([
            'ip' => Request::ip(),"""
WRITER = """    public function recordActivity(string $event): void
    {
        ActivityLog::create(['event' => $event]);
    }"""


def _php(text: str, symbol: str, path: str = "app/Exceptions/Handler.php") -> Chunk:
    return Chunk(path, "php", 1, text.count("\n") + 1, text, symbol, "method", "service")


def _said(chunk: Chunk, question: str, framework: str) -> list[str]:
    return [m.phrase for m in matches_in(chunk, [c for c in load_all() if c.name == framework], intents(question))]


def test_a_reportable_callback_is_reporting_and_render_with_a_qualified_throwable_answers():
    answers = "turns exceptions into responses (the exception handler)"
    assert answers not in _said(_php(REGISTER, "Handler.register"), ERRORS, "Laravel")
    assert "decides how exceptions are reported to the log (the exception handler)" in _said(
        _php(REGISTER, "Handler.register"), ERRORS, "Laravel"
    )
    assert answers in _said(_php(RENDER, "Handler.render"), ERRORS, "Laravel")


def test_a_getter_named_after_the_activity_log_writes_no_history():
    path = "app/Services/Activity/ActivityLogService.php"
    history = "writes the history of changes (an audit log)"
    assert history not in _said(_php(GETTER, "ActivityLogService.getActivity", path), LOGGING, "any framework")
    assert history in _said(_php(WRITER, "ActivityLogService.recordActivity", path), LOGGING, "any framework")


def test_an_exception_built_to_be_thrown_is_thrown_not_called():
    thrown = Use("TwoFactorAuthRequiredException", 60, "calls", "throw new TwoFactorAuthRequiredException();")
    qualified = Use("DisplayException", 33, "calls", "throw new \\Pterodactyl\\Exceptions\\DisplayException('x');")
    raised = Use("NotFound", 9, "calls", "raise NotFound(f'no {name}')")
    called = Use("sendLoginResponse", 66, "calls", "return $this->sendLoginResponse($user, $request);")
    built = Use("JsonResponse", 77, "calls", "return new JsonResponse([")
    assert [said_verb(use) for use in (thrown, qualified, raised)] == ["throws"] * 3
    assert [said_verb(use) for use in (called, built)] == ["calls", "calls"]


def test_a_table_of_data_is_no_repeat_of_code_that_holds_a_line_of_data_too():
    command = [KeyLine(42, "    'action' => $action,"), KeyLine(46, "    'action' => 'string|in:start,stop,kill',"),
               KeyLine(72, "        $powerRepository->setServer($server)->send($action);")]  # fmt: skip
    table = [KeyLine(113, "        'start' => 'Allows a user to start the server if it is stopped.',"),
             KeyLine(114, "        'stop' => 'Allows a user to stop a server if it is running.',")]  # fmt: skip
    assert not similar(signature(command), signature(table))
    twin = [
        KeyLine(40, "    'action' => $action,"),
        KeyLine(70, "    $powerRepository->setServer($server)->send($action);"),
    ]
    assert similar(signature(command), signature(twin))  # the same code twice still folds
    other = [
        KeyLine(8, "    'bleepingcomputer.com' => '.articleBody',"),
        KeyLine(9, "    'lepoint.fr' => '.art-text',"),
    ]
    assert similar(signature(table), signature(other))  # and two pieces of one table are alike
