"""Prometheus metrics of the workers (``prometheus-client``), and the scrape the API serves at ``/metrics``.

Worker processes count and time into the metrics below. Celery's prefork pool runs many
processes, so with ``PROMETHEUS_MULTIPROC_DIR`` set (an empty directory shared by the workers
and the API on one host, wiped at deploy) every process writes its values there and
``scrape`` sums them (``prometheus_client.multiprocess``); without it only the scraping
process's own values are shown. The variable must be set before a worker starts.

Gauges of the present are read at scrape time instead: audits by status (one ``GROUP BY`` over
the ``(status, created_at)`` index), the broker's queue depth per queue and priority (Redis
``LLEN`` of each list kombu keeps: ``<queue>`` for priority 0 and ``<queue>\\x06\\x16<n>`` for
priority n, ``broker_depths``), the age of the oldest unfinished audit (``db.backlog``), the
workers that answer a ping, and the structured-output format negotiated with each LLM endpoint
and model (``llm_formats``).

Every labelled counter and histogram is created at import with each of its known label values at
0 (``_zero``), so a dashboard panel or an alert has a series before the first event. The scrape
keeps only ``claimaudit_*`` series: other programs that share the multiprocess directory (Flower)
or the default registry's process and platform collectors do not leak into ``/metrics``.

Metric                                     type       labels
claimaudit_audits                          gauge      status            stored audits now
claimaudit_queue_depth                     gauge      queue, priority   messages waiting in Redis
claimaudit_oldest_queued_audit_age_seconds gauge      -                 age of the oldest unfinished audit
claimaudit_workers                         gauge      -                 workers consuming the audit queue
claimaudit_audits_finished_total           counter    status            audits that ended (done|failed)
claimaudit_audit_latency_seconds           histogram  status            created → finished of each audit
claimaudit_stage_duration_seconds          histogram  stage             wall time of each pipeline stage
claimaudit_verdicts_total                  counter    verdict           verdicts of finished audits
claimaudit_http_requests_total             counter    method, route,    API requests by route template
                                                      status            and status code
claimaudit_http_request_duration_seconds   histogram  method, route     API request wall time
claimaudit_admission_refusals_total        counter    reason            requests refused at admission
claimaudit_llm_calls_total                 counter    stage, outcome    LLM requests (ok|failed|cache_hit)
claimaudit_llm_tokens_total                counter    stage, kind       prompt / completion tokens
claimaudit_llm_fallbacks_total             counter    stage             LLM answers replaced offline
claimaudit_llm_response_format_negotiated_timestamp_seconds
                                           gauge      base_url, model,  when the format the endpoint
                                                      response_format   accepts was negotiated
claimaudit_run_duration_seconds            histogram  -                 created → finished of each run
claimaudit_runs_finished_total             counter    event             run.finished | run.quality_drop
claimaudit_webhook_failures_total          counter    final             failed attempts (final: gave up)
claimaudit_canaries_total                  counter    kind, detected    canaries audited (method checks)
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.metrics_core import Metric
from prometheus_client.registry import Collector

from claims.perturb import CANARY_KINDS
from db.models import AUDIT_STATUSES, STAGES
from db.models import VERDICTS as VERDICT_NAMES

__all__ = [
    "PREFIX",
    "STAGE_SECONDS",
    "BUNDLE_SECONDS",
    "AUDITS_FINISHED",
    "AUDIT_LATENCY",
    "VERDICTS",
    "HTTP_REQUESTS",
    "HTTP_SECONDS",
    "ADMISSION_REFUSALS",
    "REFERENCE_CACHE",
    "REFUSAL_REASONS",
    "RUN_SECONDS",
    "RUNS_FINISHED",
    "WEBHOOK_FAILURES",
    "CANARIES",
    "Present",
    "broker_depths",
    "observe_llm",
    "mark_process_dead",
    "scrape",
    "scrape_tenant",
]

#: The name prefix of every series ``/metrics`` shows.
PREFIX = "claimaudit_"

_STAGE_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900)
_RUN_BUCKETS = (1, 5, 15, 30, 60, 120, 300, 900, 1800, 3600, 7200, 14400)
#: created → finished of one audit: from a fast offline audit (0.1 s) to a long backlog (1 h)
_LATENCY_BUCKETS = (0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600)
_HTTP_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)

STAGE_SECONDS = Histogram(
    "claimaudit_stage_duration_seconds", "Wall time of a pipeline stage.", ["stage"], buckets=_STAGE_BUCKETS
)
BUNDLE_SECONDS = Histogram(
    "claimaudit_bundle_stage_duration_seconds",
    "Wall time of a pipeline stage run for a bundle of audits (POST /audits/batch).",
    ["stage"],
    buckets=_STAGE_BUCKETS,
)
AUDITS_FINISHED = Counter("claimaudit_audits_finished", "Audits that ended, by final status.", ["status"])
#: The whole wait of a client: the time in the queue and every stage (``finished_at - created_at``).
AUDIT_LATENCY = Histogram(
    "claimaudit_audit_latency_seconds",
    "Created to finished, per audit (queue wait included), by final status.",
    ["status"],
    buckets=_LATENCY_BUCKETS,
)
VERDICTS = Counter("claimaudit_verdicts", "Verdicts of finished audits, by kind.", ["verdict"])
#: ``route`` is the route's template (``/audits/{audit_id}``), never the raw path; ``unmatched``
#: for a path no route serves.
HTTP_REQUESTS = Counter(
    "claimaudit_http_requests",
    "API requests by method, route template and status.",
    ["method", "route", "status"],
)
HTTP_SECONDS = Histogram(
    "claimaudit_http_request_duration_seconds",
    "API request wall time by method and route template.",
    ["method", "route"],
    buckets=_HTTP_BUCKETS,
)
#: Admission refusals: the backlog bounds (``service.backlog.REASONS``) and the per-key rate limits.
REFUSAL_REASONS = ("backlog_age", "backlog", "tenant_backlog", "requests_per_second", "audits_per_minute")
REFERENCE_CACHE = Counter(
    "claimaudit_reference_cache",
    "Reference texts looked up in the reference cache by the decompose stage, by result (hit, miss).",
    ["result"],
)
ADMISSION_REFUSALS = Counter(
    "claimaudit_admission_refusals", "Requests refused at admission, by reason.", ["reason"]
)
LLM_CALLS = Counter("claimaudit_llm_calls", "LLM requests by stage and outcome.", ["stage", "outcome"])
LLM_TOKENS = Counter("claimaudit_llm_tokens", "LLM tokens by stage and kind.", ["stage", "kind"])
LLM_FALLBACKS = Counter("claimaudit_llm_fallbacks", "LLM answers replaced by the offline path.", ["stage"])
RUN_SECONDS = Histogram(
    "claimaudit_run_duration_seconds", "Created to finished, per run.", buckets=_RUN_BUCKETS
)
RUNS_FINISHED = Counter("claimaudit_runs_finished", "Finished runs by webhook event.", ["event"])
WEBHOOK_FAILURES = Counter("claimaudit_webhook_failures", "Failed webhook attempts.", ["final"])
#: Detection rate of a kind: ``detected="true"`` over all (the view ``canary_detection_daily`` in SQL).
CANARIES = Counter(
    "claimaudit_canaries", "Canaries audited to the end, by fault kind and detection.", ["kind", "detected"]
)

#: The routes that admit audits (created at 0 with their 202, 429 and 503 answers).
_ADMISSION_ROUTES = ("/audits", "/audits/batch", "/runs")
#: The LLM stages (``workers.adapters``: decomposer, embedder, judge).
_LLM_STAGES = ("decompose", "embed", "judge")


def _zero() -> None:
    """Create every known label set of the labelled metrics at 0 (module docstring)."""
    for stage in STAGES:
        STAGE_SECONDS.labels(stage)
        BUNDLE_SECONDS.labels(stage)
    for status in ("done", "failed"):
        AUDITS_FINISHED.labels(status)
        AUDIT_LATENCY.labels(status)
    for verdict in VERDICT_NAMES:
        VERDICTS.labels(verdict)
    for reason in REFUSAL_REASONS:
        ADMISSION_REFUSALS.labels(reason)
    for result in ("hit", "miss"):
        REFERENCE_CACHE.labels(result)
    for route in _ADMISSION_ROUTES:  # the answers of admission: accepted, refused
        HTTP_SECONDS.labels("POST", route)
        for status in ("202", "429", "503"):
            HTTP_REQUESTS.labels("POST", route, status)
    for stage in _LLM_STAGES:
        for outcome in ("ok", "failed", "cache_hit"):
            LLM_CALLS.labels(stage, outcome)
        for kind in ("prompt", "completion"):
            LLM_TOKENS.labels(stage, kind)
        LLM_FALLBACKS.labels(stage)
    for event in ("run.finished", "run.quality_drop"):
        RUNS_FINISHED.labels(event)
    for final in ("true", "false"):
        WEBHOOK_FAILURES.labels(final)
    for kind in CANARY_KINDS:
        for detected in ("true", "false"):
            CANARIES.labels(kind, detected)


_zero()


def observe_llm(stage: str, counts: Mapping[str, Any]) -> None:
    """Count one usage-ledger row (``db.llm_repository.record_usage`` keywords) into the LLM metrics."""
    for key, outcome in (("calls", "ok"), ("failed_calls", "failed"), ("cache_hits", "cache_hit")):
        if counts.get(key):
            LLM_CALLS.labels(stage, outcome).inc(int(counts[key]))
    for key, kind in (("prompt_tokens", "prompt"), ("completion_tokens", "completion")):
        if counts.get(key):
            LLM_TOKENS.labels(stage, kind).inc(int(counts[key]))
    if counts.get("fallback"):
        LLM_FALLBACKS.labels(stage).inc()


def mark_process_dead(pid: int) -> None:
    """Drop a dead worker process's live-gauge files (multiprocess mode; a no-op otherwise)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(pid)  # type: ignore[no-untyped-call]


#: kombu's separator between a queue's name and a message priority in the Redis list's name.
PRIORITY_SEP = "\x06\x16"


def broker_depths(
    client: Any, queues: Iterable[str], priorities: Iterable[int] = range(10)
) -> dict[tuple[str, int], int]:
    """``{(queue, priority): messages waiting}`` of each queue at each priority, counted the way
    kombu's Redis transport stores them (``LLEN <queue>`` for priority 0, ``LLEN
    <queue>\\x06\\x16<n>`` for n >= 1; ``broker_transport_options["priority_steps"]`` of
    ``workers.celery_app``). ``client``: a ``redis.Redis``; raises ``redis.RedisError``.
    Messages a worker took and has not acknowledged are not counted."""
    keys = [(q, p) for q in queues for p in priorities]
    pipe = client.pipeline(transaction=False)
    for queue, priority in keys:
        pipe.llen(f"{queue}{PRIORITY_SEP}{priority}" if priority else queue)
    return {key: int(n) for key, n in zip(keys, pipe.execute(), strict=True)}


#: ``(base_url, model, response_format, negotiated_at)`` rows (``db.llm_repository.response_formats``).
FormatRows = Sequence[tuple[str, str, str, datetime]]


@dataclass
class Present:
    """The gauges of the present, read at scrape time: stored ``audits`` by status, broker
    ``depths`` by (queue, priority) (empty when Redis does not answer), ``oldest_age_s`` of the
    oldest unfinished audit (0.0 when there is none) and ``workers`` that answered a ping."""

    audits: Mapping[str, int] = field(default_factory=dict)
    depths: Mapping[tuple[str, int], int] = field(default_factory=dict)
    oldest_age_s: float = 0.0
    workers: int = 0


class _PresentCollector(Collector):
    """Gauges read at scrape time: ``present()`` → ``Present``, and ``formats()`` → the
    negotiated LLM formats."""

    def __init__(
        self, present: Callable[[], Present], formats: Callable[[], FormatRows] | None = None
    ) -> None:
        self.present = present
        self.formats = formats

    def collect(self) -> Iterator[GaugeMetricFamily]:
        now = self.present()
        by_status = GaugeMetricFamily("claimaudit_audits", "Stored audits by status.", labels=["status"])
        for status in sorted({*AUDIT_STATUSES, *now.audits}):  # every status, 0 when none
            by_status.add_metric([status], now.audits.get(status, 0))
        yield by_status
        depth = GaugeMetricFamily(
            "claimaudit_queue_depth",
            "Messages waiting in the broker per queue and priority.",
            labels=["queue", "priority"],
        )
        for (queue, priority), n in sorted(now.depths.items()):
            depth.add_metric([queue, str(priority)], n)
        yield depth
        yield GaugeMetricFamily(
            "claimaudit_oldest_queued_audit_age_seconds",
            "Age of the oldest unfinished audit (0 when none).",
            value=now.oldest_age_s,
        )
        yield GaugeMetricFamily(
            "claimaudit_workers",
            "Celery workers consuming the audit queue that answered a ping.",
            value=now.workers,
        )
        if self.formats is not None:
            negotiated = GaugeMetricFamily(
                "claimaudit_llm_response_format_negotiated_timestamp_seconds",
                "When the structured-output format an LLM endpoint and model accept was negotiated.",
                labels=["base_url", "model", "response_format"],
            )
            for base_url, model, fmt, at in self.formats():
                negotiated.add_metric([base_url, model, fmt], at.timestamp())
            yield negotiated


class _Only(Collector):
    """The families of ``source`` whose name starts with ``PREFIX``."""

    def __init__(self, source: Collector) -> None:
        self.source = source

    def collect(self) -> Iterable[Metric]:
        return [m for m in self.source.collect() if m.name.startswith(PREFIX)]


def scrape(
    present: Callable[[], Present],
    *,
    multiproc_dir: str | None,
    formats: Callable[[], FormatRows] | None = None,
) -> bytes:
    """The Prometheus text exposition of the ``claimaudit_*`` series only: the processes' metrics
    (summed over ``multiproc_dir`` when given, else this process's own) and the present-state
    gauges of ``present`` and ``formats``."""
    registry = CollectorRegistry()
    if multiproc_dir:
        from prometheus_client import multiprocess

        source = CollectorRegistry()
        multiprocess.MultiProcessCollector(source, path=multiproc_dir)  # type: ignore[no-untyped-call]
    else:
        from prometheus_client import REGISTRY as source
    registry.register(_Only(source))
    registry.register(_PresentCollector(present, formats))
    return generate_latest(registry)


def scrape_tenant(
    tenant_id: str, audits: Mapping[str, int], verdicts: Mapping[str, int], tokens_today: int
) -> bytes:
    """The Prometheus text of one tenant's own figures (a tenant key's ``/metrics``), read from
    Postgres at scrape time, each with the label ``tenant``: ``claimaudit_audits`` (stored audits
    by status), ``claimaudit_tenant_verdicts`` (verdicts of its scored audits, by kind) and
    ``claimaudit_tenant_llm_tokens_today`` (LLM tokens of the current UTC day). Nothing of the
    deployment (worker counters, queue depth, LLM endpoints) or of another tenant."""
    by_status = GaugeMetricFamily(
        "claimaudit_audits", "Stored audits of the tenant by status.", labels=["tenant", "status"]
    )
    for status, n in sorted(audits.items()):
        by_status.add_metric([tenant_id, status], n)
    mix = GaugeMetricFamily(
        "claimaudit_tenant_verdicts", "Verdicts of the tenant's scored audits.", labels=["tenant", "verdict"]
    )
    for verdict, n in sorted(verdicts.items()):
        mix.add_metric([tenant_id, verdict], n)
    tokens = GaugeMetricFamily(
        "claimaudit_tenant_llm_tokens_today", "LLM tokens of the tenant today (UTC).", labels=["tenant"]
    )
    tokens.add_metric([tenant_id], tokens_today)

    class _Tenant(Collector):
        def collect(self) -> Iterator[GaugeMetricFamily]:
            yield from (by_status, mix, tokens)

    registry = CollectorRegistry()
    registry.register(_Tenant())
    return generate_latest(registry)
