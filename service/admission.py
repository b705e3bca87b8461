"""The one admission path: every way an audit enters goes through :func:`admit`.

Entry points: ``POST /audits``, ``POST /audits/batch``, ``POST /runs``, ``PUT /suites/{name}``
(its config, before any run), a scheduled run (``runs.start``) and the method checks
(``POST /audits/{id}/canaries``, ``/second-audit``, ``/correction``). Each hands over the
audit bodies it would store (``response``, ``references``, ``question``, ``metadata``,
``config``; a field left out is not checked) and the names it would store with them (suite,
run label, source, run item ids, idempotency key), and stores nothing unless ``admit`` lets
the audit through.

Checks, in this order (the first that fails decides):

1. Text (whole request): every name is storable text: no NUL character, no lone surrogate, at
   most its length (``Name.limit``) → 422.
2. Per audit (the audit is refused, the others go on): every string in the body, at any depth,
   is storable text and every number finite (422); the response and each reference at most
   ``MAX_TEXT_CHARS``, at most ``MAX_REFERENCES`` references, at most ``MAX_TOTAL_CHARS`` in all
   (413); ``config`` names only allowed models (``ALLOWED_LLM_MODELS`` /
   ``ALLOWED_EMBEDDING_MODELS``) and picks an LLM component only where an LLM endpoint is
   configured (422); an audit that would use the LLM is refused while the tenant's daily token
   budget is spent (429 until midnight UTC).
3. Whole request: the extra ``checks`` the caller plugs in (each a callable of the submitter and
   the number of audits admitted so far, returning a ``Refusal`` or None), then the audits per
   minute of the API key and of the tenant (``service.rate_limits``; 413 when one request holds
   more audits than a whole minute's limit, 429 with ``retry_after`` otherwise). Counted last, so
   a request refused for any other reason uses up none of the limit.

Free of FastAPI: the API turns a ``Refusal`` into its HTTP answer (``api.errors.refusal``); a
worker into the run's error.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy.orm import Session

from service.llm_policy import budget_spent, check_models, uses_llm
from service.rate_limits import Refused as RateRefused
from service.settings import Settings
from service.storable import shown, text_problem, value_problem

__all__ = [
    "Refusal",
    "Refused",
    "Submitter",
    "Name",
    "Check",
    "LLM_CHOICES",
    "admit",
    "admit_one",
    "NAME_CHARS",
    "ITEM_ID_CHARS",
]

#: Longest suite name or run label, in characters.
NAME_CHARS = 200
#: Longest run item id, source or idempotency key, in characters.
ITEM_ID_CHARS = 500

#: Per-audit config values that need the OpenAI-compatible endpoint.
LLM_CHOICES: dict[str, tuple[str, ...]] = {
    "decomposer": ("llm",),
    "judge": ("llm", "auto"),
    "embedder": ("openai",),
}


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why something is not admitted: an HTTP-like ``status`` (413, 422, 429, or 503 from a
    deployment-wide check such as the backlog bound), the message (names the field and the server
    setting), where (``loc``, e.g. ``("body", "items", 3, "id")``), for a 429 or 503 the seconds
    until a retry can pass, and the ``reason`` a refusal is counted under
    (``claimaudit_admission_refusals_total{reason}``; None: not counted)."""

    status: int
    detail: str
    loc: tuple[str | int, ...] = ()
    retry_after: int | None = None
    reason: str | None = None


class Refused(Exception):
    """The whole request is refused (nothing may be stored): ``refusal`` says why."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.detail)
        self.refusal = refusal


@dataclass(frozen=True, slots=True)
class Submitter:
    """Who submits: the tenant, the API key's limit key (None for scheduled work) and that key's
    audits per minute (0: unlimited)."""

    tenant_id: str
    key: str | None = None
    audits_per_minute: int = 0


@dataclass(frozen=True, slots=True)
class Name:
    """A string stored with the audits (suite, label, item id, ...): ``loc`` names it in errors."""

    loc: tuple[str | int, ...]
    value: str
    limit: int = ITEM_ID_CHARS


class AuditCounter(Protocol):
    """What counts audits per key and per tenant (``service.rate_limits.RateLimiter``)."""

    def audits(
        self,
        key: str | None,
        per_minute: int,
        count: int,
        *,
        tenant: str | None = ...,
        tenant_per_minute: int = ...,
    ) -> RateRefused | None: ...


#: An extra whole-request check: ``(submitter, audits admitted) -> Refusal | None``.
Check = Callable[[Submitter, int], "Refusal | None"]


def _check_names(names: Sequence[Name]) -> None:
    for name in names:
        label = ".".join(str(p) for p in name.loc[1:] or name.loc) or "value"
        problem = text_problem(name.value)
        if problem is None and len(name.value) > name.limit:
            problem = f"{len(name.value)} characters, over the limit of {name.limit}"
        if problem is not None:
            raise Refused(Refusal(422, f"{shown(label)}: {problem}", name.loc))


def _reference_text(reference: Any) -> str:
    if isinstance(reference, Mapping):
        return str(reference.get("text") or "")
    return str(reference)


def _size(body: Mapping[str, Any], settings: Settings) -> Refusal | None:
    """413 naming the field and the setting when a text, the reference count or the total is over."""
    limit = settings.max_text_chars
    response = str(body.get("response") or "")
    if len(response) > limit:
        return Refusal(
            413,
            f"response: {len(response)} characters, over the limit of {limit} "
            "(server setting MAX_TEXT_CHARS)",
            ("body", "response"),
        )
    texts = [_reference_text(r) for r in body.get("references") or ()]
    for i, ref in enumerate(texts):
        if len(ref) > limit:
            return Refusal(
                413,
                f"references[{i}]: {len(ref)} characters, over the limit of {limit} "
                "(server setting MAX_TEXT_CHARS)",
                ("body", "references", i),
            )
    if len(texts) > settings.max_references:
        return Refusal(
            413,
            f"references: {len(texts)} references, over the limit of {settings.max_references} "
            "(server setting MAX_REFERENCES)",
            ("body", "references"),
        )
    total = len(response) + sum(len(r) for r in texts)
    if total > settings.max_total_chars:
        return Refusal(
            413,
            f"response and references: {total} characters in total, over the limit of "
            f"{settings.max_total_chars} (server setting MAX_TOTAL_CHARS)",
            ("body",),
        )
    return _question_and_metadata_size(body, settings)


def _question_and_metadata_size(body: Mapping[str, Any], settings: Settings) -> Refusal | None:
    """413 when the question is longer than ``MAX_QUESTION_CHARS`` characters or the metadata's
    JSON (UTF-8) larger than ``MAX_METADATA_BYTES`` bytes: both are stored with the audit and
    shown in every listing."""
    question = body.get("question")
    if isinstance(question, str) and len(question) > settings.max_question_chars:
        return Refusal(
            413,
            f"question: {len(question)} characters, over the limit of {settings.max_question_chars} "
            "(server setting MAX_QUESTION_CHARS)",
            ("body", "question"),
        )
    metadata = body.get("metadata")
    if metadata is not None:
        size = len(json.dumps(metadata, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "replace"))
        if size > settings.max_metadata_bytes:
            return Refusal(
                413,
                f"metadata: {size} bytes of JSON, over the limit of {settings.max_metadata_bytes} "
                "(server setting MAX_METADATA_BYTES)",
                ("body", "metadata"),
            )
    return None


def _config(config: Mapping[str, Any], settings: Settings) -> Refusal | None:
    """422 when ``config`` names a model outside the allow-list, or picks an LLM component while
    no LLM endpoint is configured (the workers would fail the audit 20-40 s later)."""
    try:
        check_models(config, settings)
    except ValueError as exc:
        return Refusal(422, str(exc), ("body", "config"))
    if settings.openai_base_url or settings.openai_api_key:
        return None
    for key, values in LLM_CHOICES.items():
        if config.get(key) in values:
            return Refusal(
                422,
                f"config.{key}: {config[key]!r} needs an LLM endpoint, but no LLM endpoint configured "
                "(set OPENAI_BASE_URL / OPENAI_API_KEY)",
                ("body", "config"),
            )
    return None


def _audit(body: Mapping[str, Any], settings: Settings) -> Refusal | None:
    problem = value_problem(dict(body))
    if problem is not None:
        return Refusal(422, problem, ("body",))
    return _size(body, settings) or _config(body.get("config") or {}, settings)


def admit(
    submitter: Submitter,
    bodies: Sequence[Mapping[str, Any] | Refusal],
    *,
    settings: Settings,
    session: Session | None = None,
    limiter: AuditCounter | None = None,
    names: Sequence[Name] = (),
    config: Mapping[str, Any] | None = None,
    checks: Sequence[Check] = (),
) -> list[Refusal | None]:
    """Admit audits (module docstring): one entry per body, None when admitted, else its refusal.

    ``bodies``: the audit bodies to store, or a ``Refusal`` already found for one (a schema error),
    which is passed through. ``names``: strings stored with them. ``config``: a config checked on
    its own (a suite's defaults). ``session``: reads the tenant's token budget (None: not checked).
    ``limiter``: counts the admitted audits (None: not counted).

    Raises ``Refused`` when the whole request is refused: a name, ``config``, an extra check or a
    rate limit. Then nothing may be stored, and nothing was counted.
    """
    _check_names(names)
    if config is not None:
        problem = value_problem(dict(config), "config")
        found = Refusal(422, problem, ("body", "config")) if problem else _config(config, settings)
        if found is not None:
            raise Refused(found)
    out: list[Refusal | None] = []
    spent: list[Refusal | None] = []  # the budget, read once and only when an audit uses the LLM
    for body in bodies:
        if isinstance(body, Refusal):
            out.append(body)
            continue
        refusal = _audit(body, settings)
        if refusal is None and session is not None and uses_llm(body.get("config") or {}, settings):
            if not spent:
                found_spent = budget_spent(session, submitter.tenant_id, settings)
                spent.append(
                    None
                    if found_spent is None
                    else Refusal(429, found_spent.detail, ("body", "config"), found_spent.retry_after)
                )
            refusal = spent[0]
        out.append(refusal)
    count = sum(1 for r in out if r is None)
    for check in checks:
        extra = check(submitter, count)
        if extra is not None:
            raise Refused(extra)
    if limiter is not None and count:
        _count(submitter, count, settings, limiter)
    return out


def _count(submitter: Submitter, count: int, settings: Settings, limiter: AuditCounter) -> None:
    for per_minute, what, setting in (
        (submitter.audits_per_minute, "your limit", "the key's audits_per_minute"),
        (settings.tenant_audits_per_minute, "your tenant's limit", "TENANT_AUDITS_PER_MINUTE"),
    ):
        if 0 < per_minute < count and (submitter.key is not None or what != "your limit"):
            raise Refused(
                Refusal(
                    413,
                    f"audits: {count} audits in one request, over {what} of {per_minute} audits per "
                    f"minute ({setting}): send at most {per_minute} per request",
                    ("body",),
                )
            )
    refused = limiter.audits(
        submitter.key,
        submitter.audits_per_minute,
        count,
        tenant=submitter.tenant_id,
        tenant_per_minute=settings.tenant_audits_per_minute,
    )
    if refused is not None:
        raise Refused(
            Refusal(
                429,
                f"rate limit exceeded: {refused.limit} (retry after {refused.retry_after} s)",
                retry_after=refused.retry_after,
                reason=refused.limit,
            )
        )


def admit_one(submitter: Submitter, body: Mapping[str, Any], **options: Any) -> None:
    """:func:`admit` of one audit; raises ``Refused`` when it is refused for any reason."""
    refusal = admit(submitter, [body], **options)[0]
    if refusal is not None:
        raise Refused(refusal)
