"""The closing sentence ("In short: …", issue #35 "No conclusion"): said from the pieces the answer already checked
— the walk from an entry point to its outcome, a central error construct and its error answer — placed after the
steps and before the sources, and not said when those pieces are not there.

Apps (real tree-sitter, real Chroma, the packaged embedding model): a Flask sign-in (a login view that checks the
password, puts the member into the session and redirects); an Express API whose error middleware answers every
failing request with JSON (registered with ``app.use``, on another line than its own); the Flask reports app of
``test_flows`` (a view queueing a task that writes the report; no central error handler).
"""

from __future__ import annotations

import re

from codeqa.answer.rendering.citations import check_citations
from codeqa.config import Settings
from tests.helpers import ask_named
from tests.test_flows import REPORTS_APP, SIGNIN_APP

ERRORS_APP = {
    "package.json": '{"name": "notes", "dependencies": {"express": "^4.19.0"}}\n',
    "src/app.js": """const express = require('express');
const notes = require('./notes');
const errorHandler = require('./errors');

const app = express();
app.use(express.json());
app.use('/api/notes', notes);
app.use(errorHandler);

module.exports = app;
""",
    "src/errors.js": """// Every error a route passes on with next(err) is answered here, as JSON.
function errorHandler(err, req, res, next) {
  const status = err.status || 500;
  res.status(status).json({ error: err.message });
}

module.exports = errorHandler;
""",
    "src/notes.js": """const express = require('express');
const store = require('./store');

const router = express.Router();

router.get('/:id', async (req, res, next) => {
  try {
    const note = await store.find(req.params.id);
    res.json(note);
  } catch (err) {
    next(err);
  }
});

module.exports = router;
""",
    "src/store.js": """const notes = new Map();

async function find(id) {
  if (!notes.has(id)) {
    const error = new Error('note not found');
    error.status = 404;
    throw error;
  }
  return notes.get(id);
}

module.exports = { find };
""",
}

INDEXED_APPS = {"members": SIGNIN_APP, "notes": ERRORS_APP, "reports": REPORTS_APP}


def answer(settings: Settings, name: str, question: str) -> str:
    result = ask_named(name, question, settings, backend="none").result()
    assert not result.generated and check_citations(result.text, result.sources).invalid == []
    return result.text


def closing(text: str) -> str:
    found = [line for line in text.split("\n") if line.startswith("**In short:**")]
    assert len(found) <= 1, text
    return found[0] if found else ""


def test_a_sign_in_ends_in_one_sentence_from_the_view_to_the_session_and_the_redirect(apps_settings: Settings) -> None:
    text = answer(apps_settings, "members", "How does user authentication flow through the system?")
    said = closing(text)
    assert said.startswith("**In short:** `login` (`members/views.py:9-15`) "), text
    # the view's checked call and what it ends in, each cited at its line
    assert 'calls `login_user`, which signs the user in with `session["id"] = user.id` (`members/auth.py:5`)' in said
    # what the view answers after the call (same branch), not the 403 of the wrong password
    assert 'then `login` answers the request: `return redirect(url_for("auth.home"))` (`members/views.py:15`)' in said
    assert "403" not in said
    # placed after the numbered steps, before the first source; it says what "What happens:" said, once
    lines = text.split("\n")
    at = lines.index(said)
    assert re.match(r"^\d\. ", lines[at - 2]) and lines[at + 2].startswith("- **[1]**"), text
    assert "**What happens:**" not in text


def test_a_failing_request_ends_in_the_error_middleware_and_its_answer(apps_settings: Settings) -> None:
    text = answer(apps_settings, "notes", "What happens when an API request fails?")
    said = closing(text)
    assert said.startswith("**In short:** when a request fails, `errorHandler` (`src/errors.js:"), text
    assert "is the error middleware (four arguments): every `next(error)` ends here" in said
    assert "answers with `res.status(status).json({ error: err.message })` (`src/errors.js:4`)" in said
    assert "What is absent" not in text  # the app has one: no absence, and the closing is not a guess
    assert "`const status = err.status || 500;`" not in text  # a local keeping a status is not an answer


def test_no_closing_without_its_pieces(apps_settings: Settings) -> None:
    # the reports app walks a request from its view to the store: it gets a closing ...
    flow = answer(apps_settings, "reports", "What happens when a user asks for a new report?")
    said = closing(flow)
    assert said.startswith("**In short:** `create_report` (`reports/views.py:10-17`) calls `start_report`, which "
                           "queues `build_report` for a worker, which calls `save_report`, which stores with "
                           "`db.session.commit()` (`reports/store.py:9`)"), flow  # fmt: skip
    assert "then `create_report` answers the request: `return" in said and "202" in said and "400" not in said
    # ... a failing request there has no central handler: the absence is the conclusion, no "In short" is added
    failing = answer(apps_settings, "reports", "What happens when a report request fails?")
    assert "**What is absent:**" in failing and closing(failing) == ""
    # a question that walks no flow and names no failure gets none: a closing would be a guess
    where = answer(apps_settings, "members", "Where is the member's password hash compared?")
    assert closing(where) == "" and "**Step by step**" not in where
    # a failure that is not a request's (a job, a reminder) is not answered by the request's error middleware
    job = answer(apps_settings, "notes", "What happens when the nightly cleanup job keeps failing?")
    assert closing(job) == ""
