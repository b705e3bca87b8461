"""Status codes and error shapes: 4xx for bad requests, 503 with Retry-After for a database that
is down, 413 before a big body is parsed, one structured ``detail`` shape, short excerpts only."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.faults.harness import free_port

pytestmark = pytest.mark.services

VALID: dict[str, Any] = {
    "response": "Ines Marlow won the Varga Prize in 2004.",
    "references": ["In 2004, the cellist Ines Marlow won the Varga Prize in Vienna."],
}


def _assert_structured(resp: Any) -> list[dict[str, Any]]:
    detail = resp.json()["detail"]
    assert isinstance(detail, list) and detail, detail
    for item in detail:
        assert (
            isinstance(item["loc"], list) and isinstance(item["msg"], str) and isinstance(item["type"], str)
        )
    return detail


@pytest.mark.parametrize(
    "raw",
    [
        '{"response": "\\ud800", "references": ["x"]}',  # a lone surrogate in the response
        '{"response": "a", "references": ["ok \\udfff"]}',
        '{"response": "a", "references": ["x"], "question": "\\ud83d"}',
        '{"response": "a", "references": ["x"], "metadata": {"\\ud800": 1}}',
        '{"response": "a", "references": ["x"], "metadata": {"k": ["\\udc00"]}}',
    ],
)
def test_lone_surrogates_are_422(client: TestClient, raw: str) -> None:
    resp = client.post("/audits", content=raw.encode(), headers={"Content-Type": "application/json"})
    assert resp.status_code == 422, resp.text
    assert any("surrogate" in d["msg"] for d in _assert_structured(resp))


def test_out_of_range_query_parameters_are_422(client: TestClient) -> None:
    for params in ({"offset": 2**63}, {"offset": -1}, {"limit": 0}, {"offset": "x"}):
        resp = client.get("/audits", params=params)
        assert resp.status_code == 422, (params, resp.text)
        _assert_structured(resp)


@pytest.mark.parametrize("path", ["/audits", "/runs", "/runs/{run}", "/suites", "/claims/search"])
def test_out_of_range_offsets_and_nul_in_query_strings_are_422_on_every_list_route(
    client: TestClient, path: str
) -> None:
    # found by the fuzzer (tests/api/test_openapi_fuzz.py): GET /runs?label=%00 was a 500 (Postgres
    # text cannot hold NUL) and offset=2**63 overflowed BIGINT; the same holds for every filter
    url = path.format(run="00000000-0000-0000-0000-000000000000")
    for params in ({"offset": 2**63}, {"label": "\x00"}, {"q": "a\x00b"}, {"suite": "x\x00"}):
        if "offset" in params and path in ("/suites", "/claims/search"):
            continue  # no pagination there
        resp = client.get(url, params=params)
        assert resp.status_code == 422, (path, params, resp.text)
        _assert_structured(resp)


def test_a_nul_in_a_path_parameter_is_422(client: TestClient) -> None:
    for url in ("/suites/a%00b", "/runs/a%00b"):
        resp = client.get(url)
        assert resp.status_code == 422, (url, resp.text)
        assert _assert_structured(resp)[0]["loc"] == ["path"]


@pytest.mark.parametrize(
    ("path", "body"),
    [
        # found by the fuzzer (2026-11-30): a key named "\u0000" was a 500 (Postgres text cannot hold NUL)
        ("/admin/keys", {"scopes": ["audits:read"], "name": "\x00"}),
        ("/admin/keys", {"scopes": ["audits:read"], "name": "a\ud800"}),
        ("/labels", {"labels": [], "source": "x\x00"}),
    ],
)
def test_unstorable_text_in_other_request_bodies_is_422(client: TestClient, path: str, body: Any) -> None:
    raw = json.dumps(body).encode()  # "\ud800" travels escaped, as a client would send it
    resp = client.post(path, content=raw, headers={"Content-Type": "application/json"})
    assert resp.status_code == 422, resp.text
    assert any(w in d["msg"] for w in ("NUL", "surrogate", "unicode") for d in _assert_structured(resp)), (
        resp.text
    )


def test_search_model_without_an_llm_endpoint_is_422(client: TestClient) -> None:
    # the test settings have no OPENAI_BASE_URL: no worker is asked at all
    resp = client.get("/claims/search", params={"q": "bridge", "model": "text-embedding-3-large"})
    assert resp.status_code == 422, resp.text
    [item] = _assert_structured(resp)
    assert item["loc"] == ["query", "model"] and "no LLM endpoint configured" in item["msg"]


def test_every_http_error_has_a_structured_detail(client: TestClient) -> None:
    assert client.get("/nowhere").status_code == 404
    _assert_structured(client.get("/nowhere"))
    resp = client.get("/audits/00000000-0000-0000-0000-000000000000")
    assert resp.status_code == 404
    assert _assert_structured(resp)[0]["loc"] == ["path", "audit_id"]
    resp = client.delete("/audits")
    assert resp.status_code == 405
    _assert_structured(resp)
    resp = client.post("/audits", content=b"\xff\xfe{", headers={"Content-Type": "application/json"})
    assert resp.status_code in (400, 422), resp.text
    _assert_structured(resp)


def test_422_echoes_only_a_short_excerpt(client: TestClient) -> None:
    # a 1 MB string where a list belongs: the error names the field and quotes 100 characters at most
    resp = client.post("/audits", json={"response": "r", "references": "x" * 1_000_000})
    assert resp.status_code == 422
    assert len(resp.content) < 2_000, len(resp.content)
    [item] = _assert_structured(resp)
    assert item["loc"] == ["body", "references"] and len(item["input"]) <= 100


def test_body_over_the_limit_is_413_before_parsing(
    settings: Any, session_factory: Any, auth_headers: dict[str, str]
) -> None:
    from api.main import create_app

    small = settings.model_copy(update={"max_body_bytes": 1_000})
    body = json.dumps({**VALID, "response": "y" * 5_000}).encode()
    with TestClient(create_app(small), headers=auth_headers) as c:
        resp = c.post("/audits", content=body, headers={"Content-Type": "application/json"})  # Content-Length
        assert resp.status_code == 413, resp.text
        assert "MAX_BODY_BYTES" in _assert_structured(resp)[0]["msg"]

        def chunks() -> Any:  # streamed without Content-Length: refused once 1,000 bytes passed
            for i in range(0, len(body), 500):
                yield body[i : i + 500]

        resp = c.post("/audits", content=chunks(), headers={"Content-Type": "application/json"})
        assert resp.status_code == 413, resp.text
        assert c.post("/audits", json=VALID).status_code == 202  # under the limit: accepted


def test_database_down_is_503_with_retry_after_and_no_host(
    settings: Any, redis_url: str, auth_headers: dict[str, str]
) -> None:
    from api.main import create_app

    port = free_port()  # nothing listens there
    down = settings.model_copy(update={"database_url": f"postgresql+psycopg://postgres@127.0.0.1:{port}/x"})
    # the key cannot even be looked up: 503, not 401
    with TestClient(create_app(down), headers=auth_headers) as c:
        for resp in (
            c.post("/audits", json=VALID),
            c.post("/audits/batch", json={"audits": [VALID]}),
            c.get("/audits"),
            c.get("/audits/00000000-0000-0000-0000-000000000000"),
        ):
            assert resp.status_code == 503, resp.text
            assert int(resp.headers["Retry-After"]) > 0
            assert str(port) not in resp.text and "127.0.0.1" not in resp.text
            assert _assert_structured(resp)[0]["type"] == "service_unavailable"


def test_openapi_documents_every_error_shape(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            codes = set(op["responses"])
            assert {"400", "413", "422", "503"} <= codes, (method, path, sorted(codes))
            ref = op["responses"]["503"]["content"]["application/json"]["schema"]["$ref"]
            # /healthz and /readyz answer 503 with their own bodies (which service is down, why)
            own = {"/healthz": "/Health", "/readyz": "/Readiness"}
            assert ref.endswith(own.get(path, "/ErrorBody")), (path, ref)


def test_integers_beyond_their_columns_are_422_not_500(client: TestClient) -> None:
    # found by the fuzzer: PUT /suites/0 {"sample_size": 2147483648} was a 500 (integer out of range
    # in Postgres); every integer a route stores has a bound below 2**31
    big = 2**31
    audit = "00000000-0000-0000-0000-000000000000"
    for method, url, body in (
        ("PUT", "/suites/s", {"sample_size": big}),
        ("POST", f"/audits/{audit}/canaries", {"seed": big}),
        ("PUT", f"/audits/{audit}/claims/{big}/label", {"verdict": "supported"}),
        ("POST", "/labels", {"labels": [{"audit_id": audit, "claim": big, "label": "support"}]}),
    ):
        resp = client.request(method, url, json=body)
        assert resp.status_code == 422, (method, url, resp.text)
        _assert_structured(resp)


def test_an_empty_batch_is_422_not_an_accepted_nothing(client: TestClient) -> None:
    # a 202 promises work: an empty `audits` list is the caller's mistake, answered in the one
    # structured error shape and naming the field
    resp = client.post("/audits/batch", json={"audits": []})
    assert resp.status_code == 422, resp.text
    item = _assert_structured(resp)[0]
    assert item["loc"] == ["body", "audits"] and "at least one audit" in item["msg"]
    assert client.post("/audits/batch", json={"audits": [VALID]}).status_code == 202  # one is enough
