"""Secrets and privacy: an access token used to clone never lands anywhere, and likely secrets in the code are
masked (values only, lines kept) before sources go to a model that is not on this machine."""

from __future__ import annotations

import base64
import logging
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from codeqa.answer.redact import MASK, redact_secrets
from codeqa.cli import app
from codeqa.config import Settings, get_settings
from codeqa.errors import CloneError
from codeqa.store import Store
from tests.conftest import git, write_files
from tests.git_http import git_http_server
from tests.helpers import ask_named, build_index
from tests.llm_standins import OpenAIStandIn

TOKEN = "ghp_PrivateRepoToken0123456789abcdefghij"

# ------------------------------------------------------------------------------------------------ redactor

SECRETS = {
    "AKIAIOSFODNN7EXAMPLE": "AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE",
    "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY": "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "ghp_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa": 'token_value = "ghp_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"',
    "github_pat_11ABCDEFG0123456789_abcdefghijklmnop": "GH=github_pat_11ABCDEFG0123456789_abcdefghijklmnop",
    "hunter2hunter2": 'DB_PASSWORD = "hunter2hunter2"',
    "s3cr3t-Value!": "password: s3cr3t-Value!",
    "xoxb-123456789012-abcdefABCDEF": "slack = 'xoxb-123456789012-abcdefABCDEF'",
    "sk-proj-abcdefghijklmnopqrstuvwx": "OPENAI = 'sk-proj-abcdefghijklmnopqrstuvwx'",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOjF9.c2lnbmF0dXJl": "Authorization: Bearer "
    + "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOjF9.c2lnbmF0dXJl",
    "Pa55word": 'DATABASE_URL = "postgres://admin:Pa55word@db.internal:5432/shop"',
    "topsecretclientvalue": '  "client_secret": "topsecretclientvalue",',
    "MIIEowIBAAKCAQEAtestkeymaterial": "-----BEGIN RSA PRIVATE KEY-----\n"
    "MIIEowIBAAKCAQEAtestkeymaterial\nmore+key/material==\n-----END RSA PRIVATE KEY-----",
    "api-key-value-123": "export API_KEY=api-key-value-123",
}  # fmt: skip
NOT_SECRETS = [
    "def check(password):\n    return hmac.compare_digest(password, stored)",
    "token = self.token",
    "api_key = settings.api_key",
    "password = get_password()",
    "secret: true",
    "See https://github.com/owner/repo for details.",
    "const tokenizer = new Tokenizer();",
    "# the password must be at least 8 characters",
]


@pytest.mark.parametrize("secret", sorted(SECRETS))
def test_redactor_masks_the_value_and_keeps_lines(secret: str) -> None:
    text = f"# config\n{SECRETS[secret]}\nnext_line = 1\n"
    masked, count = redact_secrets(text)
    assert secret not in masked and MASK in masked and count >= 1
    assert masked.count("\n") == text.count("\n")
    assert masked.startswith("# config\n") and masked.endswith("next_line = 1\n")


@pytest.mark.parametrize("text", NOT_SECRETS)
def test_redactor_leaves_ordinary_code_alone(text: str) -> None:
    assert redact_secrets(text) == (text, 0)


# ------------------------------------------------------------------------------------------------ integration

CONFIG = """# Production settings for the shop
DATABASE_HOST = "db.internal"
DATABASE_PASSWORD = "hunter2hunter2"
AWS_ACCESS_KEY_ID = "AKIAIOSFODNN7EXAMPLE"
STRIPE_API_KEY = "sk-proj-abcdefghijklmnopqrstuvwx"
RETRY_LIMIT = 3
"""


@pytest.fixture
def secret_index(tmp_path: Path, settings: Settings) -> Settings:
    repo = tmp_path / "repo"
    write_files(repo, {"shop/settings.py": CONFIG, "shop/app.py": "def main():\n    return 'shop'\n"})
    build_index(str(repo), settings, name="shop")
    return settings


def _sent(server: OpenAIStandIn) -> str:
    return "\n".join(m["content"] for body in server.bodies("/v1/chat/completions") for m in body["messages"])


def test_remote_backend_receives_redacted_sources(secret_index: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    # the stand-in listens on 127.0.0.1, so pretend its address is another host: the backend then treats it as remote
    monkeypatch.setattr("codeqa.answer.backends.openai.is_loopback_url", lambda url: False)
    question = "where is the database password configured?"
    with OpenAIStandIn(reply=["In shop/settings.py [1]."]) as server:
        settings = secret_index.model_copy(update={"openai_base_url": server.url})
        stream = ask_named("shop", question, settings, backend="openai", k=2)
        answer = stream.result()
        sent = _sent(server)
    assert answer.generated and "shop/settings.py" in sent
    for secret in ("hunter2hunter2", "AKIAIOSFODNN7EXAMPLE", "sk-proj-abcdefghijklmnopqrstuvwx"):
        assert secret not in sent
    assert 'DATABASE_PASSWORD = "[REDACTED]"' in sent and 'DATABASE_HOST = "db.internal"' in sent
    assert answer.notice and "leaves this machine" in answer.notice and "masked before sending" in answer.notice
    source = next(hit for hit in answer.sources if hit.chunk.path == "shop/settings.py")
    assert source.chunk.text.count("\n") == CONFIG.rstrip("\n").count("\n")  # line range unchanged
    assert f"shop/settings.py:{source.chunk.start_line}-{source.chunk.end_line}" in sent

    # the same endpoint as a local one, or with the setting off, gets the code as it is
    monkeypatch.undo()
    for local_settings in (settings, settings.model_copy(update={"redact_secrets_for_remote": False})):
        if local_settings is not settings:
            monkeypatch.setattr("codeqa.answer.backends.openai.is_loopback_url", lambda url: False)
        with OpenAIStandIn(reply=["ok"]) as server:
            ask_named("shop", question, local_settings.model_copy(update={"openai_base_url": server.url}),
                backend="openai", k=2).result()  # fmt: skip
            assert "hunter2hunter2" in _sent(server)


# ------------------------------------------------------------------------------------------------ tokens


def _files_containing(root: Path, needles: list[bytes]) -> list[str]:
    found = []
    for path in root.rglob("*"):
        if path.is_file() and not path.is_symlink():
            data = path.read_bytes()
            found += [f"{path}: {needle!r}" for needle in needles if needle in data]
    return found


def test_token_is_never_written_logged_or_echoed(tmp_path: Path, isolated_home: Path,
                                                  caplog: pytest.LogCaptureFixture) -> None:  # fmt: skip
    work = tmp_path / "served" / "work"
    work.mkdir(parents=True)
    git(work, "init", "-q", "-b", "main")
    write_files(work, {"billing/invoice.py": "def invoice_total(lines):\n    return sum(lines)\n"})
    git(work, "add", "-A")
    git(work, "commit", "-q", "-m", "initial")
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(tmp_path / "served" / "billing.git")], check=True)
    basic = base64.b64encode(f"x-access-token:{TOKEN}".encode()).decode()
    needles = [TOKEN.encode(), basic.encode(), TOKEN.encode("utf-16-le")]
    settings = Settings(home=isolated_home, allow_insecure_sources=True, clone_timeout_seconds=60)
    caplog.set_level(logging.DEBUG)

    with git_http_server(tmp_path / "served", token=TOKEN) as (base, auth):
        url = f"{base}/private/billing.git"
        with pytest.raises(CloneError) as refused:  # a wrong token: the message must not echo it
            build_index(url, settings, name="billing", token=TOKEN[::-1])
        report = build_index(url, settings, name="billing", token=TOKEN)
        get_settings.cache_clear()
        env = {"CODEQA_HOME": str(isolated_home), "CODEQA_ALLOW_INSECURE_SOURCES": "1"}
        cli = CliRunner().invoke(app, ["index", url, "--name", "billing-cli", "--token", TOKEN], env=env)
        get_settings.cache_clear()
    assert f"Basic {basic}" in auth  # the token really was used
    assert cli.exit_code == 0, cli.output
    assert TOKEN not in cli.output and basic not in cli.output
    assert TOKEN[::-1] not in str(refused.value) and TOKEN not in repr(refused.value.args)

    store = Store(settings)
    for name in ("billing", "billing-cli"):
        manifest = store.get_manifest(name)
        assert TOKEN not in manifest.to_json() and basic not in manifest.to_json()
        chunks = store.chunks(manifest)
        assert chunks and TOKEN not in repr(chunks) and basic not in repr(chunks)
    assert TOKEN not in repr(report)
    config = (Path(report.manifest.root) / ".git" / "config").read_text()
    assert "private/billing.git" in config and TOKEN not in config and basic not in config
    assert _files_containing(isolated_home, needles) == []  # clones, Chroma's sqlite, caches, search files
    logged = "\n".join(record.getMessage() for record in caplog.records) + caplog.text
    assert TOKEN not in logged and basic not in logged
