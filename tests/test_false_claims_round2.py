"""False sentences read in 30 more real-size answers (#35, round 2), each on the few lines of real code that made it.

- a class's chunk was named after its first method (``Transfer.reject!`` "defines the stored data" for the class
  header's ``belongs_to``), a React component after a callback nested in it (``SharePage.handleCollapse`` "calls
  ``getSharePath``"), a PHP class after its namespace (``App.Http.Middleware.handle``);
- "It reads ``key = 'Site.status'``" for a loop variable ``key``, "It reads ``time = 'time'``" for a word in a
  help text;
- ``X.new`` linked to a piece of X that is not its constructor (``class << self``, private helpers), a Rails
  association (``belongs_to :inflow_transaction``) to another class's method of that name, the file's ``export
  default {…}`` object to the first function of the chunk;
- "is the closest match found: <line>" named the chunk's first method, not the one holding the line; "Then …
  answers with ``status=project.us_statuses.get(…)``" (a model field in an importer);
- "chooses how API requests are authenticated and authorized" for a setting that only authenticates.

The answers in the tests at the end come from a real index of a small app (tests/conftest.py ``apps_home``).
"""

from __future__ import annotations

from pathlib import Path

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.calls.byname import holds_by_name
from codeqa.answer.explanation.calls.flow import Use
from codeqa.answer.explanation.code.keylines import KeyLine
from codeqa.answer.explanation.code.outline import display_name, summary
from codeqa.answer.explanation.code.values import values_read
from codeqa.answer.explanation.said.extractive import extractive_answer
from codeqa.chunk import chunk_file
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk, Hit, SourceFile
from tests.helpers import extractive_text

TRANSFER = """class Transfer < ApplicationRecord
  belongs_to :inflow_transaction, class_name: "Transaction"
  belongs_to :outflow_transaction, class_name: "Transaction"

  validates :inflow_transaction_id, uniqueness: true
  validate :transfer_has_same_family

  def reject!
    Transfer.transaction do
      RejectedTransfer.find_or_create_by!(inflow_transaction_id: inflow_transaction_id)
      destroy!
    end
  end
end
"""
MIDDLEWARE = """<?php

namespace App\\Http\\Middleware;

use Closure;
use Illuminate\\Http\\Request;

class AuthenticateAudioRequests
{
    public function handle(Request $request, Closure $next)
    {
        abort_unless($request->user()?->tokenCan('audio'), 401);

        return $next($request);
    }
}
"""
SHARE_PAGE = """export function SharePage() {
  const [navCollapsed, setNavCollapsed] = useState(false);

  const handleCollapse = (value: boolean) => {
    localStorage.setItem('share:navCollapsed', String(value));
    setNavCollapsed(value);
  };
  const path = getSharePath(usePathname());

  return <Page path={path} collapsed={navCollapsed} onCollapse={handleCollapse} />;
}
"""
ON_NEW_POST = """\tUser.onNewPostMade = async function (postData) {
\t\t// For scheduled posts, use "action" time. It'll be updated in related cron job when post is published
\t\tconst lastposttime = postData.timestamp > Date.now() ? Date.now() : postData.timestamp;
\t\tawait User.setUserField(postData.uid, 'lastposttime', lastposttime);
\t};"""


def _chunks(path: str, language: str, text: str) -> list[Chunk]:
    return chunk_file(SourceFile(path=path, language=language, text=text, size=len(text)))


def _chunk(path: str, language: str, symbol: str, text: str, layer: str = "service", kind: str = "function") -> Chunk:
    return Chunk(path, language, 1, text.count("\n") + 1, text, symbol, kind, layer)


def test_a_class_is_named_itself_not_after_its_first_method_nor_its_namespace() -> None:
    (model,) = _chunks("app/models/transfer.rb", "ruby", TRANSFER)
    (middleware,) = _chunks("app/Http/Middleware/AuthenticateAudioRequests.php", "php", MIDDLEWARE)
    (page,) = _chunks("src/app/share/SharePage.tsx", "tsx", SHARE_PAGE)
    assert display_name(model).startswith("Transfer") and "reject!" not in display_name(model), model.symbol
    assert display_name(middleware) == "AuthenticateAudioRequests", middleware.symbol
    assert display_name(page).startswith("SharePage") and "handleCollapse" not in display_name(page), page.symbol
    module = _chunk("app/api.rb", "ruby", "Api, Api.Orders", "module Api\n  class Orders\n  end\nend")
    assert display_name(module) == "Api.Orders"  # a module's class is still the class


def test_a_comment_inside_a_body_is_not_the_chunks_documentation() -> None:
    chunk = _chunk("src/user/posts.js", "javascript", "", ON_NEW_POST, kind="module")
    assert summary(chunk) == ""
    documented = _chunk("src/user/picture.js", "javascript", "", "\t// uploads a image file as profile picture\n"
                        "\tUser.uploadCroppedPictureFile = async function (data) {\n\t\tconst userPhoto = data.file;\n"
                        "\t};", kind="module")  # fmt: skip
    assert summary(documented) == "uploads a image file as profile picture"


def test_a_value_read_is_not_the_readers_own_name_nor_a_word_in_a_string() -> None:
    reconcile = _chunk("netbox/dcim/utils.py", "python", "reconcile_port_mappings",
                       "def reconcile_port_mappings(existing, desired_by_key):\n"
                       "    for key, mapping in existing.items():\n"
                       "        if key not in desired_by_key:\n            mapping.delete()")  # fmt: skip
    choices = _chunk("netbox/dcim/choices.py", "python", "SiteStatusChoices",
                     "class SiteStatusChoices(ChoiceSet):\n    key = 'Site.status'\n    time = 'time'\n"
                     "    RETRIES = 3", kind="class")  # fmt: skip
    form = _chunk("indico/modules/events/management/forms.py", "python", "EventDatesForm",
                  "class EventDatesForm(IndicoForm):\n    update_timetable = BooleanField(\n"
                  "        description=_('Move the timetable according to the new event start time.'))\n"
                  "    tries = IntegerField(default=RETRIES)", kind="class")  # fmt: skip
    loop = [KeyLine(2, "    for key, mapping in existing.items():")]
    assert values_read(loop, reconcile, [choices]) == []
    help_text = [KeyLine(3, "        description=_('Move the timetable according to the new event start time.'))")]
    assert values_read(help_text, form, [choices]) == []
    read = values_read([KeyLine(4, "    tries = IntegerField(default=RETRIES)")], form, [choices])
    assert [value.name for value in read] == ["RETRIES"]  # a constant read by name still is
    retention = _chunk("src/retention/Retention.tsx", "tsx", "Retention",
                       "export function Retention({ websiteId, days = DAYS }: RetentionProps) {\n"
                       "  return days;\n}")  # fmt: skip
    constants = _chunk("src/retention/Retention.tsx", "tsx", "", "const DAYS = [1, 7, 14, 28];", kind="module")
    read = values_read([KeyLine(1, retention.text.split("\n")[0])], retention, [constants])
    assert [value.name for value in read] == ["DAYS"]  # a default parameter reads it
    webhook = _chunk("app/models/webhook.rb", "ruby", "Webhook.deliver",
                     "  def deliver(message)\n    post(payload(message))\n  rescue Net::OpenTimeout\n"
                     '    reply message.room, text: "Failed to respond within #{ENDPOINT_TIMEOUT} seconds"\n'
                     "  end")  # fmt: skip
    timeout = _chunk("app/models/webhook.rb", "ruby", "Webhook", "class Webhook\n  ENDPOINT_TIMEOUT = 7.seconds",
                     kind="class")  # fmt: skip
    read = values_read([KeyLine(4, webhook.text.split("\n")[3])], webhook, [timeout])
    assert [value.name for value in read] == ["ENDPOINT_TIMEOUT"]  # an interpolation in a string reads it


def test_new_links_to_the_constructor_and_an_association_is_the_models_own() -> None:
    account = _chunk("app/models/account.rb", "ruby", "Account.create_and_sync",
                     "manager = Account::OpeningBalanceManager.new(account)")  # fmt: skip
    head = _chunk("app/models/account/opening_balance_manager.rb", "ruby",
                  "Account.OpeningBalanceManager, Account.OpeningBalanceManager.initialize",
                  "class Account::OpeningBalanceManager\n  def initialize(account)\n    @account = account\n  end",
                  kind="class")  # fmt: skip
    helpers = _chunk("app/models/account/opening_balance_manager.rb", "ruby",
                     "Account.OpeningBalanceManager, Account.OpeningBalanceManager.default_date",
                     "  private\n    def default_date\n      1.day.ago\n    end")  # fmt: skip
    new = Use("OpeningBalanceManager.new", 1, "calls", "manager = Account::OpeningBalanceManager.new(account)")
    assert holds_by_name(account, head, new, account.text)
    assert not holds_by_name(account, helpers, new, account.text)

    job = _chunk("app/jobs/import_market_data_job.rb", "ruby", "ImportMarketDataJob.perform",
                 "    MarketDataImporter.new(mode: mode).import_all")  # fmt: skip
    nested = _chunk("app/models/account/market_data_importer.rb", "ruby", "Account.MarketDataImporter",
                    "class Account::MarketDataImporter\n  def initialize(account)\n  end", kind="class")  # fmt: skip
    top = _chunk("app/models/market_data_importer.rb", "ruby", "MarketDataImporter",
                 "class MarketDataImporter\n  def initialize(mode:)\n  end", kind="class")  # fmt: skip
    importer = Use("MarketDataImporter.new", 1, "calls", "MarketDataImporter.new(mode: mode).import_all")
    assert holds_by_name(job, top, importer, job.text)
    assert not holds_by_name(job, nested, importer, job.text)
    fetcher = Use("Issue.new", 1, "calls", "@fetcher ||= GithubFetcher::Issue.new(")
    issue = _chunk("app/models/issue.rb", "ruby", "Issue", "class Issue < ActiveRecord::Base\n  belongs_to :repo")
    assert not holds_by_name(_chunk("app/models/issue.rb", "ruby", "Issue.fetcher", fetcher.text), issue, fetcher, "")

    confirm = _chunk("app/models/transfer.rb", "ruby", "Transfer.date", "  def date\n    inflow_transaction.entry.date")
    creator = _chunk("app/models/transfer/creator.rb", "ruby", "Transfer.Creator.inflow_transaction",
                     "    def inflow_transaction\n      Transaction.new(kind: 'funds_movement')\n    end")  # fmt: skip
    use = Use("inflow_transaction", 2, "uses", "inflow_transaction.entry.date")
    assert not holds_by_name(confirm, creator, use, TRANSFER + "\n  def date\n    inflow_transaction.entry.date\n")


CLICKHOUSE = """async function insert(table: string, values: any[]) {
  await connect();
  return clickhouse.insert({ table, values });
}

async function connect() {
  return clickhouse;
}

export default {
  connect,
  rawQuery,
  insert,
};"""


RAW_QUERY = """async function rawQuery(query: string, params = {}) {
  await connect();
  return clickhouse.query({ query, query_params: params });
}"""


def test_a_line_outside_every_definition_is_not_theirs() -> None:
    from codeqa.answer.explanation.calls.claims import _module_level

    chunk = _chunk("src/lib/clickhouse.ts", "typescript", "insert, connect", CLICKHOUSE, layer="util")
    raw = Chunk("src/lib/clickhouse.ts", "typescript", 20, 23, RAW_QUERY, "rawQuery", "function", "util")
    hits = [Hit(chunk, 1.0, chunk.id), Hit(raw, 0.9, raw.id)]
    text = extractive_answer("Where are site details cached so that each hit needs no database lookup?", hits,
                             context=AnswerContext.from_chunks([chunk, raw], hits))  # fmt: skip
    assert "uses `rawQuery`" not in text, text
    assert _module_level(chunk, 12)  # `rawQuery,` in the export object
    assert not _module_level(chunk, 2)  # `await connect();` in insert
    php = _chunk("app/Http/Controllers/UploadSongController.php", "php", "UploadSongController",
                 "#[DisabledInDemo]\nclass UploadSongController extends Controller\n{\n"
                 "    public function __invoke() {\n        artifact_path('tmp');\n    }\n}")  # fmt: skip
    assert not _module_level(php, 5)  # a brace on its own line under `class` opens nothing
    react = _chunk("src/SingleFileManager.jsx", "javascript", "SingleFileManager",
                   "const SingleFileManager = ({\n  value,\n}) => {\n  deleteFile(value);\n};")  # fmt: skip
    assert not _module_level(react, 4)
    guarded = _chunk("src/users/users.controller.ts", "typescript", "UsersController",
                     "@UseGuards(AuthGuard('jwt'), RolesGuard)\n@Controller({\n  path: 'users',\n})\n"
                     "export class UsersController {\n"
                     "  constructor(private readonly users: UsersService) {}\n}")  # fmt: skip
    assert not _module_level(guarded, 1) and not _module_level(guarded, 3)  # the class's decorators


def _opening(chunk: Chunk, question: str) -> str:
    hits = [Hit(chunk, 1.0, chunk.id)]
    return extractive_answer(question, hits, context=AnswerContext.from_chunks([chunk], hits)).split("\n")[0]


def test_the_closest_match_is_the_definition_holding_the_line_and_a_status_field_is_no_answer() -> None:
    model = _chunk("app/models/transfer.rb", "ruby", "Transfer.confirm!, Transfer.transfer_has_same_family",
                   "  def confirm!\n    update!(status: \"confirmed\")\n  end\n\n  private\n"
                   "    def transfer_has_same_family\n"
                   "      errors.add(:base, \"Must be from same family\") unless to_account&.family == "
                   "from_account&.family\n    end", layer="model", kind="method")  # fmt: skip
    opening = _opening(model, "How does the app recognize that money moving between two accounts of one family is "
                              "a transfer?")  # fmt: skip
    # cited by its own lines (6-8), not the chunk's (1-8), which hold `confirm!` too
    assert "`Transfer.transfer_has_same_family` (`app/models/transfer.rb:6-8`) is the closest match" in opening, opening
    importer = _chunk("taiga/importers/trello/importer.py", "python", "TrelloImporter._import_user_stories_data",
                      "    def _import_user_stories_data(self, project, card, statuses):\n"
                      "        us = UserStory.objects.create(\n            project=project,\n"
                      "            status=project.us_statuses.get(name=statuses[card['idList']]['name']),\n"
                      "        )\n        return us", kind="method")  # fmt: skip
    opening = _opening(importer, "When a teammate moves a card on the board, how do others see its new status?")
    assert "answers with `status=" not in opening, opening


def test_rest_authentication_and_permission_settings_say_only_their_own() -> None:
    from codeqa.answer.explanation.constructs.mechanism import matches_in

    django = next(c for c in load_all() if c.name == "Django")
    settings = Chunk("settings/common.py", "python", 1, 4,
                     'REST_FRAMEWORK = {\n    "DEFAULT_AUTHENTICATION_CLASSES": (\n'
                     '        "taiga.auth.backends.Token",\n    ),\n}', "", "module", "config")  # fmt: skip
    view = Chunk("taiga/projects/history/api.py", "python", 1, 3, "class UserStoryHistory(HistoryViewSet):\n"
                 "    permission_classes = (permissions.UserStoryHistoryPermission,)\n", "UserStoryHistory", "class",
                 "api")  # fmt: skip
    question = intents("How does the app decide who may edit a story?")
    said = [m.phrase for m in matches_in(settings, [django], question)]
    assert said and all("authoriz" not in p and "permission" not in p for p in said), said
    said = [m.phrase for m in matches_in(view, [django], question)]
    assert said and all("authenticat" not in p for p in said), said


# a small Rails + React app, indexed for real: the answers below are read off it. The model and the component are
# long enough to be cut into several chunks, the first holding the class header (or the hooks) and one member.
RULES = "\n".join(
    f"""  def check_{i}
    errors.add(:base, "Must be valid {i}") unless inflow_transaction&.entry&.amount.to_i > {i}
    errors.add(:base, "Must be dated {i}") if outflow_transaction&.entry&.date.nil?
    Rails.logger.info("checked transfer rule {i} for #{{id}}")
  end
"""
    for i in range(12)
)
PANELS = "\n".join(
    f"""      {{path === 'panel{i}' && (
        <Panel title="Panel {i}" collapsed={{navCollapsed}} onToggle={{() => handleCollapse(!navCollapsed)}} />
      )}}"""
    for i in range(14)
)
APP = {
    "Gemfile": 'source "https://rubygems.org"\ngem "rails", "~> 7.1"\n',
    "app/models/transfer.rb": f"""class Transfer < ApplicationRecord
  belongs_to :inflow_transaction, class_name: "Transaction"
  belongs_to :outflow_transaction, class_name: "Transaction"

  enum :status, {{ pending: "pending", confirmed: "confirmed" }}

  validates :inflow_transaction_id, uniqueness: true
  validates :outflow_transaction_id, uniqueness: true
  validate :transfer_has_same_family

  def reject!
    Transfer.transaction do
      RejectedTransfer.find_or_create_by!(inflow_transaction_id: inflow_transaction_id)
      destroy!
    end
  end

{RULES}end
""",
    "app/models/transaction.rb": "class Transaction < ApplicationRecord\n  has_one :transfer\nend\n",
    "app/javascript/SharePage.jsx": f"""import {{ useState }} from 'react';
import {{ getSharePath }} from './share';

export function SharePage() {{
  const [navCollapsed, setNavCollapsed] = useState(false);

  const handleCollapse = (value) => {{
    localStorage.setItem('share:navCollapsed', String(value));
    setNavCollapsed(value);
  }};
  const path = getSharePath(window.location.pathname);

  return (
    <Page path={{path}}>
{PANELS}
    </Page>
  );
}}
""",
    "app/javascript/share.js": """export function getSharePath(pathname) {
  const segments = pathname.split('/');
  return segments[3];
}
""",
}
INDEXED_APPS = {"ledger": APP}


def test_real_answers_name_the_class_and_the_component_not_their_first_member(apps_home: Path) -> None:
    text = extractive_text(apps_home, "ledger", "How is a transfer between two accounts stored?")
    assert "`Transfer.reject!` (`app/models/transfer.rb:1-16`)" not in text, text
    assert "`Transfer (+1)` (`app/models/transfer.rb:1-16`) defines the stored data" in text, text
    text = extractive_text(apps_home, "ledger", "Where does the share page work out its path?")
    assert "`SharePage.handleCollapse`" not in text, text
    assert "`SharePage (+1)` (`app/javascript/SharePage.jsx:4-11`)" in text, text


def test_a_parameter_of_an_arrow_function_or_a_lambda_is_the_readers_own() -> None:
    """NodeBB's "It reads `uids` (set in `activitypub/notes.js`)" was the arrow function's own parameter."""
    notes = _chunk("src/activitypub/notes.js", "javascript", "", "const uids = [1, 2, 3];",
                   kind="module")  # fmt: skip
    reader = _chunk("src/user/digest.js", "javascript", "Digest.send",
                    "Digest.send = async function (data) {\n"
                    "\tawait batch.processSortedSet(key, async (uids) => {\n"
                    "\t\tawait Promise.all(uids.map(sendOne));\n\t});\n};")  # fmt: skip
    assert values_read([KeyLine(3, reader.text.split("\n")[2])], reader, [notes]) == []
    single = _chunk("src/user/digest.js", "javascript", "Digest.send",
                    "Digest.send = function (data) {\n\treturn data.map(uids => uids.length);\n};")  # fmt: skip
    assert values_read([KeyLine(2, single.text.split("\n")[1])], single, [notes]) == []
    python = _chunk("app/sort.py", "python", "ordered",
                    "def ordered(rows):\n    return sorted(rows, key=lambda uids: uids)")  # fmt: skip
    assert values_read([KeyLine(2, python.text.split("\n")[1])], python, [notes]) == []
    outside = _chunk("src/user/digest.js", "javascript", "Digest.count",
                     "Digest.count = function (data) {\n\treturn uids.length;\n};")  # fmt: skip
    read = values_read([KeyLine(2, outside.text.split("\n")[1])], outside, [notes])
    assert [value.name for value in read] == ["uids"]  # a name the reader does not bind still reads the other's


def test_an_outcome_is_quoted_without_its_return_keyword() -> None:
    """'`_get_synced_identity` returns `return identity`' said the verb twice. (snippets3: the line is now quoted as
    written after a phrase that needs no object, "answers the request: `return redirect(…)`".)"""
    from codeqa.answer.explanation.code.saidline import outcome_said

    assert outcome_said("        return identity") == "identity"
    assert outcome_said("return redirect(url_for('auth.login'))") == "redirect(url_for('auth.login'))"
    assert outcome_said("returned = compute()") == "returned = compute()"
    view = _chunk("app/views.py", "python", "login",
                  "def login(request):\n    user = authenticate(request)\n    auth_login(request, user)\n"
                  "    return redirect(next_url(request))", layer="view")  # fmt: skip
    opening = _opening(view, "How does user authentication flow through the system?")
    assert "answers with `return " not in opening and "returns `return " not in opening, opening
    assert "answers the request: `return redirect(next_url(request))`" in opening, opening


def test_a_blueprints_error_handler_is_not_said_to_cover_the_whole_app() -> None:
    """``@bp.errorhandler(X)`` sees only what the blueprint's views raise; ``@app.errorhandler`` and
    ``@bp.app_errorhandler`` are the app-wide ones."""
    (flask,) = [convention for convention in load_all() if convention.name == "Flask"]
    said: dict[str, list[str]] = {}
    lines = ("@app.errorhandler(404)", "@api.errorhandler(ValidationError)", "@errors_bp.app_errorhandler(BadData)")
    for line in lines:
        for construct in flask.constructs:
            found = construct.pattern.search(line) if construct.kind == "error" else None
            if found:
                said.setdefault(line, []).append(construct.describe(found))
    assert said["@app.errorhandler(404)"] == ["handles `404` errors for the whole app (`errorhandler`)"]
    assert all("whole app" not in phrase for phrase in said["@api.errorhandler(ValidationError)"]), said
    assert any("`api` blueprint" in phrase for phrase in said["@api.errorhandler(ValidationError)"]), said
    assert all("whole app" in phrase for phrase in said["@errors_bp.app_errorhandler(BadData)"]), said


LOGIN_USER = """def login_user(user, identity=None, admin_impersonation=False):
    \"\"\"Set the session user and performs on-login logic.\"\"\"
    if user.settings.get('force_timezone'):
        session.timezone = user.settings.get('timezone', config.DEFAULT_TIMEZONE)
    else:
        session.timezone = 'LOCAL'
    session.set_session_user(user)
    session.lang = user.settings.get('lang')
    if not admin_impersonation:
        if changes := user.synchronize_data():
            log_user_update(user, changes, from_sync=True)
    signals.users.logged_in.send(user, identity=identity, admin_impersonation=admin_impersonation)"""


def test_an_auth_flow_ends_where_the_user_is_signed_in_not_in_a_helper_it_calls_next() -> None:
    """indico's flow went on from ``login_user`` to ``synchronize_data`` and ended "returns `identity`"; the story of a
    sign-in ends at the line that signs the user in (or issues the token), in every framework's words."""
    from codeqa.answer.explanation.story.endings import ending_rank, outcome_of

    login = _chunk("indico/modules/auth/__init__.py", "python", "login_user", LOGIN_USER)
    outcome = outcome_of(login, "login_user")
    assert outcome is not None and (outcome.verb, outcome.line) == ("signs the user in with", 7), outcome
    assert ending_rank(outcome) == 2  # as good an end as a write or a response: the walk stops there
    for line, verb in (
        ("    auth_login(request, form.get_user())", "signs the user in with"),
        ("    sign_in user", "signs the user in with"),
        ("    session[:user_id] = user.id", "signs the user in with"),
        ("    req.session.userId = user.id;", "signs the user in with"),
        ("    Auth::login($user);", "signs the user in with"),
        ("    data['auth_token'] = str(RefreshToken.for_user(user).access_token)", "issues a token with"),
        ("    const token = await this.jwtService.signAsync({ id: user.id });", "issues a token with"),
        ("    sign_in_url = build_url(user)", None),  # a variable named after the action is not the action
        ("    return sign_in?", None),
    ):
        chunk = _chunk("app/auth.py", "python", "handle", f"def handle(user):\n    prepare(user)\n{line}")
        found = outcome_of(chunk, "handle")
        assert (found.verb if found and found.verb.endswith(("in with", "token with")) else None) == verb, line


def test_a_keyword_argument_of_a_session_read_is_not_a_write_to_the_session() -> None:
    """ "Then `impersonate_user` stores `'user_name': session.user.get_full_name(last_name_first=False, …)`": the
    ``=`` of a keyword argument is no assignment, and the line is one entry of a dict, not a statement."""
    from codeqa.answer.explanation.said.outcomes import OUTCOMES

    stores = dict(OUTCOMES)["stores"]
    line = "            'user_name': session.user.get_full_name(last_name_first=False, last_name_upper=False)"
    assert not stores.search(line)
    for write in ("session['login_as_orig_user'] = {", "session[:return_to] = request.url", "Current.user = user",
                  "session.timezone = compute(tz=user.tz)"):  # fmt: skip
        assert stores.search(write), write


def test_a_flow_finds_the_outcome_of_exported_functions_methods_and_php_methods() -> None:
    """Only ``def``/``function`` at the start of a line was a definition: an ``export async function`` (most JS/TS),
    a PHP ``public function`` with its brace below, a class method's shorthand head had no lines, so no outcome, and
    umami's flow ended "`encrypt`: the calls could be checked this far"."""
    from codeqa.answer.explanation.story.endings import outcome_of

    heads = {
        "saveAuth": ("typescript", "export async function saveAuth(data: any) {\n  const authKey = make();\n"
                     "  return createSecureToken({ authKey }, secret());\n}"),
        "login": ("typescript", "class AuthService {\n  async login(dto: LoginDto): Promise<Token> {\n"
                  "    const user = await this.users.find(dto.email);\n"
                  "    return this.jwtService.signAsync({ id: user.id });\n  }\n}"),
        "handle": ("php", "class LoginController\n{\n    public function handle(Request $request)\n    {\n"
                   "        $user = User::where('email', $request->email)->first();\n        Auth::login($user);\n"
                   "    }\n}"),
    }  # fmt: skip
    for name, (language, text) in heads.items():
        found = outcome_of(_chunk(f"src/{name}.x", language, name, text), name)
        assert found is not None and found.verb in ("issues a token with", "signs the user in with"), (name, found)
    cipher = _chunk("src/lib/crypto.ts", "typescript", "encrypt",
                    "export function encrypt(value: any, secret: any) {\n  const cipher = make(secret);\n"
                    "  const encrypted = Buffer.concat([cipher.update(String(value), 'utf8'), cipher.final()]);\n"
                    "  return encrypted;\n}")  # fmt: skip
    found = outcome_of(cipher, "encrypt")
    assert found is not None and found.verb == "returns", found  # a cipher's update is no write to the store
    record = _chunk(
        "app/models.py", "python", "close", "def close(self):\n    Ticket.objects.filter(pk=self.pk).update(open=False)"
    )
    assert outcome_of(record, "close").verb == "stores with"


def test_a_getter_is_no_outcome_and_an_errors_answer_is_one_when_asked_about_failing() -> None:
    """monica's errors flow ended "`getErrorCode` returns `$this->errorCode;`" (a getter), past the method that
    answers with the error, which was no outcome because its line names an error."""
    from codeqa.answer.explanation.story.endings import outcome_of

    getter = _chunk("app/Traits/JsonRespondController.php", "php", "getErrorCode",
                    "    public function getErrorCode(): int\n    {\n"
                    "        return $this->errorCode;\n    }")  # fmt: skip
    assert outcome_of(getter, "getErrorCode") is None
    fluent = _chunk("app/Traits/Fluent.php", "php", "setCode",
                    "    public function setCode($code)\n    {\n        $this->code = $code;\n"
                    "        return $this;\n    }")  # fmt: skip
    assert outcome_of(fluent, "setCode") is None
    failing = _chunk("app/Traits/JsonRespondController.php", "php", "respondWithError",
                     "    public function respondWithError($message): JsonResponse\n    {\n"
                     "        return response()->json(['message' => $message], 422);\n    }")  # fmt: skip
    assert outcome_of(failing, "respondWithError") is None  # not what happens when it works
    asked = outcome_of(failing, "respondWithError", errors=True)
    assert asked is not None and asked.line == 3, asked


def test_a_guards_early_exit_is_no_outcome_and_a_success_is_none_when_asked_about_failing() -> None:
    """maybe's flow ended "`derived_cash_balance` returns `nil unless balance_components…`" (the guard at the top,
    not the result), and umami's answer to "What happens when an API request fails?" ended in the success helper
    "`json` answers with `Response.json(data);`"."""
    from codeqa.answer.explanation.story.endings import outcome_of

    guarded = _chunk("app/models/account/reconciliation_manager.rb", "ruby", "derived_cash_balance",
                     "def derived_cash_balance(date:, total_balance:)\n"
                     "  return nil unless components[:balance] && components[:cash_balance]\n"
                     "  total_balance - components[:balance] + components[:cash_balance]\nend")  # fmt: skip
    found = outcome_of(guarded, "derived_cash_balance")
    assert found is None or "unless" not in found.text, found
    success = _chunk("src/lib/response.ts", "typescript", "json",
                     "export function json(data: any = {}) {\n  return Response.json(data);\n}")  # fmt: skip
    assert outcome_of(success, "json").verb == "answers with"
    assert outcome_of(success, "json", errors=True) is None
    failing = _chunk("src/lib/response.ts", "typescript", "badRequest",
                     "export function badRequest(message: any = 'Bad request') {\n"
                     "  return Response.json({ error: message }, { status: 400 });\n}")  # fmt: skip
    assert outcome_of(failing, "badRequest", errors=True) is not None


def test_rendering_an_emails_body_is_not_answering_the_request() -> None:
    """healthchecks' flow ended "`make_message` answers with `html = render(f"emails/{name}-body-html.html", ctx)`":
    its own template helper renders an email, it answers no request."""
    from codeqa.answer.explanation.story.endings import outcome_of

    mail = _chunk("hc/lib/emails.py", "python", "make_message",
                  "def make_message(name, to, ctx):\n    subject = render(f\"emails/{name}-subject.html\", ctx)\n"
                  "    html = render(f\"emails/{name}-body-html.html\", ctx)\n"
                  "    msg = Message(subject, html, to)\n")  # fmt: skip
    found = outcome_of(mail, "make_message")
    assert found is None or found.verb != "answers with", found
    view = _chunk("hc/accounts/views.py", "python", "login",
                  "def login(request):\n    form = LoginForm(request.POST)\n"
                  "    return render(request, \"accounts/login.html\", {\"form\": form})\n")  # fmt: skip
    assert outcome_of(view, "login").verb == "answers with"
    phoenix = _chunk("lib/hexpm_web/controllers/controller_helpers.ex", "elixir", "render_error",
                     "  def render_error(conn, status, assigns \\\\ []) do\n    conn\n    |> put_status(status)\n"
                     "    |> render(:\"#{status}\", assigns)\n  end")  # fmt: skip
    assert outcome_of(phoenix, "render_error").verb == "answers with"


def test_phrases_that_differ_in_a_bracket_are_said_with_one_bracket() -> None:
    """NodeBB: "hands sign-in to Passport (`passport.use`) and (`passport.authenticate`)" (class 8, prose)."""
    from codeqa.answer.explanation.said.phrasing import merged

    said = merged(["hands sign-in to Passport (`passport.use`)", "hands sign-in to Passport (`passport.authenticate`)"])
    assert said == "hands sign-in to Passport (`passport.use` and `passport.authenticate`)"
    assert merged(["turns `A` into a response", "turns `B` into a response"]) == "turns `A` and `B` into a response"


def test_a_require_is_no_evidence_and_a_ruby_modifier_answer_is_no_outcome() -> None:
    """hackathon-starter: "`user.js` handles the request: `const OTPAuth = require('otpauth');`" (an import quoted as
    the line that answers); campfire: "Then `ensure_user_exists` answers with `redirect_to first_run_url if
    User.none?`" (an answer only when nobody exists yet, said as what happens)."""
    from codeqa.answer.explanation.code.keylines import IMPORT
    from codeqa.answer.explanation.story.endings import RUBY_MODIFIER

    for line in ("const OTPAuth = require('otpauth');", "const { promisify } = require('util');"):
        assert IMPORT.match(line), line
    assert not IMPORT.match("const user = await User.findOne({ email: req.body.email });")
    assert RUBY_MODIFIER.search("redirect_to first_run_url if User.none?")
    assert not RUBY_MODIFIER.search("redirect_to root_url, notice: 'Signed in'")


def test_a_json_error_helper_answers_the_request() -> None:
    """indico's errors flow went past `render_error` to "`_is_error_reportable` returns `_need_json_response()`": its
    ``return _jsonify_error(…)`` (an API's error answer) was no response, so a deeper plain return won."""
    from codeqa.answer.explanation.story.endings import outcome_of

    render = _chunk("indico/web/errors.py", "python", "render_error",
                    "def render_error(exc, title, message, code):\n    _save_error(exc, title, message)\n"
                    "    if _need_json_response():\n        return _jsonify_error(exc, title, message, code)\n"
                    "    return WPError(title, message).display(), code")  # fmt: skip
    found = outcome_of(render, "render_error", api=True, errors=True)
    assert found is not None and (found.verb, found.line) == ("answers with", 4), found
