"""Signed webhook deliveries: sign, verify, send one attempt.

A delivery is ``POST <url>`` with the JSON body and three headers::

    X-Claimaudit-Event: run.finished | run.quality_drop
    X-Claimaudit-Timestamp: <unix seconds>
    X-Claimaudit-Signature: sha256=<hex HMAC-SHA256(secret, "<timestamp>." + raw body)>

The receiver recomputes the HMAC over the timestamp and the raw body bytes with the suite's
secret, compares in constant time, and refuses timestamps older than a few minutes (replays).
``verify`` does exactly that and is what a Python receiver can import.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from dataclasses import dataclass
from typing import Any

import httpx

__all__ = [
    "SIGNATURE_HEADER",
    "TIMESTAMP_HEADER",
    "EVENT_HEADER",
    "Attempt",
    "sign",
    "verify",
    "body_bytes",
    "send",
]

SIGNATURE_HEADER = "X-Claimaudit-Signature"
TIMESTAMP_HEADER = "X-Claimaudit-Timestamp"
EVENT_HEADER = "X-Claimaudit-Event"


def body_bytes(payload: dict[str, Any]) -> bytes:
    """The exact bytes sent (and signed): compact JSON, keys sorted, UTF-8."""
    return json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def sign(secret: str, timestamp: int, body: bytes) -> str:
    """``sha256=<hex>``: HMAC-SHA256 with key ``secret`` over ``b"<timestamp>." + body``."""
    mac = hmac.new(secret.encode("utf-8"), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"sha256={mac.hexdigest()}"


def verify(secret: str, timestamp: str, body: bytes, signature: str, *, tolerance_s: float = 300) -> bool:
    """True when ``signature`` is ``sign(secret, timestamp, body)`` and the timestamp is within
    ``tolerance_s`` seconds of now."""
    try:
        ts = int(timestamp)
    except ValueError:
        return False
    if abs(time.time() - ts) > tolerance_s:
        return False
    return hmac.compare_digest(sign(secret, ts, body), signature)


@dataclass(frozen=True)
class Attempt:
    """One delivery attempt: HTTP status (None when no answer) and an error message (None on 2xx)."""

    status_code: int | None
    error: str | None

    @property
    def delivered(self) -> bool:
        return self.error is None


def send(
    url: str, payload: dict[str, Any], *, event: str, secret: str | None, timeout: float = 10.0
) -> Attempt:
    """POST ``payload`` once; a 2xx answer is delivered, anything else an ``Attempt`` with an error.

    Unsigned when the suite has no secret (the signature header is then absent).
    """
    body = body_bytes(payload)
    ts = int(time.time())
    headers = {"Content-Type": "application/json", EVENT_HEADER: event, TIMESTAMP_HEADER: str(ts)}
    if secret:
        headers[SIGNATURE_HEADER] = sign(secret, ts, body)
    try:
        resp = httpx.post(url, content=body, headers=headers, timeout=timeout)
    except httpx.HTTPError as exc:
        return Attempt(None, f"{type(exc).__name__}: {exc}")
    if 200 <= resp.status_code < 300:
        return Attempt(resp.status_code, None)
    return Attempt(resp.status_code, f"HTTP {resp.status_code}: {resp.text[:300]}")
