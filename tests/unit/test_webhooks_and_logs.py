"""workers.webhooks signing and verification; workers.logs JSON lines with task, audit and run ids."""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import time

import pytest

from workers.logs import JsonFormatter, task_fields
from workers.webhooks import body_bytes, sign, verify


def test_signature_is_hmac_sha256_over_timestamp_and_body() -> None:
    body = body_bytes({"event": "run.finished", "run": {"id": "r"}})
    assert body == b'{"event":"run.finished","run":{"id":"r"}}'  # compact, keys sorted
    # RFC 2104 HMAC computed independently with the standard library
    expected = hmac.new(b"s3cret", b"1700000000." + body, hashlib.sha256).hexdigest()
    assert sign("s3cret", 1700000000, body) == f"sha256={expected}"


@pytest.mark.parametrize(
    ("secret", "age_s", "tamper", "ok"),
    [("k", 0, False, True), ("other", 0, False, False), ("k", 0, True, False), ("k", 600, False, False)],
)
def test_verify(secret: str, age_s: int, tamper: bool, ok: bool) -> None:
    ts = int(time.time()) - age_s
    body = b'{"a":1}'
    signature = sign("k", ts, body)
    assert verify(secret, str(ts), body + (b" " if tamper else b""), signature) is ok


@pytest.mark.parametrize(
    ("name", "args", "fields"),
    [
        ("audits.embed", ["a1"], {"task": "audits.embed", "task_id": "t", "audit_id": "a1"}),
        ("runs.finish", ["r1"], {"task": "runs.finish", "task_id": "t", "run_id": "r1"}),
        ("webhooks.deliver", ["7"], {"task": "webhooks.deliver", "task_id": "t", "delivery_id": "7"}),
        ("runs.tick", [], {"task": "runs.tick", "task_id": "t"}),
        (None, ["x"], {}),
    ],
)
def test_task_fields(name: str | None, args: list[str], fields: dict[str, str]) -> None:
    assert task_fields(name, "t", args) == fields


def test_json_formatter_outside_a_task() -> None:
    record = logging.LogRecord("workers.x", logging.WARNING, __file__, 1, "run %s failed", ("r1",), None)
    line = json.loads(JsonFormatter().format(record))
    assert (line["level"], line["logger"], line["message"]) == ("WARNING", "workers.x", "run r1 failed")
    assert "task" not in line
