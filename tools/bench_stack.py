"""The queue side of ``tools/bench.py``: a private stack (database, queue, worker, API) per round.

Each round gets a database cloned from a migrated template (``CREATE DATABASE ... TEMPLATE``;
an empty embedding cache: a cold start), its own Celery queue on the shared Redis, a fresh
worker (empty decomposition cache, model loaded once at start) and a fresh API on a free port.
``close()`` stops the processes it started and drops the databases. CPU seconds per process
come from psutil (the worker's prefork children and Postgres's backends included).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import psutil
import sqlalchemy
from sqlalchemy.engine import make_url

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cli import processes, stack  # noqa: E402

BENCH_REDIS_DB = int(os.environ.get("CLAIMAUDIT_BENCH_REDIS_DB", "5"))


def _admin(server_url: str, sql: str) -> None:
    engine = sqlalchemy.create_engine(server_url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(sqlalchemy.text(sql))
    finally:
        engine.dispose()


def _tree_cpu(pid: int) -> float:
    """CPU seconds of ``pid`` and its live descendants, plus children it has reaped."""
    try:
        root = psutil.Process(pid)
        total = sum(root.cpu_times()[:4])
        for child in root.children(recursive=True):
            try:
                total += sum(child.cpu_times()[:2])
            except psutil.NoSuchProcess:
                continue
        return float(total)
    except psutil.NoSuchProcess:
        return 0.0


@dataclass
class BenchStack:
    """Postgres (the project's local cluster), Redis (shared, db ``BENCH_REDIS_DB``), and
    per-round app processes."""

    concurrency: int = 1
    env_extra: dict[str, str] = field(default_factory=dict)
    server_url: str = ""
    template: str = ""
    databases: list[str] = field(default_factory=list)
    procs: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    api_url: str = ""
    logs: Path = ROOT / ".claimaudit" / "bench"
    started_postgres: bool = False

    def setup(self) -> None:
        """Start or find Postgres and Redis; create and migrate the template database. A
        Postgres that the bench starts (the local cluster was down) is stopped by ``close``."""
        self.started_postgres = not os.environ.get("DATABASE_URL") and not stack.postgres_running()
        base = stack.ensure_postgres()
        self.server_url = make_url(base).set(database="postgres").render_as_string(hide_password=False)
        self.template = f"claimaudit_bench_{uuid.uuid4().hex[:8]}"
        _admin(self.server_url, f'CREATE DATABASE "{self.template}"')
        self.databases.append(self.template)
        stack.migrate(self._url(self.template))
        redis_url = stack.ensure_redis(db=BENCH_REDIS_DB)
        self.env = {
            **os.environ,
            "REDIS_URL": redis_url,
            "PYTHONUNBUFFERED": "1",
            "OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS", "1"),
            # the API binds to loopback; the bench measures the engine, not keys or request limits
            "AUTH": "disabled",
            "RATE_LIMIT_PER_SECOND": "0",
            "AUDITS_PER_MINUTE": "0",
            "TENANT_RATE_LIMIT_PER_SECOND": "0",
            "TENANT_AUDITS_PER_MINUTE": "0",
            # nor the backlog bounds: its probe waits behind the whole workload on purpose
            # (backlog_probe_ms); `make bench-load` sets the bounds it measures (env_extra)
            "MAX_QUEUED_AUDITS": "0",
            "MAX_QUEUED_AUDITS_PER_TENANT": "0",
            "MAX_BACKLOG_AGE_S": "0",
            **self.env_extra,
        }
        self.logs.mkdir(parents=True, exist_ok=True)

    def _url(self, name: str) -> str:
        return make_url(self.server_url).set(database=name).render_as_string(hide_password=False)

    def start_round(self) -> None:
        """A fresh database (cold cache), queue, worker and API; waits until both answer."""
        self.stop_processes()
        name = f"{self.template}_{len(self.databases)}"
        _admin(self.server_url, f'CREATE DATABASE "{name}" TEMPLATE "{self.template}"')
        self.databases.append(name)
        self.env["DATABASE_URL"] = self._url(name)
        self.env["CELERY_QUEUE"] = f"claimaudit-bench-{uuid.uuid4().hex[:8]}"
        port = processes.free_port()
        self.api_url = f"http://127.0.0.1:{port}"
        host = f"bench-{port}@{socket.gethostname()}"
        celery, uvicorn = (
            str(Path(sys.executable).parent / "celery"),
            str(Path(sys.executable).parent / "uvicorn"),
        )
        worker = [celery, "-A", "workers.celery_app", "worker", "-E", "--loglevel", "WARNING"]
        worker += ["--concurrency", str(self.concurrency), "--prefetch-multiplier", "1", "--hostname", host]
        self._spawn("worker", worker)
        self._spawn(
            "api",
            [uvicorn, "api.main:app", "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
        )
        deadline = time.monotonic() + 240
        while not (stack.api_healthy(self.api_url) and self._workers_ready()):
            for name_, proc in self.procs.items():
                if proc.poll() is not None:
                    raise RuntimeError(f"{name_} exited; see {self.logs / (name_ + '.log')}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"stack not ready after 240 s; see {self.logs}")
            time.sleep(0.5)

    def _workers_ready(self) -> bool:
        import httpx

        try:
            body = httpx.get(f"{self.api_url}/healthz", timeout=5).json()
        except (httpx.HTTPError, ValueError):
            return False
        return bool(body.get("workers"))

    def _spawn(self, name: str, cmd: list[str]) -> None:
        with (self.logs / f"{name}.log").open("ab") as log:
            self.procs[name] = subprocess.Popen(
                cmd,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                env=self.env,
                cwd=str(ROOT),
                start_new_session=True,
            )

    def cpu_seconds(self) -> dict[str, float]:
        """CPU seconds so far of worker, API and Postgres (postmaster and backends)."""
        out = {name: _tree_cpu(proc.pid) for name, proc in self.procs.items()}
        pidfile = stack.default_pg_dir() / "postmaster.pid"
        try:
            out["postgres"] = _tree_cpu(int(pidfile.read_text().split()[0]))
        except (OSError, ValueError, IndexError):  # DATABASE_URL points at a server we cannot see
            out["postgres"] = float("nan")
        out["cli"] = float(sum(psutil.Process().cpu_times()[:2]))
        return out

    def rss_mb(self) -> dict[str, float]:
        """Resident memory now, in MB (10^6 bytes), of the largest single process of the worker
        (its pool children) and of the API: what a per-process ceiling bounds."""
        out = {}
        for name, proc in self.procs.items():
            try:
                root = psutil.Process(proc.pid)
                tree = [root, *root.children(recursive=True)]
                out[name] = max(p.memory_info().rss for p in tree) / 1e6
            except psutil.Error:  # ended between the look and the read
                out[name] = float("nan")
        return out

    def stop_processes(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.procs.values():
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        self.procs.clear()

    def close(self) -> None:
        """Stop the processes and drop every database this bench created."""
        self.stop_processes()
        for name in reversed(self.databases):
            _admin(self.server_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        self.databases.clear()
        if self.started_postgres:
            stack.stop_postgres()
