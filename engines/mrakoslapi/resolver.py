"""The night resolver of Mrakošlapi: bullets, tunnels, saliva, mirrors, Mrakošlapy (rules §4.4).

"rules §4.4 R3" means ``docs/rules/mrakoslapi.md``; the Czech Mrakošlapi rulebook
("Tunel", "Slina", "Pořadí jednotlivých druhů obrany",
"Vyhodnocování NOCI") is the authority.  One pure function, ``resolve(night_input)``, turns the
night's ballistic facts (built from the choices by ``night.build_night_input``, rules §4.3) into
what happened, with a secret step-by-step trace the TV can replay at game end.

The model (rules §4.4, normative):

* A bullet is named after the card that fired it (``M1``…``M3`` Mafián, ``G1``, ``G2`` Šílený
  střelec).  It flies as fragments ``(bullet, fraction, prev)``; ``prev`` is the person the
  fragment last left.  "Všechny střely letí první časovou jednotku ke svému cíli zaráz": every
  bullet arrives at ``t = 1``; every tunnel passage and every reflection takes one more unit.
* All fragments reaching person P at time t form one group (merged by ``(bullet, prev)``).
  Groups are handled by increasing t, persons in seat order within one t (R1; the order cannot
  matter: a group uses only P's own tunnels-out, saliva, mirrors and Mrakošlapy, and everything it
  sends arrives at t + 1).
* A group takes the FIRST applicable step of "letící střela > tunel > slina > zrcadlo >
  Mrakošlap > život hráče" (R2), with our ``corpse`` step in front (R9):

  corpse     P died earlier this night: every fragment sticks in the body, no effect (R9, A17).
  tunnel     P has unused tunnels out: one tunnel per DISTINCT destination is used (the lowest-
             numbered Mág to that destination), the group is split equally over the k
             destinations (halves, thirds, …, exact ``Fraction``); identical tunnels stay unused
             as backups (R3, R4, A15, A16).
  saliva     P is slimed: every fragment slides off and vanishes; nothing is consumed (R5).
  mirror     P has a READY Zrcadlo: the lowest-numbered breaks and sends EVERY fragment back to
             its own ``prev`` (the previous hop, A4), fraction unchanged (R6).
  hits       one hit per DISTINCT bullet, in the order M1, M2, M3, G1, G2: the lowest READY
             Mrakošlap dies, else P dies, else (P died from an earlier bullet of this very group)
             the bullet sticks in the corpse (R7, A2, A3).  Fragments of one bullet arriving
             together re-join and count once.
* Anything used at t is gone from t + 1 on (R10); tunnels and mirrors are finite, so the night
  ends by ``t ≤ 1 + #tunnels + #mirrors`` (R12, checked).  Fractions never decide anything
  (R8, "stačí libovolný zlomek"); they are kept exactly for the audit trail.

Input (JSON; lists in any order, persons are seat numbers)::

    {"night": 3,                                          # optional, passed through
     "players": [{"seat": 3, "mirrors": [4], "mraks": [1, 5]}, …],   # V, the visible living
     "shots":   [{"bullet": "M1", "origin": 0, "target": 3}, …],
     "tunnels": [{"mag": 1, "from": 3, "to": 4}, …],
     "slimed":  [4],
     "discarded": [<discard steps from the input builder>],          # optional
     "exhibits": [{"card": "EXHIBICIONISTA", "no": 1, "maker": 3, "target": 4}],  # optional,
     "medik": null,                                       # optional, both passed through
     "options": {"merge_same_bullet_same_time": true}}     # optional (A3)

Output (JSON): ``{"night", "shots", "slimed", "exhibits", "medik", "trace", "broken_mirrors",
"dead_mraks", "deaths", "tunnels_used", "last_t"}``; see ``resolve``.  Fractions are
``"n/d"`` strings (``"1/1"`` for a whole bullet).

Trace steps (every step has ``t`` and ``kind``; ``at`` is the person whose group it is)::

    discard      t 0: a tunnel or saliva the input builder dropped (Atheist rules), as built
    fire         t 0: bullet, origin, target, arrive (= 1)
    tunnel       at, mag, from, to, split (k), carries [{bullet, fraction}], arrive
    saliva       at, absorbs [{bullet, fraction, prev}]
    mirror       at, no, reflects [{bullet, fraction, to}], arrive
    mrak_dies    at, no, bullet, fragments [{bullet, fraction, prev}]
    player_dies  at, bullet, fragments
    corpse       at, died_at, fragments (died_at < t: the body was already there, R9;
                 died_at == t: a further bullet of the group that killed P, R7)
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

Step = dict[str, Any]
Group = dict[tuple[str, int], Fraction]          # (bullet, prev) -> fraction

MERGE_SAME_BULLET_SAME_TIME = "merge_same_bullet_same_time"
_BULLET = re.compile(r"^[MG][1-9][0-9]*$")


def bullet_key(bullet: str) -> tuple[int, int]:
    """The canonical bullet order M1, M2, M3, G1, G2 (rules §4.4 R7)."""
    return "MG".index(bullet[0]), int(bullet[1:])


def fraction_json(q: Fraction) -> str:
    return f"{q.numerator}/{q.denominator}"


@dataclass
class _Night:
    """The resolver's private working copy; the caller's input is never touched."""

    merge: bool
    slimed: frozenset[int]
    mirrors: dict[int, list[int]]                 # READY Zrcadlo numbers, ascending
    mraks: dict[int, list[int]]                   # READY Mrakošlap numbers, ascending
    unused: list[tuple[int, int, int]]            # (mag, from, to), ascending by mag
    rank: dict[int, int]                          # seat -> seat-order rank (tunnel destinations)
    dead_at: dict[int, int] = field(default_factory=dict)
    arrivals: dict[int, dict[int, Group]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(lambda: defaultdict(Fraction))))
    trace: list[Step] = field(default_factory=list)

    def send(self, t: int, person: int, bullet: str, prev: int, q: Fraction) -> None:
        self.arrivals[t][person][(bullet, prev)] += q


# --------------------------------------------------------------------------------------------
# The resolver
# --------------------------------------------------------------------------------------------

def resolve(night_input: dict[str, Any]) -> dict[str, Any]:
    """Resolve one night (rules §4.4, §4.5).  Pure: JSON in, JSON out, input untouched.

    Returns::

        {"night": n, "shots": [{"bullet", "origin", "target"}], "slimed": [seat],
         "exhibits": [...], "medik": seat | None,          # passed through from the input
         "trace": [step],                                   # the secret replay, see the module
         "broken_mirrors": [{"seat", "no", "t"}],
         "dead_mraks": [{"seat", "no", "t", "bullet"}],
         "deaths": [{"seat", "t", "bullet"}],               # real deaths only
         "tunnels_used": [{"mag", "from", "to", "t"}],
         "last_t": t}                                       # 0 when no bullet flew
    """
    _check(night_input)
    seats = sorted(p["seat"] for p in night_input["players"])
    return _resolve_in_order(night_input, seats)


def _resolve_in_order(night_input: dict[str, Any], order: list[int]) -> dict[str, Any]:
    """``resolve`` with persons of one time unit handled in ``order`` (rules §4.4 R1 says seat
    order and that the order cannot change the result; the property tests try other orders)."""
    night = _start(night_input)
    shots = sorted(night_input["shots"], key=lambda s: bullet_key(s["bullet"]))
    night.trace.extend(dict(step) for step in night_input.get("discarded", []))
    for shot in shots:
        night.trace.append({"t": 0, "kind": "fire", "bullet": shot["bullet"],
                            "origin": shot["origin"], "target": shot["target"], "arrive": 1})
        night.send(1, shot["target"], shot["bullet"], shot["origin"], Fraction(1))
    bound = 1 + len(night.unused) + sum(len(m) for m in night.mirrors.values())
    t = 1 if shots else 0
    while t in night.arrivals:
        if t > bound:                                         # rules §4.4 R12
            raise RuntimeError(f"night did not end by t={bound}")
        for person in order:
            group = night.arrivals[t].get(person)
            if group:
                _handle(night, t, person, dict(group))
        t += 1
    last_t = t - 1 if shots else 0
    return _result(night_input, shots, night.trace, last_t)


def _start(night_input: dict[str, Any]) -> _Night:
    players = night_input["players"]
    options = night_input.get("options") or {}
    return _Night(
        merge=options.get(MERGE_SAME_BULLET_SAME_TIME, True),
        slimed=frozenset(night_input.get("slimed", [])),
        mirrors={p["seat"]: sorted(p.get("mirrors", [])) for p in players},
        mraks={p["seat"]: sorted(p.get("mraks", [])) for p in players},
        unused=sorted((tn["mag"], tn["from"], tn["to"]) for tn in night_input.get("tunnels", [])),
        rank={seat: i for i, seat in enumerate(sorted(p["seat"] for p in players))},
    )


def _handle(night: _Night, t: int, person: int, group: Group) -> None:
    """The first applicable defence step for the group at ``person`` (rules §4.4 R2)."""
    if person in night.dead_at:
        _corpse(night, t, person, group)
    elif any(frm == person for _, frm, _ in night.unused):
        _tunnels(night, t, person, group)
    elif person in night.slimed:
        _saliva(night, t, person, group)
    elif night.mirrors[person]:
        _mirror(night, t, person, group)
    else:
        _hits(night, t, person, group)


def _corpse(night: _Night, t: int, person: int, group: Group) -> None:
    """R9: a player who died earlier this night has no defences left; the bullets stick."""
    night.trace.append({"t": t, "kind": "corpse", "at": person,
                        "died_at": night.dead_at[person], "fragments": _fragments(group)})


def _tunnels(night: _Night, t: int, person: int, group: Group) -> None:
    """R3/R4: split the group over the distinct destinations of ``person``'s unused tunnels.

    "dva různé tunely" split into halves; identical tunnels do not split: the first (lowest
    Mág number) is used, the others wait as "pojistka" for a delayed or reflected bullet.
    """
    outgoing = [tn for tn in night.unused if tn[1] == person]
    destinations = sorted({to for _, _, to in outgoing}, key=night.rank.__getitem__)
    k = len(destinations)
    per_bullet: dict[str, Fraction] = defaultdict(Fraction)
    for (bullet, _prev), q in group.items():
        per_bullet[bullet] += q / k
    carried = [{"bullet": b, "fraction": fraction_json(per_bullet[b])}
               for b in sorted(per_bullet, key=bullet_key)]
    for to in destinations:
        tunnel = min(tn for tn in outgoing if tn[2] == to)        # lowest Mág number
        night.unused.remove(tunnel)
        night.trace.append({"t": t, "kind": "tunnel", "at": person, "mag": tunnel[0],
                            "from": person, "to": to, "split": k,
                            "carries": [dict(c) for c in carried], "arrive": t + 1})
        for (bullet, _prev), q in group.items():
            night.send(t + 1, to, bullet, person, q / k)


def _saliva(night: _Night, t: int, person: int, group: Group) -> None:
    """R5: "střela po slině sklouzne, zmizí ze hry"; saliva is not used up."""
    night.trace.append({"t": t, "kind": "saliva", "at": person, "absorbs": _fragments(group)})


def _mirror(night: _Night, t: int, person: int, group: Group) -> None:
    """R6: one mirror reflects the whole group, each fragment back to its own previous hop."""
    no = night.mirrors[person].pop(0)
    reflects = [{"bullet": f["bullet"], "fraction": f["fraction"], "to": f["prev"]}
                for f in _fragments(group)]
    night.trace.append({"t": t, "kind": "mirror", "at": person, "no": no,
                        "reflects": reflects, "arrive": t + 1})
    for (bullet, prev), q in group.items():
        night.send(t + 1, prev, bullet, person, q)


def _hits(night: _Night, t: int, person: int, group: Group) -> None:
    """R7: one Mrakošlap (lowest first) or the life per distinct bullet; the bullets stay in
    the victim ("zůstane zabodnuta v oběti")."""
    for bullet, fragments in _hit_units(group, night.merge):
        step: Step = {"t": t, "at": person}
        if person in night.dead_at:
            step |= {"kind": "corpse", "died_at": night.dead_at[person]}
        elif night.mraks[person]:
            step |= {"kind": "mrak_dies", "no": night.mraks[person].pop(0), "bullet": bullet}
        else:
            night.dead_at[person] = t
            step |= {"kind": "player_dies", "bullet": bullet}
        step["fragments"] = fragments
        night.trace.append(step)


def _hit_units(group: Group, merge: bool) -> list[tuple[str, list[dict[str, Any]]]]:
    """What counts as one hit: each distinct bullet (A2, A3), or with
    ``merge_same_bullet_same_time: false`` each fragment."""
    fragments = _fragments(group)
    if not merge:
        return [(f["bullet"], [f]) for f in fragments]
    bullets = sorted({f["bullet"] for f in fragments}, key=bullet_key)
    return [(b, [f for f in fragments if f["bullet"] == b]) for b in bullets]


def _fragments(group: Group) -> list[dict[str, Any]]:
    """The group as JSON, in canonical order (bullet, then previous hop)."""
    return [{"bullet": bullet, "fraction": fraction_json(q), "prev": prev}
            for (bullet, prev), q in sorted(group.items(),
                                            key=lambda item: (bullet_key(item[0][0]), item[0][1]))]


# --------------------------------------------------------------------------------------------
# The result
# --------------------------------------------------------------------------------------------

def _result(night_input: dict[str, Any], shots: list[dict[str, Any]], trace: list[Step],
            last_t: int) -> dict[str, Any]:
    return {
        "night": night_input.get("night"),
        "shots": [{"bullet": s["bullet"], "origin": s["origin"], "target": s["target"]}
                  for s in shots],
        "slimed": sorted(set(night_input.get("slimed", []))),
        "exhibits": [dict(e) for e in night_input.get("exhibits", [])],
        "medik": night_input.get("medik"),
        "trace": trace,
        "broken_mirrors": [{"seat": s["at"], "no": s["no"], "t": s["t"]}
                           for s in trace if s["kind"] == "mirror"],
        "dead_mraks": [{"seat": s["at"], "no": s["no"], "t": s["t"], "bullet": s["bullet"]}
                       for s in trace if s["kind"] == "mrak_dies"],
        "deaths": [{"seat": s["at"], "t": s["t"], "bullet": s["bullet"]}
                   for s in trace if s["kind"] == "player_dies"],
        "tunnels_used": [{"mag": s["mag"], "from": s["from"], "to": s["to"], "t": s["t"]}
                         for s in trace if s["kind"] == "tunnel"],
        "last_t": last_t,
    }


# --------------------------------------------------------------------------------------------
# Input checks (a malformed input is a programming error of the caller: ValueError)
# --------------------------------------------------------------------------------------------

def _check(night_input: dict[str, Any]) -> None:
    seats = [p["seat"] for p in night_input["players"]]
    _unique(seats, "player seat")
    known = set(seats)
    shots = night_input["shots"]
    _unique([s["bullet"] for s in shots], "bullet")
    for s in shots:
        if not _BULLET.match(s["bullet"]):
            raise ValueError(f"bullet {s['bullet']!r}: expected M<n> or G<n>")
        _known(known, s["origin"], s["target"])
    tunnels = night_input.get("tunnels", [])
    _unique([tn["mag"] for tn in tunnels], "tunnel Mág number")
    for tn in tunnels:
        _known(known, tn["from"], tn["to"])
        if tn["from"] == tn["to"]:
            raise ValueError(f"tunnel Mág {tn['mag']}: origin and destination are the same")
    _known(known, *night_input.get("slimed", []))
    _unique([no for p in night_input["players"] for no in p.get("mirrors", [])], "Zrcadlo")
    _unique([no for p in night_input["players"] for no in p.get("mraks", [])], "Mrakošlap")


def _unique(values: list[Any], what: str) -> None:
    if len(values) != len(set(values)):
        raise ValueError(f"duplicate {what}")


def _known(known: set[int], *seats: int) -> None:
    for seat in seats:
        if seat not in known:
            raise ValueError(f"seat {seat} is not among the night's players")
