"""False sentences found on two Node apps codeqa had not seen: checkmate (Express + React) and ever-traduora (NestJS +
Angular), issue #35.

- "`MorganMiddleware` handles the request (and 1 more like it: `api/src/connection/datasource.ts:9-59`)": a
  logging middleware and a database config share only a ``throw new Error(…)``; failing the same way is no repeat;
- "`addPipesAndFilters` handles the request": its ``useStaticAssets(dir, { redirect: false })`` names an option
  ``redirect``, no response;
- "validates every request; a failure becomes an error response (a global pipe) and validates the requests it is
  applied to; …": ``app.useGlobalPipes(new ValidationPipe(…))`` is one pipe, said twice;
- "Then `ImportController.import` answers with `@ApiResponse({ status: HttpStatus.OK, … })`": a swagger annotation
  documents a response, the handler's ``return`` answers;
- "`ImportController.import` stores `projectLocale = this.projectLocaleRepo.create({…})`": TypeORM's ``create`` builds
  the entity, the ``save`` below stores it;
- "Where to add it: in `MorganMiddleware` …, because it logs every request (morgan), at `…morgan-middleware.ts:17`":
  line 17 is a static helper's ``return morgan.token(name, callback)``, handing on its caller's token; the request is
  logged by ``morgan(format, options)(req, res, next)`` in ``use``.
"""

from __future__ import annotations

from codeqa.answer.explanation.code.inert import built_then_saved, documents_api, quotable
from codeqa.answer.explanation.code.keylines import KeyLine
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.said.lead import LAYER_VERBS
from codeqa.answer.explanation.said.outcomes import OUTCOMES, _stored
from codeqa.answer.explanation.said.roles_said import role_phrase
from codeqa.answer.explanation.sources.fold import signature, similar
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk

# from api/src/app.module.ts (ever-traduora)
PIPES_AND_FILTERS = """export const addPipesAndFilters = (app: NestExpressApplication): void => {
  app.disable('x-powered-by');

  app.set('etag', false);

  if (config.corsEnabled) {
    app.enableCors({ origin: '*' });
  }

  app.useGlobalFilters(new CustomExceptionFilter());

  app.useGlobalPipes(
    new ValidationPipe({
      transform: false,
      disableErrorMessages: true,
      whitelist: true,
    }),
  );

  app.useStaticAssets(config.publicDir, { index: false, redirect: false });

  app.setBaseViewsDir('src/templates');

  app.engine('html', renderFile);
};"""

# from api/src/controllers/project-label.controller.ts: a pipe given to one controller's route
LABEL_PIPE = """  @Post()
  @UsePipes(new ValidationPipe({ whitelist: true }))
  async create(@Req() req, @Param('projectId') projectId: string, @Body() payload: AddLabelRequest) {
    const user = this.auth.getRequestUserOrClient(req);
    return { data: label };
  }"""

# from api/src/controllers/import.controller.ts
IMPORT = """  @Post()
  @ApiOperation({ summary: 'Import a translation file' })
  @ApiResponse({ status: HttpStatus.OK, description: 'File imported', type: ImportResponse })
  async import(@Req() req, @Param('projectId') projectId: string, @UploadedFile('file') file) {
    return await this.termRepo.manager.transaction(async entityManager => {
      if (!projectLocale) {
        projectLocale = this.projectLocaleRepo.create({
          locale: locale,
        });
        projectLocale = await entityManager.save(ProjectLocale, projectLocale);
      }
      await entityManager.save(Translation, translationsToAdd);
      return { data: { translations: { upserted: translationsToAdd.length } } };
    });
  }"""

# a Sequelize-style create that stores the row itself (checkmate-like Express code)
CREATE_STORES = """const insertUser = async (userData) => {
  const user = await UserModel.create({ ...userData });
  user.role = 'admin';
  return user;
};"""


def _chunk(path: str, text: str, symbol: str, layer: str = "api", kind: str = "function") -> Chunk:
    return Chunk(path, "typescript", 1, text.count("\n") + 1, text, symbol, kind, layer)


def _lines(*texts: str) -> list[KeyLine]:
    return [KeyLine(n, text) for n, text in enumerate(texts, start=1)]


def test_sharing_only_a_throw_is_no_repeat() -> None:
    morgan = signature(_lines("throw new Error('MorganMiddleware must be configured with a logger format.');"))
    datasource = signature(
        _lines("namingStrategy: new SnakeNamingStrategy(),", "throw new Error(`Unsupported database type: ${dbType}`);")
    )
    assert not similar(morgan, datasource)


def test_handlers_passing_errors_on_the_same_way_still_fold() -> None:
    one = signature(_lines("} catch (error) {", "next(handleError(error, SERVICE_NAME, 'getMonitor'));"))
    two = signature(_lines("} catch (error) {", "next(handleError(error, SERVICE_NAME, 'deleteMonitor'));"))
    assert similar(one, two)


def test_an_options_key_named_redirect_is_no_response() -> None:
    chunk = _chunk("api/src/app.module.ts", PIPES_AND_FILTERS, "addPipesAndFilters")
    assert role_phrase(chunk, LAYER_VERBS, "is a function") != LAYER_VERBS["api"]


def test_a_response_call_still_handles_the_request() -> None:
    text = "export const ok = (app) => {\n  return Response.json({ ok: true });\n};"
    assert role_phrase(_chunk("api/src/health.ts", text, "ok"), LAYER_VERBS, "is a function") == LAYER_VERBS["api"]


def _pipe_phrases(chunk: Chunk) -> list[str]:
    nest = [c for c in load_all() if c.name == "NestJS"]
    found = matches_in(chunk, nest, intents("What happens when an API request fails?"))
    return [m.phrase for m in found if "validat" in m.phrase]


def test_the_global_validation_pipe_is_said_once() -> None:
    phrases = _pipe_phrases(_chunk("api/src/app.module.ts", PIPES_AND_FILTERS, "addPipesAndFilters"))
    assert len(phrases) == 1 and "every request" in phrases[0]


def test_a_pipe_given_to_one_route_is_still_said() -> None:
    phrases = _pipe_phrases(_chunk("api/src/controllers/label.controller.ts", LABEL_PIPE, "LabelController.create"))
    assert phrases and "applied to" in phrases[0]


def test_an_api_documentation_annotation_is_not_quoted_as_an_outcome() -> None:
    line = "  @ApiResponse({ status: HttpStatus.OK, description: 'File imported', type: ImportResponse })"
    assert dict(OUTCOMES)["answers with"].search(line)  # it reads like an answer …
    assert documents_api(line) and not quotable(line)  # … but only documents one
    assert quotable("      return { data: { translations: { upserted: translationsToAdd.length } } };")
    assert not documents_api("  @HttpCode(HttpStatus.OK)")  # sets the status: code, not docs


def test_an_entity_built_then_saved_is_stored_by_the_save() -> None:
    chunk = _chunk("api/src/controllers/import.controller.ts", IMPORT, "ImportController.import", kind="method")
    assert built_then_saved(chunk, "projectLocale = this.projectLocaleRepo.create({")
    assert not _stored(chunk, "projectLocale = this.projectLocaleRepo.create({")
    assert _stored(chunk, "projectLocale = await entityManager.save(ProjectLocale, projectLocale);")


def test_a_create_that_writes_the_row_still_stores() -> None:
    chunk = _chunk("Server/db/mongo/modules/userModule.js", CREATE_STORES, "insertUser", layer="model")
    assert _stored(chunk, "const user = await UserModel.create({ ...userData });")


# from api/src/middlewares/morgan-middleware.ts (ever-traduora)
MORGAN_MIDDLEWARE = """@Injectable()
export class MorganMiddleware implements NestMiddleware {
  public static configure(format: string | morgan.FormatFn, opts?: morgan.Options<IncomingMessage, ServerResponse>) {
    this.format = format;
    this.options = opts;
  }

  public static token(name: string, callback: morgan.TokenCallbackFn) {
    return morgan.token(name, callback);
  }

  public use(req: any, res: any, next: any) {
    if (MorganMiddleware.format) {
      morgan(MorganMiddleware.format as any, MorganMiddleware.options)(req, res, next);
    } else {
      throw new Error('MorganMiddleware must be configured with a logger format.');
    }
  }
}"""

# from config/morgan.js (hackathon-starter): the app's own token, defined where the logger is set up
MORGAN_TOKENS = """logger.token('short-date', () => {
  const now = new Date();
  return now.toLocaleString('en-US');
});"""


def _logged_lines(chunk: Chunk) -> list[int]:
    express = [c for c in load_all() if c.name == "Express"]
    found = matches_in(chunk, express, intents("Where would I add logging to track user behavior?"))
    return [m.line for m in found if "morgan" in m.phrase]


def test_a_wrapper_handing_on_morgan_token_logs_nothing_itself() -> None:
    chunk = _chunk("api/src/middlewares/morgan-middleware.ts", MORGAN_MIDDLEWARE, "MorganMiddleware", kind="class")
    assert _logged_lines(chunk) == [14]  # `morgan(format, options)(req, res, next)`, not `return morgan.token(…)`


def test_an_apps_own_morgan_token_still_logs_every_request() -> None:
    assert _logged_lines(_chunk("config/morgan.js", MORGAN_TOKENS, "morgan.js", layer="config", kind="module")) == [1]
