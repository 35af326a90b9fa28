"""False or misleading sentences on two apps in no data set (probe24: babybuddy, a Django app, and papercups, a
Phoenix + React app):

- "`Sleep` (`core/models.py:536-584`) defines the stored data; it calls `NapSettings` (…) and `validate_duration`
  (…) from `Sleep.clean`": the class body builds ``NapSettings(…)``, only ``clean`` calls ``validate_duration``; a
  clause placing one relation of several is said with that definition as the subject (``relsaid``);
- "it is called by `api.ts` (…) for `getRefreshToken` and `fetchCustomers` (…)": the same for a caller reaching
  another definition of the chunk;
- "`ChatApiWeb.Router` … signs users in and finds them on requests piped through `:api_protected` with Pow" for
  ``plug(Pow.Plug.RequireAuthenticated, error_handler: …)``, which signs no one in: it halts a request with no user;
- "`ChatApi.Messages.Notification.notify` … calls `Helpers.format` (`lib/chat_api/messages/helpers.ex:1-22`),
  `Helpers.format` (`lib/chat_api/conversations/helpers.ex:1-12`)": the file's ``alias ChatApi.Messages.{Helpers,
  Message}`` names one ``Helpers`` only.
"""

from __future__ import annotations

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.calls.claims import ClaimChecker
from codeqa.answer.explanation.calls.elixiralias import aliases
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.said.extractive import extractive_answer
from codeqa.answer.explanation.said.relsaid import Said, said_relations
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk, Hit

MODELS_HEAD = """# -*- coding: utf-8 -*-
import datetime

from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from babybuddy.site_settings import NapSettings, FeedingSettings
from core.utils import timezone_aware_duration


def validate_duration(model, max_duration=datetime.timedelta(hours=24)):
    \"\"\"
    Basic sanity checks for models with a duration
    \"\"\"
    if model.start and model.end:
        start = model.start.astimezone(datetime.timezone.utc)
        end = model.end.astimezone(datetime.timezone.utc)
        if start > end:
            raise ValidationError(
                _("Start time must come before end time."), code="end_before_start"
            )"""
SLEEP = """class Sleep(models.Model):
    model_name = "sleep"
    child = models.ForeignKey(
        "Child", on_delete=models.CASCADE, related_name="sleep", verbose_name=_("Child")
    )
    start = models.DateTimeField(
        blank=False,
        default=timezone.localtime,
        null=False,
        verbose_name=_("Start time"),
    )
    end = models.DateTimeField(
        blank=False, default=timezone.localtime, null=False, verbose_name=_("End time")
    )
    nap = models.BooleanField(null=False, blank=True, verbose_name=_("Nap"))
    notes = models.TextField(blank=True, null=True, verbose_name=_("Notes"))

    objects = models.Manager()
    settings = NapSettings(_("Nap settings"))

    class Meta:
        default_permissions = ("view", "add", "change", "delete")
        ordering = ["-start"]
        verbose_name = _("Sleep")
        verbose_name_plural = _("Sleep")

    def __str__(self):
        return str(_("Sleep"))

    def save(self, *args, **kwargs):
        if self.start and self.end:
            self.duration = timezone_aware_duration(self.start, self.end)
        super(Sleep, self).save(*args, **kwargs)

    def clean(self):
        validate_duration(self)"""
NAP_SETTINGS = """class NapSettings(dbsettings.Group):
    nap_start_min = NapStartMinTimeValue(
        default=time(6),
        description=_("Default minimum nap start time"),
        widget=TimeInput,
    )"""


def test_a_call_made_by_another_definition_of_the_chunk_is_said_with_that_one_among_others() -> None:
    models = "core/models.py"
    head = Chunk(models, "python", 1, 23, MODELS_HEAD, "validate_duration", "function", "model")
    sleep = Chunk(models, "python", 536, 536 + SLEEP.count("\n"), SLEEP, "Sleep", "class", "model")
    nap = Chunk("babybuddy/site_settings.py", "python", 22, 22 + NAP_SETTINGS.count("\n"), NAP_SETTINGS, "NapSettings",
                "class", "config")  # fmt: skip
    hits = [Hit(sleep, 1.0, sleep.id), Hit(head, 0.9, head.id), Hit(nap, 0.8, nap.id)]
    answer = extractive_answer("How is a sleep entry checked?", hits, context=AnswerContext.from_chunks(
        [head, sleep, nap], hits))  # fmt: skip
    said = next(line for line in answer.split("\n") if line.startswith("- **[") and "`core/models.py:536-" in line)
    assert "`NapSettings` (`babybuddy/site_settings.py:22-27`)" in said
    assert "from `Sleep.clean`" not in said  # not "calls `NapSettings` (…) and `validate_duration` (…) from …"
    assert "`Sleep.clean` calls `validate_duration` (`core/models.py:1-23`)" in said


def test_a_clause_is_kept_where_its_relation_is_the_only_one() -> None:
    one = said_relations({"calls": [Said("`validate_duration` (`core/models.py:35-51`)", " from `Sleep.clean`")]})
    assert one == "; it calls `validate_duration` (`core/models.py:35-51`) from `Sleep.clean`"
    callers = [Said("`api.ts` (`assets/src/api.ts:115-138`)", " for `getRefreshToken`"),
               Said("`fetchCustomers` (`assets/src/api.ts:171-184`)")]  # fmt: skip
    assert said_relations({"is called by": callers}) == (
        "; it is called by `fetchCustomers` (`assets/src/api.ts:171-184`)"
        "; `getRefreshToken` is called by `api.ts` (`assets/src/api.ts:115-138`)"
    )
    plain = [Said("`a` (`x.py:1-2`)"), Said("`b` (`y.py:1-2`)", "", ", which stores: `save()` (line 2)")]
    assert said_relations({"calls": plain, "uses": []}) == (
        "; it calls `a` (`x.py:1-2`) and `b` (`y.py:1-2`), which stores: `save()` (line 2)"
    )


ROUTER = """defmodule ChatApiWeb.Router do
  use ChatApiWeb, :router

  pipeline :api do
    plug(ChatApiWeb.IPAddressPlug)
    plug(:accepts, ["json"])
    plug(ChatApiWeb.APIAuthPlug, otp_app: :chat_api)
  end

  pipeline :api_protected do
    plug(Pow.Plug.RequireAuthenticated, error_handler: ChatApiWeb.APIAuthErrorHandler)
    plug(ChatApiWeb.EnsureUserEnabledPlug)
  end"""
SESSION = """  def create(conn, %{"user" => user_params}) do
    conn
    |> Pow.Plug.authenticate_user(user_params)"""


def test_pows_require_authenticated_plug_turns_away_a_request_it_signs_no_one_in() -> None:
    phoenix = [c for c in load_all() if c.name in ("Phoenix", "any framework")]
    asked = intents("How does user authentication flow through the system?")
    router = Chunk("lib/chat_api_web/router.ex", "elixir", 1, 13, ROUTER, "ChatApiWeb.Router", "class", "api")
    found = {m.line: m.phrase for m in matches_in(router, phoenix, asked)}
    assert found[11] == (
        "turns away requests piped through `:api_protected` with no signed-in user (Pow's `RequireAuthenticated`)"
    )
    assert not any("signs users in" in phrase for phrase in found.values())
    session = Chunk("lib/chat_api_web/controllers/session_controller.ex", "elixir", 8, 10, SESSION,
                    "ChatApiWeb.SessionController.create", "method", "api")  # fmt: skip
    said = [m.phrase for m in matches_in(session, phoenix, asked)]
    assert "signs the user in with Pow (`Pow.Plug.authenticate_user`)" in said  # on no other request (probe35)


NOTIFICATION_HEAD = """defmodule ChatApi.Messages.Notification do
  @moduledoc \"\"\"
  Notification handlers for messages
  \"\"\"

  alias ChatApi.{EventSubscriptions, Lambdas}
  alias ChatApi.Conversations.Conversation
  alias ChatApi.Customers.Customer
  alias ChatApi.Messages.{Helpers, Message}
  alias ChatApi.Users.User

  require Logger
"""
NOTIFY = """  def notify(%Message{private: false} = message, :conversation_reply_email, _opts) do
    Logger.info(
      "Sending message notification: :conversation_reply_email (message #{inspect(message.id)})"
    )

    # 20 minutes (TODO: make this configurable?)
    schedule_in = 20 * 60
    formatted = Helpers.format(message)

    %{message: formatted}
    |> ChatApi.Workers.SendConversationReplyEmail.new(schedule_in: schedule_in)
    |> Oban.insert()

    message
  end"""
MESSAGE_HELPERS = """defmodule ChatApi.Messages.Helpers do
  @moduledoc \"\"\"
  Helpers for Messages context
  \"\"\"

  alias ChatApi.Messages.Message

  @spec format(Message.t()) :: map()
  def format(%Message{} = message),
    do: ChatApiWeb.MessageView.render("expanded.json", message: message)"""
CONVERSATION_HELPERS = """defmodule ChatApi.Conversations.Helpers do
  @moduledoc \"\"\"
  Helper methods for Conversations context.
  \"\"\"

  require Logger
  alias ChatApi.Conversations.Conversation

  @spec format(Conversation.t()) :: map()
  def format(%Conversation{} = conversation),
    do: ChatApiWeb.ConversationView.render("basic.json", conversation: conversation)"""


def test_an_elixir_call_through_an_alias_is_the_aliased_modules_not_a_namesakes() -> None:
    path = "lib/chat_api/messages/notification.ex"
    head = Chunk(path, "elixir", 1, 12, NOTIFICATION_HEAD, "ChatApi.Messages.Notification", "class", "service")
    notify = Chunk(path, "elixir", 154, 154 + NOTIFY.count("\n"), NOTIFY, "ChatApi.Messages.Notification.notify",
                   "method", "service")  # fmt: skip
    messages = Chunk("lib/chat_api/messages/helpers.ex", "elixir", 1, 10, MESSAGE_HELPERS,
                     "ChatApi.Messages.Helpers, ChatApi.Messages.Helpers.format", "class", "util")  # fmt: skip
    named = "ChatApi.Conversations.Helpers, ChatApi.Conversations.Helpers.format"
    conversations = Chunk("lib/chat_api/conversations/helpers.ex", "elixir", 1, 11, CONVERSATION_HELPERS, named,
                          "class", "util")  # fmt: skip
    chunks = [head, notify, messages, conversations]
    context = AnswerContext.from_chunks(chunks, [Hit(notify, 1.0, notify.id)])
    checker = ClaimChecker(context)
    imports = context.imports([c.path for c in chunks])
    use = checker.link(notify, messages, imports)
    assert use is not None and use.line == 161
    assert checker.link(notify, conversations, imports) is None  # `Helpers` is `ChatApi.Messages.Helpers` here
    assert aliases(NOTIFICATION_HEAD)["Helpers"] == "ChatApi.Messages.Helpers"
    assert aliases("  alias ChatApi.{\n    Companies,\n    Messages\n  }\n  alias Foo.Bar, as: Baz\n") == {
        "Companies": "ChatApi.Companies", "Messages": "ChatApi.Messages", "Baz": "Foo.Bar"}  # fmt: skip


TRANSACTION = """  @spec user_with_account_transaction(Conn.t(), map()) :: Ecto.Multi.t()
  def user_with_account_transaction(conn, params) do
    Ecto.Multi.new()
    |> Ecto.Multi.run(:account, fn _repo, %{} ->
      ChatApi.Accounts.create_account(%{company_name: params["company_name"]})
    end)
    |> Ecto.Multi.run(:conn, fn _repo, %{account: account} ->
      user = Enum.into(params, %{"account_id" => account.id, "role" => "admin"})

      case Pow.Plug.create_user(conn, user) do
        {:ok, _user, conn} -> {:ok, conn}
        {:error, reason, _conn} -> {:error, reason}
      end
    end)
  end"""
CREATE_SESSION = """  @spec create(Conn.t(), map()) :: Conn.t()
  def create(conn, %{"user" => user_params}) do
    conn
    |> Pow.Plug.authenticate_user(user_params)
    |> case do
      {:ok, conn} -> json(conn, %{data: %{token: conn.private[:api_auth_token]}})
      {:error, conn} -> conn |> put_status(401) |> json(%{error: %{status: 401}})
    end
  end"""
SANITIZE = """  @spec sanitize_new_message_params(Plug.Conn.t(), map()) ::
          map()
  def sanitize_new_message_params(conn, params) do
    Map.merge(params, %{"user_id" => conn.assigns.current_user.id})
  end"""


def test_an_elixir_controller_function_whose_spec_returns_no_connection_answers_no_request() -> None:
    from codeqa.answer.explanation.said.extractive import VERBS
    from codeqa.answer.explanation.said.roles_said import role_phrase

    path = "lib/chat_api_web/controllers/registration_controller.ex"
    helper = Chunk(path, "elixir", 99, 113, TRANSACTION,
                   "ChatApiWeb.RegistrationController.user_with_account_transaction", "method", "api")  # fmt: skip
    assert role_phrase(helper, VERBS, "is here") == "is a function"  # it builds a transaction: no response
    action = Chunk("lib/chat_api_web/controllers/session_controller.ex", "elixir", 7, 15, CREATE_SESSION,
                   "ChatApiWeb.SessionController.create", "method", "api")  # fmt: skip
    assert role_phrase(action, VERBS, "is here") == "handles the request"
    params = Chunk("lib/chat_api_web/controllers/message_controller.ex", "elixir", 146, 150, SANITIZE,
                   "ChatApiWeb.MessageController.sanitize_new_message_params", "method", "api")  # fmt: skip
    assert role_phrase(params, VERBS, "is here") == "is a function"  # a spec going on below its head
