"""overseerr (an Express + Next.js app in no data set), asked "How does user authentication flow through the
system?", opened on a users router: "adds `userSettingsRoutes` to the middleware chain of the routes it mounts" for
``router.use('/:id/settings', userSettingsRoutes)`` (a router mounted under a path, no middleware), and asked what
happens when a request fails, "adds … `routes` … to the middleware chain" for ``server.use('/api/v1', routes)``.
Its opening then ended "Then `auth.ts` answers with …; `index.ts` stores `userRepository.save(<User>{…})`": the
second outcome came from a bulk-edit route the opening never named, linking unrelated code into the story."""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.said.extractive import extractive_answer
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.evidence import Evidence, Found
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk, Hit

MOUNTS = """router.use('/:id/settings', userSettingsRoutes);
server.use('/api/v1', routes);
app.use(authRouter);
router.use('/admin', isAuthenticated);
app.use(requestLogger);"""
SIGN_IN = """import { Router } from 'express';

const authRoutes = Router();

authRoutes.post('/local', async (req, res, next) => {
  const userRepository = getRepository(User);
  const user = await userRepository.findOne({ where: { email: body.email } });
  if (user && req.session) {
    req.session.userId = user.id;
  }
  return res.status(200).json(user?.filter() ?? {});
});"""
BULK_EDIT = """import { Router } from 'express';

const router = Router();

router.put('/', isAuthenticated(Permission.MANAGE_USERS), async (req, res, next) => {
  const userRepository = getRepository(User);
  const updatedUsers = await Promise.all(
    users.map(async (user) => {
      return userRepository.save(<User>{ id: user.id, permissions: req.body.permissions });
    })
  );
  return res.status(200).json(updatedUsers);
});"""


def _ts(path: str, text: str, start: int = 1) -> Chunk:
    return Chunk(path, "typescript", start, start + text.count("\n"), text, "", "module", "api")


def test_a_router_mounted_under_a_path_is_no_middleware() -> None:
    express = [c for c in load_all() if c.name == "Express"]
    asked = intents("Where would I add logging to track user behavior?")
    said = {m.line: m.phrase for m in matches_in(_ts("server/index.ts", MOUNTS), express, asked)}
    assert 1 not in said and 2 not in said and 3 not in said
    assert said[4] == (
        "adds `isAuthenticated` to the middleware chain of `router`'s routes under `/admin` (run in `router.use` order)"
    )
    assert said[5] == "adds `requestLogger` to every request's middleware chain (run in `app.use` order)"


def test_an_outcome_of_a_source_the_opening_never_named_is_not_said() -> None:
    chunks = [_ts("server/routes/auth.ts", SIGN_IN), _ts("server/routes/user/index.ts", BULK_EDIT)]
    hits = [Hit(chunk, 1.0 - n / 10, chunk.id) for n, chunk in enumerate(chunks)]
    question = "How does user authentication flow through the system?"
    opening = extractive_answer(question, hits, context=AnswerContext.from_chunks(chunks, hits)).split("\n")[0]
    assert "server/routes/auth.ts:1" in opening
    assert "userRepository.save" not in opening and "server/routes/user/index.ts" not in opening


def test_a_server_file_is_in_the_framework_imported_most_around_it() -> None:
    """overseerr's ``server/entity/MediaRequest.ts`` (imports neither) was "In the Next.js app": both are declared
    by the one ``package.json`` and imported in ``server/`` (its custom server imports ``next``), and ``src/pages/``
    imports Next.js in many more files. Around the file, ``server/``'s routes import Express."""
    found = [Found("Next.js", "", "package.json", "manifest"), Found("Express", "", "package.json", "manifest"),
             Found("Next.js", "", "server/index.ts", "import"), Found("Express", "", "server/index.ts", "import"),
             *(Found("Next.js", "", f"src/pages/page{n}.tsx", "import") for n in range(9)),
             *(Found("Express", "", f"server/routes/route{n}.ts", "import") for n in range(3))]  # fmt: skip
    evidence = Evidence(tuple(found))
    assert evidence.framework_of("server/entity/MediaRequest.ts", "typescript").framework == "Express"
    assert evidence.framework_of("src/components/Layout/index.tsx", "tsx").framework == "Next.js"


def test_the_last_handlers_and_a_path_in_a_variable_are_no_middleware_of_every_request() -> None:
    """NodeBB (dev): "**Where to add it:** at `src/routes/index.js:205`, because the code there adds `controllers` to
    every request's middleware chain" for ``app.use(controllers['404'].handle404)``, which sees only the requests
    nothing answered; then "adds `relativePath` …" for ``app.use(relativePath || '/', router)``, a mount."""
    express = [c for c in load_all() if c.name == "Express"]
    text = """app.use(controllers['404'].handle404);
app.use(controllers.errors.handleURIErrors);
app.use(relativePath || '/', router);
app.use(relativePath, router);
app.use(middleware.stripLeadingSlashes);"""
    asked = intents("Where would I add logging to track user behavior?")
    said = {m.line: m.phrase for m in matches_in(_ts("src/routes/index.js", text), express, asked)}
    assert set(said) == {5}, said


def test_a_static_folder_is_no_mount_of_the_apps_parts() -> None:
    from codeqa.answer.explanation.constructs.apphook import MOUNTS

    assert not MOUNTS.search("app.use('/assets', express.static(path.join(__dirname, '../build/public'), {}));")
    assert MOUNTS.search("app.use('/api', apiRouter);")


def test_phrases_that_differ_by_a_test_are_said_whole() -> None:
    """NodeBB: "hands sign-in to Passport (`passport.use`) and (`passport.authenticate`) when `strategy.url`" left the
    test's scope open; each name is now said with its own test, in one bracket (stop 58)."""
    from codeqa.answer.explanation.said.phrasing import merged

    said = merged(["hands sign-in to Passport (`passport.use`)",
                   "hands sign-in to Passport (`passport.authenticate`) when `strategy.url`"])  # fmt: skip
    assert said == "hands sign-in to Passport (`passport.use`, and `passport.authenticate` when `strategy.url`)"
    assert merged(["turns `A` into a response", "turns `B` into a response"]) == "turns `A` and `B` into a response"
