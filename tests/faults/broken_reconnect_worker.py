"""``python -m tests.faults.broken_reconnect_worker ARGS``: ``celery ARGS`` in a worker whose next
broker reconnection fails the way kombu's Redis transport once failed in production, once armed.

The failure: after a Redis restart the worker logged ``Restoring 1 unacknowledged message(s)``,
then ``CRITICAL Unrecoverable error: AttributeError("'NoneType' object has no attribute
'hostname'")`` and every worker process exited. The ``AttributeError`` comes from
``kombu.transport.redis.Channel._connparams`` reading ``self.connection.client.hostname`` on a
transport whose ``client`` a closed ``kombu.Connection`` has set to None
(``Connection._do_close_transport``), when a channel builds its connection pool late. Redis
killed again while the worker reconnects makes that interleaving likely, never certain.

Here it is made certain: when the file named by ``CLAIMAUDIT_TEST_BREAK_RECONNECT`` holds
``armed``, the next pool the main process builds runs on a transport with ``client`` None, so
kombu's own ``_connparams`` raises that very ``AttributeError`` and Celery ends the worker as it
did. The file is then overwritten with the pid of the process that failed, so the restarted
worker connects normally. Pool processes (which publish the next stage of a chain) never fail.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from kombu.transport import redis as kombu_redis

#: The worker's main process: the consumer that reconnects (pool processes are forked later).
MAIN_PID = os.getpid()

_original_connparams = kombu_redis.Channel._connparams


def _connparams(self: Any, asynchronous: bool = False) -> Any:
    marker = Path(os.environ["CLAIMAUDIT_TEST_BREAK_RECONNECT"])
    if os.getpid() == MAIN_PID and marker.exists() and marker.read_text().strip() == "armed":
        marker.write_text(str(os.getpid()))
        self.connection.client = None  # what a closed kombu.Connection leaves on its transport
    return _original_connparams(self, asynchronous)  # type: ignore[no-untyped-call]


def main() -> None:
    kombu_redis.Channel._connparams = _connparams  # type: ignore[method-assign]
    from celery.__main__ import main as celery_main

    sys.argv = ["celery", *sys.argv[1:]]
    sys.exit(celery_main())


if __name__ == "__main__":
    main()
