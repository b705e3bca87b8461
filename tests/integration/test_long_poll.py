"""``GET /audits/{id}?wait=S`` (a long poll woken by Postgres ``NOTIFY``), the trigger behind it
(migration ``0010_audit_ended_notify``), and what polling a running audit reads (one
indexed read of the audit, no usage or correction queries for an offline audit).

No worker runs here: a POSTed audit stays ``queued``, and the tests end it by hand with the same
UPDATE of ``status`` a worker's last stage makes.
"""

from __future__ import annotations

import re
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient
from psycopg import sql
from sqlalchemy import event, update

from api.routes import audits as audit_routes
from db.audit_events import channel_name, libpq_url
from db.models import Audit

pytestmark = pytest.mark.services

BODY = {"response": "The bridge opened in 1932.", "references": ["The bridge opened to traffic in 1931."]}


def _submit(client: TestClient) -> str:
    resp = client.post("/audits", json=BODY)
    assert resp.status_code == 202, resp.text
    return str(resp.json()["id"])


def _end(session_factory: Any, audit_id: str, status: str = "failed") -> None:
    with session_factory() as s:
        s.execute(
            update(Audit)
            .where(Audit.id == uuid.UUID(audit_id))
            .values(status=status, error="ended by the test" if status == "failed" else None)
        )
        s.commit()


@pytest.fixture
def notifications(database_url: str) -> Iterator[psycopg.Connection[Any]]:
    """A connection listening on the audit-ended channel (its private name, as the API reads it)."""
    with psycopg.connect(libpq_url(database_url), autocommit=True) as conn:
        conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel_name(conn))))
        yield conn


def _payloads(conn: psycopg.Connection[Any], timeout_s: float = 1.0) -> list[str]:
    return [n.payload for n in conn.notifies(timeout=timeout_s)]


# --------------------------------------------------------------------------- the trigger


def test_an_audit_that_ends_is_notified_once_at_commit_and_never_on_rollback(
    client: TestClient, session_factory: Any, notifications: psycopg.Connection[Any]
) -> None:
    ends, rolled_back, moves = _submit(client), _submit(client), _submit(client)
    _payloads(notifications, 0.2)  # nothing else is pending on the channel
    with session_factory() as s:  # a stage moving on is not an end
        s.execute(update(Audit).where(Audit.id == uuid.UUID(moves)).values(status="embedding"))
        s.commit()
    with session_factory() as s:  # an end that rolls back never happened
        s.execute(update(Audit).where(Audit.id == uuid.UUID(rolled_back)).values(status="done"))
        s.rollback()
    _end(session_factory, ends, "done")
    _end(session_factory, ends, "done")  # done again: the status did not change
    assert _payloads(notifications) == [ends]


# --------------------------------------------------------------------------- the long poll


def test_a_long_poll_is_woken_by_the_end_not_by_its_timer(
    client: TestClient, session_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # without the notification, the poll would read again only after 60 s or at the end of its 20 s
    monkeypatch.setattr(audit_routes, "WAIT_RECHECK_S", 60.0)
    monkeypatch.setattr(audit_routes, "WAIT_RECHECK_UNLISTENED_S", 60.0)
    assert client.app.state.audit_listener.connected.wait(10)  # type: ignore[attr-defined]
    audit_id = _submit(client)
    ender = threading.Timer(0.5, _end, args=(session_factory, audit_id))
    started = time.monotonic()
    ender.start()
    try:
        resp = client.get(f"/audits/{audit_id}", params={"wait": 20})
    finally:
        ender.join()
    elapsed = time.monotonic() - started
    assert resp.status_code == 200, resp.text
    assert resp.json()["status"] == "failed"
    assert elapsed < 10, f"the long poll came back after {elapsed:.1f} s: the end did not wake it"


def test_a_long_poll_answers_the_current_status_when_its_time_is_up(client: TestClient) -> None:
    audit_id = _submit(client)
    resp = client.get(f"/audits/{audit_id}", params={"wait": 0.3})
    assert resp.status_code == 200
    assert resp.json()["status"] == "queued"


def test_a_long_poll_of_an_ended_audit_answers_at_once(client: TestClient, session_factory: Any) -> None:
    audit_id = _submit(client)
    _end(session_factory, audit_id)
    started = time.monotonic()
    resp = client.get(f"/audits/{audit_id}", params={"wait": 30})
    assert resp.json()["status"] == "failed"
    assert time.monotonic() - started < 15  # not held for the 30 s


@pytest.mark.parametrize("wait", ["-1", "30.5", "nan", "soon"])
def test_a_wait_outside_0_to_30_seconds_is_422(client: TestClient, wait: str) -> None:
    audit_id = _submit(client)
    resp = client.get(f"/audits/{audit_id}", params={"wait": wait})
    assert resp.status_code == 422, resp.text
    assert resp.json()["detail"][0]["loc"] == ["query", "wait"]


def test_a_long_poll_of_an_unknown_audit_is_404(client: TestClient) -> None:
    resp = client.get(f"/audits/{uuid.uuid4()}", params={"wait": 30})
    assert resp.status_code == 404


# --------------------------------------------------------------------------- what a poll reads


def _statements(client: TestClient, path: str) -> list[str]:
    engine = client.app.state.engine  # type: ignore[attr-defined]
    seen: list[str] = []

    def record(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        seen.append(" ".join(statement.split()))

    event.listen(engine, "before_cursor_execute", record)
    try:
        assert client.get(path).status_code == 200
    finally:
        event.remove(engine, "before_cursor_execute", record)
    return seen


def test_polling_a_running_offline_audit_reads_its_row_and_nothing_else(
    client: TestClient, session_factory: Any
) -> None:
    audit_id = _submit(client)
    client.get(f"/audits/{audit_id}")  # the key's last_used_at write (once a minute) is behind us
    running = _statements(client, f"/audits/{audit_id}")
    from_audits = [s for s in running if " FROM audits " in f"{s} "]
    assert len(from_audits) == 1, running
    assert not [s for s in running if "llm_usage" in s or "corrections" in s], running
    _end(session_factory, audit_id)
    ended = _statements(client, f"/audits/{audit_id}")
    assert [s for s in ended if "llm_usage" in s], ended  # an ended audit shows its usage
    assert [s for s in ended if "corrections" in s], ended  # and its correction, if any


def _run_stages_here(session_factory: Any, audit_id: str) -> None:
    """The four stage services in this process, then ``done`` (what the workers do, without them)."""
    from db import repository as repo
    from db.engine import session_scope
    from workers import services

    aid = uuid.UUID(audit_id)
    for stage in (
        services.decompose_audit,
        services.embed_audit,
        services.match_audit,
        services.score_audit_stage,
    ):
        with session_scope(session_factory) as s:
            stage(s, aid)
    with session_scope(session_factory) as s:
        repo.mark_done(s, aid)


def _side_statements(statements: list[str]) -> list[str]:
    return [s for s in statements if re.search(r"\b(llm_usage|llm_judgements|corrections)\b", s)]


def test_a_done_audit_no_llm_touched_reads_one_side_query_and_the_same_usage(
    client: TestClient, session_factory: Any
) -> None:
    """A done audit with no LLM usage, judgement or correction row: one query says so
    (``llm_repository.side_rows``), and its usage is what the LLM tables' own queries give; once
    such rows exist, they are read and shown."""
    from db import checks_repository, llm_repository

    audit_id = _submit(client)
    _run_stages_here(session_factory, audit_id)
    aid = uuid.UUID(audit_id)
    side = _side_statements(_statements(client, f"/audits/{audit_id}"))
    assert len(side) == 1 and "UNION ALL" in side[0], side
    doc = client.get(f"/audits/{audit_id}").json()
    with session_factory() as s:
        stored = llm_repository.usage_for_audits(s, [aid])[aid]
    assert doc["usage"] == stored
    assert doc["usage"]["llm_judged_share"] == 0.0  # BODY's response claim is judgeable
    assert "correction" not in doc

    with session_factory() as s:
        llm_repository.record_usage(s, audit_id=aid, stage="judge", model="m", calls=1, prompt_tokens=7)
        checks_repository.add_correction(
            s, aid, corrected_audit_id=None, corrected_text="The bridge opened in 1931.", edits=[]
        )
        s.commit()
    assert len(_side_statements(_statements(client, f"/audits/{audit_id}"))) > 1
    doc = client.get(f"/audits/{audit_id}").json()
    assert (doc["usage"]["llm_calls"], doc["usage"]["prompt_tokens"]) == (1, 7)
    assert doc["correction"]["corrected_text"] == "The bridge opened in 1931."


def test_an_ended_audit_shows_the_usage_its_workers_recorded_whatever_this_process_settings(
    client: TestClient, session_factory: Any
) -> None:
    """The API cannot know which components the workers used (their settings may differ): an
    ended audit's usage is read from ``llm_usage`` even when its config calls no LLM here."""
    from db import llm_repository

    audit_id = _submit(client)
    with session_factory() as s:
        llm_repository.record_usage(
            s, audit_id=uuid.UUID(audit_id), stage="judge", model="m", calls=2, prompt_tokens=900
        )
        s.commit()
    running = client.get(f"/audits/{audit_id}").json()["usage"]
    assert running["llm_calls"] == 0  # running offline (here): not read, zeros until it ends
    _end(session_factory, audit_id)
    ended = client.get(f"/audits/{audit_id}").json()["usage"]
    assert (ended["llm_calls"], ended["prompt_tokens"]) == (2, 900)


def test_a_listener_stopped_and_started_again_listens(database_url: str) -> None:
    from db.audit_events import AuditEndListener

    listener = AuditEndListener(database_url, poll_s=0.5)
    listener.start()
    assert listener.connected.wait(10)
    listener.stop()
    listener.start()  # at once, while the old thread may still be in its last wait
    try:
        assert listener.connected.wait(10)
        assert listener._thread is not None and listener._thread.is_alive()
    finally:
        listener.stop(timeout_s=5)
