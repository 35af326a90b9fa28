"""What a chunk's documentation says, read on Netflix's lemur (a Flask + AngularJS app in no data set), on the real
chunker's chunks of its code:

- a docstring that opens on a reStructuredText directive (``.. http:post:: /auth/login``, ``.. module: x``) was
  quoted as "Its documentation says: “..”" (the first "sentence" of the directive's two dots);
- a docstring of fields only (``:param app:`` / ``:return:``) was quoted as "“:param app:”";
- the rest of a long function, cut by the chunker below a nested function, was documented by the comment over its
  first statement: "``configure_hook.after_request`` … Its documentation says: “Log request headers”".
"""

from __future__ import annotations

from codeqa.answer.explanation.code.outline import summary
from codeqa.chunk import chunk_file
from codeqa.records import Chunk, SourceFile

MODULE = '''"""
.. module: lemur.auth.views
    :platform: Unix
    :copyright: (c) 2018 by Netflix Inc., see AUTHORS for more
.. moduleauthor:: Kevin Glisson <kglisson@netflix.com>
"""
from flask import Blueprint
'''
POST = '''    @limiter.limit("10/5minute")
    def post(self):
        """
        .. http:post:: /auth/login

           Login with username:password

           **Example request**:

           .. sourcecode:: http

              POST /auth/login HTTP/1.1

           :arg username: username
           :statuscode 401: invalid credentials
        """
        args = self.reqparse.parse_args()
        return dict(token=create_token(user))'''
TOKEN = '''def create_token(user, aid=None, ttl=None):
    """
    Create a valid JWT for a given user/api key, this token is then used to authenticate
    sessions until the token expires.

    :param user:
    :return:
    """
    return jwt.encode(payload, secret)
'''

HOOKS = (
    '''def configure_hook(app):
    """

    :param app:
    :return:
    """
    @app.errorhandler(Exception)
    def handle_error(e):
        return jsonify(error=str(e)), 500

    @app.after_request
    def after_request(response):
        def sanitize_path(*, path: str) -> str:
            """
            Sanitizes the given path, if it starts with "/api/1/".
            """
'''
    + "".join(f"            part_{n} = path.split('/')[{n}]\n" for n in range(30))
    + """            return path

        # Log request headers
        skip_endpoints = any(
            endpoint in request.full_path for endpoint in app.config.get("LOG_REQUEST_HEADERS_SKIP_ENDPOINT", [])
        )
"""
    + "".join(f"        log_data_{n} = request.headers.get('X-Header-{n}')\n" for n in range(30))
)
HOOKS += "        return response\n"


def _chunks(path: str, text: str) -> list[Chunk]:
    return chunk_file(SourceFile(path, "python", text, len(text)))


def _at(chunks: list[Chunk], code: str) -> Chunk:
    return next(c for c in chunks if code in c.text)


def test_a_restructuredtext_directive_is_no_documentation_its_prose_is():
    post = Chunk("lemur/auth/views.py", "python", 409, 409 + POST.count("\n"), POST, "Login.post", "method", "api")
    assert summary(post) == "Login with username:password"
    assert summary(_chunks("lemur/auth/views.py", MODULE)[0]) == ""  # directives and fields only: nothing said
    assert summary(_chunks("lemur/auth/service.py", TOKEN)[0]) == (
        "Create a valid JWT for a given user/api key, this token is then used to authenticate sessions until the "
        "token expires."
    )


def test_a_docstring_of_fields_only_says_nothing():
    chunks = _chunks("lemur/__init__.py", HOOKS)
    assert summary(_at(chunks, "def configure_hook(app):")) == ""


def test_a_comment_at_the_top_of_a_function_s_rest_is_not_its_documentation():
    chunks = _chunks("lemur/__init__.py", HOOKS)
    rest = _at(chunks, "skip_endpoints = any(")
    assert "def after_request" not in rest.text and rest.symbol.endswith("after_request")  # the chunker's cut
    assert rest.text.lstrip().startswith("# Log request headers")
    assert summary(rest) == ""
    nested = _at(chunks, "def sanitize_path(")
    assert summary(nested) == 'Sanitizes the given path, if it starts with "/api/1/".'
