"""What a suite may read and where its webhook may post: the server's settings decide, off by default.

A suite is defined by a tenant (``PUT /suites/{name}``, scope ``audits:write``) and run by a worker
with the server's database connection and network, so its source and webhook are checked against
the settings twice: when it is defined (422) and again when it runs or delivers (a suite stored
before a setting changed, or a name that resolves elsewhere later, fails with the reason):

- ``sql`` sources: an operator's decision per tenant: only with ``SUITE_SQL_SOURCES=true``, for a
  suite whose tenant is listed in ``SUITE_SQL_TENANTS`` and, when defined, a key with the ``admin``
  scope; run read-only, with the suite's tenant bound, as ``SUITE_SQL_ROLE``, on a connection of
  its own that is closed afterwards (``db.suites``). That is no sandbox: a listed tenant can read
  whatever ``SUITE_SQL_ROLE`` can read, other tenants' rows included if the role can see them.
- ``jsonl`` files: only under ``SUITE_SOURCE_DIR/<tenant id>/`` (unset: no file sources), after
  resolving ``..`` and symbolic links.
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

from service.settings import Settings

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


def check_source(
    kind: str, source: str, settings: Settings, *, tenant_id: str, admin: bool | None = None
) -> None:
    """Raise ``SourceRefused`` unless the settings allow this source to the suite of ``tenant_id``.

    ``admin``: whether the caller holds the ``admin`` scope (None at run time, when no caller is
    known; the settings are checked again then, for the suite's tenant).
    """
    if kind == "sql":
        if not settings.suite_sql_sources:
            raise SourceRefused("source.sql: SQL sources are off on this server (SUITE_SQL_SOURCES=false)")
        if tenant_id not in settings.suite_sql_tenants:
            raise SourceRefused(
                f"source.sql: tenant {tenant_id!r} may not have SQL sources (not in SUITE_SQL_TENANTS)"
            )
        if admin is False:
            raise SourceRefused("source.sql: a SQL source needs a key with the admin scope")
    elif kind == "jsonl":
        if is_url(source):
            check_source_url(source, settings)
        else:
            source_file(source, settings, tenant_id=tenant_id)
    else:
        raise SourceRefused(f"source: unknown kind {kind!r}")


def source_file(path: str, settings: Settings, *, tenant_id: str) -> Path:
    """The real path of a ``jsonl`` file source, which must lie under ``SUITE_SOURCE_DIR/<tenant_id>/``.

    A relative path is taken from that folder; ``..`` and symbolic links are resolved first, so
    neither the rest of the server nor another tenant's folder can be named.
    """
    if not settings.suite_source_dir:
        raise SourceRefused("source.jsonl: file sources are off on this server (SUITE_SOURCE_DIR is not set)")
    if (
        not tenant_id
        or tenant_id in (".", "..")
        or "/" in tenant_id
        or "\\" in tenant_id
        or "\x00" in tenant_id
    ):
        raise SourceRefused(f"source.jsonl: tenant {tenant_id!r} has no source folder")
    root = Path(os.path.realpath(Path(settings.suite_source_dir) / tenant_id))
    real = Path(os.path.realpath(root / path))  # an absolute path replaces root
    if real == root or not real.is_relative_to(root):
        raise SourceRefused(
            f"source.jsonl: {path!r} is not a file under the server's SUITE_SOURCE_DIR/{tenant_id}/"
        )
    return real


def check_source_url(url: str, settings: Settings) -> None:
    """Refuse a URL source whose host is not in ``SUITE_SOURCE_HOSTS``."""
    host = (urlsplit(url).hostname or "").lower()
    allowed = {h.lower() for h in settings.suite_source_hosts}
    if not host or host not in allowed:
        raise SourceRefused(
            f"source.jsonl: host {host!r} is not allowed for URL sources (SUITE_SOURCE_HOSTS)"
        )


def _not_public(host: str) -> str:
    """One message for a host that does not resolve and one that resolves to an internal address:
    two would tell a tenant which internal names exist in the server's DNS."""
    return (
        f"webhook.url: host {host!r} does not resolve to a public address (loopback, private, "
        "link-local, multicast and unspecified addresses need WEBHOOK_ALLOW_PRIVATE=true)"
    )


def _addresses(host: str, port: int) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
    try:
        return [ipaddress.ip_address(host)]
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        raise Unresolved(_not_public(host)) from None
    return [ipaddress.ip_address(str(info[4][0]).split("%", 1)[0]) for info in infos]


#: IPv6 prefixes whose addresses carry an IPv4 address in their last 32 bits (NAT64, RFC 6052/8215).
_NAT64 = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48"))


def _embedded_ipv4(ip: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address carries: mapped, 6to4, Teredo (both), NAT64, compatible."""
    found: list[ipaddress.IPv4Address] = []
    if ip.ipv4_mapped is not None:
        found.append(ip.ipv4_mapped)
    if ip.sixtofour is not None:
        found.append(ip.sixtofour)
    if ip.teredo is not None:
        found.extend(ip.teredo)
    low = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    if any(ip in net for net in _NAT64) or int(ip) >> 32 == 0:  # NAT64, or ::a.b.c.d (compatible)
        found.append(low)
    return found


def _internal(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if isinstance(ip, ipaddress.IPv6Address) and any(_internal(v4) for v4 in _embedded_ipv4(ip)):
        return True
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
    try:
        parts = urlsplit(url)
        hostname = parts.hostname
    except ValueError:  # e.g. an unbalanced '[' in the host
        raise SourceRefused("webhook.url: not a valid URL") from None
    if parts.scheme not in ("http", "https") or not hostname:
        raise SourceRefused("webhook.url: an http(s) URL with a host is needed")
    if settings.webhook_allow_private:
        return None
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise SourceRefused("webhook.url: invalid port") from None
    host = hostname.strip("[]")
    addresses = _addresses(host, port)
    if any(_internal(ip) for ip in addresses):
        raise SourceRefused(_not_public(host))
    return str(addresses[0])
