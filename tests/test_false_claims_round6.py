"""False and misleading sentences read in 30 whole real-size answers of main (#35, round 6), each class on the few
real lines that made it (bench/reads/realsize-whole-answers-round6-before.md).

- A: a link found by name (no resolver: PHP, Ruby, JavaScript) said of a chunk of several definitions as if its first
  made or received it: "`createToken (+4)` is called by `POST`" (the login route calls `createSecureToken`),
  "`User.request_impersonation_for (+4)` … calls `verify_backup_code?`" (`verify_otp?` does);
- B: a piece of a JavaScript function said to be "the file's top-level code" (the rest of
  `authenticationController.onSuccessfulLogin`'s body), a function one level into a module's wrapper named after its
  file, and a function "called by" its own body's continuation (for a local closure only it can call);
- C: a Rails filter limited to some actions said to run "before each action" (`only: :destroy`);
- D: a "More places" item named after a definition that does not hold its quotes (`ChangeLoggingMixin.Meta (+1)` for
  the class's own head, `_add_user_id` for a blueprint's module-level URL rules);
- F: a Python name a module defines twice linked to the first, shadowed, definition: `APIView.handle_exception`
  "uses `NotAuthenticated` (`taiga/base/exceptions.py:66-83`)" where `exceptions.NotAuthenticated` is the later
  `class NotAuthenticated(NotAuthenticated):` (187);
- E: the opening's "`A` calls `B`" for a callee that says nothing of the question (a time formatter whose comment
  says "Convert a duration", asked how audio is converted).
"""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.calls.callplace import from_clause
from codeqa.answer.explanation.calls.claims import ClaimChecker, _shadowed
from codeqa.answer.explanation.calls.flow import Use
from codeqa.answer.explanation.code.keylines import KeyLine, question_terms
from codeqa.answer.explanation.code.outline import display_name
from codeqa.answer.explanation.explain import Step
from codeqa.answer.explanation.said.extractive import VERBS, extractive_answer
from codeqa.answer.explanation.said.lead import _speaks
from codeqa.answer.explanation.said.placing import quoted_name
from codeqa.answer.explanation.said.roles_said import role_phrase
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk, Hit

JWT = """import jwt from 'jsonwebtoken';
import { decrypt, encrypt } from '@/lib/crypto';

export function createToken(payload: any, secret: any, options?: any) {
  return jwt.sign(payload, secret, options);
}

export function parseToken(token: string, secret: any) {
  try {
    return jwt.verify(token, secret);
  } catch {
    return null;
  }
}

export function createSecureToken(payload: any, secret: any, options?: any) {
  return encrypt(createToken(payload, secret, options), secret);
}

export function parseSecureToken(token: string, secret: any) {
  try {
    return jwt.verify(decrypt(token, secret), secret);
  } catch {
    return null;
  }
}

export async function parseAuthToken(req: Request, secret: string) {
  try {
    const token = req.headers.get('authorization')?.split(' ')?.[1];

    return parseSecureToken(token as string, secret);
  } catch {
    return null;
  }
}"""
LOGIN_HEAD = """import { z } from 'zod';
import { saveAuth } from '@/lib/auth';
import { ROLES } from '@/lib/constants';
import { secret } from '@/lib/crypto';
import { createSecureToken } from '@/lib/jwt';
import { checkPassword } from '@/lib/password';
import redis from '@/lib/redis';
import { parseRequest } from '@/lib/request';
import { json, unauthorized } from '@/lib/response';
import { getAllUserTeams, getUserByUsername } from '@/queries/prisma';
"""
LOGIN = """export async function POST(request: Request) {
  const schema = z.object({
    username: z.string(),
    password: z.string(),
  });

  const { body, error } = await parseRequest(request, schema, { skipAuth: true });

  if (error) {
    return error();
  }

  const { username, password } = body;

  const user = await getUserByUsername(username, { includePassword: true });

  if (!user || !checkPassword(password, user.password)) {
    return unauthorized({ code: 'incorrect-username-password' });
  }

  const { id, role, createdAt } = user;

  let token: string;

  if (redis.enabled) {
    token = await saveAuth({ userId: id, role });
  } else {
    token = createSecureToken({ userId: user.id, role }, secret());
  }

  const teams = await getAllUserTeams(id);

  return json({
    token,
    user: { id, username, role, createdAt, isAdmin: role === ROLES.admin, teams },
  });
}"""
ON_SUCCESS = """	try {
		const uuid = utils.generateUUID();

		req.uid = uid;
		req.loggedIn = true;
		await meta.blacklist.test(req.ip);
		await user.logIP(uid, req.ip);
		await user.bans.unbanIfExpired([uid]);
		await user.reset.cleanByUid(uid);

		req.session.meta = {};
		const now = Date.now();
		if (req.session.forceLogin) {
			req.session.meta.reAuthAt = now;
		} else {
			delete req.session.meta.reAuthAt;
		}
		delete req.session.forceLogin;
		// Associate IP used during login with user account
		req.session.meta.ip = req.ip;

		// Associate metadata retrieved via user-agent
		req.session.meta = _.extend(req.session.meta, {
			uuid: uuid,
			datetime: now,
			platform: req.useragent.platform,
			browser: req.useragent.browser,
			version: req.useragent.version,
		});
		await Promise.all([
			new Promise((resolve) => {
				req.session.save(resolve);
			}),
			trackSession ? user.auth.addSession(uid, req.sessionID) : undefined,
			user.updateLastOnlineTime(uid),
			user.onUserOnline(uid, now),
			analytics.increment('logins'),
			db.incrObjectFieldBy('global', 'loginCount', 1),
		]);

		// Force session check for all connected socket.io clients with the same session id
		sockets.in(`sess_${req.sessionID}`).emit('checkSession', uid);

		plugins.hooks.fire('action:user.loggedIn', { uid: uid, req: req });
	} catch (err) {
		req.session.destroy();
		throw err;
	}
};

const destroyAsync = util.promisify((req, callback) => req.session.destroy(callback));
const logoutAsync = util.promisify((req, callback) => req.logout(callback));"""
HANDLE_ERRORS = """exports.handleErrors = async function handleErrors(err, req, res, next) { // esli\
nt-disable-line no-unused-vars
	const cases = {
		EBADCSRFTOKEN: function () {
			winston.error(`${req.method} ${req.originalUrl}\\n${err.message}`);
			res.sendStatus(403);
		},
		'blacklisted-ip': function () {
			res.status(403).type('text/plain').send(err.message);
		},
	};

	const notFoundHandler = () => {
		const controllers = require('.');
		controllers['404'].handle404(req, res);
	};"""
HANDLE_ERRORS_REST = """	const data = await getErrorHandlers(cases);
	try {
		if (data.cases.hasOwnProperty(err.code)) {
			data.cases[err.code](err, req, res, defaultHandler);
		} else if (err.message && err.message.startsWith('[[error:no-') && err.message !== '[[error:no-privileges]]') {
			notFoundHandler();
		} else if (err.message === '[[error:no-privileges]]') {
			await helpers.notAllowed(req, res, err.message);
		} else if (err.message && err.message.startsWith('Failed to lookup view')) {
			notBuiltHandler();
		} else {
			await defaultHandler();
		}
	} catch (_err) {
		winston.error(`${req.method} ${req.originalUrl}\\n${_err.stack}`);
		if (!res.headersSent) {
			res.status(500).send(_err.message);
		}
	}
};"""
ADD_POST_DATA = """	Topics.addPostData = async function (postData, uid) {
		if (!Array.isArray(postData) || !postData.length) {
			return [];
		}
		const pids = postData.map(post => post && post.pid);

		async function getPostUserData(field, method) {
			const uids = _.uniq(postData
				.filter(p => p && (activitypub.helpers.isUri(p[field]) || parseInt(p[field], 10) >= 0))
				.map(p => p[field]));
			const userData = await method(uids);
			return _.zipObject(uids, userData);
		}
		const [
			bookmarks,
			voteData,
			userData,
			editors,
			replies,
		] = await Promise.all([
			posts.hasBookmarked(pids, uid),
			posts.getVoteStatusByPostIDs(pids, uid),
			getPostUserData('uid', async uids => await posts.getUserInfoForPosts(uids, uid)),
			getPostUserData('editor', async uids => await user.getUsersFields(uids, ['uid', 'username', 'userslug'])),
			getPostReplies(postData, uid),
			Topics.addParentPosts(postData, uid),
		]);

		postData.forEach((postObj, i) => {
			if (postObj) {
				postObj.user = postObj.uid ? userData[postObj.uid] : { ...userData[postObj.uid] };
				postObj.editor = postObj.editor ? editors[postObj.editor] : null;
				postObj.bookmarked = bookmarks[i];
				postObj.upvoted = voteData.upvotes[i];
				postObj.downvoted = voteData.downvotes[i];
				postObj.votes = postObj.votes || 0;
				postObj.replies = replies[i];
				postObj.selfPost = parseInt(uid, 10) > 0 && parseInt(uid, 10) === postObj.uid;

				// Username override for guests, if enabled
				if (meta.config.allowGuestHandles && postObj.uid === 0 && postObj.handle) {
					postObj.user.username = String(postObj.handle);
					postObj.user.displayname = postObj.user.username;
				}
			}
		});

		const result = await plugins.hooks.fire('filter:topics.addPostData', {
			posts: postData,
			uid: uid,
		});
		return result.posts;
	};"""
SESSIONS = """class SessionsController < ApplicationController
  before_action :set_session, only: :destroy
  skip_authentication only: %i[new create]

  layout "auth"

  def new
  end

  def create
    if user = User.authenticate_by(email: params[:email], password: params[:password])
      if user.otp_required?
        session[:mfa_user_id] = user.id
        redirect_to verify_mfa_path
      else
        @session = create_session_for(user)
        redirect_to root_path
      end
    else
      flash.now[:alert] = t(".invalid_credentials")
      render :new, status: :unprocessable_entity
    end
  end

  def destroy
    @session.destroy
    redirect_to new_session_path, notice: t(".logout_successful")
  end

  private
    def set_session
      @session = Current.user.sessions.find(params[:id])
    end
end"""
CHANGE_LOGGING = '''class ChangeLoggingMixin(DeleteMixin, models.Model):
    """
    Provides change logging support for a model. Adds the `created` and `last_updated` fields.
    """
    created = models.DateTimeField(
        verbose_name=_('created'),
        auto_now_add=True,
        blank=True,
        null=True
    )
    last_updated = models.DateTimeField(
        verbose_name=_('last updated'),
        auto_now=True,
        blank=True,
        null=True
    )

    class Meta:
        abstract = True

    def __init__(self, *args, **kwargs):
        changelog_message = kwargs.pop('changelog_message', None)
        super().__init__(*args, **kwargs)
        self._changelog_message = changelog_message'''
LOGS_BLUEPRINT = """_bp.add_url_rule('/event/<int:event_id>/manage/logs/email-attachment/<int:log_en\
try_id>/<int:attachment_id>',
                 'event_email_attachment', RHEventEmailAttachment)

# Users
with _bp.add_prefixed_rules('/user/<int:user_id>', '/user'):
    _bp.add_url_rule('/logs/', 'user', RHUserLogs)
    _bp.add_url_rule('/logs/api/logs', 'api_user_logs', RHUserLogsJSON)
    _bp.add_url_rule('/logs/email-attachment/<int:log_entry_id>/<int:attachment_id>', 'user_email_attachment',
                     RHUserEmailAttachment)

# Actions
_bp.add_url_rule('/event/<int:event_id>/manage/logs/api/resend-email/<int:log_entry_id>', 'resend_email',
                 RHResendEmail, methods=('GET', 'POST'))


@_bp.url_defaults
def _add_user_id(endpoint, values):
    if endpoint in {'logs.user', 'logs.api_user_logs'} and 'user_id' not in values:
        values['user_id'] = request.view_args.get('user_id')"""
SECONDS_TO_HIS = """/**
 * Convert a duration in seconds into H:i:s format.
 * Only show hours if the duration is longer than an hour.
 */
export const secondsToHis = (total: number) => {
  total = Math.round(total)
  const parts: string[] = []

  const hours = Math.floor(total / 3600)

  if (hours > 0) {
    parts.push(hours.toString().padStart(2, '0'))
  }

  parts.push(
    Math.floor((total / 60) % 60)
      .toString()
      .padStart(2, '0'),
  )
  parts.push((total % 60).toString().padStart(2, '0'))

  return parts.join(':')
}"""
SERVICE_WORKER = """self.addEventListener("push", async (event) => {
  const data = await event.data.json()
  event.waitUntil(Promise.all([ showNotification(data), updateBadgeCount(data.options) ]))
})

async function showNotification({ title, options }) {
  return self.registration.showNotification(title, options)
}

async function updateBadgeCount({ data: { badge } }) {
  return self.navigator.setAppBadge?.(badge || 0)
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close()

  const url = new URL(event.notification.data.path, self.location.origin).href
  event.waitUntil(openURL(url))
})"""
USER_METHODS = """  def request_impersonation_for(user_id)
    impersonated = User.find(user_id)
    impersonator_support_sessions.create!(impersonated: impersonated)
  end

  def admin?
    super_admin? || role == "admin"
  end

  def display_name
    [ first_name, last_name ].compact.join(" ").presence || email
  end

  def initial
    (display_name&.first || email.first).upcase
  end

  def initials
    if first_name.present? && last_name.present?
      "#{first_name.first}#{last_name.first}".upcase
    else
      initial
    end
  end

  def show_ai_sidebar?
    show_ai_sidebar
  end

  def ai_available?
    !Rails.application.config.app_mode.self_hosted? || ENV["OPENAI_ACCESS_TOKEN"].present?
  end

  def ai_enabled?
    ai_enabled && ai_available?
  end

  # Deactivation
  validate :can_deactivate, if: -> { active_changed? && !active }
  after_update_commit :purge_later, if: -> { saved_change_to_active?(from: true, to: false) }

  def deactivate
    update active: false, email: deactivated_email
  end

  def can_deactivate
    if admin? && family.users.count > 1
      errors.add(:base, :cannot_deactivate_admin_with_other_users)
    end
  end

  def purge_later
    UserPurgeJob.perform_later(self)
  end

  def purge
    if last_user_in_family?
      family.destroy
    else
      destroy
    end
  end

  # MFA
  def setup_mfa!
    update!(
      otp_secret: ROTP::Base32.random(32),
      otp_required: false,
      otp_backup_codes: []
    )
  end

  def enable_mfa!
    update!(
      otp_required: true,
      otp_backup_codes: generate_backup_codes
    )
  end

  def disable_mfa!
    update!(
      otp_secret: nil,
      otp_required: false,
      otp_backup_codes: []
    )
  end

  def verify_otp?(code)
    return false if otp_secret.blank?
    return true if verify_backup_code?(code)
    totp.verify(code, drift_behind: 15)
  end

  def provisioning_uri
    return nil unless otp_secret.present?
    totp.provisioning_uri(email)
  end"""


def _chunk(path: str, language: str, start: int, text: str, symbol: str, kind: str, layer: str) -> Chunk:
    return Chunk(path, language, start, start + text.count("\n"), text, symbol, kind, layer)


def test_a_link_by_name_to_a_chunk_of_several_definitions_names_the_one_reached() -> None:
    names = "createToken, parseToken, createSecureToken, parseSecureToken, parseAuthToken"
    jwt = _chunk("src/lib/jwt.ts", "typescript", 1, JWT, names, "function", "util")
    login = _chunk("src/app/api/auth/login/route.ts", "typescript", 12, LOGIN, "POST", "function", "api")
    head = _chunk("src/app/api/auth/login/route.ts", "typescript", 1, LOGIN_HEAD, "", "module", "api")
    hits = [Hit(login, 1.0, login.id), Hit(jwt, 0.9, jwt.id)]
    context = AnswerContext.from_chunks([login, jwt, head], hits)
    answer = extractive_answer("How does user authentication flow through the system?", hits, context=context)
    said = next(line for line in answer.split("\n") if line.startswith("- **[") and "`createToken (+4)`" in line)
    assert "is called by `POST` (`src/app/api/auth/login/route.ts:12-48`) for `createSecureToken`" in said
    # a call made by another definition of a Ruby chunk of several methods is said with the one that makes it
    user = _chunk("app/models/user.rb", "ruby", 60, USER_METHODS,
                  "User.request_impersonation_for, User.admin?, User.display_name, User.initial, User.verify_otp?",
                  "method", "model")  # fmt: skip
    use = Use("verify_backup_code?", 149, "calls", "return true if verify_backup_code?(code)")
    assert from_clause(use, "User.request_impersonation_for", user) == " from `User.verify_otp?`"
    # ... and not by the function above a top-level listener that makes it: `updateBadgeCount` closed at line 12
    worker = _chunk("app/views/pwa/service_worker.js", "javascript", 1, SERVICE_WORKER,
                    "showNotification, updateBadgeCount", "function", "view")  # fmt: skip
    assert from_clause(Use("openURL", 18, "calls", "event.waitUntil(openURL(url))"), "showNotification", worker) == ""


def test_a_piece_of_a_javascript_function_is_not_the_files_top_level_code() -> None:
    rest = _chunk("src/controllers/authentication.js", "javascript", 354, ON_SUCCESS, "", "module", "api")
    assert role_phrase(rest, VERBS, "is here") != "is the file's top-level code"
    # one level into `module.exports = function (Topics) {`: the function assigned there, not the file
    wrapped = _chunk("src/topics/posts.js", "javascript", 107, ADD_POST_DATA, "", "module", "service")
    assert display_name(wrapped) == "Topics.addPostData"
    # `notFoundHandler` is a local of `handleErrors`: only its own body (the chunk of its rest) calls it
    errors = _chunk("src/controllers/errors.js", "javascript", 42, HANDLE_ERRORS, "notFoundHandler", "function", "api")
    body = _chunk("src/controllers/errors.js", "javascript", 101, HANDLE_ERRORS_REST, "", "module", "api")
    hits = [Hit(errors, 1.0, errors.id), Hit(body, 0.9, body.id)]
    context = AnswerContext.from_chunks([errors, body], hits)
    assert ClaimChecker(context).link(body, errors, context.imports([errors.path])) is None


def test_a_rails_filter_for_some_actions_is_not_said_to_run_before_each() -> None:
    from codeqa.answer.explanation.constructs.mechanism import matches_in

    rails = next(c for c in load_all() if c.name == "Rails")
    sessions = _chunk("app/controllers/sessions_controller.rb", "ruby", 1, SESSIONS, "SessionsController", "class",
                      "api")  # fmt: skip
    said = [m.phrase for m in matches_in(sessions, [rails], intents("How does user authentication flow?"))]
    assert "runs `set_session` before some actions (`only: :destroy`)" in said
    assert not any("`set_session` before each action" in phrase for phrase in said)


def test_a_name_holds_the_lines_quoted_under_it() -> None:
    names = "ChangeLoggingMixin, ChangeLoggingMixin.Meta, ChangeLoggingMixin.__init__"
    mixin = _chunk("netbox/netbox/models/features.py", "python", 58, CHANGE_LOGGING, names, "class", "model")
    assert display_name(mixin) == "ChangeLoggingMixin (+2)"  # its head and fields, then `class Meta:`
    rules = _chunk("indico/modules/logs/blueprint.py", "python", 34, LOGS_BLUEPRINT, "_add_user_id", "function",
                   "api")  # fmt: skip
    quoted = [KeyLine(39, "_bp.add_url_rule('/logs/', 'user', RHUserLogs)"),
              KeyLine(40, "_bp.add_url_rule('/logs/api/logs', 'api_user_logs', RHUserLogsJSON)")]  # fmt: skip
    assert quoted_name(Step(6, Hit(rules, 0.5, rules.id), "api", quoted, "")) == "blueprint.py"
    inside = [KeyLine(51, "if endpoint in {'logs.user', 'logs.api_user_logs'} and 'user_id' not in values:")]
    assert quoted_name(Step(6, Hit(rules, 0.5, rules.id), "api", inside, "")) == "_add_user_id"


def test_the_openings_call_is_of_a_callee_whose_code_speaks_to_the_question() -> None:
    question = (
        "When a listener presses play, how does the server decide how to deliver the audio: straight from disk, "
        "from a cloud bucket, or converted on the fly?"
    )
    terms = question_terms(question)
    assert not _speaks(terms, SECONDS_TO_HIS)  # "Convert a duration in seconds" is its comment only
    assert _speaks(terms, "export function transcode(path: string) {\n  return convertAudio(path, 'mp3')\n}")


EXCEPTIONS_FIRST = """class ParseError(APIException):
    status_code = status.HTTP_400_BAD_REQUEST
    default_detail = _("Malformed request.")


class AuthenticationFailed(APIException):
    status_code = status.HTTP_401_UNAUTHORIZED
    default_detail = _("Incorrect authentication credentials.")


class NotAuthenticated(APIException):
    status_code = status.HTTP_401_UNAUTHORIZED
    default_detail = _("Authentication credentials were not provided.")


class PermissionDenied(APIException):
    status_code = status.HTTP_403_FORBIDDEN
    default_detail = _("You do not have permission to perform this action.")"""
HANDLE_EXCEPTION = '''    def handle_exception(self, exc):
        """
        Handle any exception that occurs, by returning an appropriate response,
        or re-raising the error.
        """
        if isinstance(exc, (exceptions.NotAuthenticated,
                            exceptions.AuthenticationFailed)):
            # WWW-Authenticate header for 401 responses, else coerce to 403
            auth_header = self.get_authenticate_header(self.request)

            if auth_header:
                exc.auth_header = auth_header
            else:
                exc.status_code = status.HTTP_403_FORBIDDEN

        response = self.settings.EXCEPTION_HANDLER(exc)

        if response is None:
            raise

        response.exception = True'''
EXCEPTIONS_SHADOW = '''class NotAuthenticated(NotAuthenticated):
    """
    Compatibility subclass of restframework `NotAuthenticated`
    exception.
    """
    pass'''


def test_a_name_the_module_rebinds_below_is_not_linked_to_its_first_definition() -> None:
    path = "taiga/base/exceptions.py"
    first = _chunk(path, "python", 66, EXCEPTIONS_FIRST, "ParseError, AuthenticationFailed, NotAuthenticated, "
                   "PermissionDenied", "class", "core")  # fmt: skip
    shadow = _chunk(path, "python", 187, EXCEPTIONS_SHADOW, "NotAuthenticated", "class", "core")
    views = "taiga/base/api/views.py"
    handle = _chunk(views, "python", 400, HANDLE_EXCEPTION, "APIView.handle_exception", "method", "core")
    head = _chunk(views, "python", 53, "from taiga.base import exceptions", "", "module", "core")
    hits = [Hit(handle, 1.0, handle.id), Hit(first, 0.9, first.id)]
    context = AnswerContext.from_chunks([handle, head, first, shadow], hits)
    checker = ClaimChecker(context)
    assert checker.link(handle, first, context.imports([views, path])) is None
    assert checker.link(handle, shadow, context.imports([views, path])) is not None
    text = "\n" * 65 + EXCEPTIONS_FIRST + "\n" * (187 - 84) + EXCEPTIONS_SHADOW
    assert _shadowed(first, "NotAuthenticated", text)
    assert not _shadowed(shadow, "NotAuthenticated", text)  # the last one is what the module binds
    assert not _shadowed(first, "AuthenticationFailed", text)  # defined once
