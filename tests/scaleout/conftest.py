"""Scaled-out deployment on one machine: redis-server, a throw-away PostgreSQL cluster and two
daphne processes sharing them (DESIGN.md §6, README "Scaling out").

Everything listens on 127.0.0.1 only, on free ports, in temporary directories, and is torn down
even when a test fails.  The servers are driven over HTTP and websockets only: this test never
touches pytest-django's database (SQLite), the two daphne processes use the PostgreSQL here.
"""

from __future__ import annotations

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

import pytest

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, ROOT, Daphne

START_TIMEOUT = 30  # seconds; every wait polls, none sleeps a fixed time


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


@pytest.fixture(scope="module")
def redis_url():
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server; .ci/run does)")
    workdir = Path(tempfile.mkdtemp(prefix="mafiagames-redis-"))
    port = free_port()
    log = workdir / "redis.log"
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--dir", str(workdir), "--logfile", str(log)],
        cwd=workdir, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        wait_until(lambda: redis_answers(port), "redis-server", process, log)
        yield f"redis://127.0.0.1:{port}/0"
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


@pytest.fixture(scope="module")
def postgres():
    """A fresh cluster owned by the ``postgres`` user when we are root (initdb refuses root)."""
    bindir = postgres_bin()
    if bindir is None:
        pytest.skip("PostgreSQL server binaries are not installed (apt-get install postgresql; .ci/run does)")
    workdir = Path(tempfile.mkdtemp(prefix="mafiagames-pg-"))  # under /tmp, reachable by the owner
    as_owner: list[str] = []
    if os.geteuid() == 0:
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            shutil.rmtree(workdir, ignore_errors=True)
            pytest.skip("running as root and there is no 'postgres' user to own the test cluster")
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
            conn.execute("CREATE DATABASE mafiagames")
        yield pg
    finally:
        pg.stop()
        shutil.rmtree(workdir, ignore_errors=True)


# --- the app, twice ----------------------------------------------------------------------------

class ScaledDaphne(Daphne):
    """The e2e helper's daphne, pointed at PostgreSQL and Redis instead of the SQLite test file."""

    def __init__(self, log_path: Path, database_url: str, redis_url: str):
        log_path.unlink(missing_ok=True)
        super().__init__("", log_path)
        self.env.pop("DB_PATH", None)
        self.env.update(DATABASE_URL=database_url, REDIS_URL=redis_url)
        self.log_path = log_path

    def log_text(self) -> str:
        self.log.flush()
        return self.log_path.read_text(errors="replace")


@dataclass
class Cluster:
    a: ScaledDaphne
    b: ScaledDaphne
    database_url: str
    redis_url: str


@pytest.fixture
def cluster(postgres, redis_url, output_dir):
    """Two daphne processes, A and B, on one PostgreSQL database and one Redis."""
    database_url = postgres.url("mafiagames")
    env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": redis_url, "SECRET_KEY": "x"}
    env.pop("DB_PATH", None)
    migrate = subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env,
                             capture_output=True, text=True, check=False)
    assert migrate.returncode == 0, migrate.stdout + migrate.stderr
    servers = [ScaledDaphne(output_dir / f"daphne-{name}.log", database_url, redis_url) for name in "ab"]
    try:
        for server in servers:
            server.start()
        yield Cluster(*servers, database_url=database_url, redis_url=redis_url)
    finally:
        for server in servers:
            server.stop()
            server.log.close()


@pytest.fixture
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()
