"""Probe 26 (#35) on Misago (a Django forum) and diaspora (a Rails social network), in no data set.

- "How does blocking another user work?" on diaspora said ``Diaspora.Federation.Entities.block`` "is used by
  `_privacy_settings.haml`": the view's ``block`` is the variable of its ``- @blocks.each do |block|`` loop, and
  ``def self.block`` in ``module Entities`` is a method of the module itself, which a bare name in another file never
  reaches.
- "Where would I add logging …?" on Misago said ``ListView.handle_mark_as_read`` "calls `self.get()` — a method at
  least 36 classes in 23 other files define — so each request a class derived from `ListView` handles passes here":
  the views' own ``post`` calls ``self.handle_mark_as_read(…)`` when a form asks to mark threads read, and Django
  sends each GET to ``get`` directly. A base method its subclasses call on themselves is a helper some of their
  requests use, not the way every request takes.
- "How are notifications emailed …?" on diaspora said ``NotificationService.get_by_guid`` "calls
  `Notification.where` (`app/models/notification.rb:3-58`)": ``where`` is ActiveRecord's; the model's lines only call
  it (``where(opts.merge!(…))`` in ``def self.for``), and in Ruby a line opening on a name is a call, never a head.
- "How is a user's account deleted?" on diaspora said ``AccountMigration.tombstone_old_user_and_update_all_references``
  "defines the stored data": it opens a transaction (``ActiveRecord::Base.transaction do``), it declares no model.
- "How does voting in a poll work?" on Misago said "`isVisible` (`…/poll/results/options.js:1-56`) renders what the
  user sees" over lines of the file's anonymous ``export default function (props)``: ``isVisible`` only returns a
  flag. Lines all in a file's anonymous export are said of the file.
- "How does user authentication flow …?" on Misago said ``MisagoBackend`` "decides who is calling (an authentication
  class), is an authentication backend: it decides who the user is": a backend class whose ``authenticate(self,
  request, …)`` is in view is said once, as the backend.
- "How is a reply to a thread saved …?" on Misago ended its steps with "`State.schedule_post_content_upgrade` queues a
  job with `upgrade_post_content.delay(…)`": the job is queued only ``if post_needs_content_upgrade(self.post):``.
  An outcome reached under a test is said with it, as a step's call is.
- "Where are the forum settings stored …?" on Misago said the dev settings' "documentation says: “pylint:
  disable=line-too-long”": a linter's directive above the module's docstring ("Django settings for dev project.").
- "How does the app check whether a user may see a post?" on diaspora said ``PostPresenter.user_like (+4)`` "handles
  the request": its lines open on ``@post.like_for(…)``, a Ruby instance variable, read as a route decorator
  (``@post("/x")``). A decorator names a route only where its arguments or the line's end follow.
"""

from __future__ import annotations

from codeqa.answer.explanation.calls.byname import holds_by_name
from codeqa.answer.explanation.calls.flow import Use, link
from codeqa.answer.explanation.code.keylines import KeyLine
from codeqa.answer.explanation.code.outline import summary
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.explain import Explanation, Step
from codeqa.answer.explanation.said.extractive import VERBS, sentence
from codeqa.answer.explanation.said.placing import quoted_name
from codeqa.answer.explanation.said.roles_said import role_phrase
from codeqa.answer.explanation.story.endings import Outcome
from codeqa.answer.explanation.story.walk import Hop, Walk
from codeqa.answer.explanation.story.walktext import walk_steps
from codeqa.config import Settings
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk, Hit
from tests.test_basehook import HANDLERS, answer

# diaspora lib/diaspora/federation/entities.rb:36-44 (inside `module Diaspora; module Federation; module Entities`)
ENTITIES_BLOCK = """      def self.block(block)
        DiasporaFederation::Entities::Contact.new(
          author:    block.user.diaspora_handle,
          recipient: block.person.diaspora_handle,
          sharing:   false,
          following: false,
          blocking:  Block.exists?(user: block.user, person: block.person)
        )
      end"""

# diaspora app/views/users/_privacy_settings.haml, whole
PRIVACY_SETTINGS = """.row
  .col-md-12
    %h3
      = t(".ignored_users")

    - if @blocks.length.zero?
      %p
        = t(".no_user_ignored_message")
    - else
      #blocked_people
        - @blocks.each do |block|
          = render partial: "blocked_person", locals: {block: block, person: block.person}"""

ENTITIES = Chunk("lib/diaspora/federation/entities.rb", "ruby", 36, 44, ENTITIES_BLOCK,
                 "Diaspora.Federation.Entities.block", "method", "util")  # fmt: skip
VIEW = Chunk("app/views/users/_privacy_settings.haml", "haml", 1, 12, PRIVACY_SETTINGS, "", "module", "view")
BLOCK_LINE = '= render partial: "blocked_person", locals: {block: block, person: block.person}'


def test_a_view_block_variable_is_not_a_module_method_of_that_name() -> None:
    proposed = link(VIEW, ENTITIES, {})  # found by name alone: the view names `block`
    assert proposed is not None and proposed.name == "block"
    assert not holds_by_name(VIEW, ENTITIES, proposed, PRIVACY_SETTINGS)


def test_the_module_reopened_or_a_subclass_still_reaches_its_class_method() -> None:
    reopened = "module Diaspora\n  module Federation\n    module Entities\n      def self.contact(c)\n        block(c)"
    user = Chunk("lib/diaspora/federation/entities/contact.rb", "ruby", 4, 6, "\n".join(reopened.split("\n")[3:]),
                 "Diaspora.Federation.Entities.contact", "method", "util")  # fmt: skip
    assert holds_by_name(user, ENTITIES, Use("block", 5, "calls", "block(c)"), reopened)
    # a class method of a base class, called bare from a subclass's own class method
    base = Chunk("app/models/base_report.rb", "ruby", 3, 5, "  def self.summary(rows)\n    rows.size\n  end",
                 "BaseReport.summary", "method", "model")  # fmt: skip
    derived = "class WeeklyReport < BaseReport\n  def self.build(rows)\n    summary(rows)\n  end\nend"
    user = Chunk("app/models/weekly_report.rb", "ruby", 2, 4, "\n".join(derived.split("\n")[1:4]),
                 "WeeklyReport.build", "method", "model")  # fmt: skip
    assert holds_by_name(user, base, Use("summary", 3, "calls", "summary(rows)"), derived)
    # a view reaches a helper's instance method by its bare name, as before
    helper = Chunk("app/helpers/people_helper.rb", "ruby", 3, 5, "  def person_link(person)\n    link_to person\n  end",
                   "PeopleHelper.person_link", "method", "util")  # fmt: skip
    view = Chunk("app/views/people/_card.haml", "haml", 1, 1, "= person_link(@person)", "", "module", "view")
    assert holds_by_name(view, helper, Use("person_link", 1, "calls", "= person_link(@person)"), view.text)


# Misago misago/threads/views/list.py:84-207, shortened: the base of the thread lists
LIST_VIEW = """from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views import View


class ListView(View):
    template_name = "thread_list/index.html"
    template_name_htmx = "thread_list/partial.html"

    def get(self, request: HttpRequest, **kwargs):
        context = self.get_context_data(request, kwargs)
        if request.is_htmx:
            return render(request, self.template_name_htmx, context)
        return render(request, self.template_name, context)

    def get_context_data(self, request: HttpRequest, kwargs: dict) -> dict:
        threads = self.get_threads(request, kwargs)
        return {"threads": threads, "count": len(threads), "user": request.user}

    def get_threads(self, request: HttpRequest, kwargs: dict) -> list:
        raise NotImplementedError()

    def get_thread_urls(self, thread) -> dict[str, str]:
        kwargs = {"thread_id": thread.id, "slug": thread.slug}
        return {
            "absolute_url": reverse("forum:thread", kwargs=kwargs),
            "last_post_url": reverse("forum:thread-post-last", kwargs=kwargs),
            "unapproved_post_url": reverse("forum:thread-post-unapproved", kwargs=kwargs),
            "unread_post_url": reverse("forum:thread-post-unread", kwargs=kwargs),
            "solution_post_url": reverse("forum:thread-post-solution", kwargs=kwargs),
        }

    def get_thread_animations(self, request: HttpRequest, threads: list) -> dict[int, bool]:
        try:
            animate_threads = int(request.GET.get("animate", 0))
        except (TypeError, ValueError):
            animate_threads = 0
        return {thread.id: thread.last_post_id > animate_threads for thread in threads}

    def get_moderation_actions(self, request: HttpRequest, threads: list) -> list[dict]:
        actions = []
        if not request.user.is_authenticated:
            return actions
        for thread in threads:
            if thread.category_id in request.user_permissions.moderated_categories:
                actions.append({"id": "close", "name": "Close", "thread": thread.id})
                actions.append({"id": "move", "name": "Move", "thread": thread.id})
                actions.append({"id": "hide", "name": "Hide", "thread": thread.id})
        return actions

    def get_pagination(self, request: HttpRequest, threads: list) -> dict:
        cursor = request.GET.get("cursor")
        page_size = request.settings.threads_per_page
        start = int(cursor) if cursor and cursor.isdigit() else 0
        return {"start": start, "end": start + page_size, "has_next": len(threads) > start + page_size}

    def handle_mark_as_read(self, request: HttpRequest, kwargs: dict) -> HttpResponse:
        current_url = request.get_full_path()
        if request.user.is_authenticated:
            if response := self.mark_threads_as_read(request, kwargs):
                return response

        if request.is_htmx:
            return self.get(request, **kwargs)

        return redirect(current_url)

    def mark_threads_as_read(self, request: HttpRequest, kwargs: dict) -> HttpResponse | None:
        raise NotImplementedError()
"""


def _list_page(n: int) -> str:
    """A thread list of one kind (Misago's ``ThreadListView``, ``PrivateThreadListView``…), long enough to be indexed
    method by method: its ``post`` marks the threads read through the base's helper."""
    rows = "\n".join(f"        total_{i} = sum(t.replies * {i} for t in threads if t.replies > {i})" for i in range(14))
    return f"""from django.http import HttpRequest, HttpResponse

from forum.views.list import ListView


class List{n}View(ListView):
    def get(self, request: HttpRequest, **kwargs):
        threads = [t for t in request.user.threads.all() if t.kind == {n}]
{rows}
        return super().get(request, **kwargs)

    def post(self, request: HttpRequest, **kwargs) -> HttpResponse:
        if "mark_as_read" in request.POST:
            return self.handle_mark_as_read(request, kwargs)
        threads = list(request.user.threads.all())
{rows}
        return self.get(request, **kwargs)
"""


FORUM = {
    "requirements.txt": "django==5.0\n",
    "forum/__init__.py": "",
    "forum/views/__init__.py": "",
    "forum/views/list.py": LIST_VIEW,
    **{f"forum/lists/list{n}.py": _list_page(n) for n in range(HANDLERS)},
}
INDEXED_APPS = {"forum": FORUM}  # indexed once by apps_home (tests/conftest.py)


def test_a_helper_the_handlers_call_on_themselves_is_not_every_requests_way(apps_settings: Settings) -> None:
    text = answer(apps_settings, "forum")
    assert "so each request a class derived from" not in text, text
    assert "Where to add it:** in `ListView.handle_mark_as_read`" not in text, text


# diaspora app/models/notification.rb:7-17 and app/services/notification_service.rb:43-45
NOTIFICATION = """class Notification < ApplicationRecord
  include Diaspora::Fields::Guid

  belongs_to :recipient, class_name: "User"
  has_many :notification_actors, dependent: :delete_all
  has_many :actors, class_name: "Person", through: :notification_actors, source: :person
  belongs_to :target, polymorphic: true

  def self.for(recipient, opts={})
    where(opts.merge!(recipient_id: recipient.id)).order("updated_at DESC")
  end"""
SERVICE = """  def get_by_guid(guid)
    Notification.where(recipient_id: @user.id, guid: guid).first
  end

  def unread_for(user)
    Notification.for(user, unread: true)
  end"""


def test_a_ruby_line_opening_on_a_call_defines_nothing() -> None:
    model = Chunk("app/models/notification.rb", "ruby", 7, 17, NOTIFICATION, "Notification", "class", "model")
    service = Chunk("app/services/notification_service.rb", "ruby", 43, 49, SERVICE,
                    "NotificationService.get_by_guid, NotificationService.unread_for", "method", "service")  # fmt: skip
    where = Use("where", 44, "calls", "Notification.where(recipient_id: @user.id, guid: guid).first")
    assert not holds_by_name(service, model, where, SERVICE)  # ActiveRecord's, not the model's own
    assert holds_by_name(service, model, Use("for", 48, "calls", "Notification.for(user, unread: true)"), SERVICE)


# diaspora app/models/account_migration.rb:113-121
TRANSACTION = """  def tombstone_old_user_and_update_all_references
    ActiveRecord::Base.transaction do
      account_deleter.tombstone_person_and_profile
      account_deleter.close_user if user_left_our_pod?
      account_deleter.tombstone_user if user_changed_id_locally?

      update_all_references
    end
  end"""


def test_a_method_opening_a_transaction_defines_no_stored_data() -> None:
    method = Chunk("app/models/account_migration.rb", "ruby", 113, 121, TRANSACTION,
                   "AccountMigration.tombstone_old_user_and_update_all_references", "method", "model")  # fmt: skip
    assert role_phrase(method, VERBS, "is here") == "is a method"
    model = Chunk("app/models/account_migration.rb", "ruby", 3, 12, "class AccountMigration < ApplicationRecord\n"
                  "  include Diaspora::Federated::Base\n\n  belongs_to :old_person, class_name: \"Person\"\nend",
                  "AccountMigration", "class", "model")  # fmt: skip
    assert role_phrase(model, VERBS, "is here") == VERBS["model"]


# Misago frontend/src/components/poll/results/options.js:1-56, shortened
OPTIONS_JS = """import React from "react"
import ajax from "misago/services/ajax"

export default function (props) {
  const { isPollOver, poll, showVoting, thread } = props

  if (!isVisible(isPollOver, poll.acl, poll)) return null

  const controls = []
  if (poll.is_public || poll.acl.can_see_votes) controls.push(1)
  if (poll.acl.can_edit) controls.push(2)

  return (
    <div className="row poll-options">
      <SeeVotes controls={controls} poll={poll} />
    </div>
  )
}

export function isVisible(isPollOver, acl, poll) {
  return (
    poll.is_public ||
    acl.can_edit ||
    (acl.can_vote && !isPollOver)
  )
}"""


def _shown(chunk: Chunk, *numbers: int) -> Step:
    lines = chunk.text.split("\n")
    return Step(1, Hit(chunk, 0.9, chunk.id), "view", [KeyLine(n, lines[n - chunk.start_line]) for n in numbers], "")


def test_lines_of_a_files_anonymous_export_are_not_said_of_its_named_helper() -> None:
    chunk = Chunk("frontend/src/components/poll/results/options.js", "javascript", 1, 26, OPTIONS_JS, "isVisible",
                  "function", "view")  # fmt: skip
    shown = _shown(chunk, 7, 10, 11)
    assert quoted_name(shown) == "options.js"
    said = sentence(shown, Explanation("How does voting in a poll work?", [shown], [], [], [shown.hit], opened=1),
                    None, None)  # fmt: skip
    assert said.startswith("`options.js` (`frontend/src/components/poll/results/options.js:1-26`)"), said
    assert quoted_name(_shown(chunk, 21, 22)) == "isVisible"  # its own lines stay its own
    assert quoted_name(_shown(chunk, 7, 22)) == "isVisible"  # lines of both: the chunk's name, as before


# Misago misago/users/authbackends.py:7-34, shortened
BACKEND = """class MisagoBackend(ModelBackend):
    def authenticate(self, request, username=None, password=None, **kwargs):
        if not username or not password:
            return None

        try:
            user = User.objects.get_by_username_or_email(username)
        except User.DoesNotExist:
            User().set_password(password)
        else:
            if user.check_password(password) and self.user_can_authenticate(user):
                return user"""
# a REST framework class: its `authenticate(self, request)` takes no credentials
TOKEN_CLASS = """class BearerAuthentication(BaseAuthentication):
    def authenticate(self, request):
        header = request.META.get("HTTP_AUTHORIZATION", "")
        if not header.startswith("Bearer "):
            return None
        return self.authenticate_credentials(header[7:])"""


def test_a_backend_is_said_once_where_its_authenticate_is_in_view() -> None:
    django = [c for c in load_all() if c.name == "Django"]
    asked = intents("How does user authentication flow through the system?")
    backend = Chunk("misago/users/authbackends.py", "python", 7, 18, BACKEND, "MisagoBackend", "class", "core")
    said = [m.phrase for m in matches_in(backend, django, asked)]
    assert "is an authentication backend: it decides who the user is" in said, said
    assert "decides who is calling (an authentication class)" not in said, said
    token = Chunk("api/authentication.py", "python", 5, 10, TOKEN_CLASS, "BearerAuthentication", "class", "core")
    assert "decides who is calling (an authentication class)" in [m.phrase for m in matches_in(token, django, asked)]


# Misago misago/posting/state/reply.py:88-98 and misago/posting/state/base.py:127-132
SAVE_POST = """        else:
            # Save new post so it exists before search vector setup
            self.post.save()

        self.post.set_search_vector()
        self.post.save()

        # Replace edits attr with integer
        # Prevents HTMX merge reply from breaking
        self.post.edits = post_edits

        self.schedule_post_content_upgrade()"""
SCHEDULE = """    def schedule_post_content_upgrade(self):
        if post_needs_content_upgrade(self.post):
            upgrade_post_content.delay(self.post.id, self.post.sha256_checksum)

    def set_attachments(self, attachments: list[Attachment]):
        self.attachments = attachments"""


def test_an_outcome_reached_under_a_test_is_said_with_it() -> None:
    saving = Chunk("misago/posting/state/reply.py", "python", 88, 98, SAVE_POST, "ReplyState.save_post", "method",
                   "core")  # fmt: skip
    state = Chunk("misago/posting/state/base.py", "python", 127, 132, SCHEDULE,
                  "State.schedule_post_content_upgrade, State.set_attachments", "method", "core")  # fmt: skip
    call = Use("State.schedule_post_content_upgrade", 98, "calls", "self.schedule_post_content_upgrade()")
    job = "upgrade_post_content.delay(self.post.id, self.post.sha256_checksum)"
    queued = Outcome("queues a job with", state, "State.schedule_post_content_upgrade", 129, job)
    steps = [plain for _, plain in walk_steps(Walk(saving, "ReplyState.save_post", [Hop(saving, state, call, False)],
                                                   queued))]  # fmt: skip
    assert steps[-1].endswith(f"queues a job with {job} when post_needs_content_upgrade(self.post) "
                              "(misago/posting/state/base.py:129)."), steps  # fmt: skip
    stored = Outcome("stores with", saving, "ReplyState.save_post", 93, "self.post.save()")  # reached every time
    steps = [plain for _, plain in walk_steps(Walk(saving, "ReplyState.save_post", [], stored))]
    assert steps[-1].endswith("stores with self.post.save() (misago/posting/state/reply.py:93)."), steps


# Misago devproject/settings.py:1-20
DEV_SETTINGS = '''# pylint: disable=line-too-long
"""
Django settings for dev project.

Generated by 'django-admin startproject' using Django 1.11.15.
"""

import os

from misago import discover_plugins
from misago.settings import *

# Build paths inside the project like this: os.path.join(BASE_DIR, ...)
BASE_DIR = os.path.dirname(os.path.abspath(__file__))'''


def test_a_linters_directive_is_no_documentation() -> None:
    settings = Chunk("devproject/settings.py", "python", 1, 14, DEV_SETTINGS, "", "module", "config")
    assert summary(settings) == "Django settings for dev project."
    ruby = "# rubocop:disable Metrics/ClassLength\nclass AccountMigration < ApplicationRecord\nend"
    assert summary(Chunk("app/models/account_migration.rb", "ruby", 1, 4, ruby, "AccountMigration", "class",
                         "model")) == ""  # fmt: skip
    js = "// Whether the poll's options show.\n// eslint-disable-next-line no-unused-vars\nfunction isVisible(acl) {\n}"
    assert summary(Chunk("options.js", "javascript", 1, 4, js, "isVisible", "function", "view")) == (
        "Whether the poll's options show."
    )


# diaspora app/presenters/post_presenter.rb:178-192
PRESENTER = """  def user_like
    @post.like_for(current_user).try(:as_api_response, :backbone)
  end

  def user_reshare
    @post.reshare_for(current_user).try(:as_api_response, :backbone)
  end

  def poll_participation_answer_id
    @post.poll&.participation_answer(current_user)&.poll_answer_id if user_signed_in?
  end"""


def test_a_ruby_instance_variable_named_like_a_verb_is_no_route_decorator() -> None:
    presenter = Chunk("app/presenters/post_presenter.rb", "ruby", 178, 188, PRESENTER,
                      "PostPresenter.user_like, PostPresenter.user_reshare", "method", "view")  # fmt: skip
    assert role_phrase(presenter, VERBS, "is here") == "is a method"
    route = '@app.post("/login")\ndef login():\n    return {"ok": True}'
    assert (
        role_phrase(Chunk("app/api.py", "python", 1, 3, route, "login", "function", "api"), VERBS, "is here")
        == (VERBS["api"])
    )
