"""Per-key rate limits in Redis with the ``limits`` library (moving window).

Two limits per key: requests per second (every authenticated request) and audits per minute
(``POST /audits`` counts 1, ``POST /audits/batch`` counts its items). The defaults are
``RATE_LIMIT_PER_SECOND`` and ``AUDITS_PER_MINUTE``; a key's own values (``api_keys``) win; 0
means unlimited. Over a limit the API answers 429 with ``Retry-After`` (whole seconds until the
window has room again). When the counter store does not answer the request is let through and
a warning logged: the limits protect capacity, the keys protect data.
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass

from limits import RateLimitItem, RateLimitItemPerMinute, RateLimitItemPerSecond
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter

__all__ = ["RateLimiter", "Refused"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Refused:
    """A request over a limit: which one, and the seconds until it may be retried (>= 1)."""

    limit: str
    retry_after: int


class RateLimiter:
    """Moving-window limits per key id in the Redis at ``storage_url`` (namespace ``claimaudit``)."""

    def __init__(self, storage_url: str) -> None:
        self._storage = storage_from_string(storage_url, key_prefix="claimaudit-limits")
        self._limiter = MovingWindowRateLimiter(self._storage)

    def _hit(self, item: RateLimitItem, name: str, key: str, cost: int) -> Refused | None:
        try:
            if self._limiter.hit(item, name, key, cost=cost):
                return None
            stats = self._limiter.get_window_stats(item, name, key)
        except Exception:  # counter store down: let the request through (module docstring)
            log.warning("rate limit store unavailable; %s not enforced", name, exc_info=True)
            return None
        return Refused(name, max(1, math.ceil(stats.reset_time - time.time())))

    def request(self, key: str, per_second: int) -> Refused | None:
        """Count one request of ``key``; a ``Refused`` when over ``per_second`` (0: unlimited)."""
        if per_second <= 0:
            return None
        return self._hit(RateLimitItemPerSecond(per_second), "requests_per_second", key, 1)

    def audits(self, key: str, per_minute: int, count: int) -> Refused | None:
        """Count ``count`` audits of ``key``; a ``Refused`` when over ``per_minute`` (0: unlimited)."""
        if per_minute <= 0 or count <= 0:
            return None
        return self._hit(RateLimitItemPerMinute(per_minute), "audits_per_minute", key, count)
