"""``POST /runs`` to a sealed run, and gate limits out of their range, against the real API on
the test database (no worker: a run is finished here by marking its audits done and calling the
workers' own ``service.runs.finish_run``).

A sealed run (finished, or its last items sent) takes nothing new: a request that would add an
item id, other content for a known id or a rejected line is refused whole (409) and stores
nothing; a request that only repeats the run's items (a resumed batch) is answered as before.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from sqlalchemy import text

pytestmark = pytest.mark.services

REF = "The Orsa mill was built in 1780."
ITEMS = [
    {"id": "a", "references": [REF], "response": "The Orsa mill was built in 1780.", "line": 1},
    {"id": "b", "references": [REF], "response": "The Orsa mill was built in 1790.", "line": 2},
]
REJECTED = [{"line": 3, "reason": "line 3 is not valid JSON"}]


def _suite() -> str:
    return f"reuse-{uuid.uuid4().hex[:8]}"


def _stored(session_factory: Any, run_id: str) -> tuple[int, int, int]:
    """(run items, rejections, audits of the run) as stored."""
    with session_factory() as s:
        row = s.execute(
            text(
                "SELECT (SELECT count(*) FROM run_items WHERE run_id = :r),"
                " (SELECT count(*) FROM run_rejections WHERE run_id = :r),"
                " (SELECT count(*) FROM audits a JOIN run_items i ON i.audit_id = a.id WHERE i.run_id = :r)"
            ),
            {"r": run_id},
        ).one()
    return int(row[0]), int(row[1]), int(row[2])


def _finish(session_factory: Any, run_id: str) -> None:
    from service import runs as run_service

    with session_factory() as s:
        s.execute(
            text(
                "UPDATE audits SET status = 'done', finished_at = now() "
                "WHERE id IN (SELECT audit_id FROM run_items WHERE run_id = :r)"
            ),
            {"r": run_id},
        )
        finished = run_service.finish_run(s, uuid.UUID(run_id))
        s.commit()
    assert finished is not None


def _first_run(client: Any, session_factory: Any, suite: str, *, finish: bool = True) -> dict[str, Any]:
    resp = client.post("/runs", json={"suite": suite, "label": "L1", "items": ITEMS, "rejected": REJECTED})
    assert resp.status_code == 202, resp.text
    run: dict[str, Any] = resp.json()["run"]
    if finish:
        _finish(session_factory, run["id"])
    return run


def test_a_finished_run_refuses_new_lines_whole_and_stores_nothing(client: Any, session_factory: Any) -> None:
    suite = _suite()
    run = _first_run(client, session_factory, suite)
    before = _stored(session_factory, run["id"])
    assert before == (2, 1, 2)
    summary = client.get(f"/runs/{run['id']}").json()["summary"]
    # the same two lines, a new line 3 (item c) and a rejected line 4
    items = [*ITEMS, {"id": "c", "references": [REF], "response": "It was built in 1780.", "line": 3}]
    body = {"suite": suite, "label": "L1", "items": items, "rejected": [{"line": 4, "reason": "no id"}]}
    resp = client.post("/runs", json=body)
    assert resp.status_code == 409, resp.text
    error = resp.json()["detail"][0]
    assert error["type"] == "run_finished"
    assert f"run {suite}/L1 is finished at " in error["msg"]
    assert (
        "1 new item id ('c')" in error["msg"]
        and "1 rejected line it does not hold ('line 4')" in error["msg"]
    )
    assert "Start a new run under another label" in error["msg"]
    # nothing of it stored: no item, no audit, no rejection; the frozen summary unchanged
    assert _stored(session_factory, run["id"]) == before
    assert client.get(f"/runs/{run['id']}").json()["summary"] == summary
    # other content for a known id is an addition too
    changed = [{**ITEMS[0], "response": "The Orsa mill was built in 1781."}, ITEMS[1]]
    resp = client.post("/runs", json={"suite": suite, "label": "L1", "items": changed, "rejected": REJECTED})
    assert (
        resp.status_code == 409 and "1 known id with other content ('a')" in resp.json()["detail"][0]["msg"]
    )
    assert _stored(session_factory, run["id"]) == before


def test_a_finished_run_answers_a_resubmission_of_exactly_its_lines(
    client: Any, session_factory: Any
) -> None:
    suite = _suite()
    run = _first_run(client, session_factory, suite)
    audits = {i["item_id"]: i["audit_id"] for i in client.get(f"/runs/{run['id']}").json()["audits"]["items"]}
    resp = client.post("/runs", json={"suite": suite, "label": "L1", "items": ITEMS, "rejected": REJECTED})
    assert resp.status_code == 202, resp.text
    answered = {i["item_id"]: (i["audit_id"], i["created"]) for i in resp.json()["items"]}
    assert answered == {k: (v, False) for k, v in audits.items()}
    assert resp.json()["run"]["status"] == "finished"
    assert _stored(session_factory, run["id"]) == (2, 1, 2)


def test_a_sealed_running_run_refuses_new_lines_too(client: Any, session_factory: Any) -> None:
    suite = _suite()
    run = _first_run(client, session_factory, suite, finish=False)  # sealed, its audits queued
    extra = {"id": "c", "references": [REF], "response": "It was built in 1780.", "line": 3}
    resp = client.post("/runs", json={"suite": suite, "label": "L1", "items": [*ITEMS, extra]})
    assert resp.status_code == 409, resp.text
    assert resp.json()["detail"][0]["type"] == "run_sealed"
    assert "(its audits are running)" in resp.json()["detail"][0]["msg"]
    assert _stored(session_factory, run["id"]) == (2, 1, 2)
    # another label is a new run: accepted
    resp = client.post("/runs", json={"suite": suite, "label": "L2", "items": [*ITEMS, extra]})
    assert resp.status_code == 202 and resp.json()["run"]["label"] == "L2"


@pytest.mark.parametrize(
    ("limit", "value"),
    [
        ("unscored_items_share", 500),
        ("worse_items_share", 100.5),
        ("contradicted_share_rise", 101),
        ("problem_share_rise", -1),
        ("f1_drop", 1000),
        ("precision_drop", 100.01),
        ("worse_items", -2),
    ],
)
def test_compare_refuses_a_limit_out_of_its_range(
    client: Any, session_factory: Any, limit: str, value: float
) -> None:
    run = _first_run(client, session_factory, _suite())
    resp = client.get(f"/runs/{run['id']}/compare", params={"with": run["id"], limit: value})
    assert resp.status_code == 422, resp.text
    assert resp.json()["detail"][0]["loc"] == ["query", limit]


def test_compare_takes_the_ends_of_a_share_range(client: Any, session_factory: Any) -> None:
    run = _first_run(client, session_factory, _suite())
    for value in (0, 100):
        resp = client.get(
            f"/runs/{run['id']}/compare", params={"with": run["id"], "unscored_items_share": value}
        )
        assert resp.status_code == 200, resp.text
        assert resp.json()["gate"]["limits"]["unscored_items_share"] == value


def test_a_suite_gate_out_of_range_is_refused_and_not_stored(client: Any) -> None:
    name = _suite()
    resp = client.put(f"/suites/{name}", json={"gate": {"unscored_items_share": 500}})
    assert resp.status_code == 422, resp.text
    assert "gate.unscored_items_share: must be between 0 and 100" in resp.text
    assert client.get("/suites").status_code == 200
    assert name not in {s["name"] for s in client.get("/suites").json()["items"]}
