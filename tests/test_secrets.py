"""Secrets and privacy: an access token used to clone never lands anywhere, and likely secrets in the code are
masked (values only, lines kept) before sources go to a model that is not on this machine."""

from __future__ import annotations

import base64
import json
import logging
import random
import string
import subprocess
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from codeqa.answer.llm.redact import count_masked, redact_secrets, tag_for
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

_RNG = random.Random(34)  # fake values in each format's real shape, made here: the detectors must recognise them
_ALNUM = string.ascii_letters + string.digits


def _fake(length: int, alphabet: str = _ALNUM) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(length))


def _b64(data: bytes, url: bool = False) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=") if url else base64.b64encode(data).decode()


_JWT = ".".join(_b64(part, url=True) for part in
                (b'{"alg":"HS256","typ":"JWT"}', b'{"sub":"42","role":"admin"}', _RNG.randbytes(32)))  # fmt: skip
_PEM = f"-----BEGIN EC PRIVATE KEY-----\n{_b64(_RNG.randbytes(96))}\n-----END EC PRIVATE KEY-----\n"
_STRIPE, _AZURE, _SENDGRID = f"sk_live_{_fake(24)}", _b64(_RNG.randbytes(64)), f"SG.{_fake(22)}.{_fake(43)}"
_SLACK = f"https://hooks.slack.com/services/T{_fake(8, string.ascii_uppercase)}/B{_fake(8, string.digits)}/{_fake(24)}"
_DB_PASS, _NETRC, _PGPASS, _NPM = _fake(16), _fake(14), _fake(18), f"npm_{_fake(36)}"
_KUBE_KEY, _NPM_AUTH = _b64(_PEM.encode()), _b64(f"deploy:{_fake(12)}".encode())
_KUBECONFIG = """users:
- name: admin
  user:
    client-certificate-data: {cert}
    client-key-data: {key}"""
# (format, text as found in a repository, the secret in it): each one went out in clear before (issue #34)
FORMATS = [
    ("Stripe live key", f'STRIPE = "{_STRIPE}"', _STRIPE),
    ("JWT", f"const session = '{_JWT}';", _JWT),
    ("Slack webhook", f"SLACK_WEBHOOK_URL = '{_SLACK}'", _SLACK),
    (
        "Azure AccountKey",
        "AZURE_STORAGE = 'DefaultEndpointsProtocol=https;AccountName=shopfiles;"
        f"AccountKey={_AZURE};EndpointSuffix=core.windows.net'",
        _AZURE,
    ),
    ("SendGrid key", f'sg = SendGridAPIClient("{_SENDGRID}")', _SENDGRID),
    ("db_pass assignment", f'db_pass="{_DB_PASS}"', _DB_PASS),
    (
        "kubeconfig client-key-data",
        _KUBECONFIG.format(cert=_b64(b"-----BEGIN CERTIFICATE-----"), key=_KUBE_KEY),
        _KUBE_KEY,
    ),
    (".npmrc _authToken", f"//registry.npmjs.org/:_authToken={_NPM}", _NPM),
    (".npmrc _auth", f"registry=https://npm.internal/\n_auth={_NPM_AUTH}\nalways-auth=true", _NPM_AUTH),
    (".netrc one line", f"machine api.example.com login octocat password {_NETRC}", _NETRC),
    (".netrc lines", f"machine ci.example.com\n  login deploy\n  password {_NETRC}", _NETRC),
    (".pgpass", f"db.internal:5432:shop:app_user:{_PGPASS}", _PGPASS),
]
KEY_BLOCKS = {
    "PGP": ("-----BEGIN PGP PRIVATE KEY BLOCK-----", [f"lQOYBG{_fake(58)}", _fake(64), f"={_fake(4)}"]),
    "RSA": ("-----BEGIN RSA PRIVATE KEY-----", [f"MIIEowIBAAKCAQEA{_fake(48)}", f"{_fake(40)}=="]),
    "OpenSSH": ("-----BEGIN OPENSSH PRIVATE KEY-----", [f"b3BlbnNzaC1rZXktdjEAAAAA{_fake(40)}"]),
}
# formats the hand-kept list caught already: they must stay caught
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
    "api-key-value-123": "export API_KEY=api-key-value-123",
    "AIzaSyA1234567890abcdefghijklmnopqrstuv": "GOOGLE = 'AIzaSyA1234567890abcdefghijklmnopqrstuv'",
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
    "def login(user: str, password: str) -> Session:",
    "    db_password: Optional[str] = None",
    'NPM_TOKEN_LINE = "//registry.npmjs.org/:_authToken=${NPM_TOKEN}"',
    "host: localhost:5432",
]


@pytest.mark.parametrize(("kind", "text", "secret"), FORMATS, ids=[row[0] for row in FORMATS])
def test_each_format_is_masked_exactly(kind: str, text: str, secret: str) -> None:
    masked, count = redact_secrets(f"# {kind}\n{text}\nnext_line = 1\n")
    assert secret not in masked, kind
    assert count == 1
    assert masked == f"# {kind}\n{text.replace(secret, tag_for(secret))}\nnext_line = 1\n"  # the secret's span only


@pytest.mark.parametrize("kind", sorted(KEY_BLOCKS))
def test_key_blocks_keep_their_armour_lines(kind: str) -> None:
    begin, body = KEY_BLOCKS[kind]
    end = begin.replace("BEGIN", "END")
    masked, count = redact_secrets("\n".join(["KEY = (", begin, "", *body, end, ")"]))
    tag = tag_for("\n".join(["", *body, ""]))
    assert masked == "\n".join(["KEY = (", begin, "", *[tag] * len(body), end, ")"])
    assert count == 1
    cut, _ = redact_secrets("\n".join([begin, *body[:1]]))  # a chunk that ends inside the block
    assert body[0] not in cut and cut.startswith(begin)


def test_spans_are_exact_in_long_texts() -> None:
    dsn = "DSN = 'postgres://app:pw12@db.internal/shop'  # the passwords rotate monthly"
    assert redact_secrets(dsn) == (dsn.replace("pw12", tag_for("pw12")), 1)  # a short password, and only there
    assert redact_secrets('api_key = "key"') == (f'api_key = "{tag_for("key")}"', 1)  # the value, not the name
    claims = _b64(json.dumps({"sub": "42", "groups": [_fake(30) for _ in range(60)]}).encode(), url=True)
    long_jwt = f"eyJhbGciOiJSUzI1NiJ9.{claims}.{_b64(_RNG.randbytes(256), url=True)}"  # longer than a window
    filler = "".join(f"value_{n} = compute({n})\n" for n in range(150))
    for secret in (long_jwt, _SLACK, _NPM):
        for shift in range(0, 1100, 157):  # across the windows' edges
            text = f"{filler[:shift]}\nLEAK = '{secret}'\n{filler}"
            masked, count = redact_secrets(text)
            assert masked == text.replace(secret, tag_for(secret)) and count == 1, (secret[:12], shift)


@pytest.mark.parametrize("secret", sorted(SECRETS))
def test_redactor_masks_the_value_and_keeps_lines(secret: str) -> None:
    text = f"# config\n{SECRETS[secret]}\nnext_line = 1\n"
    masked, count = redact_secrets(text)
    assert secret not in masked and tag_for(secret) in masked and count == 1
    assert masked.count("\n") == text.count("\n")
    assert masked.startswith("# config\n") and masked.endswith("next_line = 1\n")


@pytest.mark.parametrize("text", NOT_SECRETS)
def test_redactor_leaves_ordinary_code_alone(text: str) -> None:
    assert redact_secrets(text) == (text, 0)


def test_the_count_is_of_distinct_secrets_really_masked() -> None:
    text = f'STRIPE = "{_STRIPE}"\nBACKUP_STRIPE = "{_STRIPE}"\ndb_pass="{_DB_PASS}"\n'
    masked, count = redact_secrets(text)
    assert count == 2 == count_masked(masked)  # one key twice is one secret
    assert masked.count(tag_for(_STRIPE)) == 2 and tag_for(_STRIPE) != tag_for(_DB_PASS)
    again, more = redact_secrets(masked)  # masking what is masked finds nothing new
    assert (again, more) == (masked, 0)
    shown = f"{masked}\n{redact_secrets(f'key = {_STRIPE!r}')[0]}"  # the same key in another source
    assert count_masked(shown) == 2 and count_masked("nothing masked here") == 0


REAL_FILES = ["codeqa/config.py", "codeqa/source/clone.py", "codeqa/answer/answering.py", "codeqa/answer/llm/redact.py",
              "codeqa/answer/llm/secret_formats.py", "README.md"]  # fmt: skip


def test_ordinary_code_is_sent_nearly_unchanged() -> None:
    root = Path(__file__).resolve().parent.parent
    masked_spans, chunks = 0, 0
    for name in REAL_FILES:
        lines = (root / name).read_text().split("\n")
        for start in range(0, len(lines), 40):
            text = "\n".join(lines[start : start + 40])
            masked, count = redact_secrets(text)
            assert masked.count("\n") == text.count("\n"), name
            masked_spans, chunks = masked_spans + count, chunks + 1
    assert chunks > 30 and masked_spans <= 2


def test_masking_a_chunk_is_fast() -> None:
    text = (Path(__file__).resolve().parent.parent / "codeqa/answer/answering.py").read_text()
    chunks = ["\n".join(text.split("\n")[start : start + 40]) for start in range(0, 280, 40)]
    redact_secrets(chunks[0])  # the detectors are loaded on first use
    began = time.perf_counter()
    for _ in range(10):
        for chunk in chunks:
            redact_secrets(chunk)
    assert (time.perf_counter() - began) / (10 * len(chunks)) < 0.02  # ~0.5 ms measured; 20 ms on a busy machine


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
    monkeypatch.setattr("codeqa.answer.llm.backends.openai.is_loopback_url", lambda url: False)
    question = "where is the database password configured?"
    with OpenAIStandIn(reply=["In shop/settings.py [1]."]) as server:
        settings = secret_index.model_copy(update={"openai_base_url": server.url})
        stream = ask_named("shop", question, settings, backend="openai", k=2)
        answer = stream.result()
        sent = _sent(server)
    assert answer.generated and "shop/settings.py" in sent
    for secret in ("hunter2hunter2", "AKIAIOSFODNN7EXAMPLE", "sk-proj-abcdefghijklmnopqrstuvwx"):
        assert secret not in sent
    assert f'DATABASE_PASSWORD = "{tag_for("hunter2hunter2")}"' in sent and 'DATABASE_HOST = "db.internal"' in sent
    assert answer.notice and "leaves this machine" in answer.notice and "masked before sending" in answer.notice
    source = next(hit for hit in answer.sources if hit.chunk.path == "shop/settings.py")
    assert source.chunk.text.count("\n") == CONFIG.rstrip("\n").count("\n")  # line range unchanged
    assert f"shop/settings.py:{source.chunk.start_line}-{source.chunk.end_line}" in sent

    # the same endpoint as a local one, or with the setting off, gets the code as it is
    monkeypatch.undo()
    for local_settings in (settings, settings.model_copy(update={"redact_secrets_for_remote": False})):
        if local_settings is not settings:
            monkeypatch.setattr("codeqa.answer.llm.backends.openai.is_loopback_url", lambda url: False)
        with OpenAIStandIn(reply=["ok"]) as server:
            ask_named("shop", question, local_settings.model_copy(update={"openai_base_url": server.url}),
                backend="openai", k=2).result()  # fmt: skip
            assert "hunter2hunter2" in _sent(server)


# runs of look-alikes that some of the library's patterns read in quadratic time when given a whole text
HOSTILE = ["sk-" * 100 + "T3BlbkFJ", "eyJ", "//a/:_authToken=", "password = '", "xoxb-1-"]


@pytest.mark.parametrize("unit", HOSTILE)
def test_masking_time_grows_linearly(unit: str) -> None:
    def seconds(length: int) -> float:
        text = (unit * (length // len(unit) + 1))[:length]
        runs = []
        for _ in range(5):
            began = time.perf_counter()
            redact_secrets(text)
            runs.append(time.perf_counter() - began)
        return min(runs)

    redact_secrets(unit)  # the detectors load on first use: not part of what is timed
    short = seconds(10_000)
    assert seconds(40_000) < 8 * short + 0.05  # linear: ~4 times; quadratic: ~16 times


BILLING = {
    "shop/settings.py": f'"""Production settings."""\nSTRIPE = "{_STRIPE}"\ndb_pass="{_DB_PASS}"\n',
    "shop/billing.py": f'FALLBACK_STRIPE = "{_STRIPE}"\n\n\ndef charge_card(amount):\n    return STRIPE, amount\n',
    "shop/storage.py": f"def report_store():\n    return 'AccountKey={_AZURE}'\n",
}


@pytest.mark.parametrize("budget", [6000, 420])
def test_the_note_counts_the_secrets_really_sent(
    tmp_path: Path, settings: Settings, budget: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_files(tmp_path / "repo", BILLING)
    build_index(str(tmp_path / "repo"), settings, name="billing")
    monkeypatch.setattr("codeqa.answer.llm.backends.openai.is_loopback_url", lambda url: False)
    question = "where is the stripe key used to charge a card?"
    with OpenAIStandIn(reply=["In shop/settings.py [1]."]) as server:
        update = {"openai_base_url": server.url, "answer_token_budget": budget}
        stream = ask_named("billing", question, settings.model_copy(update=update), backend="openai", k=3)
        answer, sent = stream.result(), _sent(server)
    planted = {_STRIPE, _DB_PASS, _AZURE}
    assert not [secret for secret in planted if secret in sent]
    shown = {secret for secret in planted if tag_for(secret) in sent}
    assert answer.notice and f"{len(shown)} likely secret(s) in the sources were masked" in answer.notice
    assert len(shown) == count_masked(sent) >= 1
    assert len(stream.sources) == 3  # all three sources went out, whole or cut to their leading lines
    if budget > 1000:  # whole: the one Stripe key, quoted in two files and in the key lines, is one secret
        assert shown == planted and sent.count(tag_for(_STRIPE)) >= 3
    else:  # cut to fit: the secrets in the lines left out were not sent, so they are not counted
        assert len(shown) < len(planted)


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
