"""kombu's ``AttributeError: 'NoneType' object has no attribute 'hostname'`` after a Redis loss,
reproduced with a real (private) Redis through the calls Celery makes when its broker connection
drops (``celery.worker.consumer.Consumer.on_connection_error_after_connected``: ``collect()``,
then ``close()`` under ``ignore_errors``); ``workers.broker_close`` turns it into a connection
error, which Celery ignores before it reconnects.

The channels are the worker's: the task channel holding one unacknowledged message with its
``BRPOP`` in flight, and a newer channel consuming an auto-delete fanout queue (the remote
control's ``pidbox``)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from kombu import Connection, Exchange, Queue
from kombu.common import ignore_errors
from kombu.transport import redis as kombu_redis

from tests.faults import harness
from workers import broker_close

pytestmark = [pytest.mark.faults, pytest.mark.services]


@pytest.fixture
def redis_server() -> Iterator[harness.Redis]:
    server = harness.start_redis()
    yield server
    server.kill()


def _worker_like_connection(url: str) -> tuple[Connection, Any]:
    """A connection with the worker's two channels (module docstring) and its task channel."""
    conn = Connection(url)
    conn.connect()
    tasks = conn.default_channel
    queue = Queue("audits", Exchange("audits", "direct"), "audits")
    conn.Producer(tasks).publish(
        {"stage": "matching"}, exchange=queue.exchange, routing_key="audits", declare=[queue]
    )
    received: list[Any] = []
    conn.Consumer(queue, callbacks=[lambda _body, message: received.append(message)], channel=tasks).consume()
    conn.drain_events(timeout=5)
    assert len(received) == 1 and len(tasks.qos._delivered) == 1  # received, not acknowledged
    control = conn.channel()
    pidbox = Queue("worker1.celery.pidbox", Exchange("celery.pidbox", "fanout"), auto_delete=True)
    conn.Consumer(pidbox, callbacks=[lambda *_: None], channel=control).consume()
    control.client.ping()
    tasks._brpop_start()  # the event loop waits for the next message
    return conn, tasks


def _lose_redis_and_close(redis_server: harness.Redis) -> Exception | None:
    """Celery's calls after Redis went away; the exception that escapes ``close``, if any."""
    conn, tasks = _worker_like_connection(redis_server.url)
    redis_server.kill()
    time.sleep(0.2)
    conn.collect(socket_timeout=1)  # Celery: inside try/except Exception
    assert not tasks.closed and tasks.connection.client is None  # left open, its transport detached
    try:
        ignore_errors(conn, conn.close)  # Celery: only connection and channel errors are ignored
    except Exception as exc:
        return exc
    return None


def test_kombus_close_after_a_redis_loss_ends_in_an_attribute_error(
    redis_server: harness.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    # without the wrapper (kombu 5.7.0 as released): the error that ended every worker process
    broker_close.install()
    original = getattr(kombu_redis.Channel._connparams, "__wrapped__", None)
    assert original is not None, "workers.broker_close.install() wraps Channel._connparams"
    monkeypatch.setattr(kombu_redis.Channel, "_connparams", original)
    error = _lose_redis_and_close(redis_server)
    assert isinstance(error, AttributeError) and "'hostname'" in str(error), error


def test_the_close_after_a_redis_loss_fails_as_a_connection_error(redis_server: harness.Redis) -> None:
    broker_close.install()
    assert _lose_redis_and_close(redis_server) is None  # a ConnectionError, ignored like Celery does
