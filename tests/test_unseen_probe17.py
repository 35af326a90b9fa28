"""Read on three new real-size apps (probe17): huginn (Rails), Tandoor recipes (Django + Vue), kimai (Symfony).

huginn, asked "How does an agent receive events and create new events?", walked from ``Agent.receive!`` and said
"1. `Agent.receive!` calls `async_receive` when `agent.no_bulk_receive?`". The method calls ``async_receive`` on
both branches: once per event ``if agent.no_bulk_receive?``, once with all the events ``else``. The condition the
sentence gave the call is one it does not have.

huginn, same question: "`Agent.unavailable?` (`app/models/agent.rb:192-285`) … is used by `Agents.DelayAgent`
(`app/models/agents/delay_agent.rb:2-42`) for `default_schedule`". DelayAgent's ``default_schedule 'every_12h'`` is
written in its class body: it calls the class method ``default_schedule(schedule = nil)`` that ``Agent`` defines inside
``class << self`` (line 347), not the instance method ``default_schedule`` of lines 192-285.

huginn, asked "How does a web request to an agent get handled?", led on ``Agent.trigger_web_request`` and then told
"Step by step: 1. `Agent.receive!` calls `async_receive` … 2. `async_receive` queues a job": a walk from the third
source, which shares the lead's file (``app/models/agent.rb``, 1,000 lines of one model) and nothing else with the
question. Event propagation is not how a web request is handled.

huginn, asked "How are events emitted by an agent stored?", said "`Agents.DelayAgent.extract_emitted_events!`
(`app/models/agents/delay_agent.rb:92-113`) defines a class": the chunker takes Ruby's ``private def x`` for a piece of
its class; the answer names the method its lines are in, and then said the class's kind of it.

kimai, asked "What happens when a user logs in?", opened on "`LoginManager.logInUser`
(`src/User/LoginManager.php:22-53`) issues the token the client sends back": its
``$this->createToken('secured_area', $user)`` builds Symfony's ``UsernamePasswordToken`` and puts it in the server's
token storage (the session). No client ever holds it.

kimai, asked "How are permissions checked for editing a timesheet?", walked from ``TimesheetVoter.voteOnAttribute``
through ``canCreate`` and said "What happens: `TimesheetVoter.voteOnAttribute` then ends in `return
$this->permissionManager->hasRolePermission($user, $permission . '_other_timesheet');`": for one's own timesheet it
returns the ``_own_timesheet`` permission before that line. One of two ends, told as what follows the call.

Tandoor, asked "How does the API check that a user may access a space?", said "`FoodViewSet.shopping`
(`cookbook/views/api.py:1096-1126`) handles the request. Its documentation says: “TODO DRF only allows one action in
a decorator action without overriding get_operation_id_base() this should be PUT and DELETE probably”": a note to the
maintainers, said as what the code is for.

kimai, asked "How does user authentication flow through the system?", said "`ApiRequestMatcher`
(`src/API/Authentication/ApiRequestMatcher.php:15-50`) handles the request" and, for the API question,
"`TokenAuthenticator.getCredentials` … handles the request": a firewall's matcher that returns a bool and an
authenticator's private helper that returns an array. Both read the request; neither answers it.
"""

from __future__ import annotations

from codeqa.answer.explanation.calls.byname import holds_by_name
from codeqa.answer.explanation.calls.flow import Use
from codeqa.answer.explanation.code.branches import another_end, call_condition, condition_at
from codeqa.answer.explanation.code.keylines import question_terms
from codeqa.answer.explanation.code.named import named_for
from codeqa.answer.explanation.code.outline import summary
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.said.lead import LAYER_VERBS
from codeqa.answer.explanation.said.roles_said import KIND_PHRASES, held_role, role_phrase
from codeqa.chunk import chunk_file
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk, SourceFile
from tests.helpers import FileTexts

# huginn/huginn app/models/agent.rb, lines 404-447 (shortened)
RECEIVE = """class Agent < ActiveRecord::Base
  class << self
    def receive!(options = {})
      Agent.transaction do
        agents_to_events = {}
        Agent.where(id: agents_to_events.keys).each do |agent|
          event_ids = agents_to_events[agent.id].uniq
          agent.update_attribute :last_checked_event_id, event_ids.max

          if agent.no_bulk_receive?
            event_ids.each { |event_id| Agent.async_receive(agent.id, [event_id]) }
          else
            Agent.async_receive(agent.id, event_ids)
          end
        end
      end
    end

    def async_receive(agent_id, event_ids)
      AgentReceiveJob.perform_later(agent_id, event_ids)
    end
  end
end
"""
# the same method with the bulk branch calling something else: the test is the call's own
ONE_BRANCH = RECEIVE.replace("            Agent.async_receive(agent.id, event_ids)", "            agent.skip!")
# the bulk branch calls it only under a test of its own: not on every branch
NESTED = RECEIVE.replace(
    "            Agent.async_receive(agent.id, event_ids)\n",
    "            if agent.active?\n              Agent.async_receive(agent.id, event_ids)\n            end\n",
)
# no else: the call runs only when the test holds
NO_ELSE = RECEIVE.replace("          else\n            Agent.async_receive(agent.id, event_ids)\n", "")


def _at(text: str, needle: str) -> tuple[Chunk, int]:
    line = next(n for n, row in enumerate(text.split("\n"), start=1) if needle in row)
    chunks = chunk_file(SourceFile("app/models/agent.rb", "ruby", text, len(text)))
    return next(c for c in chunks if c.start_line <= line <= c.end_line and "def receive!" in c.text), line


def test_a_call_made_on_every_branch_of_an_if_else_is_said_without_the_if_test() -> None:
    chunk, line = _at(RECEIVE, "event_ids.each { |event_id| Agent.async_receive")
    assert condition_at(chunk, line, loops=True) == ("when", "agent.no_bulk_receive?")  # the line's own test
    assert call_condition(chunk, line, "async_receive", loops=True) == ("", "")
    chunk, line = _at(RECEIVE, "            Agent.async_receive(agent.id, event_ids)")
    assert call_condition(chunk, line, "async_receive", loops=True) == ("", "")  # said from the else too


def test_a_call_on_one_branch_keeps_its_test() -> None:
    for text in (ONE_BRANCH, NO_ELSE, NESTED):
        chunk, line = _at(text, "event_ids.each { |event_id| Agent.async_receive")
        assert call_condition(chunk, line, "async_receive", loops=True) == ("when", "agent.no_bulk_receive?"), text


# kimai/kimai src/API/Authentication/ApiRequestMatcher.php, lines 15-50, and TokenAuthenticator.php lines 63-79
# (shortened): a firewall's request matcher and an authenticator's private helper read the request, answer nothing
MATCHER = """<?php

namespace App\\API\\Authentication;

final class ApiRequestMatcher implements RequestMatcherInterface
{
    public function matches(Request $request): bool
    {
        // we do not want to handle URLs that are not in the API scope
        if (!str_starts_with($request->getRequestUri(), '/api/')) {
            return false;
        }
        if (($auth = $request->headers->get('Authorization')) !== null && str_starts_with($auth, 'Bearer ')) {
            return true;
        }
        return !$request->hasPreviousSession();
    }
}
"""
CREDENTIALS = """<?php

namespace App\\API\\Authentication;

final class TokenAuthenticator extends AbstractAuthenticator
{
    private function getCredentials(Request $request): array
    {
        $apiUser = $request->headers->get(self::HEADER_USERNAME);
        if (null === $apiUser || '' === $apiUser) {
            throw new CustomUserMessageAuthenticationException('Authentication required, missing user header');
        }
        $apiToken = $request->headers->get(self::HEADER_TOKEN);

        return [
            'username' => $apiUser,
            'password' => $apiToken
        ];
    }
}
"""
# kimai/kimai src/API/TimesheetController.php (shortened): an API action handed the request answers it
ACTION = """<?php

namespace App\\API;

final class TimesheetController extends BaseApiController
{
    public function cgetAction(Request $request, ParamFetcherInterface $paramFetcher)
    {
        $query = new TimesheetQuery();
        $query->setUser($request->query->get('user'));

        return $this->viewHandler->handle($this->view($this->repository->getPagerfantaForQuery($query), 200));
    }
}
"""


def _php(path: str, text: str) -> list[Chunk]:
    return chunk_file(SourceFile(path, "php", text, len(text)))


def test_a_php_helper_that_reads_the_request_and_returns_a_bool_or_an_array_handles_no_request() -> None:
    for path, text in (("src/API/Authentication/ApiRequestMatcher.php", MATCHER),
                       ("src/API/Authentication/TokenAuthenticator.php", CREDENTIALS),):  # fmt: skip
        said = {role_phrase(chunk, LAYER_VERBS, "") for chunk in _php(path, text) if "$request" in chunk.text}
        assert said and LAYER_VERBS["api"] not in said, (path, said)
    said = {role_phrase(chunk, LAYER_VERBS, "") for chunk in _php("src/API/TimesheetController.php", ACTION)}
    assert LAYER_VERBS["api"] in said, said


# huginn/huginn app/models/agent.rb (lines 1-3, 192-203 and 322-352, shortened) and app/models/agents/delay_agent.rb
AGENT = """class Agent < ActiveRecord::Base
  include WorkingHelpers

  def unavailable?
    disabled? || dependencies_missing?
  end

  def default_schedule
    self.class.default_schedule
  end

  class << self
    def cannot_be_scheduled!
      @cannot_be_scheduled = true
    end

    def default_schedule(schedule = nil)
      @default_schedule = schedule unless schedule.nil?
      @default_schedule
    end
  end
end
"""
DELAY = """module Agents
  class DelayAgent < Agent
    include FormConfigurable

    default_schedule 'every_12h'

    def check
      default_schedule
    end
  end
end
"""


_FILES = {"app/models/agent.rb": AGENT, "app/models/agents/delay_agent.rb": DELAY}


def _piece(text: str, first: str, last: str, symbol: str) -> Chunk:
    """Lines ``first``..``last`` (the line after the one holding ``last``) of agent.rb, as the index chunks them."""
    rows = text.split("\n")
    start = next(n for n, row in enumerate(rows) if first in row)
    end = next(n for n, row in enumerate(rows) if n > start and last in row) + 1
    return Chunk("app/models/agent.rb", "ruby", start + 1, end + 1, "\n".join(rows[start : end + 1]), symbol,
                 "method", "model")  # fmt: skip


def test_a_ruby_call_in_a_class_body_reaches_the_class_method_not_the_instance_method() -> None:
    instance = _piece(AGENT, "def unavailable?", "self.class.default_schedule", "Agent.unavailable?")
    singleton = _piece(AGENT, "def cannot_be_scheduled!", "@default_schedule = schedule", "Agent.cannot_be_scheduled!")
    assert "def default_schedule" in instance.text and "class << self" not in instance.text + singleton.text
    caller = chunk_file(SourceFile("app/models/agents/delay_agent.rb", "ruby", DELAY, len(DELAY)))[0]
    line = next(n for n, row in enumerate(DELAY.split("\n"), start=1) if "default_schedule 'every_12h'" in row)
    use = Use("default_schedule", line, "uses", "default_schedule 'every_12h'")
    assert not holds_by_name(caller, instance, use, DELAY, FileTexts(_FILES))
    assert holds_by_name(caller, singleton, use, DELAY, FileTexts(_FILES))
    inside = next(n for n, row in enumerate(DELAY.split("\n"), start=1) if row.strip() == "default_schedule")
    in_method = Use("default_schedule", inside, "calls", "default_schedule")
    assert holds_by_name(caller, instance, in_method, DELAY, FileTexts(_FILES))  # in a method: the instance's own


def test_a_later_source_of_the_lead_s_file_starts_a_walk_only_when_its_own_name_is_on_the_question() -> None:
    terms = question_terms("How does a web request to an agent get handled?")
    receive = _piece(AGENT, "def cannot_be_scheduled!", "@default_schedule = schedule", "Agent.receive!")
    web = Chunk("app/models/agent.rb", "ruby", 170, 190, "def trigger_web_request(request)\nend",
                "Agent.trigger_web_request", "method", "model")  # fmt: skip
    assert not named_for(terms, receive)  # "agent" is its class's word, and the file's: not its own
    assert named_for(terms, web)


# TandoorRecipes/recipes cookbook/views/api.py, lines 1094-1108 (shortened)
SHOPPING = """class FoodViewSet(LoggingMixin, TreeMixin):

    # TODO I could not find any usage of this and it causes schema generation issues, so commenting it for now
    # this is used on the Shopping Badge
    @decorators.action(detail=True, methods=['PUT'], serializer_class=FoodShoppingUpdateSerializer, )
    # # TODO DRF only allows one action in a decorator action without overriding get_operation_id_base()
    def shopping(self, request, pk):
        if self.request.space.demo:
            raise PermissionDenied(detail='Not available in demo', code=None)
        obj = self.get_object()
        return Response(content, status=status.HTTP_204_NO_CONTENT)

    def get_queryset(self):
        \"\"\"Foods of the space, the user's own first.\"\"\"
        return self.queryset.filter(space=self.request.space)
"""


def _method(text: str, first: str, last: str, symbol: str) -> Chunk:
    rows = text.split("\n")
    start = next(n for n, row in enumerate(rows) if first in row)
    end = next(n for n, row in enumerate(rows) if n > start and last in row)
    return Chunk("cookbook/views/api.py", "python", start + 1, end + 1, "\n".join(rows[start : end + 1]), symbol,
                 "method", "api")  # fmt: skip


def test_a_todo_note_is_not_what_the_code_is_for() -> None:
    shopping = _method(SHOPPING, "@decorators.action", "HTTP_204_NO_CONTENT", "FoodViewSet.shopping")
    assert summary(shopping) == ""
    listing = _method(SHOPPING, "def get_queryset", "return self.queryset", "FoodViewSet.get_queryset")
    assert summary(listing) == "Foods of the space, the user's own first."  # a docstring still says


# huginn/huginn app/models/agents/delay_agent.rb, lines 1-4 and 88-113 (shortened)
DELAY_PRIVATE = """module Agents
  class DelayAgent < Agent
    include FormConfigurable

    def receive(incoming_event)
      save!
    end

    private def extract_emitted_events!
      save!

      with_lock do
        emitted_events = received_events.where(id: memory['event_ids']).reorder(:id).to_a

        if interpolated[SortableEvents::EVENTS_ORDER_KEY].present?
          emitted_events = sort_events(emitted_events)
        end

        memory['event_ids'] -= emitted_events.map(&:id)
        save!

        emitted_events
      end
    end
  end
end
"""


def test_a_ruby_private_def_named_after_its_method_is_said_to_be_a_method() -> None:
    rows = DELAY_PRIVATE.split("\n")  # the index holds lines 92-113 as a chunk of the class `Agents.DelayAgent`
    start = next(n for n, row in enumerate(rows) if "private def" in row)
    end = next(n for n, row in enumerate(rows) if n > start and row == "    end")
    piece = Chunk("app/models/agents/delay_agent.rb", "ruby", start + 1, end + 1, "\n".join(rows[start : end + 1]),
                  "Agents.DelayAgent", "class", "model")  # fmt: skip
    role = role_phrase(piece, LAYER_VERBS, "")
    holder = "Agents.DelayAgent.extract_emitted_events!"
    assert held_role(piece, role, holder) == KIND_PHRASES["method"], (piece.kind, role)
    assert held_role(piece, KIND_PHRASES["class"], "Agents.DelayAgent") == KIND_PHRASES["class"]  # a class's own


# kimai/kimai src/User/LoginManager.php, lines 22-53 (shortened)
LOGIN_MANAGER = """<?php

namespace App\\User;

final class LoginManager
{
    public function logInUser(User $user, ?Response $response = null): void
    {
        $this->userChecker->checkPreAuth($user);

        $token = $this->createToken('secured_area', $user);
        $request = $this->requestStack->getCurrentRequest();

        if (null !== $request) {
            $this->sessionStrategy->onAuthentication($request, $token);
        }

        $this->tokenStorage->setToken($token);

        $this->eventDispatcher->dispatch(new UserInteractiveLoginEvent($user));
    }

    private function createToken(string $firewall, User $user): UsernamePasswordToken
    {
        return new UsernamePasswordToken($user, $firewall, $user->getRoles());
    }
}
"""
# an API's own token, handed to the client (Laravel Sanctum, as koel or monica issue it)
API_TOKEN = """<?php

namespace App\\Http\\Controllers;

class AuthController extends Controller
{
    public function login(LoginRequest $request)
    {
        $user = $this->auth->login($request->email, $request->password);

        return response()->json(['token' => $user->createToken('api')->plainTextToken]);
    }
}
"""


def test_a_security_token_kept_in_the_server_s_token_storage_is_not_one_the_client_sends_back() -> None:
    wanted = intents("What happens when a user logs in?")
    said = {m.phrase for c in _php("src/User/LoginManager.php", LOGIN_MANAGER)
            for m in matches_in(c, load_all(), wanted)}  # fmt: skip
    assert not any("the client sends back" in phrase for phrase in said), said
    assert any("token storage" in phrase for phrase in said), said
    said = {m.phrase for c in _php("app/Http/Controllers/AuthController.php", API_TOKEN)
            for m in matches_in(c, load_all(), wanted)}  # fmt: skip
    assert any("the client sends back" in phrase for phrase in said), said


# kimai/kimai src/Voter/TimesheetVoter.php, lines 86-158 (shortened)
VOTER = """<?php

namespace App\\Voter;

final class TimesheetVoter extends Voter
{
    protected function voteOnAttribute(string $attribute, mixed $subject, TokenInterface $token): bool
    {
        $user = $token->getUser();
        $permission = '';

        switch ($attribute) {
            case self::CREATE:
                if (!$this->canCreate($user, $subject)) {
                    return false;
                }
                $permission .= $attribute;
                break;

            default:
                return false;
        }

        if ($subject->getUser()?->getId() === $user->getId()) {
            return $this->permissionManager->hasRolePermission($user, $permission . '_own_timesheet');
        }

        if (!$this->permissionManager->checkTeamAccessTimesheet($subject, $user)) {
            return false;
        }

        return $this->permissionManager->hasRolePermission($user, $permission . '_other_timesheet');
    }
}
"""


def test_the_last_return_after_another_success_return_is_not_what_follows_the_call() -> None:
    chunk = next(c for c in _php("src/Voter/TimesheetVoter.php", VOTER) if "function voteOnAttribute" in c.text)
    rows = VOTER.split("\n")
    call = next(n for n, row in enumerate(rows, start=1) if "canCreate(" in row)
    last = next(n for n, row in enumerate(rows, start=1) if "_other_timesheet" in row)
    assert another_end(chunk, call, last)
    own = next(n for n, row in enumerate(rows, start=1) if "_own_timesheet" in row)
    assert not another_end(chunk, call, own)  # before it, only `return false;` guards
