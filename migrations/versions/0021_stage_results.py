"""The match stage stores what the score stage reads of the cosine matrix, beside each verdict.

Two nullable columns on ``verdicts`` (``claims.score.MatchSummary``): ``best_similarity``, the
response claim's best cosine over the audit's material reference claims (NULL when the audit
has none), and ``substitute_claim_id``, the reference claim (``claims.id``) the edit script
pairs a contradicted / qualification_dropped claim with (NULL otherwise). The score stage then
reads them instead of computing the matrix again from the stored vectors. No foreign key: the
verdict is replaced with its audit's claims, and an unindexed key would make every claim
delete scan ``verdicts``. Rows written before this revision have both NULL: the score stage
computes the matrix for such an audit (its match ran before the upgrade).

Revision ID: 0021_stage_results
Revises: 0020_sql_login_timeout
Create Date: 2026-12-05 18:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0021_stage_results"
down_revision: str | None = "0020_sql_login_timeout"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("verdicts", sa.Column("best_similarity", sa.Float(), nullable=True))
    op.add_column("verdicts", sa.Column("substitute_claim_id", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    op.drop_column("verdicts", "substitute_claim_id")
    op.drop_column("verdicts", "best_similarity")
