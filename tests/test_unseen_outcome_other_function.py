"""False on umami (real-size set, tag ``snippets2-g1``), asked "What happens when an API request fails?": "Then ``ok``
answers with ``Response.json({ ok: true })`` (``src/lib/response.ts:2``)". The lead source is the file of response
helpers (``ok``, ``json``, ``badRequest``, ``unauthorized``, …): its error answers (``{ status: 400 }``) made any
``return`` of the chunk count as "the answer of an error handler", ``ok()``'s success among them; it was said once the
snippet showed line 2 (a longer snippet, ``KEY_LINES`` 40). An error answer counts only for a line of the same
function (``linenames.apart``); a class body's ``rescue_from`` and a method of the class still go together.
"""

from __future__ import annotations

from codeqa.answer.explanation.code.keylines import KeyLine
from codeqa.answer.explanation.code.linenames import apart
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.explain import Explanation, Step
from codeqa.answer.explanation.said.outcomes import outcome_lines
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk, Hit

FAILS = "What happens when an API request fails?"

# umami-software/umami src/lib/response.ts:1-58
UMAMI_RESPONSES = """export function ok() {
  return Response.json({ ok: true });
}

export function json(data: Record<string, any> = {}) {
  return Response.json(data);
}

export function badRequest(error?: Record<string, any>) {
  return Response.json(
    {
      error: { message: 'Bad request', code: 'bad-request', status: 400, ...error },
    },
    { status: 400 },
  );
}

export function unauthorized(error?: Record<string, any>) {
  return Response.json(
    {
      error: {
        message: 'Unauthorized',
        code: 'unauthorized',
        status: 401,
        ...error,
      },
    },
    { status: 401 },
  );
}

export function forbidden(error?: Record<string, any>) {
  return Response.json(
    { error: { message: 'Forbidden', code: 'forbidden', status: 403, ...error } },
    { status: 403 },
  );
}

export function notFound(error?: Record<string, any>) {
  return Response.json(
    { error: { message: 'Not found', code: 'not-found', status: 404, ...error } },
    { status: 404 },
  );
}

export function serverError(error?: Record<string, any>) {
  return Response.json(
    {
      error: {
        message: 'Server error',
        code: 'server-error',
        status: 500,
        ...error,
      },
    },
    { status: 500 },
  );
}"""

RAILS_CONTROLLER = """class ApplicationController < ActionController::Base
  rescue_from ActiveRecord::RecordNotFound, with: :not_found

  private
    def not_found
      render json: { error: "not found" }
    end
end"""


def _said(chunk: Chunk) -> list[tuple[str, str]]:
    matches = matches_in(chunk, load_all(), intents(FAILS))
    lines = [KeyLine(chunk.start_line + n, text) for n, text in enumerate(chunk.text.split("\n")) if text.strip()]
    step = Step(1, Hit(chunk, 1.0), "helper", lines, "", matches=matches)
    explanation = Explanation(FAILS, [step], [], [], [step.hit], opened=1, intents=tuple(intents(FAILS)))
    return [(verb, line.text.strip()) for verb, _, line in outcome_lines(explanation, set())]


def test_a_success_helper_beside_the_error_helpers_is_not_what_a_failure_answers():
    symbol = "ok, json, badRequest, unauthorized, forbidden, notFound, serverError"
    chunk = Chunk("src/lib/response.ts", "typescript", 1, 1 + UMAMI_RESPONSES.count("\n"), UMAMI_RESPONSES, symbol,
                  "module", "core")  # fmt: skip
    said = _said(chunk)
    assert not [text for _, text in said if "ok: true" in text], said
    assert apart(chunk, 14, 2)  # `{ status: 400 },` is badRequest's, line 2 is ok's
    assert not apart(chunk, 10, 14)  # both badRequest's


def test_a_class_body_and_its_method_are_not_apart():
    chunk = Chunk("app/controllers/application_controller.rb", "ruby", 1, 8, RAILS_CONTROLLER,
                  "ApplicationController", "class", "api")  # fmt: skip
    assert not apart(chunk, 2, 6)  # the rescue_from line lies in no function: it goes with the handler
