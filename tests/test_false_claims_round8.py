"""False and misleading sentences read in 30 whole real-size answers of main (#35, round 8: ids -05, -06, -08, -09),
each class on the few real lines that made it (bench/reads/whole-answers-round8-before.md).

- NAMED: a JavaScript chunk named after the one ``function`` it declares (``publishLocalAnalytics``, lines 1-76 of
  NodeBB's ``src/analytics.js``) said to make a call that another function assigned in it makes
  (``Analytics.init`` calls ``incrementProperties``);
- FILE-STEP: a walk's first step said of a file's chunk ("`posts.js` calls `sendQueueNotification`") where the
  function assigned in it makes the call (``postsAPI.acceptQueuedPost``);
- PROSE: a Python chunk cut out of a long module docstring (taiga's ``taiga/auth/settings.py:200-241``) shown as "the
  file's top-level code" with its prose lines as a snippet;
- HALF: a return whose expression goes on below quoted as if whole ("returns `group_list(query, key=lambda obj:
  obj.reservation.room_id,`");
- HEAD (score, not a false sentence): an opening that quotes a definition's head as its closest match
  ("`canUploadFile` is the closest match found: `public static function canUploadFile(Account $account): bool`");
- LAMBDA: ``app.register_error_handler(IndicoAuthlibHTTPError, lambda exc: exc.get_response())`` said as "sends
  `IndicoAuthlibHTTPError` errors to `lambda`".
"""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.calls.callplace import from_clause, unplaced
from codeqa.answer.explanation.calls.claims import ClaimChecker
from codeqa.answer.explanation.calls.flow import Use
from codeqa.answer.explanation.code.keylines import KeyLine, question_terms
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.explain import Step
from codeqa.answer.explanation.said.quoted_line import best_line
from codeqa.answer.explanation.story.endings import outcome_of
from codeqa.answer.explanation.story.walk import walk
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk, Hit

ANALYTICS = """'use strict';

const winston = require('winston');
const nconf = require('nconf');
const util = require('util');
const _ = require('lodash');

const sleep = util.promisify(setTimeout);

const db = require('./database');
const meta = require('./meta');
const utils = require('./utils');
const plugins = require('./plugins');
const pubsub = require('./pubsub');
const cron = require('./cron');

const Analytics = module.exports;

let local = {
	counters: {},
	pageViews: 0,
	pageViewsRegistered: 0,
	pageViewsGuest: 0,
	pageViewsBot: 0,
	apPageViews: 0,
	uniquevisitors: 0,
};
const empty = _.cloneDeep(local);
const total = _.cloneDeep(local);

const runJobs = nconf.get('runJobs');

Analytics.pause = false;

Analytics.init = async function () {
	await cron.addJob({
		name: 'analytics:publish',
		cronTime: '*/10 * * * * *',
		runOnAllNodes: true,
		onTick: async () => {
			if (Analytics.pause) return;
			await Analytics.writeLocalData();
		},
	});

	if (runJobs) {
		await cron.addJob({
			name: 'prune:ip:recent',
			cronTime: '*/30 * * * *',
			onTick: async () => {
				await db.sortedSetsRemoveRangeByScore(['ip:recent'], '-inf', Date.now() - 172800000);
			},
		});
	}

	if (runJobs) {
		pubsub.on('analytics:publish', (data) => {
			incrementProperties(total, data.local);
		});
	}
};

Analytics.writeLocalData = async function () {
	publishLocalAnalytics();
	if (runJobs) {
		await sleep(2000);
		await Analytics.writeData();
	}
};

function publishLocalAnalytics() {
	pubsub.publish('analytics:publish', {
		local: local,
	});
	local = _.cloneDeep(empty);
}"""  # src/analytics.js:1-76, one chunk named `publishLocalAnalytics`
ACCEPT_QUEUED = """postsAPI.getReplies = async (caller, { pid }) => {
	if (!utils.isNumber(pid) && !activitypub.helpers.isUri(pid)) {
		throw new Error('[[error:invalid-data]]');
	}
	const { uid } = caller;
	const canRead = await privileges.posts.can('topics:read', pid, caller.uid);
	if (!canRead) {
		return null;
	}

	const { topicPostSort } = await user.getSettings(uid);
	const pids = await posts.getPidsFromSet(`pid:${pid}:replies`, 0, -1, topicPostSort === 'newest_to_oldest');

	let [postData, postPrivileges] = await Promise.all([
		posts.getPostsByPids(pids, uid),
		privileges.posts.get(pids, uid),
	]);
	postData = await topics.addPostData(postData, uid);
	postData.forEach((postData, index) => posts.modifyPostByPrivilege(postData, postPrivileges[index]));
	postData = postData.filter((postData, index) => postData && postPrivileges[index].read);
	postData = await user.blocks.filter(uid, postData);

	return postData;
};

postsAPI.acceptQueuedPost = async (caller, data) => {
	await canEditQueue(caller.uid, data, 'accept');
	const result = await posts.submitFromQueue(data.id);
	if (result && caller.uid !== parseInt(result.uid, 10)) {
		await sendQueueNotification('post-queue-accepted', result.uid, `/post/${result.pid}`);
	}
	await logQueueEvent(caller, result, 'accept');
	return { type: result.type, pid: result.pid, tid: result.tid };
};"""  # src/api/posts.js:557-590, one chunk
SEND_QUEUE_NOTIFICATION = """async function sendQueueNotification(type, targetUid, path, notificationText) {
	const notifData = {
		type: type,
	};
	const notifObj = await notifications.create(notifData);
	await notifications.push(notifObj, [targetUid]);
}"""  # src/api/posts.js:662-677, the lines between left out
JWT_HEAD = '''#   SOFTWARE.

"""
Settings
========

Some of Simple JWT's behavior can be customized through settings variables in'''  # taiga/auth/settings.py:30-36
JWT_MIDDLE = """``USER_ID_FIELD``
-----------------

The database field from the user model that will be included in generated
tokens to identify users.  It is recommended that the value of this setting
specifies a field that does not normally change once its initial value is"""  # taiga/auth/settings.py:200-205
JWT_CODE = '''store such a value.
"""


from datetime import timedelta'''  # taiga/auth/settings.py:246-250
ROOMS_OCCURRENCES = """def get_existing_rooms_occurrences(rooms, start_dt, end_dt, repeat_frequency, repeat_interval, recurrence_weekdays,
                                   allow_overlapping=False, only_accepted=False, skip_booking_id=None):
    room_ids = [room.id for room in rooms]
    if skip_booking_id is not None:
        query = query.filter(ReservationOccurrence.reservation_id != skip_booking_id)

    return group_list(query, key=lambda obj: obj.reservation.room_id,
                      sort_by=lambda obj: (obj.reservation.room_id, obj.start_dt))"""  # noqa: E501  (bookings.py:76-100)
OAUTH_SETUP = """def setup_oauth_provider(app):
    app.register_error_handler(IndicoAuthlibHTTPError, lambda exc: exc.get_response())
    auth_server.init_app(app)"""  # indico/core/oauth/oauth2.py:22-31
CTFD_HANDLERS = """    for code in {403, 404, 500, 502}:
        app.register_error_handler(code, render_error)"""  # CTFd/__init__.py

CAN_UPLOAD = """    public static function canUploadFile(Account $account): bool
    {
        // if storage limit is 0 then unlimited storage is allowed
        // therefore the function should always return true
        if ($account->storage_limit_in_mb == 0) {
            return true;
        }
        $accountLimit = $account->storage_limit_in_mb * 1024 * 1024;
    }"""  # app/Helpers/StorageHelper.php:15-31, the lines between left out


def _chunk(path: str, language: str, start: int, text: str, symbol: str, kind: str, layer: str) -> Chunk:
    return Chunk(path, language, start, start + text.count("\n"), text, symbol, kind, layer)


def test_a_call_of_another_function_in_a_chunk_named_after_one_is_placed_in_it() -> None:
    chunk = _chunk("src/analytics.js", "javascript", 1, ANALYTICS, "publishLocalAnalytics", "function", "service")
    call = Use("incrementProperties", 58, "calls", "incrementProperties(total, data.local);")
    assert from_clause(call, "publishLocalAnalytics", chunk) == " from `Analytics.init`"
    assert not unplaced(call, chunk)
    publish = Use("publish", 72, "calls", "pubsub.publish('analytics:publish', {")
    assert from_clause(publish, "publishLocalAnalytics", chunk) == ""  # its own call
    module = Use("cloneDeep", 28, "calls", "const empty = _.cloneDeep(local);")
    assert unplaced(module, chunk)  # a module-level statement: no definition of the chunk makes it


def test_a_walk_from_a_files_chunk_starts_at_the_function_that_makes_the_call() -> None:
    posts = _chunk("src/api/posts.js", "javascript", 557, ACCEPT_QUEUED, "", "module", "api")
    notify = _chunk("src/api/posts.js", "javascript", 662, SEND_QUEUE_NOTIFICATION, "sendQueueNotification",
                    "function", "api")  # fmt: skip
    context = AnswerContext.from_chunks([posts, notify], [Hit(posts, 1.0, posts.id), Hit(notify, 0.5, notify.id)])
    found = walk("How does an accepted queued post notify its author?", context, ClaimChecker(context), [posts, notify])
    assert found is not None and [hop.use.name for hop in found.hops] == ["sendQueueNotification"]
    assert found.entry_name == "postsAPI.acceptQueuedPost"


def test_a_chunk_cut_out_of_a_module_docstring_is_no_source() -> None:
    from codeqa.answer.explanation.code.docprose import prose_only  # (new in round 8: main has no such check)

    path = "taiga/auth/settings.py"
    head = _chunk(path, "python", 30, JWT_HEAD, "", "module", "config")
    middle = _chunk(path, "python", 200, JWT_MIDDLE, "", "module", "config")
    code = _chunk(path, "python", 246, JWT_CODE, "", "module", "config")
    context = AnswerContext.from_chunks([head, middle, code], [Hit(middle, 1.0, middle.id)])
    assert prose_only(middle, context)
    assert not prose_only(code, context)  # it closes the docstring and imports: code
    assert not prose_only(head, context)  # it opens it after a comment


def test_a_return_that_goes_on_below_is_said_cut_short() -> None:
    chunk = _chunk("indico/modules/rb/operations/bookings.py", "python", 76, ROOMS_OCCURRENCES,
                   "get_existing_rooms_occurrences", "function", "service")  # fmt: skip
    outcome = outcome_of(chunk, "get_existing_rooms_occurrences")
    assert outcome is not None and outcome.line == 82
    assert outcome.text == "return group_list(query, key=lambda obj: obj.reservation.room_id,…)"


def test_an_anonymous_error_handler_is_not_named_lambda() -> None:
    flask = next(c for c in load_all() if c.name.lower().startswith("flask"))
    asked = intents("What happens when an API request fails?")
    oauth = _chunk("indico/core/oauth/oauth2.py", "python", 22, OAUTH_SETUP, "setup_oauth_provider", "function", "api")
    assert not [m.phrase for m in matches_in(oauth, [flask], asked) if "lambda" in m.phrase]
    ctfd = _chunk("CTFd/__init__.py", "python", 300, CTFD_HANDLERS, "create_app", "function", "config")
    assert "sends `403, 404, 500, 502` errors to `render_error`" in [m.phrase for m in matches_in(ctfd, [flask], asked)]


def test_an_opening_quotes_a_line_that_does_something_before_a_definitions_head() -> None:
    chunk = _chunk("app/Helpers/StorageHelper.php", "php", 15, CAN_UPLOAD, "StorageHelper.canUploadFile", "method",
                   "service")  # fmt: skip
    shown = [KeyLine(15, "    public static function canUploadFile(Account $account): bool"),
             KeyLine(19, "        if ($account->storage_limit_in_mb == 0) {")]  # fmt: skip
    step = Step(1, Hit(chunk, 1.0, chunk.id), "logic", shown, "")
    asked = question_terms("Where do uploaded photos and documents actually get stored, and how does the app stop an "
                           "account from going over its storage allowance?")  # fmt: skip
    line = best_line(step, asked)
    assert line is not None and line.line == 19
