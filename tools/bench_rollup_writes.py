"""Write cost of the ``reference_verdicts`` rollup triggers (migration ``0019_reference_rollup``):
a bundle's verdict write (``db.verdict_rows.replace_verdicts_of``) of ``--audits`` audits of a
tenant, with the triggers on and off (``ALTER TABLE evidence DISABLE TRIGGER`` inside the
transaction), every write rolled back. Two writes per round and mode: a rewrite (the audits'
verdicts and evidence replaced by the same rows) and a first write (after deleting them).
Rounds alternate which mode goes first; the first round is not counted. Prints the median and
quartiles in ms per bundle.

Run it on a loaded store, e.g. the 1M store of ``tools/bench_store.py`` (superuser URL)::

    .venv/bin/python tools/bench_rollup_writes.py \\
        --database-url postgresql+psycopg://postgres@127.0.0.1:54370/bench_store_1000000
"""

from __future__ import annotations

import argparse
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import numpy as np
from sqlalchemy import text

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from db.engine import make_engine, make_session_factory  # noqa: E402
from db.verdict_rows import NewVerdict, replace_verdicts_of  # noqa: E402

TRIGGERS = ("insert", "update", "delete")
_VERDICTS = text(
    "SELECT v.audit_id, v.claim_id, v.verdict, v.reason, v.change, v.confidence, "
    "e.reference_claim_id, e.similarity FROM verdicts v JOIN evidence e ON e.verdict_id = v.id "
    "WHERE v.audit_id = ANY(:a) ORDER BY v.id, e.rank"
)


def _stored(session: Any, ids: list[uuid.UUID]) -> dict[uuid.UUID, list[NewVerdict]]:
    """The audits' verdicts with their evidence, as ``replace_verdicts_of`` takes them."""
    by_claim: dict[int, tuple[uuid.UUID, list[Any], list[tuple[int, float]]]] = {}
    for audit, claim, verdict, reason, change, confidence, ref, sim in session.execute(_VERDICTS, {"a": ids}):
        by_claim.setdefault(claim, (audit, [verdict, reason, change, confidence], []))[2].append((ref, sim))
    out: dict[uuid.UUID, list[NewVerdict]] = {}
    for claim, (audit, (verdict, reason, change, confidence), evidence) in by_claim.items():
        out.setdefault(audit, []).append(NewVerdict(claim, verdict, reason, change, evidence, confidence))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database-url", required=True, help="a superuser URL of a store with verdicts")
    parser.add_argument("--tenant", default="acme")
    parser.add_argument("--audits", type=int, default=64, help="audits per bundle (default 64)")
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args(argv)
    factory = make_session_factory(make_engine(args.database_url))
    with factory() as s:
        audits = (
            s.execute(
                text("SELECT id FROM audits WHERE tenant_id = :t ORDER BY created_at DESC LIMIT :n"),
                {"t": args.tenant, "n": args.audits * (args.rounds + 1)},
            )
            .scalars()
            .all()
        )
    times: dict[tuple[bool, str], list[float]] = {}
    for r in range(args.rounds + 1):
        ids = list(audits[r * args.audits : (r + 1) * args.audits])
        for on in (True, False) if r % 2 else (False, True):
            with factory() as s:
                if not on:
                    for t in TRIGGERS:
                        s.execute(
                            text(f"ALTER TABLE evidence DISABLE TRIGGER trg_evidence_reference_rollup_{t}")
                        )
                bundle = _stored(s, ids)
                started = time.perf_counter()
                replace_verdicts_of(s, bundle)
                rewrite = (time.perf_counter() - started) * 1000
                s.execute(text("DELETE FROM verdicts WHERE audit_id = ANY(:a)"), {"a": ids})
                started = time.perf_counter()
                replace_verdicts_of(s, bundle)
                first = (time.perf_counter() - started) * 1000
                s.rollback()
            if r > 0:
                times.setdefault((on, "rewrite"), []).append(rewrite)
                times.setdefault((on, "first write"), []).append(first)
    for (on, kind), values in sorted(times.items(), key=lambda kv: (not kv[0][0], kv[0][1])):
        q25, q50, q75 = np.percentile(values, [25, 50, 75])
        print(
            f"triggers {'on ' if on else 'off'} {kind:11} ms per {args.audits}-audit bundle: "
            f"median {q50:.1f} (quartiles {q25:.1f}-{q75:.1f})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
