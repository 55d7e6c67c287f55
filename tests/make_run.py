"""How `make run` starts daphne, read from the Makefile: the servers of the trust tests and
probes run with exactly its flags (tests/e2e/test_client_address.py, bench/probes.py).  No Django
here: the probes import it before any settings exist."""

from __future__ import annotations

import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def make_run_flags() -> tuple[str, ...]:
    """The daphne options `make run` passes, but where it listens and the application."""
    line = next(line for line in (ROOT / "Makefile").read_text().splitlines() if "/daphne " in line)
    words = shlex.split(line.replace("$(HOST)", "0.0.0.0").replace("$(PORT)", "8000"))
    words = words[words.index(next(w for w in words if w.endswith("/daphne"))) + 1:]
    flags, skip = [], False
    for word in words:
        if skip:
            skip = False
        elif word in ("-b", "-p"):
            skip = True
        elif not word.endswith(":application"):
            flags.append(word)
    return tuple(flags)
