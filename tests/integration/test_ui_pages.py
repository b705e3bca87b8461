"""The /ui pages and the list filters of GET /audits over HTTP (TestClient, real Postgres):
both read the same repository function, so each filter is checked on both."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event
from sqlalchemy.engine import Engine

from tests.synthetic_audits import Spec, audit_of_n_claims, store_finished_audit

pytestmark = pytest.mark.services

RESPONSE = "The bridge opened in 1998. It has six lanes. Hello there!"
REFERENCE = "The bridge opened in 1998. It has four lanes."
REF_SPANS = [(0, 26), (27, 45)]


@pytest.fixture(scope="module")
def tagged(session_factory: Any) -> dict[str, Any]:
    """Two finished audits tagged suite=<tag>: one all supported, one with a contradiction."""
    tag = uuid.uuid4().hex[:10]
    good = store_finished_audit(
        session_factory, RESPONSE, REFERENCE,
        [Spec(0, 26, "supported", (0,)), Spec(27, 44, "supported", (1,)),
         Spec(45, 57, "outside_scope", (), "outside_scope")],
        REF_SPANS, metadata={"suite": tag, "name": "good"},
    )  # fmt: skip
    bad = store_finished_audit(
        session_factory, RESPONSE, REFERENCE,
        [Spec(0, 26, "supported", (0,)), Spec(27, 44, "contradicted", (1,))],
        REF_SPANS, metadata={"suite": tag, "name": "bad"},
    )  # fmt: skip
    return {"tag": tag, "good": str(good), "bad": str(bad)}


def _api_ids(client: TestClient, **params: Any) -> set[str]:
    resp = client.get("/audits", params=params)
    assert resp.status_code == 200, resp.text
    return {item["id"] for item in resp.json()["items"]}


def _page_ids(client: TestClient, **params: Any) -> set[str]:
    resp = client.get("/ui/audits", params=params)
    assert resp.status_code == 200
    return {line.split('"')[0] for line in resp.text.split('class="audit-row" data-audit-id="')[1:]}


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({}, {"good", "bad"}),
        ({"verdict": "contradicted"}, {"bad"}),
        ({"verdict": "outside_scope"}, {"good"}),
        ({"verdict": "unsupported"}, set()),
        # precision: good 2/2 = 1.0 (the outside_scope claim is not counted), bad 1/2 = 0.5
        ({"score": "claim_precision", "score_max": 0.5}, {"bad"}),
        ({"score": "claim_precision", "score_min": 0.75}, {"good"}),
        ({"status": "queued"}, set()),
    ],
)
def test_list_filters_agree_between_api_and_page(
    client: TestClient, tagged: dict[str, Any], params: dict[str, Any], expected: set[str]
) -> None:
    scope = {"metadata_key": "suite", "metadata_value": tagged["tag"]}  # only this module's audits
    want = {tagged[name] for name in expected}
    assert _api_ids(client, **scope, **params) == want
    assert _page_ids(client, **scope, **params) == want


def test_a_metadata_key_alone_matches_audits_that_have_it(client: TestClient, tagged: dict[str, Any]) -> None:
    assert {tagged["good"], tagged["bad"]} <= _api_ids(client, metadata_key="name", limit=500)
    assert _api_ids(client, metadata_key=f"absent-{tagged['tag']}") == set()
    assert _page_ids(client, metadata_key=f"absent-{tagged['tag']}") == set()


def test_unknown_score_name_is_a_422_on_the_api(client: TestClient) -> None:
    resp = client.get("/audits", params={"score": "accuracy", "score_min": 0.5})
    assert resp.status_code == 422
    assert "score" in resp.text


def test_audit_page_shows_claims_scores_and_edit_script(client: TestClient, tagged: dict[str, Any]) -> None:
    html = client.get(f"/ui/audits/{tagged['bad']}").text
    assert 'aria-label="claim 2: contradicted"' in html
    assert 'data-score="claim_precision"' in html and "title=" in html
    assert f'href="/ui/audits/{tagged["bad"]}/json"' in html  # the JSON document, for a signed-in browser
    assert 'id="edit-script"' in html


def test_unknown_or_malformed_audit_id_is_a_404_page(client: TestClient) -> None:
    for aid in (str(uuid.uuid4()), "not-a-uuid"):
        resp = client.get(f"/ui/audits/{aid}")
        assert resp.status_code == 404
        assert resp.headers["content-type"].startswith("text/html")
        assert client.get(f"/ui/audits/{aid}/status").status_code == 404


def test_static_assets_are_served_locally(client: TestClient) -> None:
    for name in ("ui.css", "ui.js"):
        assert client.get(f"/ui/static/{name}").status_code == 200
    assert client.get("/ui", follow_redirects=False).headers["location"] == "/ui/audits"


def test_the_json_link_serves_the_api_document(client: TestClient, tagged: dict[str, Any]) -> None:
    page_doc = client.get(f"/ui/audits/{tagged['bad']}/json")
    assert page_doc.status_code == 200
    assert page_doc.json() == client.get(f"/audits/{tagged['bad']}").json()
    assert client.get(f"/ui/audits/{uuid.uuid4()}/json").status_code == 404


@contextmanager
def _statements() -> Iterator[list[str]]:
    """The SQL statements any SQLAlchemy engine of this process runs inside the block."""
    seen: list[str] = []

    def record(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        seen.append(statement)

    event.listen(Engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(Engine, "before_cursor_execute", record)


def test_the_audit_page_costs_the_same_statements_for_20_or_200_claims_and_stays_small(
    client: TestClient, session_factory: Any
) -> None:
    """What the page-load budget (200 claims in 300 ms, a benchmark: ``make bench-page``)
    rests on, held exactly: no SQL statement per claim (18 for either size when written), and a
    bounded page. The 200-claim page weighed 251,807 bytes (246 KiB) when this test was written;
    the bound, 256 KiB, fails a change that adds about 52 bytes of markup per claim or more."""
    pages = {}
    for n in (20, 200):
        aid = audit_of_n_claims(session_factory, n)
        client.get(f"/ui/audits/{aid}")  # warm-up: templates, the connection pool
        with _statements() as seen:
            resp = client.get(f"/ui/audits/{aid}")
        assert resp.status_code == 200
        assert resp.text.count('class="claim-row') == n
        pages[n] = (len(seen), len(resp.content))
    assert pages[200][0] == pages[20][0], pages
    assert pages[200][1] <= 256 * 1024, pages
