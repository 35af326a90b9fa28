"""Find or make a local working tree for a parsed source: use a local directory in place, or clone shallowly.

A clone goes to a temporary directory and is swapped in atomically, with a timeout; a killed clone leaves nothing
behind that the next run does not clean up. Runs on the same source share its clone folder, so the swap happens
under that folder's lock, and a caller that reads the tree afterwards (``hold=``) keeps the lock until it is done:
no run ever reads a tree another run is swapping out. A clone is fetched without checkout and its tree is checked
against the scan's limits first (``codeqa.source.checkout``): a git bomb is refused before it writes its files. A run
marks its clone in use until its index owns it (``codeqa.source.leftovers`` sweeps the clones nobody owns).
``settings.github_token`` is only sent to github.com; an explicit ``token=`` is sent to whatever host was asked. The
token travels only through git's environment config.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import os
import re
import shutil
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import git
from git.cmd import handle_process_output
from git.util import RemoteProgress

from codeqa.config import Settings
from codeqa.errors import CloneError, SourceError
from codeqa.locks import folder_lock
from codeqa.records import ProgressFn, ResolvedSource
from codeqa.source.checkout import check_tree, has_commit
from codeqa.source.leftovers import folder_lock_path, in_use, remove_dead_temporaries
from codeqa.source.parse import SHA_RE, SourceSpec, looks_like_git_dir, parse_source

_NETWORK_MARKERS = ("could not resolve host", "failed to connect", "connection refused", "network is unreachable",
                    "connection timed out", "couldn't connect")  # fmt: skip
_MISSING_MARKERS = ("not found", "does not appear to be a git repository", "authentication failed",
                    "could not read username", "terminal prompts disabled", "403", "401")  # fmt: skip


def resolve_source(spec: str, settings: Settings, *, ref: str | None = None, token: str | None = None,
                   progress: ProgressFn | None = None, allow_local: bool = True,
                   hold: contextlib.ExitStack | None = None,
                   keep: contextlib.ExitStack | None = None) -> ResolvedSource:  # fmt: skip
    """Give back a local working tree for ``spec``: the directory itself, or a fresh shallow clone (``hold``: the
    clone folder's lock stays on that stack until it is closed, so the tree cannot be swapped while it is read;
    ``keep``: the clone stays marked in use until that stack is closed, so no sweep of unowned clones deletes it
    before the caller's index owns it)."""
    parsed = parse_source(spec, ref=ref, allow_local=allow_local, allow_insecure=settings.allow_insecure_sources)
    resolved = _resolve_local(parsed) if parsed.kind == "local" else None
    if resolved is None:  # a remote, or a bare local repository (it has no files to read in place)
        if parsed.kind == "local":
            parsed = replace(parsed, kind="remote", clone_url=Path(parsed.display).as_uri())
        elif token is None and settings.github_token is not None and parsed.host == "github.com":
            token = settings.github_token.get_secret_value()
        resolved = _clone(parsed, settings, token or None, progress, hold, keep)
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
    if (repo is not None and repo.bare) or looks_like_git_dir(parsed.local_path):  # no files to read in place
        return repo.close() if repo is not None else None  # None: the caller clones it
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

    def __init__(self, callback: ProgressFn | None) -> None:
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


def _run_git(args: list[str], cwd: Path, env: dict[str, str], deadline: float, progress: ProgressFn | None) -> None:
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


def _fetch(parsed: SourceSpec, tmp: Path, settings: Settings, env: dict[str, str], deadline: float,
           progress: ProgressFn | None) -> None:  # fmt: skip
    """Shallow clone into ``tmp`` without checkout, check the tree against the limits, then check it out; a commit
    SHA is fetched by itself (init + fetch --depth 1)."""
    url, ref = parsed.clone_url or "", parsed.ref
    if ref and SHA_RE.match(ref):
        _run_git(["init", "-q", "--", str(tmp)], tmp, env, deadline, None)
        _run_git(["remote", "add", "origin", "--", url], tmp, env, deadline, None)
        _run_git(["fetch", "--depth=1", "--progress", "origin", ref], tmp, env, deadline, progress)
        rev = "FETCH_HEAD"
    else:
        branch = [f"--branch={ref}"] if ref else []  # attached: a branch named "-evil" cannot read as an option
        args = ["clone", "--depth=1", "--single-branch", "--no-checkout", "--progress", *branch, "--", url, str(tmp)]
        _run_git(args, tmp.parent, env, deadline, progress)
        rev = "HEAD"
    if has_commit(tmp, rev, env):  # an empty repository has nothing to check out
        check_tree(tmp, rev, settings, env, deadline, parsed.display)
        _run_git(["-c", "advice.detachedHead=false", "checkout", "-q", rev], tmp, env, deadline, progress)


def _clone(parsed: SourceSpec, settings: Settings, token: str | None, progress: ProgressFn | None,
           hold: contextlib.ExitStack | None, keep: contextlib.ExitStack | None) -> ResolvedSource:  # fmt: skip
    """Clone into a temporary sibling, then swap it in under the folder's lock: a failed clone never destroys the
    previous one, and two runs never swap the same folder at once."""
    assert parsed.clone_url is not None
    (clones := settings.clones_dir).mkdir(parents=True, exist_ok=True)
    dest = clones / f"{parsed.default_name}-{hashlib.sha256(parsed.clone_url.encode()).hexdigest()[:8]}"
    remove_dead_temporaries(clones)
    tmp = Path(tempfile.mkdtemp(prefix=f".{dest.name}.{os.getpid()}.", suffix=".partial", dir=clones))
    if progress:
        progress(f"Cloning {parsed.display}", None)
    try:
        deadline = time.monotonic() + settings.clone_timeout_seconds
        _fetch(parsed, tmp, settings, _git_env(token, parsed.clone_url), deadline, progress)
        sha, branch = _head_info(git.Repo(tmp))
        with contextlib.ExitStack() as local:
            locks = settings.home_dir / "locks"
            (hold if hold is not None else local).enter_context(folder_lock(folder_lock_path(locks, dest.name)))
            # in use (no sweep deletes it) from before it is in place until the caller's index owns it
            (keep if keep is not None else hold if hold is not None else local).enter_context(in_use(locks, dest.name))
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
