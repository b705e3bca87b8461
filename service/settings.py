"""Runtime settings of the spine (API, workers, migrations), read from the environment.

One ``Settings(BaseSettings)`` for every process (pattern of fastapi/full-stack-fastapi-template's
``core/config.py``). It lives in ``service``, the layer below the API and the workers, which
both run with it; ``db`` never reads settings (its engine factory takes a URL) and ``claims``
never sees them. Importing this module loads nothing heavy.

Environment variables (also read from ``.env`` in the working directory):

DATABASE_URL        Postgres URL; ``postgres://`` / ``postgresql://`` are normalised to
                    ``postgresql+psycopg://`` (psycopg 3).
REDIS_URL           Celery broker (and the result store of the one synchronous search task).
MAX_TEXT_CHARS      Longest accepted response or reference text, in characters (413 above).
MAX_REFERENCES      Most references per audit (413 above; 2,000 fits WiCE's 1,131 evidence sentences).
MAX_TOTAL_CHARS     Most characters of one audit, response and references together (413 above):
                    what bounds an audit's work.
MAX_BATCH           Most audits per ``POST /audits/batch`` (413 above).
MAX_QUEUED_AUDITS, MAX_QUEUED_AUDITS_PER_TENANT, MAX_BACKLOG_AGE_S  Backlog bounds of admission
                    (``service.backlog``; 503 / 429 with Retry-After past them; 0: no bound).
BUNDLE_SIZE         Audits of a ``POST /audits/batch`` or ``POST /runs`` (offline components only)
                    that travel in one bundle chain (default 16; 1: a chain per audit).
BUNDLE_MAX_CHARS    Most characters of one bundle (default 100,000; a larger audit goes alone), so
                    that a bundle's stage stays far within one stage's time limit.
CELERY_QUEUE        Name of the Celery queue (default ``claimaudit``).
BROKER_VISIBILITY_TIMEOUT  Seconds before an unacknowledged task is redelivered (Redis broker);
                    must exceed STAGE_TIME_LIMIT_S (checked at start), or a stage still running
                    would be handed out a second time.
MAX_BODY_BYTES      Largest request body, in bytes (413 from Content-Length or while streaming,
                    before it is parsed).
BODY_READ_TIMEOUT_S Seconds a request body may take to arrive in full (default 30); 408 after.
STAGE_LEASE_S, STAGE_SOFT_TIME_LIMIT_S, STAGE_TIME_LIMIT_S, STAGE_TIME_LIMITS, STAGE_MAX_RUNS,
REQUEUE_AFTER_S, UNSENT_AFTER_S, SWEEP_INTERVAL_S, TASK_MAX_RETRIES: leases, time limits and the
                    sweeper (docs/RELIABILITY.md). SEARCH_QUEUE: the queue of /claims/search.
OPENAI_BASE_URL, OPENAI_API_KEY, LLM_MODEL, OPENAI_EMBEDDING_MODEL, LLM_TIMEOUT_S: the LLM path;
DECOMPOSER (offline|llm), JUDGE (none|llm|auto), EMBEDDER (local|openai): default components;
LLM_BAND            ``[low, high]`` (JSON): under JUDGE=auto, verdicts whose confidence lies in
                    this band go to the LLM judge (``claims.options.AuditOptions``).
OPENAI_EMBEDDING_DIM, LLM_JUDGE_TOP_K, LLM_RESPONSE_FORMAT, LLM_STAGE_BUDGET_S, LLM_RETRIES,
LLM_MAX_TOKENS, LLM_DECOMPOSE_TOKENS_PER_CHAR, LLM_JUDGE_TOKENS_PER_CLAIM: see
                    ``service.llm_config``.
LLM_ON_ERROR        ``offline`` (default) or ``fail``: what an audit does when its LLM decomposer or
                    judge fails (``llm_on_error`` per audit; ``workers.adapters.policy``).

Access (README, "Tenants, API keys and limits"):
AUTH                ``enabled`` (default: every route but /healthz needs ``Authorization: Bearer``)
                    or ``disabled`` (every caller is tenant ``default`` with every scope), allowed
                    only with API_HOST on loopback; requests from other addresses then get 401.
API_HOST            The address the API binds to (``claimaudit serve``/``up``: 127.0.0.1).
RATE_LIMIT_PER_SECOND, AUDITS_PER_MINUTE  Default per-key limits (0: unlimited); 429 above.
TENANT_RATE_LIMIT_PER_SECOND, TENANT_AUDITS_PER_MINUTE  Limits per tenant, all its keys together
                    (default 40 and 1200; 0: unlimited); 429 above (``service.rate_limits``).
RATE_LIMIT_STORAGE_URL  Where the counters live (default: REDIS_URL).
ALLOWED_LLM_MODELS, ALLOWED_EMBEDDING_MODELS  Comma-separated model names an audit's config or a
                    search may name (LLM_MODEL / OPENAI_EMBEDDING_MODEL are always allowed).
DAILY_TOKEN_BUDGET  LLM tokens per tenant per UTC day (unset: unlimited); a tenant's own
                    ``tenants.daily_token_budget`` wins.
CORS_ORIGINS        Comma-separated origins allowed by CORS (none by default).

Secrets may also come from files: ``SECRETS_DIR`` (default ``/run/secrets`` when it exists)
holds one file per setting, named like the field (``openai_api_key``, ``database_url``).
RUNS_TICK_S         Seconds between two scheduler ticks (``runs.tick``, sent by Celery beat).
RUNS_RESTART_AFTER_S  A scheduled run still unsealed this long after creation is started again.
WEBHOOK_TIMEOUT_S, WEBHOOK_MAX_RETRIES, WEBHOOK_BACKOFF_S: webhook delivery (``workers.run_tasks``);
                    WEBHOOK_TIMEOUT_S bounds a whole attempt (connect to last byte read).
REFERENCE_CACHE     ``true`` (default): the decompose stage reuses the stored decomposition of a reference
                    text the tenant sent before (``db.reference_cache``); ``false``: decompose every time.
LOG_FORMAT          ``text`` (default) or ``json``: structured worker logs (``workers.logs``).
RETENTION_DAYS      Finished audits older than this are deleted nightly at 03:00 UTC (unset: kept).
PROMETHEUS_MULTIPROC_DIR  Directory shared by workers and API for multiprocess metrics (``service.metrics``).
SECOND_AUDIT_SHARE  Share (0 to 1) of done audits re-audited by a second auditor (default 0).
SECOND_AUDIT_CONFIG JSON config overrides of the second auditor; default ``{"judge": "llm"}``
                    where an LLM endpoint is set, else ``{"threshold": 0.75}`` (``service.checks``).
SUITE_SQL_SOURCES   ``true``: suites of the SUITE_SQL_TENANTS may read ``sql`` sources (default false).
SUITE_SQL_TENANTS   Comma-separated tenant ids whose suites may have ``sql`` sources (defined by an
                    ``admin`` key). Such a tenant can read whatever SUITE_SQL_ROLE can read.
SUITE_SQL_ROLE      Plain role (NOSUPERUSER NOBYPASSRLS) a ``sql`` source runs as (``SET LOCAL ROLE``); a
                    session that would bypass row-level security without it refuses to run the query.
SUITE_SQL_TIMEOUT_S statement_timeout of a ``sql`` source, in seconds (default 30).
SUITE_SOURCE_DIR    Folder of ``jsonl`` file sources: a tenant's lie in ``<SUITE_SOURCE_DIR>/<tenant id>/``
                    (unset: no file sources).
SUITE_SOURCE_HOSTS  Comma-separated hosts ``jsonl`` URL sources may name (empty: no URL sources).
WEBHOOK_ALLOW_PRIVATE  ``true``: webhooks may post to loopback/private addresses (default false).
(``service.source_policy``; README, "Suites and their sources".)
AUTO_CORRECT        ``true``: every done audit with claims to correct gets a corrected answer,
                    re-audited (default false: on request, ``POST /audits/{id}/correction``).
"""

from __future__ import annotations

import ipaddress
import os
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from claims.options import DEFAULT_LLM_BAND, AuditOptions
from db.engine import normalise_url
from service.llm_config import DEFAULT_STAGE_BUDGET_S, STAGE_OF_STEP
from service.llm_formats import FORMATS, canonical_format

__all__ = ["Settings", "get_settings", "is_loopback"]

#: A comma-separated list in the environment (``a,b``) or a JSON list (``["a", "b"]``).
NameList = Annotated[tuple[str, ...], NoDecode]


def is_loopback(host: str | None) -> bool:
    """True for ``localhost`` and loopback addresses (127.0.0.0/8, ::1)."""
    if host is None:
        return False
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _names(value: Any) -> Any:
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("["):
            import json

            return tuple(str(v).strip() for v in json.loads(text) if str(v).strip())
        return tuple(v.strip() for v in text.split(",") if v.strip())
    return value


class Settings(BaseSettings):
    """Process settings; see the module docstring for the environment variables."""

    #: ``hide_input_in_errors``: a validation error names the setting and the rule, never the
    #: values read (they may hold secrets: keys, passwords in URLs).
    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", hide_input_in_errors=True
    )

    database_url: str = "postgresql+psycopg://postgres@127.0.0.1:54330/claimaudit"  # cli.stack default
    redis_url: str = "redis://127.0.0.1:6379/0"

    max_text_chars: int = 100_000
    max_references: int = 2_000
    max_total_chars: int = 1_000_000
    #: Longest ``question`` of an audit, in characters (413 above).
    max_question_chars: int = Field(default=10_000, ge=1)
    #: Largest ``metadata`` of an audit, in bytes of its JSON (UTF-8; 413 above).
    max_metadata_bytes: int = Field(default=65_536, ge=2)
    max_batch: int = 1_000
    #: Offline audits of a batch per bundle chain (one parser pass, one model call and one write
    #: per stage for all of them; docs/PERFORMANCE.md "Bundles"). 1: one chain per audit.
    bundle_size: int = Field(default=16, ge=1, le=256)
    #: Most characters (responses and references) of one bundle.
    bundle_max_chars: int = Field(default=100_000, ge=1)
    #: Largest request body in bytes: a MAX_TOTAL_CHARS audit in JSON with every character escaped
    #: (6 bytes per ``\\uXXXX``) fits; a batch of small audits too.
    max_body_bytes: int = 8 * 1024 * 1024
    #: Seconds a request body may take to arrive, from the first read to its last byte (408 after).
    body_read_timeout_s: float = Field(default=30.0, gt=0)
    #: Reuse the stored decomposition of a reference text (``workers.reference_cache``).
    reference_cache: bool = True

    #: Queue the audit chains go to (workers consume it by default); tests use one per session.
    celery_queue: str = "claimaudit"
    #: Queue of ``claims.search`` (default ``<CELERY_QUEUE>.search``): a worker started with
    #: ``-Q <it>`` answers searches even while an audit backlog fills CELERY_QUEUE.
    search_queue: str = ""

    @property
    def search_queue_name(self) -> str:
        """``SEARCH_QUEUE``, or ``<CELERY_QUEUE>.search`` when unset."""
        return self.search_queue or f"{self.celery_queue}.search"

    #: Seconds a task may stay unacknowledged before the Redis broker hands it out again.
    #: Must exceed ``stage_time_limit_s`` (a running stage is never handed out twice).
    broker_visibility_timeout: int = 3_600
    #: A worker pool process whose resident memory exceeds this many MB after a task is replaced
    #: by a fresh one (Celery's ``worker_max_memory_per_child``; 0: never). A warm process holds
    #: about 850 MB (``make bench``: ``worker_rss_mb_max``); long nights grew processes to
    #: 1.4-1.6 GB, so a process is recycled before it gets there and then loads its models again.
    worker_max_memory_mb: int = Field(default=1_300, ge=0)
    #: Task retries for transient errors (database/broker connection loss): with the backoff of
    #: ``workers.retry`` 10 retries span 181-362 s.
    task_max_retries: int = 10
    #: A stage run holds its audit for this many seconds, renewed every third of it while it runs;
    #: when it expires (the run died or froze) the sweeper sends the audit again from that stage.
    stage_lease_s: float = 60.0
    #: Soft time limit of one stage run (SoftTimeLimitExceeded: the stage runs once more, then fails).
    stage_soft_time_limit_s: float = 900.0
    #: Hard time limit of one stage run (the pool process is killed and the audit fails).
    stage_time_limit_s: float = 960.0
    #: Per-stage ``[soft, hard]`` limits over the two above, e.g. ``{"scoring": [30, 60]}`` (JSON).
    stage_time_limits: dict[str, tuple[float, float]] = {}
    #: Runs of one stage (redeliveries, sweeps) before the sweeper fails the audit.
    stage_max_runs: int = 5
    #: An audit whose next stage was sent but has not started after this many seconds is sent
    #: again (its message was lost); a duplicate is harmless (fencing), only wasted queue work.
    requeue_after_s: int = 600
    #: Audits stored but never enqueued (broker down at submission) are sent after this many seconds.
    unsent_after_s: float = 15.0
    #: Seconds between two sweeps (each worker's main process; the sweeps claim rows, never twice).
    sweep_interval_s: float = 15.0

    #: HNSW candidate list size for ``/claims/search`` (pgvector ``hnsw.ef_search``; pgvector's
    #: default 40). 400: recall@10 0.95 to 0.97 per tenant and filter on the 1M store of
    #: ``make bench-store``, 0.85 to 0.96 at 100 (docs/PERFORMANCE.md, "The claim store at 1M claims").
    #: pgvector accepts 1 to 1000; a value outside is an error at start, not at the first search.
    hnsw_ef_search: int = Field(default=400, ge=1, le=1000)
    #: A tenant with at most this many claim vectors of the model is searched exactly (its rows
    #: read through the tenant index and sorted) instead of through the HNSW graph of every
    #: tenant; 0: never (``db.claim_search``; the crossover: docs/PERFORMANCE.md).
    search_exact_max_claims: int = Field(default=20_000, ge=0)
    #: A tenant with at least this many claim vectors of a model, and at most
    #: ``SEARCH_TENANT_INDEX_MAX_SHARE`` of them, gets an HNSW index of its own (the daily task
    #: ``claims.tenant_indexes``; ``db.tenant_indexes``); 0: none.
    search_tenant_index_min_claims: int = Field(default=5_000, ge=0)
    #: The largest share (0 to 1] of a model's vectors a tenant may own and get its own index.
    search_tenant_index_max_share: float = Field(default=0.25, gt=0, le=1)
    #: ``hnsw.ef_search`` in a tenant's own index: its candidates are all the tenant's, so a
    #: shorter list than ``HNSW_EF_SEARCH`` reaches the same recall (docs/PERFORMANCE.md).
    hnsw_ef_search_own: int = Field(default=100, ge=1, le=1000)
    #: Seconds the API waits for the worker to answer a search (it embeds the query).
    search_timeout_s: float = 30.0

    openai_base_url: str | None = None
    openai_api_key: str | None = None
    llm_model: str = "gpt-4o-mini"
    openai_embedding_model: str = "text-embedding-3-small"
    llm_timeout_s: float = 60.0
    #: Default components of an audit (per-audit config keys of the same names override them).
    decomposer: str = "offline"  # offline | llm
    judge: str = "none"  # none | llm | auto
    #: Under judge=auto: confidences in [low, high] (or none) go to the LLM judge.
    llm_band: tuple[float, float] = DEFAULT_LLM_BAND
    embedder: str = "local"  # local | openai
    #: Output dimension of OPENAI_EMBEDDING_MODEL when it is not a well-known model.
    openai_embedding_dim: int | None = None
    #: Evidence claims per response claim shown to the LLM judge.
    llm_judge_top_k: int = 3
    #: Structured output tried first: json_schema | json_object | prompted (``none``: prompted);
    #: a server that rejects it moves down that chain (``service.llm_formats``).
    llm_response_format: str = "json_schema"
    #: offline | fail: an audit's LLM decomposer or judge failing keeps the offline result, or
    #: fails the audit (``llm_on_error`` per audit).
    llm_on_error: str = "offline"
    #: Runs of a stage retried after a transient endpoint error before llm_on_error applies.
    llm_retries: int = Field(default=2, ge=0)
    #: Seconds one run of a stage may wait for the endpoint, per LLM step (JSON).
    llm_stage_budget_s: dict[str, float] = Field(default_factory=lambda: dict(DEFAULT_STAGE_BUDGET_S))
    #: max_tokens of a request: per character decomposed, per claim judged, and at most.
    llm_decompose_tokens_per_char: float = Field(default=1.5, gt=0)
    llm_judge_tokens_per_claim: int = Field(default=80, gt=0)
    llm_max_tokens: int = Field(default=4096, ge=64)

    #: ``enabled`` | ``disabled`` (only with ``api_host`` on loopback; see the module docstring).
    auth: str = "enabled"
    api_host: str = "127.0.0.1"
    #: Default per-key limits; 0 means unlimited. A key's own limits (``api_keys``) win.
    rate_limit_per_second: int = 20
    audits_per_minute: int = 600
    #: Limits per tenant, shared by all its keys (``service.rate_limits``); 0 means unlimited.
    tenant_rate_limit_per_second: int = 40
    tenant_audits_per_minute: int = 1_200
    rate_limit_storage_url: str | None = None
    allowed_llm_models: NameList = ()
    allowed_embedding_models: NameList = ()
    daily_token_budget: int | None = None
    cors_origins: NameList = ()

    @field_validator(
        "allowed_llm_models",
        "allowed_embedding_models",
        "cors_origins",
        "suite_source_hosts",
        "suite_sql_tenants",
        mode="before",
    )
    @classmethod
    def _split_names(cls, value: Any) -> Any:
        return _names(value)

    @property
    def llm_models(self) -> frozenset[str]:
        """Chat models an audit may name: ``ALLOWED_LLM_MODELS`` and ``LLM_MODEL``."""
        return frozenset((*self.allowed_llm_models, self.llm_model))

    @property
    def embedding_models(self) -> frozenset[str]:
        """Embedding models an audit or a search may name: ``ALLOWED_EMBEDDING_MODELS`` and
        ``OPENAI_EMBEDDING_MODEL``."""
        return frozenset((*self.allowed_embedding_models, self.openai_embedding_model))

    @property
    def auth_enabled(self) -> bool:
        return self.auth == "enabled"

    #: Seconds between scheduler ticks; a cron slot starts at most this long after its minute.
    runs_tick_s: float = 30.0
    #: A scheduled run whose start message was lost is started again after this many seconds.
    runs_restart_after_s: float = 300.0
    #: Webhook delivery: wall-clock limit of one attempt, retries (backoff from WEBHOOK_BACKOFF_S, jitter).
    webhook_timeout_s: float = 10.0
    webhook_max_retries: int = 8
    webhook_backoff_s: float = 5.0
    #: Worker log lines: ``text`` (Celery's) or ``json`` (one object per line with task, audit and run ids).
    log_format: str = "text"
    #: Finished audits older than this many days are deleted nightly (``audits.retention``); None: kept.
    retention_days: float | None = None
    #: Multiprocess metrics directory (``prometheus_client``); None: each process shows its own.
    prometheus_multiproc_dir: str | None = None
    #: Backlog bounds of admission (``service.backlog``; 0: no bound). Unfinished audits of the
    #: deployment (past it: 503) and of one tenant (429), and the age in seconds of the oldest
    #: unfinished audit (503). Defaults: MAX_BACKLOG_AGE_S x the measured sustainable rate of the
    #: local stack (about 10 audits/s on 2 worker processes; docs/RELIABILITY.md, "Backlog bounds").
    max_queued_audits: Annotated[int, Field(ge=0)] = 1_200
    max_queued_audits_per_tenant: Annotated[int, Field(ge=0)] = 600
    max_backlog_age_s: Annotated[float, Field(ge=0)] = 120.0

    #: Share of done audits re-audited with the second auditor's config (``service.checks``).
    second_audit_share: Annotated[float, Field(ge=0.0, le=1.0)] = 0.0
    #: Config overrides of the second auditor; None: the LLM judge with an endpoint, else threshold 0.75.
    second_audit_config: dict[str, Any] | None = None
    #: Build and re-audit a corrected answer for every done audit that has claims to correct.
    auto_correct: bool = False

    #: Suites' sources and webhooks (``service.source_policy``): all off / public-only by default.
    suite_sql_sources: bool = False
    suite_sql_tenants: NameList = ()
    suite_sql_role: str | None = None
    suite_sql_timeout_s: Annotated[float, Field(gt=0)] = 30.0
    suite_source_dir: str | None = None
    suite_source_hosts: NameList = ()
    webhook_allow_private: bool = False
    #: Server secret mixed with the key's stored hash into the /ui session MAC (``api.ui_auth``):
    #: whoever reads the api_keys table cannot then forge a page session. The same value on every
    #: API process; ``claimaudit up`` writes one to ``.claimaudit/ui-session.secret``. Empty: the
    #: key hash alone (sessions survive restarts either way).
    ui_session_secret: str = ""

    @field_validator("database_url")
    @classmethod
    def _normalise_database_url(cls, value: str) -> str:
        return normalise_url(value)

    def time_limits(self, stage: str) -> tuple[float, float]:
        """``(soft, hard)`` seconds of one run of ``stage`` (``STAGE_TIME_LIMITS`` over the defaults)."""
        return self.stage_time_limits.get(stage, (self.stage_soft_time_limit_s, self.stage_time_limit_s))

    @model_validator(mode="after")
    def _check_time_limits(self) -> Settings:
        from db.models import STAGES

        unknown = sorted(set(self.stage_time_limits) - set(STAGES))
        if unknown:
            raise ValueError(f"STAGE_TIME_LIMITS: unknown stages {unknown} (known: {list(STAGES)})")
        for stage in STAGES:
            soft, hard = self.time_limits(stage)
            if not 0 < soft <= hard:
                raise ValueError(
                    f"{stage}: the soft time limit ({soft} s) must be > 0 and <= the hard one ({hard} s)"
                )
            if self.broker_visibility_timeout <= hard:
                raise ValueError(
                    f"BROKER_VISIBILITY_TIMEOUT ({self.broker_visibility_timeout} s) must exceed the hard "
                    f"time limit of {stage} ({hard} s): the broker would hand a running stage out again"
                )
        return self

    @model_validator(mode="after")
    def _check_access(self) -> Settings:
        if self.auth not in ("enabled", "disabled"):
            raise ValueError(
                "AUTH must be enabled or disabled (the value read is not shown: it may be a secret, "
                "e.g. a shell variable AUTH holding an Authorization header)"
            )
        if self.auth == "disabled" and not is_loopback(self.api_host):
            raise ValueError(
                "AUTH=disabled is only allowed when the API binds to 127.0.0.1 "
                f"(API_HOST is {self.api_host!r})"
            )
        for name in (
            "rate_limit_per_second",
            "audits_per_minute",
            "tenant_rate_limit_per_second",
            "tenant_audits_per_minute",
        ):
            if getattr(self, name) < 0:
                raise ValueError(f"{name.upper()} must be >= 0 (0: unlimited)")
        if self.daily_token_budget is not None and self.daily_token_budget < 0:
            raise ValueError("DAILY_TOKEN_BUDGET must be >= 0")
        return self

    @model_validator(mode="after")
    def _check_audit_defaults(self) -> Settings:
        # DECOMPOSER / JUDGE / EMBEDDER / LLM_BAND are the defaults of every audit's options:
        # refuse a bad value at start, not when an audit is read (ValueError names the key)
        defaults = {
            "decomposer": self.decomposer,
            "judge": self.judge,
            "embedder": self.embedder,
            "llm_on_error": self.llm_on_error,
        }
        try:
            AuditOptions.from_config({**defaults, "llm_band": self.llm_band})
        except ValueError as exc:  # name the environment variable, not the per-audit key
            key = str(exc).split(":", 1)[0].removeprefix("config.")
            raise ValueError(f"{key.upper()}: {str(exc).split(':', 1)[1].strip()}") from None
        if self.second_audit_config is not None:
            try:
                AuditOptions.from_config(self.second_audit_config)
            except ValueError as exc:
                raise ValueError(f"SECOND_AUDIT_CONFIG: {exc}") from None
        return self

    @model_validator(mode="after")
    def _check_llm_bounds(self) -> Settings:
        if canonical_format(self.llm_response_format) not in FORMATS:
            raise ValueError(f"LLM_RESPONSE_FORMAT must be one of {', '.join(FORMATS)}")
        for step, budget in self.llm_stage_budget_s.items():
            if step not in STAGE_OF_STEP:
                raise ValueError(f"LLM_STAGE_BUDGET_S: unknown step {step!r} (known: {list(STAGE_OF_STEP)})")
            soft = self.time_limits(STAGE_OF_STEP[step])[0]
            if not 0 < budget < soft:
                raise ValueError(
                    f"LLM_STAGE_BUDGET_S[{step}] ({budget} s) must be > 0 and below the soft time "
                    f"limit of {STAGE_OF_STEP[step]} ({soft} s)"
                )
        if self.llm_retries >= self.stage_max_runs or self.llm_retries > self.task_max_retries:
            raise ValueError(
                f"LLM_RETRIES ({self.llm_retries}) must be below STAGE_MAX_RUNS ({self.stage_max_runs}) "
                f"and at most TASK_MAX_RETRIES ({self.task_max_retries})"
            )
        return self


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings (read once; ``get_settings.cache_clear()`` re-reads).

    Secrets may come from files in ``SECRETS_DIR`` (default ``/run/secrets``, Docker's secrets
    folder, when it exists): one file per setting named like the field.
    """
    secrets = Path(os.environ.get("SECRETS_DIR") or "/run/secrets")
    if secrets.is_dir():
        return Settings(_secrets_dir=secrets)  # type: ignore[call-arg]
    return Settings()
