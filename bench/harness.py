"""Shared plumbing for the bench scripts: a throw-away server, a tiny HTTP client, screens.

Not a benchmark itself.  What is here:

* ``start_server`` — migrate a fresh SQLite database in a temp dir and start daphne on
  127.0.0.1 with the e2e tests' ``Daphne`` class (tests/e2e/conftest.py), as bench/vote_latency.py does;
* ``HttpConnection`` / ``Client`` — a keep-alive HTTP/1.1 client on asyncio streams that counts
  the bytes it reads, keeps a cookie jar and sends Django's CSRF header like htmx does;
* ``fragments`` / ``marker`` — split a websocket frame into its OOB fragments by id and read the
  room version marker (``<i id="sv" ... data-v="V">``);
* ``percentile``, ``proc_cpu_seconds``, ``daphne_errors``;
* ``load_generator_gc_paused`` — keeps the load generator's own garbage collection out of what
  it times.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
# The servers we start get the settings' SECRET_KEY (tests/e2e/conftest.py's Daphne reads it).
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mafiagames.settings")

BROWSER_HEADERS = {  # what Chromium sends for a top-level navigation, minus client hints
    "User-Agent": "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) "
                  "Chrome/130.0 Mobile Safari/537.36",
    "Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
    "Accept-Encoding": "gzip, deflate, br, zstd",
    "Accept-Language": "en-US,en;q=0.9",
}


# --- a throw-away server ----------------------------------------------------------------------

def start_server(settings_module: str = "mafiagames.settings", extra_env: dict | None = None,
                 collectstatic: bool = False, flags: tuple[str, ...] = ()):
    """Fresh temp dir + migrated SQLite DB + daphne on a free 127.0.0.1 port. Returns the Daphne.

    ``flags``: more daphne options (bench/probes.py starts the trust probes' server with `make run`'s).
    ``collectstatic`` runs it first, as `make run` does (with bench.bench_settings it writes
    into the temp dir, not the checkout).
    """
    if collectstatic and settings_module != "bench.bench_settings":
        raise ValueError("collectstatic only with bench.bench_settings (it writes STATIC_ROOT)")
    from tests.e2e.conftest import Daphne  # reads settings.SECRET_KEY lazily

    workdir = Path(tempfile.mkdtemp(prefix="mafiagames-bench-"))
    db = workdir / "db.sqlite3"
    server = Daphne(db, workdir / "daphne.log", flags=flags)
    # PYTHONFAULTHANDLER: if the server hangs, SIGABRT makes it print every thread's Python stack
    # into its log (see ``dump_stacks``); it changes nothing else.
    server.env.update({"DJANGO_SETTINGS_MODULE": settings_module, "PYTHONFAULTHANDLER": "1", **(extra_env or {})})
    server.env.setdefault("BENCH_STATIC_ROOT", str(workdir / "static"))
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT,
                   env=server.env, check=True)
    if collectstatic:
        subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=ROOT,
                       env=server.env, check=True)
    server.workdir = workdir
    server.start()
    return server


def daphne_errors(log_path: Path) -> list[str]:
    """ERROR lines and tracebacks from the daphne log, each as one block of text."""
    try:
        lines = Path(log_path).read_text(errors="replace").splitlines()
    except FileNotFoundError:
        return []
    log_line = re.compile(r"\b(DEBUG|INFO|WARNING|ERROR|CRITICAL)\b")
    blocks, i = [], 0
    while i < len(lines):
        if lines[i].startswith("Fatal Python error"):  # faulthandler's dump runs to the end
            blocks.append("\n".join(lines[i:i + 200]).rstrip())
            break
        if (lines[i].startswith(("Traceback (most recent call last)", "Internal Server Error"))
                or re.search(r"\bERROR\b", lines[i])):
            block = [lines[i]]
            i += 1
            while i < len(lines) and (lines[i].startswith((" ", "\t", "Traceback", "During handling", "The above"))
                                      or not lines[i] or (block[-1].startswith(" ") and not log_line.search(lines[i]))):
                block.append(lines[i])
                i += 1
            blocks.append("\n".join(block).rstrip())
        else:
            i += 1
    return blocks


def dump_stacks(server, wait: float = 3.0) -> None:
    """A hung server we started: SIGABRT → faulthandler writes all Python stacks to its log."""
    if server and server.process and server.process.poll() is None:
        server.process.send_signal(signal.SIGABRT)
        try:
            server.process.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            pass


async def server_alive(base_url: str, timeout: float = 5.0) -> bool:
    """Does the server answer /healthz within ``timeout`` seconds?"""
    client = Client(base_url, timeout=timeout)
    try:
        return (await client.get("/healthz")).status == 200
    except (OSError, TimeoutError, asyncio.IncompleteReadError):
        return False
    finally:
        await client.close()


def proc_cpu_seconds(pid: int) -> float:
    """utime + stime of a process from /proc/<pid>/stat, in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds(pid: int) -> float:
    """CPU seconds of a process and every descendant alive now (e.g. PostgreSQL's backends)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # it exited meanwhile
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    total, todo = 0.0, [pid]
    while todo:
        current = todo.pop()
        try:
            total += proc_cpu_seconds(current)
        except OSError:
            continue
        todo += children.get(current, [])
    return total


@contextlib.contextmanager
def load_generator_gc_paused():
    """While timing: no cyclic collection in *this* process.  The load generator keeps every frame
    it received, and a full collection of that heap took 17–23 ms; one landing between a frame's
    arrival and its timestamp was counted as that much server latency (a bounded run's garbage
    can wait).  The servers under test collect as they always do."""
    was_enabled = gc.isenabled()
    gc.collect()
    gc.freeze()  # what exists now is never walked again
    gc.disable()
    try:
        yield
    finally:
        gc.unfreeze()
        if was_enabled:
            gc.enable()


def percentile(values, q: float):
    """Nearest-rank percentile (0 <= q <= 1); None for no values."""
    if not values:
        return None
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


# --- HTTP -------------------------------------------------------------------------------------

@dataclass
class Response:
    status: int
    headers: list[tuple[str, str]]
    body: bytes
    wire_bytes: int  # status line + headers + body as read from the socket

    def header(self, name: str, default: str | None = None) -> str | None:
        name = name.lower()
        return next((v for k, v in self.headers if k == name), default)

    def all(self, name: str) -> list[str]:
        name = name.lower()
        return [v for k, v in self.headers if k == name]


class HttpConnection:
    """One keep-alive HTTP/1.1 connection to 127.0.0.1; reconnects when the server closed it."""

    def __init__(self, host: str, port: int, timeout: float = 30.0, source: str | None = None):
        self.host, self.port, self.timeout, self.source = host, port, timeout, source
        self.reader = self.writer = None
        self.lock = asyncio.Lock()

    async def close(self):
        if self.writer is not None:
            self.writer.close()
            self.reader = self.writer = None

    async def request(self, method: str, path: str, headers: dict[str, str], body: bytes = b"") -> Response:
        async with self.lock:
            try:
                return await asyncio.wait_for(self._request(method, path, headers, body), self.timeout)
            except (TimeoutError, asyncio.CancelledError):
                await self.close()  # a half-read response must not be read as the next one
                raise

    async def _request(self, method, path, headers, body):
        for attempt in (1, 2):  # a keep-alive connection the server dropped is reopened once
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(
                    self.host, self.port, local_addr=(self.source, 0) if self.source else None)
            lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
            lines += [f"{k}: {v}" for k, v in headers.items()]
            if body or method == "POST":
                lines.append(f"Content-Length: {len(body)}")
            self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
            try:
                await self.writer.drain()
                return await self._read_response(method)
            except (ConnectionError, asyncio.IncompleteReadError):
                await self.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def _read_response(self, method: str) -> Response:
        head = await self.reader.readuntil(b"\r\n\r\n")
        wire = len(head)
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        status = int(status_line.split()[1])
        headers = [(k.strip().lower(), v.strip()) for k, _, v in
                   (line.partition(":") for line in header_lines if line)]
        names = dict(headers)
        body = b""
        if method == "HEAD" or status in (204, 304) or 100 <= status < 200:
            pass
        elif "content-length" in names:
            body = await self.reader.readexactly(int(names["content-length"]))
            wire += len(body)
        elif names.get("transfer-encoding", "").lower() == "chunked":
            body, wire = await self._read_chunked(wire)
        else:  # delimited by close
            body = await self.reader.read()
            wire += len(body)
            await self.close()
        if names.get("connection", "").lower() == "close":
            await self.close()
        return Response(status, headers, body, wire)

    async def _read_chunked(self, wire: int) -> tuple[bytes, int]:
        parts = []
        for _ in range(1_000_000):
            size_line = await self.reader.readuntil(b"\r\n")
            wire += len(size_line)
            size = int(size_line.split(b";")[0], 16)
            chunk = await self.reader.readexactly(size + 2)
            wire += len(chunk)
            if size == 0:
                return b"".join(parts), wire  # (no trailers from daphne)
            parts.append(chunk[:-2])
        raise RuntimeError("too many chunks")


class Client:
    """One browser: its own cookie jar and connection; POSTs carry the CSRF header as htmx does."""

    def __init__(self, base_url: str, headers: dict[str, str] | None = None, timeout: float = 15.0,
                 source: str | None = None):
        """``source``: the local address to connect from (e.g. 127.0.0.2: another machine, as far
        as the server's per-address limits can tell; 127.0.0.1 is the server's own, never limited)."""
        parts = urlsplit(base_url)
        self.base_url = base_url.rstrip("/")
        self.origin = f"{parts.scheme}://{parts.netloc}"
        self.conn = HttpConnection(parts.hostname, parts.port or 80, timeout, source)
        self.cookies: dict[str, str] = {}
        self.headers = dict(headers or {})

    def cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    def _headers(self, extra: dict | None) -> dict[str, str]:
        headers = dict(self.headers)
        if self.cookies:
            headers["Cookie"] = self.cookie_header()
        headers.update(extra or {})
        return headers

    def _keep_cookies(self, response: Response) -> None:
        for value in response.all("set-cookie"):
            name, _, rest = value.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0].strip().strip('"')

    async def get(self, path: str, extra: dict | None = None) -> Response:
        response = await self.conn.request("GET", path, self._headers(extra))
        self._keep_cookies(response)
        return response

    async def post(self, path: str, form: list[tuple[str, str]] | dict, extra: dict | None = None) -> Response:
        body = urlencode(form).encode()
        headers = self._headers({"Content-Type": "application/x-www-form-urlencoded", "Origin": self.origin,
                                 "X-CSRFToken": self.cookies.get("csrftoken", ""), **(extra or {})})
        response = await self.conn.request("POST", path, headers, body)
        self._keep_cookies(response)
        return response

    async def close(self):
        await self.conn.close()


def location_code(response: Response) -> str:
    """The room code from a redirect to /r/CODE/ or /p/CODE/."""
    match = re.search(r"/[rp]/([A-Za-z0-9]+)/", response.header("location") or "")
    if response.status != 302 or not match:
        raise RuntimeError(f"expected a redirect to a room, got {response.status} {response.body[:300]!r}")
    return match.group(1)


async def create_room(client: Client, language: str = "en") -> str:
    """As the host's browser: GET / for the CSRF cookie, POST / → 302 /r/CODE/ + host cookie."""
    await client.get("/")
    return location_code(await client.post("/", {"language": language}))


async def join_room(client: Client, code: str, name: str) -> None:
    """As a phone: GET /j/CODE/ then POST the name → 302 /p/CODE/ + the player cookie."""
    await client.get(f"/j/{code}/")
    location_code(await client.post(f"/j/{code}/", {"name": name}))


# --- screens over websockets --------------------------------------------------------------------

FRAGMENT_START = re.compile(r'<(\w+) id="([^"]+)" hx-swap-oob="true"')
MARKER = re.compile(r'<i id="sv" hx-swap-oob="true" data-v="(\d+)"')
FLASH = re.compile(r'<div id="flash"[^>]*?(?:data-v="(\d+)")?>')


def fragments(frame: str) -> dict[str, str]:
    """A frame's top-level OOB fragments by id (each runs to the start of the next)."""
    starts = list(FRAGMENT_START.finditer(frame))
    return {m.group(2): frame[m.start():(starts[i + 1].start() if i + 1 < len(starts) else len(frame))].strip()
            for i, m in enumerate(starts)}


def marker(frame: str) -> int | None:
    """The room version a frame brings its screen to, from the trailing ``#sv`` marker."""
    match = MARKER.search(frame, max(0, len(frame) - 200))
    return int(match.group(1)) if match else None


@dataclass
class Screen:
    """One websocket screen (TV or phone): what it shows and when each frame arrived."""

    label: str
    path: str
    cookie: str
    base: str = ""  # the server it is connected to (http://127.0.0.1:port)
    ws: object = None
    version: int = -1
    arrivals: list[tuple[float, int]] = field(default_factory=list)  # (perf_counter, marker) of updates
    update_sizes: list[int] = field(default_factory=list)
    first_at: float | None = None
    closed_at: float | None = None
    close_code: int | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    reader: asyncio.Task | None = None
    answers: list[tuple[float, int | None, str]] = field(default_factory=list)  # taps' answers (#flash)
    _shown: dict[str, str] = field(default_factory=dict)
    _unparsed: list[str] = field(default_factory=list)

    @property
    def shown(self) -> dict[str, str]:
        """What the screen shows: the fragments of every frame so far, swapped in like htmx's OOB
        swaps.  Frames are split only when asked, so that the time a frame is noted to arrive
        does not include this client's parsing of the frames before it (the baseline's clients
        parse nothing)."""
        for frame in self._unparsed:
            self._shown.update(fragments(frame))
        self._unparsed.clear()
        return self._shown

    def apply(self, frame: str, now: float) -> None:
        """Note a frame's arrival and version; its fragments are applied when ``shown`` is read."""
        if frame.startswith('<div id="flash"'):  # the answer to this phone's tap, not an update
            match = FLASH.match(frame)
            self.answers.append((now, int(match.group(1)) if match and match.group(1) else None,
                                 re.sub(r"<[^>]+>", "", frame).strip()))
            self.changed.set()
            return
        self._unparsed.append(frame)
        version = marker(frame)
        if self.first_at is None:
            self.first_at = now
        elif version is not None:
            self.arrivals.append((now, version))
            self.update_sizes.append(len(frame.encode()))
        if version is not None:
            self.version = max(self.version, version)
        self.changed.set()

    async def _wait_until(self, done, deadline: float) -> bool:
        """Wait for frames until ``done()``, the socket closes or ``deadline`` (perf_counter)."""
        while not done() and self.closed_at is None:
            self.changed.clear()
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                break
            try:
                await asyncio.wait_for(self.changed.wait(), remaining)
            except TimeoutError:
                break
        return done()

    async def wait_answer(self, count: int, deadline: float) -> tuple[float, int | None, str] | None:
        """The answer to this screen's tap number ``count`` (0-based); None at ``deadline``."""
        if await self._wait_until(lambda: len(self.answers) > count, deadline):
            return self.answers[count]
        return None

    async def wait_version(self, version: int, deadline: float) -> bool:
        """Wait until this screen shows ``version`` or newer; False at ``deadline`` (perf_counter)."""
        return await self._wait_until(lambda: self.version >= version, deadline)


async def open_screen(ws_url: str, origin: str, label: str, path: str, cookie: str, connect,
                      timeout: float = 30.0) -> Screen:
    """Open a websocket screen and wait (at most ``timeout`` s) for its first (full) frame."""
    screen = Screen(label=label, path=path, cookie=cookie, base=origin)
    headers = {"Origin": origin}
    if cookie:
        headers["Cookie"] = cookie
    screen.ws = await connect(ws_url + path, additional_headers=headers, origin=None, compression=None,
                              max_size=2**22, ping_interval=None, open_timeout=timeout, close_timeout=2)
    screen.reader = asyncio.create_task(_read(screen))
    t0 = time.perf_counter()
    await screen.wait_version(0, t0 + timeout)
    if screen.first_at is None:
        state = f"closed with code {screen.close_code}" if screen.closed_at else "still open"
        screen.reader.cancel()
        screen.ws.transport.abort()
        raise RuntimeError(f"{label} {path}: no first frame after {time.perf_counter() - t0:.1f} s ({state})")
    return screen


async def _read(screen: Screen) -> None:
    try:
        async for frame in screen.ws:
            screen.apply(frame if isinstance(frame, str) else frame.decode(), time.perf_counter())
    except Exception:  # noqa: BLE001 - a closed socket ends its reader
        pass
    finally:
        screen.closed_at = time.perf_counter()
        screen.close_code = getattr(screen.ws, "close_code", None)
        screen.changed.set()


def ws_base(url: str) -> str:
    parts = urlsplit(url)
    return f"ws://{parts.netloc}"
