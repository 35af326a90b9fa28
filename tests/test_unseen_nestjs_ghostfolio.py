"""NestJS constructs read on ghostfolio (a NestJS + Angular app in no data set), on its real lines:

- "the code at ``user.controller.ts:142-170`` guards the route" for ``@UseGuards(CustomThrottlerGuard)`` over the
  sign-up handler, asked how authentication works and how permissions are checked: a rate limiter counts requests,
  it decides nothing about who may make them (a list of guards that are not all rate limiters still guards the
  route: the method "runs behind" them, as probe 23 says a ``@UseGuards`` of what it is on);
- "when a request fails, ``PortfolioSnapshotComputationExceptionFilter`` … turns exceptions into responses" for
  ``@Catch(PortfolioSnapshotComputationError)``: a filter that names its exceptions turns those into responses.
"""

from __future__ import annotations

from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk

SIGNUP = """  @HasPermission(permissions.createUserAccount)
  @Post()
  @UseGuards(CustomThrottlerGuard)
  public async signupUser(): Promise<UserItem> {
    const isUserSignupEnabled =
      await this.propertyService.isUserSignupEnabled();
  }"""
SETTINGS = """  @Put('setting')
  @UseGuards(CustomThrottlerGuard, HasPermissionGuard, ImpersonationGuard)
  public async updateUserSetting(@Body() data: UpdateUserSettingDto) {
    return this.userService.updateUserSetting({ userId: this.request.user.id, userSettings: data });
  }"""
FILTER = """@Catch(PortfolioSnapshotComputationError)
export class PortfolioSnapshotComputationExceptionFilter implements ExceptionFilter {
  public catch(exception: PortfolioSnapshotComputationError, host: ArgumentsHost) {
    const response = host.switchToHttp().getResponse<Response>();
    response.status(StatusCodes.SERVICE_UNAVAILABLE).json({
      message: getReasonPhrase(StatusCodes.SERVICE_UNAVAILABLE)
    });
  }
}"""
CATCH_ALL = """@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost) {}
}"""


def _phrases(text: str, symbol: str, question: str) -> list[str]:
    nestjs = [c for c in load_all() if c.name in ("NestJS", "any framework")]
    chunk = Chunk("apps/api/src/app/user/user.controller.ts", "typescript", 142, 142 + text.count("\n"), text, symbol,
                  "method", "api")  # fmt: skip
    return [m.phrase for m in matches_in(chunk, nestjs, intents(question))]


def test_a_rate_limiting_guard_does_not_guard_the_route():
    for question in ("How does user authentication flow through the system?", "How does the app check permissions?"):
        assert not any("runs behind" in p for p in _phrases(SIGNUP, "UserController.signupUser", question))
        assert any(p.startswith("runs behind `CustomThrottlerGuard, HasPermissionGuard, ImpersonationGuard`")
                   for p in _phrases(SETTINGS, "UserController.updateUserSetting", question))  # fmt: skip


def test_an_exception_filter_turns_the_exceptions_it_names_into_responses():
    question = "What happens when an API request fails?"
    said = _phrases(FILTER, "PortfolioSnapshotComputationExceptionFilter", question)
    assert said and all(p.startswith("turns `PortfolioSnapshotComputationError` exceptions") for p in said)
    assert "turns exceptions into responses (a NestJS exception filter)" in _phrases(CATCH_ALL, "AllExceptionsFilter",
                                                                                     question)  # fmt: skip
