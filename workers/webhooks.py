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
from urllib.parse import urlsplit, urlunsplit

import httpx

from service import http_limits

__all__ = [
    "SIGNATURE_HEADER",
    "TIMESTAMP_HEADER",
    "EVENT_HEADER",
    "Attempt",
    "sign",
    "verify",
    "body_bytes",
    "send",
    "pinned",
    "MAX_ANSWER_BYTES",
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


#: At most this much of a receiver's answer is read (the rest is dropped with the connection).
MAX_ANSWER_BYTES = 64 * 1024


def pinned(url: str, address: str) -> tuple[str, str]:
    """``(target URL, Host header)``: ``url`` with its host replaced by ``address`` (userinfo and
    port kept, so Basic auth in the URL still goes out) and the original host and port."""
    parts = urlsplit(url)
    userinfo, _, hostport = parts.netloc.rpartition("@")
    ip = f"[{address}]" if ":" in address else address
    netloc = ip if parts.port is None else f"{ip}:{parts.port}"
    if userinfo:
        netloc = f"{userinfo}@{netloc}"
    return urlunsplit(parts._replace(netloc=netloc)), hostport


def send(
    url: str,
    payload: dict[str, Any],
    *,
    event: str,
    secret: str | None,
    timeout: float = 10.0,
    address: str | None = None,
) -> Attempt:
    """POST ``payload`` once; a 2xx answer is delivered, anything else an ``Attempt`` with an error.

    Unsigned when the suite has no secret (the signature header is then absent). ``address``: the
    IP address to connect to, already checked (``service.source_policy.check_webhook_url``); the
    URL's host still goes in ``Host`` and TLS (SNI, certificate), so the name is not resolved again
    between the check and the request. Redirects are not followed; an error names the status only.
    ``timeout`` bounds the whole attempt (wall clock, from connecting to the last byte read, a
    receiver that drips bytes included); at most ``MAX_ANSWER_BYTES`` of the answer are read.
    """
    body = body_bytes(payload)
    ts = int(time.time())
    headers = {"Content-Type": "application/json", EVENT_HEADER: event, TIMESTAMP_HEADER: str(ts)}
    if secret:
        headers[SIGNATURE_HEADER] = sign(secret, ts, body)
    target, extensions = url, {}
    if address is not None:
        target, headers["Host"] = pinned(url, address)
        extensions = {"sni_hostname": urlsplit(url).hostname or ""}
    try:
        with http_limits.client(timeout) as client:
            request = client.build_request(
                "POST", target, content=body, headers=headers, extensions=extensions
            )
            resp = client.send(request, stream=True)
            try:
                http_limits.read_capped(resp, MAX_ANSWER_BYTES)  # read, not kept
            finally:
                resp.close()
    except httpx.TimeoutException as exc:
        return Attempt(None, f"{type(exc).__name__}: no complete answer within {timeout:g} s")
    except httpx.HTTPError as exc:
        return Attempt(None, f"{type(exc).__name__}: {exc}")
    if 200 <= resp.status_code < 300:
        return Attempt(resp.status_code, None)
    # the status only: the receiver's body is not echoed into the delivery log the tenant reads
    return Attempt(resp.status_code, f"HTTP {resp.status_code}")
