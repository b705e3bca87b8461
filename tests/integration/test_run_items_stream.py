"""``GET /runs/{id}/items`` streams every item of a run: the same entries, in the same order, as
the pages of ``GET /runs/{id}`` (the only way to read a run's items before it), read one keyset
page per query and each page sent before the next is read; with ``documents=true`` each item
carries exactly what ``GET /audits/{id}`` answers.

The run is seeded in this process: 4 audits run through the stage services
(``harness.run_in_process``), 18 queued ones and one item whose audit was deleted (23 items:
pages of 5 give four full pages and a partial one).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import delete, event, insert

from api.routes import runs as runs_route
from db import repository as repo
from db import run_items
from db import runs as runs_repo
from db.engine import session_scope
from db.models import Audit
from db.run_models import RunItem
from tests.faults import harness

pytestmark = [pytest.mark.services]

#: Items of the seeded run (module docstring): 4 done, 18 queued, 1 without an audit.
DONE, QUEUED = 4, 18
ITEMS = DONE + QUEUED + 1


@pytest.fixture(scope="module")
def run_id(session_factory: Any) -> uuid.UUID:
    done = [harness.run_in_process(session_factory, body) for body in harness.workload(DONE)]
    with session_scope(session_factory) as s:
        run, _ = runs_repo.get_or_create_run(
            s, suite=f"stream-{uuid.uuid4().hex[:8]}", label="n1", source="api"
        )
        queued = [
            repo.create_audit(
                s, repo.NewAudit(response=f"Item {i}.", references=["Ref."], request_sha256=uuid.uuid4().hex)
            )[0].id
            for i in range(QUEUED + 1)
        ]
        audits = [*done[:2], *queued, *done[2:]]
        s.execute(
            insert(RunItem),
            [
                # item ids out of alphabetical order, so that position (not item id) must order them
                {"run_id": run.id, "item_id": f"item-{(7 * p) % ITEMS:02d}", "tenant_id": "default",
                 "request_sha256": "0" * 64, "position": p, "audit_id": a}
                for p, a in enumerate(audits)
            ],
        )  # fmt: skip
        s.flush()
        s.execute(delete(Audit).where(Audit.id == queued[-1]))  # its item keeps audit_id NULL
        return run.id


def _pages(client: Any, run_id: uuid.UUID, limit: int) -> list[dict[str, Any]]:
    """The run's items read as before: ``GET /runs/{id}`` page by page."""
    out: list[dict[str, Any]] = []
    while True:
        page = client.get(f"/runs/{run_id}", params={"limit": limit, "offset": len(out)}).json()["audits"]
        out += page["items"]
        if len(out) >= page["total"]:
            return out


def _lines(body: bytes) -> list[dict[str, Any]]:
    assert body.endswith(b"\n")
    return [json.loads(line) for line in body.decode().splitlines()]


def test_streamed_items_equal_the_paged_listing(
    client: Any, run_id: uuid.UUID, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(run_items, "RUN_ITEMS_PAGE", 5)
    resp = client.get(f"/runs/{run_id}/items")
    assert resp.status_code == 200, resp.text
    assert resp.headers["content-type"] == "application/x-ndjson"
    assert "content-length" not in resp.headers  # streamed (chunked), not rendered whole
    items = _lines(resp.content)
    assert items == _pages(client, run_id, limit=4)
    assert len(items) == ITEMS
    assert [i["status"] for i in items].count("done") == DONE
    assert items[0]["item_id"] == "item-00" and items[1]["item_id"] == "item-07"  # position order
    assert items[-3]["audit_id"] is None and items[-3]["status"] is None  # its audit was deleted


def test_documents_are_those_of_get_audit(client: Any, run_id: uuid.UUID) -> None:
    items = _lines(client.get(f"/runs/{run_id}/items", params={"documents": "true"}).content)
    plain = _lines(client.get(f"/runs/{run_id}/items").content)
    assert [{k: v for k, v in i.items() if k != "document"} for i in items] == plain
    for item in items:
        if item["audit_id"] is None:
            assert item["document"] is None
        else:
            assert item["document"] == client.get(f"/audits/{item['audit_id']}").json()
    assert sum(bool(i["document"] and i["document"]["claims"]) for i in items) == DONE


class _Queries:
    """The SELECTs on ``run_items`` the engine sends (one a page)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if statement.lstrip().upper().startswith("SELECT") and "FROM run_items" in statement:
            self.count += 1


@pytest.fixture
def queries(engine: Any) -> Iterator[_Queries]:
    seen = _Queries()
    event.listen(engine, "before_cursor_execute", seen)
    yield seen
    event.remove(engine, "before_cursor_execute", seen)


@pytest.mark.parametrize(("page", "reads"), [(5, 5), (23, 2), (100, 1)])
def test_pages_are_read_as_the_stream_is_consumed(
    session_factory: Any, run_id: uuid.UUID, queries: _Queries, page: int, reads: int
) -> None:
    """``reads``: ⌈23 / page⌉ queries, one more when the last page is full (the empty one ends it)."""
    with session_factory() as s:
        pages = run_items.run_audit_pages(s, run_id, page_size=page)
        first = next(pages)
        assert queries.count == 1  # the first page is out before the second is read
        rest = [item for p in pages for item in p]
        assert queries.count == reads
        listed, total = run_items.list_run_audits(s, run_id, limit=ITEMS)
    assert [*first, *rest] == listed and total == ITEMS


def test_the_route_sends_a_page_before_reading_the_next(
    session_factory: Any, settings: Any, run_id: uuid.UUID, queries: _Queries, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(run_items, "RUN_ITEMS_PAGE", 5)
    with session_factory() as s:
        chunks = runs_route._item_lines(s, settings, run_id, "default", documents=False)
        assert len(next(chunks).splitlines()) == 5 and queries.count == 1
        assert sum(len(c.splitlines()) for c in chunks) == ITEMS - 5


def test_unknown_or_foreign_run_is_404(client: Any, run_id: uuid.UUID, session_factory: Any) -> None:
    assert client.get(f"/runs/{uuid.uuid4()}/items").status_code == 404
    with session_scope(session_factory) as s:
        other, _ = runs_repo.get_or_create_run(
            s, suite="stream-other", label="n1", source="api", tenant_id="t-other"
        )
        other_id = other.id
    assert client.get(f"/runs/{other_id}/items").status_code == 404


def test_page_size_below_one_is_refused(session_factory: Any, run_id: uuid.UUID) -> None:
    with session_factory() as s, pytest.raises(ValueError, match="page_size"):
        next(run_items.run_audit_pages(s, run_id, page_size=0))
