"""Tags stored with the index: written once by the writer, read by the overview and answers, kept by updates."""

from __future__ import annotations

import inspect
import json
import sys

from codeqa.chunk import chunk_and_tag
from codeqa.chunk.resolve import READS_REFERENCES, RESOLVERS
from codeqa.config import Settings
from codeqa.explore.overview import load_overview
from codeqa.index import Index
from codeqa.scan import read_source, scan_repository
from codeqa.searchfiles import forget_search_files
from codeqa.searchfiles.files import META_FILE
from codeqa.searchfiles.tagfile import IMPORTS_FILE, TAGS_FILE, load_imports, load_tags
from tests.conftest import git, init_repo, write_files
from tests.web_apps import EXPRESS_APP, RAILS_APP

TS_EXPRESS_APP: dict[str, str] = {
    "package.json": '{"name": "notes-api", "dependencies": {"express": "^4"}}',
    "tsconfig.json": '{\n  // aliases\n  "compilerOptions": {"baseUrl": ".", "paths": {"@/*": ["src/*"]},},\n}',
    "src/index.ts": "import express from 'express';\nimport { router } from '@/routes';\n\n"
    "const app = express();\napp.use('/api', router);\napp.listen(3000);\n",
    "src/routes/index.ts": "import { Router } from 'express';\nimport { listNotes } from '@/controllers/notes';\n\n"
    "export const router = Router();\nrouter.get('/notes', listNotes);\n",
    "src/controllers/notes.ts": "import type { Request, Response } from 'express';\n"
    "import { NoteService } from '../services/note.service';\n\n"
    "export async function listNotes(req: Request, res: Response) {\n"
    "  res.json(await new NoteService().all());\n}\n",
    "src/services/note.service.ts": "import { Note } from '@/models/note';\nimport { db } from '../db';\n\n"
    "export class NoteService {\n  all(): Promise<Note[]> {\n    return db.select('notes');\n  }\n}\n",
    "src/models/note.ts": "export interface Note {\n  id: string;\n  body: string;\n}\n",
    "src/db.ts": "import knex from 'knex';\nexport const db = knex({ client: 'pg' });\n",
}


def edges(overview) -> set[tuple[str, str]]:
    return {(edge.source, edge.target) for edge in overview.dependencies().edges}


def test_the_overview_of_an_express_app_shows_its_imports_between_modules(tmp_path, settings: Settings):
    for name, files in (("ts", TS_EXPRESS_APP), ("js", EXPRESS_APP)):
        overview = load_overview(Index.build(str(init_repo(tmp_path / name, files)), settings, name=name))
        assert overview.dependencies(1).edges == ()  # all in src/: top-level modules show nothing
        found = edges(overview)
        assert {("src/routes", "src/controllers"), ("src/controllers", "src/services"),
                ("src/services", "src/models")} <= found or name == "js", found  # fmt: skip
        assert {("src/routes", "src/services"), ("src/services", "src/models")} <= found or name == "ts", found
        assert "express" in overview.external_imports and "knex" in overview.external_imports


def test_the_overview_of_a_rails_app_follows_autoloaded_constants(tmp_path, settings: Settings):
    overview = load_overview(Index.build(str(init_repo(tmp_path / "rails", RAILS_APP)), settings, name="rails"))
    assert overview.file_imports["app/controllers/sessions_controller.rb"] == (
        "app/controllers/application_controller.rb",
        "app/services/login_service.rb",
    )
    assert {("app/controllers", "app/services"), ("app/services", "app/models"),
            ("app/controllers", "app/models")} <= edges(overview)  # fmt: skip


def test_tags_are_written_once_and_read_back_as_extracted(tmp_path, settings: Settings):
    root = init_repo(tmp_path / "ts", TS_EXPRESS_APP)
    index = Index.build(str(root), settings, name="ts")
    stored = load_tags(index.folder)
    assert stored is not None
    for file in scan_repository(root, settings).files:
        _, tags = chunk_and_tag(read_source(root, file.path, settings), settings)  # type: ignore[arg-type]
        assert stored[file.path] == tags, file.path
    imports = load_imports(index.folder)
    assert imports is not None
    assert imports.files["src/routes/index.ts"] == ("src/controllers/notes.ts",)
    assert Index.open("ts", settings).files.imports == imports


def test_search_files_rebuilt_from_the_store_have_the_same_tags(tmp_path, settings: Settings):
    directory = Index.build(str(init_repo(tmp_path / "rails", RAILS_APP)), settings, name="rails").folder
    before_tags, before_imports = load_tags(directory), load_imports(directory)
    for name in (TAGS_FILE, IMPORTS_FILE):
        (directory / name).unlink()
    (directory / META_FILE).write_text(json.dumps({"version": 0}))  # as an older codeqa left them
    forget_search_files(directory)
    index = Index.open("rails", settings)
    assert index.files.imports == before_imports
    assert index.tags() == before_tags


def test_an_update_keeps_the_tags_of_unchanged_files_and_retags_changed_ones(tmp_path, settings: Settings):
    root = init_repo(tmp_path / "ts", TS_EXPRESS_APP)
    index = Index.build(str(root), settings, name="ts")
    before = index.tags()
    write_files(root, {"src/models/note.ts": "import { db } from '../db';\nexport interface Note { id: string }\n"})
    updated = index.update()
    assert updated.report is not None and updated.report.carried > 0  # an update in place, not a rebuild
    after = updated.tags()
    assert after["src/services/note.service.ts"] == before["src/services/note.service.ts"]
    assert [i.target for i in after["src/models/note.ts"].imports] == ["../db"]
    assert load_overview(updated).file_imports["src/models/note.ts"] == ("src/db.ts",)


def test_the_symbol_graph_links_uses_in_code_not_mentions_in_comments(tmp_path, settings: Settings):
    files = {
        "shop/pricing.py": "def compute_total(lines):\n    return sum(lines)\n",
        "shop/cart.py": "from shop.pricing import compute_total\n\n\ndef checkout(cart):\n"
        "    return compute_total(cart.lines)\n",
        "shop/notes.py": "def describe():\n    # compute_total is documented elsewhere\n"
        '    return "compute_total adds the lines"\n',
        "README.md": "# Shop\n\nCall `compute_total` to add the lines.\n",
    }
    search = Index.build(str(init_repo(tmp_path / "shop", files)), settings, name="shop").files
    rows = {symbol: row for row, symbol in enumerate(search.table.symbols)}
    callers = {search.table.paths[row] for row in search.graph.callers(rows["compute_total"])}
    assert callers == {"shop/cart.py", "README.md"}  # prose still links (no tag query reads it); comments do not


def test_only_the_rules_said_to_read_references_read_them():
    """A carried file's references are decoded for resolution only in the families ``READS_REFERENCES`` names."""
    for family, resolver in RESOLVERS.items():
        source = inspect.getsource(sys.modules[resolver.__module__])
        assert (".references" in source) == (family in READS_REFERENCES), family


def test_an_update_resolves_carried_files_as_a_build_does(tmp_path, settings: Settings):
    root = init_repo(tmp_path / "rails", RAILS_APP)
    index = Index.build(str(root), settings, name="rails")
    write_files(root, {"app/models/user.rb": "class User < ApplicationRecord\n  has_many :sessions\nend\n"})
    git(root, "commit", "-qam", "edit")
    updated = index.update()
    assert updated.report is not None and updated.report.carried > 0
    rebuilt = Index.build(str(root), settings, name="again")
    assert updated.files.imports == rebuilt.files.imports
    assert updated.tags() == rebuilt.tags()
    assert (updated.folder / TAGS_FILE).read_text() == (rebuilt.folder / TAGS_FILE).read_text()


def test_an_update_of_python_files_resolves_as_a_build_does(tmp_path, settings: Settings):
    files = {
        "shop/__init__.py": "",
        "shop/pricing.py": "def compute_total(lines):\n    return sum(lines)\n",
        "shop/cart.py": "from shop.pricing import compute_total\n\n\ndef checkout(cart):\n"
        "    return compute_total(cart.lines)\n",
        "shop/tax.py": "RATE = 0.2\n",
    }
    root = init_repo(tmp_path / "shop", files)
    index = Index.build(str(root), settings, name="shop")
    edits = (
        {"shop/cart.py": files["shop/cart.py"].replace("def checkout", "# checkout\n\n\ndef checkout")},  # lines move
        {"shop/cart.py": "from shop import tax\n" + files["shop/cart.py"]},  # an import more
        {"shop/tax.py": "from shop.pricing import compute_total\nRATE = 0.2\n"},
    )
    for number, edit in enumerate(edits):
        write_files(root, edit)
        git(root, "commit", "-qam", f"edit {number}")
        index = index.update()
        assert index.report is not None and index.report.carried > 0
        rebuilt = Index.build(str(root), settings, name=f"again{number}")
        assert index.files.imports == rebuilt.files.imports, number
        assert (index.folder / TAGS_FILE).read_text() == (rebuilt.folder / TAGS_FILE).read_text()
    assert index.files.imports.files["shop/cart.py"] == ("shop/pricing.py", "shop/tax.py")
