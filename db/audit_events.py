"""Audit-ended notifications: Postgres ``NOTIFY`` when an audit ends, and a listener that wakes
whoever waits for it (``GET /audits/{id}?wait=S``, a long poll).

Migration ``0010_audit_ended_notify`` adds a trigger on ``audits``: when an UPDATE sets
``status`` to ``done`` or ``failed`` (from another status), it sends ``NOTIFY`` with the
audit's id as payload, on a channel whose name holds a random part (``claimaudit_channels``,
migration ``0018_private_channels``: no analyst login can read the name, so none can listen to
other tenants' ends or send false ones; :func:`channel_name`). Postgres delivers a notification
when its transaction commits, and never if it rolls back, so a waiter wakes exactly when the
end is visible to a new transaction (the score stage's fenced commit, or a failure's). Every
path that ends an audit (single chains, bundles, the sweeper, ``audits.fail``) goes through
that UPDATE, so none needs to remember to notify.

:class:`AuditEndListener` holds one dedicated connection in ``LISTEN`` on a daemon thread and
wakes the asyncio waiters of the audit named in each notification. Notifications are a wake-up
signal, not the truth: a waiter always reads the audit again, and rereads it every few seconds
even without one (so a lost connection or a missed notification costs latency, never a wrong
answer). ``LISTEN`` needs a session of its own: behind a connection pooler in transaction mode
(PgBouncer's default) notifications never arrive; point the API at Postgres or at a
session-mode pool.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from typing import Any

import psycopg
from psycopg import sql
from sqlalchemy.engine import make_url

from db.engine import normalise_url

__all__ = [
    "AUDIT_ENDED_CHANNEL",
    "CHANNEL_KEY",
    "AuditEndListener",
    "Subscription",
    "channel_name",
    "libpq_url",
]

log = logging.getLogger(__name__)

#: The ``NOTIFY`` channel of the trigger of migration ``0010_audit_ended_notify`` (word for word).
AUDIT_ENDED_CHANNEL = "claimaudit_audit_ended"
#: Key of the audit-end channel's private name in ``claimaudit_channels``.
CHANNEL_KEY = "audit_ended"


#: TCP keepalives of the listening connection (libpq parameters): a connection that died
#: silently (a dropped NAT entry, a host gone) is noticed in about a minute and reopened, rather
#: than leaving long polls to their rereads.
KEEPALIVES: dict[str, Any] = {
    "keepalives": 1,
    "keepalives_idle": 30,
    "keepalives_interval": 10,
    "keepalives_count": 3,
}


def libpq_url(database_url: str) -> str:
    """``database_url`` (SQLAlchemy form, any Postgres scheme) as a libpq URL for ``psycopg.connect``."""
    url = make_url(normalise_url(database_url)).set(drivername="postgresql")
    return url.render_as_string(hide_password=False)


@dataclass(eq=False)
class Subscription:
    """One waiter for one audit: :meth:`wait` returns when the listener saw the audit end."""

    audit_id: uuid.UUID
    loop: asyncio.AbstractEventLoop
    event: asyncio.Event = field(default_factory=asyncio.Event)

    async def wait(self, timeout_s: float) -> bool:
        """Wait up to ``timeout_s`` seconds; True when notified (then cleared for the next wait)."""
        try:
            await asyncio.wait_for(self.event.wait(), timeout=max(0.0, timeout_s))
        except TimeoutError:
            return False
        self.event.clear()
        return True

    def wake(self) -> None:
        """Set the event from any thread (nothing when its event loop is closed: the request is gone)."""
        with suppress(RuntimeError):
            self.loop.call_soon_threadsafe(self.event.set)


def channel_name(conn: psycopg.Connection[Any]) -> str:
    """The private channel the audit-end trigger notifies on (``claimaudit_channels``, readable by
    the deployment's roles only; migration ``0018_private_channels``), or
    :data:`AUDIT_ENDED_CHANNEL` on a schema older than that revision."""
    try:
        with conn.transaction():
            row = conn.execute(
                "SELECT channel FROM claimaudit_channels WHERE key = %s", (CHANNEL_KEY,)
            ).fetchone()
    except psycopg.errors.UndefinedTable:
        return AUDIT_ENDED_CHANNEL
    return str(row[0]) if row else AUDIT_ENDED_CHANNEL


class AuditEndListener:
    """``LISTEN`` on the audit-end channel (:func:`channel_name`) in a daemon thread; wakes
    :class:`Subscription`\\ s.

    Parameters
    ----------
    database_url : str
        The database (any form :func:`libpq_url` accepts).
    reconnect_s : float
        Seconds between connection attempts while the database is unreachable.
    poll_s : float
        Longest block on the connection before the thread checks :meth:`stop` (seconds).

    The thread reconnects by itself; while it is disconnected, and once after each reconnect,
    it wakes every waiter so that each reads its audit again.
    """

    def __init__(self, database_url: str, *, reconnect_s: float = 1.0, poll_s: float = 1.0) -> None:
        self._url = libpq_url(database_url)
        self._reconnect_s = reconnect_s
        self._poll_s = poll_s
        self._lock = threading.Lock()
        self._waiters: dict[uuid.UUID, set[Subscription]] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.connected = threading.Event()

    def start(self) -> None:
        """Start the listening thread (idempotent; after :meth:`stop`, waits for the old thread to
        end, at most about ``poll_s``, and starts a new one)."""
        if self._thread is not None and self._thread.is_alive():
            if not self._stop.is_set():
                return
            self._thread.join()
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="audit-end-listener", daemon=True)
        self._thread.start()

    def stop(self, timeout_s: float = 0.0) -> None:
        """Ask the thread to stop (it ends within about ``poll_s``; waits up to ``timeout_s`` for
        that) and wake every waiter."""
        self._stop.set()
        if self._thread is not None and timeout_s > 0:
            self._thread.join(timeout_s)
        self._wake_all()

    @contextmanager
    def subscribe(self, audit_id: uuid.UUID) -> Iterator[Subscription]:
        """Register a waiter for ``audit_id`` on the running event loop for the ``with`` block.

        Subscribe before reading the audit: an end committed after the read then wakes it.
        """
        sub = Subscription(audit_id, asyncio.get_running_loop())
        with self._lock:
            self._waiters.setdefault(audit_id, set()).add(sub)
        try:
            yield sub
        finally:
            with self._lock:
                subs = self._waiters.get(audit_id)
                if subs is not None:
                    subs.discard(sub)
                    if not subs:
                        del self._waiters[audit_id]

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                conninfo = psycopg.conninfo.make_conninfo(self._url, connect_timeout=5, **KEEPALIVES)
                with psycopg.connect(conninfo, autocommit=True) as conn:
                    conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel_name(conn))))
                    self.connected.set()
                    self._wake_all()  # an end during the reconnect had no listener
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=self._poll_s):
                            self._wake(note.payload)
            except Exception as exc:  # database down or connection lost: wake everyone, retry
                if self.connected.is_set() and not self._stop.is_set():
                    log.warning("audit-end listener lost its connection (%s); reconnecting", exc)
                self.connected.clear()
                self._wake_all()
                self._stop.wait(self._reconnect_s)
        self.connected.clear()

    def _wake(self, payload: str) -> None:
        try:
            audit_id = uuid.UUID(payload)
        except ValueError:
            log.warning("audit-end notification with a payload that is no audit id: %r", payload[:80])
            return
        with self._lock:
            subs = list(self._waiters.get(audit_id, ()))
        for sub in subs:
            sub.wake()

    def _wake_all(self) -> None:
        with self._lock:
            subs = [s for group in self._waiters.values() for s in group]
        for sub in subs:
            sub.wake()
