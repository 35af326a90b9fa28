"""Issue 17's class 4, near misses, on a small real repository indexed by the real pipeline: the file that
defines what the question describes competes with a hub (a package ``__init__.py`` that re-exports it) and a caller
(the module that starts the flow); the definer must come first, the other two right behind it.

The first stage alone (a second stage that weighs only the ``stage1`` score) put the ``__init__.py`` first when
this test was written; since the ranker was refitted on 80 repositories it puts the definer first as well. A CLI
commands module whose help texts describe each command still beats the modules that implement them (bench/README,
"multi-language"): no test pins that, since neither stage gets it right.
"""

from __future__ import annotations

import pytest

from codeqa.config import Settings
from codeqa.retrieve.ranker import Later, default_later
from codeqa.retrieve.rerank import Reranker
from tests.conftest import init_repo
from tests.helpers import build_index, retrieve_named

MAILER = {
    "mailer/__init__.py": '"""Email for the app: welcome messages, password reset links and receipts, '
    + 'rendered and delivered."""\n'
    + """
from mailer.delivery import deliver
from mailer.receipts import receipt_email
from mailer.reset import password_reset_email
from mailer.welcome import welcome_email

__all__ = ["deliver", "password_reset_email", "receipt_email", "welcome_email"]
""",
    "mailer/reset.py": '''"""The password reset message."""

import secrets
from datetime import datetime, timedelta, timezone

from mailer.message import Message

RESET_TTL = timedelta(hours=1)


def password_reset_email(user, base_url):
    token = secrets.token_urlsafe(32)
    expires = datetime.now(timezone.utc) + RESET_TTL
    user.reset_token, user.reset_expires = token, expires
    link = f"{base_url}/reset?token={token}"
    body = f"Hi {user.name},\\n\\nOpen {link} to choose a new password. It stops working at {expires:%H:%M} UTC."
    return Message(to=user.email, subject="Reset your password", body=body)
''',
    "mailer/welcome.py": """from mailer.message import Message


def welcome_email(user):
    body = f"Welcome aboard, {user.name}! Your account is ready."
    return Message(to=user.email, subject="Welcome", body=body)
""",
    "mailer/receipts.py": """from mailer.message import Message


def receipt_email(order):
    lines = "\\n".join(f"{item.name}: {item.price:.2f}" for item in order.items)
    return Message(to=order.email, subject=f"Receipt for order {order.number}", body=lines)
""",
    "mailer/message.py": """from dataclasses import dataclass


@dataclass(frozen=True)
class Message:
    to: str
    subject: str
    body: str
""",
    "mailer/delivery.py": """import smtplib


def deliver(message, host="localhost", attempts=3):
    for attempt in range(attempts):
        try:
            with smtplib.SMTP(host) as smtp:
                smtp.sendmail("noreply@example.com", [message.to], f"Subject: {message.subject}\\n\\n{message.body}")
            return True
        except OSError:
            if attempt == attempts - 1:
                raise
    return False
""",
    "app/core.py": '''"""The application: accounts, orders and the emails they send."""

from mailer import deliver, password_reset_email, receipt_email, welcome_email


class App:
    def __init__(self, users, orders, base_url):
        self.users, self.orders, self.base_url = users, orders, base_url

    def sign_up(self, name, email):
        user = self.users.create(name=name, email=email)
        deliver(welcome_email(user))
        return user

    def forgot_password(self, email):
        user = self.users.find(email=email)
        if user is not None:
            deliver(password_reset_email(user, self.base_url))
            self.users.save(user)

    def checkout(self, cart):
        order = self.orders.place(cart)
        deliver(receipt_email(order))
        return order
''',
}

FIRST_STAGE_ONLY = Later(Reranker({"stage1": 1.0}), default_later().chunks)


@pytest.fixture(scope="module")
def mailer(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    base = tmp_path_factory.mktemp("near-misses")
    settings = Settings(home=base / "home")
    build_index(str(init_repo(base / "mailer", MAILER)), settings, name="mailer")
    return settings


def _paths(question: str, settings: Settings, **options: object) -> list[str]:
    return [f.path for f in retrieve_named("mailer", question, settings, **options).files]


def test_the_module_that_defines_it_comes_before_the_init_that_re_exports_it(mailer: Settings):
    question = "how does a user get an email to choose a new password?"
    # the near misses, the hub that names every function and the caller that starts the flow, follow it
    paths = _paths(question, mailer)
    assert paths[0] == "mailer/reset.py" and set(paths[1:3]) == {"mailer/__init__.py", "app/core.py"}, paths[:3]
    # the first stage alone used to put the __init__ first; since the refit on 80 repositories it does not
    assert _paths(question, mailer, later=FIRST_STAGE_ONLY)[0] == "mailer/reset.py"
