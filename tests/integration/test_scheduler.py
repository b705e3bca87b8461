"""The scheduler tick (``runs.tick``, called in this process) against real Postgres and Redis.

A missed schedule (beat down for three days over a daily slot) runs once, for the latest slot,
never twice however many ticks follow; a new suite does not run at once; a start message is
re-sent for a scheduled run left unsealed.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import update

from db import runs as runs_repo
from db import suites
from db.engine import session_scope
from db.run_models import Run
from service.schedule import due_slot, slot_label

pytestmark = [pytest.mark.services]


@pytest.fixture(autouse=True)
def source_dir(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """File sources allowed under ``tmp_path`` (SUITE_SOURCE_DIR; ``runs.start`` reads the settings)."""
    from service.settings import get_settings

    monkeypatch.setenv("SUITE_SOURCE_DIR", str(tmp_path))
    get_settings.cache_clear()
    yield tmp_path
    monkeypatch.delenv("SUITE_SOURCE_DIR")
    get_settings.cache_clear()


def _define(session_factory: Any, cron: str, initial_slot: datetime | None) -> str:
    name = f"sched-{uuid.uuid4().hex[:8]}"
    with session_scope(session_factory) as s:
        suites.upsert_suite(
            s,
            suites.SuiteSpec(
                name=name,
                cron=cron,
                source_kind="jsonl",
                source="nonexistent.jsonl",  # under SUITE_SOURCE_DIR/default/ (source_dir)
                initial_slot=initial_slot,
            ),
        )
    return name


def test_a_missed_slot_runs_once_and_a_new_suite_waits_for_its_next_slot(
    session_factory: Any, redis_url: str
) -> None:
    from workers.run_tasks import tick

    now = datetime.now(UTC)
    latest = due_slot("0 2 * * *", now)
    missed = _define(session_factory, "0 2 * * *", latest - timedelta(days=3))  # beat down 3 days
    fresh = _define(session_factory, "0 2 * * *", latest)  # defined now: next slot is tomorrow
    tick()
    tick()  # a second tick (or a second beat) sees the slot claimed
    with session_scope(session_factory) as s:
        missed_runs, n_missed = runs_repo.list_runs(s, suite=missed)
        assert n_missed == 1  # once, for the latest missed slot only
        assert missed_runs[0].label == slot_label(latest) and missed_runs[0].scheduled_for == latest
        assert runs_repo.list_runs(s, suite=fresh)[1] == 0
        suite = suites.get_suite(s, missed)
        assert suite is not None and suite.last_slot_at == latest


def test_a_lost_start_is_sent_again_and_an_unreadable_source_fails_the_run(
    session_factory: Any, redis_url: str
) -> None:
    from workers.run_tasks import start, tick

    name = _define(session_factory, "0 2 * * *", None)
    with session_scope(session_factory) as s:
        run, _ = runs_repo.get_or_create_run(
            s,
            suite=name,
            label="x",
            source="schedule:jsonl",
            scheduled_for=datetime(2026, 11, 1, 2, tzinfo=UTC),
        )
        s.execute(update(Run).where(Run.id == run.id).values(created_at=Run.created_at - timedelta(hours=1)))
    with session_scope(session_factory) as s:
        assert run.id in runs_repo.unsealed_scheduled_runs(s, older_than_s=300)
    tick()  # re-sends runs.start for it (to the broker; run here by hand)
    assert start(str(run.id)) == 0
    with session_scope(session_factory) as s:
        failed = runs_repo.get_run_any_tenant(s, run.id)
        assert failed is not None and failed.sealed_at is not None
        assert "/default/nonexistent.jsonl" in str(failed.error) and "FileNotFoundError" in str(failed.error)
        assert run.id not in runs_repo.unsealed_scheduled_runs(s, older_than_s=300)


def test_a_bad_row_of_a_scheduled_source_is_rejected_alone_and_the_others_are_audited(
    session_factory: Any, redis_url: str, source_dir: Any
) -> None:
    import json

    from workers.run_tasks import start

    ref = "The Halvorsen Bridge opened to traffic on 12 May 1998."
    good = [{"id": f"q{i}", "response": "The bridge opened in 1998.", "references": [ref]} for i in range(3)]
    lines = [
        json.dumps(good[0]),
        "{not json",  # line 2
        json.dumps({"response": "no id", "references": [ref]}),  # line 3
        json.dumps(good[1]),
        json.dumps({"id": "q9", "response": "r", "references": [ref], "config": {"nope": 1}}),  # line 5
        json.dumps(good[2]),
    ]
    (source_dir / "default").mkdir(exist_ok=True)
    (source_dir / "default" / "night.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    name = f"sched-{uuid.uuid4().hex[:8]}"
    with session_scope(session_factory) as s:
        suites.upsert_suite(
            s, suites.SuiteSpec(name=name, cron="0 2 * * *", source_kind="jsonl", source="night.jsonl")
        )
        run, _ = runs_repo.get_or_create_run(s, suite=name, label="n1", source="schedule:jsonl")
    # one bad line failed the whole night before: nothing was audited
    assert start(str(run.id)) == 3
    with session_scope(session_factory) as s:
        after = runs_repo.get_run_any_tenant(s, run.id)
        assert after is not None and after.error is None and after.sealed_at is not None
        rejected = [(r["line"], r["item_id"]) for r in runs_repo.list_rejections(s, run.id)]
    assert rejected == [(2, None), (3, None), (5, "q9")]


def test_a_scheduled_run_waits_while_the_backlog_is_past_a_bound_and_starts_after(
    session_factory: Any, redis_url: str, source_dir: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The API's backlog bounds hold for scheduled runs too: a run that finds the backlog full
    stores nothing and stays unsealed (``runs.tick`` sends its start again), then starts once the
    backlog is within the bounds."""
    import json

    from service.settings import get_settings
    from workers.run_tasks import start

    ref = "The Halvorsen Bridge opened to traffic on 12 May 1998."
    rows = [{"id": f"q{i}", "response": "The bridge opened in 1998.", "references": [ref]} for i in range(2)]
    (source_dir / "default").mkdir(exist_ok=True)
    (source_dir / "default" / "two.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    runs = []
    with session_scope(session_factory) as s:
        for name in (f"sched-{uuid.uuid4().hex[:8]}", f"sched-{uuid.uuid4().hex[:8]}"):
            suites.upsert_suite(
                s, suites.SuiteSpec(name=name, cron="0 2 * * *", source_kind="jsonl", source="two.jsonl")
            )
            runs.append(runs_repo.get_or_create_run(s, suite=name, label="n1", source="schedule:jsonl")[0].id)
    # the first run queues 2 audits (no worker consumes them in this process): the backlog is >= 2
    assert start(str(runs[0])) == 2
    monkeypatch.setenv("MAX_QUEUED_AUDITS", "2")
    get_settings.cache_clear()
    assert start(str(runs[1])) == 0
    with session_scope(session_factory) as s:
        waiting = runs_repo.get_run_any_tenant(s, runs[1])
        assert waiting is not None and waiting.sealed_at is None and waiting.error is None
        assert runs_repo.list_rejections(s, runs[1]) == []
    # a bound one above the backlog: the pre-check passes, but the run's 2 audits would pass it;
    # counted again with them under the admission lock, the run waits (service.backlog)
    from db.backlog import measure

    with session_factory() as s:
        queued = measure(s).queued
    monkeypatch.setenv("MAX_QUEUED_AUDITS", str(queued + 1))
    get_settings.cache_clear()
    assert start(str(runs[1])) == 0
    with session_factory() as s:
        assert measure(s).queued == queued  # nothing stored
    monkeypatch.setenv("MAX_QUEUED_AUDITS", "0")  # the bound off again: the backlog is within it
    get_settings.cache_clear()
    assert start(str(runs[1])) == 2
    with session_scope(session_factory) as s:
        started = runs_repo.get_run_any_tenant(s, runs[1])
        assert started is not None and started.sealed_at is not None
