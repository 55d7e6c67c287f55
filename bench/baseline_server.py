"""The floor for bench/fanout.py: a bare `websockets` broadcast server, nothing else.

Clients connect to ws://127.0.0.1:PORT/<room>.  When one sends ``tap <id> <size>``, the server
broadcasts ``<id>:xxxx…`` (``size`` bytes in all) to every client of that room, the sender
included.  No database, no templates, no channel layer: what is left is the cost of the event
loop and the websocket protocol, i.e. the best a Python server on this machine can do.

    .venv/bin/python bench/baseline_server.py [--port 0] [--max-seconds 600]

Prints ``READY <port>`` once it listens.  Stops on SIGTERM/SIGINT, when its stdin closes (the
parent went away) or after --max-seconds, whichever comes first.  Binds 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys

from websockets.asyncio.server import broadcast, serve

MAX_PAYLOAD = 1 << 20
rooms: dict[str, set] = {}


async def handler(ws):
    room = rooms.setdefault(ws.request.path, set())
    room.add(ws)
    try:
        async for message in ws:
            if isinstance(message, str) and message.startswith("tap "):
                _, tap_id, size = message.split()
                head = f"{tap_id}:"
                broadcast(room, head + "x" * max(0, min(int(size), MAX_PAYLOAD) - len(head)))
    finally:
        room.discard(ws)


async def stdin_closed() -> None:
    """Resolves when the parent process closes our stdin (or dies)."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while await reader.read(4096):
        pass


async def main(port: int, max_seconds: float) -> None:
    stop = asyncio.get_running_loop().create_future()
    for sig in (signal.SIGTERM, signal.SIGINT):
        asyncio.get_running_loop().add_signal_handler(sig, lambda: stop.done() or stop.set_result(None))
    async with serve(handler, "127.0.0.1", port, compression=None, ping_interval=None,
                     max_size=MAX_PAYLOAD) as server:
        print(f"READY {server.sockets[0].getsockname()[1]}", flush=True)
        waiters = [stop, asyncio.ensure_future(stdin_closed())]
        await asyncio.wait(waiters, timeout=max_seconds, return_when=asyncio.FIRST_COMPLETED)
        for waiter in waiters:
            waiter.cancel()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0, help="0 = any free port (printed)")
    parser.add_argument("--max-seconds", type=float, default=600, help="exit after this long at the latest")
    args = parser.parse_args()
    asyncio.run(main(args.port, args.max_seconds))
