"""JS/TS names in the symbol graph resolved through imports and scopes (#35): a name links to the definition its
file's imports mean, not to every namesake. Built by the real indexer over a real git repository."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.graph_precision import main as graph_precision
from codeqa.config import Settings
from codeqa.evaluate.answers import summarize_graph_checks
from codeqa.evaluate.graphcheck import measure
from codeqa.evaluate.tscheck import typescript_missing
from codeqa.index import Index
from tests.conftest import git, init_repo, write_files
from tests.helpers import links

SQL = "".join(f"    select count(*) as visits_{day} from website_event where day = {day}\n" for day in range(30))
APP: dict[str, str] = {
    "package.json": '{"name": "shop", "dependencies": {"lodash": "^4.17.0"}}\n',
    # two modules define slugify; the post page imports one of them
    "src/util/words.ts": "export function slugify(title: string): string {\n  return title.toLowerCase();\n}\n",
    "src/util/legacy.ts": "export function slugify(title: string): string {\n  return title.trim();\n}\n",
    "src/pages/post.ts": "import { slugify } from '../util/words';\n\n"
    "export function postUrl(title: string): string {\n  return '/p/' + slugify(title);\n}\n",
    # debounce comes from a package here; the repository's own debounce is another function
    "src/util/timing.ts": "export function debounce(fn: () => void): () => void {\n  return fn;\n}\n",
    "src/search.ts": "import { debounce } from 'lodash';\n\n"
    "export function searchBox(run: () => void) {\n  return debounce(run);\n}\n",
    # a default export and a re-export through an index file; namesakes in legacy/
    "src/services/users.ts": "export default function loadUsers() {\n  return [];\n}\n",
    "src/services/billing.ts": "export function chargeCard(amount: number) {\n  return amount;\n}\n",
    "src/services/index.ts": "export { default as loadUsers } from './users';\nexport * from './billing';\n",
    "src/legacy/users.ts": "export function loadUsers() {\n  return null;\n}\n",
    "src/legacy/billing.ts": "export function chargeCard(amount: number) {\n  return -amount;\n}\n",
    "src/app.ts": "import { loadUsers, chargeCard } from './services';\n\n"
    "export function start() {\n  loadUsers();\n  chargeCard(10);\n}\n",
    "src/admin.ts": "import loadUsers from './services/users';\n\n"
    "export function adminPage() {\n  return loadUsers();\n}\n",
    # CommonJS: two modules export send; the route takes the mailer's
    "lib/mailer.js": "function sendMessage(to) {\n  return to;\n}\n\nmodule.exports = { sendMessage };\n",
    "lib/sms.js": "function sendMessage(to) {\n  return null;\n}\n\nmodule.exports = { sendMessage };\n",
    "routes/notify.js": "const { sendMessage } = require('../lib/mailer');\n\n"
    "function notifyUser(user) {\n  return sendMessage(user.email);\n}\n\nmodule.exports = { notifyUser };\n",
    # a module's default export taken apart inside each function (umami's queries)
    "src/lib/prisma.ts": "function rawQuery(sql: string) {\n  return sql;\n}\n\nexport default { rawQuery };\n",
    "src/lib/clickhouse.ts": "function rawQuery(sql: string) {\n  return sql + ';';\n}\n\n"
    "export default { rawQuery };\n",
    "src/queries/stats.ts": "import prisma from '../lib/prisma';\nimport clickhouse from '../lib/clickhouse';\n\n"
    + "".join(
        f"export function {name}() {{\n  const {{ rawQuery }} = {module};\n  return rawQuery(`\n{SQL}`);\n}}\n\n"
        for name, module in (("relationalStats", "prisma"), ("columnarStats", "clickhouse"))
    ),  # fmt: skip
}


def callees(found: set[tuple[str, str]], caller: str) -> set[str]:
    return {callee for source, callee in found if source == caller}


@pytest.fixture(scope="module")
def app_links(tmp_path_factory: pytest.TempPathFactory, models_dir: Path) -> set[tuple[str, str]]:
    home = tmp_path_factory.mktemp("home")
    settings = Settings(home=home, models_dir=models_dir)
    root = init_repo(home / "shop", APP)
    return links(Index.build(str(root), settings, name="shop").files)


def test_an_imported_name_links_to_the_module_it_comes_from_only(app_links: set[tuple[str, str]]) -> None:
    assert callees(app_links, "src/pages/post.ts:postUrl") == {"src/util/words.ts:slugify"}
    assert callees(app_links, "routes/notify.js:notifyUser") == {"lib/mailer.js:sendMessage"}


def test_a_name_from_an_external_package_links_nowhere(app_links: set[tuple[str, str]]) -> None:
    assert "src/util/timing.ts:debounce" not in callees(app_links, "src/search.ts:searchBox")


def test_a_default_export_and_a_re_export_through_an_index_file_resolve(app_links: set[tuple[str, str]]) -> None:
    assert callees(app_links, "src/app.ts:start") >= {"src/services/users.ts:loadUsers",
                                                        "src/services/billing.ts:chargeCard"}  # fmt: skip
    assert not {c for c in callees(app_links, "src/app.ts:start") if c.startswith("src/legacy/")}
    assert callees(app_links, "src/admin.ts:adminPage") == {"src/services/users.ts:loadUsers"}


def test_a_name_taken_from_a_module_inside_a_function_means_that_module(app_links: set[tuple[str, str]]) -> None:
    assert callees(app_links, "src/queries/stats.ts:relationalStats") == {"src/lib/prisma.ts:rawQuery"}
    assert callees(app_links, "src/queries/stats.ts:columnarStats") == {"src/lib/clickhouse.ts:rawQuery"}


def test_an_update_links_js_files_as_a_build_does(tmp_path: Path, settings: Settings) -> None:
    """Carried files keep their scopes (the destructured names included): an update's graph equals a rebuild's."""
    root = init_repo(tmp_path / "shop", APP)
    index = Index.build(str(root), settings, name="shop")
    write_files(root, {"src/search.ts": APP["src/search.ts"] + "\nexport const ready = true;\n"})
    git(root, "commit", "-qam", "edit")
    updated = index.update()
    assert updated.report is not None and updated.report.carried > 0
    rebuilt = Index.build(str(root), settings, name="again")
    assert links(updated.files) == links(rebuilt.files)
    assert callees(links(updated.files), "src/queries/stats.ts:columnarStats") == {"src/lib/clickhouse.ts:rawQuery"}


def test_the_typescript_check_says_what_is_missing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setenv("CODEQA_NODE_MODULES", str(tmp_path / "nowhere"))
    reason = typescript_missing()
    assert reason is not None and "typescript" in reason
    assert "npm install" in reason or "node" in reason
    assert graph_precision([str(tmp_path), "--checker", "typescript"]) == 2
    assert reason in capsys.readouterr().err


@pytest.mark.skipif(typescript_missing() is not None, reason=str(typescript_missing()))
def test_the_typescript_check_scores_each_link_by_go_to_definition(tmp_path: Path) -> None:
    """The TypeScript language service calls the names-only graph's namesake links wrong and the resolved graph's
    links right; the summary keeps JS/TS apart from Python."""
    write_files(tmp_path, APP)
    checked = measure(tmp_path, 400, 35, "typescript")
    names_only, resolved = checked["graphs"]["names only"], checked["graphs"]["resolved"]
    assert names_only["wrong"] >= 4 and names_only["calls_wrong"] >= 4
    assert any("src/util/legacy.ts" in example for example in names_only["wrong_examples"])
    assert resolved["wrong"] == 0 and resolved["right"] >= 8 and resolved["call_precision"] == 100.0
    assert names_only["right_kept_by_resolved"] == names_only["right"]
    summary = summarize_graph_checks([{"repo": "acme/shop", "framework": "Express", **checked}])
    assert summary["overall (JS/TS)"]["precision"] == 100.0 and "overall" not in summary
