"""Translation catalogs are no answer to how the code works (issue #35, NodeBB): forty copies of the same messages
hold every word of "what happens when an API request fails?" and took all of a real-size app's best files.

A small Express app is indexed by the real pipeline (tree-sitter, the packaged embedding model, Chroma) with its
error handler and five language copies of its error messages; the answer cites the handler and no catalog, unless
the question asks about translations.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from codeqa.retrieve.catalogs import asks_for_translations, catalog_paths
from tests.helpers import extractive_text

MESSAGES = {
    "api-request-failed": "The API request failed",
    "api-request-invalid": "The API request is invalid: the request failed validation",
    "api-error-401": "API error: the request failed, you are not logged in",
    "api-error-403": "API error: the request failed, you may not do this",
    "api-error-404": "API error: the request failed, nothing was found",
    "api-error-500": "API error: the request failed on the server",
    "api-error-429": "API error: too many requests, the request failed",
}
LANGUAGES = ("en-GB", "de", "fr", "ar", "th", "pt-BR")

APP = {
    "package.json": json.dumps({"name": "forum", "dependencies": {"express": "^4.19.0"}}) + "\n",
    "src/app.js": """const express = require('express');
const routes = require('./routes');
const errors = require('./controllers/errors');

const app = express();
app.use('/api', routes);
app.use(errors.handleErrors);

module.exports = app;
""",
    "src/routes.js": """const express = require('express');
const topics = require('./controllers/topics');

const router = express.Router();
router.get('/topics/:tid', topics.get);

module.exports = router;
""",
    "src/controllers/topics.js": """const db = require('../db');

exports.get = async function (req, res, next) {
    const topic = await db.getTopic(req.params.tid);
    if (!topic) {
        return next(new Error('not-found'));
    }
    res.json(topic);
};
""",
    "src/controllers/errors.js": """const winston = require('winston');

// every failed API request ends here: the error is logged and answered as JSON with its status
exports.handleErrors = function handleErrors(err, req, res, next) {
    const status = err.status || (err.message === 'not-found' ? 404 : 500);
    winston.error(`${req.method} ${req.originalUrl} failed: ${err.stack}`);
    res.status(status).json({ status: { code: 'error', message: err.message } });
};
""",
    "src/db.js": """exports.getTopic = async function (tid) {
    return null;
};
""",
    **{f"public/language/{code}/error.json": json.dumps(MESSAGES, indent=4) + "\n" for code in LANGUAGES},
}

INDEXED_APPS = {"forum": APP}  # indexed once for this module by the apps_home fixture (tests/conftest.py)


def _cited(answer: str) -> set[str]:
    return set(re.findall(r"`([\w./-]+\.\w+):\d+", answer))


def test_an_api_failure_question_cites_the_error_handler_not_the_translations(apps_home: Path) -> None:
    answer = extractive_text(apps_home, "forum", "What happens when an API request fails?")
    cited = _cited(answer)
    assert not any(path.startswith("public/language/") for path in cited), answer
    assert "src/controllers/errors.js" in cited, answer


def test_a_question_about_translations_still_finds_the_catalogs(apps_home: Path) -> None:
    answer = extractive_text(apps_home, "forum", "Where are the API error messages translated into other languages?")
    assert any(path.startswith("public/language/") for path in _cited(answer)), answer


def test_catalogs_are_language_copies_at_the_same_place() -> None:
    paths = [
        *(f"public/language/{code}/error.json" for code in ("ar", "th", "en-x-pirate", "zh-Hans", "es-419")),
        *(f"public/intl/messages/{code}.json" for code in ("ja-JP", "de-DE", "en-US")),
        "lang/pt_BR/auth.php", "lang/fr/auth.php", "lang/de/auth.php",
        "src/db/index.js", "src/ui/index.js", "src/js/index.js", "src/io/index.js",  # short names, no languages
        "lib/es/index.js", "lib/cjs/index.js",  # two module formats: one language code is not a catalog
        "public/language/README.md",
    ]  # fmt: skip
    assert catalog_paths(paths) == {
        *(f"public/language/{code}/error.json" for code in ("ar", "th", "en-x-pirate", "zh-Hans", "es-419")),
        *(f"public/intl/messages/{code}.json" for code in ("ja-JP", "de-DE", "en-US")),
        "lang/pt_BR/auth.php", "lang/fr/auth.php", "lang/de/auth.php",
    }  # fmt: skip


def test_which_questions_ask_about_translations() -> None:
    assert asks_for_translations("How is the interface translated?")
    assert asks_for_translations("Where do I add a new language?")
    assert asks_for_translations("How does i18n work here?")
    assert not asks_for_translations("What happens when an API request fails?")
    assert not asks_for_translations("How does user authentication flow through the system?")


def test_retrieval_ranks_the_catalogs_after_the_code_unless_translations_are_asked_for(apps_home: Path) -> None:
    """The catalogs are translations in retrieval too (``roles``): the code's files come first in the file list, so a
    real-size app's catalogs no longer take the places the second stage and the answer read (NodeBB: 4,080)."""
    from codeqa.config import Settings
    from codeqa.index import Index
    from codeqa.retrieve import retrieve

    index = Index.open("forum", Settings(home=apps_home))
    files = [f.path for f in retrieve(index, "What happens when an API request fails?", k=24).files]
    catalogs = [n for n, path in enumerate(files) if path.startswith("public/language/")]
    code = [n for n, path in enumerate(files) if path.startswith("src/")]
    assert catalogs and code and max(code) < min(catalogs), files
    asked = [f.path for f in retrieve(index, "Where are the error messages in other languages?", k=24).files]
    assert any(path.startswith("public/language/") for path in asked[:3]), asked  # asked for: no longer after the code
