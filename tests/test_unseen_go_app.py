"""Misleading on navidrome (a Go app in no data set), asked how audio transcoding is done: "``isValidMediaType (+4)``
… Its documentation says: “Only support songs for now”", the comment over ``var validMediaTypes`` above the
function, said as the function's documentation."""

from __future__ import annotations

from codeqa.answer.explanation.code.outline import summary
from codeqa.records import Chunk

VALIDATION = """// Only support songs for now
var validMediaTypes = []string{
	"song",
}

func isValidMediaType(mediaType string) bool {
	return slices.Contains(validMediaTypes, mediaType)
}

var validProtocols = []string{
	stream.ProtocolHTTP,
}

func isValidProtocol(p string) bool {
	return slices.Contains(validProtocols, p)
}"""
DOCUMENTED = """// isValidMediaType reports whether the API serves this media type.
func isValidMediaType(mediaType string) bool {
	return slices.Contains(validMediaTypes, mediaType)
}"""
HANDLER = """// handleLogin signs the user in and returns a token.
const handleLogin = async (req, res) => {
  res.json({ token: await login(req.body) });
};"""


def _chunk(text: str, symbol: str, language: str = "go", path: str = "server/subsonic/transcode.go") -> Chunk:
    return Chunk(path, language, 173, 173 + text.count("\n"), text, symbol, "function", "api")


def test_a_variables_comment_is_not_the_functions_documentation():
    assert summary(_chunk(VALIDATION, "isValidMediaType, isValidProtocol")) == ""


def test_a_functions_own_comment_still_is():
    said = summary(_chunk(DOCUMENTED, "isValidMediaType"))
    assert said == "isValidMediaType reports whether the API serves this media type."
    arrow = summary(_chunk(HANDLER, "handleLogin", "javascript", "routes/auth.js"))
    assert arrow == "handleLogin signs the user in and returns a token."
