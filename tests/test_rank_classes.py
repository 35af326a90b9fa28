"""The failure classes of issue 17, each on a small real repository indexed by the real pipeline.

- the top ten chunks spread over the files that answer (not one file's chunks);
- roles from evidence: a ``security/`` package is code, a test-looking file that source code uses is code, an
  issue report's incidental "example" does not switch the example prior off, a Rails initializer full of
  commented configuration does not outrank the controller that does the work;
- a question that names a defined class gets that definition first.

Class 4 (near misses) is in ``test_rank_near_misses.py``, class 5 (natural questions in TypeScript, C and Haskell) in
``test_rank_languages.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from codeqa.config import Settings
from codeqa.frameworks.intent import intents
from codeqa.retrieve.exact import MAX_WORDS_CODE, named_symbols
from codeqa.retrieve.roles import Role, role_of, roles_asked_for
from tests import framework_apps
from tests.conftest import init_repo
from tests.helpers import build_index, retrieve_named


def _function(name: str, noun: str, verb: str) -> str:
    return (
        f"def {name}(items, rate):\n"
        f'    """{verb.capitalize()} the {noun}: add up every line, apply the tax rate and the discount."""\n'
        f"    subtotal = sum(item.price * item.quantity for item in items)\n"
        f"    tax = subtotal * rate\n"
        f"    discount = subtotal * 0.1 if subtotal > 100 else 0.0\n"
        f"    return subtotal + tax - discount\n\n\n"
    )


TWO_FILES = {
    "shop/invoices.py": '"""Invoices: totals, taxes and discounts of what a customer owes."""\n\n\n'
    + "".join(_function(f"invoice_{part}_total", f"invoice {part}", "compute") for part in "abcdef"),
    "shop/refunds.py": '"""Refunds: totals, taxes and discounts of what a customer gets back."""\n\n\n'
    + "".join(_function(f"refund_{part}_total", f"refund {part}", "compute") for part in "abcdef"),
    "shop/auth.py": '"""Signing in."""\n\n\ndef login(user, password):\n    return user.check(password)\n',
    "shop/cli.py": '"""Command line."""\n\nimport sys\n\n\ndef main():\n    print(sys.argv)\n',
}

SECURITY = {
    "app/security/__init__.py": '"""Security: signing and checking the tokens a session carries."""\n',
    "app/security/tokens.py": '''"""Signed session tokens."""

import hashlib
import hmac


class TokenSigner:
    """Signs a session token with the server secret and checks a signature in constant time."""

    def __init__(self, secret: bytes):
        self.secret = secret

    def sign(self, token: str) -> str:
        return hmac.new(self.secret, token.encode(), hashlib.sha256).hexdigest()

    def verify(self, token: str, signature: str) -> bool:
        return hmac.compare_digest(self.sign(token), signature)
''',
    "app/views.py": '"""Pages."""\n\nfrom app.security.tokens import TokenSigner\n\n\n'
    "def session_page(request):\n    return TokenSigner(b'k').verify(request.token, request.signature)\n",
    "app/models.py": '"""Stored records."""\n\n\nclass Session:\n    token: str\n    signature: str\n',
    "SECURITY.md": "# Security\n\nReport vulnerabilities about token signing to security@example.com.\n",
}

LIBRARY = {
    "lib/test_functions.bash": "# Helpers the library itself uses: checking that a command exists.\n"
    'function _command_exists() {\n  type "$1" &> /dev/null\n}\n\nfunction _binary_exists() {\n'
    '  type -P "$1" &> /dev/null\n}\n',
    "lib/plugins.bash": '# Loading plugins.\nfunction load_plugin() {\n  _command_exists "$1" && source "$1"\n}\n',
    "lib/aliases.bash": "# Aliases.\nfunction load_alias() {\n  _binary_exists git && alias g=git\n}\n",
    "lib/mypkg/contrib/checks.py": '"""Checks every library module uses: is a value a non-empty string."""\n\n\n'
    "def require_text(value):\n    if not isinstance(value, str) or not value:\n"
    "        raise ValueError('need a non-empty string')\n    return value\n",
    "lib/mypkg/names.py": "from mypkg.contrib.checks import require_text\n\n\n"
    "def clean_name(value):\n    return require_text(value).strip()\n",
    "lib/mypkg/titles.py": "from mypkg.contrib.checks import require_text\n\n\n"
    "def clean_title(value):\n    return require_text(value).title()\n",
    "examples/check_names.py": '"""Example: check that a value is a non-empty string before using it."""\n'
    "from mypkg.contrib.checks import require_text\n\nprint(require_text('a non-empty string'))\n",
}

ISSUE_REPO = {
    "pkg/parsing.py": '''"""Parsing dates from configuration strings."""

import datetime


def parse_date(text):
    """Parse an ISO date; a trailing time zone offset is kept."""
    if text.endswith("Z"):
        text = text[:-1] + "+00:00"
    return datetime.datetime.fromisoformat(text)
''',
    "examples/parse_dates.py": '"""Example script: parse dates from a configuration file."""\n'
    "from pkg.parsing import parse_date\n\n"
    "for text in ['2024-01-01T00:00:00Z', '2024-01-01']:  # example dates, time zone offset\n"
    "    print(parse_date(text))  # example: parse date, time zone\n",
    "bench/bench_parse.py": '"""Benchmark script: time parsing dates with a time zone offset."""\n'
    "import timeit\n\nprint(timeit.timeit(\"parse_date('2024-01-01T00:00:00Z')\", globals=globals()))\n",
}
ISSUE = (
    "parse_date drops the time zone offset of dates from configuration strings.\n\n"
    "Describe the bug: when a date ends with Z the time zone offset is lost and the parsed date is naive. "
    "Minimal example to reproduce (run this script): parse_date('2024-01-01T00:00:00Z') returns a date without "
    "a time zone. Expected behaviour: the parsed date keeps the time zone offset it was given. Environment: "
    "Python 3.12 on Linux, the latest release of the package, installed with pip into a fresh virtual "
    "environment. Additional context: this started after upgrading; dates without an offset still parse as they "
    "did before, only the ones ending with Z lose their zone when parsed from configuration strings."
)

RAILS = {
    "config/initializers/devise.rb": "# Use this hook to configure Devise: how users sign in, sessions and passwords.\n"
    + "".join(
        f"# config.sign_in_{n} = true  # sign in with email and password, remember the session, lock after failed"
        " password attempts\n"
        for n in range(30)
    )
    + "Devise.setup do |config|\nend\n",
    "app/controllers/sessions_controller.rb": """class SessionsController < ApplicationController
  # Signs a user in: checks the email and password and starts a session.
  def create
    user = User.find_by(email: params[:email])
    if user&.authenticate(params[:password])
      session[:user_id] = user.id
      redirect_to root_path
    else
      render :new, status: :unprocessable_entity
    end
  end

  def destroy
    reset_session
    redirect_to root_path
  end
end
""",
    "app/models/user.rb": "class User < ApplicationRecord\n  has_secure_password\nend\n",
    "app/controllers/pages_controller.rb": "class PagesController < ApplicationController\n  def home\n  end\nend\n",
}

RAILS_APP = {  # the seed's logging question on a Rails app with dated migrations that add columns to users, an icon
    **framework_apps.RAILS_APP,
    "app/models/current.rb": "class Current < ActiveSupport::CurrentAttributes\n  attribute :user\nend\n",
    **{
        f"db/migrate/2024040{n}192649_add_{column}_to_users.rb": f"class Add{column.title().replace('_', '')}ToUsers"
        f" < ActiveRecord::Migration[7.1]\n  def change\n    add_column :users, :{column}, :datetime\n  end\nend\n"
        for n, column in enumerate(("last_login_at", "tracked_at", "behavior_logged_at"))
    },
    "db/schema.rb": 'ActiveRecord::Schema[7.1].define(version: 2024_04_03) do\n  create_table "users" do |t|\n'
    '    t.string "email"\n    t.datetime "last_login_at"\n    t.datetime "tracked_at"\n  end\nend\n',
    "app/javascript/icons/AddUser.jsx": "export default function AddUser(props) {\n  // add user icon: track the"
    ' user\n  return <svg viewBox="0 0 30 30" {...props}><path d="M15 14a5.5 5.5 0 1 1 5.5-5.5" /></svg>;\n}\n',
}


_BODY = "".join(f"    value = value * 3 + len(str(value)) - {j}\n" for j in range(14)) + "    return value\n\n\n"
EXACT = {  # the class sits in a big module; three files named after it use it thirty times each
    "throttle/core.py": '"""Core pieces."""\n\n\n'
    + "".join(f"def helper_{i}(value):\n{_BODY}" for i in range(12))
    + "class RateLimiter:\n"
    '    """Allows a number of calls per window."""\n\n'
    "    def __init__(self, calls, window):\n        self.calls, self.window = calls, window\n        self.used = 0\n\n"
    "    def allow(self):\n        self.used += 1\n        return self.used <= self.calls\n\n"
    "    def reset(self):\n        self.used = 0\n\n\n" + "".join(f"def more_{i}(value):\n{_BODY}" for i in range(12)),
    **{
        f"throttle/rate_limiter_{use}.py": "from throttle.core import RateLimiter\n\n"
        + "".join(
            f"rate_limiter_{i} = RateLimiter({i}, 60)  # a RateLimiter per route, rate limiter\n" for i in range(30)
        )
        for use in ("routes", "admin", "api")
    },
}


@pytest.fixture(scope="module")
def indexes(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    base = tmp_path_factory.mktemp("rank-classes")
    settings = Settings(home=base / "home")
    for name, files in (("two", TWO_FILES), ("security", SECURITY), ("library", LIBRARY), ("issue", ISSUE_REPO),
                        ("rails", RAILS), ("exact", EXACT), ("rails_app", RAILS_APP)):  # fmt: skip
        build_index(str(init_repo(base / name, files)), settings, name=name)
    return settings


def test_ten_chunks_spread_over_the_two_files_that_answer(indexes: Settings):
    result = retrieve_named("two", "how are the totals, taxes and discounts of invoices and refunds computed?", indexes)
    paths = [hit.chunk.path for hit in result.hits]
    assert len(paths) == 10 and set(paths) == {"shop/invoices.py", "shop/refunds.py"}, paths
    assert min(paths.count("shop/invoices.py"), paths.count("shop/refunds.py")) >= 3, paths
    assert len(set(paths[:2])) == 2  # the second file's best chunk comes before the first file's second


def test_a_security_package_is_code(indexes: Settings):
    assert role_of("app/security/tokens.py") is Role.SOURCE and role_of("SECURITY.md") is Role.DOCS
    result = retrieve_named("security", "how are session tokens signed and checked?", indexes)
    assert result.files[0].path == "app/security/tokens.py", [f.path for f in result.files[:3]]


def test_a_test_looking_file_that_code_uses_is_code(indexes: Settings):
    assert role_of("lib/test_functions.bash") is Role.SOURCE  # no shell convention names tests test_*.bash
    assert role_of("pkg/test_things.py") is Role.TEST and role_of("web/button.spec.ts") is Role.TEST
    assert role_of("lib/mypkg/contrib/checks.py") is Role.EXAMPLE  # the path proposes; the code that uses it decides
    result = retrieve_named("library", "where is a value checked to be a non-empty string?", indexes)
    assert result.files[0].path == "lib/mypkg/contrib/checks.py", [f.path for f in result.files[:3]]
    assert [f.path for f in result.files].index("examples/check_names.py") > 2  # a top-level examples/ stays one
    result = retrieve_named("library", "how does the library check that a command exists?", indexes)
    assert result.files[0].path == "lib/test_functions.bash", [f.path for f in result.files[:3]]


def test_an_issue_template_that_says_example_does_not_ask_for_examples(indexes: Settings):
    assert Role.EXAMPLE not in roles_asked_for(ISSUE) and len(ISSUE.split()) > 60
    assert Role.EXAMPLE in roles_asked_for("is there an example script that parses dates?")
    result = retrieve_named("issue", ISSUE, indexes)
    assert result.files[0].path == "pkg/parsing.py", [f.path for f in result.files[:3]]
    assert result.hits[0].chunk.path == "pkg/parsing.py"


def test_a_rails_initializer_does_not_outrank_the_controller(indexes: Settings):
    assert role_of("config/initializers/devise.rb") is Role.CONFIG
    result = retrieve_named("rails", "how does a user sign in with email and password?", indexes)
    paths = [f.path for f in result.files]
    assert paths[0] == "app/controllers/sessions_controller.rb", paths[:3]
    assert paths.index("config/initializers/devise.rb") > paths.index("app/models/user.rb")
    asked = retrieve_named("rails", "where is Devise configured, e.g. the sign in settings?", indexes)
    assert asked.files[0].path == "config/initializers/devise.rb", [f.path for f in asked.files[:3]]


def test_migrations_and_icons_rank_after_the_code_unless_asked_for(indexes: Settings):
    result = retrieve_named("rails_app", "Where would I add logging to track user behavior?", indexes)
    paths = [f.path for f in result.files]
    peripheral = [n for n, path in enumerate(paths) if role_of(path) is not Role.SOURCE]
    assert {paths[n] for n in peripheral} >= {"db/schema.rb", "app/javascript/icons/AddUser.jsx"}, paths
    source = [n for n in range(len(paths)) if n not in peripheral]
    assert peripheral and source and max(source) < min(peripheral), paths  # every source file first
    assert Role.MIGRATION in roles_asked_for("which columns does the users table have?")
    asked = retrieve_named("rails_app", "which columns does the users table have?", indexes)
    assert any(f.path.startswith("db/") for f in asked.files[:2]), [f.path for f in asked.files[:3]]
    icon = retrieve_named("rails_app", "where is the add user icon drawn?", indexes)
    assert icon.files[0].path == "app/javascript/icons/AddUser.jsx", [f.path for f in icon.files[:3]]


def test_framework_constructs_for_the_questions_topic_are_evidence(indexes: Settings):
    from codeqa.index import Index
    from codeqa.retrieve.constructs import construct_evidence, index_conventions

    files = Index.open("rails_app", indexes).files
    assert "Rails" in [convention.name for convention in index_conventions(files)]
    errors = construct_evidence(files, intents("What happens when an API request fails?"))  # rescue_from
    assert [files.files.paths[n] for n in errors.nonzero()[0]] == ["app/controllers/application_controller.rb"]
    logging = construct_evidence(files, intents("Where would I add logging to track user behavior?"))  # the filters
    controller = files.files.paths.index("app/controllers/application_controller.rb")
    assert logging[controller] > 0  # coarse for logging: single-word anchors (Current, trackable) hold many files
    assert not construct_evidence(files, intents("how is the price of an order rounded?")).any()  # no topic: none


def test_a_migration_folder_inside_the_code_that_code_uses_is_code():
    import numpy as np
    from scipy import sparse

    from codeqa.retrieve.roles import roles_from_evidence

    paths = ["src/migration/MigrationExecutor.ts", "src/data-source/DataSource.ts", "src/commands/RunCommand.ts",
             "db/migrate/1_add_email_to_users.rb", "priv/repo/migrations/2_add_table.exs"]  # fmt: skip
    users = sparse.csr_matrix((np.ones(3), ([1, 2, 4], [0, 0, 3])), shape=(5, 5))  # [a, b]: a uses b
    roles = roles_from_evidence(paths, [True] * 5, users)
    assert roles == [Role.SOURCE, Role.SOURCE, Role.SOURCE, Role.MIGRATION, Role.MIGRATION]


def test_a_habit_named_folder_the_app_uses_is_a_package_of_the_app():
    """NetBox's ``netbox/extras/`` holds its webhooks and event rules: some of its files are imported by name, the rest
    are reached by dotted strings (``rq_queue.enqueue('extras.webhooks.send_webhook')``), so only a share of them
    give way one by one. A nested ``demo/`` folder with one helper the app imports stays a demo."""
    import numpy as np
    from scipy import sparse

    from codeqa.retrieve.roles import roles_from_evidence

    paths = ["netbox/extras/events.py", "netbox/extras/models/tags.py", "netbox/extras/choices.py",
             "netbox/extras/webhooks.py", "netbox/extras/scripts.py", "netbox/extras/migrations/0001_initial.py",
             "netbox/dcim/models/devices.py", "netbox/core/signals.py", "netbox/netbox/views.py",
             "netbox/demo/helpers.py", "netbox/demo/walkthrough.py", "netbox/demo/seed.py",
             "netbox/demo/tour.py"]  # fmt: skip
    uses = [(6, 0), (7, 0), (6, 1), (8, 1), (7, 2), (8, 2), (0, 3), (6, 9), (7, 9)]  # [a, b]: a uses b
    rows, columns = zip(*uses, strict=True)
    users = sparse.csr_matrix((np.ones(len(uses)), (rows, columns)), shape=(len(paths), len(paths)))
    roles = roles_from_evidence(paths, [True] * len(paths), users)
    assert roles[:5] == [Role.SOURCE] * 5  # webhooks.py and scripts.py are used by too few files on their own
    assert roles[5] is Role.MIGRATION  # the package's migrations keep their role
    assert roles[9] is Role.SOURCE and roles[10:] == [Role.EXAMPLE] * 3  # one used helper of four: still a demo
    alone = roles_from_evidence(paths[:5], [True] * 5, sparse.csr_matrix((5, 5)))
    assert alone == [Role.EXAMPLE] * 5  # unused, the folder is what its name says


def test_an_exact_class_name_gets_its_definition_first(indexes: Settings):
    assert named_symbols("Where is RateLimiter defined?") == ["RateLimiter"]
    for question in ("RateLimiter", "what is RateLimiter", "Where is the RateLimiter class defined?"):
        result = retrieve_named("exact", question, indexes)
        assert result.files[0].path == "throttle/core.py", [f.path for f in result.files[:3]]
        assert result.hits[0].chunk.symbol == "RateLimiter" and result.hits[0].chunk.path == "throttle/core.py"


def test_a_longer_question_that_spells_the_name_as_code_gets_its_definition_first(indexes: Settings):
    question = (
        "When a request comes in, which part of the code ends up creating a `RateLimiter`, and what does that "
        "type actually do with the calls it counts?"
    )
    assert 12 < len(question.split()) <= MAX_WORDS_CODE
    result = retrieve_named("exact", question, indexes)
    assert result.files[0].path == "throttle/core.py", [f.path for f in result.files[:3]]
    assert result.hits[0].chunk.symbol == "RateLimiter"
    # a capitalized word is a name only in a short question: "Where is Session" yes, a long sentence's "Session" no
    assert named_symbols("Where is Throttle set up?") == ["Throttle"]
    assert named_symbols("The Throttle and `RateLimiter` and rate_limit_for() " * 3, code_only=True) == [
        "RateLimiter",
        "rate_limit_for",
    ]
    assert retrieve_named("exact", question, indexes, trace=True).trace.exact_rows  # the path, not luck, put it first
    too_long = "Please explain in detail why " + " ".join(["the"] * MAX_WORDS_CODE) + " `RateLimiter` exists"
    assert retrieve_named("exact", too_long, indexes, trace=True).trace.exact_rows == []  # a report names in passing


def test_search_shows_chunks_and_files_from_the_rankers(indexes: Settings, monkeypatch: pytest.MonkeyPatch):
    from typer.testing import CliRunner

    from codeqa.cli import app
    from codeqa.config import get_settings

    monkeypatch.setenv("CODEQA_HOME", str(Path(indexes.home)))
    get_settings.cache_clear()
    question = "how are the totals, taxes and discounts of invoices and refunds computed?"
    chunks = CliRunner().invoke(app, ["search", "two", question])
    files = CliRunner().invoke(app, ["search", "two", question, "--files", "-k", "2"])
    assert chunks.exit_code == 0 and files.exit_code == 0, chunks.output + files.output
    chunk_lines = chunks.output.strip().splitlines()
    assert len(chunk_lines) == 10 and {line.split(":")[0] for line in chunk_lines} == {
        "shop/invoices.py",
        "shop/refunds.py",
    }
    assert {line.split()[0] for line in files.output.strip().splitlines()} == {"shop/invoices.py", "shop/refunds.py"}


def test_one_path_table_gives_layers_and_roles():
    from codeqa.chunk.layers import layer_for
    from codeqa.chunk.path_rules import PATH_RULES

    assert layer_for(".github/workflows/ci.yml") == "build" and role_of(".github/workflows/ci.yml") is Role.CI
    assert layer_for("db/migrate/1_create_users.rb") == "migration" and role_of("db/migrate/1_x.rb") is Role.MIGRATION
    assert role_of("requirements.txt") is Role.TOOLING and role_of("app/history.py") is Role.SOURCE
    assert role_of("mvnw") is Role.TOOLING and role_of("gradlew.bat") is Role.TOOLING  # generated build wrappers
    assert role_of("app/views/university/rebase.md.erb") is Role.DOCS and role_of(".cursor/rules/a.mdc") is Role.DOCS
    assert (
        role_of("src/components/svg/AddUser.tsx") is Role.ASSET
        and role_of("coil-svg/src/svg/Decoder.kt") is Role.SOURCE
    )
    assert role_of("LICENSE-MIT") is Role.DOCS and role_of("app/Models/License.php") is Role.SOURCE
    assert role_of("app/jobs/security_health_check_job.rb") is Role.SOURCE and layer_for("templates/a.txt") != "docs"
    assert {rule.role for rule in PATH_RULES if rule.role} <= {role.value for role in Role}


@pytest.mark.parametrize(
    ("path", "role"),
    [
        # each language's build files are tooling, not the code a question is about
        ("mix.exs", Role.TOOLING), ("hledger/hledger.cabal", Role.TOOLING), ("stack.yaml", Role.TOOLING),
        ("Package.swift", Role.TOOLING), ("build.zig", Role.TOOLING), ("build.sbt", Role.TOOLING),
        ("kong-3.0.0-0.rockspec", Role.TOOLING), ("docker/Dockerfile.dev", Role.TOOLING),
        # a module that writes Dockerfiles is code (the rule used to take any name starting with "dockerfile")
        ("lib/livebook/hubs/dockerfile.ex", Role.SOURCE), ("src/dockerfile.ts", Role.SOURCE),
        # a bundler's hashed or minified output is generated; a dated migration or a plain name is not
        ("static/assets/pascal-35QHNCUU.js", Role.GENERATED), ("dist/main.3f9a2c1b.css", Role.GENERATED),
        ("vendor-libs/react.min.js", Role.GENERATED), ("assets/js/hooks/js_view.js", Role.SOURCE),
        ("src/notification-constraints.js", Role.SOURCE),
        # snapshot inputs of snapshot tests are test data
        ("Snapshots/Async/AsyncAwait.swift", Role.TEST), ("src/__snapshots__/app.test.js.snap", Role.TEST),
    ],
)  # fmt: skip
def test_roles_of_many_languages_build_files_generated_bundles_and_snapshots(path: str, role: Role):
    assert role_of(path) is role


def test_features_are_declared_once_by_name():
    from codeqa.retrieve.chunks import CHUNKS
    from codeqa.retrieve.features import FEATURES, STAGE1, ChunkSignals
    from codeqa.retrieve.registry import FeatureRegistry
    from codeqa.retrieve.rerank import STAGE2

    assert STAGE1.names == FEATURES and len(set(FEATURES)) == len(FEATURES)
    assert "proximity" in STAGE2.names and "named" in CHUNKS.names
    registry = FeatureRegistry("t")
    registry.add("a", lambda c: c)
    with pytest.raises(ValueError, match="declared twice"):
        registry.add("a", lambda c: c)
    with pytest.raises(TypeError):
        ChunkSignals(None, None, {}, [], [], [], set(), set())  # type: ignore[misc]  # named fields only
