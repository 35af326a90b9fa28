"""NodeBB (real-size dev, Express): asked "Where would I add logging to track user behavior?", the answer found no
every-request hook. ``src/routes/api.js`` mounts a part (``app.use('/api', router)``), so only mounting files were
read for hooks, and it holds none; ``src/webserver.js``, which sets the app up (``app.use(cookieParser(…))``,
``app.use(middleware.addHeaders)``), was passed over. Where the files that mount hold no hook, the others are read."""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.constructs.apphook import app_hooks
from codeqa.chunk import chunk_file
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk, Hit, SourceFile

WEBSERVER = """'use strict';

const express = require('express');
const cookieParser = require('cookie-parser');
const middleware = require('./middleware');

const app = express();

function setupExpressApp(app) {
	app.use(cookieParser(nconf.get('secret')));
	app.use(middleware.addHeaders);
	app.use(middleware.processRender);
}
"""
API_ROUTES = """'use strict';

const express = require('express');

module.exports = function (app, middleware, controllers) {
	const router = express.Router();
	app.use('/api', router);

	router.get('/config', [...middlewares, middleware.applyCSRF], helpers.tryRoute(controllers.api.getConfig));
};
"""


def _chunks(path: str, text: str) -> list[Chunk]:
    return chunk_file(SourceFile(path=path, language="javascript", text=text, size=len(text)))


def test_the_apps_setup_holds_the_hook_when_the_file_that_mounts_holds_none() -> None:
    chunks = [*_chunks("src/routes/api.js", API_ROUTES), *_chunks("src/webserver.js", WEBSERVER)]
    hits = [Hit(chunk, 1.0 - n / 10, chunk.id) for n, chunk in enumerate(chunks)]
    context = AnswerContext.from_chunks(chunks, hits)
    express = [c for c in load_all() if c.name in ("Express", "any framework")]
    hooks = app_hooks(context, express, [], intents("Where would I add logging to track user behavior?"))
    assert [(c.chunk.path, c.chunk.symbol) for c in hooks] == [("src/webserver.js", "setupExpressApp")]
    said = {m.phrase for m in hooks[0].matches}
    assert "adds `middleware.addHeaders` to every request's middleware chain (run in `app.use` order)" in said
