"""``/claims/search``: nearest stored claims across history (HNSW)."""

from __future__ import annotations

from typing import Annotated, Any

from celery.exceptions import TimeoutError as CeleryTimeout
from fastapi import APIRouter, HTTPException, Query, status
from fastapi.concurrency import run_in_threadpool

from api.auth import ReadCaller
from api.deps import SessionDep, SettingsDep
from api.documents import poll_url
from api.llm_policy import check_search_model, refuse_when_spent
from api.schemas import ClaimSearchResult
from workers.pipeline import search_claims_remote

router = APIRouter(prefix="/claims", tags=["claims"])


@router.get(
    "/search", response_model=ClaimSearchResult, responses={503: {"description": "No worker answered."}}
)
async def search_claims(
    caller: ReadCaller,
    session: SessionDep,
    settings: SettingsDep,
    q: Annotated[str, Query(min_length=1, max_length=2000, description="Text to look up.")],
    k: Annotated[int, Query(ge=1, le=100)] = 10,
    model: Annotated[str | None, Query(description="Embedding model; default the local model.")] = None,
) -> dict[str, Any]:
    """Nearest stored claims to ``q`` in your tenant's audits (approximate, HNSW), with their audit ids."""
    if not q.strip():
        raise HTTPException(
            status.HTTP_422_UNPROCESSABLE_CONTENT, detail="q: must not be empty or whitespace only"
        )
    try:
        check_search_model(model, settings)
    except ValueError as exc:
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, detail=f"model: {exc}") from None
    if model is not None:
        await run_in_threadpool(refuse_when_spent, session, caller.tenant_id, settings)
    session.close()  # nothing more to read here; the worker queries with the tenant's filter
    try:
        items = await run_in_threadpool(
            search_claims_remote,
            q,
            k,
            model=model,
            tenant_id=caller.tenant_id,
            timeout=settings.search_timeout_s,
        )
    except CeleryTimeout:
        raise HTTPException(
            status.HTTP_503_SERVICE_UNAVAILABLE, detail="no worker answered the search in time"
        ) from None
    except ValueError as exc:
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, detail=f"model: {exc}") from None
    for item in items:
        item["poll_url"] = poll_url(str(item["audit_id"]))
    used = str(items[0]["model"]) if items else model
    return {"query": q, "model": used, "items": items}
