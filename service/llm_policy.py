"""What LLM work a caller may ask for: allowed model names, a configured endpoint, the tenant's
daily token budget.

- A model name in an audit's ``config`` (``llm_model``, ``embedding_model``) or in a search
  (``model``) must be in ``ALLOWED_LLM_MODELS`` / ``ALLOWED_EMBEDDING_MODELS`` (the configured
  ``LLM_MODEL`` / ``OPENAI_EMBEDDING_MODEL`` always are); anything else is a 422, so a caller
  cannot make the server spend the operator's key on a model of its choosing.
- A search with an embedding model needs the deployment's endpoint (``OPENAI_BASE_URL`` or
  ``OPENAI_API_KEY``): without one it is a 422 and nothing is sent anywhere.
- Once a tenant's LLM tokens of the current UTC day (``llm_usage``, prompt + completion) reach its
  budget (``tenants.daily_token_budget``, else ``DAILY_TOKEN_BUDGET``; none: unlimited), new LLM
  work (an audit whose resolved components use the LLM, a search with an embedding model) is
  refused (the API answers 429 with ``Retry-After``) until midnight UTC. Audits already accepted
  finish.

Free of FastAPI: the admission path (``service.admission``) and the scheduled runs use it too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.orm import Session

from db import auth_repository as keys_repo
from service.llm_config import resolve_llm_config
from service.settings import Settings

__all__ = [
    "BudgetSpent",
    "check_models",
    "check_search_model",
    "uses_llm",
    "budget_spent",
]


@dataclass(frozen=True, slots=True)
class BudgetSpent:
    """The tenant's daily token budget is spent: the message and seconds until midnight UTC."""

    detail: str
    retry_after: int


def check_models(config: Mapping[str, Any], settings: Settings) -> None:
    """Raise ``ValueError`` naming the key when ``config`` names a model the deployment does not allow."""
    for key, allowed, setting in (
        ("llm_model", settings.llm_models, "ALLOWED_LLM_MODELS"),
        ("embedding_model", settings.embedding_models, "ALLOWED_EMBEDDING_MODELS"),
    ):
        value = config.get(key)
        if value is not None and value not in allowed:
            raise ValueError(
                f"config.{key}: {value!r} is not an allowed model (allowed: {', '.join(sorted(allowed))}; "
                f"server setting {setting})"
            )


def check_search_model(model: str | None, settings: Settings) -> None:
    """Raise ``ValueError`` when a search names a model that is not allowed, or any embedding
    model while no LLM endpoint is configured (``None``: the local model, always fine)."""
    if model is None:
        return
    allowed = settings.embedding_models
    if model not in allowed:
        raise ValueError(
            f"{model!r} is not an allowed embedding model (allowed: {', '.join(sorted(allowed))}; "
            "server setting ALLOWED_EMBEDDING_MODELS)"
        )
    if not (settings.openai_base_url or settings.openai_api_key):
        raise ValueError(
            f"{model!r} needs an LLM endpoint, but no LLM endpoint configured "
            "(set OPENAI_BASE_URL / OPENAI_API_KEY)"
        )


def uses_llm(config: Mapping[str, Any], settings: Settings) -> bool:
    """True when an audit with ``config`` would call the LLM endpoint (the deployment's defaults
    ``DECOMPOSER``/``JUDGE``/``EMBEDDER`` included)."""
    try:
        return resolve_llm_config(config, settings).uses_llm
    except ValueError:
        return False  # an invalid config is refused by validation, not here


def budget_spent(
    session: Session, tenant_id: str, settings: Settings, *, now: datetime | None = None
) -> BudgetSpent | None:
    """``BudgetSpent`` when the tenant's tokens of today (UTC) reached its budget, else None."""
    budget = keys_repo.tenant_budget(session, tenant_id)
    if budget is None:
        budget = settings.daily_token_budget
    if budget is None:
        return None
    used = keys_repo.tokens_today(session, tenant_id)
    if used < budget:
        return None
    now = now or datetime.now(UTC)
    midnight = (now + timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0)
    return BudgetSpent(
        detail=(
            f"daily LLM token budget of tenant {tenant_id!r} is spent ({used} of {budget} tokens used today, "
            "UTC); new LLM work is refused until midnight UTC (offline audits are still accepted)"
        ),
        retry_after=max(1, int((midnight - now).total_seconds())),
    )
