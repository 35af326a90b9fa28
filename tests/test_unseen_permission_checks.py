"""Asked who may view or change something, answers on Express, Go and plain-Django apps held no construct for the
permission checks those apps write themselves (Umami's ``canViewWebsite``, Opengist's ``gist.CanWrite(user)``,
Taiga's ``user_has_perm``): only framework-owned checks (a Laravel gate, a DRF ``permission_classes``) counted, so the
answers opened on code sharing the question's words. A check is found by a name that says what may be done, never
by ``cancel(``, ``canParse(`` or ``is_file_allowed(``. Fixtures are the apps' code (dev apps of ``bench/data``).
"""

from __future__ import annotations

from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk

ACCESS = intents("Who is allowed to view or change a given site's statistics, and where is that checked?")

# umami src/permissions/website.ts, lines 7-9
UMAMI = """export async function canViewWebsite({ user, shareToken }: Auth, websiteId: string) {
  if (user?.isAdmin) {
    return true;"""
# taiga-back taiga/base/api/permissions.py, lines 168-169
TAIGA = """    def check_permissions(self, request, view, obj=None):
        return user_has_perm(request.user, self.project_perm, obj)"""
# opengist internal/web/server/middlewares.go, lines 177-178
OPENGIST = """\t\tif !gist.CanWrite(user) {
\t\t\treturn ctx.ErrorRes(403, "You don't have permission to edit this gist", nil)"""
NAMESAKES = """def upload(job, parser, f):
    job.cancel(True)
    if parser.canParse(f) and is_file_allowed(f):
        return isAllowedFileType(f)"""


def _said(path: str, language: str, text: str, start: int = 1) -> list[tuple[int, str]]:
    chunk = Chunk(path, language, start, start + text.count("\n"), text, "", "function", "")
    return [(m.line, m.phrase) for m in matches_in(chunk, load_all(), ACCESS)]


def test_a_permission_check_the_app_writes_is_found_where_it_is_defined_and_called() -> None:
    said = _said("src/permissions/website.ts", "typescript", UMAMI, 7)
    assert (7, "defines a permission check (`canViewWebsite`)") in said, said
    said = _said("taiga/base/api/permissions.py", "python", TAIGA, 168)
    assert (169, "checks a permission (`user_has_perm`)") in said, said
    assert (177, "checks a permission (`CanWrite`)") in _said("internal/web/server/middlewares.go", "go", OPENGIST, 177)


def test_names_that_only_begin_like_a_check_are_none() -> None:
    assert _said("app/uploads.py", "python", NAMESAKES) == []
