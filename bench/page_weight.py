"""Bytes on the wire a phone downloads to join a room and see its first view (target: 60 KB).

As a phone's browser does, with Chromium's request headers (``Accept-Encoding: gzip, deflate,
br, zstd``): GET /j/CODE/ and the CSS/JS it references, POST the name (→ 302), GET /p/CODE/ and
any asset not fetched yet (the browser cache holds the rest), then open the page's websocket
(offering permessage-deflate, as Chromium does) and read the first frame.  Counted: every byte
of every response as read from the socket — status line, headers and body, compressed or not.
For text bodies that came uncompressed, the table also shows what gzip -6 would make of them.

    .venv/bin/python bench/page_weight.py [--url http://127.0.0.1:8000] [--json]

Without ``--url`` it starts its own daphne as `make run` does (collectstatic first, into a
temp dir; a fresh SQLite database), and stops it at the end.  Only talks to 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import gzip
import json
import os
import re
import sys
import zlib
from pathlib import Path
from urllib.parse import urljoin, urlsplit

# The checkout first: bench/ (the script's own directory) has an engines.py that must not shadow
# the engines package.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench import harness  # noqa: E402
from bench.harness import BROWSER_HEADERS, Client  # noqa: E402

TARGET_BYTES = 60_000
ASSET_ACCEPT = {"css": "text/css,*/*;q=0.1", "js": "*/*"}
ASSET_LINK = re.compile(r'<(?:link[^>]+rel="stylesheet"[^>]+href|script[^>]+src)="([^"]+)"')


def assets_in(html: str, page_url: str) -> list[str]:
    """Same-origin stylesheets and scripts a page references, in document order."""
    urls = [urljoin(page_url, href) for href in ASSET_LINK.findall(html)]
    return [urlsplit(u).path for u in urls if u.startswith(("http://", "https://"))]


def row(name: str, response: harness.Response) -> dict:
    body = response.body
    encoding = response.header("content-encoding", "identity")
    text = (response.header("content-type") or "").startswith(("text/", "application/javascript"))
    return {"resource": name, "status": response.status, "encoding": encoding, "wire_bytes": response.wire_bytes,
            "body_bytes": len(body),
            "gzip6_body_bytes": len(gzip.compress(body, 6)) if text and encoding == "identity" and body else None}


async def fetch_page(client: Client, path: str, seen: set[str], rows: list[dict]) -> None:
    """A navigation and the assets it needs that the browser has not fetched yet."""
    response = await client.get(path)
    rows.append(row(f"GET {path}", response))
    for asset in assets_in(response.body.decode(errors="replace"), client.base_url + path):
        if asset in seen:
            continue
        seen.add(asset)
        kind = "css" if asset.endswith(".css") else "js"
        rows.append(row(f"GET {asset}", await client.get(asset, {"Accept": ASSET_ACCEPT[kind]})))


async def first_ws_frame(base_url: str, path: str, cookie: str) -> dict:
    """Open the websocket by hand (so every byte is counted) and read the first message."""
    parts = urlsplit(base_url)
    reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
    key = base64.b64encode(os.urandom(16)).decode()
    request = (f"GET {path} HTTP/1.1\r\nHost: {parts.netloc}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
               f"Origin: {base_url}\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: {key}\r\n"
               f"Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n"
               f"User-Agent: {BROWSER_HEADERS['User-Agent']}\r\nCookie: {cookie}\r\n\r\n")
    writer.write(request.encode())
    try:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
        if not head.startswith(b"HTTP/1.1 101"):
            raise RuntimeError(f"websocket refused: {head[:200]!r}")
        extensions = re.search(rb"(?i)sec-websocket-extensions: *([^\r]*)", head)
        wire, payload, compressed = len(head), b"", False
        for _ in range(1000):  # frames until the message is complete
            header = await asyncio.wait_for(reader.readexactly(2), 10)
            fin, rsv1, length = header[0] & 0x80, header[0] & 0x40, header[1] & 0x7F
            extra = {126: 2, 127: 8}.get(length, 0)
            if extra:
                length = int.from_bytes(await reader.readexactly(extra), "big")
            payload += await reader.readexactly(length)
            wire += 2 + extra + length
            compressed = compressed or bool(rsv1)
            if fin:
                break
        text = zlib.decompressobj(-15).decompress(payload + b"\x00\x00\xff\xff") if compressed else payload
        writer.write(bytes([0x88, 0x82]) + os.urandom(4) + b"\x00\x00")  # close (masked, empty payload-ish)
        return {"resource": f"WS {path} (101 + first frame)", "status": 101,
                "encoding": "permessage-deflate" if compressed else "none",
                "negotiated": extensions.group(1).decode() if extensions else "", "wire_bytes": wire,
                "body_bytes": len(text), "gzip6_body_bytes": None if compressed else len(gzip.compress(text, 6))}
    finally:
        writer.close()


async def measure(base_url: str) -> list[dict]:
    host = Client(base_url)
    code = await harness.create_room(host)  # the TV's doing; not counted
    await host.close()
    phone = Client(base_url, headers=BROWSER_HEADERS)
    rows: list[dict] = []
    seen: set[str] = set()
    await fetch_page(phone, f"/j/{code}/", seen, rows)
    response = await phone.post(f"/j/{code}/", {"name": "Weight"})
    rows.append(row(f"POST /j/{code}/", response))
    await fetch_page(phone, urlsplit(response.header("location") or f"/p/{code}/").path, seen, rows)
    rows.append(await first_ws_frame(base_url, f"/ws/p/{code}/", phone.cookie_header()))
    await phone.close()
    return rows


def print_table(rows: list[dict]) -> None:
    print(f"{'resource':44}{'status':>7}{'encoding':>20}{'wire B':>9}{'body B':>11}{'gzip-6 B':>11}")
    print(f"{'':71}{'(all)':>9}{'(as sent)':>11}{'(if sent)':>11}")
    for r in rows:
        gz = "" if r["gzip6_body_bytes"] is None else r["gzip6_body_bytes"]
        print(f"{r['resource'][:44]:44}{r['status']:>7}{r['encoding']:>20}{r['wire_bytes']:>9}{r['body_bytes']:>11}{gz:>11}")
    total = sum(r["wire_bytes"] for r in rows)
    if_gzip = sum(r["wire_bytes"] - r["body_bytes"] + r["gzip6_body_bytes"] if r["gzip6_body_bytes"] is not None
                  else r["wire_bytes"] for r in rows)
    verdict = "within" if total <= TARGET_BYTES else "OVER"
    print(f"total on the wire: {total} B = {total / 1000:.1f} KB ({verdict} the {TARGET_BYTES // 1000} KB target)")
    print(f"if every text response were gzip-6 compressed: {if_gzip} B = {if_gzip / 1000:.1f} KB")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="an already running server (127.0.0.1 only); default: start daphne")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.url and not args.url.startswith("http://127.0.0.1:"):
        parser.error("--url must point at 127.0.0.1")
    server = None if args.url else harness.start_server("bench.bench_settings", collectstatic=True)
    try:
        rows = asyncio.run(asyncio.wait_for(measure(args.url or server.url), 60))
    finally:
        if server:
            server.stop()
    if args.json:
        total = sum(r["wire_bytes"] for r in rows)
        print(json.dumps({"rows": rows, "total_wire_bytes": total, "target_bytes": TARGET_BYTES}, indent=2))
    else:
        print_table(rows)
    errors = harness.daphne_errors(server.workdir / "daphne.log") if server else []
    for block in errors:
        print(block, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
