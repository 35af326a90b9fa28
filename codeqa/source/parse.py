"""Parse what the user typed into a ``SourceSpec``, refusing anything that could run commands or leak secrets.

Decisions (the tests pin them down):
- SSH forms (``git@host:owner/repo.git``, ``ssh://…``) are converted to ``https://``: ssh needs keys or an agent,
  can prompt for host keys, and its command line is an injection surface; https carries our token uniformly.
- Credentials embedded in a URL (``https://user:tok@host/…``) are refused without echoing them; query strings and
  fragments (``?private_token=…``) are dropped. Tokens travel only through git's environment config.
- ``file://`` URLs (and bare repositories or mirrors given as a path) are cloned, gated by ``allow_local``; other
  local directories are used in place and never modified.
- ``git://`` to this machine (a team mirror served by ``git daemon`` on loopback) is accepted: nothing leaves the
  machine and git:// never carries a token. ``http://`` stays refused unless ``allow_insecure`` (a token would
  travel unencrypted); the message says what to paste instead.
- A default index name says what the repository is: ``owner-repo`` for a URL, a folder's name for a path. A folder
  called ``repo``, ``repo.git`` or ``.git`` (a bare mirror's path ends in ``/repo``) is named by its parent
  (``pallets+click/repo`` → ``pallets-click``), one called ``src``, ``code``, ``project``… by both (``shop-src``).
- ``/tree/<ref>/<more>`` is ambiguous when a branch has slashes: the first segment is the ref unless an explicit
  ``ref=`` is given, which must then be a prefix of ``<ref>/<more>``.
"""

from __future__ import annotations

import ipaddress
import os
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path, PurePath
from urllib.parse import quote, unquote, urlsplit

from codeqa.errors import SourceError, UnsafeSourceError

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
SHA_RE = re.compile(r"^(?:[0-9a-f]{40}|[0-9a-f]{64})$")
# "-evil" is a valid branch (a repository's default branch may be one): refs are only ever passed attached
# (--branch=-evil), so none can read as an option; "--…" is still refused as a likely mistake
_BAD_REF_RE = re.compile(r"[\s~^:?*\[\\\x00-\x1f\x7f]|\.\.|@\{|^--|^[/.]|/$|\.lock$|//")
_GITHUB_FORM = "https://github.com/owner/repo[/tree/<ref>[/<directory>]]"
_REMOTE = "give a GitHub URL (https://github.com/owner/repo), owner/repo, or another https git URL"
_HELP = _REMOTE.replace(", or", ",") + ", or a local directory"
# a folder called so stands for the repository itself: its parent says which one (a bare mirror's path ends in /repo)
_PLACEHOLDERS = frozenset({"", "repo", "repos", "repository", "git", "mirror", "clone", "checkout"})
# a folder called so is a part or a copy of a project: its name goes after the project's
_VAGUE = frozenset({"src", "source", "code", "project", "app", "main", "master", "trunk", "workspace"})


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
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip(".-_")[:63].rstrip(".-_") or "repo"


def _path_name(path: PurePath) -> str:
    """What to call a repository on disk: its folder's name, without ``.git``, or its parent's (see the docstring)."""
    parts = [part.removesuffix(".git") for part in path.parts[1:]]  # the root (``/``) names nothing
    while len(parts) > 1 and parts[-1].lower() in _PLACEHOLDERS:
        parts.pop()
    name = parts[-1] if parts else ""
    if len(parts) > 1 and name.lower() in _VAGUE:
        name = f"{parts[-2]}-{name}"
    return name or path.name


def source_key(display: str) -> str:
    """The repository a source names, to tell whether two indexes hold the same one: a folder on this machine or a
    clone URL (GitHub's in lower case). Neither the ref nor the spelling (``owner/repo``, ``.git``, ssh) changes it."""
    text = display.strip()
    if text.startswith("file://"):
        text = unquote(urlsplit(text).path)
    if text.startswith("/"):
        return "path:" + posixpath.normpath(text)
    try:
        spec = parse_source(text, allow_local=False, allow_insecure=True)
    except SourceError:
        return text
    url = (spec.clone_url or text).removesuffix(".git")
    return url.lower() if spec.host == "github.com" else url


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
    if not path.is_absolute() and (launched_in := os.environ.get("CODEQA_LAUNCH_DIR")):
        path = Path(launched_in) / path  # the served app runs in its own folder; "." is where `codeqa serve` ran
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
    return SourceSpec("local", None, root, None, None, name, ref, "", None, str(root), _slug(_path_name(root)))


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
        loopback = is_loopback_host(host)
        if not (loopback and (scheme == "git" or allow_insecure)):
            raise UnsafeSourceError(_insecure_hint(scheme, loopback))
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


def is_loopback_host(host: str) -> bool:
    """``localhost`` or a loopback address (127.0.0.0/8, ::1), exactly: ``127.evil.example`` and
    ``127.0.0.1.nip.io`` are names that other machines' DNS answers for."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _insecure_hint(scheme: str, loopback: bool) -> str:
    if loopback:  # http:// on this machine: a token would be sent in the clear
        return (
            "Insecure transport http:// refused: use https://, git://127.0.0.1/… for a local git daemon, or the "
            "repository's path on disk (e.g. /srv/git/repo.git)"
        )
    if scheme == "git":
        return (
            "Insecure transport git:// refused: git:// is accepted from this machine only (git://127.0.0.1/…); "
            "paste the https:// URL instead"
        )
    return "Insecure transport http:// refused: use an https:// URL"


def looks_like_git_dir(path: Path) -> bool:
    """A bare repository or mirror (or a ``.git`` folder), even one without a ``config`` file: git's own test."""
    return (path / "HEAD").is_file() and (path / "objects").is_dir() and (path / "refs").is_dir()


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
    elif rest and rest[0] == "commit" and len(rest) == 2 and SHA_RE.match(rest[1]):
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
    return SourceSpec("remote", clone_url, path, None, None, name, ref, "", None, clone_url, _slug(_path_name(path)))
