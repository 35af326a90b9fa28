"""False sentences on two apps in no data set (probe36: fat_free_crm, a Rails CRM, and tabbycat, a Django + Vue
debate tabulator), both on fat_free_crm's ``User`` model:

- "`User.awaits_approval?` (`user.rb:81-134`) signs the user in (Devise)" for
  ``suspended? && sign_in_count == 0 && …``: Devise's trackable counter ``sign_in_count`` is no call of
  ``sign_in``; the construct's name ends at ``sign_in`` (``rails.toml``'s Devise construct).
- "`User (+4)` … It reads `scope :without_user, ->(user) { where('id != ?', user.id).by_name }` (`user.rb:71`)"
  for the part's own ``scope :have_assigned_opportunities, lambda {``: the ``=`` of ``!=`` compares, it sets no
  ``scope`` (``values._setter``).
"""

from __future__ import annotations

from pathlib import PurePosixPath

from codeqa.answer.explanation.code.keylines import KeyLine
from codeqa.answer.explanation.code.outline import summary
from codeqa.answer.explanation.code.values import values_read
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk, Hit

# fat_free_crm app/models/users/user.rb:48-79 (cut) and 81-134 (cut)
USER_HEAD = """class User < ActiveRecord::Base
  devise :database_authenticatable, :registerable, :confirmable,
         :encryptable, :recoverable, :rememberable, :trackable
  before_create :suspend_if_needs_approval

  has_many :permissions, dependent: :destroy
  has_and_belongs_to_many :groups

  scope :by_id, -> { order('id DESC') }
  scope :without_user, ->(user) { where('id != ?', user.id).by_name }
  scope :by_name, -> { order('first_name, last_name, email') }

  scope :my, ->(current_user) { accessible_by(current_user.ability) }"""
USER_TAIL = """  scope :have_assigned_opportunities, lambda {
    joins("INNER JOIN opportunities ON users.id = opportunities.assigned_to")
      .where("opportunities.stage <> 'lost' AND opportunities.stage <> 'won'")
      .select('DISTINCT(users.id), users.*')
  }

  def suspended?
    suspended_at != nil
  end

  def awaits_approval?
    suspended? && sign_in_count == 0 && Setting.user_signup == :needs_approval
  end

  def active_for_authentication?
    super && confirmed? && !awaits_approval? && !suspended?
  end"""

RAILS = [c for c in load_all() if c.name == "Rails"]


def _chunk(text: str, start: int, symbol: str, kind: str = "class") -> Chunk:
    return Chunk("app/models/users/user.rb", "ruby", start, start + text.count("\n"), text, symbol, kind, "model")


def _signs_in(line: str) -> bool:
    asked = intents("How does user authentication flow through the system?")
    text = f"  def create\n{line}\n  end"
    chunk = Chunk("app/controllers/sessions_controller.rb", "ruby", 1, 3, text, "create", "method", "controller")
    return any("signs the user in" in match.phrase for match in matches_in(chunk, RAILS, asked))


def test_devises_sign_in_counter_signs_nobody_in() -> None:
    asked = intents("How does user authentication flow through the system?")
    said = [m.phrase for m in matches_in(_chunk(USER_TAIL, 81, "User"), RAILS, asked)]
    assert not [phrase for phrase in said if "signs the user in" in phrase], said
    for line in ("  sign_in(user)", "  sign_in @user", "  sign_in :user, @user", "  sign_in_and_redirect @user"):
        assert _signs_in(line), line
    for line in ("    redirect_to sign_in_path", "    @user.sign_in_count += 1", "    sign_in_count = 0"):
        assert not _signs_in(line), line


def test_a_comparison_in_a_rails_scope_sets_no_value() -> None:
    head, tail = _chunk(USER_HEAD, 48, "User"), _chunk(USER_TAIL, 81, "User")
    assert values_read([KeyLine(81, USER_TAIL.split("\n")[0])], tail, [head]) == []
    for compared in ("  scope :admins, -> { where(admin: true) if mode == 'x' }", "  scope :top, -> { n += 1 }"):
        other = _chunk(USER_HEAD.replace("  scope :by_id, -> { order('id DESC') }", compared), 48, "User")
        assert values_read([KeyLine(81, USER_TAIL.split("\n")[0])], tail, [other]) == [], compared
    # a constant set beside them is still one the part reads
    limited = _chunk(USER_HEAD + "\n  MAX_GROUPS = 10", 48, "User")
    reader = _chunk("  def grouped?\n    groups.count < MAX_GROUPS\n  end", 140, "User.grouped?", "method")
    read = values_read([KeyLine(141, "    groups.count < MAX_GROUPS")], reader, [limited])
    assert [(value.name, value.line.line) for value in read] == [("MAX_GROUPS", 61)]


# fat_free_crm app/views/layouts/_header.html.haml:1-8
HEADER = """#header
  #welcome
    - if current_user
      #{t :welcome},
      -# This span gets updated on the fly if user changes her name.
      %span#welcome_username= current_user.name
      %span> !&nbsp;&nbsp;
"""


def test_a_templates_element_id_is_no_documentation() -> None:
    """The answer's "`_header.html.haml` … Its documentation says: “header welcome”" for the HAML elements
    ``#header`` and ``#welcome``: in HAML, Slim, Pug and CSS a `#` opens an element's or a selector's id
    (``leading.HASH_IS_CODE``)."""
    path = "app/views/layouts/_header.html.haml"
    assert summary(Chunk(path, "haml", 1, 8, HEADER, "_header.html.haml", "module", "view")) == ""
    commented = "-# The page's header: who is signed in, and the links for them\n" + HEADER
    said = summary(Chunk(path, "haml", 1, 9, commented, "_header.html.haml", "module", "view"))
    assert said == "The page's header: who is signed in, and the links for them"
    styles = "#sidebar {\n  float: right;\n}\n"
    assert summary(Chunk("app/assets/stylesheets/sidebar.scss", "scss", 1, 3, styles, "", "module", "view")) == ""
    noted = "// The sidebar beside every list.\n" + styles
    said = summary(Chunk("app/assets/stylesheets/sidebar.scss", "scss", 1, 4, noted, "", "module", "view"))
    assert said == "The sidebar beside every list."
    ruby = "# Who is signed in.\nclass Current < ActiveSupport::CurrentAttributes\n  attribute :user\nend"
    current = Chunk("app/models/current.rb", "ruby", 1, 4, ruby, "Current", "class", "model")
    assert summary(current) == "Who is signed in."  # `#` is Ruby's comment


# fat_free_crm app/controllers/application_controller.rb:8-16 and home_controller.rb:8-10 (cut)
APPLICATION = """class ApplicationController < ActionController::Base
  protect_from_forgery with: :exception

  before_action :configure_devise_parameters, if: :devise_controller?
  before_action :authenticate_user!
  before_action :set_paper_trail_whodunnit
  before_action :set_context
end"""
HOME = """class HomeController < ApplicationController
  skip_before_action :authenticate_user!, only: %i[timezone]
  before_action :set_current_tab, only: :index
end"""
ADMIN = """class Admin::BaseController < ApplicationController
  before_action :require_admin_user
end"""
PUBLIC = """class Admin::PublicController < ApplicationController
  skip_before_action :require_admin_user
end"""


def test_a_filter_said_to_run_before_each_action_names_the_controllers_that_skip_it() -> None:
    """The answer's "`ApplicationController` … runs `authenticate_user!` before each action", asked where
    permissions are checked (the access construct, not the every-request one), while ``HomeController`` skips it
    for ``timezone``."""
    from codeqa.answer.context import AnswerContext
    from codeqa.answer.explanation.constructs.candidate import Candidate
    from codeqa.answer.explanation.constructs.skipped import excepted

    def said(base: Chunk, others: list[Chunk]) -> str:
        context = AnswerContext.from_chunks([base, *others], [Hit(base, 1.0, base.id)])
        asked = intents("Where are permissions checked before a user can edit an account?")
        found = [Candidate(Hit(base, 1.0, base.id), 0.0, matches_in(base, RAILS, asked), 0, True)]
        kept, _ = excepted(context, found)
        return " | ".join(match.phrase for match in kept[0].matches)

    def controller(path: str, text: str, symbol: str) -> Chunk:
        return Chunk(path, "ruby", 1, text.count("\n") + 1, text, symbol, "class", "controller")

    application = controller("app/controllers/application_controller.rb", APPLICATION, "ApplicationController")
    home = controller("app/controllers/home_controller.rb", HOME, "HomeController")
    assert (
        "runs `authenticate_user!` before each action except some actions of `HomeController`"
        " (`app/controllers/home_controller.rb:2`)"
    ) in said(application, [home]), said(application, [home])
    # a controller skipping a filter of a class it does not derive from is no exception to it
    admin = controller("app/controllers/admin/base_controller.rb", ADMIN, "Admin::BaseController")
    public = controller("app/controllers/admin/public_controller.rb", PUBLIC, "Admin::PublicController")
    assert said(admin, [public, application]) == "runs `require_admin_user` before each action"
    derived = controller("app/controllers/admin/public_controller.rb", PUBLIC.replace("< Application", "< Admin::Base"),
                         "Admin::PublicController")  # fmt: skip
    assert said(admin, [derived, application]).startswith("runs `require_admin_user` before each action except")


# fat_free_crm app/controllers/application_controller.rb:27-71 (cut)
RESCUES = """  rescue_from ActiveRecord::RecordNotFound, with: :respond_to_not_found
  rescue_from CanCan::AccessDenied,         with: :respond_to_access_denied

  # To deal with pre rails 6 users, reset the session and ask them to relogin
  rescue_from ArgumentError do |exception|
    if request.format.html? && exception.message == "invalid base64"
      request.reset_session
      redirect_to login_path
    else
      raise(exception)
    end
  end"""


def test_a_rescue_block_raising_the_error_again_turns_only_some_into_a_response() -> None:
    """The answer's "the code at `application_controller.rb:63-73` turns `ArgumentError` into a response
    (`rescue_from`)" for a block that answers one message and raises every other ``ArgumentError`` again."""
    chunk = Chunk("app/controllers/application_controller.rb", "ruby", 29, 40, RESCUES, "ApplicationController",
                  "class", "controller")  # fmt: skip
    said = [m.phrase for m in matches_in(chunk, RAILS, intents("What happens when an API request fails?"))]
    assert said == [
        "turns `ActiveRecord::RecordNotFound` into a response (`rescue_from`)",
        "turns `CanCan::AccessDenied` into a response (`rescue_from`)",
    ], said
    answered = RESCUES.replace("      raise(exception)", "      head :bad_request")
    chunk = Chunk(chunk.path, "ruby", 29, 40, answered, "ApplicationController", "class", "controller")
    said = [m.phrase for m in matches_in(chunk, RAILS, intents("What happens when an API request fails?"))]
    assert "turns `ArgumentError` into a response (`rescue_from`)" in said, said


# tabbycat tabbycat/templates/ajax/WebSocketMixin.vue:1-4 and 92-100, a mixin's file (`<script>` only), and
# tabbycat/venues/templates/EditDebateVenuesContainer.vue's template (lines 1-6) and script (lines 40-44)
MIXIN_TOP = """<script>
// Subclass should set following methods
export default {
  data: function () {"""
MIXIN = """    // Called by inheriting components; sends a given payload to a socket
    sendToSocket: function (socketLabel, payload) {
      payload.component_id = this.componentId // Pass on originating Vue instance
      this.bridges[socketLabel].send(payload)
    },
  },
}
</script>"""
COMPONENT = """<template>

  <drag-and-drop-layout :unallocatedItems="unallocatedItems"
                        :handle-unused-drop="moveVenue">
  </drag-and-drop-layout>
</template>"""
COMPONENT_SCRIPT = """    moveVenue: function (dragData, dropData) {
      const venueChanges = []
      venueChanges.push({ id: dragData.id, venue: dropData.venue })
      this.$store.dispatch('updateDebatesOrPanelsAttribute', { venues: venueChanges })
    },"""


def test_a_single_file_component_with_no_markup_renders_nothing() -> None:
    """The answer's "`WebSocketMixin.vue` (`WebSocketMixin.vue:92-117`) renders what the user sees" for a mixin's
    methods: a ``.vue`` file with no markup (``<script>`` only) renders nothing (``markup_said.marked_up``); a
    component's script does, through its template."""
    from codeqa.answer.context import AnswerContext
    from codeqa.answer.explanation.said.extractive import VERBS
    from codeqa.answer.explanation.said.roles_said import role_phrase

    def vue(path: str, text: str, start: int) -> Chunk:
        return Chunk(path, "vue", start, start + text.count("\n"), text, PurePosixPath(path).name, "module", "view")

    mixin = "tabbycat/templates/ajax/WebSocketMixin.vue"
    top, methods = vue(mixin, MIXIN_TOP, 1), vue(mixin, MIXIN, 92)
    container = "tabbycat/venues/templates/EditDebateVenuesContainer.vue"
    template, script = vue(container, COMPONENT, 1), vue(container, COMPONENT_SCRIPT, 40)
    context = AnswerContext.from_chunks([top, methods, template, script], [Hit(methods, 1.0, methods.id)])
    assert role_phrase(methods, VERBS, "is here", context) != "renders what the user sees"
    assert role_phrase(script, VERBS, "is here", context) == "renders what the user sees"
    assert role_phrase(template, VERBS, "is here", context) == "renders what the user sees"
    assert role_phrase(methods, VERBS, "is here") == "renders what the user sees"  # no file to read: as before


# fat_free_crm app/models/entities/contact.rb:169-176 (cut)
CREATE_FOR = """  # Class methods.
  #----------------------------------------------------------------------------
  def self.create_for(model, account, opportunity, params)
    attributes = {
      lead_id:     model.id,
      user_id:     params[:account][:user_id] || account.user_id,
    }
  end"""


def test_a_section_title_ending_in_a_full_stop_is_no_documentation() -> None:
    """The answer's "`Contact.create_for` … Its documentation says: “Class methods.”": the title of the section of
    class methods the definition opens, not what it does (``outline.SECTION_TITLE``)."""
    path = "app/models/entities/contact.rb"
    chunk = Chunk(path, "ruby", 169, 176, CREATE_FOR, "Contact.create_for", "method", "model")
    assert summary(chunk) == ""
    documented = CREATE_FOR.replace("# Class methods.", "# Creates a contact from a lead.")
    chunk = Chunk(path, "ruby", 169, 176, documented, "Contact.create_for", "method", "model")
    assert summary(chunk) == "Creates a contact from a lead."


# fat_free_crm config/database.postgres.docker.yml:1-5 and config/database.sqlite.yml:1-7
POSTGRES = """---
development: &development
  adapter: postgresql
  database: fat_free_crm_development
  username: <%= ENV['DB_USERNAME'] %>"""
SQLITE = """# SQLite version 3.x
#   gem install sqlite3-ruby (not necessary on OS X Leopard)
---
development: &development
  adapter: sqlite3
  database: db/fat_free_crm_development.sqlite3
  pool: 5"""


def test_a_yaml_document_marker_is_no_comment() -> None:
    """The answer's "`database.postgres.docker.yml` … Its documentation says: “-”" for YAML's ``---``, read as an
    SQL ``--`` comment: in YAML only `#` comments (``leading.HASH_ONLY``)."""
    postgres = Chunk("config/database.postgres.docker.yml", "yaml", 1, 5, POSTGRES, "", "config", "config")
    assert summary(postgres) == ""
    sqlite = Chunk("config/database.sqlite.yml", "yaml", 1, 7, SQLITE, "", "config", "config")
    assert summary(sqlite) == "SQLite version 3.x gem install sqlite3-ruby (not necessary on OS X Leopard)"


# fat_free_crm app/controllers/users_controller.rb:43-62 (cut): the `avatar` action, then `upload_avatar`
AVATAR_ACTION = """  def avatar
    respond_with(@user)
  end"""
UPLOAD_AVATAR = """  def upload_avatar
    if params[:gravatar]
      @user.avatar = nil
      @user.save
      render
    else
      if params[:avatar]
        @avatar = Avatar.create(avatar_params)
        if @avatar.valid?
          @user.avatar = @avatar
        end
      end
    end
  end"""


def test_a_ruby_instance_variable_or_hash_key_is_no_use_of_the_method_so_named() -> None:
    """The answer's "`UsersController.upload_avatar` … uses `avatar` (`users_controller.rb:3-45`)" for
    ``if params[:avatar]`` and ``@avatar = Avatar.create(…)``: a hash's key and an instance variable name data, not
    the controller's ``avatar`` action (``flow._ruby_data``); so does a translation's key, as in
    "`_sidebar_show.html.haml` … uses `opportunity_summary`" for ``.caption #{t :opportunity_summary}``."""
    from codeqa.answer.explanation.calls.flow import find_uses

    path = "app/controllers/users_controller.rb"
    action = Chunk(path, "ruby", 43, 45, AVATAR_ACTION, "UsersController.avatar", "method", "controller")
    upload = Chunk(path, "ruby", 50, 63, UPLOAD_AVATAR, "UsersController.upload_avatar", "method", "controller")
    assert [use.line for use in find_uses(upload, action) if "@member" not in use.name] == []
    for line, used in (("    avatar", True), ("    before_action :avatar", True), ("    x = @@avatar", False),
                       ("    render :avatar if flags[:avatar]", True), ("  .caption #{t :avatar}", False),
                       ("    title = I18n.t(:avatar)", False), ("    send(:avatar)", True)):  # fmt: skip
        chunk = Chunk(path, "ruby", 1, 1, line, "UsersController.show", "method", "controller")
        assert bool(find_uses(chunk, action)) is used, line


# tabbycat tabbycat/participants/admin.py:218-228, an admin action in a file of the view layer
ASSIGN_CODE_NAMES = """    @admin.display(description=_("Reset code name"))
    def assign_code_names(self, request, queryset):
        count = populate_code_names_from_emoji(queryset, overwrite=True)
        for obj in queryset:
            self.log_change(request, obj, [{"changed": {"fields": ["code_name"]}}])

        message = ngettext_lazy(
            "%(count)d team had their code name reset.",
            "%(count)d teams had their code names reset.",
            count) % {'count': count}
        self.message_user(request, message)"""


def test_the_lead_says_the_role_the_code_shows_not_its_layers() -> None:
    """The answer's lead "`TeamAdmin.assign_code_names` … renders what the user sees" beside its source's "handles
    the request": a view-layer chunk that renders nothing but answers a request is said to handle it, in the lead
    too (``lead._lead_sentence``)."""
    from codeqa.answer.context import AnswerContext
    from codeqa.answer.explanation.said.extractive import extractive_answer

    chunk = Chunk("tabbycat/participants/admin.py", "python", 218, 228, ASSIGN_CODE_NAMES,
                  "TeamAdmin.assign_code_names", "method", "view")  # fmt: skip
    hits = [Hit(chunk, 1.0, chunk.id)]
    context = AnswerContext.from_chunks([chunk], hits)
    answer = extractive_answer("How are team code names assigned?", hits, context=context)
    lead = answer.split("\n")[0]
    assert "renders what the user sees" not in answer, lead
    assert "`TeamAdmin.assign_code_names` (`tabbycat/participants/admin.py:218-228`) handles the request" in lead, lead
