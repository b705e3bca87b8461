"""Suites cannot be defined to read the server: SQL as another tenant or the database superuser,
server files, internal URLs, or webhooks that probe internal ports (``service.source_policy``).

Each attack goes through ``PUT /suites/{name}``, which must answer 422 with the reason; a tenant
naming another tenant's source file is also tried as a suite already stored (inserted by the
repository, as one from before the checks), which ``runs.start``, called in this process, must
refuse.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import make_key
from tests.security.conftest import Tenant, message
from tests.security.suite_sources import Internal, put_suite, start_here, stored_run

pytestmark = pytest.mark.services


def test_sql_sources_are_refused_by_default_and_for_keys_without_admin(
    app: Any, session_factory: Any, tenant_a: Tenant
) -> None:
    body = {"source": {"sql": "SELECT pg_read_file('/etc/hostname') AS id"}}
    resp = put_suite(app(), tenant_a, body)  # default settings, admin key
    assert resp.status_code == 422 and "SUITE_SQL_SOURCES" in message(resp), resp.text
    writer, _ = make_key(session_factory, tenant_a.id, ("audits:write", "audits:read"))
    enabled = app(suite_sql_sources=True, suite_sql_tenants=(tenant_a.id,))
    resp = put_suite(enabled, {"Authorization": f"Bearer {writer}"}, body)
    assert resp.status_code == 422 and "admin scope" in message(resp), resp.text
    assert put_suite(enabled, tenant_a, body).status_code == 201  # on, a listed tenant, an admin key


def test_sql_sources_only_for_the_tenants_the_operator_lists(
    app: Any, tenant_a: Tenant, tenant_b: Tenant
) -> None:
    """SQL sources are no sandbox (a query can re-bind its tenant), so they are per tenant: an admin
    of a tenant not in SUITE_SQL_TENANTS is refused even with SUITE_SQL_SOURCES=true."""
    body = {"source": {"sql": "SELECT 1 AS id, 'r' AS response, 'x' AS references"}}
    client = app(suite_sql_sources=True, suite_sql_tenants=(tenant_a.id,))
    resp = put_suite(client, tenant_b, body)
    assert resp.status_code == 422 and "SUITE_SQL_TENANTS" in message(resp), resp.text
    assert put_suite(client, tenant_a, body).status_code == 201


def test_file_sources_only_under_the_source_dir(app: Any, tenant_a: Tenant, tmp_path: Path) -> None:
    resp = put_suite(app(), tenant_a, {"source": {"jsonl": "/etc/passwd"}})
    assert resp.status_code == 422 and "SUITE_SOURCE_DIR" in message(resp), resp.text
    inside = tmp_path / "sources" / tenant_a.id
    inside.mkdir(parents=True)
    (inside / "ok.jsonl").write_text("")
    (inside / "link.jsonl").symlink_to("/etc/passwd")
    client = app(suite_source_dir=str(tmp_path / "sources"))
    for escape in ("/etc/passwd", "../../../../../../etc/passwd", "link.jsonl", str(inside / "link.jsonl")):
        resp = put_suite(client, tenant_a, {"source": {"jsonl": escape}})
        assert resp.status_code == 422 and "not a file under" in message(resp), (escape, resp.text)
    assert put_suite(client, tenant_a, {"source": {"jsonl": "ok.jsonl"}}).status_code == 201
    assert put_suite(client, tenant_a, {"source": {"jsonl": str(inside / "ok.jsonl")}}).status_code == 201


def test_a_tenant_cannot_name_another_tenants_source_file(
    app: Any, session_factory: Any, worker_env: Any, tenant_a: Tenant, tenant_b: Tenant, tmp_path: Path
) -> None:
    """Each tenant's file sources lie in SUITE_SOURCE_DIR/<tenant id>/: B cannot name A's file, by
    a relative, absolute or linked path, at definition or as a stored suite."""
    root = tmp_path / "sources"
    (root / tenant_a.id).mkdir(parents=True)
    (root / tenant_b.id).mkdir()
    secret = root / tenant_a.id / "golden.jsonl"
    secret.write_text('{"id": "a1", "response": "A-secret", "references": ["A-secret"]}\n')
    (root / tenant_b.id / "link.jsonl").symlink_to(secret)
    (root / "shared.jsonl").write_text(secret.read_text())  # in the root, no tenant's folder
    client = app(suite_source_dir=str(root))
    for name in (f"../{tenant_a.id}/golden.jsonl", str(secret), "link.jsonl", "../shared.jsonl", "."):
        resp = put_suite(client, tenant_b, {"source": {"jsonl": name}})
        assert resp.status_code == 422 and "not a file under" in message(resp), (name, resp.text)
    assert put_suite(client, tenant_a, {"source": {"jsonl": "golden.jsonl"}}).status_code == 201
    worker_env(SUITE_SOURCE_DIR=str(root))
    error, items = start_here(session_factory, stored_run(session_factory, tenant_b.id, "jsonl", str(secret)))
    assert items == [] and error is not None and "not a file under" in error and "A-secret" not in error
    error, items = start_here(
        session_factory, stored_run(session_factory, tenant_a.id, "jsonl", "golden.jsonl")
    )
    assert (error, items) == (None, ["a1"])  # A's own file, read as A's


def test_url_sources_only_from_listed_hosts(app: Any, tenant_a: Tenant, internal: str) -> None:
    before = len(Internal.hits)
    resp = put_suite(app(), tenant_a, {"source": {"jsonl": f"{internal}/admin"}})
    assert resp.status_code == 422 and "SUITE_SOURCE_HOSTS" in message(resp), resp.text
    listed = app(suite_source_hosts=("data.example.com",))
    resp = put_suite(listed, tenant_a, {"source": {"jsonl": f"{internal}/admin"}})
    assert resp.status_code == 422, resp.text
    assert (
        put_suite(listed, tenant_a, {"source": {"jsonl": "https://data.example.com/x.jsonl"}}).status_code
        == 201
    )
    assert len(Internal.hits) == before  # nothing was fetched at definition


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:5600/x",
        "http://localhost:8000/",
        "http://[::1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://0.0.0.0/",
        "http://10.1.2.3/",
        "http://192.168.0.1/",
        "http://172.16.0.1/",
        "http://169.254.169.254/latest/meta-data/",
        "http://224.0.0.1/",
        "http://100.64.0.1/",
        # IPv6 forms that carry an internal IPv4 address: NAT64 (both prefixes), 6to4, Teredo,
        # IPv4-compatible
        "http://[64:ff9b::7f00:1]/",
        "http://[64:ff9b:1::a00:1]/",
        "http://[2002:7f00:1::]/",
        "http://[2002:a9fe:a9fe::]/",
        "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/",
        "http://[::127.0.0.1]/",
        "http://[::a00:1]/",
    ],
)
def test_webhooks_to_internal_addresses_are_refused(app: Any, tenant_a: Tenant, url: str) -> None:
    resp = put_suite(app(), tenant_a, {"webhook": {"url": url}})
    assert resp.status_code == 422 and "WEBHOOK_ALLOW_PRIVATE" in message(resp), resp.text


def test_an_internal_name_and_an_unknown_name_get_the_same_answer() -> None:
    # "does not resolve" vs "resolves to a private address" would tell a tenant which internal
    # names exist in the server's DNS; both are one message (only the host differs)
    from service import source_policy
    from service.settings import Settings

    answers = []
    for host in ("localhost", "no-such-host.invalid"):
        with pytest.raises(source_policy.SourceRefused) as refused:
            source_policy.check_webhook_url(f"http://{host}/hook", Settings())
        answers.append(str(refused.value).replace(repr(host), "HOST"))
    assert answers[0] == answers[1]


def test_webhooks_to_public_or_allowed_private_addresses_are_accepted(app: Any, tenant_a: Tenant) -> None:
    assert put_suite(app(), tenant_a, {"webhook": {"url": "https://93.184.215.14/hook"}}).status_code == 201
    allowed = app(webhook_allow_private=True)
    assert put_suite(allowed, tenant_a, {"webhook": {"url": "http://127.0.0.1:9/"}}).status_code == 201
