"""The API's memory while it answers many results: RSS of one ``uvicorn`` process before, at the
peak of and after fetching N done audits (default 2,000) the ways the clients do.

    .venv/bin/python tools/api_memory.py --audits 2000 [--wice /work/shared/data/wice/claims_dev.jsonl]

Seeds a private Postgres (``tests/faults/harness.py``): the examples/ audits (or, with
``--wice``, 8 WiCE dev pairs: the claim as the response, its evidence page as the reference,
about 100 claims an audit) run once through the four stage services in this process, then their
rows (documents, claims with embeddings,
verdicts, evidence, scores) are copied under new audit ids until there are N, all in one run of
N items (suite ``memory``). Then, against a fresh API process:

- ``documents``: ``POST /audits/documents`` 100 ids at a time (what ``claimaudit batch`` and the
  Python client do to fetch results);
- ``listing``: ``GET /audits?limit=500`` page by page;
- ``run_items``: ``GET /runs/{id}?limit=500`` page by page;
- ``run_stream``: ``GET /runs/{id}/items?documents=true``, every item with its document in one
  streamed answer, read line by line (``received_mb`` -1: the revision has no such route).

Prints one JSON line: per way, the RSS (MB) before, the peak (sampled every 50 ms) and after,
the bytes received, and the SHA-256 of the documents in item order without their ids and
timestamps (``documents_sha256``: equal before and after a change of how the answer is built
means the same content; ``run_stream_sha256`` the same of the streamed run items' documents).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx  # noqa: E402
import psutil  # noqa: E402

from tests.faults import harness  # noqa: E402


def _copy_audit(session: Any, src: uuid.UUID) -> uuid.UUID:
    """Copy one audit and its result rows under a new id (same content, new row ids)."""
    from sqlalchemy import insert, select

    from db.models import Audit, ClaimRow, Document, EvidenceRow, ScoreRow, VerdictRow

    def rows(model: Any, **where: Any) -> list[dict[str, Any]]:
        t = model.__table__
        stmt = select(t).where(*[t.c[k] == v for k, v in where.items()])
        return [dict(r._mapping) for r in session.execute(stmt)]

    new = uuid.uuid4()
    audit = rows(Audit, id=src)[0] | {"id": new, "idempotency_key": None, "request_sha256": new.hex}
    session.execute(insert(Audit.__table__), [audit])
    ids: dict[str, dict[int, int]] = {}
    for name, model, refs in (
        ("doc", Document, {}),
        ("claim", ClaimRow, {"document_id": "doc"}),
        ("verdict", VerdictRow, {"claim_id": "claim"}),
    ):
        old = rows(model, audit_id=src)
        copies = [
            {k: v for k, v in r.items() if k != "id"}
            | {"audit_id": new}
            | {col: ids[of][r[col]] for col, of in refs.items()}
            for r in old
        ]
        t = model.__table__
        got = session.execute(insert(t).returning(t.c.id, sort_by_parameter_order=True), copies).all()
        ids[name] = {r["id"]: g.id for r, g in zip(old, got, strict=True)}
    evidence = [
        r
        | {
            "audit_id": new,
            "verdict_id": ids["verdict"][r["verdict_id"]],
            "reference_claim_id": ids["claim"][r["reference_claim_id"]],
        }
        for r in rows(EvidenceRow, audit_id=src)
    ]
    if evidence:
        session.execute(insert(EvidenceRow.__table__), evidence)
    session.execute(insert(ScoreRow.__table__), [r | {"audit_id": new} for r in rows(ScoreRow, audit_id=src)])
    return new


def _wice_bodies(path: Path, n: int) -> list[dict[str, Any]]:
    lines = [json.loads(line) for line in path.read_text().splitlines()[:n]]
    return [{"response": d["claim"], "references": [" ".join(d["evidence"])]} for d in lines]


def seed(session_factory: Any, n: int, wice: Path | None) -> tuple[list[uuid.UUID], uuid.UUID]:
    """N done audits (copies of the source audits) and a run of them; returns their ids in item
    order and the run's id."""
    from sqlalchemy import insert

    from db.engine import session_scope
    from db.run_models import Run, RunItem

    bodies = harness.workload(4) if wice is None else _wice_bodies(wice, 8)
    sources = [harness.run_in_process(session_factory, body) for body in bodies]
    out: list[uuid.UUID] = []
    for start in range(0, n, 100):
        with session_scope(session_factory) as s:
            out += [_copy_audit(s, sources[i % len(sources)]) for i in range(start, min(n, start + 100))]
    run_id = uuid.uuid4()
    with session_scope(session_factory) as s:
        s.execute(
            insert(Run.__table__), [{"id": run_id, "suite": "memory", "label": "seeded", "source": "api"}]
        )
        items = [
            {
                "run_id": run_id,
                "item_id": f"item-{i:05d}",
                "audit_id": a,
                "request_sha256": a.hex,
                "position": i,
            }
            for i, a in enumerate(out)
        ]
        s.execute(insert(RunItem.__table__), items)
    return out, run_id


class Peak:
    """The largest RSS (MB) of a process, sampled every 50 ms from a thread."""

    def __init__(self, pid: int) -> None:
        self.proc = psutil.Process(pid)
        self.peak = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def rss(self) -> float:
        return float(self.proc.memory_info().rss) / 1e6

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, self.rss())
            time.sleep(0.05)

    def __enter__(self) -> Peak:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, self.rss())


#: Keys of a document that differ between two seedings of the same content.
VOLATILE = ("id", "created_at", "finished_at", "poll_url")


def _content(doc: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in doc.items() if k not in VOLATILE}


def _documents(client: httpx.Client, ids: list[uuid.UUID], digest: Any) -> int:
    received = 0
    todo = [str(i) for i in ids]
    while todo:
        chunk, todo = todo[:100], todo[100:]
        resp = client.post("/audits/documents", json={"ids": chunk})
        resp.raise_for_status()
        received += len(resp.content)
        data = resp.json()
        for doc in data["items"]:
            digest.update(json.dumps(_content(doc), sort_keys=True).encode())
        todo = [str(i) for i in data["truncated"]] + todo
    return received


def _run_stream(client: httpx.Client, run_id: uuid.UUID, digest: Any) -> int:
    """``GET /runs/{id}/items?documents=true`` read line by line; -1 when the API has no such route."""
    received = 0
    with client.stream("GET", f"/runs/{run_id}/items", params={"documents": "true"}) as resp:
        if resp.status_code == 404:
            return -1
        resp.raise_for_status()
        for line in resp.iter_lines():
            received += len(line.encode()) + 1
            digest.update(json.dumps(_content(json.loads(line)["document"]), sort_keys=True).encode())
    return received


def _pages(client: httpx.Client, path: str, key: str) -> int:
    received, offset = 0, 0
    while True:
        resp = client.get(path, params={"limit": 500, "offset": offset})
        resp.raise_for_status()
        received += len(resp.content)
        data = resp.json()
        page = data[key] if key == "items" else data[key]["items"]
        if not page:
            return received
        offset += len(page)


def _start_api(env: dict[str, str], cwd: Path, log: Path) -> tuple[harness.Process, str]:
    """``uvicorn api.main:app`` of the code in ``cwd`` on a free port, once it answers."""
    port = harness.free_port()
    cmd = [sys.executable, "-m", "uvicorn", "api.main:app", "--port", str(port), "--log-level", "warning"]
    with log.open("wb") as out:
        proc = subprocess.Popen(
            cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    api, base = harness.Process(proc, log), f"http://127.0.0.1:{port}"
    harness._wait("API", lambda: _answers(api, base), 60)
    return api, base


def _answers(api: harness.Process, base: str) -> bool:
    if api.proc.poll() is not None:
        raise RuntimeError(f"API exited:\n{api.output()[-2000:]}")
    try:
        return httpx.get(base + "/openapi.json", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False


def _fetch_all(
    env: dict[str, str], cwd: Path, headers: dict[str, str], ids: list[uuid.UUID], run_id: uuid.UUID
) -> dict[str, Any]:
    """Each way of fetching the results against a fresh API process of the code in ``cwd``."""
    api, base = _start_api(env, cwd, Path(tempfile.mkdtemp()) / "api.log")
    out: dict[str, Any] = {}
    digest, streamed = hashlib.sha256(), hashlib.sha256()
    ways = {
        "documents": lambda c: _documents(c, ids, digest),
        "listing": lambda c: _pages(c, "/audits", "items"),
        "run_items": lambda c: _pages(c, f"/runs/{run_id}", "audits"),
        "run_stream": lambda c: _run_stream(c, run_id, streamed),
    }
    try:
        with httpx.Client(base_url=base, headers=headers, timeout=300) as client:
            client.get("/audits", params={"limit": 1}).raise_for_status()  # warm: imports, pools
            for name, fetch in ways.items():
                with Peak(api.proc.pid) as peak:
                    before = peak.rss()
                    received = fetch(client)
                time.sleep(2)
                out[name] = {
                    "rss_mb_before": round(before),
                    "rss_mb_peak": round(peak.peak),
                    "rss_mb_after": round(peak.rss()),
                    "received_mb": round(received / 1e6, 1),
                }
    finally:
        api.stop()
    out["documents_sha256"] = digest.hexdigest()
    if out["run_stream"]["received_mb"] >= 0:
        out["run_stream_sha256"] = streamed.hexdigest()
    return out


def _checkout(rev: str) -> Path:
    """The tree of git revision ``rev`` in a new temporary folder."""
    where = Path(tempfile.mkdtemp(prefix="claimaudit-rev-"))
    archive = subprocess.run(["git", "archive", rev], cwd=harness.ROOT, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(where)], input=archive.stdout, check=True)
    return where


def measure(args: argparse.Namespace) -> dict[str, Any]:
    from db.engine import make_engine, make_session_factory

    pg, redis = harness.start_postgres(), harness.start_redis()
    try:
        url = pg.create_database("memory")
        harness.migrate(url)
        headers = harness.api_headers(url)
        engine = make_engine(url)
        t0 = time.monotonic()
        ids, run_id = seed(make_session_factory(engine), args.audits, args.wice)
        seeded_s = time.monotonic() - t0
        engine.dispose()
        env = {**os.environ, "DATABASE_URL": url, "REDIS_URL": redis.url}
        out: dict[str, Any] = {
            "audits": len(ids),
            "source": "examples" if args.wice is None else "wice",
            "seed_s": round(seeded_s, 1),
        }
        if args.before:
            out["before"] = {
                "rev": args.before,
                **_fetch_all(env, _checkout(args.before), headers, ids, run_id),
            }
        out["this_tree"] = _fetch_all(env, harness.ROOT, headers, ids, run_id)
        return out
    finally:
        redis.kill()
        pg.destroy()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--audits", type=int, default=2000)
    parser.add_argument("--wice", type=Path, help="claims_dev.jsonl of WiCE: larger audits")
    parser.add_argument("--before", metavar="REV", help="measure the API of this git revision")
    args = parser.parse_args()
    print(json.dumps(measure(args)))


if __name__ == "__main__":
    main()
