"""Probe 27 (#35) on pixelfed (a Laravel photo-sharing server) and etherpad-lite (an Express collaborative editor), in
no data set.

- "How are plugins loaded …?" on etherpad said "Then `start` stores: `await plugins.update()`": the call reloads the
  plugin definitions; an update naming nothing to write is no record's.
- "How are one user's edits sent …?" ended a walk in "`updateFromString` stores: `return this.update(…)`": the
  class (a ``Map``) defines its own ``update``, a loop setting entries in memory.
- "How is a new post delivered …?" on pixelfed ended a walk in "`statusFirstOrFetch` … ends in `return $cached;`",
  the early exit when the status is stored already; the method goes on below to fetch and store it.
"""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.said.extractive import extractive_answer
from codeqa.answer.explanation.story.endings import outcome_of
from codeqa.records import Chunk, Hit

# etherpad src/node/server.ts:108-200, shortened
START = """exports.start = async () => {
  logger.info('Starting Etherpad...');
  startDoneGate = new Gate();
  state = State.STARTING;
  try {
    await db.init();
    await checkForMigration();
    await plugins.update();
    logger.info(`Installed plugins: ${installedPlugins}`);
    await hooks.aCallAll('loadSettings', {settings});
    await hooks.aCallAll('createServer');
  } catch (err) {
    logger.error('Error occurred while starting Etherpad');
    return await exports.exit(err);
  }
  return express.server;
};"""

# etherpad src/static/js/AttributeMap.ts, shortened: the class defines the `update` its `updateFromString` calls
ATTRIBUTE_MAP = """class AttributeMap extends Map {
  private readonly pool? : AttributePool|null
  public static fromString(str: string, pool?: AttributePool|null): AttributeMap {
    return new AttributeMap(pool).updateFromString(str);
  }

  update(entries: Iterable<Attribute>, emptyValueIsDelete: boolean = false): AttributeMap {
    for (let [k, v] of entries) {
      if (!v && emptyValueIsDelete) {
        this.delete(k);
      } else {
        this.set(k, v);
      }
    }
    return this;
  }

  updateFromString(str: string, emptyValueIsDelete: boolean = false): AttributeMap {
    return this.update(attributes.attribsFromString(str, this.pool!), emptyValueIsDelete);
  }
}

export default AttributeMap"""

# a Sequelize model whose method updates the record itself: no `update` of its own in the file
SEQUELIZE = """class User extends Model {
  async markSeen(now) {
    return this.update({ lastSeenAt: now });
  }
}"""

# pixelfed app/Util/ActivityPub/Helpers.php:288-352, the first piece of `statusFirstOrFetch` (shortened)
FIRST_OR_FETCH = """    public static function statusFirstOrFetch($url, $replyTo = false)
    {
        $url = self::validateUrl($url);
        if($url == false) {
            return;
        }

        if($local) {
            $id = (int) last(explode('/', $url));
            return Status::whereNotIn('scope', ['draft','archived'])->findOrFail($id);
        }

        $cached = Status::whereUri($url)->orWhere('object_url', $url)->first();

        if($cached) {
            return $cached;
        }

        $res = self::fetchFromUrl($url);

        if(!$res || empty($res) || isset($res['error'])) {
            return;
        }

        if(isset($res['object'])) {
            $activity = $res;
        } else {
            $activity = ['object' => $res];
        }

        $scope = 'private';

        $cw = isset($res['sensitive']) ? (bool) $res['sensitive'] : false;"""

# the same shape read whole: its last statement is an `if` whose block returns, or an if/else that both return
LAST_IF = """    public static function cachedOrNull($url)
    {
        $cached = Status::whereUri($url)->first();
        if($cached) {
            return $cached->id;
        }
    }"""
IF_ELSE = """def pick(status, local):
    if local:
        return status.local_copy()
    else:
        return status.remote_copy()
"""


def _opening(question: str, *chunks: Chunk) -> str:
    hits = [Hit(chunk, 1.0 - n / 10, chunk.id) for n, chunk in enumerate(chunks)]
    return extractive_answer(question, hits, context=AnswerContext.from_chunks(list(chunks), hits)).split("\n")[0]


def test_an_update_naming_nothing_to_write_stores_nothing() -> None:
    start = Chunk("src/node/server.ts", "typescript", 108, 108 + START.count("\n"), START, "start", "function",
                  "core")  # fmt: skip
    opening = _opening("How are plugins loaded and how do they hook into the server?", start)
    # the log line (115) is above the line quoted (117): no "Then" of it either (probe30, ``told.after_quote``)
    assert "stores" not in opening and "Then `start` logs with" not in opening, opening
    assert "`start` also logs with" in opening, opening  # said as what it also does (probe31, ``told``)
    ending = outcome_of(start, "")  # the whole piece read: `await plugins.update();` is still no write
    assert ending is not None and ending.verb != "stores with", ending


def test_a_record_update_naming_its_fields_still_stores() -> None:
    text = "async function touch(user) {\n  await User.update({ seen: true }, { where: { id: user.id } });\n}"
    touch = Chunk("src/users.js", "javascript", 1, 3, text, "touch", "function", "service")
    outcome = outcome_of(touch, "touch")
    assert outcome is not None and outcome.verb == "stores with", outcome


def test_a_call_to_the_classs_own_update_that_writes_nothing_is_no_store() -> None:
    start = ATTRIBUTE_MAP.index("  updateFromString(")
    text = ATTRIBUTE_MAP[start:].split("\n}\n", 1)[0]
    first = ATTRIBUTE_MAP[:start].count("\n") + 1
    chunk = Chunk("src/static/js/AttributeMap.ts", "typescript", first, first + text.count("\n"), text,
                  "AttributeMap.updateFromString", "method", "core")  # fmt: skip
    outcome = outcome_of(chunk, "updateFromString", own=ATTRIBUTE_MAP)
    assert outcome is not None and outcome.verb == "returns", outcome
    assert outcome_of(chunk, "updateFromString").verb == "stores with"  # type: ignore[union-attr]  # the file unread


def test_a_models_own_record_update_still_stores() -> None:
    chunk = Chunk("models/user.js", "javascript", 1, 5, SEQUELIZE, "User", "class", "model")
    outcome = outcome_of(chunk, "markSeen", own=SEQUELIZE)
    assert outcome is not None and outcome.verb == "stores with", outcome


def test_an_early_return_the_definition_goes_on_below_is_not_its_end() -> None:
    chunk = Chunk("app/Util/ActivityPub/Helpers.php", "php", 288, 288 + FIRST_OR_FETCH.count("\n"), FIRST_OR_FETCH,
                  "Helpers.statusFirstOrFetch", "method", "service")  # fmt: skip
    outcome = outcome_of(chunk, "statusFirstOrFetch")
    assert outcome is None or "$cached" not in outcome.text and "findOrFail" not in outcome.text, outcome


def test_a_return_in_the_last_if_or_in_an_if_else_is_still_an_end() -> None:
    chunk = Chunk("app/Services/StatusService.php", "php", 10, 10 + LAST_IF.count("\n"), LAST_IF,
                  "StatusService.cachedOrNull", "method", "service")  # fmt: skip
    outcome = outcome_of(chunk, "cachedOrNull")
    assert outcome is not None and outcome.text == "return $cached->id;", outcome
    pick = Chunk("app/statuses.py", "python", 1, 5, IF_ELSE, "pick", "function", "service")
    outcome = outcome_of(pick, "pick")
    assert outcome is not None and outcome.text == "return status.local_copy()", outcome


# netbox netbox/account/views.py:106-149, shortened: the sign-in and its answer are the `if` block's work; the form
# shown again below it is the way out
LOGIN_POST = """    def post(self, request):
        logger = logging.getLogger('netbox.auth.login')
        form = AuthenticationForm(request, data=request.POST)

        if form.is_valid():
            logger.debug("Login form validation was successful")
            auth_login(request, form.get_user())
            logger.info(f"User {request.user} successfully authenticated")
            messages.success(request, _("Logged in as {user}.").format(user=request.user))
            response = self.redirect_to_next(request, logger)
            if language := request.user.config.get('locale.language'):
                response.set_cookie(key=settings.LANGUAGE_COOKIE_NAME, value=language)
            return response

        username = form['username'].value()
        logger.debug(f"Login form validation failed for username: {remove_linebreaks(username)}")

        return render(request, self.template_name, {
            'form': form,
            'auth_backends': self.get_auth_backends(request),
        })"""


def test_a_return_ending_the_work_of_its_if_block_is_still_the_end() -> None:
    chunk = Chunk("netbox/account/views.py", "python", 106, 106 + LOGIN_POST.count("\n"), LOGIN_POST,
                  "LoginView.post", "method", "view")  # fmt: skip
    outcome = outcome_of(chunk, "post", after=115)  # after the sign-in: how the success path ends
    assert outcome is not None and outcome.text == "return response", outcome


def test_no_case_of_a_chain_of_short_cuts_above_the_work_is_the_end() -> None:
    cached = "        $cached = Status::whereUri($url)->orWhere('object_url', $url)->first();\n\n        if($cached) {"
    chain = FIRST_OR_FETCH.replace(
        f"        }}\n\n{cached}", "        } elseif($cached = Status::whereUri($url)->first()) {"
    )
    assert "elseif($cached" in chain
    chunk = Chunk("app/Util/ActivityPub/Helpers.php", "php", 288, 288 + chain.count("\n"), chain,
                  "Helpers.statusFirstOrFetch", "method", "service")  # fmt: skip
    outcome = outcome_of(chunk, "statusFirstOrFetch")
    assert outcome is None or "$cached" not in outcome.text and "findOrFail" not in outcome.text, outcome


# pixelfed app/Http/Controllers/SiteController.php:18-41, shortened: the old UI's view only when asked for
SITE_CONTROLLER = """class SiteController extends Controller
{
    public function homeTimeline(Request $request)
    {
        if ($request->has('force_old_ui')) {
            return view('timeline.home', ['layout' => 'feed']);
        }

        return redirect('/i/web');
    }
}"""


def test_an_answer_quoted_from_a_branch_is_said_with_its_test() -> None:
    chunk = Chunk("app/Http/Controllers/SiteController.php", "php", 18, 28, SITE_CONTROLLER, "SiteController",
                  "class", "api")  # fmt: skip
    opening = _opening("How is the home timeline feed built for a user?", chunk)
    assert "`return view('timeline.home', ['layout' => 'feed']);`" in opening, opening
    assert "when `$request->has('force_old_ui')`" in opening, opening
