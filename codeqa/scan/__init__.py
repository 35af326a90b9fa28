"""Which files to index: walk a working tree, apply ignore rules and file filters, decode text.

The result keeps what is known of each selected file (``ScannedFile``: language, size, hash, lines), never its
text: the index reads each file again when it chunks it (``read_source``), so memory stays bounded by the number of
files, not by the repository's bytes (up to ``CODEQA_MAX_TOTAL_BYTES``, 2 GB by default).

Every file the scan passes over is either returned or reported with a reason (``SKIP_REASONS``) — never
dropped silently. Two cheap exceptions: VCS metadata (``.git``, ``.hg`` …) is not reported at all, and a
skipped *directory* (vendored, gitignored, unreadable) is reported as ONE ``SkippedFile`` whose path ends in
``/`` instead of one entry per file inside it (counting ``node_modules`` file by file would cost more than the
whole scan). Symlinks are never followed or read. Only ``.gitignore`` files and ``.git/info/exclude`` are
honoured (not the user's global excludes file: what gets indexed should not depend on who indexes it).
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from codeqa.config import Settings
from codeqa.errors import ScanError
from codeqa.records import ProgressFn, ScanResult, SkippedFile, SkipReason, SourceFile
from codeqa.scan.docs_output import generated_docs_folders, inside
from codeqa.scan.files import decode_text, examine_file, notebook_text, read_source
from codeqa.scan.walk import iter_candidate_paths

__all__ = ["SKIP_REASONS", "decode_text", "iter_candidate_paths", "notebook_text", "read_source", "scan_repository"]

SKIP_REASONS = tuple(SkipReason)
_PROGRESS_EVERY = 1000


def _check_subdir(root: Path, subdir: str) -> str:
    """Normalize ``subdir`` and make sure it is a real directory inside ``root`` (no ``..``, no symlink)."""
    clean = subdir.strip().strip("/")
    if not clean:
        return ""
    parts = PurePosixPath(clean).parts
    if any(p in ("..", ".") for p in parts) or "\\" in clean:
        raise ScanError(f"Invalid subdirectory {subdir!r}: use a path relative to the repository root")
    current = root
    for part in parts:
        current = current / part
        if current.is_symlink() or not current.is_dir():
            raise ScanError(f"No directory {clean!r} in {root}")
    return "/".join(parts)


def scan_repository(
    root: Path, settings: Settings, *, subdir: str = "", progress: ProgressFn | None = None
) -> ScanResult:
    """Select the files to index below ``root/subdir`` (each read and decoded once, then let go); paths stay
    relative to ``root``.

    Raises ``ScanError`` when a limit (``max_files``, ``max_total_bytes``) is exceeded, so a monorepo fails fast
    with the setting to raise instead of indexing for an hour.
    """
    root = Path(root)
    if not root.is_dir():
        raise ScanError(f"No such directory: {root}")
    subdir = _check_subdir(root, subdir)
    result = ScanResult()
    total_bytes, seen = 0, 0
    for rel, entry, reason in iter_candidate_paths(root, subdir=subdir):
        seen += 1
        if progress and seen % _PROGRESS_EVERY == 0:
            progress(f"Scanned {seen} files, {len(result.files)} to index", None)
        if reason is None and entry is not None:
            outcome = examine_file(entry, rel, settings)
            if isinstance(outcome, SourceFile):
                result.files.append(outcome.scanned())  # its text is dropped here
                total_bytes += outcome.size
                _check_limits(len(result.files), total_bytes, settings)
                continue
            reason = outcome
        result.skipped.append(SkippedFile(rel, reason or SkipReason.UNSUPPORTED_TYPE))
    _skip_generated_docs_folders(result)
    result.files.sort(key=lambda f: f.path)
    result.skipped.sort(key=lambda s: s.path)
    if progress:
        progress(f"Scanned {seen} files: {len(result.files)} to index, {len(result.skipped)} skipped", 1.0)
    return result


def _skip_generated_docs_folders(result: ScanResult) -> None:
    """A generator's unmarked pages (navigation, styles, copied sources) go with the marked pages of their folder.

    Each file is reported on its own (not the folder once) so that the file states an update compares with know
    every one of them.
    """
    marked = [item.path for item in result.skipped if item.reason is SkipReason.GENERATED_DOCS]
    if not marked:
        return
    folders = generated_docs_folders(marked, ((file.path, file.language) for file in result.files))
    moved = [file for file in result.files if inside(file.path, folders)]
    if moved:
        result.files = [file for file in result.files if not inside(file.path, folders)]
        result.skipped.extend(SkippedFile(file.path, SkipReason.GENERATED_DOCS) for file in moved)


def _check_limits(files: int, total_bytes: int, settings: Settings) -> None:
    """Fail as soon as a limit is crossed, naming the number and the setting."""
    if files > settings.max_files:
        raise ScanError(
            f"More than {settings.max_files:,} indexable files (stopped counting at {files:,}): index a "
            "subdirectory, or raise the limit with CODEQA_MAX_FILES"
        )
    if total_bytes > settings.max_total_bytes:
        raise ScanError(
            f"Indexable files exceed {settings.max_total_bytes:,} bytes (at least {total_bytes:,}): index a "
            "subdirectory, or raise the limit with CODEQA_MAX_TOTAL_BYTES"
        )
