"""Calls through a declared receiver (issue #35, class 2): ``$this->auth->logUserIn()`` where the controller
declares ``private readonly AuthenticationService $auth`` is a call to that class's method, from the file the
controller imports it from — not to a namesake class elsewhere, and not refused because other classes define a
method of the same name. PHP (constructor promotion), TypeScript (a constructor parameter property) and Java (a
field) are checked by name only (no resolver), so the declared type is what tells the classes apart.

The app: a Laravel controller signs a user in through ``App\\Services\\Auth\\AuthenticationService``, which issues
a token; a second ``AuthenticationService`` (a music API's, in ``App\\Services\\Subsonic``) defines the same
method names.
"""

from __future__ import annotations

import re

import pytest

from codeqa.answer.explanation.calls.byname import holds_by_name, typed_receiver
from codeqa.answer.explanation.calls.declared import declared_types
from codeqa.answer.explanation.calls.flow import Use
from codeqa.answer.rendering.citations import check_citations
from codeqa.config import Settings
from codeqa.records import Chunk
from tests.helpers import ask_named

CONTROLLER = """<?php

namespace App\\Http\\Controllers\\Auth;

use App\\Http\\Controllers\\Controller;
use App\\Services\\Auth\\AuthenticationService;
use Illuminate\\Http\\Request;

class LoginController extends Controller
{
    public function __construct(private readonly AuthenticationService $auth)
    {
    }

    public function __invoke(Request $request)
    {
        $user = $this->auth->authenticate($request->email, $request->password);

        return response()->json($this->auth->logUserIn($user)->toArray());
    }
}
"""

TOKENS_APP: dict[str, str] = {
    "composer.json": '{"require": {"laravel/framework": "^11.0"}, "autoload": {"psr-4": {"App\\\\": "app/"}}}\n',
    "routes/api.php": """<?php

use App\\Http\\Controllers\\Auth\\LoginController;
use Illuminate\\Support\\Facades\\Route;

Route::post('login', LoginController::class)->name('auth.login');
""",
    "app/Http/Controllers/Controller.php": """<?php

namespace App\\Http\\Controllers;

abstract class Controller
{
}
""",
    "app/Http/Controllers/Auth/LoginController.php": CONTROLLER,
    "app/Services/Auth/AuthenticationService.php": """<?php

namespace App\\Services\\Auth;

use App\\Models\\User;
use App\\Services\\TokenManager;
use Illuminate\\Support\\Facades\\Hash;

/**
 * Signs users in and out: checks their credentials, issues the token the client sends back with every request,
 * and sends the links that reset a forgotten password.
 */
class AuthenticationService
{
    public function __construct(private readonly TokenManager $tokenManager, private readonly PasswordBroker $broker)
    {
    }

    /**
     * The user with this email and password; an AuthenticationException when there is none or the password is
     * wrong. A password stored with an outdated hash is hashed again while we have it in clear.
     */
    public function authenticate(string $email, string $password): User
    {
        $user = User::where('email', $email)->first();
        throw_unless($user && Hash::check($password, $user->password), AuthenticationException::class);

        return $user;
    }

    /**
     * Issues the composite token (an API token and an audio token) the client keeps for the session.
     */
    public function logUserIn(User $user): CompositeToken
    {
        return $this->tokenManager->createCompositeToken($user);
    }

    /**
     * Signs in with a one-time token sent by email: the token is used up, then the user gets a composite token
     * like after a password sign-in.
     */
    public function loginViaOneTimeToken(string $token): CompositeToken
    {
        $user = User::where('one_time_token', hash('sha256', $token))->firstOrFail();
        $user->update(['one_time_token' => null]);

        return $this->logUserIn($user);
    }

    /**
     * Revokes the token the client signed in with.
     */
    public function logoutViaBearerToken(string $token): void
    {
        $this->tokenManager->deleteCompositeToken($token);
    }

    /**
     * Sends a link to reset the password; false when the broker could not send it.
     */
    public function sendResetPasswordLink(string $email): bool
    {
        return $this->broker->sendResetLink(['email' => $email]) === PasswordBroker::RESET_LINK_SENT;
    }
}
""",
    "app/Services/Subsonic/AuthenticationService.php": """<?php

namespace App\\Services\\Subsonic;

use App\\Models\\User;

class AuthenticationService
{
    public function authenticate(string $username, string $token): User
    {
        return User::where('name', $username)->firstOrFail();
    }

    public function logUserIn(User $user): User
    {
        return $user;
    }
}
""",
    "app/Services/TokenManager.php": """<?php

namespace App\\Services;

use App\\Models\\User;

class TokenManager
{
    public function createCompositeToken(User $user): CompositeToken
    {
        return new CompositeToken($user->createToken('api')->plainTextToken);
    }
}
""",
    "app/Models/User.php": """<?php

namespace App\\Models;

use Illuminate\\Foundation\\Auth\\User as Authenticatable;

class User extends Authenticatable
{
    protected $hidden = ['password'];
}
""",
}

INDEXED_APPS = {"tokens": TOKENS_APP}  # indexed once by apps_home (tests/conftest.py)


def _chunk(path: str, language: str, symbol: str, text: str) -> Chunk:
    return Chunk(path, language, 1, text.count("\n") + 1, text, symbol, "method", "service")


@pytest.mark.parametrize(
    ("language", "receiver", "text", "expected"),
    [
        (
            "php",
            "auth",
            "public function __construct(private readonly AuthenticationService $auth) {}",
            {"AuthenticationService"},
        ),  # fmt: skip
        ("php", "users", "protected ?\\App\\Repositories\\UserRepository $users;", {"UserRepository"}),
        ("php", "auth", "public function show(Request $request) { $auth = app('auth'); }", set()),
        ("typescript", "authService", "constructor(private readonly authService: AuthService) {}", {"AuthService"}),
        ("typescript", "config", "constructor(private config: ConfigService<AllConfig>) {}", {"ConfigService"}),
        ("typescript", "items", "items: Item[] = [];", set()),  # an array of them is no Item
        ("typescript", "either", "either: Cat | Dog;", set()),
        ("java", "userService", "private final UserService userService;", {"UserService"}),
        ("java", "users", "private final List<User> users;", set()),
        ("ruby", "auth", "def initialize(auth)", set()),  # Ruby declares no types
        ("go", "s", "func (s *Server) errorHandler(err error, ctx echo.Context) {", {"Server"}),  # a receiver
        ("go", "store", "type handler struct {\n\tstore  *storage.Storage\n}", {"Storage"}),  # a field
        ("go", "pool", "func New(store *storage.Storage, pool *worker.Pool) *handler {", {"Pool"}),  # a parameter
        ("go", "h", "\th := &handler{store: store}", {"handler"}),  # unexported
        ("go", "user", "\tuser, err := h.store.UserByID(id)", set()),  # a result says no type here
    ],
)
def test_a_receiver_is_declared_as_its_class(language: str, receiver: str, text: str, expected: set[str]) -> None:
    assert declared_types(receiver, language, text) == expected


def test_a_declared_receiver_tells_two_namesake_classes_apart() -> None:
    line = "$user = $this->auth->authenticate($request->email, $request->password);"
    caller = _chunk("app/Http/Controllers/Auth/LoginController.php", "php", "LoginController.__invoke", line)
    use = Use("authenticate", 1, "calls", line)
    for path, holds in (("app/Services/Auth/AuthenticationService.php", True),
                        ("app/Services/Subsonic/AuthenticationService.php", False)):  # fmt: skip
        text = TOKENS_APP[path].split("class AuthenticationService", 1)[1]
        callee = _chunk(path, "php", "AuthenticationService.authenticate", "class AuthenticationService" + text)
        assert holds_by_name(caller, callee, use, CONTROLLER) is holds, path
        assert typed_receiver(caller, callee, use, CONTROLLER) is holds, path
    undeclared = CONTROLLER.replace("private readonly AuthenticationService $auth", "private $auth")
    callee = _chunk("app/Services/Auth/AuthenticationService.php", "php", "AuthenticationService.authenticate",
                    TOKENS_APP["app/Services/Auth/AuthenticationService.php"])  # fmt: skip
    assert not holds_by_name(caller, callee, use, undeclared)  # `auth` alone names no class


def test_typescript_and_java_receivers_follow_the_import() -> None:
    ts_file = (
        "import { AuthService } from './auth.service';\n\nexport class AuthController {\n"
        "  constructor(private readonly authService: AuthService) {}\n}\n"
    )
    line = "return this.authService.login(dto);"
    caller = _chunk("src/auth/auth.controller.ts", "typescript", "AuthController.login", line)
    for path, holds in (("src/auth/auth.service.ts", True), ("src/admin/auth.service.ts", False)):
        callee = _chunk(path, "typescript", "AuthService.login", "export class AuthService {\n  async login(dto) {")
        assert typed_receiver(caller, callee, Use("login", 1, "calls", line), ts_file) is holds, path
    java_file = (
        "package com.acme.web;\n\nimport com.acme.service.UserService;\n\npublic class UserResource {\n"
        "    private final UserService userService;\n}\n"
    )
    line = "return userService.findOne(id);"
    caller = _chunk("src/main/java/com/acme/web/UserResource.java", "java", "UserResource.get", line)
    for path, holds in (("src/main/java/com/acme/service/UserService.java", True),
                        ("src/main/java/com/acme/admin/UserService.java", False)):  # fmt: skip
        callee = _chunk(
            path, "java", "UserService.findOne", "public class UserService {\n  public User findOne(Long id) {"
        )
        assert typed_receiver(caller, callee, Use("findOne", 1, "calls", line), java_file) is holds, path


def test_go_receivers_follow_the_package_the_file_imports() -> None:
    go_file = (
        'package api\n\nimport (\n\t"net/http"\n\n\t"miniflux.app/v2/internal/storage"\n)\n\n'
        "type handler struct {\n\tstore *storage.Storage\n}\n\n"
        "func (h *handler) getUser(w http.ResponseWriter, r *http.Request) {\n"
        "\tuser, err := h.store.UserByID(1)\n\th.writeUser(w, user)\n}\n"
    )
    caller = _chunk("internal/api/user.go", "go", "handler.getUser", go_file)
    line = "user, err := h.store.UserByID(1)"
    for path, holds in (("internal/storage/user.go", True), ("internal/legacy/storage/user.go", False)):
        callee = _chunk(
            path, "go", "Storage.UserByID", "func (s *Storage) UserByID(userID int64) (*model.User, error) {"
        )
        assert typed_receiver(caller, callee, Use("UserByID", 1, "calls", line), go_file) is holds, path
    own = "h.writeUser(w, user)"  # the method's own receiver: a method of the same type, in the same package
    for path, holds in (("internal/api/response.go", True), ("internal/ui/response.go", False)):
        callee = _chunk(path, "go", "handler.writeUser", "func (h *handler) writeUser(w http.ResponseWriter, u any) {")
        assert holds_by_name(caller, callee, Use("writeUser", 1, "calls", own), go_file) is holds, path


def test_go_package_calls_follow_the_import_and_a_bare_call_is_never_a_method() -> None:
    go_file = (
        'package auth\n\nimport (\n\t"errors"\n\n\t"github.com/acme/gists/internal/db"\n)\n\n'
        "func TryAuthentication(username, password string) (*db.User, error) {\n"
        "\tuser, err := db.GetUserByUsername(username)\n\treturn user, err\n}\n"
    )
    caller = _chunk("internal/auth/try_login.go", "go", "TryAuthentication", go_file)
    line = "user, err := db.GetUserByUsername(username)"
    for path, holds in (("internal/db/user.go", True), ("internal/legacy/db/user.go", False)):
        callee = _chunk(path, "go", "GetUserByUsername", "func GetUserByUsername(username string) (*User, error) {")
        use = Use("GetUserByUsername", 1, "calls", line)
        assert holds_by_name(caller, callee, use, go_file) is holds, path
        assert typed_receiver(caller, callee, use, go_file) is holds, path
    chained = "\t\tCreate(&ActionLock{Action: action}).Error; err != nil {"  # gorm's, its receiver a line above
    locks = _chunk("internal/db/action_lock.go", "go", "AcquireLock", "func AcquireLock() {\n" + chained)
    method = _chunk("internal/db/gist.go", "go", "Gist.Create", "func (gist *Gist) Create() error {")
    assert not holds_by_name(locks, method, Use("Create", 2, "calls", chained), locks.text)


def test_a_sign_in_flow_through_an_injected_service_ends_where_the_token_is_issued(apps_settings: Settings) -> None:
    result = ask_named("tokens", "How does user authentication flow through the system?", apps_settings,
                       backend="none").result()  # fmt: skip
    text = result.text
    assert not result.generated and check_citations(text, result.sources).invalid == []
    steps = [line for line in text.split("\n") if re.match(r"^\d\. ", line)]
    assert steps and steps[0].startswith(
        "1. `LoginController` (`app/Http/Controllers/Auth/LoginController.php:9-21`) calls `logUserIn`"
    ), text
    assert steps[0].endswith("at `app/Http/Controllers/Auth/LoginController.php:19`."), steps  # resolved: no caveat
    assert steps[-1].startswith("2. `logUserIn` (`app/Services/Auth/AuthenticationService.php:"), steps
    assert "issues a token: `return $this->tokenManager->createCompositeToken($user);`" in steps[-1], steps
    assert "Subsonic" not in "\n".join(steps)  # the namesake class is no step
