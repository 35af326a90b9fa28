""" "Where would I add logging to track user behavior?" on apps whose retrieved code holds no hook (stop 50: six of
fourteen apps in no data set — uptime-kuma, wiki.js, documenso, navidrome, changelog.com, dispatch — got a list of
places and no "Where to add it"): the app's own every-request hooks are found where the framework is imported (the
file that calls ``express()`` and ``app.use``s), not in a Vue client's ``app.use(router)``; a hook under a test
(``if (isDev) {``) is recommended only where the app has no other. A small real app indexed by the real pipeline."""

from __future__ import annotations

import re

from codeqa.answer.rendering.citations import check_citations
from codeqa.config import Settings
from tests.helpers import ask_named

LOGGING = "Where would I add logging to track user behavior?"
APP = {
    "package.json": '{"name": "tracker", "dependencies": {"express": "4.18.2", "vue": "3.4.0"}}',
    "server/server.js": """const express = require('express')
const cors = require('cors')
const { usersRouter } = require('./routes/users')

const app = express()
const isDev = process.env.NODE_ENV === 'development'

app.use(express.json())

if (isDev) {
  app.use(cors())
}

// Global middleware
app.use(function (req, res, next) {
  res.setHeader('X-Frame-Options', 'SAMEORIGIN')
  next()
})

app.use('/api/users', usersRouter)

app.listen(3000)
""",
    "server/routes/users.js": """const express = require('express')
const { User } = require('../models/user')

const usersRouter = express.Router()

usersRouter.get('/:id/activity', async (req, res) => {
  const user = await User.findById(req.params.id)
  const activity = await user.recentActivity()
  res.json({ user: user.name, activity })
})

usersRouter.post('/:id/visits', async (req, res) => {
  const user = await User.findById(req.params.id)
  await user.recordVisit(req.body.page)
  res.status(201).json({ ok: true })
})

module.exports = { usersRouter }
""",
    "server/models/user.js": """class User {
  static async findById(id) {
    return db.users.find(id)
  }

  async recentActivity() {
    return db.visits.where({ userId: this.id }).limit(20)
  }

  async recordVisit(page) {
    return db.visits.insert({ userId: this.id, page, at: new Date() })
  }
}

module.exports = { User }
""",
    "src/main.js": """import { createApp } from 'vue'
import App from './App.vue'
import router from './router'

const app = createApp(App)
app.use(router)
app.mount('#app')
""",
    "src/views/UserActivity.vue": """<template>
  <ul class="activity">
    <li v-for="item in activity" :key="item.at">{{ item.page }}</li>
  </ul>
</template>

<script>
export default {
  data () {
    return { activity: [] }
  },
  async mounted () {
    const response = await fetch(`/api/users/${this.$route.params.id}/activity`)
    this.activity = (await response.json()).activity
  }
}
</script>
""",
}
INDEXED_APPS = {"tracker": APP}  # indexed once by apps_home (tests/conftest.py)


def test_the_apps_own_hook_is_recommended_where_retrieval_found_none(apps_settings: Settings) -> None:
    result = ask_named("tracker", LOGGING, apps_settings, backend="none").result()
    assert check_citations(result.text, result.sources).invalid == []
    opening = result.text.split("\n")[0]
    where = re.search(r"\*\*Where to add it:\*\*[^\n]*?`(server/server\.js):(\d+)`", opening)
    assert where, opening
    line = APP["server/server.js"].split("\n")[int(where.group(2)) - 1]
    assert line.startswith("app.use("), line  # an unguarded line of the app's own chain
    assert "src/main.js" not in opening, opening  # the Vue client's `app.use(router)` is no request's hook
    assert int(where.group(2)) != 11, opening  # `app.use(cors())` under `if (isDev) {` sees the dev requests only


def test_the_hook_is_found_where_the_framework_is_imported_when_retrieval_missed_it() -> None:
    from codeqa.answer.context import AnswerContext
    from codeqa.answer.explanation.explain import explain
    from codeqa.answer.explanation.said.conclusion import placement
    from codeqa.chunk import chunk_file
    from codeqa.languages import detect_language
    from codeqa.records import Hit, SourceFile

    chunks = [chunk for path, text in APP.items() if path.endswith(".js")
              for chunk in chunk_file(SourceFile(path, detect_language(path) or "", text, len(text)))]  # fmt: skip
    retrieved = ["server/routes/users.js", "server/models/user.js", "src/main.js"]  # not server.js
    pool = [Hit(c, 1.0 / (1 + n), c.id) for n, c in enumerate(c for p in retrieved for c in chunks if c.path == p)]
    context = AnswerContext.from_chunks(chunks, pool, retrieved)
    said = placement(explain(LOGGING, context))
    assert said is not None and "`server/server.js:8`" in said[0], said


KOA = {
    "package.json": '{"name": "wiki", "dependencies": {"koa": "3.0.3", "koa-mount": "4.0.0"}}',
    "server/services/web.ts": """import Koa from "koa";
import mount from "koa-mount";
import api from "../routes/api";
import oauth from "../routes/oauth";

export default function init(app: Koa = new Koa()) {
  app.use(mount("/api", api));
  app.use(csp());
  app.use(mount("/oauth", oauth));
  return app;
}
""",
    "server/routes/oauth/index.ts": """import Koa from "koa";
import bodyParser from "koa-body";

const app = new Koa();
app.use(requestTracer());
app.use(bodyParser());
app.use(apiContext());

export default app;
""",
    "server/routes/api/users.ts": """import Router from "koa-router";

const router = new Router();

router.post("users.info", async (ctx) => {
  const user = await User.findByPk(ctx.input.body.id);
  ctx.body = { data: presentUser(user) };
});

export default router;
""",
}


def test_the_root_app_that_mounts_the_parts_holds_the_hook_not_a_mounted_part() -> None:
    # outline (a Koa app in no data set): the oauth sub-app's own `app.use(requestTracer())` was recommended
    from codeqa.answer.context import AnswerContext
    from codeqa.answer.explanation.explain import explain
    from codeqa.answer.explanation.said.conclusion import placement
    from codeqa.chunk import chunk_file
    from codeqa.languages import detect_language
    from codeqa.records import Hit, SourceFile

    chunks = [chunk for path, text in KOA.items() if path.endswith(".ts")
              for chunk in chunk_file(SourceFile(path, detect_language(path) or "", text, len(text)))]  # fmt: skip
    retrieved = ["server/routes/api/users.ts"]
    pool = [Hit(c, 1.0, c.id) for c in chunks if c.path in retrieved]
    said = placement(explain(LOGGING, AnswerContext.from_chunks(chunks, pool, retrieved)))
    # `app.use(csp())` comes after `mount("/api", …)`: the API's requests never reach it, and the oauth part's own
    # `app.use(requestTracer())` sees the oauth requests only: neither is where every request can be logged
    assert said is None or "oauth" not in said[0], said
    KOA_ABOVE = {
        **KOA,
        "server/services/web.ts": KOA["server/services/web.ts"].replace(
            '  app.use(mount("/api", api));\n  app.use(csp());\n', '  app.use(csp());\n  app.use(mount("/api", api));\n'
        ),
    }
    assert KOA_ABOVE != KOA
    chunks = [chunk for path, text in KOA_ABOVE.items() if path.endswith(".ts")
              for chunk in chunk_file(SourceFile(path, detect_language(path) or "", text, len(text)))]  # fmt: skip
    pool = [Hit(c, 1.0, c.id) for c in chunks if c.path in retrieved]
    said = placement(explain(LOGGING, AnswerContext.from_chunks(chunks, pool, retrieved)))
    assert said is not None and "`server/services/web.ts:7`" in said[0], said  # `app.use(csp())`, above the mounts


def test_a_scoped_question_first_does_not_hide_the_hook_from_later_ones() -> None:
    # the files are read once per loaded index: a question scoped to `src/` first must not keep `server/` out after
    from dataclasses import replace

    import numpy as np

    from codeqa.answer.context import AnswerContext
    from codeqa.answer.explanation.explain import explain
    from codeqa.answer.explanation.said.conclusion import placement
    from codeqa.chunk import chunk_file
    from codeqa.languages import detect_language
    from codeqa.records import Hit, SourceFile

    chunks = [chunk for path, text in APP.items() if path.endswith(".js")
              for chunk in chunk_file(SourceFile(path, detect_language(path) or "", text, len(text)))]  # fmt: skip
    retrieved = ["server/routes/users.js", "server/models/user.js", "src/main.js"]
    pool = [Hit(c, 1.0, c.id) for c in chunks if c.path in retrieved]
    whole = AnswerContext.from_chunks(chunks, pool, retrieved)
    scoped = replace(whole, mask=np.array([path.startswith("src/") for path in whole.table.paths]))
    first = placement(explain(LOGGING, scoped))
    assert first is None or "server/" not in first[0], first  # out of scope: not brought
    later = placement(explain(LOGGING, whole))
    assert later is not None and "`server/server.js:8`" in later[0], later


DJANGO = {
    "requirements.txt": "Django==5.1\n",
    "dojo/settings/settings.py": """import environ

env = environ.Env()
MIDDLEWARE_CLASSES = [
    "django.middleware.common.CommonMiddleware",
    "dojo.middleware.LoginRequiredMiddleware",
]
MIDDLEWARE = MIDDLEWARE_CLASSES

if env("DEBUG_TOOLBAR"):
    MIDDLEWARE = ["debug_toolbar.middleware.DebugToolbarMiddleware", *MIDDLEWARE]
""",
    "dojo/middleware.py": """import logging

from django.http import HttpResponseRedirect

logger = logging.getLogger(__name__)


class LoginRequiredMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not request.user.is_authenticated:
            return HttpResponseRedirect("/login")
        return self.get_response(request)
""",
    "dojo/user/views.py": """from django.shortcuts import render


def view_profile(request):
    return render(request, "dojo/profile.html", {"user": request.user})
""",
}


def test_a_hook_under_a_test_sends_the_search_to_the_apps_own_middleware() -> None:
    # DefectDojo (a Django app in no data set): "Where to add it: … at settings.py:1932", a `MIDDLEWARE = [...]` under
    # `if DJANGO_DEBUG_TOOLBAR_ENABLED:`; its middleware module imports Django less than hundreds of other files, so
    # it is found by the hook's own word (`get_response`)
    from codeqa.answer.context import AnswerContext
    from codeqa.answer.explanation.explain import explain
    from codeqa.answer.explanation.said.conclusion import placement
    from codeqa.chunk import chunk_file
    from codeqa.languages import detect_language
    from codeqa.records import Hit, SourceFile

    chunks = [chunk for path, text in DJANGO.items() if path.endswith(".py")
              for chunk in chunk_file(SourceFile(path, detect_language(path) or "", text, len(text)))]  # fmt: skip
    retrieved = ["dojo/settings/settings.py", "dojo/user/views.py"]
    pool = [Hit(c, 1.0, c.id) for c in chunks if c.path in retrieved]
    said = placement(explain(LOGGING, AnswerContext.from_chunks(chunks, pool, retrieved)))
    assert said is not None and "`dojo/middleware.py:12`" in said[0], said
