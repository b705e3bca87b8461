"""HTTP requests to a tenant's URLs with a wall-clock limit and a size cap (webhooks, URL sources).

httpx's timeouts apply to each read, so a server that sends one byte just inside the read timeout
(or an endless body) would hold a worker forever. ``client(total_s)`` gives an ``httpx.Client``
whose every connect, read and write is cut to what is left of ``total_s`` from its creation (the
request then fails with ``httpx.ConnectTimeout``/``ReadTimeout``/``WriteTimeout``), and
``read_capped`` reads at most so many bytes of a streamed answer.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

import httpcore
import httpx

__all__ = ["client", "read_capped"]


def _left(deadline: float, timeout: float | None, error: type[Exception]) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise error("wall-clock limit of the request passed")
    return left if timeout is None else min(timeout, left)


class _Stream(httpcore.NetworkStream):
    def __init__(self, stream: httpcore.NetworkStream, deadline: float) -> None:
        self._stream, self._deadline = stream, deadline

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._stream.read(max_bytes, _left(self._deadline, timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._stream.write(buffer, _left(self._deadline, timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._stream.close()

    def start_tls(
        self, ssl_context: Any, server_hostname: str | None = None, timeout: float | None = None
    ) -> Any:
        left = _left(self._deadline, timeout, httpcore.ConnectTimeout)
        return _Stream(self._stream.start_tls(ssl_context, server_hostname, left), self._deadline)

    def get_extra_info(self, info: str) -> Any:
        return self._stream.get_extra_info(info)


class _Backend(httpcore.NetworkBackend):
    def __init__(self, deadline: float) -> None:
        self._backend, self._deadline = httpcore.SyncBackend(), deadline

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        left = _left(self._deadline, timeout, httpcore.ConnectTimeout)
        stream = self._backend.connect_tcp(host, port, left, local_address, socket_options)
        return _Stream(stream, self._deadline)

    def sleep(self, seconds: float) -> None:
        self._backend.sleep(seconds)


class _Transport(httpx.HTTPTransport):
    def __init__(self, deadline: float) -> None:
        super().__init__()
        # the transport's pool, over a network backend that cuts every I/O at the deadline
        self._pool = httpcore.ConnectionPool(
            ssl_context=httpx.create_ssl_context(), network_backend=_Backend(deadline)
        )


def client(total_s: float) -> httpx.Client:
    """A client (no redirects) whose requests all end within ``total_s`` seconds of now."""
    deadline = time.monotonic() + total_s
    return httpx.Client(
        transport=_Transport(deadline), timeout=httpx.Timeout(total_s), follow_redirects=False
    )


def read_capped(resp: httpx.Response, limit: int) -> tuple[bytes, bool]:
    """``(at most limit bytes of the streamed answer, whether there was more)``; the rest is not read."""
    data = bytearray()
    for chunk in resp.iter_bytes(chunk_size=8192):
        data += chunk
        if len(data) > limit:
            return bytes(data[:limit]), True
    return bytes(data), False
