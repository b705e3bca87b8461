"""Verdict confidence: ``verdicts.confidence`` (calibrated probability, nullable) and the
``claim_verdicts`` view with it.

Revision ID: 0003_confidence
Revises: 0002_llm
Create Date: 2026-11-30 06:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003_confidence"
down_revision: str | None = "0002_llm"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_VIEW_HEAD = """
CREATE VIEW claim_verdicts AS
SELECT
    a.id               AS audit_id,
    a.created_at       AS audit_created_at,
    a.status           AS audit_status,
    c.id               AS claim_id,
    c.position         AS claim_position,
    c.text             AS claim_text,
    c.kind             AS claim_kind,
    v.verdict,
    v.reason,
    v.change,
"""
_VIEW_TAIL = """
    rc.id              AS evidence_claim_id,
    rd.position        AS evidence_reference,
    rc.text            AS evidence_text,
    rc.char_start      AS evidence_start,
    rc.char_end        AS evidence_end,
    ev.similarity      AS evidence_similarity
FROM verdicts v
JOIN claims c  ON c.id = v.claim_id
JOIN audits a  ON a.id = v.audit_id
LEFT JOIN evidence ev ON ev.verdict_id = v.id AND ev.rank = 0
LEFT JOIN claims rc   ON rc.id = ev.reference_claim_id
LEFT JOIN documents rd ON rd.id = rc.document_id
"""
#: The view of 0001_initial with ``v.confidence`` after ``v.change``.
CLAIM_VERDICTS_VIEW = _VIEW_HEAD + "    v.confidence," + _VIEW_TAIL
#: The view as 0001_initial created it (restored by the downgrade).
CLAIM_VERDICTS_VIEW_0001 = _VIEW_HEAD.rstrip() + _VIEW_TAIL


def upgrade() -> None:
    op.add_column("verdicts", sa.Column("confidence", sa.Float(), nullable=True))
    op.create_check_constraint(
        op.f("ck_verdicts_confidence"), "verdicts", "confidence >= 0 AND confidence <= 1"
    )
    op.execute("DROP VIEW IF EXISTS claim_verdicts")
    op.execute(CLAIM_VERDICTS_VIEW)


def downgrade() -> None:
    op.execute("DROP VIEW IF EXISTS claim_verdicts")
    op.execute(CLAIM_VERDICTS_VIEW_0001)
    op.drop_constraint(op.f("ck_verdicts_confidence"), "verdicts", type_="check")
    op.drop_column("verdicts", "confidence")
