"""Mafie: the words — every translated table (roles, teams, plot cards, narration lines) and the
sentences made of them (narration, refusals, the host's buttons, option labels). One place for
each word; the context (``context.py``) and the forms (``forms.py``) use them."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from engines.mafie.tables import TWO_FAIL_MIN_PLAYERS, TWO_FAIL_SLOT

from .. import COMMON_ERRORS, LESSON_TITLES, fill, moment_part, slide, table_words


ROLE_NAMES = {"mafioso": gettext_lazy("Mafioso"), "detective": gettext_lazy("Detective")}


TEAM_NAMES = {"mafia": gettext_lazy("The Mafia"), "detectives": gettext_lazy("The detectives")}


# What each role wants and may do (rules A.1, A.2.4): the phone's role card and "How to play".
ROLE_HELP = {
    "mafioso": gettext_lazy("You want the jobs to succeed. You must always play Success."),
    "detective": gettext_lazy("You want the jobs to fail. You may play Success or Fail."),
}


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


# What each plot card does (rules §A.3.3, "Exact card effects"): the phone's "?" and "How to play".
PLOT_CARD_HELP = {
    "strong_leader": gettext_lazy("Before a crew is picked: play it to become the Godfather yourself."),
    "no_confidence": gettext_lazy("Right after a crew is approved: cancel it. That counts as a rejected vote."),
    "keeping_close_eye": gettext_lazy("Once the crew's cards are in: secretly see the card one crew member played."),
    "in_the_spotlight": gettext_lazy("Before the crew chooses: one crew member's card is shown with their name."),
    "opinion_maker": gettext_lazy("For the rest of the game you vote first, openly, before everyone else."),
    "take_responsibility": gettext_lazy("At once: take a plot card from another player."),
    "overheard_conversation": gettext_lazy("At once: see the role of one of your neighbours."),
    "open_up": gettext_lazy("At once: show your role to a player you choose."),
    "establish_confidence": gettext_lazy("At once: you see the Godfather's role."),
}


# The plot cards kept to be played when their holder chooses (▲), and those that act on
# receipt or for good (★, ◎): one slide each in "How to play".
PLOT_CARDS_KEPT = ("strong_leader", "no_confidence", "keeping_close_eye", "in_the_spotlight")
PLOT_CARDS_AT_ONCE = ("opinion_maker", "take_responsibility", "overheard_conversation", "open_up",
                      "establish_confidence")


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
    ("proxy_vote", None): gettext_lazy("%(seat)s: the host voted on their behalf."),
    ("proxy_ready", None): gettext_lazy("%(seat)s: the host tapped ready on their behalf."),
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
    ("plot_used", ("establish_confidence", True)): gettext_lazy("The Godfather: %(target)s. %(seat)s sees their role."),
    ("plot_used", ("overheard_conversation", True)): gettext_lazy("%(seat)s → %(target)s: overhears and learns their role."),
    ("plot_used", ("open_up", True)): gettext_lazy("%(seat)s → %(target)s: shows their role."),
    ("plot_used", ("take_responsibility", True)): gettext_lazy("%(seat)s takes a plot card: %(target)s → %(seat)s."),
    ("plot_used", ("take_responsibility", False)): gettext_lazy("%(seat)s has no plot card to take."),
    ("plot_used", ("in_the_spotlight", True)): gettext_lazy(
        "In the spotlight: %(target)s (by %(seat)s) — their card will be shown with their name."),
    ("plot_used", ("keeping_close_eye", True)): gettext_lazy("%(seat)s → %(target)s: watches the card played."),
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
    """A choice the host can make for an absent player (engines/mafie/moves.py ``proxy``), in words."""
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


side_words = table_words(TEAM_NAMES, "A winning team in words (the evening's scoreboard).")
role_words = table_words(ROLE_NAMES, "A role in words (the admin's statistics).")
reason_words = table_words(REASONS, "How a game ended, in words (the admin's games).")


TITLES = {"mafie": gettext_lazy("Mafie")}


# "How to play" (rules A.2): what the game's own words do not say of a round.
LESSON_LINES = {
    "crew": gettext_lazy("Five jobs. For each, the Godfather picks a crew. After a rejected crew or a job, the "
                         "next player to the left is the Godfather."),
    "vote": gettext_lazy("Everyone approves or rejects the crew in secret; then every vote is shown with its "
                         "name. A rejected crew: the next Godfather picks another."),
    "reveal": gettext_lazy("The cards are shuffled and shown without names: one Fail foils the job (job "
                           "%(slot)s with %(players)s or more players needs two)."),
    "kept": gettext_lazy("Plot cards to play when you choose"),
    "at_once": gettext_lazy("Plot cards that act at once"),
}


def reveal_rule() -> str:
    """How the job's cards decide it (rules A.2.5), with the engine's own numbers."""
    return fill(LESSON_LINES["reveal"], {"slot": TWO_FAIL_SLOT, "players": TWO_FAIL_MIN_PLAYERS})


# What a phone's choice does (the "?" beside a vote's and a job's heading): the lesson's words.
CHOICE_HELP = {
    "team_vote": LESSON_LINES["vote"],
    "action_play": gettext_lazy("Mafiosi must play Success; a detective may play Success or Fail."),
}


def choice_help(phase: str) -> str:
    """The "?" of a vote or a job: what the choice does (a job's also how its cards decide it)."""
    return " ".join([str(CHOICE_HELP[phase]), *([reveal_rule()] if phase == "action_play" else [])])


def how_to_play(ruleset: str, options: dict) -> list[dict]:
    """The lesson before a first game: the sides, a crew, its vote, the job, the end, and the
    plot cards when they are in play."""
    def line(code: str, variant=None, **params) -> str:
        return fill(LINES.get((code, variant)), params)

    sides = [line("setup")] + ([] if options.get("blind_detectives") else [line("detective_meeting")])
    slides = [
        slide(LESSON_TITLES["sides"], sides, [(TEAM_NAMES["mafia"], ROLE_HELP["mafioso"]),
                                              (TEAM_NAMES["detectives"], ROLE_HELP["detective"])]),
        slide(PHASE_TITLES["team_selection"], [LESSON_LINES["crew"]]),
        slide(PHASE_TITLES["team_vote"], [LESSON_LINES["vote"], line("five_rejections", False)]),
        slide(PHASE_TITLES["action_play"], [line("action_play"), reveal_rule()]),
        slide(LESSON_TITLES["end"], tiles=[(TEAM_NAMES["mafia"], REASONS["three_successes"]),
                                           (TEAM_NAMES["detectives"],
                                            f'{REASONS["three_failures"]} {REASONS["five_rejections"]}')]),
    ]
    if options.get("plot_cards"):
        slides += [slide(LESSON_LINES[key], [OPTION_LABELS["plot_cards"][1]] if key == "kept" else [],
                         [(PLOT_CARD_NAMES[card], PLOT_CARD_HELP[card]) for card in cards])
                   for key, cards in (("kept", PLOT_CARDS_KEPT), ("at_once", PLOT_CARDS_AT_ONCE))]
    return slides


PLOT_WINDOW_TITLES = {
    "pre_proposal": gettext_lazy("Strong Leader?"),
    "no_confidence": gettext_lazy("No Confidence?"),
    "spotlight": gettext_lazy("In the Spotlight?"),
    "close_eye": gettext_lazy("Keeping a Close Eye on You?"),
}


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
    # The Plot Thickens (engines/mafie/plot_cards.py)
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


# Moments (engines/moments.py): the vote on a crew, a job's cards turned one by one.
VOTE_TITLE = gettext_lazy("The vote on the crew")
CARDS_TITLE = gettext_lazy("The job's cards")
VOTED_FOR, VOTED_AGAINST = gettext_lazy("%(name)s: for"), gettext_lazy("%(name)s: against")
APPROVED = gettext_lazy("Approved %(approve)s–%(reject)s")
REJECTED = gettext_lazy("Rejected %(approve)s–%(reject)s")
CARD_WORDS = {"success": gettext_lazy("Success"), "fail": gettext_lazy("Failure")}
JOB_RESULT = {"success": gettext_lazy("The job succeeds."), "fail": gettext_lazy("The job is foiled.")}


def moment_words(event: dict, names: list[str], view: dict) -> dict:
    """One event of a moment in words: every vote by name (Hlasování o týmu: votes are shown),
    or the job's cards, successes first then failures, as they come out shuffled (Průběh akce)."""
    data = event["data"]
    if event["kind"] == "votes_revealed":
        items = [fill(VOTED_FOR if vote else VOTED_AGAINST, {"name": names[seat]})
                 for seat, vote in enumerate(data["votes"])]
        counts = {"approve": data["approve"], "reject": data["reject"]}
        return moment_part("vote", VOTE_TITLE, items, fill(APPROVED if data["approved"] else REJECTED, counts))
    cards = [CARD_WORDS["success"]] * data["successes"] + [CARD_WORDS["fail"]] * data["fails"]
    return moment_part("cards", CARDS_TITLE, cards, JOB_RESULT["success" if data["result"] == "success" else "fail"])
