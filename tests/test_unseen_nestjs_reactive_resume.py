"""What was misleading on Reactive Resume (NestJS + React, 661 files, in no data set), read as a user does:
- "`handleAuthenticationResponse` answers with `if (redirect) response.redirect(redirectUrl.toString());`" for a
  login, which passes ``redirect = false``: a one-line branch quoted whole, its test pasted into the sentence;
- "Then `GitHubStrategy` raises `if (!email) throw new BadRequestException(…)`" the same way;
- once those were left out, "answers with `redirect = false,`": a parameter of a signature over several lines;
- and "`generateToken` returns `randomBytes(32).toString("base64url");`": what its ``case "reset":`` returns, not
  what a call with "access" gets."""

from __future__ import annotations

from codeqa.answer.explanation.story.endings import inline_branch, outcome_of
from codeqa.records import Chunk

# apps/server/src/auth/auth.controller.ts, lines 68-96 (shortened)
HANDLE = """  private async handleAuthenticationResponse(
    user: UserWithSecrets,
    response: Response,
    isTwoFactorAuth = false,
    redirect = false,
  ) {
    let status = "authenticated";
    response.cookie("Authentication", accessToken, getCookieOptions("access"));
    const responseData = authResponseSchema.parse({ status, user });

    if (redirect) response.redirect(redirectUrl.toString());
    else response.status(200).send(responseData);
  }"""
# apps/server/src/auth/auth.service.ts, lines 48-71 (shortened)
TOKEN = """  generateToken(grantType: "access" | "reset", payload?: Payload) {
    switch (grantType) {
      case "access": {
        if (!payload) throw new InternalServerErrorException("InvalidTokenPayload");
        return this.jwtService.sign(payload, {
          secret: this.configService.getOrThrow("ACCESS_TOKEN_SECRET"),
        });
      }

      case "reset": {
        return randomBytes(32).toString("base64url");
      }
    }
  }"""
ONE_WAY = """  async logout(response: Response) {
    response.clearCookie("Authentication");
    response.redirect("/auth/login");
  }"""


def _ts(text: str, symbol: str) -> Chunk:
    return Chunk("apps/server/src/auth/auth.controller.ts", "typescript", 68, 68 + text.count("\n"), text, symbol,
                 "method", "api")  # fmt: skip


def test_a_one_line_branch_is_no_outcome_to_quote():
    assert inline_branch("    if (redirect) response.redirect(redirectUrl.toString());")
    assert inline_branch("    else response.status(200).send(responseData);")
    assert inline_branch("      if (!email) throw new BadRequestException(ErrorMessage.InvalidCredentials);")
    assert not inline_branch("    if (redirect) {")
    assert not inline_branch("    } else if (user) {")
    assert not inline_branch("    response.redirect(redirectUrl.toString());")
    found = outcome_of(_ts(HANDLE, "handleAuthenticationResponse"), "handleAuthenticationResponse")
    assert found is None or ("if (" not in found.text and "else " not in found.text and "redirect = " not in found.text)


def test_a_parameter_of_a_long_signature_is_no_outcome():
    found = outcome_of(_ts(HANDLE, "handleAuthenticationResponse"), "handleAuthenticationResponse")
    assert found is None or found.line != 72
    plain = outcome_of(_ts(ONE_WAY, "logout"), "logout")
    assert plain is not None and "redirect(" in plain.text  # an answer on its own line is still said


def test_what_one_case_of_a_switch_returns_is_not_what_the_function_returns():
    found = outcome_of(_ts(TOKEN, "generateToken"), "generateToken")
    assert found is None or "randomBytes" not in found.text
