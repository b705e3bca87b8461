"""``/claims/search``: nearest stored claims across history (HNSW), filtered by role, verdict,
suite, run and audit metadata (``db.claim_search``)."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, status
from fastapi.concurrency import run_in_threadpool

from api.auth import ReadCaller
from api.deps import SessionDep, SettingsDep
from api.documents import poll_url
from api.errors import RETRY_AFTER_S, ErrorBody, problem
from api.llm_policy import check_search_model, refuse_when_spent
from api.schemas import ClaimSearchResult
from claims.types import Role, Verdict
from db.claim_search import SearchFilters
from service.settings import Settings
from service.storable import text_problem
from service.storable import value_problem as json_problem
from workers import port

router = APIRouter(prefix="/claims", tags=["claims"])

_INVALID = status.HTTP_422_UNPROCESSABLE_CONTENT


def _metadata(value: str | None) -> dict[str, Any] | None:
    """The ``metadata`` query parameter: a JSON object (422 naming it otherwise)."""
    if value is None:
        return None
    try:
        parsed = json.loads(value)
    except json.JSONDecodeError:
        parsed = None
    if not isinstance(parsed, dict):
        raise problem(
            _INVALID, 'metadata: must be a JSON object, e.g. {"model": "m"}', loc=["query", "metadata"]
        )
    found = json_problem(parsed)
    if found:
        raise problem(_INVALID, f"metadata: {found}", loc=["query", "metadata"])
    return parsed


def search_filters(
    role: Annotated[Role | None, Query(description="Only claims of this role.")] = None,
    verdict: Annotated[Verdict | None, Query(description="Only response claims with this verdict.")] = None,
    suite: Annotated[
        str | None, Query(max_length=200, description="Only audits of runs of this suite.")
    ] = None,
    run: Annotated[
        str | None, Query(max_length=200, description="Only audits of this run (id or label).")
    ] = None,
    metadata: Annotated[
        str | None,
        Query(
            max_length=2000,
            description='Only audits whose metadata contains this JSON object, e.g. {"model": "m"}.',
        ),
    ] = None,
) -> SearchFilters:
    """The search's filters (``db.claim_search.SearchFilters``) from its query; 422 naming a bad one."""
    for name, value in (("suite", suite), ("run", run)):
        if value is not None and text_problem(value):
            raise problem(_INVALID, f"{name}: {text_problem(value)}", loc=["query", name])
    try:
        return SearchFilters(role=role, verdict=verdict, suite=suite, run=run, metadata=_metadata(metadata))
    except ValueError as exc:
        field = str(exc).split(":", 1)[0]
        raise problem(_INVALID, str(exc), loc=["query", field]) from None


def _check_query(q: str, model: str | None, settings: Settings) -> None:
    """422 for a blank ``q``, text Postgres cannot hold, or a model this deployment cannot use."""
    if not q.strip():
        raise problem(_INVALID, "q: must not be empty or whitespace only", loc=["query", "q"])
    for name, value in (("q", q), ("model", model)):
        if value is not None and text_problem(value):
            raise problem(_INVALID, f"{name}: {text_problem(value)}", loc=["query", name])
    if model is not None and not (settings.openai_base_url or settings.openai_api_key):
        raise problem(
            _INVALID,
            f"model: {model!r} is not available: no LLM endpoint configured "
            "(set OPENAI_BASE_URL / OPENAI_API_KEY); omit model for the local model",
            loc=["query", "model"],
        )
    try:
        check_search_model(model, settings)
    except ValueError as exc:
        raise problem(_INVALID, f"model: {exc}", loc=["query", "model"]) from None


@router.get(
    "/search",
    response_model=ClaimSearchResult,
    responses={503: {"model": ErrorBody, "description": "No worker answered in time, or Redis is down."}},
)
async def search_claims(
    caller: ReadCaller,
    session: SessionDep,
    settings: SettingsDep,
    filters: Annotated[SearchFilters, Depends(search_filters)],
    q: Annotated[str, Query(min_length=1, max_length=2000, description="Text to look up.")],
    k: Annotated[int, Query(ge=1, le=100)] = 10,
    model: Annotated[str | None, Query(description="Embedding model; default the local model.")] = None,
) -> dict[str, Any]:
    """Nearest stored claims to ``q`` in your tenant's audits (approximate, HNSW with pgvector's
    iterative scan, so a filter still yields ``k`` hits where enough exist), each with its
    verdict, run and audit id."""
    _check_query(q, model, settings)
    if model is not None:
        await run_in_threadpool(refuse_when_spent, session, caller.tenant_id, settings)
    session.close()  # nothing more to read here; the worker queries with the tenant's filter
    try:
        items = await run_in_threadpool(
            port.search_claims_remote,
            q,
            k,
            model=model,
            tenant_id=caller.tenant_id,
            filters=filters.to_dict(),
            timeout=settings.search_timeout_s,
        )
    except port.SearchTimeout:
        timed_out = problem(status.HTTP_503_SERVICE_UNAVAILABLE, "no worker answered the search in time")
        timed_out.headers = {"Retry-After": str(RETRY_AFTER_S)}
        raise timed_out from None
    except ValueError as exc:
        raise problem(_INVALID, f"model: {exc}", loc=["query", "model"]) from None
    for item in items:
        item["poll_url"] = poll_url(str(item["audit_id"]))
    used = str(items[0]["model"]) if items else model
    return {"query": q, "model": used, "items": items}
