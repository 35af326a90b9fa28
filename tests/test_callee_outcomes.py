"""What a cited callee does (issue #35, classes 5-6): a source's sentence names the code it calls; for one callee, the
line where the callee ends, quoted whole from its own definition and cited by its line, where the code verifies it.

The app: a Flask login view that finds the member, checks the password and hands out a token made in another module
(``shop/issuing.py``, no word of the question in it), beside password reset and admin code that outrank it, so the
token's module is cited in the view's sentence but shown with no lines of its own. Two Express apps, the same but
for a namesake of the token function, show that a call linked by name says nothing once the name is not unique.
"""

from __future__ import annotations

import re

from codeqa.answer.explanation.pool import explain_index
from codeqa.answer.explanation.said.callees import callee_outcome, ending_line
from codeqa.answer.rendering.citations import check_citations
from codeqa.config import Settings
from codeqa.index import Index
from codeqa.records import Chunk
from tests.helpers import ask_named

SHOP = {
    "requirements.txt": "flask==3.0.0\npyjwt==2.8.0\n",
    "shop/__init__.py": '''"""The shop application."""
from flask import Flask

from shop.views import bp


def create_app():
    app = Flask(__name__)
    app.register_blueprint(bp)
    return app
''',
    "shop/views.py": '''"""Signing in to the shop's API."""
from flask import Blueprint, jsonify, request

from shop.members import check_secret, find_member, remember_login
from shop.issuing import grant_token

bp = Blueprint("auth", __name__)


@bp.route("/api/login", methods=["POST"])
def login():
    """Sign a member in: check the password, then hand out a token."""
    member = find_member(request.form["email"])
    if member is None or not check_secret(member, request.form["password"]):
        return jsonify({"error": "wrong email or password"}), 401
    remember_login(member)
    return jsonify({"token": grant_token(member)})
''',
    "shop/members.py": '''"""Members of the shop and their passwords."""
from datetime import datetime, timezone

from werkzeug.security import check_password_hash

from shop.models import Member, db


def find_member(email):
    return Member.query.filter_by(email=email.lower()).first()


def check_secret(member, password):
    if member.locked:
        return False
    return check_password_hash(member.password_hash, password)


def remember_login(member):
    member.last_login = datetime.now(timezone.utc)
    db.session.commit()
''',
    "shop/issuing.py": '''"""Bearer credentials for the API."""
import jwt

KEY = "change-me"


def grant_token(member):
    claims = {"sub": member.id, "role": member.role}
    return jwt.encode(claims, KEY, algorithm="HS256")
''',
    "shop/passwords.py": '''"""The password policy: how long a password must be and how it is stored."""
from werkzeug.security import generate_password_hash

MIN_PASSWORD_LENGTH = 12


def password_problems(password):
    """What is wrong with a new password, for the form."""
    problems = []
    if len(password) < MIN_PASSWORD_LENGTH:
        problems.append(f"a password needs {MIN_PASSWORD_LENGTH} characters")
    if password.isdigit():
        problems.append("a password cannot be only digits")
    return problems


def store_password(member, password):
    member.password_hash = generate_password_hash(password)
''',
    "shop/reset.py": '''"""Resetting a forgotten password."""
from flask import Blueprint, jsonify, request

from shop.members import find_member
from shop.passwords import password_problems, store_password

reset_bp = Blueprint("reset", __name__)


@reset_bp.route("/api/password/reset", methods=["POST"])
def reset_password():
    member = find_member(request.form["email"])
    problems = password_problems(request.form["new_password"])
    if member is None or problems:
        return jsonify({"error": problems or "unknown member"}), 400
    store_password(member, request.form["new_password"])
    return jsonify({"ok": True})
''',
    "shop/admin.py": '''"""Admin tools: an admin may set a member's password."""
from shop.passwords import password_problems, store_password


def admin_set_password(admin, member, password):
    if not admin.is_admin:
        raise PermissionError("only admins may set a password")
    if password_problems(password):
        raise ValueError("the password breaks the password policy")
    store_password(member, password)
''',
    "shop/models.py": """from flask_sqlalchemy import SQLAlchemy

db = SQLAlchemy()


class Member(db.Model):
    id = db.Column(db.Integer, primary_key=True)
    email = db.Column(db.String(200))
    password_hash = db.Column(db.String(200))
    role = db.Column(db.String(20))
    locked = db.Column(db.Boolean, default=False)
    last_login = db.Column(db.DateTime)
""",
}

JS_APP = {
    "package.json": '{"name": "club", "dependencies": {"express": "4.18.2", "jsonwebtoken": "9.0.0"}}\n',
    "src/app.js": """const express = require('express');
const { router } = require('./routes/session');

const app = express();
app.use(express.json());
app.use('/api', router);
module.exports = app;
""",
    "src/routes/session.js": """const express = require('express');
const { findMember, passwordMatches } = require('../members');
const { issueToken } = require('../tokens');

const router = express.Router();

router.post('/session', async (req, res) => {
  const member = await findMember(req.body.email);
  if (!member || !(await passwordMatches(member, req.body.password))) {
    return res.status(401).json({ error: 'wrong email or password' });
  }
  res.json({ token: issueToken(member) });
});

module.exports = { router };
""",
    "src/members.js": """const bcrypt = require('bcryptjs');
const db = require('./db');

async function findMember(email) {
  return db.members.findOne({ email: email.toLowerCase() });
}

async function passwordMatches(member, password) {
  return bcrypt.compare(password, member.passwordHash);
}

module.exports = { findMember, passwordMatches };
""",
    "src/tokens.js": """const jwt = require('jsonwebtoken');

const KEY = process.env.KEY;

function issueToken(member) {
  const claims = { sub: member.id, role: member.role };
  return jwt.sign(claims, KEY, { expiresIn: '1h' });
}

module.exports = { issueToken };
""",
    "src/db.js": """module.exports = { members: null };
""",
    "src/passwords/policy.js": """const MIN_PASSWORD_LENGTH = 12;

function passwordProblems(password) {
  const problems = [];
  if (password.length < MIN_PASSWORD_LENGTH) problems.push('a password needs 12 characters');
  return problems;
}

module.exports = { passwordProblems, MIN_PASSWORD_LENGTH };
""",
    "src/routes/reset.js": """const express = require('express');
const { findMember } = require('../members');
const { passwordProblems } = require('../passwords/policy');

const resetRouter = express.Router();

resetRouter.post('/password/reset', async (req, res) => {
  const member = await findMember(req.body.email);
  const problems = passwordProblems(req.body.newPassword);
  if (!member || problems.length) {
    return res.status(400).json({ error: problems });
  }
  res.json({ ok: true });
});

module.exports = { resetRouter };
""",
}

NAMESAKE_APP = {
    **JS_APP,
    "src/legacy/tokens.js": """function issueToken(member) {
  return `legacy-${member.id}`;
}

module.exports = { issueToken };
""",
}

INDEXED_APPS = {"shop": SHOP, "club": JS_APP, "namesake": NAMESAKE_APP}  # indexed once by apps_home (conftest)


def answer(apps_settings: Settings, question: str) -> str:
    result = ask_named("shop", question, apps_settings, backend="none").result()
    assert not result.generated and check_citations(result.text, result.sources).invalid == []
    return result.text


def bullet(text: str, name: str) -> str:
    return next(line for line in text.split("\n") if re.match(rf"^- \*\*\[\d+\]\*\* `{name}`", line))


def test_a_cited_callee_says_where_it_ends_by_its_own_line(apps_settings: Settings) -> None:
    text = answer(apps_settings, "Which code checks a member's password at login?")
    login = bullet(text, "login")
    assert login.endswith(
        "it calls `find_member` (`shop/members.py:1-21`) and `grant_token` (`shop/issuing.py:1-9`), which issues a "
        'token: `return jwt.encode(claims, KEY, algorithm="HS256")` (line 9). Its documentation says: “Sign a member '
        "in: check the password, then hand out a token.”"
    ), login
    assert "which" not in bullet(text, "reset_password")  # `store_password` ends in an assignment: nothing is said


def test_a_models_brief_reads_the_same_ending(apps_settings: Settings) -> None:
    from codeqa.answer.explanation.said.extractive import flow_text

    question = "Which code checks a member's password at login?"
    explanation = explain_index(Index.open("shop", apps_settings), question, question, None, 8)
    assert explanation is not None
    brief = flow_text(explanation).split("\n")
    under = brief[brief.index(next(line for line in brief if line.startswith("- [3] ") and " login at " in line)) :]
    assert (
        "    calls grant_token (shop/issuing.py:1-9), which issues a token: "
        'return jwt.encode(claims, KEY, algorithm="HS256") (shop/issuing.py:9)'
    ) in under[: next(n for n, line in enumerate(under[1:], 1) if line.startswith("- ["))]


def test_a_line_the_answer_already_shows_is_not_said_again(apps_settings: Settings) -> None:
    text = answer(apps_settings, "Where is the password checked when a member signs in?")
    shown = ('`return jwt.encode(claims, KEY, algorithm="HS256")` (line 9)',  # among "More places"
             '9      return jwt.encode(claims, KEY, algorithm="HS256")')  # or in `issuing.py`'s snippet  # fmt: skip
    assert any(line in text for line in shown), text
    assert "which issues a token" not in text


def chunk(path: str, language: str, text: str, symbol: str, start: int = 1) -> Chunk:
    return Chunk(path, language, start, start + text.count("\n"), text, symbol, "function", "service")


def test_the_ending_is_the_definitions_own_outermost_statement() -> None:
    permission = chunk(
        "auth.py",
        "python",
        "def get_permission_filter(self, user_obj):\n    return Q(users=user_obj) | Q(groups__user=user_obj)",
        "Mixin.get_permission_filter",
    )
    found = ending_line(permission, "get_permission_filter")
    assert found is not None and (found.verb, found.line) == ("returns", 2)
    # the return of a callback it passes on is not the function's (NodeBB's removeAlreadyAddedPosts)
    callback = chunk(
        "posts.js",
        "javascript",
        "function removeAlreadyAddedPosts() {\n"
        "\tdata.posts = data.posts.filter(function (post) {\n"
        "\t\treturn post.allowDupe || isNew(post.pid);\n\t});\n}",
        "removeAlreadyAddedPosts",
    )
    assert ending_line(callback, "removeAlreadyAddedPosts") is None
    # a return under a test runs only when the test holds
    tested = chunk(
        "a.py", "python", "def pick(user):\n    if user.admin:\n        return everything(user)\n    log(user)", "pick"
    )
    assert ending_line(tested, "pick") is None


def test_a_cut_statement_a_docstring_or_a_bare_name_is_not_an_ending() -> None:
    chained = chunk(
        "Json.php",
        "php",
        "    public function respondWithData(array $data)\n    {\n"
        "        return $this->withStatusCode(200)\n            ->respondWithArray($data);\n    }",
        "JsonRespondController.respondWithData",
    )
    assert ending_line(chained, "respondWithData") is None  # `return $this->withStatusCode(200)` says less
    documented = chunk(
        "rh.py",
        "python",
        'def normalize_url(self):\n    """Send the browser to the real URL.\n\n'
        '    :return: None or a redirect response\n    """\n    self.check()',
        "RH.normalize_url",
    )
    assert ending_line(documented, "normalize_url") is None
    bare = chunk(
        "a.py",
        "python",
        "def _get_provider(name):\n    provider = PROVIDERS[name]\n    return provider",
        "_get_provider",
    )
    assert ending_line(bare, "_get_provider") is None


def test_a_callee_that_ends_in_more_than_one_place_or_renders_an_email_is_not_said() -> None:
    redirects = chunk(
        "hc/accounts/views.py",
        "python",
        "def _redirect_after_login(request):\n    redirect_url = request.GET.get('next')\n"
        "    if redirect_url and _allow_redirect(redirect_url):\n        return redirect(redirect_url)\n\n"
        '    return redirect("hc-index")',
        "_redirect_after_login",
    )
    assert ending_line(redirects, "_redirect_after_login") is None
    guarded = chunk(
        "tokens.go",
        "go",
        'func HashPassword(code string) (string, error) {\n\tif code == "" {\n\t\treturn "", errEmpty\n\t}\n'
        "\treturn Argon2id.Hash(code)\n}",
        "HashPassword",
    )
    found = ending_line(guarded, "HashPassword")  # an error handed back is no other outcome
    assert found is not None and found.text == "return Argon2id.Hash(code)"
    email = chunk(
        "ExecutionJob.java",
        "java",
        "    private EmailVo taskAlarm(QuartzJob job, String msg) {\n        EmailVo emailVo = new EmailVo();\n"
        "        emailVo.setContent(template.render(data));\n        send(emailVo);\n    }",
        "ExecutionJob.taskAlarm",
    )
    assert ending_line(email, "taskAlarm") is None


def test_a_call_linked_by_name_says_nothing_when_another_definition_has_the_name(apps_settings: Settings) -> None:
    """JavaScript has no resolver: ``issueToken`` is linked by name and import. With a second ``issueToken`` in the
    index (``src/legacy/tokens.js``), which one runs is not certain, so nothing is said of it."""
    question = "Which code checks a member's password at login?"
    said = {}
    for name in ("club", "namesake"):
        explanation = explain_index(Index.open(name, apps_settings), question, question, None, 8)
        assert explanation is not None
        session = next(step for step in explanation.steps if step.chunk.path == "src/routes/session.js")
        use, callee = next(
            (use, explanation.step(rank).chunk) for rank, use in session.calls if use.name == "issueToken"
        )
        assert callee.path == "src/tokens.js"
        said[name] = callee_outcome(explanation, session.chunk, use, callee, set())
    club = said["club"]
    assert club is not None and (club.outcome.line, club.outcome.text) == (
        7,
        "return jwt.sign(claims, KEY, { expiresIn: '1h' });",
    )
    assert said["namesake"] is None
