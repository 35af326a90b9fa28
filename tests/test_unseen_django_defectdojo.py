"""DefectDojo (a Django app in no data set, 5,600 files), asked "How does user authentication flow through the
system?", said "The code at ``unittests/scans/snyk/snykcode_issue_9270.json:2370-2443`` checks the token and issues
the token the client sends back": a scanner's JSON report quoting ``jwt.sign(user, 'secret')`` as data, in a test
folder named ``unittests/``. It said "Its documentation says: “# user specific”" of a comment written ``# #  user
specific``, "login_view reads ``template_name = "dojo/login.html"``" of a view that passes ``template_name=`` to
``as_view``, and "Then ``delete_user`` answers with …" because the opening cited another view of the same file."""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.code.keylines import KeyLine
from codeqa.answer.explanation.code.outline import summary
from codeqa.answer.explanation.code.values import values_read
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.said.extractive import extractive_answer
from codeqa.chunk.layers import layer_for
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk, Hit

REPORT = """          "properties": {
            "exampleCommitFixes": [
              { "line": "data = jwt.verify(token, 'cms')\\n" },
              { "line": "const token = jwt.sign(user, 'secret');\\n" }
            ]
          }"""
VIEWS = """class DojoLoginView(LoginView):
    template_name = "dojo/login.html"
    authentication_form = AuthenticationForm


# #  user specific
@dojo_ratelimit(key="post:username")
def login_view(request):
    return DojoLoginView.as_view(template_name="dojo/login.html", authentication_form=AuthenticationForm)(request)"""


LOGIN = VIEWS.split("\n\n\n")[1]


def test_a_json_report_quoting_code_runs_none_of_it() -> None:
    report = Chunk("docs/scans/snyk/report.json", "json", 2370, 2375, REPORT, "", "module", "config")
    assert matches_in(report, load_all(), intents("How does user authentication flow through the system?")) == []
    code = Chunk("src/auth.js", "javascript", 1, 1, "const token = jwt.sign(user, 'secret');", "", "module", "api")
    assert matches_in(code, load_all(), intents("How does user authentication flow through the system?")) != []


def test_a_unittests_folder_is_a_test_folder() -> None:
    assert str(layer_for("unittests/scans/snyk/snykcode_issue_9270.json")) == "test"
    assert str(layer_for("integration_tests/test_api.py")) == "test"
    assert str(layer_for("contests/views.py")) != "test"


def test_a_comment_written_with_doubled_markers_is_said_without_them() -> None:
    chunk = Chunk(
        "dojo/user/ui/views.py", "python", 120, 123, VIEWS.split("\n\n\n")[1], "login_view", "function", "api"
    )
    assert summary(chunk) == "user specific"


def test_a_keyword_argument_is_passed_not_read() -> None:
    views = Chunk("dojo/user/ui/views.py", "python", 58, 60, VIEWS.split("\n\n\n")[0], "DojoLoginView", "class", "api")
    login = Chunk(
        "dojo/user/ui/views.py", "python", 120, 123, VIEWS.split("\n\n\n")[1], "login_view", "function", "api"
    )
    passed = KeyLine(123, '    return DojoLoginView.as_view(template_name="dojo/login.html")(request)')
    assert values_read([passed], login, [views]) == []
    read = KeyLine(123, "    return render(request, template_name)")
    assert [value.name for value in values_read([read], login, [views])] == ["template_name"]


SIGN_IN = """import { Router } from 'express';

const router = Router();

router.post('/login', async (req, res) => {
  req.session.userId = user.id;
  return res.redirect('/');
});"""
DELETE = """router.post('/users/:id/delete', async (req, res) => {
  await userRepository.save(user);
  return res.redirect('/users');
});"""


def test_an_outcome_of_another_piece_of_a_cited_file_is_not_said() -> None:
    chunks = [Chunk("server/views.ts", "typescript", 1, 8, SIGN_IN, "", "module", "api"),
              Chunk("server/views.ts", "typescript", 40, 43, DELETE, "", "module", "api")]  # fmt: skip
    hits = [Hit(chunk, 1.0 - n / 10, chunk.id) for n, chunk in enumerate(chunks)]
    question = "How does user authentication flow through the system?"
    opening = extractive_answer(question, hits, context=AnswerContext.from_chunks(chunks, hits)).split("\n")[0]
    assert "server/views.ts:1" in opening and "userRepository.save" not in opening


SETTINGS = """REST_FRAMEWORK = {
    "DEFAULT_PAGINATION_CLASS": "dojo.api_v2.pagination.CustomPageNumberPagination",
    "EXCEPTION_HANDLER": "dojo.api_v2.exception_handler.custom_exception_handler",
}"""
HANDLER = """from rest_framework.views import exception_handler


def custom_exception_handler(exc, context):
    # Call REST framework's default exception handler first
    response = exception_handler(exc, context)
    return response"""


def test_errors_go_to_the_handler_the_setting_names() -> None:
    """DefectDojo: "Where errors go: to the code at ``settings.dist.py:717``" — a settings line that names
    ``custom_exception_handler``, whose code was the next source."""
    chunks = [Chunk("dojo/settings/settings.py", "python", 700, 703, SETTINGS, "", "module", "config"),
              Chunk("dojo/api_v2/exception_handler.py", "python", 1, 7, HANDLER, "custom_exception_handler",
                    "function", "api")]  # fmt: skip
    hits = [Hit(chunk, 1.0 - n / 10, chunk.id) for n, chunk in enumerate(chunks)]
    answer = extractive_answer("What happens when an API request fails?", hits,
                               context=AnswerContext.from_chunks(chunks, hits))  # fmt: skip
    assert ("**Where errors go:** to `custom_exception_handler` (`dojo/api_v2/exception_handler.py:1-7`, registered "
            "at `dojo/settings/settings.py:702`)") in answer, answer.split("\n")[0]  # fmt: skip
