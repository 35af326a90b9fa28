"""Check a fetched tree before anything is checked out: a git bomb (a tiny repository whose tree names one blob
under 100,000 paths) must be refused before it writes gigabytes and an inode per path.

The tree is read with ``git ls-tree -r -l`` and every blob counts against ``CODEQA_MAX_FILES`` and
``CODEQA_MAX_TOTAL_BYTES``: everything a checkout writes, not only what the scan would index. Checkout writes
vendored, ignored and binary files to disk as well, and those cannot be told apart by path before checkout
without reimplementing the scan's rules on the tree; the limits guard the disk as much as the index, so a tree over
them is refused whatever the scan would have kept. The message names the setting to raise.
"""

from __future__ import annotations

import time
from pathlib import Path

import git

from codeqa.config import Settings
from codeqa.errors import ScanError

_READ = 1 << 16


class _Tree:
    """Running totals over ``ls-tree -z`` records (``<mode> <type> <object> <size>\\t<path>\\0``)."""

    def __init__(self) -> None:
        self.files, self.bytes, self.rest = 0, 0, b""

    def feed(self, data: bytes) -> None:
        *records, self.rest = (self.rest + data).split(b"\0")
        for record in records:
            meta = record.split(b"\t", 1)[0].split()
            if len(meta) == 4 and meta[1] == b"blob":  # a submodule (commit) is never checked out
                self.files += 1
                self.bytes += int(meta[3]) if meta[3].isdigit() else 0


def has_commit(repo: Path, rev: str, env: dict[str, str]) -> bool:
    """False for an empty repository (nothing to check, nothing to check out)."""
    status, _, _ = git.Git(str(repo)).execute(["git", "rev-parse", "--verify", "-q", f"{rev}^{{tree}}"], env=env,
                                              with_extended_output=True, with_exceptions=False)  # fmt: skip
    return status == 0


def check_tree(repo: Path, rev: str, settings: Settings, env: dict[str, str], deadline: float, where: str) -> None:
    """Refuse (``ScanError``) a tree whose checkout would exceed the file or byte limit; stops reading at the limit.
    ``TimeoutError`` past ``deadline``."""
    args = ["git", "ls-tree", "-r", "-l", "-z", "--full-tree", rev]
    proc = git.Git(str(repo)).execute(args, as_process=True, env=env)
    tree = _Tree()
    try:
        while data := proc.proc.stdout.read1(_READ):  # type: ignore[union-attr]
            tree.feed(data)
            if tree.files > settings.max_files or tree.bytes > settings.max_total_bytes:
                break
            if time.monotonic() >= deadline:
                raise TimeoutError
    finally:
        proc._terminate()
    if tree.files > settings.max_files:
        raise ScanError(
            f"{where} was refused before checkout: its tree holds more than {settings.max_files:,} files (stopped "
            f"counting at {tree.files:,}), and checking it out would write every one to disk. Index a smaller "
            "repository, or raise the limit with CODEQA_MAX_FILES"
        )
    if tree.bytes > settings.max_total_bytes:
        raise ScanError(
            f"{where} was refused before checkout: its files hold more than {settings.max_total_bytes:,} bytes (at "
            f"least {tree.bytes:,}), and checking it out would write them all to disk. Index a smaller repository, "
            "or raise the limit with CODEQA_MAX_TOTAL_BYTES"
        )
