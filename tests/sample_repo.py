"""A small but realistic multi-language repository used by the end-to-end tests."""

SAMPLE_FILES: dict[str, str] = {
    "README.md": (
        "# Shop\n\nA tiny web shop.\n\n## Running\n\nStart the server with `python -m shop`.\n\n"
        "## Configuration\n\nSettings are read from environment variables.\n"
    ),
    "shop/__init__.py": '"""Shop package."""\n',
    "shop/auth.py": '''"""User authentication: password hashing, login and session tokens."""

import hashlib
import hmac
import secrets


def hash_password(password: str, salt: bytes) -> str:
    """Derive a password hash with PBKDF2 so stored hashes resist brute force."""
    return hashlib.pbkdf2_hmac("sha256", password.encode(), salt, 100_000).hex()


class SessionStore:
    """Keeps logged-in users' session tokens in memory."""

    def __init__(self):
        self.sessions = {}

    def login(self, username: str, password: str, users: dict) -> str:
        """Check the password against the stored hash and open a session."""
        record = users.get(username)
        if record is None:
            raise PermissionError("unknown user")
        if not hmac.compare_digest(hash_password(password, record["salt"]), record["hash"]):
            raise PermissionError("wrong password")
        token = secrets.token_hex(16)
        self.sessions[token] = username
        return token

    def logout(self, token: str) -> None:
        """Close a session."""
        self.sessions.pop(token, None)
''',
    "shop/config.py": '''"""Configuration loaded from environment variables."""

import os
from dataclasses import dataclass


@dataclass
class Config:
    database_url: str
    debug: bool


def load_config() -> Config:
    """Read DATABASE_URL and DEBUG from the environment, with defaults for development."""
    return Config(
        database_url=os.environ.get("DATABASE_URL", "sqlite:///shop.db"),
        debug=os.environ.get("DEBUG", "0") == "1",
    )
''',
    "shop/models.py": '''"""Database models."""


class Product:
    """A product with a name and a price in cents."""

    def __init__(self, name: str, price_cents: int):
        self.name = name
        self.price_cents = price_cents


class Order:
    """An order groups products and computes the total price."""

    def __init__(self, products):
        self.products = list(products)

    def total_cents(self) -> int:
        return sum(product.price_cents for product in self.products)
''',
    "shop/http_client.py": '''"""Calls to the payment provider's HTTP API, with retries when a request fails."""

import time
import urllib.request


def post_with_retry(url: str, body: bytes, attempts: int = 3) -> bytes:
    """POST body to url; on a network error wait and retry, raising after the last attempt."""
    for attempt in range(attempts):
        try:
            with urllib.request.urlopen(url, data=body, timeout=10) as response:
                return response.read()
        except OSError:
            if attempt == attempts - 1:
                raise
            time.sleep(2 ** attempt)
    raise RuntimeError("unreachable")
''',
    "web/src/cart.js": """// Shopping cart state in the browser.
export class Cart {
  constructor() {
    this.items = [];
  }

  add(product, quantity) {
    this.items.push({ product, quantity });
  }

  total() {
    return this.items.reduce((sum, item) => sum + item.product.price * item.quantity, 0);
  }
}

export function formatPrice(cents) {
  return `$${(cents / 100).toFixed(2)}`;
}
""",
    "tests/test_auth.py": """from shop.auth import SessionStore, hash_password


def test_login_opens_session():
    salt = b"salt"
    users = {"ann": {"salt": salt, "hash": hash_password("pw", salt)}}
    store = SessionStore()
    assert store.login("ann", "pw", users) in store.sessions
""",
    "config/settings.yaml": "server:\n  port: 8080\n  workers: 4\ndatabase:\n  url: sqlite:///shop.db\n",
}
