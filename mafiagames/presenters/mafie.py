"""Mafie (MINDOK, The Resistance re-themed): words and template context for its views.

Narration follows docs/rules/mafie.md §A.4; the theme is the Czech one (rules A.0):
the majority are mafiosi who want jobs to succeed, the detectives sabotage them.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.utils.translation import gettext_lazy

from engines.mafie.plot_cards import WINDOWS

from . import COMMON_ERRORS, FormError, form_seat, fill, key_of

TEMPLATE_DIR = "engines/mafie"

ROLE_NAMES = {"mafioso": gettext_lazy("Mafioso"), "detective": gettext_lazy("Detective")}
TEAM_OF_ROLE = {"mafioso": "mafia", "detective": "detectives"}
TEAM_NAMES = {"mafia": gettext_lazy("The Mafia"), "detectives": gettext_lazy("The detectives")}
REASONS = {
    "three_successes": gettext_lazy("Three jobs pulled off."),
    "three_failures": gettext_lazy("Three jobs foiled."),
    "five_rejections": gettext_lazy("Five crews rejected in a row."),
}
# Parameters that carry a seat number (or a list of them) and are shown as players' names.
SEAT_PARAMS = {"kmotr", "seat", "target", "holder", "approve_seats", "reject_seats"}
# The Plot Thickens (rules §A.3.3): card names as printed in the English edition.
PLOT_CARD_NAMES = {
    "strong_leader": gettext_lazy("Strong Leader"),
    "no_confidence": gettext_lazy("No Confidence"),
    "keeping_close_eye": gettext_lazy("Keeping a Close Eye on You"),
    "in_the_spotlight": gettext_lazy("In the Spotlight"),
    "opinion_maker": gettext_lazy("Opinion Maker"),
    "take_responsibility": gettext_lazy("Take Responsibility"),
    "overheard_conversation": gettext_lazy("Overheard Conversation"),
    "open_up": gettext_lazy("Open Up"),
    "establish_confidence": gettext_lazy("Establish Confidence"),
}


# Narration lines of rules A.4, keyed by (code, variant); ``_variant`` picks the variant.
LINES = {
    ("setup", None): gettext_lazy(
        "The twenties. The city belongs to the Family — but the police have planted detectives among "
        "you. Check your phone in secret."),
    ("detective_meeting", None): gettext_lazy(
        "Detectives: your phone now shows your partners. Everyone else: tap ready."),
    ("round_start", False): gettext_lazy("Job %(round)s of 5. It needs a crew of %(team_size)s."),
    ("round_start", True): gettext_lazy(
        "Job %(round)s of 5. It needs a crew of %(team_size)s, and two sabotages to stop it."),
    ("team_selection", None): gettext_lazy("%(kmotr)s is the Godfather. Pick your crew of %(team_size)s."),
    ("choose_slot", None): gettext_lazy(
        "Attempt %(round)s. %(kmotr)s is the Godfather: choose which job to pull and a crew for it."),
    ("slot_chosen", False): gettext_lazy("Job %(slot)s: a crew of %(team_size)s."),
    ("slot_chosen", True): gettext_lazy("Job %(slot)s: a crew of %(team_size)s, and two sabotages to stop it."),
    ("vote", None): gettext_lazy("Approve or reject this crew — %(approvals_needed)s approvals needed."),
    ("proxy_vote", None): gettext_lazy("The host voted on behalf of %(seat)s."),
    ("proxy_ready", None): gettext_lazy("The host tapped ready for %(seat)s."),
    ("approved", None): gettext_lazy("Crew approved %(approve)s–%(reject)s. They move out."),
    ("rejected", None): gettext_lazy(
        "Crew rejected %(approve)s–%(reject)s. Failed votes: %(count)s of 5. %(kmotr)s is the new Godfather."),
    ("action_play", None): gettext_lazy("Crew, choose your card in secret. Mafiosi must play Success."),
    ("reveal", "success"): gettext_lazy(
        "The cards are shuffled… Success: %(successes)s, failure: %(fails)s. The job succeeds."),
    ("reveal", "fail"): gettext_lazy(
        "The cards are shuffled… Success: %(successes)s, failure: %(fails)s. The job is foiled."),
    ("two_fails_needed", None): gettext_lazy("One sabotage was not enough — this job needed two. It succeeds."),
    ("five_rejections", True): gettext_lazy(
        "Crew rejected %(approve)s–%(reject)s. Five crews rejected in a row. The Family can't agree — "
        "the detectives win!"),
    ("five_rejections", False): gettext_lazy(
        "Five crews rejected in a row. The Family can't agree — the detectives win!"),
    ("mafia_win", None): gettext_lazy("Three jobs pulled off. The Mafia rules the city!"),
    ("detective_win", None): gettext_lazy("Three jobs foiled. The Family is broken — the law wins!"),
    # The Plot Thickens
    ("plot_deal", None): gettext_lazy("%(kmotr)s draws the plot cards %(drawn)s and hands them out — never to himself."),
    ("plot_window", "pre_proposal"): gettext_lazy("Before the crew is picked: Strong Leader may take over as Godfather."),
    ("plot_window", "no_confidence"): gettext_lazy("The crew was approved: No Confidence may cancel it."),
    ("plot_window", "spotlight"): gettext_lazy("Before the cards are chosen: In the Spotlight may pick one to be played face up."),
    ("plot_window", "close_eye"): gettext_lazy("The cards are in: Keeping a Close Eye on You may look at one."),
    ("strong_leader", None): gettext_lazy("%(kmotr)s plays Strong Leader and is the Godfather now."),
    ("plot_dealt", None): gettext_lazy("%(seat)s gets %(card)s."),
    ("plot_used", ("establish_confidence", True)): gettext_lazy("%(seat)s sees the role of %(target)s, the Godfather."),
    ("plot_used", ("overheard_conversation", True)): gettext_lazy("%(seat)s overhears %(target)s and learns their role."),
    ("plot_used", ("open_up", True)): gettext_lazy("%(seat)s shows their role to %(target)s."),
    ("plot_used", ("take_responsibility", True)): gettext_lazy("%(seat)s takes a plot card from %(target)s."),
    ("plot_used", ("take_responsibility", False)): gettext_lazy("%(seat)s has no plot card to take."),
    ("plot_used", ("in_the_spotlight", True)): gettext_lazy(
        "%(seat)s puts %(target)s in the spotlight: their card will be shown with their name."),
    ("plot_used", ("keeping_close_eye", True)): gettext_lazy("%(seat)s watches the card %(target)s played."),
    ("cancelled", None): gettext_lazy("Failed votes: %(count)s of 5. %(kmotr)s is the new Godfather."),
    ("no_confidence", None): gettext_lazy(
        "%(seat)s plays No Confidence: the crew is cancelled, and that counts as a rejected vote."),
    ("opinion_votes", None): gettext_lazy(
        "The Opinion Makers have voted — approve: %(approve_seats)s; reject: %(reject_seats)s. Now everyone else."),
}


def _variant(code: str, params: dict):
    if code in ("round_start", "slot_chosen"):
        return bool(params.get("two_fails"))
    if code == "reveal":
        return params.get("result")
    if code == "five_rejections":
        return "approve" in params
    if code == "plot_window":
        return params.get("kind")
    if code == "plot_used":
        return params.get("card_key"), params.get("target") is not None
    return None


def _param(key: str, value, names: list[str]):
    """A narration parameter as words: seats as names, plot cards by their names, lists joined."""
    if isinstance(value, list):
        return ", ".join(str(_param(key, item, names)) for item in value) or "—"
    if key in SEAT_PARAMS and isinstance(value, int):
        return names[value]
    if key in ("drawn", "card"):
        return PLOT_CARD_NAMES.get(value, value)
    return value


def proxy_label(move: dict, names: list[str]) -> str:
    """A choice the host can make for an absent player (engines/mafie.py ``proxy``), in words."""
    if move["type"] == "vote":
        return str(gettext_lazy("Approve") if move["approve"] else gettext_lazy("Reject"))
    return str(gettext_lazy("I'm ready"))


def narrate(item: dict, names: list[str], view: dict | None = None) -> str:
    params = {key: _param(key, value, names) for key, value in item.get("params", {}).items()}
    if "card" in item.get("params", {}):
        params["card_key"] = item["params"]["card"]
    code = item.get("code", "")
    line = LINES.get((code, _variant(code, params)))
    return fill(line, params)


PHASE_TITLES = {
    "detective_meeting": gettext_lazy("Detective meeting"),
    "team_selection": gettext_lazy("The Godfather picks a crew"),
    "team_vote": gettext_lazy("Vote on the crew"),
    "action_play": gettext_lazy("The job"),
    "plot_deal": gettext_lazy("Plot cards"),
    "plot_window": gettext_lazy("A plot card may be played"),
    "game_over": gettext_lazy("Game over"),
}


def role_text(view: dict) -> str:
    """A seat's role in words, from its own view: the reveal of a game the host ended."""
    return str(ROLE_NAMES.get(view["me"]["role"], view["me"]["role"]))


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
        "narration": [t for t in (narrate(i, names) for i in view.get("narration", [])) if t],
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


PLOT_WINDOW_TITLES = {
    "pre_proposal": gettext_lazy("Strong Leader?"),
    "no_confidence": gettext_lazy("No Confidence?"),
    "spotlight": gettext_lazy("In the Spotlight?"),
    "close_eye": gettext_lazy("Keeping a Close Eye on You?"),
}


def _plot_context(view: dict, names: list[str]) -> dict:
    """The Plot Thickens: public cards, the deal, the window; on a phone, its own choices and
    what its cards showed it (rules §A.3.3; plot cards are never hidden, what they show is)."""
    plot, me, n = view["plot"], view.get("me"), view["players"]

    def card(entry: dict) -> dict:
        return {**entry, "name": PLOT_CARD_NAMES.get(entry["card"], entry["card"])}

    held = [{**card(h), "holder_name": names[h["holder"]]} for h in plot["held"]]
    context = {"held": held, "drawn": [card(c) for c in plot["drawn"]],
               "pending": None, "window": None, "opinion": None, "log": []}
    if plot["pending"]:
        pending = plot["pending"]
        context["pending"] = {**card(pending), "holder_name": names[pending["seat"]]}
    window = view.get("window")
    if window:
        asked = window["asked"]
        context["window"] = {**window, "asked_name": names[asked] if asked is not None else None,
                             "title": PLOT_WINDOW_TITLES.get(window["kind"], ""),
                             "card_name": PLOT_CARD_NAMES.get(WINDOWS[window["kind"]], "")}
    opinion = view.get("opinion")
    if opinion:
        context["opinion"] = {"names": [names[s] for s in opinion["seats"]],
                              "votes": [{"name": names[s], "approve": v} for s, v in opinion["votes"] or []]}
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


def _fact(fact: dict, names: list[str]) -> dict:
    about = names[fact["about"]]
    if "role" in fact:
        text = _("%(name)s is a %(role)s.") % {"name": about, "role": ROLE_NAMES.get(fact["role"], fact["role"])}
    else:
        played = _("Success") if fact.get("action_card") == "success" else _("Fail")
        text = _("%(name)s played %(card)s.") % {"name": about, "card": played}
    return {"card_name": PLOT_CARD_NAMES.get(fact["card"], fact["card"]), "text": text}


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
            label = _("%(card)s from %(name)s") % {"card": card, "name": names[target]}
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


def parse_action(post) -> dict:
    """Form fields of a phone's POST → an engine action (the engine validates everything)."""
    kind = post.get("action", "")
    if kind == "ready":
        return {"type": "ready"}
    if kind == "propose_team":
        action = {"type": "propose_team", "team": [form_seat(s) for s in post.getlist("team")]}
        if post.get("slot"):
            action["slot"] = form_seat(post["slot"])
        return action
    if kind == "vote":
        choice = post.get("choice")
        if choice not in ("approve", "reject"):
            raise FormError(_("Choose approve or reject."))
        return {"type": "vote", "approve": choice == "approve"}
    if kind == "play_action_card":
        card = post.get("card")
        if card not in ("success", "fail"):
            raise FormError(_("Choose Success or Fail."))
        return {"type": "play_action_card", "card": card}
    # The Plot Thickens
    if kind == "assign_plot_card":
        return {"type": kind, "card": form_seat(post.get("card")), "to": form_seat(post.get("to"))}
    if kind in ("overhear", "open_up"):
        return {"type": kind, "target": form_seat(post.get("target"))}
    if kind == "take_plot_card":
        return {"type": kind, "target": form_seat(post.get("target")), "card": form_seat(post.get("card"))}
    if kind == "play_plot_card":
        action = {"type": kind, "card": form_seat(post.get("card"))}
        if post.get("target"):
            action["target"] = form_seat(post["target"])
        return action
    if kind == "pass_plot":
        return {"type": kind}
    raise FormError(_("Unknown action."))


OPTION_LABELS = {
    "targeting": (gettext_lazy("Change the order of actions"),
                  gettext_lazy("The Godfather first picks which job to attempt; job 5 only after two successes.")),
    "blind_detectives": (gettext_lazy("Detectives don't know each other"),
                         gettext_lazy("Skip the detective meeting.")),
    "plot_cards": (gettext_lazy("The Plot Thickens"),
                   gettext_lazy("Plot cards: each round the Godfather hands out 1–3 of them, face up.")),
    "plot_distribution": (gettext_lazy("Plot cards with 5–8 players"),
                          gettext_lazy("The Czech rulebook: 7 cards and 1 a round for 5–6 players, 2 a round "
                                       "for 7–8. Or 10 cards for 5–6 and 2 a round up to 8 players.")),
}

OPTION_CHOICES = {
    "plot_distribution": {"cz": gettext_lazy("Czech rulebook"), "ultraboardgames": gettext_lazy("10 cards, 2 a round")},
}


# Player-facing messages for the engine's refusal codes (the engine's own text is English).
ERRORS = {
    **COMMON_ERRORS,
    "mafioso_must_succeed": gettext_lazy("Mafiosi must play Success."),
    "not_kmotr": gettext_lazy("Only the Godfather picks the crew."),
    "wrong_team_size": gettext_lazy("The crew has the wrong number of members."),
    "duplicate_seat": gettext_lazy("Each crew member can be picked only once."),
    "unknown_seat": gettext_lazy("That player is not at this table."),
    "already_voted": gettext_lazy("You have already voted."),
    "already_ready": gettext_lazy("You are already ready."),
    "not_on_team": gettext_lazy("You are not on this crew."),
    "already_played": gettext_lazy("You have already played your card."),
    "slot_played": gettext_lazy("That job has already been done."),
    "slot_locked": gettext_lazy("Job 5 can be attempted only after two jobs have succeeded."),
    "slot_required": gettext_lazy("Pick which job to attempt."),
    "unknown_slot": gettext_lazy("There are only jobs 1 to 5."),
    "wrong_slot": gettext_lazy("That is not the job being attempted now."),
    "bad_team": gettext_lazy("Pick the crew from the players at this table."),
    "bad_slot": gettext_lazy("Pick a job from 1 to 5."),
    "bad_vote": gettext_lazy("Choose approve or reject."),
    "bad_card": gettext_lazy("Choose Success or Fail."),
    # The Plot Thickens (engines/mafie_plot.py)
    "bad_plot_deal": gettext_lazy("Hand one of the drawn plot cards to a player."),
    "bad_target": gettext_lazy("Pick a player at this table."),
    "not_kmotr_plot": gettext_lazy("Only the Godfather hands out plot cards."),
    "plot_pending": gettext_lazy("Wait until the last plot card has been carried out."),
    "unknown_plot_card": gettext_lazy("That plot card is not among the drawn ones."),
    "plot_to_self": gettext_lazy("The Godfather never keeps a plot card himself."),
    "not_your_plot_card": gettext_lazy("You have no plot card to carry out now."),
    "wrong_plot_action": gettext_lazy("Carry out the plot card you were given."),
    "not_a_neighbour": gettext_lazy("You can only overhear a neighbour."),
    "open_up_self": gettext_lazy("Show your card to someone else."),
    "nothing_to_take": gettext_lazy("That player does not hold that plot card."),
    "bad_plot_play": gettext_lazy("Play a plot card you hold."),
    "not_on_crew": gettext_lazy("Pick a member of the crew."),
    "close_eye_self": gettext_lazy("Watch someone else's card."),
    "already_watched": gettext_lazy("Someone is already watching that card."),
    "opinion_first": gettext_lazy("The Opinion Maker votes first."),
}


def panel_key(view: dict) -> bytes | str:
    """Everything templates/engines/mafie/phone_panel.html shows, and nothing else.

    Phones whose keys are equal share one rendering of the panel (rendering.py), so this must
    name every input of that template: a vote cast elsewhere then re-renders only the panels
    it changes.  The seat is not an input; the role is, but only once the game is over
    (won or lost).  tests/web/test_no_leak_rendered.py shares renderings the same way and
    fails if a key leaves out something a panel shows.
    """
    me = view["me"]
    over = view["phase"] == "game_over"
    # The Plot Thickens: a phone's plot choices depend on its seat (neighbours, itself), so in a
    # game with plot cards panels are shared only by equal seats.
    plot = [me["seat"], view["plot"], view["window"], view["opinion"], me["voted"], me["plot_learnt"],
            me["plot_moves"]] \
        if view.get("plot") is not None else None
    # "Waiting for N more" is shown only once a phone has nothing left to do in the phase, and
    # being on the crew only while it plays its cards: during a vote, the phones still choosing
    # share one panel and those that have voted another, whoever is on the crew.
    waiting = None if _OWN_MOVE.get(view["phase"]) in me["actions"] else _waiting_count(view)
    on_team = me["on_team"] if view["phase"] == "action_play" else None
    return key_of([
        view["phase"], view["turn"], me["actions"], on_team, view["team"], view["kmotr"],
        view["team_size"], view["open_slots"], view["options"].get("targeting"),
        [t["team_size"] for t in view["track"]], waiting,
        view["outcome"] if over else None, me["role"] if over else None, plot,
    ])


def tv_parts(view: dict, context: dict) -> dict[str, list[tuple[str, dict]]]:
    """Pieces of the TV's board and roster, each a template and the only context it gets.

    The track changes once per job and a vote changes one row and the progress line, but the
    board and roster around them change with every tap: rendering.py renders each piece once
    per distinct context and keeps it for the room (a template sees nothing but its context,
    so the context is a complete key).  ``context`` is what ``present`` made of the view.
    """
    parts = {**phone_parts(view), "rows": [("engines/mafie/tv_player_row.html", _roster_row(row, view["phase"]))
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
                **{key: context.get(key) for key in ("last_vote_team", "last_vote_for", "last_vote_against",
                                                     "kmotr_name", "spotlight_name")},
                "plot": plot and {key: plot[key] for key in ("drawn", "pending", "window", "opinion", "held")}})]}


def _roster_row(row: dict, phase: str) -> dict:
    """What one TV roster row shows, and nothing else: a phase change re-renders only the rows
    whose badge it changes.  Roles are not here: at the end the result card lists them."""
    if phase == "team_vote":
        badge = "voted" if row["voted"] else "wait"
    elif phase == "action_play" and row["on_team"]:
        badge = "card_in" if row["played"] else "wait"
    elif phase == "detective_meeting":
        badge = "ready" if row["ready"] else "wait"
    elif phase == "team_selection" and row["last_vote"] is not None:
        badge = "approve" if row["last_vote"] else "reject"
    else:
        badge = None
    return {"name": row["name"], "connected": row["connected"], "kmotr": row["kmotr"], "on_team": row["on_team"],
            "badge": badge}


def phone_parts(view: dict) -> dict[str, list[tuple[str, dict]]]:
    """The phone board's piece of the same kind: the track, one rendering for the TV and every phone."""
    over = view["phase"] == "game_over"
    jobs = [{"slot": t["slot"], "result": t["result"], "current": t["slot"] == view["slot"] and not over,
             "size": ngettext("%(n)s member", "%(n)s members", t["team_size"]) % {"n": t["team_size"]},
             "two": t["fails_needed"] == 2,
             "res": _("Success") if t["result"] == "success" else
             ngettext("Foiled (%(n)s sabotage)", "Foiled (%(n)s sabotages)", t["fails"]) % {"n": t["fails"]}
             if t["result"] == "fail" else None}
            for t in view["track"]]
    # Words made here, not in the template: the track is re-rendered at every job's end.
    return {"track": [("engines/mafie/track.html", {"jobs": jobs})]}


def board_key(view: dict) -> bytes | str:
    """Everything templates/engines/mafie/phone_board.html (and the track it includes) shows."""
    return key_of([view["track"], view["slot"], view["phase"] == "game_over", view["kmotr"],
                   view["rejections"], view["last_vote"]])
