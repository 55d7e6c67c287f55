"""Classic Mafia: what each template gets — ``present`` (the TV's board and roster), a phone's kept
fragments (``phone_fragments``, ``phone_board``: a template and the only context it reads,
presenters/__init__.py)."""

from __future__ import annotations

from engines.classic import cards as C
from engines.classic.roles import team as token_team
from engines.classic.table import DEFENCE, DISCUSSION, FINAL_VOTE, RE_DISCUSSION, RE_VOTE, VOTE

from .. import fill, narrated, pick
from . import cards as card_words
from .words import (
    CAUSES, KIDS, KIDS_CAUSES, KIDS_HELP, KIDS_STEP_NAMES, PHASE_TITLES, REASONS, ROLE_HELP,
    SKIP_LABELS, STEP_NAMES, TEAM_NAMES, VOTE_KINDS, card_help, card_name, narrate, role_name, vote_help, words,
)


TEMPLATE_DIR = "engines/classic"


NIGHT_STEPS = ("agent", "doctor", "new_gang", "mafia", "wizard")
CARD_WINDOW = "card_window"
# The phases in which an action card may be played from the card area (windows.card_moves): a
# reaction window, the day's talk (Shot from Around the Corner) and the mafia's step
# (Recruitment).  Public: in them every living phone shows the same row of buttons.
CARD_PHASES = (CARD_WINDOW, DISCUSSION, DEFENCE, RE_DISCUSSION, "mafia")
# The day, from its discussion to its last vote (rules B.2.1, B.2.2): the audience's poll is open.
DAY_PHASES = (DISCUSSION, VOTE, DEFENCE, FINAL_VOTE, RE_DISCUSSION, RE_VOTE)


def present(view: dict, names: list[str]) -> dict:
    """Template context for a classic Mafia view (the TV when view["me"] is None)."""
    table = words(view)
    causes = KIDS_CAUSES if table == KIDS else CAUSES
    vote, last_vote, outcome = view.get("vote"), view.get("last_vote"), view.get("outcome")
    winners = set(outcome["winners"]) if outcome else set()
    rows = [{"seat": seat, "name": names[seat], "alive": info["alive"],
             "role": info["role"], "role_name": role_name(view, info["role"]) if info["role"] else "",
             "cause": str(causes.get(info["cause"], "")) if info["cause"] else "",
             "voted": bool(vote) and seat in vote["voted"],
             "voting": bool(vote) and seat in vote["voters"],
             "finalist": seat in view["finalists"] or seat in view["tied"],
             "winner": seat in winners}
            for seat, info in enumerate(view["seats"])]
    cards = view.get("cards")
    if cards is not None:
        for row, badges in zip(rows, _badges(view, cards)):
            row["badges"] = badges
    context = {
        "v": view,
        "rows": rows,
        "words": table,
        "phase_title": _phase_title(view),
        "night": view["phase"] in NIGHT_STEPS,
        "step_name": _step_name(view, table),
        "narration": narrated(narrate, view.get("narration", []), names, view),
        "living": [row for row in rows if row["alive"]],
        "finalist_names": [names[s] for s in view["finalists"]],
        "tied_names": [names[s] for s in view["tied"]],
        "waiting_votes": len(vote["voters"]) - len(vote["voted"]) if vote else 0,
        "ballot_names": [names[s] for s in vote["ballot"]] if vote else [],
        "vote_kind": VOTE_KINDS.get(vote["kind"], "") if vote else "",
        "vote_help": vote_help(vote["kind"], view["options"]) if vote else "",
        "shooter_name": names[view["last_shot"]["shooter"]] if view.get("last_shot") else "",
    }
    if last_vote:
        context["last_vote"] = {
            "kind": VOTE_KINDS.get(last_vote["kind"], ""),
            "double_name": names[last_vote["double"]] if last_vote["double"] is not None else None,
            "votes": [{"name": names[voter], "target": names[target], "double": voter == last_vote["double"]}
                      for voter, target in enumerate(last_vote["votes"]) if target is not None],
            "tally": sorted(({"name": names[seat], "count": count}
                             for seat, count in enumerate(last_vote["tally"]) if count),
                            key=lambda entry: -entry["count"]),
        }
    if outcome:
        context["winner_name"] = TEAM_NAMES[table].get(outcome["winner"], outcome["winner"])
        context["reason_text"] = REASONS[table].get(outcome["reason"], "")
        context["reveal"] = _reveal(view, names)
    if cards is not None:
        context["cards"] = _table_cards(view, cards, names)
    me = view.get("me")
    if me is not None:
        context.update(_mine(view, me, names))
    return context


def _phase_title(view: dict) -> str:
    cards = view.get("cards")
    if view["phase"] == CARD_WINDOW and cards and cards["window"]:
        return str(card_words.WINDOW_TITLES.get(cards["window"]["kind"], ""))
    return str(PHASE_TITLES.get(view["phase"], ""))


def _badges(view: dict, cards: dict) -> list[list[dict]]:
    """Each seat's badges on the TV's roster (public, rules B.4): the Leader, the Role Swap, and
    what the cards played protect or restrict — today's, and the ones played for the next round
    (a Wiretap, a Hideout or a Safe-Conduct Letter from the day's end)."""
    seats: list[list[dict]] = [[] for _ in view["seats"]]
    if cards["leader"] is not None:
        seats[cards["leader"]].append({"kind": "leader", "text": card_name(C.LEADER)})
    for entry in cards["face_up"]:      # shown from the start (rules B.3.4), swapped or not
        if entry["card"] == C.ROLE_SWAP:
            seats[entry["seat"]].append({"kind": "role_swap", "text": card_name(C.ROLE_SWAP)})
    for badge in cards["badges"]:
        seats[badge["seat"]].append({"kind": badge["kind"], "text": card_name(badge["card"])})
    for badge in cards.get("next_round", []):
        seats[badge["seat"]].append({"kind": "coming", "text": card_name(badge["card"])})
    for entry in cards["face_up"]:
        if entry["card"] == C.NEW_GANG:
            seats[entry["seat"]].append({"kind": "new_gang", "text": card_name(C.NEW_GANG)})
    return seats


def _window_text(view: dict, window: dict | None, names: list[str]) -> str:
    """What the open window is for, the same on the TV and every phone (public)."""
    if not window:
        return ""
    target = window["target"]
    return fill(card_words.WINDOW_TEXTS[window["kind"]], {"seat": names[target] if target is not None else ""})


def _table_cards(view: dict, cards: dict, names: list[str]) -> dict:
    """The action cards on the table (public, rules B.4): the box, every card played face up
    (the Leader and the Role Swap from the start), the open window, the Leader's tie-break."""
    swap = cards["role_swap"]

    def target(entry: dict) -> str:
        """Whom a card played named (not its own player: a Vest saves him), or with whom the
        Role Swap swapped."""
        seat = swap["target"] if entry["card"] == C.ROLE_SWAP and swap else entry.get("target")
        return names[seat] if seat is not None and seat != entry["seat"] else ""
    played = [{"name": names[entry["seat"]], "card": card_name(entry["card"]), "target": target(entry)}
              for entry in cards["face_up"]]
    leader_pick = cards.get("leader_pick")
    return {
        "box": [card_name(card) for card in dict.fromkeys(cards["box"])],
        "gang_in_box": C.NEW_GANG in cards["box"],
        "neutral": cards["neutral"],
        "played": played,
        "window_text": _window_text(view, cards["window"], names),
        "leader_name": names[cards["leader"]] if cards["leader"] is not None else "",
        "tied_names": [names[seat] for seat in leader_pick] if leader_pick else [],
        "swap_holder": next((names[entry["seat"]] for entry in cards["face_up"] if entry["card"] == C.ROLE_SWAP), ""),
        "cast": [{"name": names[cast["seat"]], "target": names[cast["target"]]}
                 for cast in (view.get("vote") or {}).get("cast", [])],
        # with the Leader on the table the votes go one at a time (rules B.3.4): whose turn it is
        "turn_name": names[turn] if (turn := (view.get("vote") or {}).get("turn")) is not None else "",
    }


def _step_name(view: dict, table: str) -> str:
    step = view.get("night_step") or ""
    name = (KIDS_STEP_NAMES if table == KIDS else {}).get(step) or STEP_NAMES.get(step, "")
    return str(name[table] if isinstance(name, dict) else name)


def _reveal(view: dict, names: list[str]) -> dict:
    """At the end everything is told (rules §0, game end reveal): checks, heals, the spell."""
    reveal = view["reveal"]
    return {
        "checks": [{"agent": names[c["agent"]], "target": names[c["target"]], "round": c["round"],
                    "result": role_name(view, c["role"])} for c in reveal["checks"]],
        "heals": [{"doctor": names[h["doctor"]], "target": names[h["target"]], "round": h["round"],
                   "self": h["doctor"] == h["target"]}
                  for h in reveal["heals"]],
        "swap": ({"wizard": names[reveal["swap"]["wizard"]], "round": reveal["swap"]["round"],
                  "targets": [names[s] for s in reveal["swap"]["targets"]]} if reveal["swap"] else None),
        **({"cards": [{"name": names[seat], "card": card_name(card), "used": used}
                      for seat, (card, used) in enumerate(zip(reveal["cards"], reveal["cards_used"]))
                      if card != C.NEUTRAL],
            "recruited": [names[seat] for seat in reveal["recruited"]],
            "turncoats": [names[seat] for seat in reveal["turncoats"]],
            "gang": [names[seat] for seat in reveal["gang"]]} if "cards" in reveal else {}),
    }


def _mine(view: dict, me: dict, names: list[str]) -> dict:
    """A phone's own things: its card (press and hold), and its buttons from ``me.moves``."""
    table = words(view)
    helps = KIDS_HELP if table == KIDS else ROLE_HELP
    mine = {
        "me": me,
        "my_role_name": role_name(view, me["role"]),
        "my_role_help": helps.get(me["role"], ""),
        "partner_names": [names[s] for s in me["partners"]],
        "my_checks": [{"name": names[c["target"]], "result": role_name(view, c["role"]), "round": c["round"]}
                      for c in me["checks"]],
        "my_heals": [{"name": names[h["target"]], "round": h["round"]} for h in me["heals"]],
        "my_swap": [names[s] for s in me["swap"]["targets"]] if me.get("swap") else None,
        "choices": _choices(view, me, names),
        "i_won": bool(view.get("outcome")) and me["seat"] in view["outcome"]["winners"],
    }
    if me.get("card") is not None:
        mine.update(_my_card(view, me, names, table))
    if view["phase"] in NIGHT_STEPS and me["alive"]:
        mine["night_row"] = _night_row(view, me, names, mine["choices"])
    if me.get("picks") is not None:
        mine["picks"] = [{"name": names[p["seat"]], "target": names[p["target"]] if p["target"] is not None else None}
                         for p in me["picks"]]
    if me.get("ghost"):
        ghost = me["ghost"]
        tonight = ghost["night"]
        mine["ghost"] = {
            "roles": [{"name": names[seat], "role": role_name(view, role), "alive": view["seats"][seat]["alive"]}
                      for seat, role in enumerate(ghost["roles"])],
            "check": ({"agent": names[tonight["check"]["agent"]], "target": names[tonight["check"]["target"]]}
                      if tonight["check"] else None),
            "heal": names[tonight["heal"]["target"]] if tonight["heal"] else None,
            "picks": [{"name": names[p["seat"]], "target": names[p["target"]]} for p in tonight["picks"]],
            "victim": names[tonight["victim"]] if tonight["victim"] is not None else None,
            "swap": [names[s] for s in tonight["swap"]["targets"]] if tonight["swap"] else None,
        }
    return mine


def _my_card(view: dict, me: dict, names: list[str], table: str) -> dict:
    """A phone's own action card (rules B.3.4: the holder may re-read it any time), in the card
    area every seated phone of an extended game has: collapsed, it is the same "Your action card"
    on every phone.  Inside: the card's name, what it does (one tap away), whether it is neutral
    for this token or played, the New Gang met — and, in the phases a card may be played in
    (``CARD_PHASES``, public), one row of buttons in one shape for every phone: a button per
    living player and one "Play my card"; only this phone's legal plays send (a neighbour's
    glance tells nothing, issue 14)."""
    mine = me["card"]
    card = mine["card"]
    waiting = bool((mine["pending"] or {}).get("card"))     # a play waiting for its window's end
    state = (card_words.WAITING if waiting else card_words.PLAYED if mine["used"] and card != C.NEUTRAL
             else card_words.NEUTRAL_FOR_YOU if not mine["usable"] and card != C.NEUTRAL else "")
    notes = []
    if mine["gang"]:
        notes.append(f"{card_name(C.NEW_GANG)}: {', '.join(names[seat] for seat in mine['gang'])}")
    plays = [move for move in me["moves"] if move["type"] == "play_card"]
    row = None
    if view["phase"] in CARD_PHASES:
        targets = {move["target"]: move for move in plays if "target" in move}
        untargeted = next((move for move in plays if "target" not in move), None)
        row = {"targets": [{"name": names[seat], "fields": _card_fields(targets.get(seat))}
                           for seat, info in enumerate(view["seats"]) if info["alive"]],
               "play": _card_fields(untargeted)}
    # On the role card (press and hold) too: the side a recruit or a turncoat plays for now (rules
    # B.3.4 "Effective team"), and the card with the New Gang met.
    team = me["team"]
    team_line = fill(card_words.YOU_PLAY_FOR, {"team": TEAM_NAMES[table].get(team, team)}) \
        if me["role"] and team != token_team(me["role"]) else ""
    card_line = " ".join([fill(card_words.YOUR_CARD, {"card": card_name(card)}), *notes])
    return {"my_card": {"name": card_name(card), "help": card_help(view, card), "state": str(state),
                        "note": " ".join(notes), "row": row},
            "my_team_line": team_line, "my_card_line": card_line}


def _card_fields(move: dict | None) -> dict | None:
    """A card play's form fields (forms.BUTTONS reads them back), or None: an inert button."""
    if move is None:
        return None
    return {"action": "play_card", "card": move["card"], **({"target": move["target"]} if "target" in move else {})}


# The moves that name one player: one button per player.
TARGET_ACTIONS = ("check", "heal", "pick_victim", "last_shot", "vote", "leader_pick")


def _choices(view: dict, me: dict, names: list[str]) -> dict:
    """The phone's buttons, from exactly the engine's legal moves: each a label and the form
    fields it sends.  ``targets``: one button per player; ``double``: the judge's second row;
    ``pair``: the wizard picks two; ``skip``: the button that declines."""
    targets, doubles, pair, skip = [], [], [], None
    for move in me["moves"]:
        kind = move["type"]
        if kind in TARGET_ACTIONS:
            fields = {"action": kind, "target": move["target"]}
            entry = {"label": names[move["target"]], "fields": fields}
            if move.get("double"):
                doubles.append({**entry, "fields": {**fields, "double": "on"}})
            else:
                targets.append(entry)
        elif kind == "play_card":
            if view["phase"] == "role_swap":    # the Role Swap's public holder (rules B.3.4)
                targets.append({"label": names[move["target"]], "fields": _card_fields(move)})
            # any other play is the card area's (``_my_card``)
        elif kind == "cast_swap":
            for seat in move["targets"]:
                if seat not in pair:
                    pair.append(seat)
        else:
            skip = {"action": kind, "label": SKIP_LABELS.get(kind, kind)}
    return {"targets": targets, "doubles": doubles, "skip": skip,
            "pair": [{"seat": seat, "name": names[seat]} for seat in sorted(pair)],
            "any": bool(targets or doubles or pair or skip)}


def _night_row(view: dict, me: dict, names: list[str], choices: dict) -> dict:
    """A living phone's night buttons, in one shape for every role (issue 14, identical night
    screens: a neighbour glancing at a phone must not tell who is awake, docs/design.md §7).

    One button per living player in seat order, then one quieter button: a button sends only
    where it is this phone's legal move (``fields``/``action``); the others (the agent's own name,
    a mafioso's partners, every button of a sleeper) send nothing.  At the wizard's step every
    phone ticks boxes instead (``pair``), the wizard's only naming the players he may swap.
    """
    legal = {c["fields"]["target"]: c["fields"] for c in choices["targets"]}
    pairable = {p["seat"] for p in choices["pair"]}
    skip = choices["skip"] or {"action": None, "label": SKIP_LABELS["nothing"]}
    return {"targets": [{"seat": seat, "name": names[seat], "fields": legal.get(seat), "box": seat in pairable}
                        for seat, info in enumerate(view["seats"]) if info["alive"]],
            "pair": view["phase"] == "wizard", "cast": bool(pairable), "skip": skip}


# What each of a phone's templates reads of ``present``'s context (``phone_fragments``).
ROLE_READS = ("my_role_name", "my_role_help", "partner_names", "my_checks", "my_heals", "my_swap", "my_team_line",
              "my_card_line")


PANEL_READS = ("night", "step_name", "night_row", "picks", "choices", "shooter_name", "vote_kind", "vote_help",
               "waiting_votes", "my_card", "cards",
               "ballot_names", "phase_title", "finalist_names", "tied_names", "ghost",
               "i_won", "winner_name", "reason_text")


def phone_fragments(view: dict, names: list[str], clock: dict) -> dict[str, tuple[str, dict]]:
    """A phone's role card and panel (with the countdown), each a template and the only context
    it reads (presenters/__init__.py): ``present``'s words, picked per template."""
    context, me = present(view, names), view["me"]
    return {
        "role": (f"{TEMPLATE_DIR}/phone_role.html",
                 {**pick(context, ROLE_READS), "me": {"judge_used": me["judge_used"]}}),
        "panel": (f"{TEMPLATE_DIR}/phone_panel.html",
                  {**pick(context, PANEL_READS), **clock, "turn": view["turn"],
                   "v": {"phase": view["phase"], "vote": bool(view.get("vote")),
                         "options": {"judge": view["options"].get("judge")}},
                   "me": {key: me.get(key) for key in ("alive", "keep_secret", "voted", "locked")}}),
    }


def phone_board(view: dict, names: list[str]) -> tuple[str, dict]:
    """The phones' board, from the TV's view: the round, who is out (and as what), the last
    vote.  Only the players out of the game are listed; the living are counted."""
    context = present(view, names)
    dead = [{"alive": False, "name": row["name"], "role_name": row["role_name"], "cause": row["cause"]}
            for row in context["rows"] if not row["alive"]]
    return f"{TEMPLATE_DIR}/phone_board.html", {
        "v": {"round": view["round"]}, "rows": dead, "living": [row["name"] for row in context["living"]],
        **pick(context, ("last_vote",))}


def audience_poll(view: dict) -> dict | None:
    """The audience's poll (presenters.audience_poll): open all day, from the discussion to the
    day's last vote, one per day (the round); the living may be named (docs/rules/classic-mafia.md,
    "The audience")."""
    if view["phase"] not in DAY_PHASES:
        return None
    return {"key": f"day{view['round']}", "seats": [seat for seat, info in enumerate(view["seats"]) if info["alive"]]}
