"""False and misleading sentences on two apps in no data set (probe31: postal, a Rails mail server, and hoppscotch, a
TypeScript monorepo with a NestJS backend):

- "`UserService.updateUserSessions` … is called by `user.service.spec.ts`" while ``UserResolver.updateUserSessions``
  hands the request on with ``this.userService.updateUserSessions(…)``: a JS/TS method's name was taken for a binding
  of its file, so the resolver's call of the service's namesake linked to nothing; a controller or resolver method
  named after the service method it calls (a NestJS habit) lost the link both ways (``jsscope.name_scope``);
- "`Delivery.create` is the closest match found: `delivery.send_webhooks` (line 20). Then `Delivery.create` stores
  `id = message.database.insert(…)` (line 16)": "Then" tells the store as coming after the line quoted before it,
  in the same method (probe30's ``told.after_quote`` dropped it for the line the lead quotes): it is said as what the
  method also does, for any line an opening sentence cites (``told.before_quoted``); and one source's outcomes are
  said in the order of their lines (``told.in_line_order``).
"""

from __future__ import annotations

from pathlib import Path

from codeqa.answer.explanation.code.keylines import KeyLine
from codeqa.answer.explanation.explain import Step
from codeqa.answer.explanation.said.outcomes import outcome_said_of
from codeqa.answer.explanation.said.told import before_quoted, in_line_order
from codeqa.chunk import chunk_file
from codeqa.evaluate.graphcheck import graphs, load
from codeqa.records import Hit
from tests.test_chunk import source

# long enough bodies that each method is a chunk of its own, as in the real files
CHECKS = "".join(f"    if (!session{i}) return E.left(USER_UPDATE_FAILED);\n" for i in range(30))
SERVICE = f"""import {{ Injectable }} from '@nestjs/common';
import * as E from 'fp-ts/Either';

@Injectable()
export class UserService {{
  constructor(private readonly prisma: PrismaService) {{}}

  /**
   * Update a user's sessions
   */
  async updateUserSessions(user: AuthUser, currentSession: string, sessionType: string) {{
{CHECKS}    const dbUpdatedUser = await this.prisma.user.update({{
      where: {{ uid: user.uid }},
      data: {{ currentRESTSession: currentSession }},
    }});
    return E.right(dbUpdatedUser);
  }}

  async deleteUserByUID(uid: string) {{
    await this.prisma.user.delete({{ where: {{ uid }} }});
    return E.right(true);
  }}

  async refreshSessions(user: AuthUser) {{
{CHECKS}    return this.updateUserSessions(user, '{{}}', 'REST');
  }}
}}
"""
RESOLVER = f"""import {{ Resolver, Mutation, Args }} from '@nestjs/graphql';
import {{ UserService }} from './user.service';

@Resolver(() => User)
export class UserResolver {{
  constructor(private readonly userService: UserService) {{}}

  @Mutation(() => User, {{ description: 'Update user sessions' }})
  @UseGuards(GqlAuthGuard)
  async updateUserSessions(
    @GqlUser() user: AuthUser,
    @Args({{ name: 'currentSession' }}) currentSession: string,
    @Args({{ name: 'sessionType' }}) sessionType: string,
  ): Promise<User> {{
{CHECKS.replace("return E.left(USER_UPDATE_FAILED)", "throwErr(USER_UPDATE_FAILED)")}\
    const updatedUser = await this.userService.updateUserSessions(
      user,
      currentSession,
      sessionType,
    );
    if (E.isLeft(updatedUser)) throwErr(updatedUser.left);
    return updatedUser.right;
  }}

  @Mutation(() => Boolean)
  async deleteUserByUID(@Args('uid') uid: string) {{
    return this.userService.deleteUserByUID(uid);
  }}
}}
"""
# a namesake method in a file that does not import the service
LEGACY = f"""export class SessionStore {{
  async updateUserSessions(user: AuthUser, currentSession: string) {{
{CHECKS.replace("return E.left(USER_UPDATE_FAILED)", "return null")}\
    return this.cache.updateUserSessions(user, currentSession);
  }}
}}
"""


def test_a_method_named_after_the_service_method_it_calls_links_to_that_method(tmp_path: Path) -> None:
    files = {"package.json": '{"name": "backend"}\n', "src/user/user.service.ts": SERVICE,
             "src/user/user.resolver.ts": RESOLVER, "src/legacy/session.store.ts": LEGACY}  # fmt: skip
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    chunks, tags, refs = load(tmp_path)
    graph = graphs(chunks, tags, refs)["resolved"]

    def holding(code: str) -> int:
        return next(i for i, c in enumerate(chunks) if code in c.text)

    def pieces(path: str, symbol: str) -> set[int]:  # a long method is cut into pieces that carry its name
        return {i for i, c in enumerate(chunks) if c.path == path and symbol in c.symbol.split(", ")}

    service = pieces("src/user/user.service.ts", "UserService.updateUserSessions")
    resolver = pieces("src/user/user.resolver.ts", "UserResolver.updateUserSessions")
    calling = holding("this.userService.updateUserSessions(")  # the resolver method's last piece
    assert len(resolver) == 2 and calling in resolver, [c.symbol for c in chunks]
    assert service <= set(graph.callees(calling)), [chunks[r].location for r in graph.callees(calling)]
    assert all(calling in graph.callers(row) for row in service)
    assert not service & set(graph.callees(holding("this.cache.updateUserSessions(")))  # no import of the service
    assert set(graph.callees(holding("return this.updateUserSessions("))) == service  # in the service: its own
    short = holding("async deleteUserByUID(uid: string)")  # a method of one piece, named after the service's
    assert short in graph.callees(holding("return this.userService.deleteUserByUID(uid)"))


BASE_PLAYER = f"""export class BasePlaybackService {{
  protected media!: HTMLMediaElement

  public async play(source: Streamable) {{
{CHECKS}    await this.media.play()
  }}

  public async stop() {{
{CHECKS}    this.media.pause()
  }}
}}
"""
RADIO_PLAYER = """import { BasePlaybackService } from './BasePlaybackService'

export class RadioPlaybackService extends BasePlaybackService {
  public async play(station: RadioStation) {
    station.playback_state = 'Playing'
    this.media.src = radioStationStore.getSourceUrl(station)
    await this.media.play()
  }
}
"""


def test_a_method_that_overrides_its_parents_does_not_call_the_parents_through_another_object(tmp_path: Path) -> None:
    """koel's ``RadioPlaybackService.play`` calls ``this.media.play()`` (the audio element's), not the
    ``BasePlaybackService.play`` it overrides."""
    files = {"package.json": '{"name": "player"}\n', "src/services/BasePlaybackService.ts": BASE_PLAYER,
             "src/services/RadioPlaybackService.ts": RADIO_PLAYER}  # fmt: skip
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    chunks, tags, refs = load(tmp_path)
    graph = graphs(chunks, tags, refs)["resolved"]
    radio = next(i for i, c in enumerate(chunks) if "radioStationStore" in c.text)
    base = next(i for i, c in enumerate(chunks) if c.symbol == "BasePlaybackService.play")
    assert base not in graph.callees(radio), [chunks[r].symbol for r in graph.callees(radio)]


DELIVERY = """module Postal
  module MessageDB
    class Delivery

      def self.create(message, attributes = {})
        attributes = message.database.stringify_keys(attributes)
        attributes = attributes.merge("message_id" => message.id, "timestamp" => Time.now.to_f)

        # Ensure that output and details don't overflow their columns. We don't need
        # these values to store more than 250 characters.
        attributes["output"] = attributes["output"][0, 250] if attributes["output"]
        attributes["details"] = attributes["details"][0, 250] if attributes["details"]

        id = message.database.insert("deliveries", attributes)
        if id.nil?
          return nil
        end

        delivery = Delivery.new(message, attributes.merge("id" => id))
        delivery.update_statistics
        delivery.send_webhooks
        delivery
      end

      def send_webhooks
        return unless webhook_event

        WebhookRequest.trigger(@message.database.server_id, webhook_event, webhook_hash)
      end

    end
  end
end
"""


def test_an_outcome_before_the_line_the_opening_quoted_is_said_as_what_it_also_does_not_what_comes_then() -> None:
    chunks = chunk_file(source("lib/postal/message_db/delivery.rb", DELIVERY))
    chunk = next(c for c in chunks if "def self.create" in c.text)
    text = chunk.text.split("\n")

    def line(code: str) -> KeyLine:
        at = next(n for n, each in enumerate(text) if code in each)
        return KeyLine(chunk.start_line + at, text[at].strip())

    step = Step(1, Hit(chunk, 1.0, chunk.id), "core", [], "")
    stored, trigger = line("database.insert("), line("WebhookRequest.trigger(")
    webhooks, missing = line("delivery.send_webhooks"), line("return nil")
    found = [("stores", step, stored), ("sends", step, trigger), ("answers with", step, missing)]
    said = f"`Delivery.create` is the closest match found: `delivery.send_webhooks` ({chunk.path}:{webhooks.line})."
    # `send_webhooks` below is another method; the store and the early return (said with its test) come before
    assert before_quoted(found, said) == ([("sends", step, trigger)],
                                          [("stores", step, stored), ("answers with", step, missing)])  # fmt: skip
    assert before_quoted(found, f"`Delivery.create` ({chunk.location}) stores …") == (found, [])  # a range: no line
    assert before_quoted(found, f"… ({chunk.path}:{stored.line}).") == (found, [])  # the line itself is not before
    assert outcome_said_of([("stores", step, stored)], also=True) == (
        f'`Delivery.create` also stores `id = message.database.insert("deliveries", attributes)` '
        f"(`{chunk.path}:{stored.line}`).",
        f'Delivery.create also stores id = message.database.insert("deliveries", attributes) '
        f"({chunk.path}:{stored.line}).",
    )
    # one source's outcomes said in the order of its lines: the store, then the webhooks
    assert in_line_order([("sends", step, trigger), ("stores", step, stored)]) == [
        ("stores", step, stored),
        ("sends", step, trigger),
    ]
