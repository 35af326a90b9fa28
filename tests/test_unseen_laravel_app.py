"""A PSR-12 method (its body's brace on the line below its head) is placed like any other (seen on BookStack, which
stop 48 read as unseen although `answers_public` has 12 questions on it: the "More places" item showing
``isApiRequest``'s lines was named ``Handler.forgetOutOfMemoryHandler (+1)``, the chunk's first method, because the
lone ``{`` at the head's indent read as the block holding the line)."""

from __future__ import annotations

from codeqa.answer.explanation.callplace import placed
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
