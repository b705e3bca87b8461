"""``python -m tests.faults.broken_reconnect_worker ARGS``: ``celery ARGS`` in a worker that, once
armed, ends at its next loss of the broker the way kombu's Redis transport once ended workers.

The failure (seen with kombu 5.7 / Celery 5.7): Redis went away while the worker held an
unacknowledged message; Celery's ``Consumer.on_connection_error_after_connected`` collected and
then closed the broken connection; the close restored the message (``Restoring 1 unacknowledged
message(s)``) through a channel whose transport had no client any more, kombu's
``kombu.transport.redis.Channel._connparams`` raised ``AttributeError("'NoneType' object has no
attribute 'hostname'")``, Celery logged ``CRITICAL Unrecoverable error`` and every worker process
exited. Whether it happens depends on where the event loop is when the socket closes.

Here it is certain: when the file named by ``CLAIMAUDIT_TEST_BREAK_RECONNECT`` holds ``armed``,
the next close of a connection from ``on_connection_error_after_connected`` in the main process
raises that very error at that very call (``kombu.Connection._close``), and Celery ends the worker
as it did. The file is then overwritten with the pid of the process that failed, so the worker the
supervisor starts next connects normally.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from kombu import connection as kombu_connection

#: The worker's main process, where the consumer lives (pool processes are forked later).
MAIN_PID = os.getpid()
#: Where Celery closes a connection it lost.
FAILING_CALLER = "on_connection_error_after_connected"

_original_close = kombu_connection.Connection._close


def _called_from(name: str) -> bool:
    frame = sys._getframe(2)
    while frame is not None:
        if frame.f_code.co_name == name:
            return True
        frame = frame.f_back  # type: ignore[assignment]
    return False


def _close(self: Any) -> Any:
    marker = Path(os.environ["CLAIMAUDIT_TEST_BREAK_RECONNECT"])
    if (
        os.getpid() == MAIN_PID
        and marker.exists()
        and marker.read_text().strip() == "armed"
        and _called_from(FAILING_CALLER)
    ):
        marker.write_text(str(os.getpid()))
        raise AttributeError("'NoneType' object has no attribute 'hostname'")
    return _original_close(self)  # type: ignore[no-untyped-call]


def main() -> None:
    kombu_connection.Connection._close = _close  # type: ignore[method-assign]
    from celery.__main__ import main as celery_main

    sys.argv = ["celery", *sys.argv[1:]]
    sys.exit(celery_main())


if __name__ == "__main__":
    main()
