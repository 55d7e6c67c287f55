"""Probes of what a careless network or a hostile client can do to a room (issue 14).

Not a load test: each probe tries one thing against a fresh server on 127.0.0.1 and reports
what the server did, in figures to compare before and after a change (docs/performance.md
keeps them).  Run: ``.venv/bin/python bench/probes.py [--only NAME ...] [--json]``.

- ``joins``: one client address joins one room as fast as it can (1,000 names).
- ``enumerate``: one client asks for random room codes as fast as it can.
- ``charset``: a form posted as ``charset=utf-16`` to every form endpoint.
- ``host``: the TV page asked for with ``Host: evil.example``.
- ``headers``: the security headers of the pages (Content-Security-Policy).
- ``deep_json``: a phone's socket sends 200 KB of nested brackets.
- ``instant_close``: twenty phone sockets closed right after connecting; who stays "online".
- ``tv_tap``: the TV's socket (no cookie) sends a tap.
- ``flood``: one seated phone sends frames as fast as it can for 5 s: what it cost the server,
  and the tap latency meanwhile of a phone in another room (``others_ms``; ``quiet_ms`` before).
- ``flood5``: the same with five sockets at 1,000 frames/s each.
- ``churn``: one seated phone opens and closes four sockets at a time for 10 s (a phone on bad
  Wi-Fi, or a script): how many the server accepted and refused, how many room versions that
  made, the tap latency meanwhile of another phone in the same room, and what was logged.
- ``spoof``: against daphne started with `make run`'s flags, a stranger claims to be the server
  (``X-Forwarded-For: 127.0.0.1``) while reading 300 room codes; another names a third phone's
  address while missing 20 codes: can that phone still open the room?
- ``host_code``: the host's TV is online and shows the host code; a guest types it on its phone:
  does it host, or wait for the host's yes?  A second device types the same code.  Then 25
  wrong codes from 25 addresses, and the host with the right code from another.
- ``recovery``: a stranger sends 8 "I was …" requests (within its join limit); then a genuine
  request from another address: taken, or turned away?
- ``room_flood``: 100 sockets of one room's five seated phones each tap 19 times a second (just
  within a socket's rate limit) for 5 s: how many are answered "busy", and the tap latency of a
  phone in another room meanwhile.

The other room's phone taps "ready" every 100 ms (within its socket's rate limit) in a room with no game: each tap goes through the
writer thread (a transaction that finds no game) and is answered on its socket; the latency is
from sending it to that answer.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import string
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.make_run import make_run_flags  # noqa: E402
from bench.harness import (Client, create_room, daphne_errors, join_room, proc_cpu_seconds,  # noqa: E402
                           start_server, ws_base)

# Joins and room codes are limited per client address, except the server's own (127.0.0.1, the
# host's laptop): these probes come from another loopback address, as a phone on the LAN would.
STRANGER = "127.0.0.2"
PROBES = ("joins", "enumerate", "charset", "host", "headers", "deep_json", "instant_close", "tv_tap", "flood",
          "flood5", "room_flood", "churn", "spoof", "host_code", "recovery")
READY = json.dumps({"turn": "0", "action": "ready"})   # in a room with no game: one transaction, refused


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def connect(url: str, origin: str, cookie: str = ""):
    from websockets.asyncio.client import connect as ws_connect

    headers = {"Origin": origin}
    if cookie:
        headers["Cookie"] = cookie
    return await ws_connect(url, additional_headers=headers, origin=None, compression=None, max_size=2**24,
                            ping_interval=None, open_timeout=30, close_timeout=2)


async def seated_phone(server, code: str, name: str) -> Client:
    phone = Client(server.url)
    await join_room(phone, code, name)
    return phone


async def seated_socket(server, name: str = "Ann"):
    """A fresh room, a seated phone and its open socket (its first screen read)."""
    host = Client(server.url)
    code = await create_room(host)
    phone = await seated_phone(server, code, name)
    ws = await connect(f"{ws_base(server.url)}/ws/p/{code}/", server.url, phone.cookie_header())
    await ws.recv()
    return host, code, phone, ws


async def close_code(ws, within: float) -> int | None:
    """The code the server closed ``ws`` with, reading what it sends meanwhile; None if still open."""
    end = time.monotonic() + within
    try:
        while time.monotonic() < end:
            await asyncio.wait_for(ws.recv(), max(0.01, end - time.monotonic()))
    except TimeoutError:
        return None
    except Exception:  # noqa: BLE001 - closed
        return ws.close_code
    return None


async def online_count(server, host: Client, code: str) -> int:
    page = (await host.get(f"/r/{code}/")).body.decode()
    roster = page[page.find('id="tv-players"'):]
    return len(re.findall(r'<li class="online"', roster))


async def probe_joins(server) -> dict:
    host = Client(server.url)
    code = await create_room(host)
    statuses: dict[int, int] = {}
    t0 = time.perf_counter()
    for i in range(1000):
        client = Client(server.url, source=STRANGER)
        await client.get(f"/j/{code}/")
        response = await client.post(f"/j/{code}/", {"name": f"P{i:04d}"})
        statuses[response.status] = statuses.get(response.status, 0) + 1
        await client.close()
    seconds = time.perf_counter() - t0
    page = await host.get(f"/r/{code}/")
    await host.close()
    return {"tries": 1000, "seconds": round(seconds, 1), "statuses": statuses,
            "seated": statuses.get(302, 0), "tv_page_kb": round(len(page.body) / 1024, 1)}


async def probe_enumerate(server) -> dict:
    client = Client(server.url, source=STRANGER)
    await client.get("/")
    statuses: dict[int, int] = {}
    rng = random.Random(14)
    t0 = time.perf_counter()
    tries = 1000
    for _ in range(tries):
        code = "".join(rng.choice("ACDEFGHJKMNPQRTWXY") for _ in range(4))
        response = await client.get(f"/j/{code}/")
        statuses[response.status] = statuses.get(response.status, 0) + 1
    seconds = time.perf_counter() - t0
    await client.close()
    misses = statuses.get(404, 0)
    return {"tries": tries, "seconds": round(seconds, 1), "statuses": statuses,
            "answered_misses_per_s": round(misses / seconds, 1)}


async def probe_charset(server) -> dict:
    host = Client(server.url)
    code = await create_room(host)
    phone = await seated_phone(server, code, "Ann")
    before = len(daphne_errors(server.log.name))
    body = "name=Bob".encode("utf-16")
    found = {}
    for who, path in ((host, "/"), (phone, f"/j/{code}/"), (host, f"/r/{code}/host"), (phone, f"/p/{code}/act")):
        headers = who._headers({"Content-Type": "application/x-www-form-urlencoded; charset=utf-16",
                                "Origin": who.origin, "X-CSRFToken": who.cookies.get("csrftoken", "")})
        response = await who.conn.request("POST", path, headers, body)
        found[path.replace(code, "CODE")] = response.status
    await host.close()
    await phone.close()
    return {"statuses": found, "errors_logged": len(daphne_errors(server.log.name)) - before}


async def probe_host(server) -> dict:
    host = Client(server.url)
    code = await create_room(host)
    port = int(server.url.rsplit(":", 1)[1])
    reader, writer = await asyncio.open_connection("127.0.0.1", port)   # the client sends its own Host
    writer.write((f"GET /r/{code}/ HTTP/1.1\r\nHost: evil.example\r\nCookie: {host.cookie_header()}\r\n"
                  f"Connection: close\r\n\r\n").encode())
    page = (await reader.read()).decode(errors="replace")
    writer.close()
    await host.close()
    url = re.search(r'class="url">([^<]*)<', page)
    # The status first: a Host outside ALLOWED_HOSTS (derived by default) is refused with 400.
    return {"status": page.split(" ", 2)[1] if page else None, "join_url": url.group(1) if url else None,
            "evil_in_page": "evil.example" in page}


async def probe_headers(server) -> dict:
    host = Client(server.url)
    code = await create_room(host)
    phone = await seated_phone(server, code, "Ann")
    found = {}
    for who, path in ((host, "/"), (host, f"/r/{code}/"), (phone, f"/p/{code}/")):
        response = await who.get(path)
        found[path.replace(code, "CODE")] = response.header("content-security-policy")
    await host.close()
    await phone.close()
    return {"content_security_policy": found}


async def probe_deep_json(server) -> dict:
    before = len(daphne_errors(server.log.name))
    host, code, phone, ws = await seated_socket(server)
    await ws.send("[" * 200_000)
    code_seen = await close_code(ws, 3)
    if code_seen is None:
        await ws.close()
    await asyncio.sleep(0.5)   # a probe, not a test: let the server note the close
    errors = daphne_errors(server.log.name)[before:]
    online = await online_count(server, host, code)
    await host.close()
    await phone.close()
    return {"close_code": code_seen, "recursion_errors": sum("RecursionError" in e for e in errors),
            "errors_logged": len(errors), "online_after_close": online}


async def probe_instant_close(server) -> dict:
    host = Client(server.url)
    code = await create_room(host)
    phone = await seated_phone(server, code, "Ann")
    before = len(daphne_errors(server.log.name))
    port = int(server.url.rsplit(":", 1)[1])
    for i in range(20):
        # A raw handshake, and gone before any answer: before the server's first push (or even
        # its accept), as a phone that loses Wi-Fi while connecting.
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write((f"GET /ws/p/{code}/ HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                      f"Connection: Upgrade\r\nSec-WebSocket-Key: {'dGhlIHNhbXBsZSBub25jZQ=='}\r\n"
                      f"Sec-WebSocket-Version: 13\r\nOrigin: {server.url}\r\n"
                      f"Cookie: {phone.cookie_header()}\r\n\r\n").encode())
        await writer.drain()
        if i % 2:
            await reader.readuntil(b"\r\n\r\n")   # half of them after the server accepted
        writer.transport.abort()
    await asyncio.sleep(1.0)   # a probe, not a test: let the server note the closes
    errors = daphne_errors(server.log.name)[before:]
    online = await online_count(server, host, code)
    await host.close()
    await phone.close()
    return {"sockets": 20, "online_after": online, "errors_logged": len(errors),
            "disconnected_errors": sum("Disconnected" in e for e in errors)}


async def probe_tv_tap(server) -> dict:
    host = Client(server.url)
    code = await create_room(host)
    ws = await connect(f"{ws_base(server.url)}/ws/r/{code}/", server.url)
    await ws.recv()
    await ws.send(json.dumps({"turn": "0", "action": "vote", "choice": "approve"}))
    closed = await close_code(ws, 3)
    if closed is None:
        await ws.close()
    await host.close()
    return {"close_code": closed}


def latency_ms(times: list[float]) -> dict:
    ms = sorted(1000 * t for t in times)
    if not ms:
        return {"n": 0}
    pick = lambda q: round(ms[min(len(ms) - 1, int(round(q * (len(ms) - 1))))], 1)  # noqa: E731
    return {"n": len(ms), "p50": pick(.5), "p95": pick(.95), "max": round(ms[-1], 1)}


async def answer(ws) -> str:
    """The next answer to a tap (#flash), skipping screen updates."""
    while True:
        frame = await asyncio.wait_for(ws.recv(), 30)
        if frame.startswith('<div id="flash"'):
            return frame


async def tap_latencies(ws, seconds: float, every: float = 0.1) -> list[float]:
    """A phone tapping every ``every`` s for ``seconds``: each tap's time to its answer."""
    times, end = [], time.perf_counter() + seconds
    while time.perf_counter() < end:
        t0 = time.perf_counter()
        await ws.send(READY)
        await answer(ws)
        times.append(time.perf_counter() - t0)
        await asyncio.sleep(every)
    return times


async def flood_socket(ws, seconds: float, rate: float | None) -> int:
    """Frames sent on ``ws`` for ``seconds``: at ``rate`` a second, or as fast as it can."""
    frame = json.dumps({"turn": "0", "action": "noop"})
    sent, t0 = 0, time.perf_counter()
    try:
        while time.perf_counter() - t0 < seconds:
            batch = 500 if rate is None else max(1, int(rate * (time.perf_counter() - t0)) - sent)
            for _ in range(batch):
                await ws.send(frame)
            sent += batch
            await asyncio.sleep(0 if rate is None else 0.005)
    except Exception:  # noqa: BLE001 - the server closed it
        pass
    return sent


async def wait_idle(pid: int) -> float:
    """Seconds the server kept working after a flood: until a second with < 0.1 s of CPU."""
    t1, last = time.perf_counter(), proc_cpu_seconds(pid)
    while True:
        await asyncio.sleep(1)
        now = proc_cpu_seconds(pid)
        if now - last < 0.1 or time.perf_counter() - t1 > 300:
            return round(time.perf_counter() - t1 - 1, 1)
        last = now


async def other_room_phone(server):
    """A phone seated in a room of its own, its socket open: the bystander whose taps are timed."""
    host, _code, phone, ws = await seated_socket(server, "Bystander")
    return host, phone, ws


async def probe_flood(server, sockets: int = 1, rate: float | None = None) -> dict:
    host, code, phone, first = await seated_socket(server)
    floods = [first] + [await connect(f"{ws_base(server.url)}/ws/p/{code}/", server.url, phone.cookie_header())
                        for _ in range(sockets - 1)]
    for ws in floods[1:]:
        await ws.recv()
    other_host, other_phone, other = await other_room_phone(server)
    quiet = await tap_latencies(other, 2.0)
    pid = server.process.pid
    rss0, cpu0 = rss_kb(pid), proc_cpu_seconds(pid)
    flooding = asyncio.gather(*(flood_socket(ws, 5, rate) for ws in floods))
    others = await tap_latencies(other, 5.0)
    sent = sum(await flooding)
    closed = await asyncio.gather(*(close_code(ws, 10) for ws in floods))   # after the answers already queued
    for ws, code_seen in zip(floods, closed):
        if code_seen is None:
            ws.transport.abort()
    rss_peak = rss_kb(pid)
    busy_after = await wait_idle(pid)
    for client in (host, phone, other_host, other_phone):
        await client.close()
    await other.close()
    return {"sockets": sockets, "rate_per_socket": rate or "as fast as it can", "frames_sent": sent,
            "close_codes": sorted(set(closed), key=str), "rss_growth_mb": round((rss_peak - rss0) / 1024, 1),
            "server_cpu_s": round(proc_cpu_seconds(pid) - cpu0, 1), "busy_after_flood_s": busy_after,
            "quiet_ms": latency_ms(quiet), "others_ms": latency_ms(others)}


async def probe_flood5(server) -> dict:
    return await probe_flood(server, sockets=5, rate=1000.0)


async def probe_room_flood(server, sockets: int = 100, rate: float = 19.0, seconds: float = 5.0) -> dict:
    host = Client(server.url)
    code = await create_room(host)
    phones = [await seated_phone(server, code, f"P{i}") for i in range(5)]
    floods, refused = [], 0
    for i in range(sockets):
        try:
            floods.append(await connect(f"{ws_base(server.url)}/ws/p/{code}/", server.url,
                                        phones[i % len(phones)].cookie_header()))
        except Exception:  # noqa: BLE001 - refused at the handshake: the player opened too many (limits.OPENS)
            refused += 1
            continue
        await floods[-1].recv()
    other_host, other_phone, other = await other_room_phone(server)
    quiet = await tap_latencies(other, 2.0)
    answers = {"busy": 0, "other": 0}

    async def tapper(ws, offset: float):
        await asyncio.sleep(offset)
        end = time.perf_counter() + seconds
        reader = asyncio.ensure_future(read_answers(ws))
        while time.perf_counter() < end:
            await ws.send(READY)
            await asyncio.sleep(1 / rate)
        await asyncio.sleep(2)   # the last answers
        reader.cancel()

    async def read_answers(ws):
        try:
            while True:
                frame = await answer(ws)
                answers["busy" if "busy" in frame else "other"] += 1
        except Exception:  # noqa: BLE001 - closed by the server
            return

    flooding = asyncio.gather(*(tapper(ws, i / (sockets * rate)) for i, ws in enumerate(floods)),
                              return_exceptions=True)
    others = await tap_latencies(other, seconds)
    await flooding
    closed = sum(1 for ws in floods if ws.close_code is not None)
    for ws in floods:
        ws.transport.abort()
    for client in (host, other_host, other_phone, *phones):
        await client.close()
    await other.close()
    return {"sockets": sockets, "refused_at_handshake": refused, "taps_per_socket_per_s": rate, "answers": answers,
            "closed": closed,
            "quiet_ms": latency_ms(quiet), "others_ms": latency_ms(others)}


async def room_version(host: Client, code: str) -> int:
    """The version the room is at, as the TV page says (its marker)."""
    return int(re.search(r'id="sv" data-v="(\d+)"', (await host.get(f"/r/{code}/")).body.decode()).group(1))


async def churn(url: str, origin: str, cookie: str, seconds: float, at_once: int = 4) -> dict:
    """Open ``at_once`` sockets, close them, again, for ``seconds``: what became of the opens."""
    counts = {"accepted": 0, "refused": 0}

    async def open_close():
        try:
            ws = await connect(url, origin, cookie)
        except Exception:  # noqa: BLE001 - refused at the handshake
            counts["refused"] += 1
            return
        counts["accepted"] += 1
        await ws.close()

    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        await asyncio.gather(*(open_close() for _ in range(at_once)))
    return counts


async def probe_churn(server, seconds: float = 10.0) -> dict:
    host = Client(server.url)
    code = await create_room(host)
    churner, bystander = await seated_phone(server, code, "Churner"), await seated_phone(server, code, "Bystander")
    other = await connect(f"{ws_base(server.url)}/ws/p/{code}/", server.url, bystander.cookie_header())
    await other.recv()
    before_errors = len(daphne_errors(server.log.name))
    quiet = await tap_latencies(other, 2.0)
    version0 = await room_version(host, code)
    churning = asyncio.ensure_future(churn(f"{ws_base(server.url)}/ws/p/{code}/", server.url,
                                           churner.cookie_header(), seconds))
    others = await tap_latencies(other, seconds)
    counts = await churning
    version1 = await room_version(host, code)
    await asyncio.sleep(3)   # a probe, not a test: past the presence grace, the churner is offline
    online = await online_count(server, host, code)
    errors = daphne_errors(server.log.name)[before_errors:]
    for client in (host, churner, bystander):
        await client.close()
    await other.close()
    return {"seconds": seconds, **counts, "versions_during": version1 - version0, "online_after": online,
            "errors_logged": len(errors), "tracebacks": sum("Traceback" in e for e in errors),
            "quiet_ms": latency_ms(quiet), "others_ms": latency_ms(others)}


async def statuses_of(client: Client, paths, extra: dict | None = None) -> dict[int, int]:
    found: dict[int, int] = {}
    for path in paths:
        status = (await client.get(path, extra)).status
        found[status] = found.get(status, 0) + 1
    return found


def unknown_codes(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [f"/j/{''.join(rng.choice('ACDEFGHJKMNPQRTWXY') for _ in range(4))}/" for _ in range(count)]


async def probe_spoof(server) -> dict:
    host = Client(server.url)
    code = await create_room(host)
    liar = Client(server.url, source=STRANGER)
    escape = await statuses_of(liar, unknown_codes(300, 1), {"X-Forwarded-For": "127.0.0.1"})
    aimer, victim = Client(server.url, source="127.0.0.3"), Client(server.url, source="127.0.0.4")
    aimed = await statuses_of(aimer, unknown_codes(20, 2), {"X-Forwarded-For": "127.0.0.4"})
    victim_status = (await victim.get(f"/j/{code}/")).status
    for client in (host, liar, aimer, victim):
        await client.close()
    return {"claims_loopback_statuses": escape, "aimed_statuses": aimed, "victim_opens_room": victim_status}


async def host_ask(client: Client, code: str, typed: str) -> str:
    """What typing ``typed`` on /r/CODE/host-login got this browser: "hosting", "asking",
    "refused" (its status otherwise)."""
    await client.get(f"/r/{code}/host-login")
    answer = await client.post(f"/r/{code}/host-login", {"host_code": typed})
    if answer.status != 302:
        return f"refused {answer.status}"
    lock = await client.post(f"/r/{code}/host", {"command": "lock"})
    if lock.status == 204:
        await client.post(f"/r/{code}/host", {"command": "unlock"})
        return "hosting"
    return "asking" if "host-login" in (answer.header("location") or "") else f"no controls ({lock.status})"


async def probe_host_code(server) -> dict:
    host = Client(server.url)
    code = await create_room(host)
    tv = await connect(f"{ws_base(server.url)}/ws/r/{code}/", server.url, host.cookie_header())
    await tv.recv()
    shown = await host.post(f"/r/{code}/host", {"command": "host_code"})
    typed = re.search(r'class="code">([^<]+)<', shown.body.decode()).group(1)
    guest = Client(server.url, source=STRANGER)
    guest_got = await host_ask(guest, code, typed)
    second_got = await host_ask(Client(server.url, source="127.0.0.3"), code, typed)
    guesses = {}
    for i in range(25):
        status = await host_ask(Client(server.url, source=f"127.0.1.{i + 1}"), code, "AAAA-AAAA")
        guesses[status] = guesses.get(status, 0) + 1
    await tv.close()   # the host's browser is gone: the code alone may let a device in
    await asyncio.sleep(1)   # a probe, not a test: let the server count the TV gone
    fresh = (await host.post(f"/r/{code}/host", {"command": "host_code"})).body.decode()
    right = re.search(r'class="code">([^<]+)<', fresh)
    host_again = await host_ask(Client(server.url, source="127.0.2.1"), code, right.group(1)) if right else "no code"
    await host.close()
    return {"guest_with_shown_code": guest_got, "second_device_same_code": second_got,
            "wrong_codes_from_25_addresses": guesses, "host_with_right_code_after": host_again}


async def probe_recovery(server) -> dict:
    host = Client(server.url)
    code = await create_room(host)
    names = [f"P{i}" for i in range(5)]
    phones = [await seated_phone(server, code, name) for name in names]
    page = (await Client(server.url).get(f"/j/{code}/")).body.decode()
    seats = re.findall(r'name="seat" value="(\d+)"', page)
    fakes: dict[int, int] = {}
    for i in range(8):
        stranger = Client(server.url, source=STRANGER)
        await stranger.get(f"/j/{code}/")
        status = (await stranger.post(f"/j/{code}/", {"seat": seats[i % len(seats)]})).status
        fakes[status] = fakes.get(status, 0) + 1
    genuine = Client(server.url, source="127.0.0.3")
    await genuine.get(f"/j/{code}/")
    answer = await genuine.post(f"/j/{code}/", {"seat": seats[0]})
    for client in (host, genuine, *phones):
        await client.close()
    return {"fake_requests": fakes, "genuine_request": answer.status}


# The host probe needs a server that builds the join URL from the request (no PUBLIC_URL).
SERVER_ENV = {"host": {"PUBLIC_URL": ""}}
# The trust probes run against daphne as `make run` starts it (its flags, from the Makefile).
MAKE_RUN = ("spoof", "host_code", "recovery")


async def main(only: list[str]) -> dict:
    results = {}
    for name in only:
        flags = make_run_flags() if name in MAKE_RUN else ()
        server = start_server(extra_env=SERVER_ENV.get(name), flags=flags)
        try:
            results[name] = await globals()[f"probe_{name}"](server)
        except Exception as exc:  # noqa: BLE001 - report and go on with the next probe
            results[name] = {"failed": f"{type(exc).__name__}: {exc}"}
        finally:
            server.stop()
    return results


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", nargs="*", choices=PROBES, default=list(PROBES))
    args = parser.parse_args()
    for name, figures in asyncio.run(main(args.only)).items():
        print(f"{name}: {json.dumps(figures, ensure_ascii=False)}")
