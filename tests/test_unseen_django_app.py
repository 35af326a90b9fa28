"""What was false on paperless-ngx, a Django + Angular app (1,458 files) in no data set, read as a user does:
- "[1] `patched_process_response` (`settings/__init__.py:182-221`) is a function" over lines that are the settings'
  ``MIDDLEWARE = [`` list, the function only below it: such a chunk is the file's top-level code, with the function;
- "`Command._rescan_existing_files` records an event of what the user does" for a file watcher's
  ``tracker.track(resolved, Change.added)``: an event is recorded where the call names it."""

from __future__ import annotations

from codeqa.answer.explanation.calls.callplace import as_module
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk

SETTINGS = """MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "paperless.middleware.ApiVersionMiddleware",
]

original_process_response = CompressionMiddleware.process_response


def patched_process_response(self, request, response):
    if getattr(request, "compress_exempt", False):
        return response
    return original_process_response(self, request, response)"""
RESCAN = """    def _rescan_existing_files(self, tracker, queued):
        for path in self.directory.rglob("*"):
            resolved = path.resolve()
            if tracker.is_tracking(resolved) or resolved in queued:
                continue
            tracker.track(resolved, Change.added)"""
SIGNUP = """    def create(self, request):
        user = self.perform_create(request.data)
        analytics.track("Signed up", {"user": user.id})
        return Response(status=201)"""
LOGGING = "Where would I add logging to track user behavior?"


def _chunk(path: str, text: str, symbol: str, kind: str = "function", start: int = 1) -> Chunk:
    return Chunk(path, "python", start, start + text.count("\n"), text, symbol, kind, "config")


def test_a_chunk_opening_on_module_statements_is_the_files_code_with_its_function():
    settings = _chunk("src/paperless/settings/__init__.py", SETTINGS, "patched_process_response", start=182)
    assert as_module(settings) == ("__init__.py", "is the file's top-level code, with `patched_process_response`")
    function = _chunk(
        "src/paperless/settings/__init__.py", SETTINGS[SETTINGS.index("def ") :], "patched_process_response"
    )
    assert as_module(function) is None  # a chunk that is the function alone is named after it


def test_a_call_records_a_user_event_only_where_it_names_the_event():
    common = [c for c in load_all() if c.name == "any framework"]
    said = lambda text: [m.phrase for m in matches_in(_chunk("app/views.py", text, "f", "method"), common,  # noqa: E731
                                                      intents(LOGGING))]  # fmt: skip
    assert "records an event of what the user does" not in said(RESCAN)
    assert "records an event of what the user does" in said(SIGNUP)


def test_a_failure_of_something_the_question_names_is_not_asked_of_the_request_mechanism():
    # paperless: "What happens when fetching mail fails?" opened on the settings' MIDDLEWARE list, which no mail
    # fetch passes through; "What happens when an API request fails?" is about that mechanism
    from codeqa.answer.explanation.code.keylines import question_terms
    from codeqa.answer.explanation.sources.opener import asks_mechanism

    for question, mechanism in [("What happens when an API request fails?", True),
                                ("What happens when fetching mail fails?", False),
                                ("What happens when a background job fails?", False)]:  # fmt: skip
        assert asks_mechanism(question_terms(question), intents(question)) is mechanism, question


def test_a_stylesheet_cannot_explain_a_mechanism():
    # changelog.com: "What happens when a background job fails?" opened on `buttons.scss` (`background: $white`)
    from codeqa.answer.explanation.constructs.mechanism import answers_poorly

    mixin = "@mixin button($background, $color) {\n  background: $background;\n}"
    style = Chunk("assets/app/helpers/mixins/buttons.scss", "scss", 1, 3, mixin, "", "module", "view")
    assert answers_poorly(style)
    assert not answers_poorly(_chunk("src/paperless/auth.py", "def authenticate(self, request):\n    pass", "f"))
