"""The LLM policy of ``service.llm_policy`` as HTTP answers (the search route's budget check)."""

from __future__ import annotations

from fastapi import HTTPException, status
from sqlalchemy.orm import Session

from service.llm_policy import budget_spent, check_search_model
from service.settings import Settings

__all__ = ["check_search_model", "refuse_when_spent"]


def refuse_when_spent(session: Session, tenant_id: str, settings: Settings) -> None:
    """Raise the 429 (with ``Retry-After``) of ``service.llm_policy.budget_spent`` when the
    tenant's daily token budget is spent."""
    spent = budget_spent(session, tenant_id, settings)
    if spent is not None:
        raise HTTPException(
            status.HTTP_429_TOO_MANY_REQUESTS,
            detail=spent.detail,
            headers={"Retry-After": str(spent.retry_after)},
        )
