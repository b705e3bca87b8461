"""Rate limits per API key and per tenant with the ``limits`` library (moving window).

Two limits, each kept per key and per tenant: requests per second (every authenticated
request) and audits per minute (every audit admitted, ``service.admission``: ``POST /audits``
counts 1, a batch or a run its admitted items, a check the audits it creates). The per-key
defaults are ``RATE_LIMIT_PER_SECOND`` and ``AUDITS_PER_MINUTE`` (a key's own values in
``api_keys`` win); the per-tenant ones ``TENANT_RATE_LIMIT_PER_SECOND`` and
``TENANT_AUDITS_PER_MINUTE``, shared by all keys of the tenant (so minting keys does not raise
them). 0 means unlimited. Over a limit the caller gets a ``Refused``: which limit and the whole
seconds until the window has room again (the API answers 429 with ``Retry-After``).

The counters live in Redis (``RATE_LIMIT_STORAGE_URL``, else ``REDIS_URL``; key prefix
``claimaudit-limits``) so that all API processes share them. When that Redis does not answer
(connect and read time-outs of ``STORE_TIMEOUT_S``), each process counts in memory instead and
keeps using its memory counters for ``STORE_RETRY_S`` seconds before it asks Redis again: the
limits then hold per process, approximately (N API processes admit up to N times a limit), and
a warning is logged once per outage.
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass

from limits import RateLimitItem, RateLimitItemPerMinute, RateLimitItemPerSecond
from limits.storage import MemoryStorage, storage_from_string
from limits.strategies import MovingWindowRateLimiter

__all__ = ["RateLimiter", "Refused", "STORE_TIMEOUT_S", "STORE_RETRY_S"]

log = logging.getLogger(__name__)

#: Seconds to connect to, or wait for, the counter store before counting in memory.
STORE_TIMEOUT_S = 0.5
#: Seconds the memory counters stay in use after the counter store failed.
STORE_RETRY_S = 5.0


@dataclass(frozen=True, slots=True)
class Refused:
    """A request over a limit: which one, and the seconds until it may be retried (>= 1)."""

    limit: str
    retry_after: int


class RateLimiter:
    """Moving-window limits per key id and per tenant in the Redis at ``storage_url``, with
    in-process counters while it does not answer (module docstring)."""

    def __init__(self, storage_url: str) -> None:
        options = {"socket_timeout": STORE_TIMEOUT_S, "socket_connect_timeout": STORE_TIMEOUT_S}
        if not storage_url.startswith("redis"):
            options = {}
        self._storage = storage_from_string(storage_url, key_prefix="claimaudit-limits", **options)
        self._shared = MovingWindowRateLimiter(self._storage)
        self._local = MovingWindowRateLimiter(MemoryStorage())
        self._down_until = 0.0

    @property
    def local(self) -> bool:
        """True while the limits are counted in this process (the store failed recently)."""
        return time.monotonic() < self._down_until

    def _limiter(self) -> MovingWindowRateLimiter:
        return self._local if self.local else self._shared

    def _check(self, checks: list[tuple[RateLimitItem, str, str]], cost: int) -> Refused | None:
        """Count ``cost`` against every ``(item, name, id)`` when all have room; else the first
        that has none (nothing counted). Test, then hit: two requests at the same instant may
        both pass the test, so a limit can be passed by the requests in flight at once."""
        limiter = self._limiter()
        for item, name, ident in checks:
            if not limiter.test(item, name, ident, cost=cost):
                stats = limiter.get_window_stats(item, name, ident)
                return Refused(name, max(1, math.ceil(stats.reset_time - time.time())))
        for item, name, ident in checks:
            limiter.hit(item, name, ident, cost=cost)
        return None

    def _count(self, checks: list[tuple[RateLimitItem, str, str]], cost: int) -> Refused | None:
        if not checks or cost <= 0:
            return None
        try:
            return self._check(checks, cost)
        except Exception:  # the store does not answer: count in this process (module docstring)
            if not self.local:
                log.warning(
                    "rate limit store unavailable; limits counted per API process for %s s",
                    STORE_RETRY_S,
                    exc_info=True,
                )
            self._down_until = time.monotonic() + STORE_RETRY_S
            return self._check(checks, cost)

    def request(
        self, key: str, per_second: int, *, tenant: str | None = None, tenant_per_second: int = 0
    ) -> Refused | None:
        """Count one request of ``key`` (and of ``tenant``); a ``Refused`` when over ``per_second``
        or ``tenant_per_second`` (0: unlimited)."""
        checks: list[tuple[RateLimitItem, str, str]] = []
        if per_second > 0:
            checks.append((RateLimitItemPerSecond(per_second), "requests_per_second", key))
        if tenant is not None and tenant_per_second > 0:
            checks.append((RateLimitItemPerSecond(tenant_per_second), "tenant_requests_per_second", tenant))
        return self._count(checks, 1)

    def audits(
        self,
        key: str | None,
        per_minute: int,
        count: int,
        *,
        tenant: str | None = None,
        tenant_per_minute: int = 0,
    ) -> Refused | None:
        """Count ``count`` audits of ``key`` (None: no key) and of ``tenant``;
        a ``Refused`` when over ``per_minute`` or ``tenant_per_minute`` (0: unlimited)."""
        checks: list[tuple[RateLimitItem, str, str]] = []
        if key is not None and per_minute > 0:
            checks.append((RateLimitItemPerMinute(per_minute), "audits_per_minute", key))
        if tenant is not None and tenant_per_minute > 0:
            checks.append((RateLimitItemPerMinute(tenant_per_minute), "tenant_audits_per_minute", tenant))
        return self._count(checks, count)
