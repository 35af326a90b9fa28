"""A permission check named for the question's verb is shown beside its file's other checks (#35, real-size facts).

Umami's ``canViewWebsite`` decides who may view a site's statistics: an admin, a share link, the owner or a member of
the team. It never says "permission" (no ``hasPermission``), so its construct is weaker than its neighbours'
(``canUpdateWebsite`` calls ``hasPermission``), and asked "who may view …" the answer showed every other check of
the file but that one. A definition with a construct, named for a word of the question (compared as whole stems:
``login`` is not named for logging), in a file the answer already shows, is now among the candidates.

A small Next.js app shaped like umami's ``src/permissions``, indexed for real; the question is not umami's.
"""

from __future__ import annotations

from pathlib import Path

from codeqa.answer.explanation.code.keylines import question_terms
from codeqa.answer.explanation.code.named import named_for
from codeqa.records import Chunk
from tests.helpers import extractive_text

PROJECT_TS = """import { hasPermission } from '@/lib/auth';
import { PERMISSIONS } from '@/lib/constants';
import { getEntity } from '@/lib/entity';
import { getProject, getTeamUser } from '@/queries/projects';

export async function canViewProject({ user, shareToken }: Auth, projectId: string) {
  if (user?.isAdmin) {
    return true;
  }

  if (
    shareToken?.projectId === projectId ||
    shareToken?.boardId === projectId ||
    shareToken?.projectIds?.includes(projectId) ||
    shareToken?.boardIds?.includes(projectId)
  ) {
    return true;
  }

  const entity = await getEntity(projectId);

  if (!entity || !user) {
    return false;
  }

  if (entity.userId) {
    return user.id === entity.userId;
  }

  if (entity.teamId) {
    const member = await getTeamUser(entity.teamId, user.id);

    return !!member;
  }

  return false;
}

export async function canCreateProject({ user }: Auth) {
  if (user.isAdmin) {
    return true;
  }

  return hasPermission(user.role, PERMISSIONS.projectCreate);
}

export async function canUpdateProject({ user }: Auth, projectId: string) {
  if (user.isAdmin) {
    return true;
  }

  const project = await getProject(projectId);

  if (project.teamId) {
    const teamUser = await getTeamUser(project.teamId, user.id);

    return teamUser && hasPermission(teamUser.role, PERMISSIONS.projectUpdate);
  }

  return user.id === project.userId;
}

export async function canDeleteProject({ user }: Auth, projectId: string) {
  if (user.isAdmin) {
    return true;
  }

  const project = await getProject(projectId);

  if (project.teamId) {
    const teamUser = await getTeamUser(project.teamId, user.id);

    return teamUser && hasPermission(teamUser.role, PERMISSIONS.projectDelete);
  }

  return user.id === project.userId;
}
"""
AUTH_TS = """import { ROLE_PERMISSIONS } from '@/lib/constants';

export async function hasPermission(role: string, permission: string | string[]) {
  const check = Array.isArray(permission) ? permission : [permission];

  const userRole = ROLE_PERMISSIONS[role];

  return check.every(value => userRole?.includes(value));
}
"""
ROUTE_TS = """import { canViewProject } from '@/permissions/project';
import { unauthorized, json } from '@/lib/response';
import { getReport } from '@/queries/reports';

export async function GET(request: Request, { params }: { params: { projectId: string } }) {
  const auth = await parseAuth(request);

  if (!(await canViewProject(auth, params.projectId))) {
    return unauthorized();
  }

  return json(await getReport(params.projectId));
}
"""
# pages that show a project's reports: they hold the question's words on many lines and fill the answer's places, as a
# real-size app's pages do (umami's dashboards); the check named for the question must still be shown
PAGES = {
    f"src/app/projects/[id]/{kind}/{kind.title()}ReportPage.tsx": f"""import {{ useProjectReport }} from '@/hooks';

export function {kind.title()}ReportPage({{ projectId }}: {{ projectId: string }}) {{
  const {{ report, isLoading }} = useProjectReport(projectId, '{kind}');
  const viewReport = report?.views ?? [];
  const projectViews = viewReport.filter(view => view.projectId === projectId);
  return <ReportView project={{projectId}} report={{report}} views={{projectViews}} loading={{isLoading}} />;
}}
"""
    for kind in ("traffic", "events", "sessions", "pages", "sources", "devices", "retention", "funnels", "goals")
}
INDEXED_APPS = {
    "reports": {
        **PAGES,
        "package.json": '{"name": "reports", "dependencies": {"next": "14.2.0", "react": "18.2.0"}}\n',
        "src/permissions/project.ts": PROJECT_TS,
        "src/lib/auth.ts": AUTH_TS,
        "src/app/api/projects/[projectId]/report/route.ts": ROUTE_TS,
    }
}


def test_a_check_named_for_the_questions_verb_is_shown_beside_its_files_other_checks(apps_home: Path) -> None:
    answer = extractive_text(apps_home, "reports", "Who may view a project's reports, and where is that checked?")
    assert "src/permissions/project.ts" in answer, answer
    shown = [line for line in answer.split("\n") if "shareToken?.projectId === projectId" in line]
    assert shown, answer  # its code, not only its name as a repeat of another check or a callee
    assert "(line " in shown[0] or shown[0].lstrip()[:2].isdigit(), shown


def test_a_name_holds_a_question_word_as_a_whole_stem() -> None:
    def chunk(symbol: str) -> Chunk:
        return Chunk("app/x.py", "python", 1, 2, "def f():\n    pass", symbol, "function", "core")

    logging = question_terms("Where would I add logging to track user behavior?")
    assert named_for(logging, chunk("BaseController.log_api_access"))
    assert not named_for(logging, chunk("AuthController.login"))  # starts with "log", is no logging
    viewing = question_terms("Who may view a project's reports?")
    assert named_for(viewing, chunk("canViewProject"))
    assert not named_for(viewing, chunk("canCreateTeam"))
