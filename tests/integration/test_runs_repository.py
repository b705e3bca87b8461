"""Run, suite and retention SQL against real Postgres (db/runs.py, db/suites.py, db/retention.py).

Idempotency per (run, item id); a cron slot is claimed once; a run finishes once; retention
deletes old finished audits in batches while runs keep their summaries; tenants do not see
each other's runs.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import update

from db import repository as repo
from db import retention, run_items, suites
from db import runs as runs_repo
from db.engine import session_scope
from db.models import Audit
from service.runs import finish_run, submit_items

pytestmark = [pytest.mark.services]

BODY = {"response": "It opened in 1998.", "references": ["The bridge opened in 1998."], "config": {}}


def _suite() -> str:
    return f"suite-{uuid.uuid4().hex[:8]}"


def test_items_are_idempotent_per_run_and_item_id(session_factory: Any) -> None:
    name = _suite()
    with session_scope(session_factory) as s:
        run, created, first = submit_items(
            s, suite=name, label="r1", source="test", items=[("a", BODY)], final=False
        )
    assert created and first[0].created and first[0].audit_id is not None
    with session_scope(session_factory) as s:
        changed = {**BODY, "response": "It opened in 1989."}
        again, created, second = submit_items(
            s, suite=name, label="r1", source="test", items=[("a", BODY), ("a2", changed), ("a", changed)]
        )
    assert again.id == run.id and not created
    assert (second[0].audit_id, second[0].created) == (first[0].audit_id, False)  # the same audit
    assert second[1].created
    assert second[2].status == "rejected" and "other content" in str(second[2].error)
    with session_scope(session_factory) as s:  # sealed: no new item
        _, _, third = submit_items(s, suite=name, label="r1", source="test", items=[("b", BODY)])
        assert third[0].status == "rejected" and "sealed" in str(third[0].error)
        assert runs_repo.run_summary(s, run.id)["items"] == 2


def test_a_run_finishes_once_when_sealed_and_every_audit_ended(session_factory: Any) -> None:
    name = _suite()
    with session_scope(session_factory) as s:
        run, _, results = submit_items(
            s, suite=name, label="r1", source="test", items=[("a", BODY), ("b", BODY)]
        )
    assert all(r.audit_id for r in results)
    with session_scope(session_factory) as s:
        assert finish_run(s, run.id) is None  # two audits still queued
        repo.mark_failed(s, results[0].audit_id, "boom")  # type: ignore[arg-type]
        assert runs_repo.complete_runs_for_audits(s, [results[0].audit_id]) == []  # type: ignore[list-item]
        repo.mark_failed(s, results[1].audit_id, "boom")  # type: ignore[arg-type]
        assert runs_repo.complete_runs_for_audits(s, [results[1].audit_id]) == [run.id]  # type: ignore[list-item]
    with session_scope(session_factory) as s:
        done = finish_run(s, run.id)
        # no audit scored: the run's own gate limit (unscored items, default 2 %) is crossed
        # without any baseline, so the event is the quality drop, not a plain finish
        assert (
            done is not None and done.event == "run.quality_drop" and done.delivery_id is None
        )  # no suite webhook
        assert done.run.summary["counts"]["failed"] == 2
        assert done.run.summary["baseline"] is None
        assert done.run.summary["gate"]["crossed"] == [
            "2 of 2 items were not scored (0 rejected, 2 failed): 100.0% (limit 2.0%)"
        ]
        # 0 scored audits: means and shares are null, never NaN
        assert done.run.summary["scores"]["claim_f1"] is None
        assert done.run.summary["shares"]["contradicted"] is None
    with session_scope(session_factory) as s:
        assert finish_run(s, run.id) is None  # only once
        assert runs_repo.unfinished_complete_runs(
            s
        ) == [] or run.id not in runs_repo.unfinished_complete_runs(s)


def test_a_cron_slot_is_claimed_once(session_factory: Any) -> None:
    slot = datetime(2026, 11, 30, 2, 0, tzinfo=UTC)
    with session_scope(session_factory) as s:
        suite, created = suites.upsert_suite(
            s,
            suites.SuiteSpec(
                name=_suite(),
                cron="0 2 * * *",
                source_kind="jsonl",
                source="x.jsonl",
                initial_slot=slot - timedelta(days=1),
            ),  # fmt: skip
        )
    assert created
    with session_scope(session_factory) as s:
        assert suites.claim_slot(s, suite.id, slot) is True
        assert suites.claim_slot(s, suite.id, slot) is False  # the same slot again
        assert suites.claim_slot(s, suite.id, slot - timedelta(days=1)) is False  # an older one
    with session_scope(session_factory) as s:  # redefining the suite keeps the claimed slot
        again, created = suites.upsert_suite(
            s,
            suites.SuiteSpec(
                name=suite.name,
                cron="0 2 * * *",
                source_kind="jsonl",
                source="y.jsonl",
                initial_slot=slot - timedelta(days=5),
            ),  # fmt: skip
        )
        assert not created and again.last_slot_at == slot and again.source == "y.jsonl"


def test_tenants_do_not_see_each_others_runs(session_factory: Any) -> None:
    name = _suite()
    with session_scope(session_factory) as s:
        run, _, _ = submit_items(s, suite=name, label="r1", source="t", items=[("a", BODY)], tenant_id="acme")
    with session_scope(session_factory) as s:
        assert runs_repo.get_run(s, run.id) is None
        assert runs_repo.get_run(s, run.id, tenant_id="acme") is not None
        assert runs_repo.list_runs(s, suite=name)[1] == 0
        assert runs_repo.list_runs(s, suite=name, tenant_id="acme")[1] == 1


def test_retention_deletes_old_finished_audits_and_runs_keep_their_summary(session_factory: Any) -> None:
    with session_scope(session_factory) as s:
        run, _, results = submit_items(
            s, suite=_suite(), label="r1", source="t", items=[("a", BODY), ("b", BODY)]
        )
        old, young = (r.audit_id for r in results)
        repo.mark_failed(s, old, "x")  # type: ignore[arg-type]
        repo.mark_failed(s, young, "x")  # type: ignore[arg-type]
        s.execute(
            update(Audit).where(Audit.id == old).values(created_at=Audit.created_at - timedelta(days=40))
        )
    with session_scope(session_factory) as s:
        assert finish_run(s, run.id) is not None
    with session_scope(session_factory) as s:
        assert retention.delete_old_audits(s, older_than_days=30, limit=1) == 1
    with session_scope(session_factory) as s:
        assert repo.get_audit(s, old) is None  # type: ignore[arg-type]
        assert repo.get_audit(s, young) is not None  # type: ignore[arg-type]
        items, total = run_items.list_run_audits(s, run.id)
        assert total == 2 and [i["audit_id"] for i in items] == [None, young]
        kept = runs_repo.get_run(s, run.id)
        assert kept is not None and kept.summary is not None and kept.summary["counts"]["failed"] == 2
    with pytest.raises(ValueError, match="must be > 0"), session_scope(session_factory) as s:
        retention.delete_old_audits(s, older_than_days=0)


def test_the_readme_run_queries_run(session_factory: Any) -> None:
    """Every SQL block of README "Runs in SQL" runs against the migrated schema; the first one
    shows the newest run of the tenant and suite it names (one item, failed: 1 failed, 0 done).
    Their results on a two-tenant store, as a tenant's SQL login: ``test_analyst_sql``."""
    from pathlib import Path

    from sqlalchemy import text

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Runs in SQL", 1)[1].split("\n## ", 1)[0]  # up to the next section
    blocks = [b.split("```", 1)[0] for b in section.split("```sql")[1:]]
    assert len(blocks) == 4
    with session_scope(session_factory) as s:
        _, _, results = submit_items(
            s, suite="support-bot", label=uuid.uuid4().hex, source="t", items=[("q", BODY)], tenant_id="acme"
        )
        repo.mark_failed(s, results[0].audit_id, "x")  # type: ignore[arg-type]
    with session_scope(session_factory) as s:
        rows = [s.execute(text(sql)).all() for sql in blocks]
    assert rows[0][0][1:4] == (1, 0, 1)  # items, done, failed of the newest support-bot run


def test_runs_finish_in_creation_order(session_factory: Any) -> None:
    name = _suite()
    with session_scope(session_factory) as s:
        first, _, one = submit_items(s, suite=name, label="r1", source="t", items=[("a", BODY)])
    with session_scope(session_factory) as s:
        second, _, two = submit_items(s, suite=name, label="r2", source="t", items=[("a", BODY)])
        repo.mark_failed(s, two[0].audit_id, "x")  # type: ignore[arg-type]
    with session_scope(session_factory) as s:
        assert finish_run(s, second.id) is None  # r1 is still running
        repo.mark_failed(s, one[0].audit_id, "x")  # type: ignore[arg-type]
    with session_scope(session_factory) as s:
        finished_first = finish_run(s, first.id)
        assert finished_first is not None
        first_at = finished_first.run.finished_at
    with session_scope(session_factory) as s:
        done = finish_run(s, second.id)
        assert done is not None and done.run.finished_at >= first_at
        # r1 scored nothing, so its gate (unscored items) was crossed: it is no baseline for r2
        assert done.run.summary["previous_run_id"] is None
