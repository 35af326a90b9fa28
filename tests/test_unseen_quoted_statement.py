"""A sentence that quotes a code line quotes the statement as written (snippets3, #35).

netbox-01 ("What happens when an API request fails?") said "`handle_rest_api_exception` answers with
`JsonResponse(data, status=status.HTTP_500_INTERNAL_SERVER_ERROR)`": the line's ``return`` left out, so the reader saw
less than the line; koel-00 said "`logUserIn` issues a token with `$this->tokenManager->createCompositeToken($user);`"
for ``return $this->tokenManager->createCompositeToken($user);``. A sentence now quotes the whole statement after a
phrase that needs no object ("answers the request: `return JsonResponse(…)`"), and a long line is cut only where
``cut_quote`` cuts (a bracket's arguments elided, never half a name).
"""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.code.saidline import said_line
from codeqa.answer.explanation.said.extractive import extractive_answer
from codeqa.records import Chunk, Hit

MIDDLEWARE = """from utilities.error_handlers import handle_rest_api_exception


class CoreMiddleware:

    def process_exception(self, request, exception):
        \"\"\"
        Implement custom error handling logic for production deployments.
        \"\"\"
        # Don't catch exceptions when in debug mode
        if settings.DEBUG:
            return

        # Cleanly handle exceptions that occur from REST API requests
        if is_api_request(request) or is_graphql_request(request):
            # Send the signal so that the exception gets logged
            got_request_exception.send(sender=self.__class__, request=request)
            return handle_rest_api_exception(request)"""

HANDLERS = """from django.http import JsonResponse


def handle_rest_api_exception(request, *args, **kwargs):
    \"\"\"
    Handle exceptions and return a useful error message for REST API requests.
    \"\"\"
    type_, error, traceback = sys.exc_info()
    data = {
        'error': str(error),
        'exception': type_.__name__,
        'netbox_version': settings.RELEASE.full_version,
        'python_version': platform.python_version(),
    }
    return JsonResponse(data, status=status.HTTP_500_INTERNAL_SERVER_ERROR)"""


def _chunk(path: str, symbol: str, text: str, start: int, layer: str) -> Chunk:
    return Chunk(path, "python", start, start + text.count("\n"), text, symbol, "function", layer)


def test_the_callees_answer_is_quoted_with_its_return() -> None:
    middleware = _chunk("netbox/middleware.py", "CoreMiddleware, CoreMiddleware.process_exception",
                        MIDDLEWARE, 96, "middleware")  # fmt: skip
    handlers = _chunk("utilities/error_handlers.py", "handle_rest_api_exception", HANDLERS, 1, "util")
    hits = [Hit(middleware, 1.0, middleware.id), Hit(handlers, 0.9, handlers.id)]
    text = extractive_answer("What happens when an API request fails?", hits,
                             context=AnswerContext.from_chunks([middleware, handlers], hits))  # fmt: skip
    said = [line for line in text.split("\n") if "answers" in line and not line.lstrip().startswith(("-", "1"))]
    assert said, text
    for line in said:
        assert "answers with `JsonResponse(" not in line, line  # the line without its `return`
        assert "answers with `return" not in line, line  # the verb said twice
    assert any("answers the request: `return JsonResponse(data, status=status.HTTP_500_INTERNAL_SERVER_ERROR)`" in line
               for line in said), text  # fmt: skip


def test_a_keyword_line_is_said_after_a_phrase_that_needs_no_object() -> None:
    assert said_line("issues a token with", "        return $this->tokenManager->createCompositeToken($user);", 90) == (
        "issues a token:",
        "return $this->tokenManager->createCompositeToken($user);",
    )
    assert said_line("returns", "return identity", 90) == ("ends in", "return identity")
    assert said_line("answers with", "redirect_to root_path", 90) == ("answers with", "redirect_to root_path")
    assert said_line("raises", "throw new NotFoundException();", 90)[0] == "raises an exception:"


def test_a_long_statement_is_cut_at_a_bracket_not_mid_name() -> None:
    line = "return await plugins.hooks.fire('filter:uploadImage', { image: uploadedFile, uid: req.uid, folder: 'x' });"
    phrase, quote = said_line("returns", line, 60)
    assert quote == "return await plugins.hooks.fire('filter:uploadImage', {…})", quote  # the keywords kept
    long = "return ResponseEntity.status(HttpStatus.CREATED).body(someVeryLongServiceName.createSomethingWithAName(x))"
    cut = said_line("answers with", long, 60)[1]
    assert cut.endswith(("…)", "…))")) and "createSometh…" not in cut, cut


def test_a_value_read_is_cut_after_a_whole_word_its_string_closed() -> None:
    """A sentence's value ("`reader` reads `X = …`") was cut at 90 characters, mid-name or mid-string
    (``"… projects allowed for …``, its string left open); it is now cut where ``cut_quote`` cuts."""
    from codeqa.answer.explanation.code.keylines import KeyLine
    from codeqa.answer.explanation.code.values import Value, value_said

    text = 'ERROR_MAX_PRIVATE = "You have reached the maximum number of private projects allowed for your account"'
    chunk = Chunk("app/settings.py", "python", 20, 20, text, "", "module", "config")
    said = value_said([Value("ERROR_MAX_PRIVATE", chunk, KeyLine(20, text))], 90, "check")
    assert said is not None, said
    assert 'private projects allowed…"`' in said[0], said  # cut after a whole word, its string closed
