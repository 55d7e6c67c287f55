"""GRANNA's extended version: the action cards and the New Gang (rules B.3.4, B.3.5), as tables
and pure readers of the state.

"rules B.3.4" means ``docs/rules/classic-mafia.md``; GRANNA's Ukrainian rulebook ("РОЗШИРЕНА
ВЕРСІЯ", "КАРТКИ ДІЇ – ДЕТАЛЬНИЙ ОПИС") is the authority.  This module knows the cards — who may
use which, in which window, how the box is made and dealt, who belongs to which force — and
nothing of phases: the chapters (``night_steps.py``, ``day.py``, ``windows.py``) play them.

Every card a seat holds is secret (``state["secret"]["cards"]``) until it is played face up; the
public part (``state["cards"]``) is what lies on the table: the box the host chose, the Leader,
the Role Swap, every card played, and the badges they leave.
"""

from __future__ import annotations

from typing import Any

from engines import chance
from engines.base import NOBODY, PUBLIC, Event, State
from engines.classic import roles as R

# --------------------------------------------------------------------------------------------
# The cards (rules B.3.4, in the rulebook's order)
# --------------------------------------------------------------------------------------------

VEST, BANDAGE, RECRUITMENT, LEADER, TURNCOAT, ROLE_SWAP = (
    "vest", "bandage", "recruitment", "leader", "turncoat", "role_swap")
WIRETAP, HIDEOUT, SAFE_CONDUCT, ARREST, CORNER_SHOT, CAPTURE, LAST_SHOT = (
    "wiretap", "hideout", "safe_conduct", "arrest", "corner_shot", "capture", "last_shot")
NEW_GANG, NEUTRAL = "new_gang", "neutral"

SINGLE_CARDS = (VEST, BANDAGE, RECRUITMENT, LEADER, TURNCOAT, ROLE_SWAP, WIRETAP, HIDEOUT,
                SAFE_CONDUCT, ARREST, CORNER_SHOT, CAPTURE, LAST_SHOT)
NEW_GANG_CARDS = 3      # "він повинен взяти всі 3 картки"
NEW_GANG_PLAYERS = 14   # "мінімум 14!" — R, the players who get a card (rules B-Q17)

# "Використовується: Полісменом, Мафіозі[, Агентом]" — the symbols printed on each card.  A card
# without the symbol of its holder's current token is neutral for him.
_PM = frozenset({R.POLICEMAN, R.MAFIOSO})
USABLE_BY: dict[str, frozenset[str]] = {
    VEST: _PM, BANDAGE: _PM, RECRUITMENT: frozenset({R.MAFIOSO}),
    LEADER: frozenset({R.POLICEMAN, R.MAFIOSO, R.AGENT}), TURNCOAT: _PM, ROLE_SWAP: _PM,
    WIRETAP: _PM, HIDEOUT: _PM, SAFE_CONDUCT: _PM, ARREST: _PM,
    CORNER_SHOT: frozenset({R.POLICEMAN}), CAPTURE: frozenset({R.POLICEMAN}),
    LAST_SHOT: frozenset({R.POLICEMAN}), NEW_GANG: _PM, NEUTRAL: frozenset(),
}

# The recommended set (our decision, docs/rules/classic-mafia.md E.2): the cards a table new to
# the extended version learns fastest — each is played face up at a moment everyone sees, none
# turns a player's team in secret (Recruitment, Turncoat, Role Swap) — and that reward the Police
# and the Mafia alike.
RECOMMENDED = frozenset({VEST, BANDAGE, LEADER, WIRETAP, ARREST, LAST_SHOT})

# The reaction windows (rules B.3.4, "Extended-version procedure changes") and the cards that
# may be played in each.  A window opens whenever one of its cards is in the box and has not
# been played: public facts only, so whether it opens tells nobody who holds what.
DAWN, LYNCH, DAY_START, DAY_END, SHOT_WINDOW = "dawn", "lynch", "day_start", "day_end", "last_shot"
WINDOW_CARDS: dict[str, tuple[str, ...]] = {
    DAWN: (VEST, BANDAGE),          # "Завжди після фази Мафії … гравець має час на реакцію"
    LYNCH: (VEST, BANDAGE),         # "у фінальному голосуванні він так само може оборонитись"
    DAY_START: (ARREST, CAPTURE),   # "на початку фази Поліції"
    DAY_END: (WIRETAP, HIDEOUT, SAFE_CONDUCT, CORNER_SHOT),   # "під кінець фази Поліції"
    SHOT_WINDOW: (LAST_SHOT,),      # "Якщо у будь-який момент гри тебе «вб'ють»"
}
# Cards that name a target when played.
TARGETED = frozenset({CAPTURE, CORNER_SHOT, LAST_SHOT, RECRUITMENT, ROLE_SWAP})


def card_option(card: str) -> str:
    """The option key that puts ``card`` in the box (editions.py)."""
    return f"card_{card}"


def cap(players: int) -> int:
    """"на 4 гравців … не більше 1 картки дії" (rules B-Q18: floor(R/4), New Gang counts 3)."""
    return players // 4


# --------------------------------------------------------------------------------------------
# The box and the deal (rules B.3.4 "Dealing")
# --------------------------------------------------------------------------------------------

BOX, CARD_DEAL = "card_box", "card_deal"     # the chance kit's labels


def new_gang_in_play(players: int, rules: dict) -> bool:
    """The three New Gang cards go in: asked for, with action cards, at 14 players or more."""
    return bool(rules["action_cards"] and rules["new_gang"] and players >= NEW_GANG_PLAYERS)


def chosen_cards(rules: dict) -> list[str]:
    """The single cards the host chose, in the rulebook's order."""
    return [card for card in SINGLE_CARDS if rules[card_option(card)]]


def make_box(record: chance.Record, players: int, rules: dict) -> tuple[list[str], list[Event], chance.Record]:
    """The action cards of this game (sorted in the rulebook's order, New Gang last).  More
    chosen than the cap allows: as many as it allows, drawn by the chance kit in public (our
    decision: the game master shows the chosen cards to everyone, so the draw is public too)."""
    gang = [NEW_GANG] * NEW_GANG_CARDS if new_gang_in_play(players, rules) else []
    room = max(0, cap(players) - len(gang))
    chosen, events = chosen_cards(rules), []
    if len(chosen) > room:
        drawn = chance.shuffle(record, BOX, chosen, audience=PUBLIC, why="cap")
        record, events = drawn.chance, [drawn.event]
        chosen = [card for card in SINGLE_CARDS if card in drawn.value[:room]]
    return chosen + gang, events, record


def deal_cards(record: chance.Record, players: int, box: list[str]) -> chance.Draw:
    """"доповнює їх такою кількістю нейтральних карток, щоб кожний гравець міг дістати по одній
    картці. Ретельно тасує ці карти і роздає" — the game master's shuffle (nobody sees it)."""
    return chance.shuffle(record, CARD_DEAL, box + [NEUTRAL] * (players - len(box)), audience=NOBODY)


# --------------------------------------------------------------------------------------------
# Reading the state
# --------------------------------------------------------------------------------------------

def extended(state: State) -> bool:
    """Is this game played with the action cards?"""
    return state.get("cards") is not None


def card_of(state: State, seat: int) -> str:
    return state["secret"]["cards"]["dealt"][seat]


def used(state: State, seat: int) -> bool:
    return state["secret"]["cards"]["used"][seat]


def usable(state: State, seat: int, card: str | None = None) -> bool:
    """Does ``seat``'s card carry the symbol of his current token (rules B.3.4 "Usability")?"""
    card = card or card_of(state, seat)
    return state["secret"]["roles"][seat] in USABLE_BY[card]


def holds(state: State, seat: int, card: str) -> bool:
    """``seat`` holds ``card``, usable with his current token and not played yet."""
    return card_of(state, seat) == card and usable(state, seat) and not used(state, seat)


def unplayed_in_box(state: State, cards: tuple[str, ...]) -> bool:
    """One of ``cards`` is in the game and has not been played face up (public facts)."""
    played = {entry["card"] for entry in state["cards"]["face_up"]}
    return any(card in state["cards"]["box"] and card not in played for card in cards)


def new_gang_members(state: State) -> list[int]:
    """Every seat (dead or alive) whose New Gang card counts: token Policeman or Mafioso
    (rules B.3.5: neutral for the Agent)."""
    if not extended(state):
        return []
    return [seat for seat in range(state["players"])
            if card_of(state, seat) == NEW_GANG and usable(state, seat)]


def effective_team(state: State, seat: int) -> str:
    """rules B.3.4 "Effective team": the token's team, then Recruitment (→ Mafia), then
    Turncoat (the opposite team).  The Agent's check and a death show the token, not this."""
    role = state["secret"]["roles"][seat]
    team = R.team(role)
    if not extended(state):
        return team
    if seat in state["secret"]["cards"]["recruits"]:
        team = R.MAFIA      # "З цього самого моменту, цей гравець стає мафіозі"
    if card_of(state, seat) == TURNCOAT and usable(state, seat):
        team = R.POLICE if team == R.MAFIA else R.MAFIA   # "граєш за протилежну команду"
    return team


def force(state: State, seat: int) -> str:
    """The force a seat plays for (rules B.3.5): the New Gang for its members (their goal
    replaces their team's), else the effective team."""
    if card_of_or_none(state, seat) == NEW_GANG and usable(state, seat):
        return NEW_GANG
    return effective_team(state, seat)


def card_of_or_none(state: State, seat: int) -> str | None:
    return card_of(state, seat) if extended(state) else None


def face_up(state: State, seat: int, card: str, round_: int, target: int | None = None,
            **more: Any) -> dict:
    """Put a card face up on the table (public): the entry ``state["cards"]["face_up"]`` keeps."""
    entry = {"seat": seat, "card": card, "round": round_, "target": target, **more}
    state["cards"] = {**state["cards"], "face_up": state["cards"]["face_up"] + [entry]}
    return entry


def badges(state: State, kind: str) -> list[int]:
    """The seats a card protects or restricts now (rules B.3.4), by ``kind``:
    ``untouchable`` (Wiretap/Hideout in their protected round: no mafia pick, no vote for or by
    him, no Corner Shot or Last Shot at him), ``safe`` (Safe-Conduct: no mafia pick),
    ``arrested`` (not on the ballot), ``captured`` (no ballot of his own)."""
    if not extended(state):
        return []
    round_ = state["round"]
    return sorted({entry["seat"] for entry in state["cards"]["badges"]
                   if entry["kind"] == kind and entry["round"] == round_})


def voters(state: State, living: list[int]) -> list[int]:
    """Who gets a ballot today: the living, not Wiretap/Hideout-protected, not captured."""
    barred = set(badges(state, "untouchable")) | set(badges(state, "captured"))
    return [seat for seat in living if seat not in barred]


def candidates(state: State, seats: list[int]) -> list[int]:
    """Who may be voted for today among ``seats``: not Wiretap/Hideout-protected, not arrested."""
    barred = set(badges(state, "untouchable")) | set(badges(state, "arrested"))
    return [seat for seat in seats if seat not in barred]


def leader_order(state: State, living: list[int], voting: list[int]) -> list[int] | None:
    """With the Leader on the table, the voters one at a time from its holder clockwise
    ("Голосування починається завжди від Лідера … по черзі за годинниковою стрілкою")."""
    if not extended(state) or state["cards"]["leader"] is None:
        return None
    start, players = state["cards"]["leader"], state["players"]
    ring = [(start + step) % players for step in range(players)]
    return [seat for seat in ring if seat in voting]


def left_of(state: State, seat: int, living: list[int]) -> int | None:
    """The next living player on ``seat``'s left (clockwise, rules §0)."""
    players = state["players"]
    for step in range(1, players + 1):
        other = (seat + step) % players
        if other in living and other != seat:
            return other
    return None
