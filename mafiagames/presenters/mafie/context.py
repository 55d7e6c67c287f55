"""Mafie: what each template gets — ``present`` (the TV's board and roster), a phone's kept
fragments (``phone_fragments``, ``phone_board``: a template and the only context it reads,
presenters/__init__.py), and the TV's kept pieces (``tv_parts``)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engines.mafie.plot_cards import WINDOWS
from engines.mafie.tables import TEAM_VOTE

from .. import narrated
from .words import (PHASE_TITLES, PLOT_CARD_HELP, PLOT_CARD_NAMES, PLOT_WINDOW_TITLES, REASONS, ROLE_HELP,
                    ROLE_NAMES, TEAM_NAMES, choice_help, narrate)


TEMPLATE_DIR = "engines/mafie"


TEAM_OF_ROLE = {"mafioso": "mafia", "detective": "detectives"}


# The stage's mood (app.css): Mafie has no night, but two of its steps are secret, played with
# eyes on one's own phone: the detectives meeting and the crew's cards.  They get the night's
# look; the talk, the crew's pick and the open vote are the day's.
MOOD = {"detective_meeting": "night", "action_play": "night"}


def present(view: dict, names: list[str]) -> dict:
    """Template context for a Mafie view (TV when view["me"] is None)."""
    n = view["players"]
    last_vote = view.get("last_vote")
    roles = view.get("roles")
    team = set(view.get("team") or [])
    rows = []
    for seat in range(n):
        rows.append({
            "seat": seat,
            "name": names[seat],
            "kmotr": seat == view["kmotr"],
            "on_team": seat in team,
            "ready": seat in view.get("ready", []),
            "voted": seat in view.get("votes_cast", []),
            "played": seat in view.get("cards_played", []),
            "last_vote": None if not last_vote else last_vote["votes"][seat],
            "role": roles[seat] if roles else None,
            "role_name": ROLE_NAMES.get(roles[seat]) if roles else None,
            "winner": bool(view.get("outcome")) and seat in view["outcome"]["winners"],
        })
    me = view.get("me")
    context = {
        "v": view,
        "rows": rows,
        "kmotr_name": names[view["kmotr"]],
        "team_names": [names[s] for s in view.get("team") or []],
        "phase_title": PHASE_TITLES.get(view["phase"], ""),
        "mood": MOOD.get(view["phase"], "day"),
        "narration": narrated(narrate, view.get("narration", []), names, view),
        "rejection_marks": [i < view["rejections"] for i in range(5)],
        "waiting_count": _waiting_count(view),
    }
    if last_vote:
        context["last_vote_team"] = [names[s] for s in last_vote["team"]]
        context["last_vote_for"] = [names[s] for s, v in enumerate(last_vote["votes"]) if v]
        context["last_vote_against"] = [names[s] for s, v in enumerate(last_vote["votes"]) if not v]
    if view.get("outcome"):
        outcome = view["outcome"]
        context["winner_name"] = TEAM_NAMES.get(outcome["winner"], outcome["winner"])
        context["reason_text"] = REASONS.get(outcome["reason"], "")
    if view.get("plot") is not None:
        context["plot"] = _plot_context(view, names)
    spotlight = (view.get("last_action") or {}).get("spotlight")
    if spotlight:
        context["spotlight_name"] = names[spotlight["seat"]]
    if me is not None:
        context["me"] = me
        context["my_role_name"] = ROLE_NAMES.get(me["role"], me["role"])
        context["partner_names"] = [names[s] for s in me.get("partners") or []]
        # From the role, not the seat: phones with equal views share one rendering (rendering.py).
        context["i_won"] = bool(view.get("outcome")) and view["outcome"]["winner"] == TEAM_OF_ROLE[me["role"]]
    return context


def _plot_context(view: dict, names: list[str]) -> dict:
    """The Plot Thickens: public cards, the deal, the window; on a phone, its own choices and
    what its cards showed it (rules §A.3.3; plot cards are never hidden, what they show is)."""
    plot, me = view["plot"], view.get("me")

    def card(entry: dict) -> dict:
        return {**entry, **_card_shown(entry)}

    held = [{**card(h), "holder_name": names[h["holder"]]} for h in plot["held"]]
    context = {"held": held, "drawn": [card(c) for c in plot["drawn"]],
               "pending": None, "window": None, "opinion": _opinion(view, names), "log": []}
    if plot["pending"]:
        pending = plot["pending"]
        context["pending"] = {**card(pending), "holder_name": names[pending["seat"]]}
    window = view.get("window")
    if window:
        context["window"] = {**window, **_window(window, names)}
    for entry in plot["log"]:
        target = entry.get("target")
        context["log"].append({**card(entry), "seat_name": names[entry["seat"]],
                               "target_name": names[target] if isinstance(target, int) else None})
    if me is not None:
        seat = me["seat"]
        context["mine"] = [h for h in held if h["holder"] == seat]
        context["learnt"] = [_fact(fact, names) for fact in me.get("plot_learnt", [])]
        context["choices"] = _plot_choices(view, names)
    if view.get("plot_learnt"):
        context["reveal"] = [{"name": names[seat], "facts": [_fact(f, names) for f in facts]}
                             for seat, facts in enumerate(view["plot_learnt"]) if facts]
    return context


def _card_name(entry: dict) -> str:
    """A plot card (drawn, held, pending, played) by its name."""
    return str(PLOT_CARD_NAMES.get(entry["card"], entry["card"]))


def _card_shown(entry: dict) -> dict:
    """A plot card as a phone shows it: its name, and what it does behind its "?"."""
    return {"name": _card_name(entry), "help": str(PLOT_CARD_HELP.get(entry["card"], ""))}


def _window(window: dict, names: list[str]) -> dict:
    """A reaction window in words: who is asked, and which card he may play."""
    asked = window["asked"]
    return {"asked_name": names[asked] if asked is not None else None,
            "title": str(PLOT_WINDOW_TITLES.get(window["kind"], "")),
            "card_name": str(PLOT_CARD_NAMES.get(WINDOWS[window["kind"]], "")),
            "card_help": str(PLOT_CARD_HELP.get(WINDOWS[window["kind"]], ""))}


def _opinion(view: dict, names: list[str]) -> dict | None:
    """The Opinion Makers of this vote: who they are, and their votes once cast."""
    opinion = view.get("opinion")
    if not opinion:
        return None
    return {"names": [names[s] for s in opinion["seats"]],
            "votes": [{"name": names[s], "approve": v} for s, v in opinion["votes"] or []]}


def _fact(fact: dict, names: list[str]) -> dict:
    about = names[fact["about"]]
    if "role" in fact:
        text = _("%(name)s is a %(role)s.") % {"name": about, "role": ROLE_NAMES.get(fact["role"], fact["role"])}
    else:
        played = _("Success") if fact.get("action_card") == "success" else _("Fail")
        text = _("%(name)s played %(card)s.") % {"name": about, "card": played}
    return {"card_name": _card_name(fact), "text": text}


def _plot_choices(view: dict, names: list[str]) -> list[dict]:
    """This phone's plot moves (the engine lists them in ``me.plot_moves``) as buttons: each a
    label and the form fields it sends."""
    plot = view["plot"]
    cards = {c["id"]: c["card"] for c in [*plot["drawn"], *plot["held"]]}
    choices = []
    for move in view["me"].get("plot_moves", []):
        kind, target = move["type"], move.get("target")
        card = PLOT_CARD_NAMES.get(cards.get(move.get("card")), "")
        if kind == "assign_plot_card":
            label = _("%(card)s → %(name)s") % {"card": card, "name": names[move["to"]]}
        elif kind == "take_plot_card":
            label = _("%(card)s ← %(name)s") % {"card": card, "name": names[target]}
        elif kind == "play_plot_card":
            label = (_("%(card)s: %(name)s") % {"card": card, "name": names[target]} if target is not None
                     else _("Play %(card)s") % {"card": card})
        elif kind == "pass_plot":
            label = _("Pass")
        else:   # overhear, open up: the player chosen
            label = names[target]
        fields = {"action": kind, **{key: value for key, value in move.items() if key != "type"}}
        choices.append({"label": label, "fields": fields})
    return choices


# The move a phone makes in each phase that counts who is still awaited (``_waiting_count``).
_OWN_MOVE = {"detective_meeting": "ready", "team_vote": "vote", "action_play": "play_action_card"}


def _waiting_count(view: dict) -> int:
    phase = view["phase"]
    if phase == "detective_meeting":
        return view["players"] - len(view.get("ready", []))
    if phase == "team_vote":
        return view["players"] - len(view.get("votes_cast", []))
    if phase == "action_play":
        return len(view.get("team", [])) - len(view.get("cards_played", []))
    return 0


def tv_parts(view: dict, context: dict) -> dict[str, list[tuple[str, dict]]]:
    """Pieces of the TV's board and roster, each a template and the only context it gets.

    The track changes once per job and a vote changes one row and the progress line, but the
    board and roster around them change with every tap: rendering.py renders each piece once
    per distinct context and keeps it for the room (a template sees nothing but its context,
    so the context is a complete key).  ``context`` is what ``present`` made of the view.
    """
    parts = {**_track(view), "rows": [("engines/mafie/tv_player_row.html", _roster_row(row, view["phase"]))
                                           for row in context["rows"]]}
    if view["phase"] == "game_over":  # the result replaces the board (tv_result.html)
        return parts
    plot = context.get("plot")
    return {**parts,
            "status": [("engines/mafie/tv_status.html", {
                "kmotr_name": context["kmotr_name"], "rejection_marks": context["rejection_marks"],
                "rejections": view["rejections"], "team_names": context["team_names"]})],
            "progress": [("engines/mafie/tv_progress.html", {
                "phase": view["phase"], "waiting_count": context["waiting_count"],
                "approvals_needed": view.get("approvals_needed")})],
            "board_rest": [("engines/mafie/tv_board_rest.html", {
                "v": {"last_vote": view.get("last_vote"), "last_action": view.get("last_action")},
                **{key: context.get(key) for key in ("last_vote_team", "kmotr_name", "spotlight_name")},
                **({key: context.get(key) for key in ("last_vote_for", "last_vote_against")}
                   if view["phase"] == VOTES_BY_NAME_ON_BOARD else {}),
                "plot": plot and {key: plot[key] for key in ("drawn", "pending", "window", "opinion", "held")}})]}


# Who voted how on the last crew, on the TV: beside each name in the roster in the phases in which
# no other badge marks a row (ROSTER_SHOWS_VOTES: the board then has room for the plot cards
# dealt and played between the vote and the job), by name on the board during the job that vote
# sent out, and only as a tally while the next crew is voted on (the roster shows who has voted).
ROSTER_SHOWS_VOTES = ("team_selection", "plot_deal", "plot_window")
VOTES_BY_NAME_ON_BOARD = "action_play"


def _roster_row(row: dict, phase: str) -> dict:
    """What one TV roster row shows, and nothing else: a phase change re-renders only the rows
    whose badge it changes.  Roles are not here: at the end the result card lists them."""
    if phase == "team_vote":
        badge = "voted" if row["voted"] else "wait"
    elif phase == "action_play" and row["on_team"]:
        badge = "card_in" if row["played"] else "wait"
    elif phase == "detective_meeting":
        badge = "ready" if row["ready"] else "wait"
    elif phase in ROSTER_SHOWS_VOTES and row["last_vote"] is not None:
        badge = "approve" if row["last_vote"] else "reject"
    else:
        badge = None
    return {"name": row["name"], "connected": row["connected"], "kmotr": row["kmotr"], "on_team": row["on_team"],
            "badge": badge}


def _jobs(view: dict) -> list[dict]:
    """The track (templates/engines/mafie/track.html), words made here, not in the template:
    one rendering for the TV and every phone, re-rendered at a job's end."""
    over = view["phase"] == "game_over"
    return [{"slot": t["slot"], "result": t["result"], "current": t["slot"] == view["slot"] and not over,
             "size": ngettext("%(n)s member", "%(n)s members", t["team_size"]) % {"n": t["team_size"]},
             "two": t["fails_needed"] == 2,
             "res": {"success": _("Success"), "fail": _("Foiled")}.get(t["result"]),
             # How many sabotaged, under the word: a job's box is narrow on a TV (a sixth of
             # the stage), "Foiled (2 sabotages)" ran over its edge.
             "fails": t["fails"] if t["result"] == "fail" else None,
             "fails_words": ngettext("%(n)s sabotage", "%(n)s sabotages", t["fails"]) % {"n": t["fails"]}
             if t["result"] == "fail" else None}
            for t in view["track"]]


def _track(view: dict) -> dict[str, list[tuple[str, dict]]]:
    return {"track": [("engines/mafie/track.html", {"jobs": _jobs(view)})]}


def phone_fragments(view: dict, names: list[str], clock: dict) -> dict[str, tuple[str, dict]]:
    """A phone's role card and panel, each a template and the only context it reads
    (presenters/__init__.py).  No countdown in Mafie: ``clock`` is not shown."""
    return {"role": (f"{TEMPLATE_DIR}/phone_role.html", _role_context(view, names)),
            "panel": (f"{TEMPLATE_DIR}/phone_panel.html", _panel_context(view, names))}


def phone_board(view: dict, names: list[str]) -> tuple[str, dict]:
    """The phones' board, from the TV's view: the track, the Godfather, rejected crews, the last
    vote by name."""
    last_vote = view.get("last_vote")
    context = {"jobs": _jobs(view), "kmotr_name": names[view["kmotr"]],
               "v": {"rejections": view["rejections"],
                     "last_vote": last_vote and {key: last_vote[key] for key in ("approved", "approve", "reject")}}}
    if last_vote:
        context["rows"] = [{"name": names[seat], "last_vote": vote} for seat, vote in enumerate(last_vote["votes"])]
    return f"{TEMPLATE_DIR}/phone_board.html", context


def _role_context(view: dict, names: list[str]) -> dict:
    """phone_role.html: the role, the detectives' partners, what plot cards showed the phone."""
    me = view["me"]
    context = {"my_role_name": str(ROLE_NAMES.get(me["role"], me["role"])),
               "my_role_help": str(ROLE_HELP.get(me["role"], "")),
               "partner_names": [names[s] for s in me.get("partners") or []]}
    if view.get("plot") is not None:
        context["plot"] = {"learnt": [_fact(fact, names) for fact in me.get("plot_learnt", [])]}
    return context


def _panel_context(view: dict, names: list[str]) -> dict:
    """phone_panel.html, and nothing it does not show in this phase.

    Phones with equal contexts share one rendering (rendering.py), so the lean context is the
    speed: the seat is not here (the plot choices name seats where they differ), the role only
    once the game is over (won or lost); "waiting for N more" only once a phone has nothing
    left to do in the phase, and being on the crew only while the crew plays its cards —
    during a vote, the phones still choosing share one panel and those that have voted another,
    whoever is on the crew."""
    me, phase = view["me"], view["phase"]
    actions = me["actions"]
    v = {"phase": phase}
    context = {"v": v, "turn": view["turn"], "me": {"actions": actions}}
    plot = {} if view.get("plot") is not None else None
    waiting = phase in _OWN_MOVE and _OWN_MOVE[phase] not in actions
    if phase == "game_over":
        outcome = view["outcome"]
        context.update(i_won=outcome["winner"] == TEAM_OF_ROLE[me["role"]],
                       winner_name=str(TEAM_NAMES.get(outcome["winner"], outcome["winner"])),
                       reason_text=str(REASONS.get(outcome["reason"], "")))
        waiting = False
    elif phase == "team_selection":
        if "propose_team" in actions:
            v.update(team_size=view["team_size"], options={"targeting": view["options"].get("targeting")})
            if view["options"].get("targeting"):
                v.update(track=[{"slot": t["slot"], "team_size": t["team_size"]} for t in view["track"]],
                         open_slots=view["open_slots"])
            context["rows"] = [{"seat": seat, "name": name} for seat, name in enumerate(names[:view["players"]])]
        else:
            context["kmotr_name"] = names[view["kmotr"]]
    elif phase in ("team_vote", "action_play"):
        context["team_names"] = [names[s] for s in view.get("team") or []]
        context["choice_help"] = choice_help(phase)   # the "?" of the phase: every phone's
        if phase == "team_vote" and plot is not None:
            opinion = _opinion(view, names)
            plot["opinion"] = opinion
            if opinion and not opinion["votes"] and "vote" not in actions:
                context["me"]["voted"] = me.get("voted")
                waiting = waiting and bool(me.get("voted"))
        if phase == "action_play" and waiting:
            context["me"]["on_team"] = me["on_team"]
    elif phase in ("plot_deal", "plot_window"):
        plot["choices"] = _plot_choices(view, names)
        if phase == "plot_deal":
            plot["drawn"] = [_card_shown(c) for c in view["plot"]["drawn"]]
            pending = view["plot"]["pending"]
            plot["pending"] = pending and {"name": _card_name(pending), "holder_name": names[pending["seat"]]}
            if not plot["choices"] and not pending:
                context["kmotr_name"] = names[view["kmotr"]]
        else:
            window = view["window"]
            plot["window"] = window and _window(window, names)
    if waiting:
        context["waiting_count"] = _waiting_count(view)
    if plot is not None:
        plot["mine"] = [_card_shown(h) for h in view["plot"]["held"] if h["holder"] == me["seat"]]
        context["plot"] = plot
    return context


def audience_poll(view: dict) -> dict | None:
    """The audience's poll (presenters.audience_poll): Mafie has no day and nobody leaves, so a
    "day" is a job (the round): the poll opens at each of its crew votes, one answer per job,
    and anyone may be named (docs/rules/mafie.md, "The audience")."""
    if view["phase"] != TEAM_VOTE:
        return None
    return {"key": f"job{view['round']}", "seats": list(range(view["players"]))}
