"""``GET /runs/{id}`` holds a first page of the run's rejected lines and their count, never all of
them; ``GET /runs/{id}/rejections`` streams them all, in the same order, one keyset page a query.

The run is seeded in this process with 7 rejections: 6 numbered lines stored out of order and
one without a line number (sorted last); pages of 3 and 2 make several pages of each.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest

from db import run_items
from db import runs as runs_repo
from db.engine import session_scope

pytestmark = [pytest.mark.services]

LINES = [5, 2, 9, 1, 7, 3]  # stored in this order; listed by line number


@pytest.fixture(scope="module")
def run_id(session_factory: Any) -> uuid.UUID:
    with session_scope(session_factory) as s:
        run, _ = runs_repo.get_or_create_run(s, suite=f"rej-{uuid.uuid4().hex[:8]}", label="n1", source="api")
        rejections = [runs_repo.Rejection(f"line {n}", n, None, f"bad line {n}") for n in LINES]
        rejections.append(runs_repo.Rejection("item-x", None, "item-x", "no line number"))
        runs_repo.add_rejections(s, run, rejections, tenant_id="default")
        return run.id


def test_the_run_holds_a_first_page_and_the_stream_holds_all(
    client: Any, run_id: uuid.UUID, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(run_items, "REJECTIONS_PAGE", 3)
    monkeypatch.setattr(run_items, "RUN_ITEMS_PAGE", 2)
    doc = client.get(f"/runs/{run_id}").json()
    # the seeded run (module docstring): 7 rejections, the first 3 by line number
    assert doc["rejections_total"] == 7
    assert [r["line"] for r in doc["rejections"]] == [1, 2, 3]
    resp = client.get(f"/runs/{run_id}/rejections")
    assert resp.status_code == 200, resp.text
    assert resp.headers["content-type"] == "application/x-ndjson"
    assert "content-length" not in resp.headers  # streamed, not rendered whole
    lines = [json.loads(x) for x in resp.text.splitlines()]
    assert [r["line"] for r in lines] == [*sorted(LINES), None]
    assert lines[:3] == doc["rejections"]
    assert lines[-1] == {"line": None, "item_id": "item-x", "reason": "no line number"}
    assert client.get(f"/runs/{uuid.uuid4()}/rejections").status_code == 404


def test_pages_are_keyset_reads(session_factory: Any, run_id: uuid.UUID) -> None:
    with session_factory() as s:
        pages = list(run_items.rejection_pages(s, run_id, page_size=3))
        # 7 rejections in pages of 3: 3, 3, 1
        assert [len(p) for p in pages] == [3, 3, 1]
        assert [r["line"] for p in pages for r in p] == [*sorted(LINES), None]
        assert run_items.first_rejections(s, run_id, limit=100) == ([r for p in pages for r in p], 7)
        with pytest.raises(ValueError):
            next(run_items.rejection_pages(s, run_id, page_size=0))
