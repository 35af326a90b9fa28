"""The closings added for answers that ended without one (issue #35): a question that asks for a place ("which tasks
run every day, and where are they registered?") closes on the lead's construct of its topic and the lines it is
written on, when no flow was walked; a closing that would copy the opening, or a question that asks for no place,
gets none; a walk of several calls names its first call and where the calls end (the numbered steps list the
others). Each fails on main (no place closing; the walk's closing named every call).

Apps (real tree-sitter, real Chroma, the packaged embedding model): a Laravel notes app with a policy that asks the
note model whether the user owns it, a schedule of two daily jobs and the export job; a Flask notes app whose view
calls a service that calls the store, which commits.
"""

from __future__ import annotations

import re

from codeqa.config import Settings
from tests.test_conclusion import answer, closing

LARAVEL_NOTES = {
    "composer.json": '{"require": {"php": "^8.2", "laravel/framework": "^11.0"}}\n',
    "app/Policies/NotePolicy.php": """<?php

namespace App\\Policies;

use App\\Models\\Note;
use App\\Models\\User;

class NotePolicy
{
    public function edit(User $user, Note $note): bool
    {
        return $note->ownedBy($user);
    }

    public function delete(User $user, Note $note): bool
    {
        return $note->ownedBy($user);
    }
}
""",
    "app/Models/Note.php": """<?php

namespace App\\Models;

use Illuminate\\Database\\Eloquent\\Model;
use Illuminate\\Database\\Eloquent\\Relations\\BelongsTo;

class Note extends Model
{
    protected $fillable = ['title', 'body', 'user_id', 'archived_at'];

    /** The member who wrote the note. */
    public function owner(): BelongsTo
    {
        return $this->belongsTo(User::class, 'user_id');
    }

    /** Whether the note belongs to this member: only its owner may change or remove it. */
    public function ownedBy(User $user): bool
    {
        return $this->user_id === $user->id;
    }
"""
    + "".join(
        f"""
    /** The note's {field}, trimmed and shortened for the list page of the notes a member keeps. */
    public function short{field.title()}(int $length = 80): string
    {{
        $value = trim((string) $this->{field});
        return mb_strlen($value) > $length ? mb_substr($value, 0, $length - 1) . '…' : $value;
    }}
"""
        for field in ("title", "body", "summary", "author", "folder", "colour", "language", "source")
    )
    + "}\n",
    "routes/console.php": """<?php

use App\\Jobs\\ExportNotes;
use App\\Jobs\\PruneNotes;
use Illuminate\\Support\\Facades\\Schedule;

Schedule::job(new ExportNotes())->daily();
Schedule::job(new PruneNotes())->daily();
""",
    "app/Jobs/ExportNotes.php": """<?php

namespace App\\Jobs;

use App\\Models\\Note;
use Illuminate\\Contracts\\Queue\\ShouldQueue;

class ExportNotes implements ShouldQueue
{
    public function handle(): void
    {
        foreach (Note::all() as $note) {
            $note->export();
        }
    }
}
""",
}

FLASK_NOTES = {
    "requirements.txt": "flask==3.0.0\nflask-sqlalchemy==3.1.1\n",
    "notes/__init__.py": '''"""The notes application."""
from flask import Flask

from notes.views import bp


def create_app():
    app = Flask(__name__)
    app.register_blueprint(bp)
    return app
''',
    "notes/views.py": """from flask import Blueprint, jsonify, request

from notes.service import add_note

bp = Blueprint("notes", __name__)


@bp.route("/notes", methods=["POST"])
def create_note():
    note = add_note(request.json["title"], request.json["body"])
    return jsonify({"id": note.id}), 201
""",
    "notes/service.py": """from notes.store import save_note


def add_note(title, body):
    title = title.strip()
    return save_note(title, body)
""",
    "notes/store.py": """from notes.models import Note, db


def save_note(title, body):
    note = Note(title=title, body=body)
    db.session.add(note)
    db.session.commit()
    return note
""",
    "notes/models.py": """from flask_sqlalchemy import SQLAlchemy

db = SQLAlchemy()


class Note(db.Model):
    id = db.Column(db.Integer, primary_key=True)
    title = db.Column(db.String(200))
    body = db.Column(db.Text)
""",
}

INDEXED_APPS = {"policies": LARAVEL_NOTES, "flasknotes": FLASK_NOTES}


def test_a_place_question_closes_on_where_its_construct_is_written_and_no_copy_is_said(apps_settings: Settings) -> None:
    text = answer(apps_settings, "policies", "Which tasks run automatically every day, and where are they registered?")
    said = closing(text)
    assert said == (
        "**In short:** `console.php` (`routes/console.php:1-8`) runs in the background or on a schedule: at "
        "`routes/console.php:7-8`: `Schedule::job(new ExportNotes())->daily()` and 1 more like it."
    ), text
    assert "**Step by step**" not in text  # no flow was walked: the closing is the construct, not a story
    # the policy and its checked call are what the opening says: said again under "In short" it would be a copy
    text = answer(apps_settings, "policies", "Who is allowed to edit or delete a note, and where is that rule written?")
    opening = text.split("\n")[0]
    assert "`NotePolicy` (`app/Policies/NotePolicy.php:1-19`) decides what the user may do" in opening, text
    assert "calls `ownedBy` (`app/Models/Note.php:" in opening, text
    assert closing(text) == "", text
    # "what keeps track of whether the export is stuck" asks for no place: a job class near the question is not its
    # answer, and restated as "In short" it would read as one
    tracked = answer(apps_settings, "policies", "What keeps track of whether the nightly background export is stuck?")
    assert closing(tracked) == "", tracked


def test_a_walk_of_several_calls_closes_on_its_first_call_and_where_they_end(apps_settings: Settings) -> None:
    text = answer(apps_settings, "flasknotes", "What happens when a user creates a note?")
    said = closing(text)
    assert said.startswith("**In short:** `create_note` (`notes/views.py:"), text
    # the steps list every call; the closing names the first and what the calls end in
    assert re.search(r"^\d\. .*`save_note`", text, re.MULTILINE), text
    assert "calls `add_note`, which in the end stores with `db.session.commit()` (`notes/store.py:7`)" in said
    assert "`save_note`" not in said


def test_a_statement_said_in_the_closing_has_no_semicolon_before_the_next_clause() -> None:
    from codeqa.answer.explanation.said.closing_place import _quote

    # umami: "at `src/permissions/website.ts:55`: `return hasPermission(…);`; `canCreateWebsite` calls …" read "; ;"
    said = _quote("    return hasPermission(user.role, PERMISSIONS.websiteCreate);")
    assert said == "return hasPermission(user.role, PERMISSIONS.websiteCreate)"
    assert _quote("for (const x of xs) {") == "for (const x of xs) {"
