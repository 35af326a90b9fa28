"""Indexing in a background thread, so it survives page switches (app) or requests (API) and can be cancelled.

The app's page starts a job and polls it from an ``st.fragment(run_every=…)``; the HTTP API and the MCP server
poll the same job for its status and progress. Cancel sets an event that the progress callback checks, which
raises ``IndexCancelled`` inside the index writer (the previous index is left untouched). Plain threading.
"""

from __future__ import annotations

import contextlib
import ctypes
import threading
import time
import uuid
from dataclasses import dataclass, field

from codeqa.config import Settings
from codeqa.errors import CodeqaError, IndexBusyError, IndexCancelled, SourceError
from codeqa.explore import Prepared, prepare
from codeqa.index import STAGES, Index, IndexReport, ProgressEvent
from codeqa.source import looks_like_git_dir, parse_source

# Share of the whole run each stage usually takes; chunk/embed/store interleave per batch, so they share one span.
_MAIN = ("chunk", "embed", "store")
_SPANS = {"clone": (0.0, 0.05), "scan": (0.05, 0.1), "chunk": (0.1, 1.0), "embed": (0.1, 1.0), "store": (0.1, 1.0)}


def check_source(source: str, ref: str | None) -> str:
    """Validate what the user typed before starting a thread; returns the source as safe to display.

    ``file://`` reads no more than a local path does (both are accepted); it must name a git repository that exists.
    """
    spec = parse_source((source or "").strip(), ref=ref or None)
    if spec.clone_url and spec.clone_url.startswith("file://") and spec.local_path is not None:
        if not spec.local_path.is_dir():
            raise SourceError(f"No such directory: {spec.local_path} (file:// must name a git repository here)")
        if not (looks_like_git_dir(spec.local_path) or (spec.local_path / ".git").exists()):
            raise SourceError(
                f"{spec.local_path} is not a git repository: paste the path itself ({spec.local_path}) to index "
                "the folder as it is"
            )
    return spec.display


@dataclass
class IndexJob:
    """One indexing run: its latest event per stage, timing, and outcome (report, error or cancelled)."""

    source: str
    name: str | None
    ref: str | None = None
    label: str = ""  # the source without credentials, for display
    started: float = field(default_factory=time.time)
    events: dict[str, ProgressEvent] = field(default_factory=dict)
    stage: str = "clone"
    finished: float | None = None
    report: IndexReport | None = None
    error: str | None = None
    cancelled: bool = False
    seen: bool = False  # the page has shown the outcome once (and refreshed the index list)
    cancel_event: threading.Event = field(default_factory=threading.Event)
    prepared: Prepared | None = None  # the map and overview, laid out right after indexing
    prepare_error: str | None = None
    thread: threading.Thread | None = None
    id: str = field(default_factory=lambda: uuid.uuid4().hex[:12])
    update: bool = False  # bring index ``name`` up to date (only changed files) instead of indexing ``source``
    owner: str | None = None  # who started it (an app session): its outcome is theirs to see
    _main_started: float | None = None
    _peak: float = 0.0  # the highest fraction reported so far: progress never goes backwards

    @property
    def running(self) -> bool:
        return self.finished is None

    @property
    def elapsed(self) -> float:
        return (self.finished or time.time()) - self.started

    def on_progress(self, event: ProgressEvent) -> None:
        if self.cancel_event.is_set():
            raise IndexCancelled("Indexing was cancelled; the previous index (if any) is unchanged.")
        if event.stage in STAGES:
            self.stage = event.stage
            if event.stage in _MAIN and self._main_started is None:
                self._main_started = time.time()
        self.events[event.stage] = event

    @property
    def fraction(self) -> float:
        """Overall progress 0..1 (the chunk/embed/store span follows files processed)."""
        if not self.running:
            return 1.0
        start, end = _SPANS.get(self.stage, (0.0, 1.0))
        event = self.events.get(self.stage)
        within = event.fraction if event and event.fraction is not None else 0.0
        # the last steps (lexical index, graph) report no fraction: keep the peak so a bar (or an MCP client,
        # which requires increasing progress) never goes back, and below 1 until the job has finished
        self._peak = max(self._peak, min(0.99, start + (end - start) * within))
        return self._peak

    @property
    def eta(self) -> float | None:
        """Seconds left, extrapolated from the chunk→embed→store phase once it has made some progress."""
        event = self.events.get(self.stage)
        if not self.running or self._main_started is None or not event or not event.fraction:
            return None
        done = event.fraction
        if done < 0.02 or done >= 1.0:
            return None
        return (time.time() - self._main_started) * (1 - done) / done

    def stage_state(self, stage: str) -> str:
        """``done``, ``running``, ``stopped`` (failed or cancelled there) or ``pending`` for one of ``STAGES``."""
        if self.report is not None:
            return "done"
        order = list(STAGES)
        current = order.index(self.stage) if self.stage in order else 0
        interleaved = stage in _MAIN and self.stage in _MAIN and stage in self.events
        if stage == self.stage or interleaved:
            return "running" if self.running else "stopped"
        return "done" if order.index(stage) < current else "pending"

    def cancel(self) -> None:
        self.cancel_event.set()


def _run(job: IndexJob, settings: Settings, token: str | None) -> None:
    index: Index | None = None
    try:
        if job.update and job.name:
            index = Index.open(job.name, settings).update(token=token, progress=job.on_progress)
        else:
            index = Index.build(job.source, settings, name=job.name, ref=job.ref, token=token, progress=job.on_progress)
        job.report = index.report
    except IndexCancelled:
        job.cancelled = True
    except CodeqaError as exc:
        job.error = str(exc)
    except Exception as exc:  # a bug, not bad input: still show it instead of dying silently in a thread
        job.error = f"Indexing failed unexpectedly ({exc.__class__.__name__}: {exc})."
    finally:
        job.finished = time.time()
    if index is not None and job.report is not None:
        _prepare_views(job, index)
    index = None
    release_freed_memory()


def release_freed_memory() -> None:
    """Hand the heap that indexing (or a released index) freed back to the system: glibc keeps freed memory for
    reuse, so a server that indexed a large repository otherwise holds its peak for the rest of its life."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def _prepare_views(job: IndexJob, index: Index) -> None:
    """Right after indexing (the index is usable already): lay out the map and the overview, so they open at once."""
    try:
        job.prepared = prepare(index)
    except Exception as exc:  # the pages compute what is missing themselves, and say so if it fails
        job.prepare_error = f"{exc.__class__.__name__}: {exc}"


class JobRegistry:
    """The indexing jobs of this server process (one at a time: indexing is CPU-bound), by id."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.current: IndexJob | None = None
        self.jobs: dict[str, IndexJob] = {}

    def get(self, job_id: str) -> IndexJob | None:
        return self.jobs.get(job_id)

    def latest(self, owner: str | None = None) -> IndexJob | None:
        """The most recent job started by ``owner`` (any owner when None)."""
        with self._lock:
            mine = [job for job in self.jobs.values() if owner is None or job.owner == owner]
        return max(mine, key=lambda job: job.started, default=None)

    def start(
        self,
        source: str,
        settings: Settings,
        *,
        name: str | None = None,
        ref: str | None = None,
        token: str | None = None,
        update: bool = False,
        owner: str | None = None,
    ) -> IndexJob:
        """Index ``source`` as ``name`` in a thread; ``update=True`` re-indexes only what changed in index ``name``.

        ``owner`` (an app session) is who sees the outcome; everyone else sees only that it ran, and when."""
        with self._lock:
            if self.current is not None and self.current.running:
                raise IndexBusyError(f"Already indexing {self.current.label}; wait for it or cancel it first.")
            label = source if update else check_source(source, ref)
            if not update:  # another source's index is refused now, not after the clone (target.claim_name)
                name = Index.claim_name(source.strip(), settings, name=name, ref=ref or None)
            job = IndexJob(source=source, name=name, ref=ref or None, label=label, update=update, owner=owner)
            job.thread = threading.Thread(
                target=_run, args=(job, settings, token or None), name="codeqa-index", daemon=True
            )
            self.current = job
            self.jobs[job.id] = job
            job.thread.start()
            return job
