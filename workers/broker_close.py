"""A closed Redis broker connection fails like a lost one: a connection error, never an
``AttributeError`` that ends the worker (kombu 5.7.0, ``kombu.transport.redis``).

The failure, reproduced with a real Redis in ``tests/faults/test_broker_close.py``: a worker
holds an unacknowledged message on the task channel while its ``BRPOP`` is in flight, and has a
second channel consuming an auto-delete fanout queue (Celery's remote control, ``pidbox``). Redis
goes away. Celery's ``Consumer.on_connection_error_after_connected`` calls
``connection.collect()``: the task channel's close fails reading the ``BRPOP`` reply
(``ConnectionError``, the channel stays open); ``Transport.close_connection`` then closes the
channels newest first and stops at the pidbox channel, whose close fails deleting its auto-delete
queue, so the task channel is never closed; ``collect`` detaches the transport
(``transport.client = None``). Celery then calls ``connection.close()``: the task channel's close
restores its unacknowledged message (``Restoring 1 unacknowledged message(s)``) through a new
client, ``Channel._connparams`` reads ``self.connection.client.hostname`` and raises
``AttributeError: 'NoneType' object has no attribute 'hostname'``. That is neither a connection
nor a channel error, so Celery's ``ignore_errors`` lets it through, the consumer logs ``CRITICAL
Unrecoverable error`` and every worker process exits.

:func:`install` wraps ``Channel._connparams``: on a detached transport it raises
``redis.exceptions.ConnectionError`` (one of the transport's ``connection_errors``) instead, so
the close fails as any close on a dead broker does, Celery ignores it and reconnects. The message
it would have restored stays in Redis's unacknowledged set (restored after the visibility
timeout) or was lost with Redis's data; either way the sweeper sends the audit's stage again
(``workers.sweeper``), as for every message Redis loses. The supervisor (``cli.supervise``) still
restarts a worker that exits for any other reason.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, cast

import redis
from kombu.transport import redis as kombu_redis

__all__ = ["install"]

_MARK = "_claimaudit_detached_is_connection_error"


def install() -> None:
    """Wrap ``kombu.transport.redis.Channel._connparams`` once (module docstring; the original is
    the wrapper's ``__wrapped__``); idempotent."""
    original = cast(Callable[..., Any], kombu_redis.Channel._connparams)
    if getattr(original, _MARK, False):
        return

    @functools.wraps(original)
    def _connparams(self: Any, asynchronous: bool = False) -> Any:
        if self.connection is None or self.connection.client is None:
            raise redis.exceptions.ConnectionError("the broker connection of this channel was closed")
        return original(self, asynchronous)

    setattr(_connparams, _MARK, True)
    kombu_redis.Channel._connparams = _connparams  # type: ignore[method-assign]
