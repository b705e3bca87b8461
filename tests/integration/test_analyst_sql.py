"""The claim store as analysts read it: every SQL block of the README's "The claim store in SQL"
and "Runs in SQL" sections (``tools/readme_sql.py``) run as a SQL login of tenant ``acme``, and
the analyst views' columns and values.

The store: a fresh database (real Postgres + pgvector, migrated) with two tenants, ``acme`` and
``globex``, that both have a suite ``support-bot`` and a run labelled ``r2``; every audit goes
through the real stage services in this process (decompose, embed, match, score) and each run
is finished by ``service.runs.finish_run``, as the workers do. acme's run ``r1`` answers right,
its run ``r2`` gets a year and a temperature wrong (README's own examples: 1989 against 1998,
90 °C against 100 °C), so its claims flip from supported to contradicted. One acme audit is
moved to 00:01 UTC today: in a session whose ``TimeZone`` is ``America/Los_Angeles`` (every query
here runs in one) that is yesterday, so a query that took the session's day would miss it.
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest
import sqlalchemy
from sqlalchemy import text

from db import sql_logins
from db.engine import make_engine, make_session_factory, session_scope
from tests.conftest import alembic_config
from tests.integration.test_stages import run_all
from tools.readme_sql import README, ReadmeQuery, readme_queries

pytestmark = [pytest.mark.services, pytest.mark.slow]

ACME, GLOBEX = "acme", "globex"
BRIDGE = {
    "text": (
        "The Halvorsen Bridge opened to traffic on 12 May 1998. It was designed by the engineer Mara Lind."
    ),
    "id": "kb-17",
    "url": "https://kb.example.com/17",
    "title": "Halvorsen Bridge",
}
WATER = "Water boils at 100 °C at sea level."
DAM = {"text": "The Orrin Dam was completed in 1961.", "title": "Orrin Dam"}
#: (tenant, run label, item id, references, response, metadata), in the order they are made.
_4O, _MINI = "gpt-4o", "gpt-4o-mini"
ITEMS = (
    (ACME, "r1", "q1", [BRIDGE], "The Halvorsen Bridge opened in 1998. It was designed by Mara Lind.",
     {"model": _4O, "prompt_version": "v1"}),
    (ACME, "r1", "q2", [WATER], "Water boils at 100 °C at sea level.",
     {"model": _MINI, "prompt_version": "v1"}),
    (GLOBEX, "r2", "q1", [DAM], "The Orrin Dam was completed in 1965.", {"model": _4O}),
    (ACME, "r2", "q1", [BRIDGE], "The Halvorsen Bridge opened in 1989. It was designed by Mara Lind.",
     {"model": _4O, "prompt_version": "v2"}),
    (ACME, "r2", "q2", [WATER], "Water boils at 90 °C at sea level.",
     {"model": _MINI, "prompt_version": "v2"}),
)  # fmt: skip
NEAREST = "The Halvorsen Bridge opened in 1989."
#: The span of the bridge's reference that the 1989 claim conflicts with (the engine's date).
YEAR = "12 May 1998"


@dataclass
class Store:
    url: str
    factory: Any
    login_url: str
    runs: dict[tuple[str, str], uuid.UUID]
    audits: dict[tuple[str, str, str], uuid.UUID]
    early: uuid.UUID  # the acme audit moved to 00:01 UTC today


def _run(factory: Any, tenant: str, label: str) -> tuple[uuid.UUID, dict[str, uuid.UUID]]:
    from service import runs as run_services

    items = [(i, {"response": r, "references": refs, "metadata": m, "config": {}})
             for t, lab, i, refs, r, m in ITEMS if (t, lab) == (tenant, label)]  # fmt: skip
    with session_scope(factory) as s:
        run, _, results = run_services.submit_items(
            s, suite="support-bot", label=label, source="api", items=items, tenant_id=tenant
        )
        run_id, audits = run.id, {r.item_id: r.audit_id for r in results}
    for audit_id in audits.values():
        run_all(factory, audit_id)
    with session_scope(factory) as s:
        assert run_services.finish_run(s, run_id) is not None
    return run_id, audits


@pytest.fixture(scope="module")
def store(fresh_database: Callable[[str], str]) -> Iterator[Store]:
    from alembic import command

    url = fresh_database("analyst")
    command.upgrade(alembic_config(url), "head")
    engine = make_engine(url)
    factory = make_session_factory(engine)
    runs, audits = {}, {}
    for tenant, label in dict.fromkeys((t, lab) for t, lab, *_ in ITEMS):
        runs[(tenant, label)], made = _run(factory, tenant, label)
        audits.update({(tenant, label, item): a for item, a in made.items()})
    early = audits[(ACME, "r1", "q2")]
    with session_scope(factory) as s:
        s.execute(
            text(
                "UPDATE audits SET created_at = date_trunc('day', now() AT TIME ZONE 'UTC') "
                "AT TIME ZONE 'UTC' + interval '1 minute' WHERE id = :a"
            ),
            {"a": early},
        )
        login, password = sql_logins.create_sql_login(s, tenant_id=ACME, name="readme")
    try:
        yield Store(url, factory, sql_logins.login_url(url, login.role, password), runs, audits, early)
    finally:
        with session_scope(factory) as s:
            sql_logins.revoke_sql_login(s, login.role)
        engine.dispose()


def _rows(store: Store, query: ReadmeQuery, vector: str | None = None) -> list[dict[str, Any]]:
    """The last statement's rows, run as acme's login in a Los Angeles session."""
    with psycopg.connect(store.login_url, autocommit=True, options="-c TimeZone=America/Los_Angeles") as conn:
        cursor = None
        for statement in query.statements(vector):
            cursor = conn.execute(statement)
        assert cursor is not None and cursor.description is not None
        names = [c.name for c in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def _acme_audits(store: Store) -> set[uuid.UUID]:
    return {a for (t, *_), a in store.audits.items() if t == ACME}


def _expected(store: Store, sql: str, **params: Any) -> list[Any]:
    """Rows of ``sql`` as the superuser (no row-level security): the figures to compare with."""
    with store.factory() as s:
        return list(s.execute(text(sql), params).all())


# --------------------------------------------------------------------------- one check per block


def _contradicted_reference_claims(store: Store, rows: list[dict[str, Any]]) -> None:
    expected = _expected(
        store,
        "SELECT rc.text FROM verdicts v JOIN evidence e ON e.verdict_id = v.id AND e.rank = 0 "
        "JOIN claims rc ON rc.id = e.reference_claim_id "
        "WHERE v.verdict = 'contradicted' AND v.tenant_id = :t",
        t=ACME,
    )
    assert Counter(r[0] for r in expected) == Counter(
        {r["reference_claim"]: r["times_contradicted"] for r in rows}
    )
    assert len(rows) == 2 and not any("Orrin" in r["reference_claim"] for r in rows)


def _lowest_precision(store: Store, rows: list[dict[str, Any]]) -> None:
    assert {r["id"] for r in rows} == _acme_audits(store)  # the early one too: today in UTC
    precisions = [r["claim_precision"] for r in rows]
    assert precisions == sorted(precisions) and precisions[0] == 0.0 and precisions[-1] == 1.0


def _least_confident(store: Store, rows: list[dict[str, Any]]) -> None:
    assert rows and {r["audit_id"] for r in rows} <= _acme_audits(store)
    confidences = [r["confidence"] for r in rows]
    assert confidences == sorted(confidences)
    (n,) = _expected(
        store, "SELECT count(*) FROM verdicts WHERE tenant_id = :t AND confidence IS NOT NULL", t=ACME
    )[0]
    assert len(rows) == min(20, n)


def find_contradictions(store: Store, rows: list[dict[str, Any]]) -> None:
    assert {r["audit_id"] for r in rows} == {
        store.audits[(ACME, "r2", "q1")],
        store.audits[(ACME, "r2", "q2")],
    }
    assert {r["conflict_text"] for r in rows} == {YEAR, "100 °C"}, rows
    for r in rows:
        source = BRIDGE["text"] if r["conflict_text"] == YEAR else WATER
        assert source[r["conflict_start"] : r["conflict_end"]] == r["conflict_text"]
        assert r["conflict_text"] in r["evidence_source_text"] and r["claim_start"] < r["claim_end"]


def _daily(store: Store, rows: list[dict[str, Any]]) -> None:
    (today,) = _expected(store, "SELECT (now() AT TIME ZONE 'UTC')::date")[0]
    assert [r["day_utc"] for r in rows] == [today]
    row = rows[0]
    assert (row["audits"], row["done"], row["failed"]) == (4, 4, 0)
    assert (row["supported"], row["contradicted"]) == (4, 2) and row["p95_latency_s"] is not None
    # the session's own day (created_at::date) puts the early audit on another day
    with psycopg.connect(store.login_url, options="-c TimeZone=America/Los_Angeles") as conn:
        local = conn.execute("SELECT created_at::date FROM audits WHERE id = %s", (store.early,)).fetchone()
    assert local is not None and local[0] != today


def _per_model(store: Store, rows: list[dict[str, Any]]) -> None:
    got = {(r["model"], r["prompt_version"]): (r["audits"], r["contradicted"]) for r in rows}
    assert got == {("gpt-4o", "v1"): (1, 0), ("gpt-4o", "v2"): (1, 1), ("gpt-4o-mini", "v1"): (1, 0),
                   ("gpt-4o-mini", "v2"): (1, 1)}  # fmt: skip


def _one_model(store: Store, rows: list[dict[str, Any]]) -> None:
    assert [(r["audit_id"], r["conflict_text"]) for r in rows] == [(store.audits[(ACME, "r2", "q1")], YEAR)]
    assert "1989" in rows[0]["claim_text"]


def _documents(store: Store, rows: list[dict[str, Any]]) -> None:
    assert len(rows) == 2, rows
    bridge = next(r for r in rows if r["reference_title"] == "Halvorsen Bridge")
    assert (bridge["reference_url"], bridge["reference_id"], bridge["audits"]) == (BRIDGE["url"], "kb-17", 2)
    assert bridge["contradicted"] == 1 and bridge["supported"] >= 2
    water = next(r for r in rows if r["reference_title"] is None)  # sent as a string
    assert water["contradicted"] == 1 and water["audits"] == 2


def _nearest(store: Store, rows: list[dict[str, Any]]) -> None:
    (n,) = _expected(store, "SELECT count(*) FROM claims WHERE tenant_id = :t AND role = 'response'", t=ACME)[
        0
    ]
    assert len(rows) == min(10, n) and {r["audit_id"] for r in rows} <= _acme_audits(store)
    assert rows[0]["text"] == NEAREST and rows[0]["verdict"] == "contradicted"
    assert float(rows[0]["similarity"]) > 0.99


def _last_runs(store: Store, rows: list[dict[str, Any]]) -> None:
    assert [(r["label"], r["items"], r["done"]) for r in rows] == [("r2", 2, 2), ("r1", 2, 2)]


def _f1_fell(store: Store, rows: list[dict[str, Any]]) -> None:
    assert [r["item_id"] for r in rows] == ["q2", "q1"]  # 1 → 0, then 1 → 0.5 (one of two claims)
    assert all(r["after"] < r["before"] for r in rows)


def _flips(store: Store, rows: list[dict[str, Any]]) -> None:
    """The same claims as ``runs compare`` reports changed (service.runs.compare_runs)."""
    from db import runs as runs_repo
    from service.runs import compare_runs

    with store.factory() as s:
        new = runs_repo.get_run_any_tenant(s, store.runs[(ACME, "r2")])
        base = runs_repo.get_run_any_tenant(s, store.runs[(ACME, "r1")])
        assert new is not None and base is not None
        changed = compare_runs(s, base, new)["changed_claims"]
    expected = {
        (c["item_id"], c["after"]["text"], c["before"]["text"], c["before"]["verdict"], c["after"]["verdict"])
        for c in changed
    }
    got = {
        (r["item_id"], r["claim_text"], r["previous_claim_text"], r["previous_verdict"], r["verdict"])
        for r in rows
    }
    assert got == expected and len(got) == 2
    assert {(r["previous_verdict"], r["verdict"]) for r in rows} == {("supported", "contradicted")}


def _latest_contradicted(store: Store, rows: list[dict[str, Any]]) -> None:
    assert [(r["item_id"], r["conflict_text"]) for r in rows] == [("q1", YEAR), ("q2", "100 °C")]


#: README block (start of its first comment line) -> its check.
CHECKS: dict[str, Callable[[Store, list[dict[str, Any]]], None]] = {
    "reference claims most often contradicted this week": _contradicted_reference_claims,
    "audits with the lowest precision today": _lowest_precision,
    "least confident verdicts of today's audits": _least_confident,
    "contradictions with the claim's span": find_contradictions,
    "verdict mix and latency per UTC day": _daily,
    "per model and prompt version": _per_model,
    "one model's contradicted claims": _one_model,
    "source documents that most often contradict": _documents,
    "the response claims nearest to": _nearest,
    "the last ten runs of a suite": _last_runs,
    "items whose F1 fell": _f1_fell,
    "claims whose verdict changed": _flips,
    "contradicted claims of the latest run": _latest_contradicted,
}


def _check_of(query: ReadmeQuery) -> Callable[[Store, list[dict[str, Any]]], None]:
    found = [check for start, check in CHECKS.items() if query.name.startswith(start)]
    assert len(found) == 1, f"README block {query.name!r} has {len(found)} checks here: add one"
    return found[0]


def test_every_readme_block_has_a_check() -> None:
    queries = readme_queries()
    assert len(queries) == len(CHECKS) and all(_check_of(q) for q in queries)


@pytest.mark.parametrize("query", readme_queries(), ids=lambda q: q.name[:60])
def test_a_readme_query_as_a_tenant_login(store: Store, query: ReadmeQuery) -> None:
    from pgvector import Vector

    from claims.embed import default_embedder

    vector = Vector(default_embedder().embed([NEAREST])[0]).to_text() if ":'q'" in query.sql else None
    _check_of(query)(store, _rows(store, query, vector))


# --------------------------------------------------------------------------- the views' contract


def _readme_columns(view: str) -> set[str]:
    """The columns the README's table of analyst views lists for ``view``."""
    import re

    readme = README.read_text(encoding="utf-8")
    row = next(line for line in readme.splitlines() if line.startswith(f"| `{view}` |"))
    cell = row.rsplit("|", 2)[1]
    return {name.strip() for quoted in re.findall(r"`([^`]+)`", cell) for name in quoted.split(",")}


@pytest.mark.parametrize("view", ["claim_verdicts", "run_claim_flips", "audits_daily", "reference_verdicts"])
def test_the_views_have_the_documented_columns(store: Store, view: str) -> None:
    engine = sqlalchemy.create_engine(store.url)
    try:
        columns = {c["name"] for c in sqlalchemy.inspect(engine).get_columns(view)}
    finally:
        engine.dispose()
    assert columns == _readme_columns(view)


def test_every_daily_view_names_its_day_day_utc(store: Store) -> None:
    engine = sqlalchemy.create_engine(store.url)
    try:
        insp = sqlalchemy.inspect(engine)
        daily = [v for v in insp.get_view_names() if v.endswith("_daily")]
        assert sorted(daily) == ["audits_daily", "canary_detection_daily", "llm_usage_daily"]
        for view in daily:
            names = {c["name"] for c in insp.get_columns(view)}
            assert "day_utc" in names and "day" not in names, view
    finally:
        engine.dispose()


def test_claim_verdicts_carries_run_metadata_and_spans(store: Store) -> None:
    with psycopg.connect(store.login_url) as conn:
        row = conn.execute(
            "SELECT suite, run_label, item_id, metadata, claim_text, claim_start, claim_end, evidence_start,"
            " evidence_end, evidence_source_text, evidence_reference, conflict_text FROM claim_verdicts"
            " WHERE audit_id = %s AND verdict = 'contradicted'",
            (store.audits[(ACME, "r2", "q1")],),
        ).fetchone()
    assert row is not None
    suite, label, item, metadata, claim, start, end, ev_start, ev_end, ev_source, ev_ref, conflict = row
    assert (suite, label, item, metadata) == (
        "support-bot",
        "r2",
        "q1",
        {"model": "gpt-4o", "prompt_version": "v2"},
    )
    response = dict((i[2], i[4]) for i in ITEMS if i[:2] == (ACME, "r2"))["q1"]
    assert "1989" in response[start:end] and "1989" in claim
    assert ev_ref == 0 and BRIDGE["text"][ev_start:ev_end] == ev_source and conflict == YEAR


def test_a_tenant_login_sees_neither_the_other_tenant_nor_its_suite(store: Store) -> None:
    with psycopg.connect(store.login_url) as conn:
        tenants = conn.execute(
            "SELECT DISTINCT tenant_id FROM claim_verdicts UNION SELECT tenant_id FROM runs"
            " UNION SELECT tenant_id FROM reference_verdicts UNION SELECT tenant_id FROM audits_daily"
        ).fetchall()
    assert tenants == [(ACME,)]
    assert Path(README).exists()
