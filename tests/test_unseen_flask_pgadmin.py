"""False and misleading on pgadmin4 (a Flask + React app in no data set), read as a newcomer does.

- asked how background processes like backup run: "``BatchProcess.get_windows_interpreter`` … stores with
  ``paths.insert(0, u_encode(sys.prefix))``": a list's ``insert`` at a position stores nothing;
- asked what happens when an API request fails: "``parseApiError`` … builds the ``parseApiError`` error response" for
  a client function that reads an error into a message: only its comment ("the server responded with a status code")
  held the word the construct requires of a response builder;
- "``create_backup_objects_job`` … Its documentation says: “Args: sid: Server ID”": a docstring's ``Args:`` section
  is fields, the prose is the paragraph after it; and that route's handler (``@blueprint.route(…)``) "is a helper"
  because its folder is ``tools/``;
- "**Where errors go:** to the code at ``web/pgadmin/__init__.py:971``, because it handles ``HTTPException`` errors
  for the whole app" while ``@app.errorhandler(Exception)`` eight lines above takes every other error.
"""

from __future__ import annotations

from codeqa.answer.explanation.code.effects import STORES
from codeqa.answer.explanation.code.leading import docstring_prose
from codeqa.answer.explanation.code.outline import summary
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.explain import Explanation, Step
from codeqa.answer.explanation.said.conclusion import where_errors_go
from codeqa.answer.explanation.said.extractive import VERBS
from codeqa.answer.explanation.said.roles_said import role_phrase
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk, Hit

INTERPRETER = """    def get_windows_interpreter(self, paths):
        paths.insert(0, os.path.join(u_encode(sys.prefix), 'Scripts'))
        paths.insert(0, u_encode(sys.prefix))"""


def test_a_lists_insert_at_a_position_stores_nothing():
    assert not [line for line in INTERPRETER.split("\n") if STORES.search(line)]
    assert STORES.search("            db.session.add(shared_server)")
    assert STORES.search("    {:ok, drive} = Repo.insert(changeset)")
    assert STORES.search("    await knex('users').insert(user)")
    assert not STORES.search("const http = axios.create({")  # an HTTP client made, nothing stored


PARSE = """export function parseApiError(error, withData=false) {
  if (error.response) {
    // The request was made and the server responded with a status code
    // that falls out of the range of 2xx
    if(error.response.headers['content-type'] == 'application/json') {
      let err_resp_data = error.response.data;
      return err_resp_data.errormsg;
    } else {
      return error.response.statusText;
    }
  } else if (error.request) {
    return gettext('Connection to pgAdmin server has been lost');
  }
  return error;
}"""
BUILD = """export function notFoundError(res, message) {
  return res.status(404).json({ error: message });
}"""


def _phrases(text: str) -> list[str]:
    chunk = Chunk("web/pgadmin/static/js/api_instance.js", "javascript", 131, 131 + text.count("\n"), text,
                  "parseApiError", "function", "util")  # fmt: skip
    return [m.phrase for m in matches_in(chunk, load_all(), intents("What happens when an API request fails?"))]


def test_a_word_in_a_comment_makes_no_error_response():
    assert not [phrase for phrase in _phrases(PARSE) if "error response" in phrase]
    assert "builds the `notFoundError` error response" in _phrases(BUILD)


JOB = '''@permissions_required(AllPermissionTypes.tools_backup)
@pga_login_required
def create_backup_objects_job(sid):
    """
    Args:
        sid: Server ID

        Creates a new job for backup task
        (Backup Database(s)/Schema(s)/Table(s))

    Returns:
        None
    """
    data = json.loads(request.data)'''


def test_a_section_of_arguments_is_no_summary():
    job = Chunk("web/pgadmin/tools/backup/__init__.py", "python", 406, 419, JOB, "create_backup_objects_job",
                "function", "util")  # fmt: skip
    assert summary(job) == "Creates a new job for backup task (Backup Database(s)/Schema(s)/Table(s))"
    assert docstring_prose(["Sign the user in.", "", "    Args:", "        user: who", '    """'], '"""') == (
        "Sign the user in."
    )


ROUTED = "@blueprint.route(\n    '/job/<int:sid>', methods=['POST'], endpoint='create_server_job'\n)\n" + JOB


def test_a_routes_handler_in_a_tools_folder_is_no_helper():
    def said(text: str) -> str:
        return role_phrase(Chunk("web/pgadmin/tools/backup/__init__.py", "python", 400, 400 + text.count("\n"), text,
                                 "create_backup_objects_job", "function", "util"), VERBS, "is here")  # fmt: skip

    assert said(ROUTED) == "handles the request"
    assert said(INTERPRETER) == "is a helper"


EVERY = """    @app.errorhandler(Exception)
    def all_exception_handler(e):
        current_app.logger.error(e, exc_info=True)
        return internal_server_error(errormsg=str(e))"""
HTTP = """    # Exclude HTTPexception from above handler (all_exception_handler)
    @app.errorhandler(HTTPException)
    def http_exception_handler(e):
        current_app.logger.error(e, exc_info=True)
        return e"""


def test_errors_go_to_the_handler_of_every_error_not_of_http_ones():
    fails = "What happens when an API request fails?"
    steps = []
    for rank, (start, text, name) in enumerate([(968, HTTP, "http_exception_handler"),
                                                (963, EVERY, "all_exception_handler")], 1):  # fmt: skip
        chunk = Chunk("web/pgadmin/__init__.py", "python", start, start + text.count("\n"), text, f"create_app.{name}",
                      "function", "core")  # fmt: skip
        steps.append(Step(rank, Hit(chunk, 1.0), "function", [], "", matches_in(chunk, load_all(), intents(fails))))
    explanation = Explanation(fails, steps, [], [], [s.hit for s in steps], opened=2, intents=tuple(intents(fails)))
    said = where_errors_go(explanation)
    assert said is not None and "web/pgadmin/__init__.py:963" in said[1] and "`Exception`" in said[0], said
