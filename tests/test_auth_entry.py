"""Auth answers open on the main sign-in path, not a side path (issue #35): the code the app routes its sign-in URL
to opens "how does user authentication flow through the system?", though a side way of signing in (a header set by a
proxy, an admin acting as a user, a default REST authentication class, an outside account) holds as many of the
framework's auth constructs. A question that names the side way is still answered by it.

One small real app per class of side path, each indexed by the real pipeline (tree-sitter, Chroma, the packaged
embedding model): Django (a remote-user header backend beside the login view), Flask (admin impersonation beside the
login handler), Django REST framework (a vendored Basic authentication class beside the routed auth viewset) and
Laravel (a social-login action beside the Fortify registration).
"""

from __future__ import annotations

import re

from codeqa.answer.rendering.citations import check_citations
from codeqa.config import Settings
from tests.helpers import ask_named

FLOW = "How does user authentication flow through the system?"

DJANGO_APP: dict[str, str] = {
    "requirements.txt": "Django==5.0\n",
    "manage.py": "import os\nimport sys\n\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'portal.settings')\n",
    "portal/settings.py": """INSTALLED_APPS = ['django.contrib.auth', 'django.contrib.sessions', 'account']
MIDDLEWARE = [
    'django.contrib.sessions.middleware.SessionMiddleware',
    'django.contrib.auth.middleware.AuthenticationMiddleware',
    'portal.middleware.RemoteUserMiddleware',
]
AUTHENTICATION_BACKENDS = [
    'portal.authentication.RemoteUserBackend',
    'django.contrib.auth.backends.ModelBackend',
]
REMOTE_AUTH_HEADER = 'HTTP_REMOTE_USER'
REMOTE_AUTH_ENABLED = False
REMOTE_AUTH_DEFAULT_STAFF = False
""",
    "portal/urls.py": """from django.urls import path

from account.views import LoginView, LogoutView

urlpatterns = [
    path('login/', LoginView.as_view(), name='login'),
    path('logout/', LogoutView.as_view(), name='logout'),
]
""",
    "portal/authentication.py": '''"""User authentication through the system's proxy: a remote user flows in."""
import logging

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import RemoteUserBackend as _RemoteUserBackend


class RemoteUserBackend(_RemoteUserBackend):
    """User authentication for a remote user: authenticate the user the header names, creating the user."""

    def authenticate(self, request, remote_user):
        logger = logging.getLogger('portal.auth.RemoteUserBackend')
        logger.debug(f"trying to authenticate user {remote_user} through the system's proxy")
        if not remote_user:
            return None
        username = self.clean_username(remote_user)
        user_model = get_user_model()
        user, created = user_model.objects.get_or_create(username=username)
        if created:
            logger.info(f"created user {username} for the remote user authentication flow")
            user = self.configure_user(request, user)
        if self.user_can_authenticate(user):
            return user
        return None

    def configure_user(self, request, user):
        """Give a remote user authenticated through the system its default groups."""
        logger = logging.getLogger('portal.auth.RemoteUserBackend')
        user.is_staff = settings.REMOTE_AUTH_DEFAULT_STAFF
        user.save()
        logger.debug(f"configured user {user} after authentication")
        return user
''',
    "portal/middleware.py": '''"""Authenticate users through the header a front-end proxy sets."""
from django.conf import settings
from django.contrib import auth
from django.contrib.auth.middleware import RemoteUserMiddleware as _RemoteUserMiddleware


class RemoteUserMiddleware(_RemoteUserMiddleware):
    def __call__(self, request):
        if not settings.REMOTE_AUTH_ENABLED:
            return self.get_response(request)
        remote_user = request.META.get(settings.REMOTE_AUTH_HEADER)
        if remote_user and not request.user.is_authenticated:
            user = auth.authenticate(request, remote_user=remote_user)
            if user:
                request.user = user
                auth.login(request, user)
        return self.get_response(request)
''',
    "account/__init__.py": "",
    "account/forms.py": """from django.contrib.auth.forms import AuthenticationForm


class LoginForm(AuthenticationForm):
    pass
""",
    "account/views.py": '''"""The login and logout pages."""
import logging

from django.contrib.auth import login as auth_login
from django.contrib.auth import logout as auth_logout
from django.shortcuts import redirect, render
from django.views.generic import View

from account.forms import LoginForm


class LoginView(View):
    """The login page: a username and a password."""

    template_name = 'login.html'

    def get(self, request):
        return render(request, self.template_name, {'form': LoginForm(request)})

    def post(self, request):
        form = LoginForm(request, data=request.POST)
        if form.is_valid():
            auth_login(request, form.get_user())
            return redirect('/')
        return render(request, self.template_name, {'form': form})


class LogoutView(View):
    def get(self, request):
        auth_logout(request)
        return redirect('login')
''',
}

FLASK_APP: dict[str, str] = {
    "requirements.txt": "flask==3.0.0\nflask-multipass==0.5\n",
    "meetings/__init__.py": '''"""The meetings application."""
from flask import Flask


def create_app():
    app = Flask(__name__)
    from meetings.auth.blueprint import bp

    app.register_blueprint(bp)
    return app
''',
    "meetings/auth/__init__.py": '''"""Signing users in: the session holds who they are."""
from flask import session

from meetings.auth.models import User


def login_user(user, identity=None, admin_impersonation=False):
    """Set the session user and perform on-login logic."""
    session.set_session_user(user)
    if not admin_impersonation:
        session['login_identity'] = identity.id if identity else None
        user.register_login()


def process_identity(identity_info):
    """Find the user an identity from the login form belongs to and sign them in."""
    user = User.find_by_identity(identity_info.provider, identity_info.identifier)
    if user is None:
        return None
    login_user(user, identity_info)
    return user
''',
    "meetings/auth/models.py": """class User:
    @classmethod
    def find_by_identity(cls, provider, identifier):
        return None

    def register_login(self):
        pass

    def get_full_name(self):
        return ''
""",
    "meetings/auth/blueprint.py": """from flask import Blueprint

from meetings.auth.controllers import RHAdminImpersonate, RHLogin, RHLogout

bp = Blueprint('auth', __name__)
bp.add_url_rule('/login/', 'login', RHLogin, methods=('GET', 'POST'))
bp.add_url_rule('/logout/', 'logout', RHLogout)
bp.add_url_rule('/admin/users/impersonate', 'impersonate', RHAdminImpersonate, methods=('POST',))
""",
    "meetings/auth/controllers.py": '''from flask import redirect, render_template, request, session

from meetings.auth import process_identity
from meetings.auth.util import impersonate_user, multipass


def RHLogin():
    """The login page: the form's identity provider checks the password."""
    if request.method == 'POST':
        identity_info = multipass.handle_login_form(request.form)
        if identity_info is not None:
            process_identity(identity_info)
            return redirect('/')
    return render_template('auth/login.html')


def RHLogout():
    session.clear()
    return redirect('/')


def RHAdminImpersonate():
    user = multipass.lookup_user(request.form['user_id'])
    impersonate_user(user)
    return redirect('/')
''',
    "meetings/auth/util.py": '''from flask import session
from flask_multipass import Multipass

from meetings.auth import login_user

multipass = Multipass()


def impersonate_user(user):
    """Impersonate another user as an admin."""
    current_user = session.user
    if 'login_as_orig_user' not in session:
        session['login_as_orig_user'] = {
            'user_id': current_user.id,
            'user_name': current_user.get_full_name(),
        }
    login_user(user, admin_impersonation=True)
''',
}

DRF_APP: dict[str, str] = {
    "requirements.txt": "Django==4.2\ndjangorestframework==3.14\n",
    "settings/common.py": """INSTALLED_APPS = ['django.contrib.auth', 'rest_framework', 'board.auth']
REST_FRAMEWORK = {
    'DEFAULT_AUTHENTICATION_CLASSES': (
        'board.auth.authentication.JWTAuthentication',
    ),
}
""",
    "board/routers.py": """from board.base.api.routers import DefaultRouter
from board.auth.api import AuthViewSet

router = DefaultRouter(trailing_slash=False)
router.register(r"auth", AuthViewSet, base_name="auth")
""",
    "board/base/api/routers.py": '''class DefaultRouter:
    """Routes URLs to viewsets."""

    def __init__(self, trailing_slash=True):
        self.registry = []

    def register(self, prefix, viewset, base_name=None):
        self.registry.append((prefix, viewset, base_name))
''',
    "board/base/api/authentication.py": '''"""The REST framework's authentication classes, vendored."""
import base64

from django.contrib.auth import authenticate

from board.base import exceptions


def get_authorization_header(request):
    """Return the request's 'Authorization:' header, as a bytestring."""
    return request.META.get('HTTP_AUTHORIZATION', b'')


class BaseAuthentication:
    """All authentication classes extend BaseAuthentication."""

    def authenticate(self, request):
        raise NotImplementedError(".authenticate() must be overridden.")


class BasicAuthentication(BaseAuthentication):
    """HTTP Basic user authentication against a username and password."""

    www_authenticate_realm = 'api'

    def authenticate(self, request):
        auth = get_authorization_header(request).split()
        if not auth or auth[0].lower() != b'basic':
            return None
        if len(auth) != 2:
            raise exceptions.AuthenticationFailed('Invalid basic header.')
        userid, _, password = base64.b64decode(auth[1]).decode().partition(':')
        return self.authenticate_credentials(userid, password)

    def authenticate_credentials(self, userid, password):
        user = authenticate(username=userid, password=password)
        if user is None or not user.is_active:
            raise exceptions.AuthenticationFailed('Invalid username/password')
        return (user, None)
''',
    "board/base/exceptions.py": """class AuthenticationFailed(Exception):
    status_code = 401
""",
    "board/auth/__init__.py": "",
    "board/auth/api.py": """from django.conf import settings

from board.auth.permissions import AuthPermission
from board.auth.services import (
    change_password,
    get_token,
    refresh_token,
    register_user,
    send_recovery_email,
    verify_token,
)
from board.auth.throttling import LoginFailRateThrottle, RegisterSuccessRateThrottle
from board.base import exceptions, response


class AuthViewSet:
    permission_classes = (AuthPermission,)
    throttle_classes = (LoginFailRateThrottle, RegisterSuccessRateThrottle)
    authentication_classes = ()
    www_authenticate_realm = 'api'

    def get_authenticate_header(self, request):
        return 'Bearer realm="{0}"'.format(self.www_authenticate_realm)

    # Login view: /api/v1/auth
    def create(self, request, **kwargs):
        self.check_permissions(request, 'get_token', None)
        login_type = request.DATA.get("type", "").lower()
        if login_type != "normal":
            raise exceptions.AuthenticationFailed("Unknown login type")
        data = get_token(request.DATA)
        invitation = request.DATA.get("invitation_token", None)
        if invitation:
            data["invited"] = True
        return response.Ok(data)

    # Refresh token view: /api/v1/auth/refresh
    def refresh(self, request, **kwargs):
        self.check_permissions(request, 'refresh_token', None)
        data = refresh_token(request.DATA)
        return response.Ok(data)

    # Validate token view: /api/v1/auth/verify
    def verify(self, request, **kwargs):
        if not settings.DEBUG:
            raise exceptions.AuthenticationFailed("Only in debug mode")
        self.check_permissions(request, 'verify_token', None)
        data = verify_token(request.DATA)
        return response.Ok(data)

    # Register view: /api/v1/auth/register
    def register(self, request, **kwargs):
        if not settings.PUBLIC_REGISTER_ENABLED:
            raise exceptions.AuthenticationFailed("Registration is disabled")
        self.check_permissions(request, 'register', None)
        user = register_user(request.DATA)
        return response.Ok({"id": user.id})

    # Password recovery view: /api/v1/auth/password_recovery
    def password_recovery(self, request, **kwargs):
        self.check_permissions(request, 'password_recovery', None)
        username_or_email = request.DATA.get("username", None)
        if not username_or_email:
            raise exceptions.AuthenticationFailed("Invalid username or email")
        send_recovery_email(username_or_email)
        return response.Ok({"detail": "Mail sent successfully!"})

    # Change password view: /api/v1/auth/change_password_from_recovery
    def change_password_from_recovery(self, request, **kwargs):
        self.check_permissions(request, 'change_password_from_recovery', None)
        token = request.DATA.get("token", None)
        password = request.DATA.get("password", None)
        if not token or not password:
            raise exceptions.AuthenticationFailed("Token and password are required")
        change_password(token, password)
        return response.Ok({"detail": "Password changed"})
""",
    "board/auth/services.py": '''from django.contrib.auth import get_user_model

from board.auth.tokens import make_token
from board.base import exceptions


def get_token(data):
    """Check a username and a password and give the user a token."""
    user = get_user_model().objects.filter(username=data.get("username")).first()
    if user is None or not user.check_password(data.get("password")):
        raise exceptions.AuthenticationFailed("Username or password does not match")
    return {"id": user.id, "auth_token": make_token(user)}


def refresh_token(data):
    return {"auth_token": data.get("refresh")}


def verify_token(data):
    return {"valid": bool(data.get("token"))}


def register_user(data):
    return get_user_model().objects.create_user(username=data.get("username"), password=data.get("password"))


def send_recovery_email(username_or_email):
    return username_or_email


def change_password(token, password):
    return bool(token and password)
''',
    "board/auth/permissions.py": """class AuthPermission:
    def has_permission(self, request, view):
        return True
""",
    "board/auth/throttling.py": """class LoginFailRateThrottle:
    rate = "10/minute"


class RegisterSuccessRateThrottle:
    rate = "5/minute"
""",
    "board/auth/tokens.py": """def make_token(user):
    return f"token-{user.id}"
""",
    "board/auth/authentication.py": """from board.base.api.authentication import (
    BaseAuthentication,
    get_authorization_header,
)


class JWTAuthentication(BaseAuthentication):
    def authenticate(self, request):
        header = get_authorization_header(request)
        return None if not header else (header, None)
""",
    "board/base/response.py": """class Ok(dict):
    status_code = 200
""",
}

LARAVEL_APP: dict[str, str] = {
    "composer.json": '{"require": {"laravel/framework": "^10.0", "laravel/fortify": "^1.0", '
    '"laravel/socialite": "^5.0"}}\n',
    "app/Providers/FortifyServiceProvider.php": """<?php

namespace App\\Providers;

use App\\Http\\Controllers\\Auth\\LoginController;
use Illuminate\\Support\\ServiceProvider;
use Laravel\\Fortify\\Fortify;

class FortifyServiceProvider extends ServiceProvider
{
    public function boot(): void
    {
        Fortify::loginView(fn ($request) => (new LoginController)($request));
        Fortify::authenticateThrough(fn () => [
            \\Laravel\\Fortify\\Actions\\AttemptToAuthenticate::class,
            \\Laravel\\Fortify\\Actions\\PrepareAuthenticatedSession::class,
        ]);
    }
}
""",
    "app/Http/Controllers/Auth/LoginController.php": """<?php

namespace App\\Http\\Controllers\\Auth;

use Inertia\\Inertia;

class LoginController
{
    public function __invoke($request)
    {
        return Inertia::render('Auth/Login', ['status' => session('status')]);
    }
}
""",
    "app/Actions/AttemptToAuthenticateSocialite.php": """<?php

namespace App\\Actions;

use App\\Models\\User;
use Illuminate\\Http\\Request;
use Illuminate\\Support\\Facades\\Auth;
use Illuminate\\Validation\\ValidationException;

class AttemptToAuthenticateSocialite
{
    /**
     * Handle the incoming request: authenticate the user through the system's social login flow.
     */
    public function handle(Request $request, callable $next)
    {
        $user = $this->authenticateUser($request, $request->route()->parameter('driver'));
        Auth::login($user, true);

        return $next($request);
    }

    private function authenticateUser(Request $request, string $driver): User
    {
        if (($userId = Auth::id()) && $userId !== $request->user()->id) {
            $message = 'This provider is already associated with another user';
            $this->throwFailedAuthenticationException($request, $driver, $message);
        }

        return Auth::user() ?? User::firstOrCreate(['email' => $request->input('email')]);
    }

    private function throwFailedAuthenticationException(Request $request, string $driver, string $message): void
    {
        throw ValidationException::withMessages([$driver => [$message]]);
    }
}
""",
    "app/Models/User.php": """<?php

namespace App\\Models;

use Illuminate\\Foundation\\Auth\\User as Authenticatable;

class User extends Authenticatable
{
    protected $fillable = ['email'];
}
""",
    "routes/web.php": """<?php

use App\\Actions\\AttemptToAuthenticateSocialite;
use Illuminate\\Support\\Facades\\Route;

Route::get('auth/{driver}/callback', AttemptToAuthenticateSocialite::class)->name('login.callback');
Route::middleware(['auth'])->group(function () {
    Route::get('/', fn () => view('home'))->name('home');
});
""",
}

INDEXED_APPS = {
    "portal": DJANGO_APP,
    "meetings": FLASK_APP,
    "board": DRF_APP,
    "crm": LARAVEL_APP,
}  # indexed once by apps_home (tests/conftest.py)


def answer(apps_settings: Settings, name: str, question: str) -> str:
    result = ask_named(name, question, apps_settings, backend="none").result()
    assert not result.generated and check_citations(result.text, result.sources).invalid == []
    return result.text


def opening_file(text: str) -> str:
    """The file the answer's first sentence cites first."""
    found = re.search(r"`([\w./-]+\.\w+):\d+(?:-\d+)?`", text)
    assert found, text
    return found.group(1)


def test_a_django_login_view_opens_not_the_remote_user_header_backend(apps_settings: Settings) -> None:
    text = answer(apps_settings, "portal", FLOW)
    assert opening_file(text) == "account/views.py", text
    assert "`LoginView" in text.split("\n")[0]
    header = answer(apps_settings, "portal", "Where does the app trust a header set by a front-end proxy?")
    assert opening_file(header) != "account/views.py", header  # a question naming the side way is answered by it


def test_a_flask_login_handler_opens_not_the_admin_impersonation(apps_settings: Settings) -> None:
    text = answer(apps_settings, "meetings", FLOW)
    assert opening_file(text) == "meetings/auth/controllers.py", text
    first = text.split("\n")[0]
    assert "`RHLogin`" in first and first.index("`RHLogin`") < first.find("impersonate_user") % len(first), first
    # the opening says why it starts there, citing the app's own route line (a source of the answer: `answer` checks)
    route = "is where the app routes its sign-in URL: `bp.add_url_rule('/login/', 'login', RHLogin, methods=('GET', "
    assert route in first and "(`meetings/auth/blueprint.py:6`)" in first, first


def test_a_routed_auth_viewset_opens_not_a_vendored_default_authentication_class(apps_settings: Settings) -> None:
    text = answer(apps_settings, "board", FLOW)
    assert opening_file(text) == "board/auth/api.py", text
    # the viewset is read method by method: its login view opens, not its head of permission and throttle classes
    assert "`AuthViewSet.create`" in text.split("\n")[0], text
    assert "`AuthViewSet:`" not in text, text  # Python's ``class AuthViewSet:`` names the class without its colon


def test_the_fortify_registration_opens_not_the_social_login_action(apps_settings: Settings) -> None:
    text = answer(apps_settings, "crm", FLOW)
    assert opening_file(text) == "app/Providers/FortifyServiceProvider.php", text
    social = answer(
        apps_settings,
        "crm",
        "Can people sign in with an outside account, and what if it is already tied to another user?",
    )
    assert opening_file(social) == "app/Actions/AttemptToAuthenticateSocialite.php", social
