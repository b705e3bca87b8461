"""The audit store's public functions, by domain (pattern of polarsource/polar's repositories).

Every SQL statement of claimaudit lives in ``db``; this module re-exports the audit store's
functions so that callers write ``repo.create_audit(session, ...)``:

- ``db.audits``: create (idempotent by key), read, list, statuses, done and failed;
- ``db.claim_rows``: documents and claims, embeddings;
- ``db.verdict_rows``: verdicts, evidence and scores;
- ``db.audit_state``: an audit read back as the engine's types;
- ``db.embedding_cache``: the Postgres embedding cache;
- ``db.claim_search``: nearest stored claims across history.

Functions take a ``Session`` and never commit: the caller (an API request or a Celery task)
owns the transaction. Vectors come back as ``float32`` numpy arrays.
"""

from __future__ import annotations

from claims.types import COUNT_NAMES, SCORE_NAMES
from db.audit_state import AuditState, load_audit_state, load_audit_states
from db.audits import (
    REFERENCE_KEYS,
    AuditFilters,
    NewAudit,
    audit_statuses,
    audits_by_status,
    count_rows,
    create_audit,
    find_audit_by_key,
    get_audit,
    get_audits,
    get_tenant_audit,
    is_reference,
    list_audits,
    mark_done,
    mark_failed,
    ping,
    reference_parts,
    score_rows,
)
from db.claim_rows import (
    audit_chars,
    claim_counts,
    get_documents,
    get_documents_of,
    list_claims,
    list_claims_of,
    replace_claims,
    replace_claims_of,
    response_starts,
    set_embeddings,
)
from db.claim_search import search_claims
from db.embedding_cache import PgEmbeddingCache
from db.verdict_rows import (
    NewScore,
    NewVerdict,
    replace_verdicts,
    replace_verdicts_of,
    upsert_scores,
    upsert_scores_of,
)

__all__ = [
    "SCORE_NAMES",
    "COUNT_NAMES",
    "NewAudit",
    "REFERENCE_KEYS",
    "is_reference",
    "reference_parts",
    "NewVerdict",
    "NewScore",
    "AuditState",
    "PgEmbeddingCache",
    "create_audit",
    "get_audit",
    "get_audits",
    "get_tenant_audit",
    "find_audit_by_key",
    "AuditFilters",
    "list_audits",
    "score_rows",
    "audit_statuses",
    "mark_done",
    "mark_failed",
    "get_documents",
    "get_documents_of",
    "audit_chars",
    "claim_counts",
    "replace_claims",
    "replace_claims_of",
    "list_claims",
    "list_claims_of",
    "response_starts",
    "set_embeddings",
    "replace_verdicts",
    "replace_verdicts_of",
    "upsert_scores",
    "upsert_scores_of",
    "load_audit_state",
    "load_audit_states",
    "search_claims",  # db.claim_search, re-exported
    "count_rows",
    "ping",
    "audits_by_status",
]
