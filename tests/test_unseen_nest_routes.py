"""NestJS middleware is applied to the routes ``consumer.apply(X)…forRoutes(…)`` names (#35, scope3).

``consumer.apply(X).forRoutes(…)`` had no construct: a ``NestMiddleware`` class was "middleware … for the route
handlers it is applied to" with nothing to say which. ``forRoutes('*wildcard')`` (ghostfolio's
``apps/api/src/app/app.module.ts``) and ``forRoutes({ path: '*', method: RequestMethod.ALL })`` are every route;
paths or a controller are some, and ``.exclude(…)`` takes routes out. Fixtures: ghostfolio, and a NestJS gateway's
``app.module.ts`` (public code the search index holds without its repository's name).
"""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.explain import explain
from codeqa.answer.explanation.said.conclusion import placement
from codeqa.chunk import chunk_file
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Hit, SourceFile

LOGGING = "Where would I add logging to track user behavior?"

# ghostfolio apps/api/src/app/app.module.ts lines 202-206
GHOSTFOLIO = """export class AppModule implements NestModule {
  public configure(consumer: MiddlewareConsumer) {
    consumer.apply(HtmlTemplateMiddleware).forRoutes('*wildcard');
  }
}
"""
# the gateway's app.module.ts lines 1-6 and 23-40
GATEWAY = """import {
  MiddlewareConsumer,
  Module,
  NestModule,
  RequestMethod,
} from '@nestjs/common';

export class AppModule implements NestModule {
  configure(consumer: MiddlewareConsumer) {
    consumer
      .apply(AuthMiddleware)
      .forRoutes({ path: '*', method: RequestMethod.ALL });

    consumer
      .apply(GraphQLMiddleware)
      .forRoutes(
        { path: 'car/graphql', method: RequestMethod.POST },
        { path: 'auction/graphql', method: RequestMethod.POST },
        { path: 'inspection/graphql', method: RequestMethod.POST },
        { path: 'search/graphql', method: RequestMethod.POST },
        { path: 'document/graphql', method: RequestMethod.POST },
        { path: 'cardata/graphql', method: RequestMethod.POST },
      );
  }
}
"""
# a Function.prototype.apply is no middleware (ghostfolio's performance-logging.interceptor.ts line 50)
APPLY = """export function LogPerformance() {
  return function (target, propertyKey, descriptor) {
    const result = originalMethod.apply(this, args);
    return result;
  };
}
"""


def _found(path: str, text: str) -> dict[int, object]:
    nest = [c for c in load_all() if c.name == "NestJS"]
    chunks = chunk_file(SourceFile(path, "typescript", text, len(text)))
    return {m.line: m for c in chunks for m in matches_in(c, nest, intents(LOGGING))}


def _line(text: str, needle: str) -> int:
    return next(n for n, row in enumerate(text.split("\n"), start=1) if needle in row)


def test_for_routes_of_every_route_is_every_request() -> None:
    found = _found("apps/api/src/app/app.module.ts", GHOSTFOLIO)
    match = found[_line(GHOSTFOLIO, ".apply(HtmlTemplateMiddleware)")]
    assert match.every_request and match.phrase.startswith("applies `HtmlTemplateMiddleware` to every route"), match
    gateway = _found("src/app.module.ts", GATEWAY)
    assert gateway[_line(GATEWAY, ".apply(AuthMiddleware)")].every_request


def test_for_routes_of_some_paths_is_said_with_them() -> None:
    found = _found("src/app.module.ts", GATEWAY)
    match = found[_line(GATEWAY, ".apply(GraphQLMiddleware)")]
    assert not match.every_request, match
    said = "applies `GraphQLMiddleware` to the routes its `forRoutes` names (`forRoutes({ path:"
    assert match.phrase.startswith(said), match
    exclude = "      .exclude({ path: 'auth/(.*)', method: RequestMethod.ALL })\n"
    excluded = GATEWAY.replace("      .forRoutes({ path: '*'", exclude + "      .forRoutes({ path: '*'")
    assert not _found("src/app.module.ts", excluded)[_line(excluded, ".apply(AuthMiddleware)")].every_request


def test_a_function_apply_is_no_middleware() -> None:
    assert not any("applies" in m.phrase for m in _found("src/log.ts", APPLY).values())


def test_the_middleware_for_every_route_is_where_to_add_logging() -> None:
    chunks = chunk_file(SourceFile("src/app.module.ts", "typescript", GATEWAY, len(GATEWAY)))
    said = placement(explain(LOGGING, AnswerContext.from_chunks(chunks, [Hit(c, 1.0, c.id) for c in chunks])))
    assert said is not None and f"src/app.module.ts:{_line(GATEWAY, '.apply(AuthMiddleware)')}" in said[1], said
    assert "GraphQLMiddleware" not in said[1], said
