"""What the TV and each phone may show of classic Mafia (rules B.4, C.4): built field by field
from the public state, plus the viewer's own secrets (and a ghost's, rules B.2.3).
"""

from __future__ import annotations

from engines.base import State
from engines.classic import cards as C
from engines.classic import roles as R
from engines.classic.day import _next_voter, _vote_view, _voters
from engines.classic.moves import legal_actions
from engines.classic.table import (
    GAME_OVER, MAFIA_STEP, NIGHT, REMOVED, _alive, _mafiosi, _rule, dealt_roles, outcome,
)


def view(state: State, seat: int | None) -> dict:
    """What the TV (``seat`` None) or one phone may show now."""
    over = state["phase"] == GAME_OVER
    secret = state["secret"]
    clock = state["clock"]
    return {
        "ruleset": state["ruleset"],   # the edition (editions.py)
        "options": dict(state["options"]),
        "phase": state["phase"],
        "turn": state["turn"],
        "players": state["players"],
        "round": state["round"],
        "role_counts": dict(state["role_counts"]),
        "seats": [_seat_view(state, index, over) for index in range(state["players"])],
        "night_steps": list(state["night_steps"]),
        "night_step": state["night_step"],
        "dawn": _dawn_view(state["dawn"]),
        "victim": _night_victim(state["dawn"]),
        "vote": _current_vote(state),
        "last_vote": _vote_view(state["last_vote"], state["players"]),
        "finalists": list(state["finalists"]),
        "tied": list(state["tied"]),
        "coin": dict(state["coin"], among=list(state["coin"]["among"])) if state["coin"] else None,
        "last_shot": ({"shooter": state["last_shot"]["shooter"],
                       "optional": state["last_shot"]["optional"]}
                      if state["last_shot"] else None),
        "judge_used": state["judge_used"],
        "spell_used": state["spell_used"],
        "clock": {"id": clock["id"], "seconds": clock["seconds"]} if clock else None,
        "narration": [{"code": item["code"], "params": _copy(item["params"])}
                      for item in state["narration"]],
        "outcome": outcome(state).to_json() if over else None,
        "reveal": ({"roles": list(secret["roles"]), "dealt": dealt_roles(state),
                    "checks": [dict(record) for record in secret["checks"]],
                    "heals": [dict(record) for record in secret["heals"]],
                    "swap": _swap_view(secret["swap"]),
                    **_cards_reveal(state)} if over else None),
        "me": _me(state, seat) if seat is not None else None,
        **({"cards": _cards_view(state)} if C.extended(state) else {}),
    }


def _current_vote(state: State) -> dict | None:
    """The vote being collected: its ballot, who has voted, who votes; with the Leader on the
    table the order, the votes cast so far (public one by one) and whose turn it is."""
    vote = state["vote"]
    if vote is None:
        return None
    shown = {"kind": vote["kind"], "ballot": list(vote["ballot"]), "voted": list(vote["voted"]),
             "voters": _voters(state)}
    if "order" in vote:
        shown.update(order=list(vote["order"]), cast=[dict(cast) for cast in vote["cast"]],
                     turn=_next_voter(state))
    return shown


def _cards_view(state: State) -> dict:
    """The action cards on the table (rules B.4): the box the host chose, the Leader's holder,
    the Role Swap, every card face up, today's badges, and the window open now."""
    table = state["cards"]
    window = table["window"]
    role_swap = table["role_swap"]
    return {
        "box": list(table["box"]),
        "neutral": table["neutral"],
        "leader": table["leader"],
        "role_swap": {"holder": role_swap["holder"], "target": role_swap["target"]} if role_swap else None,
        "face_up": [dict(entry) for entry in table["face_up"]],
        # today's marks (a Safe-Conduct's until its night is over: "Після фази Мафії … її
        # прибирають"), and those played at this day's end for the next round
        "badges": [{"seat": entry["seat"], "kind": entry["kind"], "card": entry["card"]}
                   for entry in table["badges"] if entry["round"] == state["round"]
                   and not (entry["kind"] == "safe" and state["dawn"] and state["dawn"]["round"] == state["round"])],
        "next_round": [{"seat": entry["seat"], "kind": entry["kind"], "card": entry["card"]}
                       for entry in table["badges"] if entry["round"] == state["round"] + 1],
        "window": {"kind": window["kind"], "target": window["target"]} if window else None,
        "leader_pick": list(table["leader_pick"]["tied"]) if table["leader_pick"] else None,
        "struck": table["struck"],
        "new_gang": table["new_gang"],
    }


def _cards_reveal(state: State) -> dict:
    """At game over (rules §0): every card, whether it was played, the recruits, the turncoats
    and the New Gang."""
    if not C.extended(state):
        return {}
    secret = state["secret"]["cards"]
    return {"cards": list(secret["dealt"]), "cards_used": list(secret["used"]),
            "recruited": list(secret["recruits"]),
            "turncoats": [seat for seat in range(state["players"])
                          if secret["dealt"][seat] == C.TURNCOAT and C.usable(state, seat)],
            "gang": C.new_gang_members(state)}


def _my_card(state: State, seat: int) -> dict | None:
    """The seat's own action card, at all times: which, whether his current token may use it
    (else it is neutral for him), whether it is played, a play waiting for the window's end,
    and — for the New Gang — the members met."""
    if not C.extended(state):
        return None
    secret = state["secret"]["cards"]
    card, pending = secret["dealt"][seat], secret["pending"][seat]
    # the same fields on every phone (rules §0 anti-tell): a play waiting for the window's end
    # fills "pending" in, on its own player's phone only
    return {"card": card, "usable": C.usable(state, seat), "used": secret["used"][seat],
            "pending": dict(pending) if pending else {"card": None, "target": None},
            "gang": list(secret["gang"]) if seat in secret["gang"] else None,
            "recruited": seat in secret["recruits"]}


def _copy(params: dict) -> dict:
    """A narration line's parameters: ints, bools, None, lists of seats, a dict of counts."""
    return {key: list(value) if isinstance(value, list) else dict(value)
            if isinstance(value, dict) else value for key, value in params.items()}


def _seat_view(state: State, seat: int, over: bool) -> dict:
    dead = state["dead"][seat]
    role = dead["role"] if dead else state["secret"]["roles"][seat] if over else None
    return {"alive": dead is None, "role": role, "cause": dead["cause"] if dead else None}


def _dawn_view(dawn: dict | None) -> dict | None:
    if dawn is None:
        return None
    return {"round": dawn["round"], "spell": dawn["spell"], "saved": dawn["saved"],
            "deaths": [dict(death) for death in dawn["deaths"]]}


def _night_victim(dawn: dict | None) -> int | None:
    if dawn is None:
        return None
    return next((death["seat"] for death in dawn["deaths"] if death["cause"] == NIGHT), None)


def _swap_view(swap: dict | None) -> dict | None:
    return {**swap, "targets": list(swap["targets"])} if swap else None


def _me(state: State, seat: int) -> dict:
    """The viewer's own secrets — never their cast vote (a glance at a phone gives nothing)."""
    secret = state["secret"]
    role, alive = secret["roles"][seat], _alive(state, seat)
    checks = [dict(record) for record in secret["checks"] if record["agent"] == seat]
    tonight = secret["night"]
    pending = tonight["swap"] if tonight["swap"] and tonight["swap"]["wizard"] == seat else None
    cast = secret["swap"] if secret["swap"] and secret["swap"]["wizard"] == seat else None
    awake = seat in _mafiosi(state) and state["phase"] == MAFIA_STEP
    return {
        "seat": seat,
        "role": role,
        # the team he plays for: his token's, or a recruit's or a turncoat's (rules B.3.4)
        "team": C.effective_team(state, seat),
        "alive": alive,
        # the "stay silent" banner; a dead (ex-)agent must not reveal what he learned (B.2.3)
        "keep_secret": not alive and bool(checks),
        "partners": list(secret["met"][seat]),
        "checks": checks,
        "heals": [dict(record) for record in secret["heals"] if record["doctor"] == seat],
        "swap": ({"round": tonight["round"], "targets": list(pending["targets"]), "pending": True}
                 if pending else {"round": cast["round"], "targets": list(cast["targets"]),
                                  "pending": False} if cast else None),
        "judge_used": state["judge_used"] if role == R.JUDGE else None,
        "picks": ([{"seat": mafioso, "target": tonight["picks"][mafioso]}
                   for mafioso in _mafiosi(state)] if awake else None),
        "locked": tonight["locked"] if awake else None,
        "voted": bool(state["vote"]) and seat in state["vote"]["voted"],
        "moves": legal_actions(state, seat),
        # Not for a player the host removed (a cheat, rules B.2.3): he left the game, he does
        # not get to watch everyone's cards.
        "ghost": _ghost(state) if not alive and _rule(state, "ghost_view")
        and state["dead"][seat]["cause"] != REMOVED else None,
        **({"card": _my_card(state, seat)} if C.extended(state) else {}),
    }


def _ghost(state: State) -> dict:
    """What the dead see (rules B.2.3, PROPOSED ghost_view): every current role and the
    night's actions as they happen (kept through the day)."""
    secret = state["secret"]
    tonight = secret["night"]
    return {
        "roles": list(secret["roles"]),
        "night": {
            "round": tonight["round"],
            "check": dict(tonight["check"]) if tonight["check"] else None,
            "heal": dict(tonight["heal"]) if tonight["heal"] else None,
            "picks": [{"seat": seat, "target": target}
                      for seat, target in enumerate(tonight["picks"]) if target is not None],
            "victim": tonight["victim"],
            "swap": ({"wizard": tonight["swap"]["wizard"],
                      "targets": list(tonight["swap"]["targets"])} if tonight["swap"] else None),
            "caught": tonight["caught"],
        },
    }
