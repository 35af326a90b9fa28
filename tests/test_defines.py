"""Every definition a chunk holds defines its name (issue #35): a chunk's symbol names at most five definitions and,
for a class kept whole in one chunk, only the class, so its methods were nobody's definition — a by-name call to one
of them was said unique while a namesake hid in a class chunk (``definitions_of`` read 70 of indico's 757
``_process`` methods), and a method called through its class (``WallpaperHelper::getRandomWallpaper()``) could not be
read where it ends. ``searchfiles.defines`` adds every definition the file's stored tags place on the chunk's lines,
a method also by its class; the symbols, the embedded headers and the search files stay as they were.

Real chunker (tree-sitter), real tags, real indexes (``apps_home``) with the packaged embedding model.
"""

from __future__ import annotations

from pathlib import Path

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.calls.flow import Use
from codeqa.answer.explanation.calls.graphqa import resolve
from codeqa.answer.explanation.calls.selfcalls import private_self_call
from codeqa.answer.explanation.explain import Explanation
from codeqa.answer.explanation.pool import explain_index
from codeqa.answer.explanation.said.callees import callee_outcome
from codeqa.chunk import chunk_file
from codeqa.config import Settings
from codeqa.index import Index
from codeqa.records import Chunk, Hit, SourceFile
from codeqa.retrieve.exact import exact_definitions
from codeqa.retrieve.file_signals import file_roles
from codeqa.searchfiles.defines import file_definitions, load_definitions
from codeqa.searchfiles.tagfile import load_tags
from tests.test_callee_outcomes import JS_APP

CLASSED_APP = {  # the token maker is a method of a class kept whole in one chunk, called through the class
    **JS_APP,
    "src/routes/session.js": JS_APP["src/routes/session.js"]
    .replace("const { issueToken } = require('../tokens');", "const { Tokens } = require('../tokens');")
    .replace("issueToken(member)", "Tokens.issue(member)"),
    "src/tokens.js": """const jwt = require('jsonwebtoken');

const KEY = process.env.KEY;

class Tokens {
  static issue(member) {
    const claims = { sub: member.id, role: member.role };
    return jwt.sign(claims, KEY, { expiresIn: '1h' });
  }

  static verify(token) {
    return jwt.verify(token, KEY);
  }
}

module.exports = { Tokens };
""",
}
HIDDEN_NAMESAKE_APP = {  # a second issueToken, a method of a class kept whole in one chunk
    **JS_APP,
    "src/legacy/signer.js": """class LegacySigner {
  issueToken(member) {
    return `legacy-${member.id}`;
  }

  revoke(token) {
    return null;
  }
}

module.exports = { LegacySigner };
""",
}
INDEXED_APPS = {"classed": CLASSED_APP, "hidden": HIDDEN_NAMESAKE_APP}  # indexed once by apps_home (conftest)
QUESTION = "Which code checks a member's password at login?"


def chunks_of(files: dict[str, str], language: str) -> list[Chunk]:
    return [chunk for path, text in files.items() for chunk in chunk_file(SourceFile(path, language, text, len(text)))]


def test_a_class_kept_in_one_chunk_defines_its_methods_by_their_own_and_their_class_name() -> None:
    views = """class AuthViewSet(viewsets.ViewSet):
    permission_classes = (AllowAny,)

    def create(self, request):
        limit = 3
        return login(request.data)

    def destroy(self, request, pk=None):
        return logout(request)
"""
    chunks = chunks_of({"auth/views.py": views}, "python")
    assert [chunk.symbol for chunk in chunks] == ["AuthViewSet"]  # the symbol names the class only
    context = AnswerContext.from_chunks(chunks, [])
    assert context.defines[0] == ("AuthViewSet", "AuthViewSet.create", "create", "AuthViewSet.destroy", "destroy")
    assert context.definers["authviewset.create"] == [0] and context.definitions_of("create") == 1
    assert "limit" not in context.definers and "request" not in context.definers  # variables, parameters: no


def test_a_function_assigned_to_an_objects_property_is_defined_by_the_chunk_holding_it() -> None:
    """NodeBB: ``authenticationController.doLogin = async function`` sits in a chunk merged with the function above;
    the chunk names both (it named only ``redirectAfterLogin`` before assigned functions were definitions), and
    "where is doLogin defined?" cites the function's own lines."""
    text = """const authenticationController = module.exports;

async function redirectAfterLogin(req, res) {
  res.redirect(nconf.get('relative_path') + '/');
}

authenticationController.doLogin = async function (req, uid) {
  await user.auth.resetLockout(uid);
  req.session.uid = uid;
};
"""
    chunks = chunks_of({"src/controllers/authentication.js": text}, "javascript")
    holder = next(chunk for chunk in chunks if "doLogin" in chunk.text)
    assert holder.symbol == "redirectAfterLogin, authenticationController.doLogin"
    context = AnswerContext.from_chunks(chunks, [])
    assert context.definers["dologin"] == [context.row_of(holder)]
    _, found = resolve("doLogin", context)  # "where is doLogin defined?": its own lines, named as written
    assert [(c.start_line, c.end_line, c.symbol, c.kind) for c in found] == [
        (7, 10, "authenticationController.doLogin", "function")
    ]


def test_the_definitions_read_at_load_are_the_stored_tags_definitions(apps_settings: Settings) -> None:
    """Only each file's definitions are decoded from ``tags.json`` when the search files load: the same as the whole
    tags decoded; the loaded index names the class's methods."""
    index = Index.open("classed", apps_settings)
    folder = Path(index.folder)
    tags = load_tags(folder)
    assert tags is not None
    assert load_definitions(folder) == file_definitions(list(tags.values()))
    files = index.files
    row = next(
        r for r, path in enumerate(files.table.paths) if path == "src/tokens.js" and "Tokens" in files.defines[r]
    )
    assert {"Tokens.issue", "issue", "Tokens.verify", "verify"} <= set(files.defines[row])
    assert files.table.symbols[row] == "Tokens"  # the symbol (the embedded header) is unchanged
    roles = file_roles(files)
    assert exact_definitions(files, ["issue"], 4, roles) == [row]  # "Where is `issue`?" reaches the class's chunk


def test_a_method_of_a_class_in_one_chunk_is_read_where_it_ends_on_its_own_line() -> None:
    """monica: ``WallpaperHelper::getRandomWallpaper()`` calls a method of a class kept whole in one chunk (symbol
    ``WallpaperHelper``); linked by name (PHP has no resolver), it is the only definition of its name, and its ending
    is the method's own return line."""
    helper = """<?php

namespace App\\Helpers;

class WallpaperHelper
{
    public static function getRandomWallpaper(): string
    {
        $photos = ['image1.png', 'image2.png'];
        shuffle($photos);

        return asset('img/'.$photos[0]);
    }
}
"""
    controller = """<?php

namespace App\\Http\\Controllers\\Auth;

use App\\Helpers\\WallpaperHelper;

class LoginController extends Controller
{
    public function __invoke(Request $request)
    {
        return Inertia::render('Auth/Login', [
            'wallpaperUrl' => WallpaperHelper::getRandomWallpaper(),
        ]);
    }
}
"""
    files = {"app/Helpers/WallpaperHelper.php": helper, "app/Http/Controllers/Auth/LoginController.php": controller}
    chunks = chunks_of(files, "php")
    callee = next(chunk for chunk in chunks if chunk.path == "app/Helpers/WallpaperHelper.php")
    user = next(chunk for chunk in chunks if chunk.path.endswith("LoginController.php"))
    assert "getRandomWallpaper" not in callee.symbol  # the class is, the method is not
    context = AnswerContext.from_chunks(chunks, [Hit(user, 1.0, user.id), Hit(callee, 0.5, callee.id)])
    explanation = Explanation("How does the login page work?", [], [], [], [], context=context)
    line = 1 + controller.split("\n").index("            'wallpaperUrl' => WallpaperHelper::getRandomWallpaper(),")
    use = Use(
        "WallpaperHelper.getRandomWallpaper", line, "calls", "'wallpaperUrl' => WallpaperHelper::getRandomWallpaper(),"
    )
    said = callee_outcome(explanation, user, use, callee, set())
    assert said is not None
    ending = 1 + helper.split("\n").index("        return asset('img/'.$photos[0]);")
    assert (said.outcome.line, said.outcome.text) == (ending, "return asset('img/'.$photos[0]);")


def test_a_name_a_class_chunk_also_defines_is_not_called_unique(apps_settings: Settings) -> None:
    """``issueToken`` is also a method of ``LegacySigner`` (one chunk, symbol ``LegacySigner``): the call linked by
    name may mean either, so nothing is said of the one in ``src/tokens.js``."""
    index = Index.open("hidden", apps_settings)
    explanation = explain_index(index, QUESTION, QUESTION, None, 8)
    assert explanation is not None and explanation.context is not None
    assert explanation.context.definitions_of("issueToken") == 2
    session = next(step for step in explanation.steps if step.chunk.path == "src/routes/session.js")
    use, callee = next((use, explanation.step(rank).chunk) for rank, use in session.calls if use.name == "issueToken")
    assert callee.path == "src/tokens.js"
    assert callee_outcome(explanation, session.chunk, use, callee, set()) is None


def test_a_private_method_called_on_this_in_its_own_file_is_that_method() -> None:
    """monica: ``$this->createUser(…)`` calls the class's own private ``createUser``, however many other classes
    define one; a public method (a subclass may override it) or a call on another object is not settled so."""
    action = """<?php

class AttemptToAuthenticateSocialite
{
    public function getUserOrCreate($socialite)
    {
        return $this->createUser($socialite);
    }

    private function createUser($socialite)
    {
        return User::create(['email' => $socialite->email]);
    }
}
"""
    invite = """<?php

class InviteUser
{
    public function createUser()
    {
        return User::create(['email' => $this->email]);
    }
}
"""
    chunks = chunks_of({"app/Actions/Attempt.php": action, "app/Services/InviteUser.php": invite}, "php")
    context = AnswerContext.from_chunks(chunks, [Hit(chunks[0], 1.0, chunks[0].id)])
    assert context.definitions_of("createUser") == 2
    user = holder = next(chunk for chunk in chunks if "private function createUser" in chunk.text)
    call = Use("createUser", 7, "calls", "return $this->createUser($socialite);")
    assert private_self_call(user, holder, call)
    other = next(chunk for chunk in chunks if "public function createUser" in chunk.text)
    assert not private_self_call(user, other, call)  # another file's
    public = Chunk(holder.path, "php", holder.start_line, holder.end_line,
                   holder.text.replace("private function createUser", "public function createUser"), holder.symbol,
                   holder.kind, holder.layer)  # fmt: skip
    assert not private_self_call(user, public, call)
    assert not private_self_call(user, holder, Use("createUser", 7, "calls", "return $other->createUser($s);"))
