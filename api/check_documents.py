"""Parts of result documents that come from the method checks (``db.check_models``)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from sqlalchemy.orm import Session

from db import checks_repository as checks_repo
from db import repository as repo

__all__ = ["correction_document", "correction_documents"]


def correction_document(session: Session, audit_id: uuid.UUID, *, tenant_id: str) -> dict[str, Any] | None:
    """The correction of ``tenant_id``'s audit (text, edits = the diff against the response,
    re-audit, result), or None."""
    return correction_documents(session, [audit_id], tenant_id=tenant_id).get(audit_id)


def correction_documents(
    session: Session, audit_ids: Sequence[uuid.UUID], *, tenant_id: str
) -> dict[uuid.UUID, dict[str, Any]]:
    """:func:`correction_document` of each of ``audit_ids`` that has a correction (two queries)."""
    corrections = checks_repo.corrections_for(session, audit_ids, tenant_id=tenant_id)
    re_audits = repo.get_audits(
        session, [c.corrected_audit_id for c in corrections.values() if c.corrected_audit_id]
    )
    status = {a.id: a.status for a in re_audits}
    return {
        audit_id: {
            "corrected_text": corr.corrected_text,
            "diff": corr.edits,
            "corrected_audit_id": None if corr.corrected_audit_id is None else str(corr.corrected_audit_id),
            "status": status.get(corr.corrected_audit_id, "done") if corr.corrected_audit_id else "done",
            "passes": corr.passes,
            "flagged": corr.passes is False,
            "checked_at": None if corr.checked_at is None else corr.checked_at.isoformat(),
        }
        for audit_id, corr in corrections.items()
    }
