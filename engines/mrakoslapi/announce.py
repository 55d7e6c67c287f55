"""The morning announcement of Mrakošlapi (rules §4.7), as codes and parameters, no sentences.

"rules §4.7" means ``docs/rules/mrakoslapi.md``; the Czech rulebook ("Po
skončení noci šéf hry oznámí: 1. Počet padlých výstřelů … 2. Poslintané osoby … 3. Exhibnuté
osoby … 4. Výsledky noci …") is the authority.  Only these aggregates are public; tunnels, paths,
who did what to whom, which hit killed what and a failed mafia vote never are.

Lines, in this order (``seats`` in seat order, ``numbers`` ascending, A18)::

    {"code": "night.returning", "params": {"seat": s}}      # only when a fake-dead Medik returns
    {"code": "night.shots",     "params": {"count": n}}      # bullets fired (A10)
    {"code": "night.slimed",    "params": {"seats": […]}}    # never the Atheist
    {"code": "night.exhibited", "params": {"seats": […]}}    # Exhibicionista and Duch Bobo targets
    {"code": "night.mirrors",   "params": {"numbers": […]}}  # broken Zrcadla
    {"code": "night.mraks",     "params": {"numbers": […]}}  # dead Mrakošlapy
    {"code": "night.dead",      "params": {"seats": […]}}    # real deaths and a Medik fake death

A skipped night ("NOC nemá význam", rules §4.1) is ``night.no_meaning`` (no params), followed by
``night.returning`` when a fake-dead Medik is due at that dawn.  Every list line is present even
when empty (the screen shows "—").
"""

from __future__ import annotations

from typing import Any

Line = dict[str, Any]

RETURNING = "night.returning"
SHOTS = "night.shots"
SLIMED = "night.slimed"
EXHIBITED = "night.exhibited"
MIRRORS = "night.mirrors"
MRAKS = "night.mraks"
DEAD = "night.dead"
NO_MEANING = "night.no_meaning"


def line(code: str, **params: Any) -> Line:
    return {"code": code, "params": params}


def morning(result: dict[str, Any], applied: dict[str, Any]) -> list[Line]:
    """The announcement after a played night: ``result`` from ``resolver.resolve``, ``applied``
    from ``night.apply_night``."""
    return [
        *_returning(applied),
        line(SHOTS, count=len(result["shots"])),
        line(SLIMED, seats=sorted(set(result["slimed"]))),
        line(EXHIBITED, seats=sorted({e["target"] for e in result["exhibits"]})),
        line(MIRRORS, numbers=sorted(m["no"] for m in result["broken_mirrors"])),
        line(MRAKS, numbers=sorted(m["no"] for m in result["dead_mraks"])),
        # The fake-dead Medik is "dead" like the others, indistinguishably (rules §1.5 Medik).
        line(DEAD, seats=sorted(set(applied["died"]) | set(applied["fake_dead"]))),
    ]


def skipped(applied: dict[str, Any]) -> list[Line]:
    """The announcement of a night that has no meaning (``night.apply_skipped_night``)."""
    return [line(NO_MEANING), *_returning(applied)]


def _returning(applied: dict[str, Any]) -> list[Line]:
    return [line(RETURNING, seat=seat) for seat in applied["returned"]]
