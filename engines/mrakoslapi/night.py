"""The Mrakošlapi night around the resolver: the skip rule, the resolver input built from the
night's choices, and the night result applied to the players (rules §4.1, §4.3, §4.8).

"rules §4.3" means ``docs/rules/mrakoslapi.md``; the Czech Mrakošlapi rulebook is the
authority.  Pure functions over JSON; nothing
here mutates its arguments.

The night-facing slice of the game state (rules §2) these functions read::

    table = {"night": n, "players": [player, …], "pending_bobo": seat | None}

The night's choices, as the screens will collect them (rules §4.2; every key optional, a missing
choice is the timeout default)::

    {"mafia":   [{"seat": 0, "target": 3}],         # one per Mafián HOLDER (A11)
     "gunmen":  [{"no": 1, "target": 3}],           # per Šílený střelec card
     "tunnels": [{"no": 1, "from": 3, "to": 4}],    # per Mág card; absent = pass
     "slime":   [{"no": 2, "target": 4}],           # per Slina card; absent = pass
     "exhibit": [{"no": 1, "target": 4}],           # per Exhibicionista card; absent = no
     "medik":   true | false,                       # the Medik holder fakes his death (A7)
     "bobo":    seat | None}                        # Duch Bobo's posthumous mute

A choice the rules do not allow (a card not held, a dead target, …) raises ``ValueError``:
the engine's ``apply`` is to refuse it before it gets here.  Choices of an Atheist's own Mág and
Slina cards are allowed (his phone shows them disabled, rules §4.2) and discarded here.

Our decisions (rules §7), beyond those of the rules file:

* Every discarded tunnel AND every discarded saliva becomes a ``discard`` step at the head of
  the trace.  The rules file's traces list only the discarded tunnels; its notes describe the
  void saliva in words (N07, N19).  The replay needs both.
* Cards of a really dead player become SURRENDERED whatever their state (rules §4.8 step 3,
  literally); the trace keeps what happened to them.  An unused pending Duch Bobo becomes
  SURRENDERED when its night has passed (rules §1.3: "stays READY until its one posthumous
  night has passed").
* The end-of-game test (rules §4.8 step 7, §6) belongs to the engine, which does not exist yet.
"""

from __future__ import annotations

from typing import Any

from engines.mrakoslapi import cards as C
from engines.mrakoslapi.players import (
    ALIVE, FAKE_DEAD, Player, alive_and_holds, by_seat, copy_player, die, holder_of,
    living_holders, visible_living,
)

EVEN, ODD = "even", "odd"
DEFAULT_OPTIONS = {
    "gunman_nights": EVEN,                  # A1: gunmen shoot on nights 2, 4, 6, …
    "atheist_blocks_tunnel_from": False,    # A6: only tunnels ONTO the Atheist vanish
    "merge_same_bullet_same_time": True,    # A3: fragments of one bullet arriving together
}

# Why a choice was discarded (``discard`` trace steps).
MAKER_IS_ATHEIST = "maker_is_atheist"
DESTINATION_IS_ATHEIST = "destination_is_atheist"
ORIGIN_IS_ATHEIST = "origin_is_atheist"          # only with atheist_blocks_tunnel_from
TARGET_IS_ATHEIST = "target_is_atheist"


def is_gunman_night(night: int, parity: str = EVEN) -> bool:
    """"Šílený střelec střílí každou druhou noc" — A1: the even nights, counting skipped ones."""
    return night % 2 == (0 if parity == EVEN else 1)


# --------------------------------------------------------------------------------------------
# §4.1 "NOC nemá význam"
# --------------------------------------------------------------------------------------------

def night_has_meaning(players: list[Player]) -> bool:
    """False iff no ALIVE player holds a READY Mafián or Šílený střelec AND the Medik is used up
    or its holder is not alive ("Noc nemá význam když: 1. …").  Card ownership only: a gunman on
    a non-gunman night still makes the night meaningful (N00c)."""
    shooters = living_holders(players, C.MAFIAN) + living_holders(players, C.SILENY_STRELEC)
    medik = holder_of(players, C.MEDIK, 1)
    medik_usable = alive_and_holds(medik, C.MEDIK)
    return bool(shooters) or medik_usable


# --------------------------------------------------------------------------------------------
# §4.3 Building the resolver input
# --------------------------------------------------------------------------------------------

def build_night_input(table: dict[str, Any], choices: dict[str, Any],
                      options: dict[str, Any] | None = None) -> dict[str, Any]:
    """The resolver's input (``resolver.resolve``) from the table and the night's choices."""
    options = {**DEFAULT_OPTIONS, **(options or {})}
    for key, ident in (("mafia", "seat"), ("gunmen", "no"), ("tunnels", "no"), ("slime", "no"),
                       ("exhibit", "no")):
        idents = [choice[ident] for choice in choices.get(key, [])]
        _require(len(idents) == len(set(idents)), f"two {key} choices for one {ident}")
    players = table["players"]
    visible = visible_living(players)
    atheist = _atheist(players)
    tunnels, tunnel_discards = _tunnels(players, visible, atheist, choices, options)
    slimed, slime_discards = _slimed(players, visible, atheist, choices)
    return {
        "night": table["night"],
        "players": [_defences(p) for p in players if p["status"] == ALIVE],
        "shots": _mafia_shots(players, visible, choices) + _gunman_shots(table, visible, choices,
                                                                         options),
        "tunnels": tunnels,
        "slimed": slimed,
        "discarded": tunnel_discards + slime_discards,
        "exhibits": _exhibits(table, visible, choices),
        "medik": _medik(players, choices),
        "options": {"merge_same_bullet_same_time": options["merge_same_bullet_same_time"]},
    }


def _defences(player: Player) -> dict[str, Any]:
    return {"seat": player["seat"], "mirrors": C.numbers(player["cards"], C.ZRCADLO),
            "mraks": C.numbers(player["cards"], C.MRAKOSLAP)}


def _atheist(players: list[Player]) -> int | None:
    """A: the ALIVE holder of the Ateista, or None."""
    holders = living_holders(players, C.ATEISTA)
    return holders[0][1] if holders else None


def _mafia_shots(players: list[Player], visible: list[int],
                 choices: dict[str, Any]) -> list[dict[str, Any]]:
    """"Musí se shodnout. Pakliže se neshodnou, nepadne výstřel. Počet střel … se rovná počtu
    žijících mafiánů": one bullet per living Mafián card iff every holder chose the same target;
    a holder without a choice disagrees (A11, A12)."""
    cards = living_holders(players, C.MAFIAN)
    holders = {seat for _, seat in cards}
    picks = {}
    for choice in choices.get("mafia", []):
        _require(choice["seat"] in holders, f"seat {choice['seat']} holds no living Mafián")
        _require(choice["target"] in visible, f"mafia target {choice['target']} is not alive")
        picks[choice["seat"]] = choice["target"]
    targets = {picks.get(seat) for seat in holders}
    if not holders or len(targets) != 1 or None in targets:
        return []
    target = targets.pop()
    return [{"bullet": f"M{no}", "origin": seat, "target": target} for no, seat in cards]


def _gunman_shots(table: dict[str, Any], visible: list[int], choices: dict[str, Any],
                  options: dict[str, Any]) -> list[dict[str, Any]]:
    """Each living Šílený střelec card with a target fires one bullet on a gunman night (A13)."""
    cards = dict(living_holders(table["players"], C.SILENY_STRELEC))
    gunman_night = is_gunman_night(table["night"], options["gunman_nights"])
    shots = []
    for choice in choices.get("gunmen", []):
        _require(gunman_night, f"night {table['night']} is not a gunman night")
        _require(choice["no"] in cards, f"Šílený střelec {choice['no']} is not living")
        _require(choice["target"] in visible, f"gunman target {choice['target']} is not alive")
        shots.append({"bullet": f"G{choice['no']}", "origin": cards[choice["no"]],
                      "target": choice["target"]})
    return sorted(shots, key=lambda s: s["bullet"])


def _tunnels(players: list[Player], visible: list[int], atheist: int | None,
             choices: dict[str, Any], options: dict[str, Any]) -> tuple[list, list]:
    """Mág tunnels, minus the Atheist's own and those onto the Atheist ("tunel zmizí")."""
    cards = dict(living_holders(players, C.MAG))
    kept, dropped = [], []
    for choice in sorted(choices.get("tunnels", []), key=lambda c: c["no"]):
        no, frm, to = choice["no"], choice["from"], choice["to"]
        _require(no in cards, f"Mág {no} is not living")
        _require(frm in visible and to in visible, f"tunnel Mág {no}: endpoints must be alive")
        _require(frm != to, f"tunnel Mág {no}: origin and destination must differ")
        reason = (MAKER_IS_ATHEIST if cards[no] == atheist
                  else DESTINATION_IS_ATHEIST if to == atheist
                  else ORIGIN_IS_ATHEIST if options["atheist_blocks_tunnel_from"] and frm == atheist
                  else None)
        if reason is None:
            kept.append({"mag": no, "from": frm, "to": to})
        else:
            dropped.append({"t": 0, "kind": "discard", "card": C.MAG, "no": no,
                            "maker": cards[no], "from": frm, "to": to, "reason": reason})
    return kept, dropped


def _slimed(players: list[Player], visible: list[int], atheist: int | None,
            choices: dict[str, Any]) -> tuple[list[int], list]:
    """Slimed persons, minus the Atheist's own saliva and saliva on the Atheist ("slina zmizí")."""
    cards = dict(living_holders(players, C.SLINA))
    slimed, dropped = set(), []
    for choice in sorted(choices.get("slime", []), key=lambda c: c["no"]):
        no, target = choice["no"], choice["target"]
        _require(no in cards, f"Slina {no} is not living")
        _require(target in visible, f"slime target {target} is not alive")
        reason = (MAKER_IS_ATHEIST if cards[no] == atheist
                  else TARGET_IS_ATHEIST if target == atheist else None)
        if reason is None:
            slimed.add(target)
        else:
            dropped.append({"t": 0, "kind": "discard", "card": C.SLINA, "no": no,
                            "maker": cards[no], "target": target, "reason": reason})
    return sorted(slimed), dropped


def _exhibits(table: dict[str, Any], visible: list[int],
              choices: dict[str, Any]) -> list[dict[str, Any]]:
    """Exhibicionista targets, then Duch Bobo's posthumous one (rules §1.5)."""
    cards = dict(living_holders(table["players"], C.EXHIBICIONISTA))
    exhibits = []
    for choice in sorted(choices.get("exhibit", []), key=lambda c: c["no"]):
        _require(choice["no"] in cards, f"Exhibicionista {choice['no']} is not living")
        _require(choice["target"] in visible, f"exhibit target {choice['target']} is not alive")
        exhibits.append({"card": C.EXHIBICIONISTA, "no": choice["no"], "maker": cards[choice["no"]],
                         "target": choice["target"]})
    target = choices.get("bobo")
    if target is not None:
        ghost = table.get("pending_bobo")
        _require(ghost is not None and _bobo_ready(table["players"], ghost),
                 "no Duch Bobo is pending this night")
        _require(target in visible, f"Duch Bobo target {target} is not alive")
        exhibits.append({"card": C.DUCH_BOBO, "no": 1, "maker": ghost, "target": target})
    return exhibits


def _bobo_ready(players: list[Player], seat: int) -> bool:
    return C.holds(by_seat(players)[seat]["cards"], C.DUCH_BOBO)


def _medik(players: list[Player], choices: dict[str, Any]) -> int | None:
    """The Medik holder who fakes his death tonight (A7: always himself), or None."""
    if not choices.get("medik"):
        return None
    holder = holder_of(players, C.MEDIK, 1)
    _require(alive_and_holds(holder, C.MEDIK), "no living, unused Medik")
    return holder["seat"]


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise ValueError(message)


# --------------------------------------------------------------------------------------------
# §4.8 Applying the night result
# --------------------------------------------------------------------------------------------

def apply_night(table: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
    """The table after the night ``result`` (``resolver.resolve``), plus what changed.

    Returns ``{"night", "players", "pending_bobo", "died", "fake_dead", "returned", "muted"}``:
    the new players and ``pending_bobo`` (for night n + 1), the really dead seats, the Medik who
    now fakes death, the Medik who returns at this dawn, and the seats muted on day n.
    """
    n = table["night"]
    players = {p["seat"]: copy_player(p) for p in table["players"]}
    _spend_bobo(players, table.get("pending_bobo"), result)                        # step 1
    _mark_cards(players, result)                                                    # step 2
    died = sorted({d["seat"] for d in result["deaths"]})
    pending_bobo = None
    for seat in died:                                                               # step 3
        t = min(d["t"] for d in result["deaths"] if d["seat"] == seat)
        if die(players[seat], {"phase": "NIGHT", "number": n, "t": t}):
            pending_bobo = seat
    fake_dead = _fake_death(players, result.get("medik"), n)                       # step 4
    returned = _returns(players, n)                                                 # step 5
    muted = sorted({e["target"] for e in result["exhibits"]
                    if players[e["target"]]["status"] == ALIVE})                    # step 6
    for seat in muted:
        players[seat]["muted_day"] = n
    return {"night": n, "players": [players[seat] for seat in sorted(players)],
            "pending_bobo": pending_bobo, "died": died, "fake_dead": fake_dead,
            "returned": returned, "muted": muted}


def apply_skipped_night(table: dict[str, Any]) -> dict[str, Any]:
    """"NOC nemá význam" (rules §4.1 step 3): nobody acts, a pending Duch Bobo chance is lost
    (A33), a fake-dead Medik due at this dawn still returns.  Same shape as ``apply_night``."""
    n = table["night"]
    players = {p["seat"]: copy_player(p) for p in table["players"]}
    _spend_bobo(players, table.get("pending_bobo"), {"exhibits": []})
    returned = _returns(players, n)
    return {"night": n, "players": [players[seat] for seat in sorted(players)],
            "pending_bobo": None, "died": [], "fake_dead": [], "returned": returned, "muted": []}


def _set(player: Player, card_type: str, no: int, state: str) -> None:
    player["cards"] = C.with_state(player["cards"], card_type, no, state)


def _spend_bobo(players: dict[int, Player], ghost: int | None, result: dict[str, Any]) -> None:
    """Step 1: the pending Duch Bobo is used now (SPENT) or forfeited (SURRENDERED)."""
    if ghost is None or not C.holds(players[ghost]["cards"], C.DUCH_BOBO):
        return
    used = any(e["card"] == C.DUCH_BOBO for e in result["exhibits"])
    _set(players[ghost], C.DUCH_BOBO, 1, C.SPENT if used else C.SURRENDERED)


def _mark_cards(players: dict[int, Player], result: dict[str, Any]) -> None:
    """Step 2: broken mirrors, dead Mrakošlapy, spent Exhibicionista and Medik cards."""
    for m in result["broken_mirrors"]:
        _set(players[m["seat"]], C.ZRCADLO, m["no"], C.BROKEN)
    for m in result["dead_mraks"]:
        _set(players[m["seat"]], C.MRAKOSLAP, m["no"], C.DEAD)
    for e in result["exhibits"]:
        if e["card"] == C.EXHIBICIONISTA:
            _set(players[e["maker"]], C.EXHIBICIONISTA, e["no"], C.SPENT)
    if result.get("medik") is not None:
        _set(players[result["medik"]], C.MEDIK, 1, C.SPENT)


def _fake_death(players: dict[int, Player], medik: int | None, n: int) -> list[int]:
    """Step 4: a Medik who survived night n is FAKE_DEAD through day n and night n + 1 (A8)."""
    if medik is None or players[medik]["status"] != ALIVE:
        return []
    players[medik]["status"] = FAKE_DEAD
    players[medik]["fake_dead_until_dawn_of_night"] = n + 1
    return [medik]


def _returns(players: dict[int, Player], n: int) -> list[int]:
    """Step 5: "Na konci příští noci se opět probudí do hry"."""
    back = sorted(seat for seat, p in players.items()
                  if p["status"] == FAKE_DEAD and p["fake_dead_until_dawn_of_night"] == n)
    for seat in back:
        players[seat]["status"] = ALIVE
        players[seat]["fake_dead_until_dawn_of_night"] = None
    return back
