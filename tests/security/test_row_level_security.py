"""The database backstop: ``tenant_id`` copied from the audit into every row of it, and row-level
security that hides other tenants' rows (views included) from a session bound to a tenant.

Row-level security does not apply to superusers (the local stack connects as one), so these
tests run their queries as a plain member of ``claimaudit_service`` (``SET ROLE``), as a
production API should connect. Roles outside it: ``test_sql_logins``.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
import sqlalchemy
from sqlalchemy.orm import Session

from db import repository as repo
from db.tenancy import SERVICE_ROLE, bind_tenant

pytestmark = pytest.mark.services

ROLE = "claimaudit_rls_probe"
TABLES = (
    "audits", "documents", "claims", "verdicts", "evidence", "scores", "llm_usage", "llm_judgements",
    # the method checks (0008_method_checks; db.check_models.CHECK_TABLES)
    "canaries", "second_audits", "second_audit_claims", "corrections", "claim_labels",
)  # fmt: skip
#: How a table's rows of one audit are found (default ``audit_id = :a``).
AUDIT_ROWS = {
    "audits": "id = :a",
    "second_audit_claims": "second_audit_row_id IN (SELECT id FROM second_audits WHERE audit_id = :a)",
}
#: Tables of the policy without the trigger (their tenant is set by the code): the keys and the
#: runs tables (0009_runs_row_security; db.run_models.RUN_TABLES).
POLICY_ONLY = ("api_keys", "suites", "runs", "run_items", "webhook_deliveries")
VIEWS = (
    "claim_verdicts", "audit_scores", "llm_usage_daily",
    "canary_results", "canary_detection", "canary_detection_daily", "label_agreement",
    "run_audits", "run_summaries",
)  # fmt: skip


@pytest.fixture(scope="module")
def probe_role(engine: Any) -> str:
    with engine.begin() as conn:
        exists = conn.execute(
            sqlalchemy.text("SELECT 1 FROM pg_roles WHERE rolname = :r"), {"r": ROLE}
        ).first()
        if not exists:
            conn.execute(sqlalchemy.text(f"CREATE ROLE {ROLE} NOLOGIN NOSUPERUSER NOBYPASSRLS"))
        # a deployment role (API, workers): the setting binds it; unbound it sees every tenant
        conn.execute(sqlalchemy.text(f"GRANT {SERVICE_ROLE} TO {ROLE}"))
        conn.execute(
            sqlalchemy.text(f"GRANT SELECT, INSERT, UPDATE ON ALL TABLES IN SCHEMA public TO {ROLE}")
        )
        conn.execute(sqlalchemy.text(f"GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO {ROLE}"))
    return ROLE


def _audit_with_rows(session: Session, tenant: str) -> uuid.UUID:
    """An audit of ``tenant`` with a document, two claims, a verdict with evidence, a score and
    a usage row: every table with tenant data gets a row (inserted without naming the tenant)."""
    from db.llm_repository import record_usage, replace_llm_judgements

    audit, _ = repo.create_audit(
        session, repo.NewAudit(response="r", references=["x"], request_sha256="0" * 64, tenant_id=tenant)
    )
    docs = repo.get_documents(session, audit.id)
    repo.replace_claims(
        session,
        audit.id,
        [
            {
                "document_id": d.id,
                "role": d.role,
                "position": 0,
                "text": f"{tenant} {d.role}",
                "char_start": 0,
                "char_end": 1,
                "kind": "material",
                "duplicates": 0,
                "ambiguous": False,
            }
            for d in docs
        ],  # fmt: skip
    )
    claims = repo.list_claims(session, audit.id)
    repo.set_embeddings(session, [c.id for c in claims], np.ones((2, 3), np.float32), model="m", dim=3)
    repo.replace_verdicts(
        session, audit.id, [repo.NewVerdict(claims[0].id, "supported", "", None, ((claims[1].id, 0.9),))]
    )
    session.execute(
        sqlalchemy.text(
            "INSERT INTO scores (audit_id, response_claims, reference_claims, supported, inferred,"
            " contradicted, qualification_dropped, unsupported, outside_scope, threshold, embedding_model)"
            " VALUES (:a, 1, 1, 1, 0, 0, 0, 0, 0, 0.65, 'm')"
        ),
        {"a": audit.id},
    )
    record_usage(session, audit_id=audit.id, stage="judge", model="m", calls=1, prompt_tokens=7)
    replace_llm_judgements(
        session, audit.id,
        [{"response_index": 0, "rule_verdict": "supported", "judge_verdict": "supported",
          "judge_reason": "", "final_verdict": "supported", "model": "m"}],
    )  # fmt: skip
    _check_rows(session, audit.id)
    return audit.id


def _check_rows(session: Session, audit_id: uuid.UUID) -> None:
    """A row in every table of the method checks (the audit stands in for its own canary, second
    audit and corrected re-audit), none naming its tenant."""
    a = {"a": audit_id}
    for sql in (
        "INSERT INTO canaries (audit_id, canary_audit_id, kind, expected, original, change, reference,"
        " fault_start, fault_end, seed) VALUES (:a, :a, 'number', 'contradicted', 'x', 'x', 0, 0, 1, 0)",
        "INSERT INTO second_audits (audit_id, second_audit_id, config, reason)"
        " VALUES (:a, :a, '{}', 'request')",
        "INSERT INTO second_audit_claims (second_audit_row_id, claim_position, claim_type, claim_text,"
        " verdict, agrees) SELECT id, 0, 'other', 'x', 'supported', true FROM second_audits"
        " WHERE audit_id = :a",
        "INSERT INTO corrections (audit_id, corrected_audit_id, corrected_text) VALUES (:a, :a, 'x')",
        "INSERT INTO claim_labels (audit_id, claim_position, label) VALUES (:a, 0, 'supported')",
    ):
        session.execute(sqlalchemy.text(sql), a)


def _run_rows(session: Session, audit_id: uuid.UUID, tenant: str) -> None:
    """A suite, a run with the audit as its item, and a webhook delivery of ``tenant``."""
    values = {"a": audit_id, "t": tenant, "r": uuid.uuid4()}
    for sql in (
        "INSERT INTO suites (id, tenant_id, name) VALUES (gen_random_uuid(), :t, 'nightly')",
        "INSERT INTO runs (id, tenant_id, suite, label, source) VALUES (:r, :t, 'nightly', 'l1', '')",
        "INSERT INTO run_items (run_id, item_id, tenant_id, audit_id, request_sha256, position)"
        " VALUES (:r, 'i1', :t, :a, repeat('0', 64), 0)",
        "INSERT INTO webhook_deliveries (tenant_id, run_id, event, url, payload)"
        " VALUES (:t, :r, 'run.finished', 'http://127.0.0.1:9/hook', '{}')",
    ):
        session.execute(sqlalchemy.text(sql), values)


@pytest.fixture(scope="module")
def two_audits(session_factory: Any) -> Iterator[dict[str, uuid.UUID]]:
    from db import auth_repository as keys_repo

    tenants = {f"rls-a-{uuid.uuid4().hex[:6]}": None, f"rls-b-{uuid.uuid4().hex[:6]}": None}
    with session_factory() as session:
        made = {t: _audit_with_rows(session, t) for t in tenants}
        for t, audit_id in made.items():
            _run_rows(session, audit_id, t)
        for t in tenants:
            keys_repo.create_api_key(session, tenant_id=t, scopes=["audits:read"])
        session.commit()
    yield made


def test_every_row_of_an_audit_carries_its_tenant(
    session_factory: Any, two_audits: dict[str, uuid.UUID]
) -> None:
    with session_factory() as session:
        for tenant, audit_id in two_audits.items():
            for table in TABLES:
                where = AUDIT_ROWS.get(table, "audit_id = :a")
                tenants = session.scalars(
                    sqlalchemy.text(f"SELECT DISTINCT tenant_id FROM {table} WHERE {where}"),
                    {"a": audit_id},
                ).all()
                assert tenants == [tenant], table


def _visible(session: Session, relation: str, tenants: list[str]) -> set[str]:
    rows = session.scalars(
        sqlalchemy.text(f"SELECT DISTINCT tenant_id FROM {relation} WHERE tenant_id = ANY(:t)"),
        {"t": tenants},
    ).all()
    return set(rows)


@pytest.mark.parametrize("relation", TABLES + POLICY_ONLY + VIEWS)
def test_a_bound_session_sees_only_its_tenant(
    session_factory: Any, probe_role: str, two_audits: dict[str, uuid.UUID], relation: str
) -> None:
    a, b = list(two_audits)
    with session_factory() as session:
        session.execute(sqlalchemy.text(f"SET LOCAL ROLE {probe_role}"))
        assert _visible(session, relation, [a, b]) == {a, b}  # unbound (workers): every row
        bind_tenant(session, a)
        assert _visible(session, relation, [a, b]) == {a}
        session.commit()  # a new transaction of the same session stays bound
        session.execute(sqlalchemy.text(f"SET LOCAL ROLE {probe_role}"))
        assert _visible(session, relation, [a, b]) == {a}
        session.rollback()


def test_a_bound_session_cannot_write_another_tenants_rows(
    session_factory: Any, probe_role: str, two_audits: dict[str, uuid.UUID]
) -> None:
    a, b = list(two_audits)
    with session_factory() as session:
        session.execute(sqlalchemy.text(f"SET LOCAL ROLE {probe_role}"))
        bind_tenant(session, a)
        changed = session.execute(
            sqlalchemy.text("UPDATE audits SET question = 'mine' WHERE id = :b"), {"b": two_audits[b]}
        ).rowcount
        assert changed == 0
        with pytest.raises(sqlalchemy.exc.ProgrammingError, match="row-level security"):
            session.execute(
                sqlalchemy.text(
                    "INSERT INTO audits (id, tenant_id, request_sha256) VALUES (:i, :t, repeat('0', 64))"
                ),
                {"i": uuid.uuid4(), "t": b},
            )
        session.rollback()


def test_a_bound_session_cannot_label_another_tenants_audit(
    session_factory: Any, probe_role: str, two_audits: dict[str, uuid.UUID]
) -> None:
    """B's audit is invisible to A, so the trigger of 0008_method_checks refuses the label (it
    never stores a row of A pointing at B's audit), even one naming A as its tenant."""
    a, b = list(two_audits)
    with session_factory() as session:
        session.execute(sqlalchemy.text(f"SET LOCAL ROLE {probe_role}"))
        bind_tenant(session, a)
        with pytest.raises(sqlalchemy.exc.ProgrammingError, match="row-level security"):
            session.execute(
                sqlalchemy.text(
                    "INSERT INTO claim_labels (audit_id, claim_position, label, reviewer, tenant_id)"
                    " VALUES (:b, 0, 'contradicted', 'intruder', :t)"
                ),
                {"b": two_audits[b], "t": a},
            )
        session.rollback()
