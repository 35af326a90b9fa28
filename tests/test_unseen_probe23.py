"""Probe 23 (#35) on docmost (a NestJS + React wiki in no data set), asked "How does user authentication flow through
the system?". Its opening named the sign-in route, then "`UserController` (`user.controller.ts:17-54`) guards the
route" for ``@UseGuards(JwtAuthGuard)`` above ``class UserController`` (read after the sign-in route, as guarding
that one, which no JWT guard covers), and ended "Then `UserController` stores: `return
this.userService.update(updateUserDto, user.id, workspace)`": a profile update of another route, told as how the
sign-in goes on because the guard's sentence had cited the class."""

from __future__ import annotations

from dataclasses import replace

from codeqa.answer.context import AnswerContext
from codeqa.answer.explanation.constructs.mechanism import matches_in
from codeqa.answer.explanation.said.extractive import extractive_answer
from codeqa.frameworks.conventions import load_all
from codeqa.frameworks.intent import intents
from codeqa.records import Chunk, Hit

LOGIN = """  @HttpCode(HttpStatus.OK)
  @Post('login')
  async login(
    @AuthWorkspace() workspace: Workspace,
    @Res({ passthrough: true }) res: FastifyReply,
    @Body() loginInput: LoginDto,
  ) {
    validateSsoEnforcement(workspace);
    const authToken = await this.authService.login(loginInput, workspace.id);
    this.setAuthCookie(res, authToken);
  }"""
USERS = """@UseGuards(JwtAuthGuard)
@Controller('users')
export class UserController {
  constructor(
    private readonly userService: UserService,
    private readonly workspaceRepo: WorkspaceRepo,
  ) {}

  @HttpCode(HttpStatus.OK)
  @Post('me')
  async getUserInfo(
    @AuthUser() authUser: User,
    @AuthWorkspace() workspace: Workspace,
  ) {
    const memberCount = await this.workspaceRepo.getActiveUserCount(
      workspace.id,
    );
    return { user: authUser, workspace: { ...workspace, memberCount } };
  }

  @HttpCode(HttpStatus.OK)
  @Post('update')
  async updateUser(
    @Body() updateUserDto: UpdateUserDto,
    @AuthUser() user: User,
    @AuthWorkspace() workspace: Workspace,
  ) {
    return this.userService.update(updateUserDto, user.id, workspace);
  }
}"""
SERVICE = """  async login(loginDto: LoginDto, workspaceId: string) {
    const user = await this.userRepo.findByEmail(loginDto.email, workspaceId, {
      includePassword: true,
    });
    if (!user || isUserDisabled(user)) {
      throw new UnauthorizedException('Email or password does not match');
    }
    const isPasswordMatch = await comparePasswordHash(
      loginDto.password,
      user.password,
    );
    if (!isPasswordMatch) {
      throw new UnauthorizedException('Email or password does not match');
    }
    user.lastLoginAt = new Date();
    await this.userRepo.updateLastLogin(user.id, workspaceId);
    return this.sessionService.createSessionAndToken(user);
  }"""
METHOD_GUARD = """  @SkipThrottle({ [AUTH_THROTTLER]: true })
  @UseGuards(JwtAuthGuard)
  @HttpCode(HttpStatus.OK)
  @Post('collab-token')
  async collabToken(@AuthUser() user: User, @AuthWorkspace() workspace: Workspace) {
    return this.authService.getCollabToken(user, workspace.id);
  }"""
HEAD = """import { Body, Controller, HttpCode, HttpStatus, Post, UseGuards } from '@nestjs/common';
import { JwtAuthGuard } from '../../common/guards/jwt-auth.guard';"""
QUESTION = "How does user authentication flow through the system?"


def _ts(path: str, text: str, start: int, symbol: str, kind: str = "method") -> Chunk:
    return Chunk(path, "typescript", start, start + text.count("\n"), text, symbol, kind, "api")


def _chunks() -> list[Chunk]:
    return [_ts("apps/server/src/core/auth/auth.controller.ts", LOGIN, 55, "AuthController.login"),
            _ts("apps/server/src/core/user/user.controller.ts", USERS, 17, "UserController", "class"),
            _ts("apps/server/src/core/auth/services/auth.service.ts", SERVICE, 60, "AuthService.login")]  # fmt: skip


def test_a_guard_on_a_class_lends_no_routes_outcome_to_the_sign_in_story() -> None:
    chunks = _chunks()
    hits = [Hit(chunk, 1.0 - n / 10, chunk.id) for n, chunk in enumerate(chunks)]
    heads = [_ts(chunk.path, HEAD, 1, "", "module") for chunk in chunks]
    context = AnswerContext.from_chunks([*heads, *chunks], hits)
    opening = extractive_answer(QUESTION, hits, context=context).split("\n")[0]
    assert "apps/server/src/core/auth/auth.controller.ts:5" in opening
    assert "user.controller.ts:17-" in opening  # the guard is still said ...
    assert "userService.update" not in opening and "user.controller.ts:44" not in opening  # ... not its route's end


def test_a_use_guards_decorator_is_said_as_what_it_is_on_running_behind_the_guard() -> None:
    nestjs = [c for c in load_all() if c.name in ("NestJS", "any framework")]
    asked = intents(QUESTION)
    for text, start, symbol in ((USERS, 17, "UserController"), (METHOD_GUARD, 195, "AuthController.collabToken")):
        chunk = _ts("apps/server/src/core/user/user.controller.ts", text, start, symbol)
        said = [m.phrase for m in matches_in(chunk, nestjs, asked)]
        assert any(p.startswith("runs behind `JwtAuthGuard` (a NestJS guard") for p in said), said
        assert not any("guards the route" in p for p in said), said
    guard = _ts("apps/server/src/common/guards/jwt-auth.guard.ts", "export class JwtAuthGuard implements CanActivate {",
                10, "JwtAuthGuard", "class")  # fmt: skip
    assert any("guards the route" in m.phrase for m in matches_in(guard, nestjs, asked))


def test_a_guard_on_one_method_still_vouches_for_that_methods_outcome() -> None:
    """The class-wide rule is about a construct on a class: a guard on a method is that route's, and an outcome of
    the method it decorates stays tellable once the opening cites it (``class_wide`` is False)."""
    from codeqa.answer.explanation.explain import Step
    from codeqa.answer.explanation.said.told import class_wide

    nestjs = [c for c in load_all() if c.name in ("NestJS", "any framework")]
    cases = ((USERS, 17, "UserController", 44, True), (METHOD_GUARD, 195, "AuthController.collabToken", 200, False))
    for text, start, symbol, outcome, wide in cases:
        chunk = _ts("apps/server/src/core/user/user.controller.ts", text, start, symbol)
        step = Step(1, Hit(chunk, 1.0, chunk.id), "", [], "", matches=matches_in(chunk, nestjs, intents(QUESTION)))
        assert step.matches and class_wide(step, outcome) is wide


NEW_SERVER = """func NewServer(ctx context.Context, profile *profile.Profile, store *store.Store) (*Server, error) {
	echoServer := echo.New()
	echoServer.Use(middleware.Recover())
	s.echoServer = echoServer

	// Register healthz endpoint.
	echoServer.GET("/healthz", func(c *echo.Context) error {
		return c.String(http.StatusOK, "Service ready.")
	})

	fileServerService := fileserver.NewFileServerService(s.Profile, s.Store, s.Secret)
	fileServerService.RegisterRoutes(echoServer)
	return s, nil
}"""
GATEWAY_PIECE = """	authorizer := NewAuthorizer(s.Store, s.Secret)

	gatewayAuthMiddleware := func(next runtime.HandlerFunc) runtime.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request, pathParams map[string]string) {
			authHeader := r.Header.Get("Authorization")
			result := authorizer.Authenticate(r.Context(), authHeader)
			if result != nil {
				r = r.WithContext(auth.ApplyToContext(r.Context(), result))
			}
			next(w, r, pathParams)
		}
	}

	gwMux := runtime.NewServeMux(runtime.WithMiddlewares(gatewayAuthMiddleware))"""
FALLBACK = """func spaFallbackMiddleware(frontendFS fs.FS) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c *echo.Context) error {
			err := next(c)
			return c.FileFS("index.html", frontendFS)
		}
	}
}"""
SERVE_FILE = """func (s *FileServerService) serveStaticFile(c *echo.Context, attachment *store.Attachment) error {
	switch attachment.StorageType {
	case storepb.AttachmentStorageType_LOCAL:
		http.ServeFile(c.Response(), c.Request(), s.resolveLocalPath(attachment.Reference))
	}
	return c.Blob(http.StatusOK, contentType, attachment.Blob)
}"""


def test_a_go_function_whose_request_is_a_literals_does_not_handle_the_request() -> None:
    """memos (Go, Echo): "`NewServer` (`server/server.go:39-94`) handles the request: `fileServerService.RegisterRoutes(
    echoServer)`" for the server's constructor, whose only request is the `/healthz` literal's; "`APIV1Service.
    RegisterGateway` (`v1.go:98-145`) handles the request" for a piece of it whose request is the middleware literal's.
    A middleware factory (its head returns ``echo.MiddlewareFunc``) and a handler (``c *echo.Context`` in its own head)
    still handle it."""
    from codeqa.answer.explanation.said.lead import LAYER_VERBS
    from codeqa.answer.explanation.said.roles_said import role_phrase

    def role(text: str, symbol: str, kind: str) -> str:
        return role_phrase(Chunk("server/server.go", "go", 39, 39 + text.count("\n"), text, symbol, kind, "api"),
                           LAYER_VERBS, "")  # fmt: skip

    assert role(NEW_SERVER, "NewServer", "function") == "is a function"
    assert role(GATEWAY_PIECE, "APIV1Service.RegisterGateway", "method") == "is a method"
    assert role(FALLBACK, "spaFallbackMiddleware", "function") == "handles the request"
    assert role(SERVE_FILE, "FileServerService.serveStaticFile", "method") == "handles the request"


def test_logging_out_is_no_question_about_logging() -> None:
    """docmost and memos, asked "What happens when a user logs out?", opened on the audit interceptors and on
    "`newLogger` sets up logging (where log records go)": "logs out" was read as the logging topic, as "logs in" is
    not. "Log output" and "logging" still are."""
    assert "logging" not in intents("What happens when a user logs out?")
    assert "logging" not in intents("How do I log off?")
    assert "logging" in intents("Where is the log output written?")
    assert "logging" in intents("Where would I add logging to track user behavior?")


BLOB_HEAD = """// SaveAttachmentBlob saves the blob of attachment based on the storage config.
func SaveAttachmentBlob(ctx context.Context, stores *store.Store, create *store.Attachment) error {"""
BLOB_LOCAL = """	instanceStorageSetting, err := stores.GetInstanceStorageSetting(ctx)
	if err != nil {
		return errors.Wrap(err, "Failed to find instance storage setting")
	}
	if err := os.WriteFile(osPath, create.Blob, 0644); err != nil {
		return errors.Wrap(err, "Failed to write file")
	}"""
BLOB_S3 = """	key, err := driver.UploadObject(ctx, filepathTemplate, create.Type, bytes.NewReader(create.Blob))
	if err != nil {
		return errors.Wrap(err, "failed to upload via storage driver")
	}
	return nil
}"""


def test_one_function_the_chunker_cut_apart_is_defined_once() -> None:
    """memos, asked "Who calls SaveAttachmentBlob?": "`SaveAttachmentBlob` is defined at in:" and then three
    definitions (``attachment_service_storage.go:50-50``, ``51-98``, ``99-130``), the pieces of one function."""
    from codeqa.answer.explanation.calls.graphqa import GraphAnswer, render_graph

    path = "server/router/api/v1/attachment_service_storage.go"
    pieces, start = [], 49
    for text in (BLOB_HEAD, BLOB_LOCAL, BLOB_S3):
        pieces.append(Chunk(path, "go", start, start + text.count("\n"), text, "SaveAttachmentBlob", "function", "api"))
        start += text.count("\n") + 1
    other = Chunk("store/attachment.go", "go", 10, 12, "func SaveAttachmentBlob() {\n\treturn\n}", "SaveAttachmentBlob",
                  "function", "model")  # fmt: skip
    shown = render_graph(GraphAnswer("definition", "SaveAttachmentBlob", [*pieces, other]))
    assert f"is defined at `{path}:49-{start - 1}` (function `SaveAttachmentBlob`)" in shown, shown
    assert "store/attachment.go:10-12" in shown and "defined at in" not in shown
    assert "`SaveAttachmentBlob` is defined in:" in render_graph(GraphAnswer("definition", "SaveAttachmentBlob", [
        pieces[0], other, replace(other, path="store/other.go")]))  # fmt: skip


MAIL = """@Injectable()
export class MailService {
  constructor(
    @Inject(MAIL_DRIVER_TOKEN) private mailDriver: MailDriver,
    private readonly environmentService: EnvironmentService,
  ) {}

  async sendEmail(message: MailMessage): Promise<void> {
    if (this.isRecipientBlocked(message.to)) {
      return;
    }

    if (message.template) {
      message.html = await render(message.template, {
        pretty: true,
      });
      message.text = await render(message.template, { plainText: true });
    }

    const from = this.environmentService.getMailFromAddress();
    await this.mailDriver.sendMail({ from, ...message });
  }
}"""


def test_an_email_body_rendered_onto_its_message_is_no_answer() -> None:
    """docmost, asked "Where are emails sent from?": "Then `MailService` answers with `message.html = await
    render(message.template, {…})` when `message.template`": the e-mail's body, rendered to be sent, said as the
    answer to a request. A field of the response (Koa's ``ctx.body = await render('page')``) still is one."""
    from codeqa.answer.explanation.said.told import kept_on_field

    path = "apps/server/src/integrations/mail/mail.service.ts"
    chunk = Chunk(path, "typescript", 11, 11 + MAIL.count("\n"), MAIL, "MailService", "class", "service")
    hits = [Hit(chunk, 1.0, chunk.id)]
    head = _ts(path, "import { Injectable, Inject } from '@nestjs/common';", 1, "", "module")
    context = AnswerContext.from_chunks([head, chunk], hits)
    answer = extractive_answer("Where are emails sent from?", hits, context=context)
    assert "answers with" not in answer, answer.split("\n")[0]
    assert kept_on_field("message.html = await render(message.template, {")
    assert not kept_on_field("ctx.body = await render('page', { user })")
    assert not kept_on_field("res.statusCode = 404;") and not kept_on_field("response = render(request, 'a.html')")
