"""CodiMD (an Express app in no data set), asked "How does user authentication flow through the system?", said
"`index.js` (`lib/auth/email/index.js:41-84`) is a helper" of a router's ``emailAuth.post('/login', parser,
function (req, res, next) {`` in a ``lib/`` folder: a route with its handler in place handles the request."""

from __future__ import annotations

from codeqa.answer.explanation.said.extractive import VERBS
from codeqa.answer.explanation.said.roles_said import role_phrase
from codeqa.records import Chunk

ROUTES = """  emailAuth.post('/register', urlencodedParser, async function (req, res, next) {
    if (!req.body.email || !req.body.password) return response.errorBadRequest(req, res)
    return res.redirect(config.serverURL + '/')
  })

emailAuth.post('/login', urlencodedParser, function (req, res, next) {
  passport.authenticate('local', { failureRedirect: config.serverURL + '/' })(req, res, next)
})"""
HELPER = """function getPass (argv, action) {
  return argv['pass'] || readline.question('Password: ')
}
const routes = ['/login', '/logout'].map((path) => path.toUpperCase())"""


def test_a_route_with_its_handler_in_place_handles_the_request() -> None:
    routes = Chunk("lib/auth/email/index.js", "javascript", 41, 48, ROUTES, "", "module", "util")
    assert role_phrase(routes, VERBS, "is here") == "handles the request"
    helper = Chunk("lib/utils.js", "javascript", 1, 4, HELPER, "getPass", "function", "util")
    assert role_phrase(helper, VERBS, "is here") != "handles the request"
