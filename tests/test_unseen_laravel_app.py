"""A PSR-12 method (its body's brace on the line below its head) is placed like any other (seen on BookStack, which
stop 48 read as unseen although `answers_public` has 12 questions on it: the "More places" item showing
``isApiRequest``'s lines was named ``Handler.forgetOutOfMemoryHandler (+1)``, the chunk's first method, because the
lone ``{`` at the head's indent read as the block holding the line)."""

from __future__ import annotations

from codeqa.answer.explanation.calls.callplace import placed
from codeqa.answer.explanation.said.roles_said import role_phrase
from codeqa.records import Chunk

HANDLER = """    public function prepareForOutOfMemory(callable $onOutOfMemory)
    {
        $this->onOutOfMemory = $onOutOfMemory;
    }

    /**
     * Forget the current out of memory handler, if existing.
     */
    public function forgetOutOfMemoryHandler()
    {
        $this->onOutOfMemory = null;
    }

    /**
     * Check if the given request is an API request.
     */
    protected function isApiRequest(Request $request): bool
    {
        return str_starts_with($request->path(), 'api/');
    }"""
SYMBOL = "Handler.prepareForOutOfMemory, Handler.forgetOutOfMemoryHandler, Handler.isApiRequest"


def test_a_line_of_a_psr12_method_is_placed_in_that_method():
    chunk = Chunk("app/Exceptions/Handler.php", "php", 97, 97 + HANDLER.count("\n"), HANDLER, SYMBOL, "method", "")
    body = 97 + HANDLER.split("\n").index("        return str_starts_with($request->path(), 'api/');")
    assert placed(chunk, body) == "Handler.isApiRequest"
    first = 97 + HANDLER.split("\n").index("        $this->onOutOfMemory = null;")
    assert placed(chunk, first) == "Handler.forgetOutOfMemoryHandler"


REPOSITORY = """/**
 * Interface RecurringRepositoryInterface
 */
interface RecurringRepositoryInterface
{
    public function createdPreviously(Recurrence $recurrence, Carbon $date): bool;

    public function destroy(Recurrence $recurrence): void;
}"""
JOB = """/**
 * Class CreateRecurringTransactions.
 */
class CreateRecurringTransactions implements ShouldQueue
{
    public int $created;
}"""
TS_PROPS = """export interface SessionProps {
  user: User;
}"""


def test_an_interface_is_not_said_to_be_a_class():
    """Misleading on firefly-iii (a Laravel app in no data set): "``RecurringRepositoryInterface (+4)`` … defines a
    class" for a PHP interface; a class that implements one is still a class."""
    names = "RecurringRepositoryInterface, RecurringRepositoryInterface.createdPreviously"
    path = "app/Repositories/Recurring/RecurringRepositoryInterface.php"
    interface = Chunk(path, "php", 36, 36 + REPOSITORY.count("\n"), REPOSITORY, names, "class", "")
    assert role_phrase(interface, {}, "") == "defines an interface"
    job = Chunk("app/Jobs/CreateRecurringTransactions.php", "php", 44, 50, JOB, "CreateRecurringTransactions",
                "class", "")  # fmt: skip
    assert role_phrase(job, {}, "") == "defines a class"
    props = Chunk("src/session.ts", "typescript", 1, 3, TS_PROPS, "SessionProps", "class", "")
    assert role_phrase(props, {}, "") == "defines an interface"
