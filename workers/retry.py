"""The retry policy of the stage tasks, as pure functions (pattern of procrastinate's ``retry.py``).

Capped exponential backoff with "equal jitter": the n-th retry (0-based) waits
``d/2 + U(0, d/2)`` seconds with ``d = min(cap, base * 2**n)``, so the delays never fall below
half the nominal value and two workers do not retry in step. With the defaults (base 2 s, cap
60 s, 10 retries) a transient error is retried for at least 181 s and at most 362 s before the
stage gives up: longer than a database restart or a broker failover (the issue's 2 minutes).
"""

from __future__ import annotations

import random

__all__ = ["BACKOFF_BASE_S", "BACKOFF_CAP_S", "backoff_s", "min_total_s"]

#: Nominal delay of the first retry, seconds.
BACKOFF_BASE_S = 2.0
#: Longest nominal delay, seconds.
BACKOFF_CAP_S = 60.0


def _nominal(retries: int, base: float, cap: float) -> float:
    return min(cap, base * 2.0 ** min(retries, 30))


def backoff_s(
    retries: int,
    *,
    base: float = BACKOFF_BASE_S,
    cap: float = BACKOFF_CAP_S,
    rng: random.Random | None = None,
) -> float:
    """Seconds to wait before retry number ``retries`` (0 for the first retry).

    Returns a float in ``[d/2, d]`` with ``d = min(cap, base * 2**retries)``.
    Raises ``ValueError`` for a negative ``retries``.

    >>> backoff_s(0, rng=random.Random(1)) >= 1.0
    True
    >>> 30.0 <= backoff_s(12, rng=random.Random(1)) <= 60.0
    True
    """
    if retries < 0:
        raise ValueError(f"retries must be >= 0, got {retries}")
    nominal = _nominal(retries, base, cap)
    return nominal / 2 + (rng or random).uniform(0, nominal / 2)


def min_total_s(max_retries: int, *, base: float = BACKOFF_BASE_S, cap: float = BACKOFF_CAP_S) -> float:
    """The shortest time ``max_retries`` retries can span (every jitter at its minimum), seconds.

    >>> min_total_s(10)
    181.0
    """
    return sum(_nominal(n, base, cap) / 2 for n in range(max_retries))
