"""False and misleading sentences on two apps in no data set (probe32: Kiwi TCMS, a Django test-case manager with a
JSON-RPC API, and Redmine, a Rails issue tracker):

- "`account_pending` signs the user in with ``session[:registered_user_id] = user.id``": the session keeps a user who
  registered and awaits activation, so that the activation email can be sent again; the sign-in is
  ``session[:user_id] = user.id`` elsewhere. A session key naming another user than the signed-in one
  (``registered_user_id``, ``mfa_user_id``, ``2fa_user``, ``login_as_orig_user``) signs no one in
  (``effects.SIGNS_IN``);
- "`user.py` calls `permissions_required.check`, which calls `django_login_required`": the RPC method's decorator
  calls ``permissions_required("auth.change_user")``, which returns its nested ``check`` and does not run it; the
  chain took the nested function that makes the next call for the function called. A call with no caller of its own
  (a decorator's argument) still names the definition the next hop must start in (``claims.consistent_chain``);
- "`Role` defines the stored data. Its documentation says: “Built-in roles”": the chunk is a piece of the class's
  body (its constants and associations), and the comment is the constants'; the chunk looked as if it held the
  class's head because ``coder: ::Role::PermissionsAttributeCoder`` reads as ``Role:`` (``leading._holds_head``);
- "`NewTestRunView.post` calls `NewRunForm` (`forms.py:12-22`) and `NewRunForm` (`forms.py:36-57`)": one class in two
  chunks, named twice; the lead's calls name each callee once (``lead._flow_sentence``);
- "`AnonymousViewBackend` decides who is calling (an authentication class)": a ``BaseBackend`` subclass that defines
  ``has_perm`` alone grants permissions and authenticates no one (``BaseBackend.authenticate`` returns None); the
  construct is not said of a bare base's subclass that shows a permission method and no ``authenticate``
  (``django.toml``);
- "`AccountController.register` handles the request: ``@user.login = session[:auth_source_registration][:login]``
  (line 153). Then `AccountController.register_automatically` stores `if user.save`": the quoted line is under ``if
  session[:auth_source_registration]``, the call of ``register_automatically`` under its ``else``; a run that reaches
  the one never reaches the other. A callee called only on another branch of a test than the line the opening
  quotes is not told as what comes next (``condition.exclusive``, ``told.then_and_also``);
- "`AccountController.lost_password` stores `password_recovery_token` in the session on one branch only; … Then
  `AccountController.lost_password` answers with ``render :template => "account/password_recovery"``": the store's
  block redirects and returns, so the render is another request's answer, not what follows the store; it is said
  as what the method also does (``told._cut_off``);
- "`IssuesController` runs `authorize` before each action" for ``before_action :authorize, :except => [:index, :new,
  :create]``: the older hash-rocket options (``:only =>``, ``:except =>``, ``:if =>``) narrow a filter as ``only:``
  does (``construct_lines.RUBY_CONDITION``);
- "Where is the database configured?": "In short: `common.py` lists the middleware every request passes through, in
  order (`MIDDLEWARE`): at `tcms/settings/common.py:195`": settings are a topic of every kind of thing, and a
  settings construct answers "where is X configured?" only on a line that names X (``closing_place._topic_matches``);
- "`base.py` (`tcms/issuetracker/base.py:78-117`) — ``{reporter}`` (line 95) · …": the lines of a method's f-string
  written from the first column were read as the module's statements, and the method's chunk was named after its
  file; a triple-quoted string's body is no statement (``embedded.string_body_lines``, ``callplace.module_level``);
- "`IssuesController.create` calls `render_validation_errors` (…) and `render_attachment_warning_if_needed` (…).
  Then `IssuesController.create` stores `if @issue.save` (line 158)": the save comes before both calls (lines 162
  and 184); the caller's own outcome follows the flow sentence only when its line comes after the calls the
  sentence states (``phrasing.then_after``, ``Sentence.at``).
"""

from __future__ import annotations

from types import SimpleNamespace

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.calls.callplace import consistent_chain
from codeqa.answer.explanation.calls.flow import Use
from codeqa.answer.explanation.code.condition import exclusive
from codeqa.answer.explanation.code.effects import SIGNS_IN
from codeqa.answer.explanation.code.keylines import KeyLine, question_terms
from codeqa.answer.explanation.code.outline import summary
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.explain import Step
from codeqa.answer.explanation.said.closing_place import _topic_matches
from codeqa.answer.explanation.said.extractive import extractive_answer
from codeqa.answer.explanation.said.phrasing import Sentence, then_after
from codeqa.answer.explanation.said.placing import quoted_name
from codeqa.answer.explanation.said.told import then_and_also
from codeqa.answer.explanation.story.endings import outcome_of
from codeqa.chunk import chunk_file
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk, Hit, SourceFile

ACCOUNT_PENDING = """  def account_pending(user, redirect_path=signin_path)
    if Setting.self_registration == '1'
      flash[:error] = l(:notice_account_not_activated_yet, :url => activation_email_path)
      session[:registered_user_id] = user.id
    else
      flash[:error] = l(:notice_account_pending)
    end
    redirect_to redirect_path
  end"""
START_USER_SESSION = """  def start_user_session(user)
    session[:user_id] = user.id
    session[:tk] = user.generate_session_token
    if user.must_change_password?
      session[:pwd] = '1'
    end
  end"""


def _method(path: str, start: int, symbol: str, text: str) -> Chunk:
    return Chunk(path, "ruby", start, start + text.count("\n"), text, symbol, "method", "api")


def test_a_user_kept_in_the_session_for_a_later_step_is_not_signed_in() -> None:
    pending = _method("app/controllers/account_controller.rb", 431, "AccountController.account_pending",
                      ACCOUNT_PENDING)  # fmt: skip
    found = outcome_of(pending, "account_pending")
    assert found is None or not found.verb.startswith("signs the user in"), found
    started = _method("app/controllers/application_controller.rb", 104, "ApplicationController.start_user_session",
                      START_USER_SESSION)  # fmt: skip
    found = outcome_of(started, "start_user_session")
    assert found is not None and (found.verb, found.line) == ("signs the user in with", 105), found
    for held in ("        session[:mfa_user_id] = user.id", '    request.session["2fa_user"] = [user.id, user.email]',
                 "    session['login_as_orig_user'] = {", "    session[:user_return_to] = request.fullpath",
                 "    req.session.pendingUser = user;"):  # fmt: skip
        assert not SIGNS_IN.search(held), held
    for signed in ("    session[:current_user_id] = user.id", "    req.session.userId = user.id;",
                   '    session["id"] = user.id', "    session[:user] = @user.id"):  # fmt: skip
        assert SIGNS_IN.search(signed), signed


DECORATORS = """def django_login_required(request: HttpRequest):
    try:
        user = request.user
        if user.is_authenticated:
            return user
        return None
    except Exception:  # pylint: disable=broad-exception-caught
        return None


def permissions_required(*perms: str) -> Callable[[HttpRequest], object | None]:
    def check(request: HttpRequest):  # pylint: disable=nested-function-found
        user = django_login_required(request)
        if user and user.has_perms(perms):
            return user
        return None

    return check"""
DEACTIVATE = """@rpc_method(
    name="User.deactivate",
    auth=permissions_required("auth.change_user"),
    context_target="rpc_context",
)
def deactivate(query, rpc_context=None):
    request = rpc_context.request
    result = []
    for user in get_queryset(request).filter(**query):
        user_utils.deactivate(user)
        result.append(_get_user_dict(user))
    return result"""


def test_a_chain_does_not_go_on_from_a_function_nested_in_the_one_called() -> None:
    rpc = Chunk("tcms/rpc/api/user.py", "python", 163, 175, DEACTIVATE, "deactivate", "function", "api")
    decorators = Chunk("tcms/rpc/decorators.py", "python", 6, 28, DECORATORS, "django_login_required, "
                       "permissions_required", "function", "service")  # fmt: skip
    factory = Use("permissions_required", 165, "calls", 'auth=permissions_required("auth.change_user"),')
    nested = Use("django_login_required", 23, "calls", "user = django_login_required(request)",
                 caller="permissions_required.check")  # fmt: skip
    assert consistent_chain([factory, nested], [rpc, decorators, decorators]) == 1
    made_by_it = Use("django_login_required", 23, "calls", "user = django_login_required(request)",
                     caller="permissions_required")  # fmt: skip
    assert consistent_chain([factory, made_by_it], [rpc, decorators, decorators]) == 2
    by_its_class = Use("django_login_required", 23, "calls", "user = django_login_required(request)",
                       caller="Guard.permissions_required")  # fmt: skip
    assert consistent_chain([factory, by_its_class], [rpc, decorators, decorators]) == 2


ROLE_BODY = """  # Built-in roles
  BUILTIN_NON_MEMBER = 1
  BUILTIN_ANONYMOUS  = 2

  ISSUES_VISIBILITY_OPTIONS = [
    ['all', :label_issues_visibility_all],
    ['own', :label_issues_visibility_own]
  ]

  scope :sorted, lambda {order(:builtin, :position)}
  has_many :member_roles, :dependent => :destroy
  has_many :members, :through => :member_roles
  acts_as_positioned :scope => :builtin

  serialize :permissions, coder: ::Role::PermissionsAttributeCoder"""
ROLE_HEAD = """# Roles a member holds in a project
class Role < ApplicationRecord
  include Redmine::SafeAttributes"""


def test_a_piece_of_a_class_body_naming_the_class_as_a_namespace_has_no_documentation() -> None:
    body = Chunk("app/models/role.rb", "ruby", 36, 50, ROLE_BODY, "Role", "class", "model")
    assert summary(body) == ""
    head = Chunk("app/models/role.rb", "ruby", 19, 21, ROLE_HEAD, "Role", "class", "model")
    assert summary(head) == "Roles a member holds in a project"


VIEWS = """from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.views.generic.base import View

from tcms.testruns.forms import NewRunForm


class NewTestRunView(View):
    template_name = "testruns/mutable.html"

    def post(self, request):
        form = NewRunForm(data=request.POST, request=request)
        form.populate(request.POST.get("plan"))

        if form.is_valid():
            test_run = form.save()
            for case in form.cleaned_data["case"]:
                test_run.create_execution(case=case, assignee=form.cleaned_data["default_tester"])
            return HttpResponseRedirect(reverse("testruns-get", args=[test_run.pk]))

        test_cases = TestCase.objects.filter(pk__in=request.POST.getlist("case"))
        context_data = {"plan_id": request.POST.get("plan"), "test_cases": test_cases, "form": form}
        return render(request, self.template_name, context_data)
"""
FIELDS = "".join(f"    field_{i} = forms.CharField(required=False)  # test run plan case\n" for i in range(40))
FORMS = f"""from django import forms

from tcms.testcases.models import TestCase
from tcms.testruns.models import TestRun


class NewRunForm(forms.ModelForm):
    class Meta:
        model = TestRun
        exclude = ("tag", "cc")

    def __init__(self, *args, **kwargs):
        request = kwargs.pop("request", None)
        super().__init__(*args, **kwargs)
        if request and hasattr(request, "tenant"):
            tenant_users = request.tenant.authorized_users.all()
            self.fields["manager"].queryset = tenant_users

{FIELDS}
    case = forms.ModelMultipleChoiceField(queryset=TestCase.objects.none(), required=False)

    def populate(self, plan_id):
        if plan_id:
            self.fields["case"].queryset = TestCase.objects.filter(plan=plan_id)
        else:
            self.fields["case"].queryset = TestCase.objects.all()
"""


def test_a_class_in_two_chunks_is_named_once_among_the_calls() -> None:
    views = chunk_file(SourceFile(path="tcms/testruns/views.py", language="python", text=VIEWS, size=len(VIEWS)))
    forms = chunk_file(SourceFile(path="tcms/testruns/forms.py", language="python", text=FORMS, size=len(FORMS)))
    view = next(chunk for chunk in views if "NewTestRunView" in chunk.symbol)
    hits = [Hit(view, 1.0, view.id)]
    answer = extractive_answer("How is a test run created from a test plan and its test cases?", hits,
                               context=AnswerContext.from_chunks([*views, *forms], hits))  # fmt: skip
    opening = answer.split("\n")[0]
    assert "`NewTestRunView.post` calls `NewRunForm`" in opening, opening
    assert opening.count("`NewRunForm` (") == 1, opening


ANONYMOUS_BACKEND = """class AnonymousViewBackend(BaseBackend):
    \"\"\"
    Backend which always returns True for *.view_* permissions for
    anonymous users! Add it to ``AUTHENTICATION_BACKENDS`` setting
    to enable read-only access which doesn't require login!
    \"\"\"

    def has_perm(self, user_obj, perm, obj=None):
        # let other backends decide
        if perm.startswith("auth."):
            return False

        if perm.find(".view_") > -1 and user_obj.is_anonymous:
            return True

        return super().has_perm(user_obj, perm, obj=obj)"""
EMAIL_BACKEND = """class EmailBackend(BaseBackend):
    def authenticate(self, username=None, password=None):
        user = User.objects.filter(email__iexact=username).first()
        if user and user.check_password(password):
            return user
        return None"""


def test_a_permission_backend_does_not_decide_who_is_calling() -> None:
    django = [c for c in load_all() if c.name == "Django"]
    asked = intents("How does user authentication flow through the system?")
    permissions = Chunk("tcms/kiwi_auth/backends.py", "python", 7, 24, ANONYMOUS_BACKEND, "AnonymousViewBackend",
                        "class", "core")  # fmt: skip
    said = [m.phrase for m in matches_in(permissions, django, asked)]
    assert "decides who is calling (an authentication class)" not in said, said
    email = Chunk("accounts/backends.py", "python", 5, 10, EMAIL_BACKEND, "EmailBackend", "class", "core")
    assert "decides who is calling (an authentication class)" in [m.phrase for m in matches_in(email, django, asked)]
    inherited = ANONYMOUS_BACKEND.replace("(BaseBackend)", "(ModelBackend)")  # it inherits `authenticate`
    model = Chunk("accounts/backends.py", "python", 7, 24, inherited, "AnonymousViewBackend", "class", "core")
    assert "decides who is calling (an authentication class)" in [m.phrase for m in matches_in(model, django, asked)]


# redmine app/controllers/account_controller.rb: `register` (lines 138-178) and the private methods it calls
ACCOUNT_CONTROLLER = (
    """class AccountController < ApplicationController

  # User self-registration
  def register
    (redirect_to(home_url); return) unless Setting.self_registration? || session[:auth_source_registration]
    if !request.post?
      session[:auth_source_registration] = nil
      @user = User.new(:language => current_language.to_s)
    else
      user_params = params[:user] || {}
      @user = User.new
      @user.safe_attributes = user_params
      @user.pref.safe_attributes = params[:pref]
      @user.admin = false
      @user.register
      if session[:auth_source_registration]
        @user.activate
        @user.login = session[:auth_source_registration][:login]
        @user.auth_source_id = session[:auth_source_registration][:auth_source_id]
        if @user.save
          session[:auth_source_registration] = nil
          self.logged_user = @user
          flash[:notice] = l(:notice_account_activated)
          redirect_to my_account_path
        end
      else
        unless user_params[:password].blank? && user_params[:password_confirmation].blank?
          @user.password, @user.password_confirmation = user_params[:password], user_params[:password_confirmation]
        end

        case Setting.self_registration
        when '1'
          register_by_email_activation(@user)
        when '3'
          register_automatically(@user)
        else
          register_manually_by_administrator(@user)
        end
      end
    end

    no_store
  end

  private

  # Register a user for email activation.
  #
  # Pass a block for behavior when a user fails to save
  def register_by_email_activation(user, &block)
    token = Token.new(:user => user, :action => "register")
    if user.save and token.save
      Mailer.deliver_register(user, token)
      flash[:notice] = l(:notice_account_register_done, :email => ERB::Util.h(user.mail))
      redirect_to signin_path
    else
      yield if block
    end
  end

  # Automatically register a user
  #
  # Pass a block for behavior when a user fails to save
  def register_automatically(user, &block)
    # Automatic activation
    user.activate
    user.last_login_on = Time.now
    if user.save
      self.logged_user = user
      flash[:notice] = l(:notice_account_activated)
      redirect_to my_account_path
    else
      yield if block
    end
  end

  # Manual activation by the administrator
  #
  # Pass a block for behavior when a user fails to save
  def register_manually_by_administrator(user, &block)
    if user.save
      # Sends an email to the administrators
      Mailer.deliver_account_activation_request(user)
      account_pending(user)
    else
      yield if block
    end
  end

  def handle_inactive_user(user, redirect_path=signin_path)
    if user.registered?
      account_pending(user, redirect_path)
    else
      account_locked(user, redirect_path)
    end
  end

"""
    + ACCOUNT_PENDING
    + "\nend\n"
)


def test_a_callee_called_on_another_branch_than_the_line_quoted_is_not_what_comes_next() -> None:
    text = ACCOUNT_CONTROLLER
    chunks = chunk_file(SourceFile(path="app/controllers/account_controller.rb", language="ruby", text=text,
                                   size=len(text)))  # fmt: skip
    register = next(chunk for chunk in chunks if chunk.symbol == "AccountController.register")
    assert exclusive(register, 18, 35)  # `@user.login = …` under the `if`, `register_automatically(@user)` in `else`
    assert exclusive(register, 33, 35)  # `when '1'` and `when '3'`
    assert not exclusive(register, 15, 35) and not exclusive(register, 18, 22)  # above the test; the same block
    automatic = next(chunk for chunk in chunks if chunk.symbol == "AccountController.register_automatically")
    hits = [Hit(register, 1.0, register.id), Hit(automatic, 0.5, automatic.id)]
    opening = extractive_answer("What happens when a user registers a new account?", hits,
                                context=AnswerContext.from_chunks(chunks, hits)).split("\n")[0]  # fmt: skip
    assert "session[:auth_source_registration][:login]" in opening, opening
    assert "register_automatically" not in opening, opening


# redmine app/controllers/account_controller.rb:56-136
LOST_PASSWORD = """  # Lets user choose a new password
  def lost_password
    (redirect_to(home_url); return) unless Setting.lost_password?
    if prt = (params[:token] || session[:password_recovery_token])
      @token = Token.find_token("recovery", prt.to_s)
      if @token.nil?
        redirect_to home_url
        return
      elsif @token.expired?
        # remove expired token from session and let user try again
        session[:password_recovery_token] = nil
        flash[:error] = l(:error_token_expired)
        redirect_to lost_password_url
        return
      end

      # redirect to remove the token query parameter from the URL and add it to the session
      if request.query_parameters[:token].present?
        session[:password_recovery_token] = @token.value
        redirect_to lost_password_url
        return
      end

      @user = @token.user
      unless @user && @user.active?
        redirect_to home_url
        return
      end
      if request.post?
        if @user.must_change_passwd? && @user.check_password?(params[:new_password])
          flash.now[:error] = l(:notice_new_password_must_be_different)
        else
          @user.password, @user.password_confirmation = params[:new_password], params[:new_password_confirmation]
          @user.must_change_passwd = false
          if @user.save
            @token.destroy
            @user.remote_ip = request.remote_ip
            Mailer.deliver_password_updated(@user, @user)
            flash[:notice] = l(:notice_account_password_updated)
            redirect_to signin_path
            return
          end
        end
      end
      no_store
      render :template => "account/password_recovery"
      return
    else
      if request.post?
        email = params[:mail].to_s.strip
        user = User.find_by_mail(email)
        # user not found
        unless user
          # Don't show an error indicating a non-existent email address
          # to prevent email harvesting
          flash[:notice] = l(:notice_account_lost_email_sent)
          redirect_to signin_path
          return
        end
        unless user.active?
          handle_inactive_user(user, lost_password_path)
          return
        end
        # user cannot change its password
        unless user.change_password_allowed?
          flash.now[:error] = l(:notice_can_t_change_password)
          return
        end
        # create a new token for password recovery
        token = Token.new(:user => user, :action => "recovery")
        if token.save
          # Don't use the param to send the email
          recipent = user.mails.detect {|e| email.casecmp(e) == 0} || user.mail
          Mailer.deliver_lost_password(user, token, recipent)
          flash[:notice] = l(:notice_account_lost_email_sent)
          redirect_to signin_path
          return
        end
      end
    end
  end"""


def test_an_answer_a_construct_s_block_returns_before_is_not_what_follows_it() -> None:
    rails = [c for c in load_all() if c.name == "Rails"]
    chunk = Chunk("app/controllers/account_controller.rb", "ruby", 56, 136, LOST_PASSWORD,
                  "AccountController.lost_password", "method", "api")  # fmt: skip
    matches = matches_in(chunk, rails, intents("How does user authentication flow through the system?"))
    stored = [m for m in matches if m.line == 74]
    assert stored and "password_recovery_token" in stored[0].phrase, [(m.line, m.phrase) for m in matches]
    step = Step(1, Hit(chunk, 1.0, chunk.id), "handles the request", [], "", matches=matches)
    render = ("answers with", step, KeyLine(101, '      render :template => "account/password_recovery"'))
    after, also = then_and_also([render], step, None, "", [(step, stored)])
    assert (after, also) == ([], [render])
    assert then_and_also([render], step, None, "", []) == ([render], [])  # no construct told: it may follow


# redmine app/controllers/issues_controller.rb:20-32
ISSUES_CONTROLLER = """class IssuesController < ApplicationController
  default_search_scope :issues

  before_action :find_issue, :only => [:show, :edit, :update, :issue_tab]
  before_action :find_issues, :only => [:bulk_edit, :bulk_update, :destroy]
  before_action :authorize, :except => [:index, :new, :create]
  before_action :find_optional_project, :only => [:index, :new, :create]
  before_action :build_new_issue_from_params, :only => [:new, :create]
  accept_atom_auth :index, :show
  accept_api_auth :index, :show, :create, :update, :destroy

  rescue_from Query::StatementInvalid, :with => :query_statement_invalid
  rescue_from Query::QueryError, :with => :query_error"""


def test_a_filter_narrowed_in_the_hash_rocket_form_runs_before_some_actions() -> None:
    rails = [c for c in load_all() if c.name == "Rails"]
    chunk = Chunk("app/controllers/issues_controller.rb", "ruby", 20, 32, ISSUES_CONTROLLER, "IssuesController",
                  "class", "api")  # fmt: skip
    said = {m.line: m.phrase for m in matches_in(chunk, rails, intents("How are a user's permissions checked?"))}
    assert said[25] == "runs `authorize` before some actions (`:except => [:index, :new, :create]`)", said
    assert not any("before each action" in phrase for phrase in said.values()), said


# Kiwi TCMS tcms/settings/common.py:161-207
SETTINGS = """# https://docs.djangoproject.com/en/2.2/ref/settings/#std:setting-CACHES
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "kiwitcms",
        "TIMEOUT": 3600,
    }
}

# https://docs.djangoproject.com/en/5.1/ref/settings/#std-setting-STORAGES
STORAGES = {
    "default": {
        "BACKEND": "django.core.files.storage.FileSystemStorage",
    },
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage",
    },
}


# Absolute path to the directory static files should be collected to.
# Don't put anything in this directory yourself; store your static files
# in apps' "static/" subdirectories and in STATICFILES_DIRS.
# Example: "/var/www/example.com/static/"
STATIC_ROOT = "/Kiwi/static/"


AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "guardian.backends.ObjectPermissionBackend",
]


# WARNING: Do not change this unless you know what you are doing !!!
MIDDLEWARE = [
    "tcms.core.middleware.CheckDBStructureExistsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
]

# https://docs.djangoproject.com/en/4.2/ref/settings/#x-frame-options"""


def test_a_settings_construct_answers_where_a_thing_is_configured_only_on_a_line_naming_it() -> None:
    django = [c for c in load_all() if c.name == "Django"]
    chunk = Chunk("tcms/settings/common.py", "python", 161, 207, SETTINGS, "", "module", "config")

    def concluded(question: str) -> list[int]:
        asked = intents(question)
        matches = matches_in(chunk, django, asked)
        step = Step(1, Hit(chunk, 1.0, chunk.id), "holds the settings", [], "", matches=matches)
        explanation = SimpleNamespace(intents=asked, terms=question_terms(question))  # the two parts it reads
        return [match.line for match in _topic_matches(explanation, step)]  # type: ignore[arg-type]

    assert concluded("Where is the database configured?") == []
    assert concluded("Where is the middleware configured?") == [195]


# Kiwi TCMS tcms/issuetracker/base.py:78-117
REPORT_COMMENT = '''    def _report_comment(
        self, execution, user=None, max_text_length=None
    ):  # pylint: disable=no-self-use
        """
        Returns the comment which is used in the original defect report.
        """
        txt = execution.case.get_text_with_version(execution.case_text_version)
        if max_text_length:
            txt = self.truncate(txt, max_text_length)

        reporter = "Unknown"
        if user:
            reporter = user.get_full_name() or user.username

        comment = f"""Filed from execution {execution.get_full_url()}

**Reporter:**
{reporter}

**Product:**
{execution.build.version.product.name}

**Version:**
{execution.build.version.value}

**Build:**
{execution.build.name}

**Component(s):**
{self.get_case_components(execution.case)}

**Steps to reproduce**:
{txt}

**Actual results**:
<describe what happened>


"""
        return comment'''


def test_a_methods_string_written_from_the_first_column_is_not_the_files_code() -> None:
    chunk = Chunk("tcms/issuetracker/base.py", "python", 78, 117, REPORT_COMMENT, "IssueTrackerType._report_comment",
                  "method", "core")  # fmt: skip
    lines = REPORT_COMMENT.split("\n")
    shown = [KeyLine(number, lines[number - 78]) for number in (82, 90, 95, 113)]
    assert (
        quoted_name(Step(1, Hit(chunk, 1.0, chunk.id), "is a method", shown, "")) == "IssueTrackerType._report_comment"
    )


CREATE_CALLS = Sentence(
    "`IssuesController.create` calls `render_validation_errors` (`app/controllers/application_controller.rb:783-788`)"
    " and `render_attachment_warning_if_needed` (`app/controllers/application_controller.rb:754-757`).",
    "IssuesController.create calls render_validation_errors and render_attachment_warning_if_needed.",
    (184, 162),  # the lines of the two calls in `create`
)
CREATE_STORES = Sentence(
    "Then `IssuesController.create` stores `if @issue.save` (`app/controllers/issues_controller.rb:158`).",
    "Then IssuesController.create stores if @issue.save.",
)
CREATE_REDIRECTS = Sentence(
    "Then `IssuesController.create` answers with `redirect_after_create` (`app/controllers/issues_controller.rb:167`).",
    "Then IssuesController.create answers with redirect_after_create.",
)


def test_the_callers_own_outcome_follows_the_flow_only_below_its_calls() -> None:
    assert then_after(CREATE_CALLS, CREATE_STORES) == (CREATE_STORES, CREATE_CALLS)  # line 158, above both calls
    warns = Sentence(CREATE_CALLS.markdown, CREATE_CALLS.plain, (162,))  # `render_attachment_warning_if_needed`
    assert then_after(warns, CREATE_REDIRECTS) == (warns, CREATE_REDIRECTS)  # line 167, below it
    unknown = Sentence(CREATE_CALLS.markdown, CREATE_CALLS.plain)  # no call lines known: as before
    assert then_after(unknown, CREATE_STORES) == (unknown, CREATE_STORES)
