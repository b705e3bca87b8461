"""Backlog bounds of admission: refuse new audits while the backlog is past a bound.

The backlog is the audits accepted and not yet finished (status ``queued`` or a stage; not
``done``, ``failed`` or ``rejected``), read from Postgres in one query (``db.backlog``). Three
bounds (``service.settings``; 0 turns a bound off):

- ``MAX_BACKLOG_AGE_S``: the oldest unfinished audit is older than this many seconds, or a new
  audit would wait longer (the unfinished audits divided by the drain rate, when audits
  finished in the drain window) → 503, reason ``backlog_age``. The second test is
  what bounds an accepted audit's wait under a steady overload: by the oldest age alone, the
  backlog admitted within one age bound at the arrival rate takes (arrival / drain) times the
  bound to finish;
- ``MAX_QUEUED_AUDITS``: the deployment holds this many unfinished audits or more → 503,
  reason ``backlog``;
- ``MAX_QUEUED_AUDITS_PER_TENANT``: the caller's tenant holds this many or more → 429, reason
  ``tenant_backlog`` (one tenant's flood fills its own quota, not the queue in front of the others).

A request of ``incoming`` audits passes a count bound only when all of it fits (queued +
``incoming`` <= the bound), except into an empty backlog (the deployment's, or the tenant's for
the tenant bound): a batch larger than a bound passes only then, and is the one way past it.
The API serialises admission (``db.backlog.admission_lock``: the count and the insert of one
request happen before the next request counts), so concurrent requests never pass a count bound
together.

``Retry-After`` is the time the excess takes to drain at the measured drain rate: the audits
past the bound (over the count bound, older than the age bound, or beyond what drains within
it) divided by the audits finished per second over the last ``drain_window`` seconds (the
oldest unfinished audit's age, within ``MIN_DRAIN_WINDOW_S`` = 1 to ``DRAIN_WINDOW_S`` = 60 s:
a backlog seconds old is measured over its own seconds, not over a longer window whose start,
before the backlog, finished nothing and would divide its rate), rounded up, within
``[1, RETRY_AFTER_MAX_S]``. When nothing finished in the window there is no rate to estimate
from, and the wait is a probe, said so in the refusal: while the oldest unfinished audit is
younger than ``DRAIN_WINDOW_S`` (a new backlog, its first audits still in their stages), as many
seconds as the backlog is old, within ``[1, RETRY_AFTER_NEW_BACKLOG_S]`` (a doubling probe: a
backlog x s old without a finish is looked at again when it is 2x s old, and a look costs one
query); else ``RETRY_AFTER_NO_DRAIN_S`` (nothing finished for a whole window: no worker alive, or all
stuck). The tenant's wait uses the deployment's rate, a lower bound when other tenants' audits
are ahead of the tenant's in the queue. The refusal's sentence ends with the wait and what it
was computed from.
"""

from __future__ import annotations

import math
from typing import Literal

from sqlalchemy.orm import Session

from db.backlog import Backlog, drain_rate, measure

__all__ = [
    "DRAIN_WINDOW_S",
    "MIN_DRAIN_WINDOW_S",
    "drain_window",
    "RETRY_AFTER_MAX_S",
    "RETRY_AFTER_NO_DRAIN_S",
    "RETRY_AFTER_NEW_BACKLOG_S",
    "REASONS",
    "BacklogFull",
    "retry_after",
    "wait_basis",
    "check_backlog",
]

#: Longest and shortest window, in seconds, of finished audits the drain rate is measured over
#: (``drain_window``).
DRAIN_WINDOW_S = 60.0
MIN_DRAIN_WINDOW_S = 1.0
#: Longest Retry-After, in seconds.
RETRY_AFTER_MAX_S = 600
#: Retry-After, in seconds, when no audit finished within ``DRAIN_WINDOW_S``.
RETRY_AFTER_NO_DRAIN_S = 60
#: Longest Retry-After, in seconds, of a backlog younger than ``DRAIN_WINDOW_S`` in which no
#: audit finished yet (the probe waits as long as the backlog is old, at most this).
RETRY_AFTER_NEW_BACKLOG_S = 10

Reason = Literal["backlog_age", "backlog", "tenant_backlog"]
#: The refusal reasons, in the order they are checked.
REASONS: tuple[Reason, ...] = ("backlog_age", "backlog", "tenant_backlog")


class BacklogFull(Exception):
    """A refusal: ``status_code`` 503 (deployment bound) or 429 (tenant bound), ``reason`` (one of
    ``REASONS``), ``retry_after`` in whole seconds (1 to ``RETRY_AFTER_MAX_S``), ``detail`` a
    sentence naming the bound and its setting."""

    def __init__(self, status_code: int, reason: Reason, retry_after: int, detail: str) -> None:
        super().__init__(detail)
        self.status_code = status_code
        self.reason = reason
        self.retry_after = retry_after
        self.detail = detail


def drain_window(oldest_age_s: float | None) -> float:
    """Seconds to measure the drain rate over: the oldest unfinished audit's age, within
    ``[MIN_DRAIN_WINDOW_S, DRAIN_WINDOW_S]``. A backlog that began a few seconds ago is measured
    over those seconds, not diluted by the idle seconds before it (over a 10 s window, the 15
    audits a backlog 3 s old finished read 1.5/s, not 5/s: a wait 3.3 times too long).

    >>> drain_window(3.0), drain_window(0.2), drain_window(90.0), drain_window(None)
    (3.0, 1.0, 60.0, 1.0)
    """
    return min(DRAIN_WINDOW_S, max(MIN_DRAIN_WINDOW_S, oldest_age_s or 0.0))


def retry_after(excess: int, rate: float, oldest_age_s: float | None = None) -> int:
    """Seconds for ``excess`` audits to drain at ``rate`` audits/s, rounded up, within
    ``[1, RETRY_AFTER_MAX_S]``. When ``rate`` is 0 (nothing finished in the window): the oldest
    unfinished audit's age ``oldest_age_s`` rounded up, within ``[1, RETRY_AFTER_NEW_BACKLOG_S]``,
    if it is under ``DRAIN_WINDOW_S`` (a probe of a new backlog), else ``RETRY_AFTER_NO_DRAIN_S``.

    >>> retry_after(4, 0.625), retry_after(16, 15 / 3.0), retry_after(10, 0.0, 0.3)
    (7, 4, 1)
    >>> retry_after(10, 0.0, 4.2), retry_after(10, 0.0, 30.0), retry_after(10, 0.0, 90.0)
    (5, 10, 60)
    """
    if rate <= 0:
        if oldest_age_s is not None and oldest_age_s < DRAIN_WINDOW_S:
            return max(1, min(RETRY_AFTER_NEW_BACKLOG_S, math.ceil(oldest_age_s)))
        return RETRY_AFTER_NO_DRAIN_S
    return max(1, min(RETRY_AFTER_MAX_S, math.ceil(max(1, excess) / rate)))


def wait_basis(excess: int, rate: float, oldest_age_s: float | None) -> str:
    """What :func:`retry_after` computed its wait from, for the refusal's sentence.

    >>> wait_basis(16, 5.0, 3.0)
    '16 audits over the bound at 5.00 finished per second over the last 3 s'
    >>> wait_basis(16, 0.0, 3.0)
    'no audit has finished yet in this backlog, 3 s old: no drain rate to estimate from; a probe'
    """
    if rate > 0:
        window = drain_window(oldest_age_s)
        return (
            f"{_audits(max(1, excess))} over the bound at {rate:.2f} finished per second over the "
            f"last {window:.0f} s"
        )
    if oldest_age_s is not None and oldest_age_s < DRAIN_WINDOW_S:
        return (
            f"no audit has finished yet in this backlog, {oldest_age_s:.0f} s old: no drain rate to "
            "estimate from; a probe"
        )
    return f"no audit finished in the last {DRAIN_WINDOW_S:g} s: no worker drains the backlog"


def _audits(n: int) -> str:
    return f"{n} audit" if n == 1 else f"{n} audits"


def _more(incoming: int) -> str:
    return f" and {incoming} more in this request" if incoming > 1 else ""


def check_backlog(
    session: Session,
    tenant_id: str,
    *,
    max_queued: int,
    max_queued_per_tenant: int,
    max_age_s: float,
    incoming: int = 1,
) -> Backlog:
    """Raise ``BacklogFull`` when the backlog is past a bound or ``incoming`` more audits (>= 1)
    would pass a count bound (module docstring; 0: no bound), else return it. With the default
    ``incoming=1`` a count bound refuses from ``queued >= bound`` on (what ``/readyz`` reports).
    Reads only; the caller stores nothing when it raises."""
    if max_queued <= 0 and max_queued_per_tenant <= 0 and max_age_s <= 0:
        return Backlog(0, 0, None, 0)
    backlog = measure(session, tenant_id, max_age_s=max_age_s)
    if backlog.queued == 0:
        return backlog
    rate = drain_rate(session, drain_window(backlog.oldest_age_s))
    refusal: tuple[int, Reason, int, str] | None = None
    if max_age_s > 0 and backlog.over_age > 0:
        detail = (
            f"the backlog is full: the oldest queued audit waits {backlog.oldest_age_s or 0:.0f} s, "
            f"over the bound of {max_age_s:g} s (server setting MAX_BACKLOG_AGE_S)"
        )
        refusal = (503, "backlog_age", backlog.over_age, detail)
    elif max_age_s > 0 and rate > 0 and backlog.queued / rate > max_age_s:
        detail = (
            f"the backlog is full: a new audit would wait about {backlog.queued / rate:.0f} s "
            f"({backlog.queued} queued, {rate:.2f} finished per second), over the bound of "
            f"{max_age_s:g} s (server setting MAX_BACKLOG_AGE_S)"
        )
        refusal = (503, "backlog_age", backlog.queued - math.floor(max_age_s * rate), detail)
    elif max_queued > 0 and backlog.queued + incoming > max_queued:
        detail = (
            f"the backlog is full: {_audits(backlog.queued)} queued{_more(incoming)}, the bound is "
            f"{max_queued} (server setting MAX_QUEUED_AUDITS)"
        )
        refusal = (503, "backlog", backlog.queued + incoming - max_queued, detail)
    elif (
        max_queued_per_tenant > 0
        and backlog.tenant_queued > 0
        and backlog.tenant_queued + incoming > max_queued_per_tenant
    ):
        detail = (
            f"your tenant has {_audits(backlog.tenant_queued)} queued{_more(incoming)}, the bound is "
            f"{max_queued_per_tenant} (server setting MAX_QUEUED_AUDITS_PER_TENANT)"
        )
        refusal = (429, "tenant_backlog", backlog.tenant_queued + incoming - max_queued_per_tenant, detail)
    if refusal is None:
        return backlog
    status_code, reason, excess, detail = refusal
    wait = retry_after(excess, rate, backlog.oldest_age_s)
    basis = wait_basis(excess, rate, backlog.oldest_age_s)
    raise BacklogFull(status_code, reason, wait, f"{detail}; retry after {wait} s ({basis})")
