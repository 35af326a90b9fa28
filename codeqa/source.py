"""Where the code comes from: parse what the user typed, then find or make a local working tree.

Decisions (the tests pin them down):
- SSH forms (``git@host:owner/repo.git``, ``ssh://…``) are converted to ``https://``: ssh needs keys or an agent,
  can prompt for host keys, and its command line is an injection surface; https carries our token uniformly.
- Credentials embedded in a URL (``https://user:tok@host/…``) are refused without echoing them; query strings and
  fragments (``?private_token=…``) are dropped. Tokens travel only through git's environment config.
- ``file://`` URLs (and bare repositories given as a path) are cloned, gated by ``allow_local``; other local
  directories are used in place and never modified.
- ``/tree/<ref>/<more>`` is ambiguous when a branch has slashes: the first segment is the ref unless an explicit
  ``ref=`` is given, which must then be a prefix of ``<ref>/<more>``.
- ``settings.github_token`` is only sent to github.com; an explicit ``token=`` is sent to whatever host was asked.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

import git
from git.cmd import handle_process_output
from git.util import RemoteProgress

from codeqa.config import Settings
from codeqa.errors import CloneError, SourceError, UnsafeSourceError
from codeqa.locks import process_alive
from codeqa.records import ResolvedSource

Progress = Callable[[str, float | None], None]

_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f]")
_TRANSPORT_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*::")
_SCHEME_RE = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")
_SCP_RE = re.compile(r"^[A-Za-z0-9._-]+@(?P<host>[A-Za-z0-9.-]+):(?P<path>[^/\s][^\s]*)$")
_HOSTLIKE_RE = re.compile(r"^(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,}(?::\d+)?/")
# Labels must be separated by dots, so matching is linear (a nested `(label\.?)+` backtracks exponentially).
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_HOST_RE = re.compile(rf"^{_LABEL}(?:\.{_LABEL})*\.?$|^\[?::1\]?$")
_SHORTHAND_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]+/?$")
_OWNER_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9-]*$")
_NAME_RE = re.compile(r"^[A-Za-z0-9._-]+$")
_SHA_RE = re.compile(r"^(?:[0-9a-f]{40}|[0-9a-f]{64})$")
_BAD_REF_RE = re.compile(r"[\s~^:?*\[\\\x00-\x1f\x7f]|\.\.|@\{|^[-/.]|/$|\.lock$|//")
_LOOPBACK = {"127.0.0.1", "localhost", "::1"}
_NETWORK_MARKERS = ("could not resolve host", "failed to connect", "connection refused", "network is unreachable",
                    "connection timed out", "couldn't connect")  # fmt: skip
_MISSING_MARKERS = ("not found", "does not appear to be a git repository", "authentication failed",
                    "could not read username", "terminal prompts disabled", "403", "401")  # fmt: skip
_GITHUB_FORM = "https://github.com/owner/repo[/tree/<ref>[/<directory>]]"
_REMOTE = "give a GitHub URL (https://github.com/owner/repo), owner/repo, or another https git URL"
_HELP = _REMOTE.replace(", or", ",") + ", or a local directory"


@dataclass(frozen=True)
class SourceSpec:
    """The parsed, validated form of a source string; safe to display and log."""

    kind: str  # "remote" (cloned, includes file://) | "local" (used in place)
    clone_url: str | None
    local_path: Path | None
    host: str | None
    owner: str | None
    name: str | None
    ref: str | None
    subdir: str
    web_url: str | None
    display: str
    default_name: str


def _slug(text: str) -> str:
    """An index/folder name made of ``[a-zA-Z0-9._-]`` that cannot be hidden or ``..``."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip(".-_")[:100] or "repo"


def _check_ref(ref: str | None) -> str | None:
    """Refuse refs git would reject or read as options; empty means 'default branch'."""
    ref = (ref or "").strip()
    if ref and (len(ref) > 250 or _BAD_REF_RE.search(ref)):
        raise UnsafeSourceError(f"Invalid git ref {ref[:80]!r}: use a branch, tag or full commit SHA")
    return ref or None


def parse_source(
    spec: str, *, ref: str | None = None, allow_local: bool = True, allow_insecure: bool = False
) -> SourceSpec:
    """Turn user input into a ``SourceSpec``, refusing anything that could run commands or leak secrets."""
    raw = (spec or "").strip()
    if not raw:
        raise UnsafeSourceError(f"Empty source: {_HELP}")
    if _CONTROL_RE.search(raw):
        raise UnsafeSourceError("The source contains control characters (newline, tab, …); paste it again")
    if raw.startswith("-"):
        raise UnsafeSourceError("A source may not start with '-' (git would read it as an option)")
    ref = _check_ref(ref)
    if _TRANSPORT_RE.match(raw):
        raise UnsafeSourceError("git transport helpers such as 'ext::' or 'fd::' are refused: use an https:// URL")
    if match := _SCHEME_RE.match(raw):
        return _parse_url(raw, match.group(1).lower(), ref, allow_local, allow_insecure)
    if match := _SCP_RE.match(raw):  # git@github.com:owner/repo.git → https (see module docstring)
        return _parse_url(f"https://{match['host']}/{match['path']}", "https", ref, allow_local, allow_insecure)
    try:
        path = Path(raw).expanduser()
    except RuntimeError:  # ``~name`` of an unknown user
        path = Path(raw)
    if raw.startswith(("/", "~", ".")) or (allow_local and path.exists()):
        if not allow_local:
            raise UnsafeSourceError(f"Local paths are not allowed here: {_REMOTE}")
        return _parse_local(raw, path, ref)
    if _HOSTLIKE_RE.match(raw):
        return _parse_url(f"https://{raw}", "https", ref, allow_local, allow_insecure)
    if _SHORTHAND_RE.match(raw):
        return _parse_url(f"https://github.com/{raw}", "https", ref, allow_local, allow_insecure)
    raise SourceError(f"No such directory: {raw} ({_HELP})" if allow_local else f"Not a repository URL: {_REMOTE}")


def _parse_local(raw: str, path: Path, ref: str | None) -> SourceSpec:
    """A directory used in place (git repository or plain folder)."""
    if not path.is_dir():
        raise SourceError(f"{'Not a directory' if path.exists() else 'No such directory'}: {raw}")
    name = (root := path.resolve()).name.removesuffix(".git") or root.name
    return SourceSpec("local", None, root, None, None, name, ref, "", None, str(root), _slug(name))


def _parse_url(url: str, scheme: str, ref: str | None, allow_local: bool, allow_insecure: bool) -> SourceSpec:
    """Validate a ``scheme://`` URL and dispatch to the GitHub or generic form."""
    if re.search(r"\s", url):
        raise UnsafeSourceError("Repository URLs may not contain whitespace")
    if scheme == "file":
        return _parse_file_url(url, ref, allow_local)
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number in 0-65535
    except ValueError:  # e.g. an unclosed IPv6 bracket; the URL may hold a secret, so it is not echoed
        raise SourceError(f"Not a valid repository URL (malformed host or port): {_HELP}") from None
    if scheme in ("ssh", "git+ssh", "ssh+git") and not parts.password:  # the ssh user is not a secret
        scheme, parts = "https", urlsplit(f"https://{parts.hostname or ''}{parts.path}")  # ssh port ≠ https port
    if "@" in parts.netloc:
        clean, hint = f"{scheme}://{parts.netloc.rpartition('@')[2]}{parts.path}", "pass it with --token instead"
        raise UnsafeSourceError(f"Credentials embedded in the URL are refused ({clean}): {hint} or CODEQA_GITHUB_TOKEN")
    host = (parts.hostname or "").lower()
    if not host or len(host) > 253 or not _HOST_RE.match(host):
        raise SourceError(f"Not a valid host in the repository URL: {_HELP}")
    if scheme in ("http", "git"):
        if not (allow_insecure and host in _LOOPBACK):
            raise UnsafeSourceError(f"Insecure transport {scheme}:// refused: use an https:// URL")
        netloc = parts.netloc
    elif scheme == "https":
        netloc = parts.netloc.lower()
    else:
        raise UnsafeSourceError(f"Unsupported URL scheme '{scheme}://': {_HELP}")
    segments = [unquote(s) for s in parts.path.split("/") if s]
    if any(s in (".", "..") for s in segments):
        raise UnsafeSourceError("Repository URLs may not contain '.' or '..' path segments")
    if host in ("github.com", "www.github.com"):
        return _parse_github(segments, ref)
    return _parse_generic(scheme, netloc, host, segments, ref)


def _split_tree(rest: list[str], ref: str | None) -> tuple[str | None, str]:
    """``tree|blob/<ref>/<path…>`` → (ref, subdir); a blob's directory is used."""
    kind, tail = rest[0], rest[1:]
    if not tail:
        return ref, ""
    if ref:
        joined = "/".join(tail)
        if joined != ref and not joined.startswith(ref + "/"):
            raise SourceError(f"The ref {ref!r} does not match the URL's /{kind}/{joined}")
        tail = joined[len(ref) + 1 :].split("/") if joined != ref else []
    else:
        ref, tail = _check_ref(tail[0]), tail[1:]
    tail = tail[:-1] if kind == "blob" else tail
    if any(p in (".", "..") or "\\" in p for p in tail):  # subdirectories stay inside the repository
        raise UnsafeSourceError("The subdirectory in the URL may not contain '.' or '..' segments")
    return ref, "/".join(tail)


def _parse_github(segments: list[str], ref: str | None) -> SourceSpec:
    """``github.com/owner/repo[.git][/tree/<ref>[/dir]|/blob/<ref>/file|/commit/<sha>]``."""
    if len(segments) < 2:
        raise SourceError("A GitHub URL needs an owner and a repository: https://github.com/owner/repo")
    owner, name = segments[0], segments[1].removesuffix(".git")
    if not _OWNER_RE.match(owner) or not _NAME_RE.match(name):
        raise SourceError(f"Not a valid GitHub owner/repository: {owner[:40]}/{name[:100]}")
    rest, subdir = segments[2:], ""
    if rest and rest[0] in ("tree", "blob"):
        ref, subdir = _split_tree(rest, ref)
    elif rest and rest[0] == "commit" and len(rest) == 2 and _SHA_RE.match(rest[1]):
        ref = ref or rest[1]
    elif rest:
        raise SourceError(f"Unsupported GitHub URL path /{'/'.join(rest)[:60]}: use {_GITHUB_FORM}")
    web = f"https://github.com/{owner}/{name}"
    display = "/".join([web, *segments[2:]])
    return SourceSpec(
        "remote", f"{web}.git", None, "github.com", owner, name, ref, subdir, web, display, _slug(f"{owner}-{name}")
    )


def _parse_generic(scheme: str, netloc: str, host: str, segments: list[str], ref: str | None) -> SourceSpec:
    """Any other git host; GitLab's ``/-/tree/<ref>/<dir>`` is understood."""
    subdir = ""
    if "-" in segments:
        cut = segments.index("-")
        if segments[cut + 1 : cut + 2] and segments[cut + 1] in ("tree", "blob"):
            ref, subdir = _split_tree(segments[cut + 1 :], ref)
        segments = segments[:cut]
    if not segments:
        raise SourceError(f"The URL names no repository: {_HELP}")
    name = segments[-1].removesuffix(".git")
    owner = "/".join(segments[:-1]) or None
    clone_url = f"{scheme}://{netloc}/" + "/".join(quote(s, safe="._~+-") for s in segments)
    default = _slug(f"{segments[-2]}-{name}" if owner else name)
    return SourceSpec("remote", clone_url, None, host, owner, name, ref, subdir, None, clone_url, default)


def _parse_file_url(url: str, ref: str | None, allow_local: bool) -> SourceSpec:
    """``file:///path/repo.git``: cloned like a remote, but reads local disk, hence ``allow_local``."""
    if not allow_local:
        raise UnsafeSourceError("file:// sources are not allowed here: use an https:// URL")
    try:
        parts = urlsplit(url)
    except ValueError:
        raise UnsafeSourceError("file:// URLs must name an absolute path on this machine, without '..'") from None
    path = Path(unquote(parts.path))
    if parts.netloc not in ("", "localhost") or not path.is_absolute() or ".." in path.parts:
        raise UnsafeSourceError("file:// URLs must name an absolute path on this machine, without '..'")
    clone_url = "file://" + quote(str(path))
    name = path.name.removesuffix(".git") or "repo"
    return SourceSpec("remote", clone_url, path, None, None, name, ref, "", None, clone_url, _slug(name))


def resolve_source(spec: str, settings: Settings, *, ref: str | None = None, token: str | None = None,
                   progress: Progress | None = None, allow_local: bool = True) -> ResolvedSource:  # fmt: skip
    """Give back a local working tree for ``spec``: the directory itself, or a fresh shallow clone."""
    parsed = parse_source(spec, ref=ref, allow_local=allow_local, allow_insecure=settings.allow_insecure_sources)
    resolved = _resolve_local(parsed) if parsed.kind == "local" else None
    if resolved is None:  # a remote, or a bare local repository (it has no files to read in place)
        if parsed.kind == "local":
            parsed = replace(parsed, kind="remote", clone_url=Path(parsed.display).as_uri())
        elif token is None and settings.github_token is not None and parsed.host == "github.com":
            token = settings.github_token.get_secret_value()
        resolved = _clone(parsed, settings, token or None, progress)
    if resolved.subdir and not (resolved.root / resolved.subdir).is_dir():
        raise SourceError(f"No directory {resolved.subdir!r} in {resolved.spec}")
    return resolved


def _resolve_local(parsed: SourceSpec) -> ResolvedSource | None:
    """Use a local directory in place (None for a bare repository, which must be cloned)."""
    assert parsed.local_path is not None
    try:
        repo = git.Repo(parsed.local_path)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        repo = None
    if repo is not None and repo.bare:
        return repo.close()  # None: the caller clones it
    if parsed.ref:
        hint = f"check out {parsed.ref!r} yourself, or clone it with {parsed.local_path.as_uri()}"
        raise SourceError(f"A ref cannot be chosen for a local directory (codeqa never changes your checkout): {hint}")
    sha, branch = _head_info(repo) if repo is not None else (None, None)
    kind = "local-dir" if repo is None else "local-git"
    return ResolvedSource(parsed.display, parsed.local_path, "", kind, branch, sha, None, parsed.default_name)


def _head_info(repo: git.Repo) -> tuple[str | None, str | None]:
    """(sha of HEAD, branch name); a repository without commits has neither sha nor a usable HEAD."""
    with repo:
        branch = None if repo.head.is_detached else repo.head.ref.name
        return (repo.head.commit.hexsha if repo.head.is_valid() else None), branch


class _Progress(RemoteProgress):
    """Forward git's progress lines to the caller's ``progress(message, fraction)``."""

    _STAGES = {RemoteProgress.COUNTING: "Counting objects", RemoteProgress.COMPRESSING: "Compressing objects",
               RemoteProgress.RECEIVING: "Receiving objects", RemoteProgress.RESOLVING: "Resolving deltas",
               RemoteProgress.CHECKING_OUT: "Checking out files"}  # fmt: skip

    def __init__(self, callback: Progress | None) -> None:
        super().__init__()
        self.callback = callback
        self.failure: Exception | None = None  # raised by the callback; re-raised in the caller's thread

    def update(self, op_code: int, cur: str | float, total: str | float | None = None, message: str = "") -> None:
        if self.callback is None:
            return
        stage = self._STAGES.get(op_code & self.OP_MASK, "Cloning")
        fraction = min(1.0, float(cur) / float(total)) if total else None
        try:
            self.callback(stage, fraction)
        except Exception as exc:  # this runs in GitPython's reader thread: hand it back instead of losing it
            self.failure, self.callback = exc, None


class _GitFailed(Exception):
    """A git command exited non-zero; ``args[0]`` is its stderr (may contain secrets: sanitize before showing)."""


def _git_env(token: str | None, clone_url: str) -> dict[str, str]:
    """Environment for network git commands: never prompt, token only as an in-memory header."""
    scheme = clone_url.split("://", 1)[0]
    env = {"GIT_TERMINAL_PROMPT": "0", "GCM_INTERACTIVE": "never", "GIT_ALLOW_PROTOCOL": scheme,
           "GIT_LFS_SKIP_SMUDGE": "1", "GIT_CONFIG_COUNT": "0"}  # fmt: skip
    if token:
        basic = base64.b64encode(f"x-access-token:{token}".encode()).decode()
        origin = "/".join(clone_url.split("/", 3)[:3]) + "/"
        key = f"http.{origin}.extraHeader" if scheme in ("http", "https") else "http.extraHeader"
        env.update(GIT_CONFIG_COUNT="1", GIT_CONFIG_KEY_0=key, GIT_CONFIG_VALUE_0=f"Authorization: Basic {basic}")
    return env


def _run_git(args: list[str], cwd: Path, env: dict[str, str], deadline: float, progress: Progress | None) -> None:
    """Run one git command under the clone deadline; ``_GitFailed`` with its stderr when it fails."""
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise TimeoutError
    handler = _Progress(progress)
    proc = git.Git(str(cwd)).execute(["git", *args], as_process=True, universal_newlines=True, env=env)
    try:
        handle_process_output(proc, None, handler.new_message_handler(), None, False, kill_after_timeout=remaining)
        if getattr(proc, "_timeout_error", None) or time.monotonic() >= deadline:
            raise TimeoutError
        if proc.proc is not None and proc.proc.wait() != 0:
            raise _GitFailed("\n".join(handler.other_lines + handler.error_lines))
    finally:
        proc._terminate()
    if handler.failure is not None:
        raise handler.failure


def _fetch(parsed: SourceSpec, tmp: Path, env: dict[str, str], deadline: float, progress: Progress | None) -> None:
    """Shallow clone into ``tmp``; a commit SHA is fetched by itself (init + fetch --depth 1 + checkout)."""
    url, ref = parsed.clone_url or "", parsed.ref
    if ref and _SHA_RE.match(ref):
        _run_git(["init", "-q", "--", str(tmp)], tmp, env, deadline, None)
        _run_git(["remote", "add", "origin", "--", url], tmp, env, deadline, None)
        _run_git(["fetch", "--depth=1", "--progress", "origin", ref], tmp, env, deadline, progress)
        _run_git(["-c", "advice.detachedHead=false", "checkout", "-q", "FETCH_HEAD"], tmp, env, deadline, progress)
    else:
        branch = ["--branch", ref] if ref else []
        args = ["clone", "--depth=1", "--single-branch", "--progress", *branch, "--", url, str(tmp)]
        _run_git(args, tmp.parent, env, deadline, progress)


def _clone(parsed: SourceSpec, settings: Settings, token: str | None, progress: Progress | None) -> ResolvedSource:
    """Clone into a temporary sibling, then swap it in: a failed clone never destroys the previous one."""
    assert parsed.clone_url is not None
    (clones := settings.clones_dir).mkdir(parents=True, exist_ok=True)
    dest = clones / f"{parsed.default_name}-{hashlib.sha256(parsed.clone_url.encode()).hexdigest()[:8]}"
    _remove_leftovers(dest)
    tmp = Path(tempfile.mkdtemp(prefix=f".{dest.name}.{os.getpid()}.", suffix=".partial", dir=clones))
    if progress:
        progress(f"Cloning {parsed.display}", None)
    try:
        _fetch(
            parsed, tmp, _git_env(token, parsed.clone_url), time.monotonic() + settings.clone_timeout_seconds, progress
        )
        sha, branch = _head_info(git.Repo(tmp))
        _swap_in(tmp, dest)
    except TimeoutError:
        hint = f"{settings.clone_timeout_seconds} s: raise CODEQA_CLONE_TIMEOUT_SECONDS or check your network"
        raise CloneError(f"Cloning {parsed.display} took longer than {hint}") from None
    except _GitFailed as exc:
        raise CloneError(_clone_failure(parsed, exc.args[0], token)) from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if progress:
        progress(f"Cloned {parsed.display} at {(sha or 'empty repository')[:12]}", 1.0)
    return ResolvedSource(
        parsed.display, dest, parsed.subdir, "git", parsed.ref or branch, sha, parsed.web_url, parsed.default_name
    )


def _remove_leftovers(dest: Path) -> None:
    """Delete the temporary trees of clones whose process was killed (``.<name>.<pid>.….partial``, ``.old-<pid>-…``)."""
    pattern = re.compile(rf"^\.{re.escape(dest.name)}\.(?:old-)?(\d+)[.-]")
    for path in dest.parent.glob(f".{dest.name}.*"):
        match = pattern.match(path.name)
        if match and not process_alive(int(match[1])):  # a live process may still be cloning: leave it
            shutil.rmtree(path, ignore_errors=True)


def _swap_in(tmp: Path, dest: Path) -> None:
    """Replace ``dest`` by ``tmp`` with renames (the old tree is removed only after the new one is in place)."""
    old = dest.with_name(f".{dest.name}.old-{os.getpid()}-{time.monotonic_ns()}")
    if dest.exists():
        dest.rename(old)
    try:
        tmp.rename(dest)
    except OSError:
        if old.exists():
            old.rename(dest)
        raise
    shutil.rmtree(old, ignore_errors=True)


def _clone_failure(parsed: SourceSpec, stderr: str, token: str | None) -> str:
    """One actionable line for the common ways a clone fails."""
    if token:  # git never prints the header, but be certain: plain and base64 forms, and URL userinfo
        basic = base64.b64encode(f"x-access-token:{token}".encode()).decode()
        stderr = stderr.replace(basic, "***").replace(token, "***")
    text = re.sub(r"(\w+://)[^/\s@]+@", r"\1", stderr)
    low, where = text.lower(), parsed.display
    if parsed.ref and ("remote branch" in low or "couldn't find remote ref" in low or "not our ref" in low):
        hint = " (a commit needs its full 40-character SHA)" if re.fullmatch("[0-9a-f]{4,39}", parsed.ref) else ""
        return f"Ref {parsed.ref!r} was not found in {where}{hint}"
    if any(marker in low for marker in _NETWORK_MARKERS):
        return f"Could not reach {parsed.host or where}: check your network connection or proxy"
    if any(marker in low for marker in _MISSING_MARKERS):
        hint = "check the URL, or set CODEQA_GITHUB_TOKEN / pass a token if it is private"
        return f"Repository {where} was not found or is private: {hint}"
    last = next((ln for ln in reversed(text.splitlines()) if ln.startswith(("fatal:", "error:"))), "")
    return f"git could not clone {where}: {last.strip()[:300] or 'unknown error'}"
