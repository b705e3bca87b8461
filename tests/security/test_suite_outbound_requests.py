"""Requests a suite makes at run time cannot probe internal ports or hold a worker: a stored webhook
to loopback is not delivered, a delivery goes to the address checked (no second resolution) and
its error names the status, not the receiver's body; a receiver that drips or never ends, and a
URL source read, are cut at their deadline and size cap; an unparsable webhook URL is refused,
and an attempt never overwrites a delivery no longer pending.

Deliveries run through ``webhooks.deliver`` (``workers.run_tasks.deliver``), called in this
process, against local HTTP servers on loopback.
"""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

from db import suites as suites_repo
from db.engine import session_scope
from tests.security.suite_sources import Dripping, Internal

pytestmark = pytest.mark.services


def test_a_stored_webhook_to_loopback_is_not_delivered(
    session_factory: Any, worker_env: Any, internal: str
) -> None:
    from workers.run_tasks import deliver

    worker_env()
    with session_scope(session_factory) as s:
        row = suites_repo.create_delivery(
            s, run_id=None, event="run.finished", url=f"{internal}/hook", payload={}
        )
        delivery_id = row.id
    before = len(Internal.hits)
    assert deliver(str(delivery_id)) == "failed"  # at once, no retry
    assert len(Internal.hits) == before
    with session_scope(session_factory) as s:
        row = suites_repo.get_delivery(s, delivery_id)
        assert row is not None and row.status == "failed" and "WEBHOOK_ALLOW_PRIVATE" in str(row.last_error)


def test_a_webhook_error_names_the_status_not_the_receivers_body(internal: str) -> None:
    from workers import webhooks

    attempt = webhooks.send(f"{internal}/fail", {"a": 1}, event="run.finished", secret=None)
    assert attempt.status_code == 500 and attempt.error == "HTTP 500"


@pytest.mark.parametrize("userinfo", ["", "user:pw@"])
def test_a_delivery_goes_to_the_address_checked_not_a_second_resolution(internal: str, userinfo: str) -> None:
    """DNS rebinding: ``send`` connects to the address ``check_webhook_url`` returned, with the
    URL's host in ``Host``; ``receiver.invalid`` cannot resolve, so the request reached the local
    server only through the pinned address. The URL's ``user:pw@`` stays (Basic auth goes out)."""
    import base64

    from workers import webhooks

    port = internal.rsplit(":", 1)[1]
    attempt = webhooks.send(
        f"http://{userinfo}receiver.invalid:{port}/hook",
        {"a": 1},
        event="run.finished",
        secret=None,
        address="127.0.0.1",
    )
    assert attempt.delivered, attempt
    assert Internal.hosts[-1] == f"receiver.invalid:{port}"
    basic = "Basic " + base64.b64encode(userinfo.rstrip("@").encode()).decode() if userinfo else ""
    assert Internal.auths[-1] == basic


@pytest.mark.parametrize("path", ["/drip-head", "/drip"])
def test_a_dripping_receiver_does_not_hold_the_delivery_past_its_deadline(dripping: str, path: str) -> None:
    """WEBHOOK_TIMEOUT_S (here 1 s) bounds the whole attempt, not each read: the receiver sends a
    byte every 0.2 s for 60 s; the attempt fails within the deadline plus 4 s of slack for a loaded
    machine (a per-read timeout would hold it the whole 60 s)."""
    from workers import webhooks

    began = time.monotonic()
    attempt = webhooks.send(f"{dripping}{path}", {"a": 1}, event="run.finished", secret=None, timeout=1.0)
    assert time.monotonic() - began < 5.0
    assert not attempt.delivered and "Timeout" in str(attempt.error), attempt


def test_an_endless_answer_is_read_only_up_to_the_cap(dripping: str) -> None:
    """At most MAX_ANSWER_BYTES (64 KiB) of a receiver's answer are read; the receiver, which would
    send 256 MiB, gets out far less than that before the connection is dropped (kernel buffers
    take a few MiB; 32 MiB is the bound)."""
    from workers import webhooks

    attempt = webhooks.send(f"{dripping}/endless", {"a": 1}, event="run.finished", secret=None, timeout=30.0)
    assert attempt.delivered, attempt
    deadline = time.monotonic() + 10
    while not Dripping.written and time.monotonic() < deadline:
        time.sleep(0.05)
    assert Dripping.written and Dripping.written[-1] < 32 * 1024 * 1024, Dripping.written


def test_a_url_source_is_read_within_its_deadline_and_size(dripping: str) -> None:
    """URL sources: the same wall-clock limit (1 s here), and a source larger than
    SOURCE_MAX_BYTES fails instead of being read whole. The drip lasts 60 s; 4 s of slack past the
    deadline is for a loaded machine."""
    from service import schedule

    began = time.monotonic()
    with pytest.raises(httpx.TimeoutException):
        schedule.read_source("jsonl", f"{dripping}/drip", timeout=1.0)
    assert time.monotonic() - began < 5.0
    with pytest.raises(ValueError, match="larger than"):
        schedule.read_source("jsonl", f"{dripping}/endless", timeout=30.0)


def test_an_unparsable_webhook_url_is_refused_not_left_pending(session_factory: Any, worker_env: Any) -> None:
    """``urlsplit`` raises ValueError on ``http://[::1/``: the delivery fails at once (it was left
    pending, and retried never)."""
    from service import source_policy
    from service.settings import Settings
    from workers.run_tasks import deliver

    with pytest.raises(source_policy.SourceRefused):
        source_policy.check_webhook_url("http://[::1/x", Settings())
    worker_env()
    with session_scope(session_factory) as s:
        delivery_id = suites_repo.create_delivery(
            s, run_id=None, event="run.finished", url="http://[::1/x", payload={}
        ).id
    assert deliver(str(delivery_id)) == "failed"
    with session_scope(session_factory) as s:
        row = suites_repo.get_delivery(s, delivery_id)
        assert row is not None and row.status == "failed" and row.attempts == 1


def test_an_attempt_does_not_overwrite_a_delivery_no_longer_pending(session_factory: Any) -> None:
    """Two attempts of one delivery (a redelivered task): the one recorded after it was delivered
    changes nothing (status, attempts, error stay)."""
    with session_scope(session_factory) as s:
        delivery_id = suites_repo.create_delivery(
            s, run_id=None, event="run.finished", url="https://example.com/", payload={}
        ).id
    with session_scope(session_factory) as s:
        suites_repo.record_attempt(s, delivery_id, status_code=200, error=None, delivered=True, final=False)
    with session_scope(session_factory) as s:
        suites_repo.record_attempt(
            s, delivery_id, status_code=None, error="late", delivered=False, final=True
        )
    with session_scope(session_factory) as s:
        row = suites_repo.get_delivery(s, delivery_id)
        assert row is not None
        assert (row.status, row.attempts, row.last_error, row.last_status_code) == ("delivered", 1, None, 200)
