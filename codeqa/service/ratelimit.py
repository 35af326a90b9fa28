"""A per-client sliding-window rate limit (requests per hour), thread-safe, in memory.

Each (client, bucket) keeps the times of its recent requests; a request over the limit is refused with the
number of seconds until the oldest one leaves the window (the HTTP ``Retry-After``).
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Callable

WINDOW_SECONDS = 3600.0


class RateLimiter:
    def __init__(
        self,
        limits: dict[str, int],
        *,
        window: float = WINDOW_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limits = limits  # bucket → requests per window; 0 or missing = unlimited
        self.window = window
        self._clock = clock
        self._seen: dict[tuple[str, str], deque[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, client: str, bucket: str, now: float) -> deque[float]:
        times = self._seen.setdefault((client, bucket), deque())
        while times and times[0] <= now - self.window:
            times.popleft()
        return times

    def wait(self, client: str, bucket: str) -> int | None:
        """None when a request would be allowed now, else the whole seconds to wait; records nothing."""
        limit = self.limits.get(bucket, 0)
        if limit <= 0:
            return None
        now = self._clock()
        with self._lock:
            times = self._recent(client, bucket, now)
            return max(1, math.ceil(times[0] + self.window - now)) if len(times) >= limit else None

    def check(self, client: str, bucket: str) -> int | None:
        """Record a request; None when allowed, else the whole seconds to wait before retrying."""
        limit = self.limits.get(bucket, 0)
        if limit <= 0:
            return None
        now = self._clock()
        with self._lock:
            times = self._recent(client, bucket, now)
            if len(times) >= limit:
                return max(1, math.ceil(times[0] + self.window - now))
            times.append(now)
            return None
