"""Bulk load of ``tools/bench_store.py``: the rows of a ``bench_store_data.Layout`` into a migrated
claimaudit database with ``COPY`` (binary for ``claims``, whose vectors are most of the bytes).

Triggers and foreign-key checks are off while loading (``session_replication_role = replica``,
superuser only): the rows carry their ``tenant_id`` (which the tenant triggers would copy from the
audit) and are consistent by construction; the rollup of ``reference_verdicts``, which triggers
keep, is rebuilt once at the end (``claimaudit_reference_rollup_rebuild()``).
"""

from __future__ import annotations

import hashlib
import time
import uuid
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import numpy as np
import psycopg
from psycopg.types.json import Jsonb

from tools.bench_store_data import (
    CLAIMS_PER_AUDIT,
    DIM,
    ITEMS_PER_RUN,
    MODEL,
    MODELS,
    REFERENCE_CLAIMS,
    REFERENCES,
    RESPONSE_CLAIMS,
    RUNS_PER_SUITE,
    SUITES,
    TENANTS,
    VERDICT_SHARES,
    Layout,
)

CLAIM_COLUMNS = (
    "id, audit_id, tenant_id, document_id, role, position, text, char_start, char_end, kind, "
    "duplicates, ambiguous, embedding, embedding_model, embedding_dim"
)
CLAIM_TYPES = [
    "int8", "uuid", "text", "int8", "varchar", "int4", "text", "int4", "int4", "varchar",
    "int4", "bool", "vector", "text", "int4",
]  # fmt: skip


def _spans(texts: list[str]) -> tuple[str, list[tuple[int, int]]]:
    """The document of ``texts`` joined by one space, and each text's span in it."""
    spans, at = [], 0
    for t in texts:
        spans.append((at, at + len(t)))
        at += len(t) + 1
    return " ".join(texts), spans


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _copy(conn: psycopg.Connection, table: str, columns: str, rows: Iterator[tuple[Any, ...]]) -> int:
    count = 0
    with conn.cursor() as cur, cur.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)
            count += 1
    return count


def _audit_rows(lay: Layout) -> Iterator[tuple[Any, ...]]:
    for a in range(lay.audits):
        created = lay.created[a]
        meta = {"model": MODELS[lay.model_of[a]], "prompt_version": f"v{1 + a % 3}"}
        finished = created + timedelta(seconds=4 + (a * 7919) % 50)
        yield (
            lay.audit_ids[a], TENANTS[lay.tenant_of[a]][0], "done", Jsonb(meta), "0" * 64,
            created, created, finished,
        )  # fmt: skip


def _doc_id(a: int, role_slot: int) -> int:
    """Document id of audit ``a``: slot 0 the response, 1.. the references."""
    return a * (1 + REFERENCES) + role_slot + 1


def _claim_id(a: int, slot: int) -> int:
    return a * CLAIMS_PER_AUDIT + slot + 1


def _documents(lay: Layout, texts: list[str]) -> Iterator[tuple[Any, ...]]:
    for a in range(lay.audits):
        tenant = TENANTS[lay.tenant_of[a]][0]
        base = a * CLAIMS_PER_AUDIT
        doc, _ = _spans([texts[p] for p in lay.parents[base : base + RESPONSE_CLAIMS]])
        yield _doc_id(a, 0), lay.audit_ids[a], tenant, "response", 0, doc, _sha(doc), None, None, None
        for j in range(REFERENCES):
            src = int(lay.source_of[a, j])
            doc, _ = _spans([texts[p] for p in lay.source_parents[src]])
            url = f"https://docs.example.com/{tenant}/{src}"
            yield (
                _doc_id(a, 1 + j), lay.audit_ids[a], tenant, "reference", j, doc, _sha(doc),
                f"src-{src}", url, f"Source {src}",
            )  # fmt: skip


def _claim_slots(lay: Layout, texts: list[str], a: int) -> Iterator[tuple[int, str, int, int, str, int, int]]:
    """``(slot, role, document id, position, text, start, end)`` of audit ``a``'s claims."""
    base = a * CLAIMS_PER_AUDIT
    groups = [("response", 0, list(lay.parents[base : base + RESPONSE_CLAIMS]))]
    for j in range(REFERENCES):
        groups.append(("reference", 1 + j, list(lay.source_parents[int(lay.source_of[a, j])])))
    slot = 0
    for role, doc_slot, parents in groups:
        claim_texts = [texts[p] for p in parents]
        _, spans = _spans(claim_texts)
        for pos, (t, (s, e)) in enumerate(zip(claim_texts, spans, strict=True)):
            yield slot, role, _doc_id(a, doc_slot), pos, t, s, e
            slot += 1


def copy_claims(conn: psycopg.Connection, lay: Layout, texts: list[str], chunks: Iterator[np.ndarray]) -> int:
    """Binary ``COPY`` of every claim row with its vector (``chunks``: the vectors in row order)."""
    from pgvector.psycopg import register_vector

    register_vector(conn)
    count, offset = 0, 0
    with conn.cursor() as cur, cur.copy(f"COPY claims ({CLAIM_COLUMNS}) FROM STDIN (FORMAT BINARY)") as copy:
        copy.set_types(CLAIM_TYPES)
        for vectors in chunks:
            first, last = offset // CLAIMS_PER_AUDIT, (offset + len(vectors)) // CLAIMS_PER_AUDIT
            for a in range(first, last):
                tenant = TENANTS[lay.tenant_of[a]][0]
                for slot, role, doc, pos, t, s, e in _claim_slots(lay, texts, a):
                    vec = vectors[a * CLAIMS_PER_AUDIT + slot - offset]
                    copy.write_row(
                        (_claim_id(a, slot), lay.audit_ids[a], tenant, doc, role, pos, t, s, e,
                         "material", 0, False, vec, MODEL, DIM)
                    )  # fmt: skip
                    count += 1
            offset += len(vectors)
            print(f"  claims: {count} rows", flush=True)
    return count


def _verdict_rows(lay: Layout, sims: np.ndarray, best: np.ndarray) -> Iterator[tuple[Any, ...]]:
    """Verdicts and evidence: one per response claim; the evidence is the audit's reference claim
    nearest to it (``best``, its cosine ``sims``: both ``(audits, 4)``)."""
    for a in range(lay.audits):
        tenant = TENANTS[lay.tenant_of[a]][0]
        for slot in range(RESPONSE_CLAIMS):
            verdict = VERDICT_SHARES[lay.verdict_of[a, slot]][0]
            ref_slot = int(best[a, slot])
            ref = (ref_slot - RESPONSE_CLAIMS) // REFERENCE_CLAIMS
            conflict = verdict in ("contradicted", "qualification_dropped")
            reason = f"conflicts with reference {ref}, chars 0–12" if conflict else "nearest reference claim"
            vid = a * RESPONSE_CLAIMS + slot + 1
            confidence = round(0.5 + 0.5 * ((a * 31 + slot * 17) % 100) / 100, 3)
            yield (vid, lay.audit_ids[a], tenant, _claim_id(a, slot), verdict, reason,
                   "1998 → 1989" if conflict else None, confidence,
                   _claim_id(a, ref_slot), float(sims[a, slot]))  # fmt: skip


def copy_verdicts(conn: psycopg.Connection, lay: Layout, sims: np.ndarray, best: np.ndarray) -> None:
    rows = list(_verdict_rows(lay, sims, best))
    _copy(
        conn, "verdicts", "id, audit_id, tenant_id, claim_id, verdict, reason, change, confidence",
        (r[:8] for r in rows),
    )  # fmt: skip
    _copy(
        conn, "evidence", "verdict_id, rank, audit_id, tenant_id, reference_claim_id, similarity",
        ((r[0], 0, r[1], r[2], r[8], r[9]) for r in rows),
    )  # fmt: skip


def _score_rows(lay: Layout) -> Iterator[tuple[Any, ...]]:
    names = [v for v, _ in VERDICT_SHARES]
    for a in range(lay.audits):
        counts = np.bincount(lay.verdict_of[a], minlength=len(names))
        ok = counts[0] + counts[1]
        precision = ok / RESPONSE_CLAIMS
        recall = min(1.0, ok / (REFERENCES * REFERENCE_CLAIMS) * 1.5)
        f1 = 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)
        yield (
            lay.audit_ids[a], TENANTS[lay.tenant_of[a]][0], precision, recall, f1, RESPONSE_CLAIMS,
            REFERENCES * REFERENCE_CLAIMS, *(int(c) for c in counts), 0.5, MODEL, lay.created[a],
        )  # fmt: skip


def copy_scores(conn: psycopg.Connection, lay: Layout) -> None:
    _copy(
        conn, "scores",
        "audit_id, tenant_id, claim_precision, claim_recall, claim_f1, response_claims, reference_claims, "
        "supported, inferred, contradicted, qualification_dropped, unsupported, outside_scope, threshold, "
        "embedding_model, created_at",
        _score_rows(lay),
    )  # fmt: skip


def copy_runs(conn: psycopg.Connection, lay: Layout) -> int:
    """Per tenant and suite ``RUNS_PER_SUITE`` finished runs of ``ITEMS_PER_RUN`` items each
    (fewer for a small tenant), the runs of both suites alternating over the tenant's newest
    audits, the same item ids in every run, each audit an item of one run; and a recorded
    verdict change for about one item in twenty."""
    runs, items, changes = [], [], []
    blocks = len(SUITES) * RUNS_PER_SUITE
    for t, (tenant, _) in enumerate(TENANTS):
        own = np.flatnonzero(lay.tenant_of == t)
        per = min(ITEMS_PER_RUN, len(own) // (2 * blocks))  # at most half the tenant's audits
        if per == 0:
            continue
        for si, suite in enumerate(SUITES):
            previous = None
            for k in range(RUNS_PER_SUITE):
                start = len(own) - (blocks - (k * len(SUITES) + si)) * per
                picks = own[start : start + per]  # an audit is an item of one run only
                rid = uuid.uuid5(uuid.NAMESPACE_URL, f"{tenant}/{suite}/{k}")
                created = lay.created[int(picks[0])]
                finished = lay.created[int(picks[-1])] + timedelta(minutes=1)
                runs.append((rid, tenant, suite, f"run-{k:03d}", "bench", created, finished, finished))
                for i, a in enumerate(picks):
                    items.append((rid, f"item-{i:04d}", tenant, lay.audit_ids[int(a)], "0" * 64, i))
                    if previous is not None and i % 20 == k % 20:
                        changes.append((rid, f"item-{i:04d}", i % RESPONSE_CLAIMS, tenant, previous,
                                        i % RESPONSE_CLAIMS, 0.93))  # fmt: skip
                previous = rid
    _copy(conn, "runs", "id, tenant_id, suite, label, source, created_at, sealed_at, finished_at", iter(runs))
    _copy(conn, "run_items", "run_id, item_id, tenant_id, audit_id, request_sha256, position", iter(items))
    _copy(
        conn, "run_claim_changes",
        "run_id, item_id, position, tenant_id, previous_run_id, previous_position, similarity", iter(changes),
    )  # fmt: skip
    return len(runs)


def nearest_references(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per audit and response claim: the cosine to, and the slot of, the audit's nearest
    reference claim (``vectors``: ``(audits * 10, 384)`` in row order)."""
    v = vectors.reshape(-1, CLAIMS_PER_AUDIT, DIM)
    sims = np.einsum("aid,ajd->aij", v[:, :RESPONSE_CLAIMS], v[:, RESPONSE_CLAIMS:])
    best = sims.argmax(axis=2)
    return np.take_along_axis(sims, best[..., None], axis=2)[..., 0], best + RESPONSE_CLAIMS


def load(url: str, lay: Layout, texts: list[str], vectors: np.ndarray) -> dict[str, float]:
    """Every row of ``lay`` into the database at ``url`` (psycopg URL of a superuser); the
    seconds of each step."""
    took: dict[str, float] = {}
    with psycopg.connect(url) as conn:
        conn.execute("SET session_replication_role = replica")
        conn.execute("SET synchronous_commit = off")
        for t, _ in TENANTS:
            conn.execute("INSERT INTO tenants (id) VALUES (%s) ON CONFLICT DO NOTHING", (t,))
        steps: list[tuple[str, Any]] = [
            ("audits", lambda: _copy(
                conn, "audits",
                "id, tenant_id, status, metadata, request_sha256, created_at, enqueued_at, finished_at",
                _audit_rows(lay))),
            ("documents", lambda: _copy(
                conn, "documents",
                "id, audit_id, tenant_id, role, position, text, sha256, source_id, source_url, source_title",
                _documents(lay, texts))),
            ("claims", lambda: copy_claims(
                conn, lay, texts, (vectors[i : i + 100_000] for i in range(0, len(vectors), 100_000)))),
            ("verdicts+evidence", lambda: copy_verdicts(conn, lay, *nearest_references(vectors))),
            ("scores", lambda: copy_scores(conn, lay)),
            ("runs", lambda: copy_runs(conn, lay)),
            # the triggers that keep it are off while loading (migration 0019_reference_rollup)
            ("reference rollup", lambda: conn.execute("SELECT claimaudit_reference_rollup_rebuild()")),
        ]  # fmt: skip
        for name, step in steps:
            started = time.perf_counter()
            step()
            took[name] = time.perf_counter() - started
            print(f"loaded {name} in {took[name]:.0f} s", flush=True)
        for table in ("documents", "claims", "verdicts"):
            conn.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))"
            )
        conn.commit()
    return took
