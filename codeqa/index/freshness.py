"""Is an index still fresh? What each indexed file looked like, and how the working tree differs from it now.

Indexing writes a file-state record beside the search files (``file-state.json``): per file the size, the
modification time and the content hash the chunks were made from (skipped files with an empty hash). Checking a
local source walks its tree with the scan's own ignore rules and stats each file; only a file whose size or time
changed is read and hashed again, so a check costs a directory walk, not a re-scan. A git source whose HEAD moved
is stale whatever its files say. A cloned (URL) source cannot be checked without the network: ``update`` fetches.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from codeqa.config import Settings
from codeqa.records import ScannedFile, SkippedFile, SourceFile
from codeqa.scan import iter_candidate_paths
from codeqa.scan.files import examine_file
from codeqa.store import Manifest, manifest_dir
from codeqa.store.layout import write_atomically

STATE_FILE = "file-state.json"
STATE_VERSION = 1
LOCAL_KINDS = ("local-git", "local-dir")


@dataclass
class FileState:
    """What was indexed: ``path → (size, mtime_ns, content hash)``; the hash is ``""`` for a skipped file."""

    files: dict[str, tuple[int, int, str]] = field(default_factory=dict)

    def hashes(self) -> dict[str, str]:
        return {path: digest for path, (_, _, digest) in self.files.items() if digest}


@dataclass
class Freshness:
    state: str  # "fresh", "stale" or "unknown"
    reason: str  # one line for a user
    changed: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    head: str | None = None  # the working tree's HEAD now (git sources)

    @property
    def stale(self) -> bool:
        return self.state == "stale"


def _stat(path: Path) -> tuple[int, int]:
    try:
        info = os.stat(path, follow_symlinks=False)
    except OSError:
        return -1, -1
    return info.st_size, info.st_mtime_ns


def record_state(root: Path, files: Iterable[ScannedFile], skipped: Iterable[SkippedFile]) -> FileState:
    """The state of the files a scan just read (stat now: a file edited since is seen as changed next time)."""
    state = FileState()
    for file in files:
        state.files[file.path] = (*_stat(root / file.path), file.hash)
    for item in skipped:
        if not item.path.endswith("/"):
            state.files.setdefault(item.path, (*_stat(root / item.path), ""))
    return state


def save_state(directory: Path, state: FileState) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    write_atomically(directory / STATE_FILE, json.dumps({"version": STATE_VERSION, "files": state.files},
                                                         separators=(",", ":")))  # fmt: skip


def load_state(settings: Settings, manifest: Manifest) -> FileState | None:
    """The file state of an index generation; None when it was built before states were recorded."""
    try:
        data = json.loads((manifest_dir(settings, manifest) / STATE_FILE).read_text())
        if data.get("version") != STATE_VERSION:
            return None
        return FileState({path: tuple(value) for path, value in data["files"].items()})  # type: ignore[misc]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def git_head(root: Path) -> str | None:
    """The commit checked out at ``root`` (None when it is not a git working tree or has no commit)."""
    import git

    try:
        with git.Repo(root) as repo:
            return repo.head.commit.hexsha if repo.head.is_valid() else None
    except (git.InvalidGitRepositoryError, git.NoSuchPathError, ValueError):
        return None


def check_freshness(settings: Settings, manifest: Manifest) -> Freshness:
    """Compare a local source's working tree (HEAD and files) with what its index was built from."""
    if manifest.source_kind not in LOCAL_KINDS:
        return Freshness("unknown", "a cloned source: `update` fetches it and re-indexes what changed")
    root = Path(manifest.root)
    if not root.is_dir():
        return Freshness("unknown", f"the directory {root} is gone")
    state = load_state(settings, manifest)
    head = git_head(root) if manifest.source_kind == "local-git" else None
    moved = manifest.sha is not None and head is not None and head != manifest.sha
    if state is None:
        reason = f"HEAD moved {manifest.sha[:10]} → {head[:10]}" if moved and manifest.sha and head else ""
        return Freshness("stale" if moved else "unknown", reason or "indexed before file states were kept", head=head)
    result = Freshness("fresh", "", head=head)
    seen: set[str] = set()
    for rel, entry, reason in iter_candidate_paths(root, subdir=manifest.subdir):
        if reason is not None or entry is None:
            continue
        seen.add(rel)
        before = state.files.get(rel)
        size_time = _stat(root / rel)
        if before is not None and tuple(before[:2]) == size_time:
            continue
        outcome = examine_file(entry, rel, settings)
        digest = outcome.hash if isinstance(outcome, SourceFile) else ""
        if before is None:
            if digest:
                result.added.append(rel)
        elif digest != before[2]:
            result.changed.append(rel)
    result.removed = sorted(path for path, value in state.files.items() if value[2] and path not in seen)
    counts = [f"{len(items)} {word}" for items, word in
              ((result.changed, "changed"), (result.added, "added"), (result.removed, "removed")) if items]  # fmt: skip
    parts = [f"HEAD moved {manifest.sha[:10]} → {head[:10]}"] if moved and manifest.sha and head else []
    if counts:
        parts.append("files: " + ", ".join(counts))
    if parts:
        result.state, result.reason = "stale", "; ".join(parts)
    return result
