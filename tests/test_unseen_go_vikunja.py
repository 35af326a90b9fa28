"""False on vikunja (a Go app in no data set), asked how authentication flows and how reminder emails are sent:
"``checkAPITokenAndPutItInContext`` … calls ``Debugf`` (``pkg/log/logging.go:109-114``)" for ``log.Debugf(…)``,
the package's function ``func Debugf``, while the cited lines define the method ``func (wrapLogger) Debugf`` (a
call through a package never reaches a method of one of its types); and asked what happens when a request fails:
"``NewEcho`` (``pkg/routes/routes.go:205-212``) … Its documentation says: “#nosec G115 - maxFileSize is a
configuration value …”", a linter's note over one statement of a later piece of the function said as its
documentation."""

from __future__ import annotations

from codeqa.answer.explanation.calls.byname import holds_by_name, typed_receiver
from codeqa.answer.explanation.calls.flow import Use
from codeqa.answer.explanation.code.outline import summary
from codeqa.chunk import chunk_file
from codeqa.records import Chunk, SourceFile

# the two pieces of pkg/log/logging.go the chunker cut (lines 109-114 and 146-208, shortened)
METHOD = """// wrapLogger is used for libraries requiring a Debugf method.
type wrapLogger struct{}

func (wrapLogger) Debugf(format string, args ...interface{}) {
	logInstance.Debug(fmt.Sprintf(format, args...))
}"""
FUNCTIONS = """// Debug is for debug messages
func Debug(msg string, args ...interface{}) {
	logInstance.Debug(msg, args...)
}

// Debugf is for debug messages
func Debugf(format string, args ...interface{}) {
	logInstance.Debug(fmt.Sprintf(format, args...))
}"""
TOKENS = """package routes

import (
	"code.vikunja.io/api/pkg/log"
)

func checkAPITokenAndPutItInContext(tokenHeaderValue string) error {
	token, err := validate(tokenHeaderValue)
	if err != nil {
		log.Debugf("[auth] API token validation failed: %v", err)
		return err
	}
	return nil
}
"""
CALL = 'log.Debugf("[auth] API token validation failed: %v", err)'


def _chunks(path: str, text: str) -> list[Chunk]:
    return chunk_file(SourceFile(path, "go", text, len(text)))


def _defining(chunks: list[Chunk], head: str) -> Chunk:
    return next(chunk for chunk in chunks if head in chunk.text)


def test_a_call_through_a_package_is_not_a_method_of_its_types():
    method = Chunk("pkg/log/logging.go", "go", 109, 114, METHOD, "wrapLogger, wrapLogger.Debugf", "class", "util")
    function = Chunk("pkg/log/logging.go", "go", 146, 154, FUNCTIONS, "Debug, Debugf", "function", "util")
    caller = _defining(_chunks("pkg/routes/api_tokens.go", TOKENS), "func checkAPITokenAndPutItInContext(")
    use = Use("Debugf", caller.start_line + caller.text.split("\n").index(f"\t\t{CALL}"), "calls", CALL)
    assert not holds_by_name(caller, method, use, TOKENS)
    assert not typed_receiver(caller, method, use, TOKENS)
    assert holds_by_name(caller, function, use, TOKENS)
    assert typed_receiver(caller, function, use, TOKENS)


def test_a_method_is_still_reached_through_its_receiver():
    server = """package web

type Server struct{}

func (s *Server) Debugf(format string) {
}
"""
    caller_text = """package web

func run(s *Server) {
	s.Debugf("starting")
}
"""
    used = _defining(_chunks("pkg/web/server.go", server), "func (s *Server) Debugf(")
    caller = _defining(_chunks("pkg/web/run.go", caller_text), "func run(")
    use = Use("Debugf", 4, "calls", 's.Debugf("starting")')
    assert holds_by_name(caller, used, use, caller_text)


# lines 205-212 of pkg/routes/routes.go: the last piece of `func NewEcho() *echo.Echo {` (lines 123-212)
ECHO_TAIL = """	// #nosec G115 - maxFileSize is a configuration value that won't exceed int64 max in practice
	e.Use(middleware.BodyLimit((int64(maxFileSize) + 2) * 1024 * 1024))

	// Set up centralized error handler
	e.HTTPErrorHandler = CreateHTTPErrorHandler(e, config.SentryEnabled.GetBool())

	return e
}"""
ECHO_HEAD = """// NewEcho registers a new Echo instance
func NewEcho() *echo.Echo {
	e := echo.New()"""


def test_a_comment_inside_a_later_piece_of_a_function_is_not_its_documentation():
    tail = Chunk("pkg/routes/routes.go", "go", 205, 212, ECHO_TAIL, "NewEcho", "function", "api")
    head = Chunk("pkg/routes/routes.go", "go", 122, 124, ECHO_HEAD, "NewEcho", "function", "api")
    assert summary(tail) == ""
    assert summary(head) == "NewEcho registers a new Echo instance"


def test_documentation_of_heads_the_pattern_misses_still_stands():
    java = """    /** Looks up the user by verified email. */
    Mono<UserDetails> lookupByEmail(String loginId) {
        return userService.findUserByVerifiedEmail(loginId);
    }"""
    ruby = """  # Signs the user out everywhere.
  def sign_out_all
    sessions.destroy_all
  end"""
    method = Chunk("login/LoginManager.java", "java", 70, 73, java, "LoginManager.lookupByEmail", "method", "api")
    assert summary(method) == "Looks up the user by verified email."
    rb = Chunk("app/models/user.rb", "ruby", 10, 13, ruby, "User.sign_out_all", "method", "model")
    assert summary(rb) == "Signs the user out everywhere."
