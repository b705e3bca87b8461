"""A stage run's heartbeat: a thread that renews the run's lease while the stage computes.

The lease (``db.leases``) is renewed every third of its length, in its own short transaction, so
a run that is alive keeps its audit and a run that died (SIGKILL, a lost machine) or froze
(SIGSTOP, a long pause) lets the lease expire; the sweeper then hands the audit to another run.
Renewal errors (the database is down) are logged and retried at the next beat: the run's final
fenced write decides whether its work counts.
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Sequence
from types import TracebackType

from sqlalchemy.orm import Session, sessionmaker

from db import leases
from db.engine import session_scope

__all__ = ["Heartbeat"]

log = logging.getLogger(__name__)


class Heartbeat:
    """Context manager: renew the lease of run ``token`` on ``audit_id`` (one audit, or each
    audit of a bundle that the run still holds) every ``lease_s / 3`` s.

    ``lost`` becomes True once a renewal finds that the run no longer holds any of them.
    """

    def __init__(
        self,
        factory: sessionmaker[Session],
        audit_id: uuid.UUID | Sequence[uuid.UUID],
        token: uuid.UUID,
        *,
        lease_s: float,
    ) -> None:
        self._factory = factory
        self._audit_id = audit_id
        self._name = str(audit_id) if isinstance(audit_id, uuid.UUID) else f"bundle of {len(audit_id)}"
        self._token = token
        self._lease_s = lease_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"lease-{token}", daemon=True)
        self.lost = False

    def _run(self) -> None:
        while not self._stop.wait(self._lease_s / 3):
            try:
                with session_scope(self._factory) as session:
                    held = leases.renew_lease(session, self._audit_id, self._token, lease_s=self._lease_s)
            except Exception as exc:  # the database is down: try again at the next beat
                log.warning("audit %s: lease renewal failed (%s)", self._name, type(exc).__name__)
                continue
            if not held:
                self.lost = True
                log.warning("audit %s: run %s lost its lease", self._name, self._token)
                return

    def __enter__(self) -> Heartbeat:
        self._thread.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._stop.set()
        self._thread.join(timeout=self._lease_s)
