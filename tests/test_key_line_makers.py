"""The line that makes what a span hands back is shown with the line that hands it back.

``return response.Ok(data)`` alone leaves a newcomer asking where ``data`` came from: the assignment that makes it
(``data = get_token(request.DATA)``, the call that signs in) often holds none of the question's words.
"""

from __future__ import annotations

from codeqa.answer.explanation.code.feeds import assigned_names, fed_lines, read_names
from codeqa.answer.explanation.code.keylines import question_terms, shown_order
from codeqa.answer.explanation.sources.choose import source_lines
from codeqa.records import Chunk
from codeqa.retrieve.question import Question

LOGIN_VIEW = """def create(self, request, **kwargs):
    self.check_permissions(request, 'create', None)
    auth_plugins = get_auth_plugins()

    login_type = request.DATA.get("type", "").lower()

    if login_type == "normal":
        # Default login process
        data = get_token(request.DATA)
    elif login_type in auth_plugins:
        data = auth_plugins[login_type]['login_func'](request)
    else:
        raise exc.BadRequest(_("invalid login type"))

    # Processing invitation token
    invitation_token = request.DATA.get("invitation_token", None)
    if invitation_token:
        accept_invitation_by_existing_user(invitation_token, data['id'])

    return response.Ok(data)"""

AUTH_QUESTION = "How does user authentication flow through the system?"


def _chunk(code: str, language: str = "python") -> Chunk:
    return Chunk("app/auth/api.py", language, 66, 66 + code.count("\n"), code, "", "function", "core")


def _shown(question: str, code: str, limit: int) -> list[str]:
    terms = question_terms(Question.parse(question))
    return [line.text.strip() for line in source_lines(terms, _chunk(code), [], limit)]


def test_the_assignment_a_branch_makes_the_returned_value_with_is_shown() -> None:
    shown = _shown(AUTH_QUESTION, LOGIN_VIEW, 7)
    assert "data = get_token(request.DATA)" in shown  # the normal sign-in: no word of the question in it
    assert "return response.Ok(data)" in shown


def test_a_maker_ranks_below_the_outcome_it_feeds() -> None:
    terms = question_terms(Question.parse(AUTH_QUESTION))
    lines = LOGIN_VIEW.split("\n")
    order = shown_order(terms, LOGIN_VIEW)
    returned = lines.index("    return response.Ok(data)")
    maker = lines.index("        data = get_token(request.DATA)")
    assert order.index(returned) < order.index(maker)  # shown with the return, never instead of it


def test_every_branch_assignment_of_a_returned_name_feeds_it_and_nothing_else_does() -> None:
    lines = LOGIN_VIEW.split("\n")
    fed = fed_lines(lines)
    returned = lines.index("    return response.Ok(data)")
    assert [lines[i].strip() for i in fed[returned]] == [
        "data = get_token(request.DATA)",
        "data = auth_plugins[login_type]['login_func'](request)",
    ]
    raised = lines.index('        raise exc.BadRequest(_("invalid login type"))')
    assert raised not in fed  # it reads no local name a line before it assigns


def test_assignments_and_reads_are_told_apart() -> None:
    assert assigned_names("const payload = parseSecureToken(token, secret());") == ("payload",)
    assert assigned_names("user, err := auth.TryAuthentication(dto.Username, dto.Password)") == ("user", "err")
    assert assigned_names("$token = $this->tokenManager->create($user);") == ("token",)
    assert assigned_names("if data == other:") == ()
    assert assigned_names("count += 1") == ()
    assert assigned_names("$token = [") == ()  # it only opens the value: nothing of what makes it
    assert read_names("return response.Ok(data)") == {"response", "data"}  # ``Ok`` is an attribute


FORK_GO = """func Fork(ctx *context.Context) error {
	parent, err := lookupGist(ctx, ctx.Param("uuid"))
	if err != nil {
		return ctx.ErrorJson(404, "Gist not found", err)
	}
	saved, err := db.CreateFork(parent)
	if err != nil {
		return ctx.ErrorJson(500, "failed to create fork", err)
	}
	return ctx.JSON(200, saved)
}"""


def test_an_error_answer_lifts_no_maker_of_its_error_value() -> None:
    lines = FORK_GO.split("\n")
    fed = fed_lines(lines)
    assert not any("ErrorJson" in lines[outcome] for outcome in fed)  # every ``x, err :=`` would follow each one
    returned = next(i for i, line in enumerate(lines) if "ctx.JSON(200, saved)" in line)
    assert [lines[i].strip() for i in fed[returned]] == ["saved, err := db.CreateFork(parent)"]


SIGNING = """def serialize(data, secret=None):
    s = URLSafeTimedSerializer(secret)
    return s.dumps(data)


def sign(data, secret=None):
    s = Signer(secret)
    return s.sign(data)"""


def test_a_maker_is_looked_for_in_the_outcomes_own_definition() -> None:
    lines = SIGNING.split("\n")
    fed = fed_lines(lines)
    assert [lines[i].strip() for i in fed[lines.index("    return s.sign(data)")]] == ["s = Signer(secret)"]


def test_a_module_level_assignment_still_makes_what_a_function_returns() -> None:
    lines = ["_local = threading.local()", "", "def get_current_context():", "    return _local.stack[-1]"]
    assert fed_lines(lines) == {3: [0]}
