"""Redis, a throw-away PostgreSQL cluster and daphne processes on them, on 127.0.0.1 only.

Plain context managers, so that the scale-out test (conftest.py) and the scale-out benchmark
(bench/fanout.py --processes 2) start exactly the same deployment.  Each listens on a free
port in a temporary directory and is torn down on exit, also when the body fails.  A missing
binary raises ``Unavailable`` (the tests turn it into a skip, the bench into a message).
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from tests.e2e.conftest import ROOT, Daphne

START_TIMEOUT = 30  # seconds; every wait polls, none sleeps a fixed time


class Unavailable(RuntimeError):
    """A server this deployment needs is not installed here."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until(ready, what: str, process: subprocess.Popen | None = None, log: Path | None = None):
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"{what} exited during start-up (code {process.returncode})" + _tail(log))
        if ready():
            return
        time.sleep(0.05)
    raise RuntimeError(f"{what} was not ready within {START_TIMEOUT} s" + _tail(log))


def _tail(log: Path | None) -> str:
    if log is None or not log.exists():
        return ""
    return "\n--- " + str(log) + " ---\n" + log.read_text(errors="replace")[-3000:]


def stop_process(process: subprocess.Popen | None) -> None:
    if process is None or process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


# --- Redis --------------------------------------------------------------------------------------

def redis_answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@dataclass
class Redis:
    url: str
    process: subprocess.Popen


@contextlib.contextmanager
def redis_server():
    """redis-server without persistence; yields a ``Redis`` (its URL and process)."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise Unavailable("redis-server is not installed (apt-get install redis-server; .ci/run does)")
    workdir = Path(tempfile.mkdtemp(prefix="mafiagames-redis-"))
    port = free_port()
    log = workdir / "redis.log"
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--dir", str(workdir), "--logfile", str(log)],
        cwd=workdir, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        wait_until(lambda: redis_answers(port), "redis-server", process, log)
        yield Redis(f"redis://127.0.0.1:{port}/0", process)
    finally:
        stop_process(process)
        shutil.rmtree(workdir, ignore_errors=True)


# --- PostgreSQL ---------------------------------------------------------------------------------

def postgres_bin() -> Path | None:
    """The newest Debian PostgreSQL server binaries (/usr/lib/postgresql/<major>/bin), else PATH."""
    needed = ("initdb", "postgres", "pg_ctl", "pg_isready")
    dirs = sorted(glob.glob("/usr/lib/postgresql/*/bin"),
                  key=lambda d: int(Path(d).parent.name) if Path(d).parent.name.isdigit() else 0)
    found = shutil.which("initdb")
    if found:
        dirs.insert(0, str(Path(found).resolve().parent))
    for directory in reversed(dirs):
        if all(os.access(Path(directory) / name, os.X_OK) for name in needed):
            return Path(directory)
    return None


@dataclass
class Postgres:
    bin: Path
    workdir: Path
    port: int
    user: str
    password: str
    as_owner: list[str]  # command prefix that runs a program as the cluster's owner
    process: subprocess.Popen | None = None

    @property
    def data(self) -> Path:
        return self.workdir / "data"

    @property
    def log(self) -> Path:
        return self.workdir / "postgres.log"

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        done = subprocess.run([*self.as_owner, *args], capture_output=True, text=True, cwd=self.workdir, check=False)
        if check and done.returncode:
            raise RuntimeError(f"{' '.join(args)} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
        return done

    def url(self, database: str) -> str:
        return (f"postgres://{quote(self.user, safe='')}:{quote(self.password, safe='')}"
                f"@127.0.0.1:{self.port}/{database}")

    def ready(self) -> bool:
        probe = subprocess.run([str(self.bin / "pg_isready"), "-q", "-h", "127.0.0.1", "-p", str(self.port),
                                "-U", self.user, "-d", "postgres", "-t", "1"], check=False)
        return probe.returncode == 0

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop", check=False)
        stop_process(self.process)


@contextlib.contextmanager
def postgres_server(database: str = "mafiagames"):
    """A fresh cluster with an empty ``database``, owned by the ``postgres`` user when we are root
    (initdb refuses root); yields the ``Postgres``."""
    bindir = postgres_bin()
    if bindir is None:
        raise Unavailable("PostgreSQL server binaries are not installed (apt-get install postgresql; .ci/run does)")
    workdir = Path(tempfile.mkdtemp(prefix="mafiagames-pg-"))  # under /tmp, reachable by the owner
    as_owner: list[str] = []
    if os.geteuid() == 0:
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            shutil.rmtree(workdir, ignore_errors=True)
            raise Unavailable("running as root and there is no 'postgres' user to own the cluster") from None
        os.chown(workdir, owner.pw_uid, owner.pw_gid)
        as_owner = ["runuser", "-u", "postgres", "--"]
    # A password with characters that must be escaped in DATABASE_URL, to exercise the parsing.
    pg = Postgres(bindir, workdir, free_port(), "mafia", "p@ss:w/rd %1", as_owner)
    pwfile = workdir / "pwfile"
    pwfile.write_text(pg.password + "\n")
    if as_owner:
        os.chown(pwfile, owner.pw_uid, owner.pw_gid)
    try:
        pg.run(str(bindir / "initdb"), "-D", str(pg.data), "-U", pg.user, f"--pwfile={pwfile}",
               "--auth-local=trust", "--auth-host=scram-sha-256", "-E", "UTF8", "--no-locale",
               "--no-sync", "--no-instructions")
        with open(pg.log, "ab") as log:
            pg.process = subprocess.Popen(
                [*as_owner, str(bindir / "postgres"), "-D", str(pg.data), "-p", str(pg.port),
                 "-c", "listen_addresses=127.0.0.1", "-k", str(workdir),
                 # A throw-away cluster: durability costs time and buys nothing here.
                 "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"],
                cwd=workdir, stdout=log, stderr=log)
        wait_until(pg.ready, "PostgreSQL", pg.process, pg.log)
        import psycopg

        with psycopg.connect(host="127.0.0.1", port=pg.port, user=pg.user, password=pg.password,
                             dbname="postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{database}"')
        yield pg
    finally:
        pg.stop()
        shutil.rmtree(workdir, ignore_errors=True)


# --- the app, several times ---------------------------------------------------------------------

class ScaledDaphne(Daphne):
    """The e2e helper's daphne, pointed at PostgreSQL and Redis instead of the SQLite test file."""

    def __init__(self, log_path: Path, database_url: str, redis_url: str, extra_env: dict | None = None):
        log_path.unlink(missing_ok=True)
        super().__init__("", log_path)
        self.env.pop("DB_PATH", None)
        self.env.update(DATABASE_URL=database_url, REDIS_URL=redis_url, **(extra_env or {}))
        self.log_path = log_path

    def log_text(self) -> str:
        self.log.flush()
        return self.log_path.read_text(errors="replace")


def migrate(database_url: str, redis_url: str) -> None:
    env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": redis_url, "SECRET_KEY": "x"}
    env.pop("DB_PATH", None)
    done = subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode:
        raise RuntimeError("migrate failed:\n" + done.stdout + done.stderr)


@contextlib.contextmanager
def daphnes(count: int, log_dir: Path, database_url: str, redis_url: str, extra_env: dict | None = None):
    """``count`` daphne processes on one database and one Redis (migrated first); yields them."""
    migrate(database_url, redis_url)
    servers = [ScaledDaphne(log_dir / f"daphne-{chr(ord('a') + i)}.log", database_url, redis_url, extra_env)
               for i in range(count)]
    try:
        for server in servers:
            server.start()
        yield servers
    finally:
        for server in servers:
            server.stop()
            server.log.close()
