"""Where a cited caller calls (``callsites``): a source's sentence names the code that calls it; for one caller whose
calling line plays the role the question asks about, that line is quoted after the caller's citation, by its line.

The app: a Flask API whose errors are answered by one helper (``render_error``); a validation helper in another
module (no source of the answer) calls it with a 422, among six views that answer their own errors. Asked what
happens when a request fails, the answer opens ``render_error`` and says where the validation helper calls it, a
line no snippet shows; a line that only holds the question's words plays no part in it.
"""

from __future__ import annotations

import re

from codeqa.answer.explanation.calls.flow import Use
from codeqa.answer.explanation.code.keylines import question_terms
from codeqa.answer.explanation.said.callsites import on_topic, quotable_call
from codeqa.answer.rendering.citations import check_citations
from codeqa.config import Settings
from codeqa.records import Chunk
from tests.helpers import ask_named

API = {
    "requirements.txt": "flask==3.0.0\n",
    "api/__init__.py": '''"""The API application."""
from flask import Flask

from api.orders import orders


def create_app():
    app = Flask(__name__)
    app.register_blueprint(orders)
    return app
''',
    "api/errors.py": '''"""How the API answers a request that fails."""
from flask import jsonify


def render_error(status, message, details=None):
    """Answer a failed request with a JSON error body and its status code."""
    body = {"error": message, "status": status}
    if details:
        body["details"] = details
    return jsonify(body), status
''',
    "api/validation.py": '''"""Checking what a client sends."""
from api.errors import render_error


def fields_missing(problems):
    names = sorted(problems)
    summary = ", ".join(names)
    return render_error(422, "invalid fields: " + summary, problems)


def problems_in(form, required):
    return {name: "missing" for name in required if not form.get(name)}
''',
    "api/orders.py": '''"""Placing orders."""
from flask import Blueprint, request

from api.validation import problems_in, fields_missing

orders = Blueprint("orders", __name__)


@orders.route("/api/orders", methods=["POST"])
def place_order():
    problems = problems_in(request.form, ["item", "quantity"])
    if problems:
        return fields_missing(problems)
    return {"ok": True}, 201
''',
}


VIEWS = {
    f"api/{name}.py": f'''"""The {name} API: each request that fails answers with its own status."""
from flask import Blueprint, abort, jsonify, request

{name} = Blueprint("{name}", __name__)


@{name}.route("/api/{name}/<int:item_id>", methods=["GET", "DELETE"])
def {name}_item(item_id):
    """The API request for one {name} item; a request that fails gets a 404 or a 403."""
    item = find_{name}(item_id)
    if item is None:
        abort(404)
    if request.method == "DELETE" and not item.owned_by(request.user):
        return jsonify({{"error": "this {name} request failed: not yours"}}), 403
    return jsonify(item.as_dict())
'''
    for name in ("invoices", "refunds", "coupons", "carts", "reviews", "wishlists")
}

INDEXED_APPS = {"api": {**API, **VIEWS}}  # indexed once by apps_home (conftest)


def answer(apps_settings: Settings, question: str) -> str:
    result = ask_named("api", question, apps_settings, backend="none").result()
    assert not result.generated and check_citations(result.text, result.sources).invalid == []
    return result.text


def bullet(text: str, name: str) -> str:
    return next(line for line in text.split("\n") if re.match(rf"^- \*\*\[\d+\]\*\* `{name}`", line))


def test_a_cited_caller_is_said_with_the_line_that_calls(apps_settings: Settings) -> None:
    text = answer(apps_settings, "What happens when an API request fails?")
    said = bullet(text, "render_error")
    assert (
        "it is called by `fields_missing` (`api/validation.py:1-12`), in "
        '`return render_error(422, "invalid fields: " + summary, problems)` (line 8).'
    ) in said, said
    assert text.count('render_error(422, "invalid fields: "') == 1  # no snippet shows it: only the clause


def test_only_a_line_playing_the_role_the_question_asks_for_is_quoted() -> None:
    line = 'return render_error(422, "invalid fields: " + summary, problems)'
    assert on_topic(question_terms("What happens when an API request fails?"), line)  # an error's answer
    assert not on_topic(question_terms("Where are the fields of an order listed?"), line)  # words alone: not quoted
    assert not on_topic(question_terms("What happens when an API request fails?"), "names = sorted(problems)")


def caller(path: str, language: str, text: str, symbol: str) -> Chunk:
    return Chunk(path, language, 1, 1 + text.count("\n"), text, symbol, "function", "api")


def test_a_cut_statement_or_another_definitions_call_is_not_quoted() -> None:
    chained = caller(
        "Json.php",
        "php",
        "    public function respondNotTheRightParameters(?string $message = null): JsonResponse\n    {\n"
        "        return $this->setHTTPStatusCode(500)\n            ->setErrorCode(33)\n"
        "            ->respondWithError($message);\n    }",
        "JsonRespondController.respondNotTheRightParameters",
    )
    cut = Use("setHTTPStatusCode", 3, "calls", "return $this->setHTTPStatusCode(500)")
    assert not quotable_call(chained, cut, "setHTTPStatusCode")  # the statement goes on: `->respondWithError(…)`
    ends = caller(
        "Login.php",
        "php",
        "    public function handle(Request $request)\n    {\n"
        "        $user = $this->authenticateUser($request, $driver, $provider->user());\n    }",
        "Login.handle",
    )
    call = Use("authenticateUser", 3, "calls", "$user = $this->authenticateUser($request, $driver, $provider->user());")
    assert quotable_call(ends, call, "authenticateUser")
    assert not quotable_call(ends, call, "hash")  # the sentence names another definition: not its call
    opened = caller(
        "views.py",
        "python",
        "def bulk_update(request):\n    ret = services.update_in_bulk(user=request.user,\n"
        "                                  data=request.DATA)\n    return ret",
        "bulk_update",
    )
    first = Use("update_in_bulk", 2, "calls", "ret = services.update_in_bulk(user=request.user,")
    assert not quotable_call(opened, first, "update_in_bulk")  # its arguments go on below
