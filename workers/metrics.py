"""Prometheus metrics of the workers (``prometheus-client``), and the scrape the API serves at ``/metrics``.

Worker processes count and time into the metrics below. Celery's prefork pool runs many
processes, so with ``PROMETHEUS_MULTIPROC_DIR`` set (an empty directory shared by the workers
and the API on one host, wiped at deploy) every process writes its values there and
``scrape`` sums them (``prometheus_client.multiprocess``); without it only the scraping
process's own values are shown. The variable must be set before a worker starts.

Gauges of the present are read at scrape time instead: audits by status (one ``GROUP BY`` over
the ``(status, created_at)`` index), the Celery queue's depth (Redis ``LLEN``) and the
structured-output format negotiated with each LLM endpoint and model (``llm_formats``).

Metric                                     type       labels
claimaudit_audits                          gauge      status            stored audits now
claimaudit_queue_depth                     gauge      queue             messages waiting in Redis
claimaudit_audits_finished_total           counter    status            audits that ended (done|failed)
claimaudit_stage_duration_seconds          histogram  stage             wall time of each pipeline stage
claimaudit_verdicts_total                  counter    verdict           verdicts of finished audits
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
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import datetime
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

__all__ = [
    "STAGE_SECONDS",
    "BUNDLE_SECONDS",
    "AUDITS_FINISHED",
    "VERDICTS",
    "RUN_SECONDS",
    "RUNS_FINISHED",
    "WEBHOOK_FAILURES",
    "CANARIES",
    "observe_llm",
    "mark_process_dead",
    "scrape",
    "scrape_tenant",
]

_STAGE_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900)
_RUN_BUCKETS = (1, 5, 15, 30, 60, 120, 300, 900, 1800, 3600, 7200, 14400)

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
VERDICTS = Counter("claimaudit_verdicts", "Verdicts of finished audits, by kind.", ["verdict"])
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


#: ``(base_url, model, response_format, negotiated_at)`` rows (``db.llm_repository.response_formats``).
FormatRows = Sequence[tuple[str, str, str, datetime]]


class _PresentCollector(Collector):
    """Gauges read at scrape time: ``snapshot()`` → ({status: audits}, {queue: depth}), and
    ``formats()`` → the negotiated LLM formats."""

    def __init__(
        self,
        snapshot: Callable[[], tuple[Mapping[str, int], Mapping[str, int]]],
        formats: Callable[[], FormatRows] | None = None,
    ) -> None:
        self.snapshot = snapshot
        self.formats = formats

    def collect(self) -> Iterator[GaugeMetricFamily]:
        audits, queues = self.snapshot()
        by_status = GaugeMetricFamily("claimaudit_audits", "Stored audits by status.", labels=["status"])
        for status, n in sorted(audits.items()):
            by_status.add_metric([status], n)
        yield by_status
        depth = GaugeMetricFamily("claimaudit_queue_depth", "Messages waiting per queue.", labels=["queue"])
        for queue, n in sorted(queues.items()):
            depth.add_metric([queue], n)
        yield depth
        if self.formats is not None:
            negotiated = GaugeMetricFamily(
                "claimaudit_llm_response_format_negotiated_timestamp_seconds",
                "When the structured-output format an LLM endpoint and model accept was negotiated.",
                labels=["base_url", "model", "response_format"],
            )
            for base_url, model, fmt, at in self.formats():
                negotiated.add_metric([base_url, model, fmt], at.timestamp())
            yield negotiated


def scrape(
    snapshot: Callable[[], tuple[Mapping[str, int], Mapping[str, int]]],
    *,
    multiproc_dir: str | None,
    formats: Callable[[], FormatRows] | None = None,
) -> bytes:
    """The Prometheus text exposition: the workers' metrics (summed over ``multiproc_dir`` when
    given, else this process's own) and the present-state gauges of ``snapshot`` and ``formats``."""
    present = CollectorRegistry()
    present.register(_PresentCollector(snapshot, formats))
    if multiproc_dir:
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry, path=multiproc_dir)  # type: ignore[no-untyped-call]
        return generate_latest(registry) + generate_latest(present)
    from prometheus_client import REGISTRY

    return generate_latest(REGISTRY) + generate_latest(present)


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
