"""The local stack's Redis: ``REDIS_URL`` when set, else one on 6379, else a ``redis-server``
started here (``ensure_redis``, see ``cli.stack``).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import time
from pathlib import Path

from cli.paths import state_dir
from cli.processes import StackError, hide_password, read_pid, run_as, terminate

DEFAULT_REDIS_PORT = int(os.environ.get("CLAIMAUDIT_REDIS_PORT", "6390"))
"""Port for a redis-server we start ourselves when none answers on 6379."""

DEFAULT_REDIS_DB = int(os.environ.get("CLAIMAUDIT_REDIS_DB", "0"))
"""Redis database index the local stack uses as Celery broker (on a shared Redis, pick a free one)."""


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


def redis_pidfile(port: int) -> Path:
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
    pidfile = redis_pidfile(port)
    pidfile.parent.mkdir(parents=True, exist_ok=True)
    logfile = state_dir() / "logs" / f"redis-{port}.log"
    logfile.parent.mkdir(parents=True, exist_ok=True)
    proc = run_as(
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
    pidfile = redis_pidfile(port)
    pid = read_pid(pidfile)
    if pid is None:
        return False
    terminate(pid, timeout=10)
    pidfile.unlink(missing_ok=True)
    return True
