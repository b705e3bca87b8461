"""What a suite may read and where its webhook may post: the server's settings decide, off by default.

A suite is defined by a tenant (``PUT /suites/{name}``, scope ``audits:write``) and run by a worker
with the server's database connection and network, so its source and webhook are checked against
the settings twice: when it is defined (422) and again when it runs or delivers (a suite stored
before a setting changed, or a name that resolves elsewhere later, fails with the reason):

- ``sql`` sources: only with ``SUITE_SQL_SOURCES=true`` and, when defined, a key with the ``admin``
  scope; run read-only, with the suite's tenant bound, as ``SUITE_SQL_ROLE`` (``db.suites``).
- ``jsonl`` files: only under ``SUITE_SOURCE_DIR`` (unset: no file sources), after resolving
  ``..`` and symbolic links.
- ``jsonl`` URLs: only hosts named in ``SUITE_SOURCE_HOSTS`` (empty: no URL sources); redirects
  are not followed.
- webhooks: never to a host that is, or resolves to, a loopback, link-local, private, multicast,
  unspecified or otherwise non-global address, unless ``WEBHOOK_ALLOW_PRIVATE=true``.
"""

from __future__ import annotations

import ipaddress
import os
import socket
from pathlib import Path
from urllib.parse import urlsplit

from workers.settings import Settings

__all__ = [
    "SourceRefused",
    "Unresolved",
    "check_source",
    "source_file",
    "check_source_url",
    "check_webhook_url",
    "is_url",
]


class SourceRefused(ValueError):
    """A suite's source or webhook the server's settings do not allow (the message says which)."""


class Unresolved(SourceRefused):
    """A webhook host that does not resolve (now): refused at definition, retried at delivery."""


def is_url(source: str) -> bool:
    return source.startswith(("http://", "https://"))


def check_source(kind: str, source: str, settings: Settings, *, admin: bool | None = None) -> None:
    """Raise ``SourceRefused`` unless the settings allow this source.

    ``admin``: whether the caller holds the ``admin`` scope (None at run time, when no caller is
    known; the settings are checked again then).
    """
    if kind == "sql":
        if not settings.suite_sql_sources:
            raise SourceRefused("source.sql: SQL sources are off on this server (SUITE_SQL_SOURCES=false)")
        if admin is False:
            raise SourceRefused("source.sql: a SQL source needs a key with the admin scope")
    elif kind == "jsonl":
        if is_url(source):
            check_source_url(source, settings)
        else:
            source_file(source, settings)
    else:
        raise SourceRefused(f"source: unknown kind {kind!r}")


def source_file(path: str, settings: Settings) -> Path:
    """The real path of a ``jsonl`` file source, which must lie under ``SUITE_SOURCE_DIR``.

    A relative path is taken from that folder; ``..`` and symbolic links are resolved first.
    """
    if not settings.suite_source_dir:
        raise SourceRefused("source.jsonl: file sources are off on this server (SUITE_SOURCE_DIR is not set)")
    root = Path(os.path.realpath(settings.suite_source_dir))
    real = Path(os.path.realpath(root / path))  # an absolute path replaces root
    if not real.is_relative_to(root):
        raise SourceRefused(f"source.jsonl: {path!r} is not a file under the server's SUITE_SOURCE_DIR")
    return real


def check_source_url(url: str, settings: Settings) -> None:
    """Refuse a URL source whose host is not in ``SUITE_SOURCE_HOSTS``."""
    host = (urlsplit(url).hostname or "").lower()
    allowed = {h.lower() for h in settings.suite_source_hosts}
    if not host or host not in allowed:
        raise SourceRefused(
            f"source.jsonl: host {host!r} is not allowed for URL sources (SUITE_SOURCE_HOSTS)"
        )


def _addresses(host: str, port: int) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
    try:
        return [ipaddress.ip_address(host)]
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        raise Unresolved(f"webhook.url: host {host!r} does not resolve") from None
    return [ipaddress.ip_address(str(info[4][0]).split("%", 1)[0]) for info in infos]


def _internal(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return (
        ip.is_loopback
        or ip.is_link_local
        or ip.is_private
        or ip.is_multicast
        or ip.is_unspecified
        or ip.is_reserved
        or not ip.is_global
    )


def check_webhook_url(url: str, settings: Settings) -> str | None:
    """Refuse a webhook URL whose host is, or resolves to, an address that is not public.

    Every address the name resolves to must be public (checked at definition and again before
    each delivery, so a name re-pointed later is caught). Returns the checked address to connect
    to (``workers.webhooks.send`` pins it, so the name is not resolved a second time), or None
    under ``WEBHOOK_ALLOW_PRIVATE=true``, which allows every address.
    """
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise SourceRefused("webhook.url: an http(s) URL with a host is needed")
    if settings.webhook_allow_private:
        return None
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise SourceRefused("webhook.url: invalid port") from None
    host = parts.hostname.strip("[]")
    addresses = _addresses(host, port)
    if any(_internal(ip) for ip in addresses):
        raise SourceRefused(
            f"webhook.url: host {host!r} is or resolves to a loopback, private, link-local, multicast "
            "or unspecified address (allowed only with WEBHOOK_ALLOW_PRIVATE=true)"
        )
    return str(addresses[0])
