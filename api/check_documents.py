"""Parts of result documents that come from the method checks (``db.check_models``)."""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy.orm import Session

from db import checks_repository as checks_repo
from db import repository as repo

__all__ = ["correction_document"]


def correction_document(session: Session, audit_id: uuid.UUID, *, tenant_id: str) -> dict[str, Any] | None:
    """The correction of ``tenant_id``'s audit (text, edits = the diff against the response,
    re-audit, result), or None."""
    corr = checks_repo.correction_for(session, audit_id, tenant_id=tenant_id)
    if corr is None:
        return None
    re_audit = None if corr.corrected_audit_id is None else repo.get_audit(session, corr.corrected_audit_id)
    return {
        "corrected_text": corr.corrected_text,
        "diff": corr.edits,
        "corrected_audit_id": None if corr.corrected_audit_id is None else str(corr.corrected_audit_id),
        "status": "done" if re_audit is None else re_audit.status,
        "passes": corr.passes,
        "flagged": corr.passes is False,
        "checked_at": None if corr.checked_at is None else corr.checked_at.isoformat(),
    }
