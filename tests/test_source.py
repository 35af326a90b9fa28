"""Source parsing and resolution against real git: local bare repos over file:// and smart HTTP on 127.0.0.1."""

from __future__ import annotations

import base64
import os
import subprocess
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote

import pytest

from codeqa.config import Settings
from codeqa.errors import CloneError, SourceError, UnsafeSourceError
from codeqa.source import SourceSpec, parse_source, resolve_source
from tests.conftest import git

GH = "https://github.com/owner/repo"

# spec, kwargs, expected fields
GOOD = [
    (GH, {}, dict(clone_url=GH + ".git", ref=None, subdir="", web_url=GH, default_name="owner-repo")),
    (GH + ".git", {}, dict(clone_url=GH + ".git", display=GH, owner="owner", name="repo")),
    (GH + "/", {}, dict(clone_url=GH + ".git", ref=None)),
    (GH + "/tree/dev", {}, dict(ref="dev", subdir="")),
    (GH + "/tree/dev/src/app", {}, dict(ref="dev", subdir="src/app")),
    (GH + "/tree/feature/x/src", {"ref": "feature/x"}, dict(ref="feature/x", subdir="src")),
    (GH + "/tree/feature/x/src", {}, dict(ref="feature", subdir="x/src")),  # documented ambiguity
    (GH + "/blob/main/pkg/mod.py", {}, dict(ref="main", subdir="pkg")),
    (GH + "/commit/" + "a" * 40, {}, dict(ref="a" * 40)),
    (GH + "?tab=readme#top", {}, dict(clone_url=GH + ".git", display=GH)),
    ("github.com/owner/repo", {}, dict(clone_url=GH + ".git", web_url=GH)),
    ("owner/repo", {}, dict(clone_url=GH + ".git", host="github.com")),
    ("owner/repo", {"ref": "v1.2"}, dict(ref="v1.2")),
    ("  https://GitHub.com/owner/repo  ", {}, dict(clone_url=GH + ".git")),
    ("git@github.com:owner/repo.git", {}, dict(clone_url=GH + ".git", web_url=GH)),
    ("ssh://git@github.com/owner/repo.git", {}, dict(clone_url=GH + ".git")),
    ("git@gitlab.com:group/proj.git", {}, dict(clone_url="https://gitlab.com/group/proj.git", web_url=None)),
    ("https://gitlab.com/g/sub/proj", {}, dict(owner="g/sub", name="proj", default_name="sub-proj", web_url=None)),
    ("https://gitlab.com/g/proj/-/tree/dev/lib", {},
     dict(clone_url="https://gitlab.com/g/proj", ref="dev", subdir="lib")),
    ("https://git.example.org:8443/a/b.git", {}, dict(clone_url="https://git.example.org:8443/a/b.git", name="b")),
    ("http://127.0.0.1:9/r.git", {"allow_insecure": True}, dict(clone_url="http://127.0.0.1:9/r.git")),
    ("git://localhost/r.git", {"allow_insecure": True}, dict(clone_url="git://localhost/r.git")),
    ("git://127.0.0.1:9418/team/r.git", {}, dict(clone_url="git://127.0.0.1:9418/team/r.git", name="r")),
    ("file:///srv/git/My%20Repo.git", {},
     dict(kind="remote", clone_url="file:///srv/git/My%20Repo.git", default_name="My-Repo")),
    (GH, {"ref": ""}, dict(ref=None)),
]  # fmt: skip

SECRET = "ghp_S3cretTokenValue"
# spec, kwargs, exception type, message fragment
BAD = [
    ("", {}, UnsafeSourceError, "Empty source"),
    ("   ", {}, UnsafeSourceError, "Empty source"),
    ("ext::sh -c touch% /tmp/pwned", {}, UnsafeSourceError, "ext::"),
    ("fd::17", {}, UnsafeSourceError, "transport"),
    ("ext::ssh://github.com/o/r", {}, UnsafeSourceError, "transport"),
    ("--upload-pack=touch /tmp/x", {}, UnsafeSourceError, "'-'"),
    ("-oProxyCommand=x", {}, UnsafeSourceError, "option"),
    ("https://github.com/o/r\n--upload-pack=x", {}, UnsafeSourceError, "control"),
    ("https://github.com/o/r x", {}, UnsafeSourceError, "whitespace"),
    ("http://github.com/o/r", {}, UnsafeSourceError, "http://"),
    ("http://github.com/o/r", {"allow_insecure": True}, UnsafeSourceError, "https://"),
    ("http://127.0.0.1/r.git", {}, UnsafeSourceError, "git://127.0.0.1/… for a local git daemon"),
    ("git://git.example.org/r.git", {}, UnsafeSourceError, "git:// is accepted from this machine only"),
    ("git://github.com/o/r.git", {"allow_insecure": True}, UnsafeSourceError, "Insecure"),
    (f"https://user:{SECRET}@github.com/o/r", {}, UnsafeSourceError, "Credentials"),
    (f"https://{SECRET}@github.com/o/r", {}, UnsafeSourceError, "token"),
    (f"https://x-access-token:{SECRET}@gitlab.com/g/p.git", {}, UnsafeSourceError, "Credentials"),
    ("ftp://example.com/r.git", {}, UnsafeSourceError, "scheme"),
    ("file:///srv/r.git", {"allow_local": False}, UnsafeSourceError, "file://"),
    ("file://otherhost/srv/r.git", {}, UnsafeSourceError, "on this machine"),
    ("/", {"allow_local": False}, UnsafeSourceError, "Local paths"),
    ("~/nowhere-codeqa-test", {"allow_local": False}, UnsafeSourceError, "Local paths"),
    ("/definitely/not/here", {}, SourceError, "No such directory: /definitely/not/here"),
    ("https://github.com/owner", {}, SourceError, "owner and a repository"),
    ("https://github.com/owner/repo/issues/3", {}, SourceError, "Unsupported GitHub URL"),
    ("https://github.com/o/r/tree/main/../../etc", {}, UnsafeSourceError, "'..'"),
    (GH, {"ref": "--orphan"}, UnsafeSourceError, "Invalid git ref"),
    (GH, {"ref": "a..b"}, UnsafeSourceError, "Invalid git ref"),
    (GH + "/tree/main/src", {"ref": "dev"}, SourceError, "does not match"),
    ("not a source at all", {}, SourceError, "No such directory"),
]  # fmt: skip


@pytest.mark.parametrize(("spec", "kwargs", "expected"), GOOD)
def test_parse_good(spec: str, kwargs: dict, expected: dict) -> None:
    parsed = parse_source(spec, **kwargs)
    for field, value in expected.items():
        assert getattr(parsed, field) == value, field
    assert parsed.kind == expected.get("kind", "remote")
    assert all(c.isalnum() or c in "._-" for c in parsed.default_name)


@pytest.mark.parametrize(("spec", "kwargs", "error", "fragment"), BAD)
def test_parse_bad(spec: str, kwargs: dict, error: type[Exception], fragment: str) -> None:
    with pytest.raises(error) as info:
        parse_source(spec, **kwargs)
    assert fragment in str(info.value)
    assert SECRET not in str(info.value) and SECRET not in repr(info.value.args)


def test_shorthand_prefers_an_existing_local_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "owner" / "repo").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    assert parse_source("owner/repo").kind == "local"
    assert parse_source("owner/repo").local_path == tmp_path / "owner" / "repo"
    assert parse_source("owner/repo", allow_local=False).clone_url == GH + ".git"  # the UI never reads local disk


def test_local_path_forms(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "proj one").mkdir()
    (tmp_path / "file.txt").write_text("x")
    monkeypatch.setenv("HOME", str(tmp_path))
    spec = parse_source("~/proj one")
    assert spec == SourceSpec("local", None, tmp_path / "proj one", None, None, "proj one", None, "", None,
                              str(tmp_path / "proj one"), "proj-one")  # fmt: skip
    with pytest.raises(SourceError, match="Not a directory"):
        parse_source(str(tmp_path / "file.txt"))


# ------------------------------------------------------------------------------------------------ resolve


@pytest.fixture
def bare_repo(make_git_repo) -> tuple[Path, dict[str, str]]:
    """A bare repo with main (2 commits), branch ``feat`` and tag ``v1`` on the first commit."""
    bare = make_git_repo({"app.py": "print('v1')\n", "lib/util.py": "X = 1\n"}, bare_copy=True)
    work = bare.with_suffix("")
    first = git(work, "rev-parse", "HEAD")
    git(work, "tag", "v1")
    git(work, "checkout", "-q", "-b", "feat")
    (work / "feat.py").write_text("FEATURE = True\n")
    git(work, "add", "-A")
    git(work, "commit", "-q", "-m", "feat")
    feat = git(work, "rev-parse", "HEAD")
    git(work, "checkout", "-q", "main")
    (work / "app.py").write_text("print('v2')\n")
    git(work, "commit", "-q", "-am", "v2")
    main = git(work, "rev-parse", "HEAD")
    git(work, "push", "-q", "--all", str(bare))
    git(work, "push", "-q", "--tags", str(bare))
    return bare, {"first": first, "feat": feat, "main": main}


def test_clone_default_branch_with_progress(bare_repo, settings: Settings) -> None:
    bare, shas = bare_repo
    calls: list[tuple[str, float | None]] = []
    resolved = resolve_source(bare.as_uri(), settings, progress=lambda m, f: calls.append((m, f)))
    assert resolved.kind == "git" and resolved.sha == shas["main"] and resolved.ref == "main"
    assert resolved.root.parent == settings.clones_dir and resolved.root.name.startswith("repo1-")
    assert (resolved.root / "app.py").read_text() == "print('v2')\n"
    assert git(resolved.root, "rev-parse", "--is-shallow-repository") == "true"
    assert any(m.startswith("Receiving objects") and f is not None for m, f in calls)
    assert calls[-1][1] == 1.0
    assert [p.name for p in settings.clones_dir.iterdir()] == [resolved.root.name]  # no temp dirs left behind


@pytest.mark.parametrize(("ref", "key", "present"), [("feat", "feat", "feat.py"), ("v1", "first", "lib/util.py")])
def test_clone_branch_and_tag(bare_repo, settings: Settings, ref: str, key: str, present: str) -> None:
    bare, shas = bare_repo
    resolved = resolve_source(bare.as_uri(), settings, ref=ref)
    assert resolved.sha == shas[key] and resolved.ref == ref
    assert (resolved.root / present).exists()


def test_clone_commit_sha(bare_repo, settings: Settings) -> None:
    bare, shas = bare_repo
    calls: list[str] = []
    resolved = resolve_source(bare.as_uri(), settings, ref=shas["first"], progress=lambda m, f: calls.append(m))
    assert resolved.sha == shas["first"] and resolved.ref == shas["first"]
    assert (resolved.root / "app.py").read_text() == "print('v1')\n"
    assert calls


def test_missing_repository_and_ref(tmp_path: Path, bare_repo, settings: Settings) -> None:
    with pytest.raises(CloneError) as info:
        resolve_source((tmp_path / "private.git").as_uri(), settings)
    message = str(info.value)
    assert "not found or is private" in message and "token" in message and "\n" not in message
    with pytest.raises(CloneError, match="Ref 'nope' was not found"):
        resolve_source(bare_repo[0].as_uri(), settings, ref="nope")
    with pytest.raises(CloneError, match="full 40-character SHA"):
        resolve_source(bare_repo[0].as_uri(), settings, ref=bare_repo[1]["first"][:10])
    assert not any(settings.clones_dir.iterdir())


def test_failed_reclone_keeps_previous_clone(bare_repo, settings: Settings) -> None:
    bare, shas = bare_repo
    first = resolve_source(bare.as_uri(), settings)
    moved = bare.with_name("moved.git")
    bare.rename(moved)
    with pytest.raises(CloneError):
        resolve_source(bare.as_uri(), settings)
    assert (first.root / "app.py").exists() and git(first.root, "rev-parse", "HEAD") == shas["main"]
    moved.rename(bare)
    again = resolve_source(bare.as_uri(), settings, ref="feat")  # a successful re-clone replaces it
    assert again.root == first.root and (again.root / "feat.py").exists()


def test_token_is_never_stored(bare_repo, settings: Settings) -> None:
    resolved = resolve_source(bare_repo[0].as_uri(), settings, token="secret-tok")
    assert "secret-tok" not in repr(resolved)
    found = subprocess.run(["grep", "-r", "-l", "secret-tok", str(settings.home_dir)], capture_output=True)
    assert found.returncode == 1, found.stdout


def test_timeout_is_a_clone_error(bare_repo, isolated_home: Path) -> None:
    settings = Settings(home=isolated_home, clone_timeout_seconds=0)
    with pytest.raises(CloneError, match="CODEQA_CLONE_TIMEOUT_SECONDS"):
        resolve_source(bare_repo[0].as_uri(), settings)


def test_local_git_dir_and_empty_repo(make_git_repo, tmp_path: Path, settings: Settings) -> None:
    repo = make_git_repo({"a.py": "x = 1\n", "pkg/b.py": "y = 2\n"})
    resolved = resolve_source(str(repo), settings)
    assert resolved.kind == "local-git" and resolved.root == repo and resolved.ref == "main"
    assert resolved.sha == git(repo, "rev-parse", "HEAD")
    assert not settings.clones_dir.exists()  # used in place, never copied
    empty = tmp_path / "empty"
    empty.mkdir()
    git(empty, "init", "-q")
    assert resolve_source(str(empty), settings).sha is None
    plain = tmp_path / "plain"
    (plain / "src").mkdir(parents=True)
    assert resolve_source(str(plain), settings).kind == "local-dir"
    assert resolve_source(str(repo / "pkg"), settings).kind == "local-dir"  # not the top: plain folder
    with pytest.raises(SourceError, match="never changes your checkout"):
        resolve_source(str(repo), settings, ref="main")
    with pytest.raises(UnsafeSourceError):
        resolve_source(str(repo), settings, allow_local=False)


def test_local_bare_path_is_cloned(bare_repo, settings: Settings) -> None:
    resolved = resolve_source(str(bare_repo[0]), settings)
    assert resolved.kind == "git" and resolved.default_name == "repo1" and (resolved.root / "app.py").exists()


# ------------------------------------------------------------------------------------------------ smart HTTP


class _GitHTTP(BaseHTTPRequestHandler):
    """Runs ``git http-backend`` as CGI and records each request's Authorization header."""

    def do_GET(self) -> None:
        self._cgi()

    def do_POST(self) -> None:
        self._cgi()

    def log_message(self, *args: object) -> None:  # keep pytest output clean
        pass

    def _cgi(self) -> None:
        server = self.server
        server.auth.append(self.headers.get("Authorization"))  # type: ignore[attr-defined]
        path, _, query = self.path.partition("?")
        if path.startswith("/slow"):
            time.sleep(4)
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        env = {
            "GIT_PROJECT_ROOT": server.root,  # type: ignore[attr-defined]
            "GIT_HTTP_EXPORT_ALL": "1",
            "PATH_INFO": unquote(path),
            "QUERY_STRING": query,
            "REQUEST_METHOD": self.command,
            "CONTENT_TYPE": self.headers.get("Content-Type", ""),
            "CONTENT_LENGTH": str(len(body)),
            "HTTP_CONTENT_ENCODING": self.headers.get("Content-Encoding", ""),
            "GIT_PROTOCOL": self.headers.get("Git-Protocol", ""),
            "REMOTE_ADDR": "127.0.0.1",
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        }
        out = subprocess.run(["git", "http-backend"], input=body, env=env, capture_output=True, timeout=20).stdout
        head, _, payload = out.partition(b"\r\n\r\n")
        status, headers = 200, []
        for line in head.decode().split("\r\n"):
            key, _, value = line.partition(":")
            if key.lower() == "status":
                status = int(value.split()[0])
            elif key:
                headers.append((key, value.strip()))
        try:
            self.send_response(status)
            for key, value in headers:
                self.send_header(key, value)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
        except OSError:  # the client gave up (the timeout test kills it)
            pass


@pytest.fixture
def http_server(bare_repo) -> Iterator[tuple[str, list]]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _GitHTTP)
    server.daemon_threads = True
    server.root = str(bare_repo[0].parent)  # type: ignore[attr-defined]
    server.auth = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", server.auth  # type: ignore[attr-defined]
    server.shutdown()
    server.server_close()


def test_http_clone_sends_token_as_header_only(http_server, bare_repo, isolated_home: Path) -> None:
    base, auth = http_server
    settings = Settings(home=isolated_home, allow_insecure_sources=True, clone_timeout_seconds=30)
    resolved = resolve_source(f"{base}/{bare_repo[0].name}", settings, token="secret-tok")
    assert resolved.sha == bare_repo[1]["main"] and (resolved.root / "app.py").exists()
    expected = "Basic " + base64.b64encode(b"x-access-token:secret-tok").decode()
    assert auth and all(header == expected for header in auth)
    config = (resolved.root / ".git" / "config").read_text()
    assert "secret-tok" not in config and expected.split()[1] not in config and f"url = {base}/" in config
    assert subprocess.run(["grep", "-r", "-q", "secret-tok", str(resolved.root)]).returncode == 1


def test_http_settings_token_is_only_for_github(http_server, bare_repo, isolated_home: Path) -> None:
    base, auth = http_server
    settings = Settings(home=isolated_home, allow_insecure_sources=True, github_token="gh-only")
    resolve_source(f"{base}/{bare_repo[0].name}", settings, ref=bare_repo[1]["feat"])
    assert auth and all(header is None for header in auth)


def test_http_errors_are_clean(http_server, bare_repo, isolated_home: Path) -> None:
    base, _ = http_server
    settings = Settings(home=isolated_home, allow_insecure_sources=True, clone_timeout_seconds=1)
    with pytest.raises(CloneError, match="not found or is private") as info:
        resolve_source(f"{base}/missing.git", settings, token="secret-tok")
    assert "secret-tok" not in str(info.value)
    with pytest.raises(CloneError, match="took longer than 1 s"):  # the server answers in full after 4 s
        resolve_source(f"{base}/slow.git", settings)
    port = base.rsplit(":", 1)[1]
    with pytest.raises(CloneError, match="Could not reach 127.0.0.1"):
        resolve_source(base.replace(port, "1") + "/r.git", settings)
