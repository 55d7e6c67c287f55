"""Classic Mafia: the words — every translated table (roles and their help, causes, vote kinds,
narration lines per edition) and the sentences made of them (narration, refusals, the host's
buttons, option labels). One place for each word; the context (``context.py``) and the forms
(``forms.py``) use them."""

from __future__ import annotations

from django.utils.translation import gettext_lazy, ngettext

from engines.classic import cards as C
from engines.classic.table import MAFIA_STEP, NIGHT_STEPS

from .. import COMMON_ERRORS, LESSON_TITLES, fill, moment_part, slide
from . import cards as card_words


GRANNA, POLISH, KIDS = "granna", "mafia_pl", "kids"


ROLE_NAMES = {
    GRANNA: {"mafioso": gettext_lazy("Mafioso"), "agent": gettext_lazy("Agent"),
             "policeman": gettext_lazy("Policeman")},
    POLISH: {"mafioso": gettext_lazy("Gangster"), "agent": gettext_lazy("Agent"),
             "policeman": gettext_lazy("Policeman"), "doctor": gettext_lazy("Doctor"),
             "wizard": gettext_lazy("Wizard"), "judge": gettext_lazy("Judge")},
    KIDS: {"mafioso": gettext_lazy("Rascal"), "agent": gettext_lazy("Secret cadet"),
           "policeman": gettext_lazy("Cadet")},
}


TEAM_NAMES = {
    # the New Gang: the third force of GRANNA's extended version (rules B.3.5)
    GRANNA: {"mafia": gettext_lazy("The Mafia"), "police": gettext_lazy("The Police"),
             "new_gang": gettext_lazy("The New Gang")},
    POLISH: {"mafia": gettext_lazy("The gang"), "police": gettext_lazy("The police")},
    KIDS: {"mafia": gettext_lazy("The Rascals"), "police": gettext_lazy("The Cadets"),
           "new_gang": gettext_lazy("The New Gang")},
}


ROLE_HELP = {
    "mafioso": gettext_lazy("You wake with your partners at night and choose a victim. Win when no police "
                            "are left."),
    "agent": gettext_lazy("You play for the police. Each night you may learn one player's card — only you "
                          "see the answer."),
    "policeman": gettext_lazy("Find the mafia by talking and voting. Win when none of them is left."),
    "doctor": gettext_lazy("You play for the police. Each night you may heal one player: if the gang picks "
                           "them, they survive."),
    "wizard": gettext_lazy("You play for the police. Once per game, at night, you may swap two players' cards."),
    "judge": gettext_lazy("You play for the police. Once per game your day vote may count double."),
}


KIDS_HELP = {
    "mafioso": gettext_lazy("You wake with the other Rascals at night and choose who to catch. Win when no "
                            "Cadets are left."),
    "agent": gettext_lazy("You are a Cadet. Each night you may learn one player's card — only you see the "
                          "answer."),
    "policeman": gettext_lazy("Find the Rascals by talking and voting. Win when none of them is left."),
}


HOST_MOVES = {
    "end_discussion": gettext_lazy("End the discussion: vote"),
    "end_defence": gettext_lazy("Defences done: final vote"),
}


PHASE_TITLES = {
    "agent": gettext_lazy("Night"), "doctor": gettext_lazy("Night"), "mafia": gettext_lazy("Night"),
    "wizard": gettext_lazy("Night"),
    "last_shot": gettext_lazy("A last shot"),
    "discussion": gettext_lazy("Discussion"),
    "vote": gettext_lazy("Vote"),
    "defence": gettext_lazy("Defence"),
    "final_vote": gettext_lazy("Final vote"),
    "re_discussion": gettext_lazy("A tie: talk once more"),
    "re_vote": gettext_lazy("Re-vote"),
    "game_over": gettext_lazy("Game over"),
    # GRANNA's extended version (rules B.3.4); a card window's heading is its own (cards.WINDOW_TITLES)
    "new_gang": gettext_lazy("Night"),
    "role_swap": gettext_lazy("Role Swap"),
    "leader_pick": gettext_lazy("The Leader decides"),
}


STEP_NAMES = {
    "agent": gettext_lazy("The agent is awake"),
    "doctor": gettext_lazy("The doctor is awake"),
    "mafia": {GRANNA: gettext_lazy("The mafia is awake"), POLISH: gettext_lazy("The gang is awake"),
              KIDS: gettext_lazy("The Rascals are awake")},
    "wizard": gettext_lazy("The wizard is awake"),
    "new_gang": gettext_lazy("The New Gang meets"),
}


KIDS_STEP_NAMES = {"agent": gettext_lazy("The secret cadet is awake")}


CAUSES = {
    "night": gettext_lazy("killed at night"),
    "lynch": gettext_lazy("voted out"),
    "last_shot": gettext_lazy("shot"),
    "small_rule_agent": gettext_lazy("caught at night"),
    "removed": gettext_lazy("removed from the game"),
    "corner_shot": gettext_lazy("shot from around the corner"),
}


KIDS_CAUSES = {"night": gettext_lazy("caught at night"), "lynch": gettext_lazy("voted out"),
               "last_shot": gettext_lazy("caught"), "small_rule_agent": gettext_lazy("caught at night"),
               "removed": gettext_lazy("removed from the game"), "corner_shot": gettext_lazy("caught")}


REASONS = {
    GRANNA: {"mafia_eliminated": gettext_lazy("Every Mafioso is out."),
             "police_eliminated": gettext_lazy("No Policeman and no Agent is left standing."),
             "last_force": gettext_lazy("Only one side is left standing.")},
    POLISH: {"mafia_eliminated": gettext_lazy("The whole gang is behind bars."),
             "police_eliminated": gettext_lazy("No officer is left standing.")},
    KIDS: {"mafia_eliminated": gettext_lazy("Every Rascal is caught."),
           "police_eliminated": gettext_lazy("No Cadet is left."),
           "last_force": gettext_lazy("Only one side is left standing.")},
}


VOTE_KINDS = {"vote": gettext_lazy("Vote"), "final_vote": gettext_lazy("Final vote"),
              "re_vote": gettext_lazy("Re-vote")}


# Narration (rules B.4, C.4).  A line is keyed by (code, variant); a value is one line for
# every edition or a dict by words (GRANNA, Polish, children's).  Seats become names, roles
# their names in the edition's words, lists of seats joined names.
LINES = {
    ("setup", None): gettext_lazy("The cards are dealt: %(roles)s. Look at your phone in secret."),
    ("setup", "small"): {
        GRANNA: gettext_lazy("The cards are dealt: %(roles)s. A small game: the agent looks only in the first "
                             "night, and dies if he finds the mafia."),
        POLISH: gettext_lazy("The cards are dealt: %(roles)s. A small game: the agent looks only in the first "
                             "night, and dies if he finds the mafia."),
        KIDS: gettext_lazy("The cards are dealt: %(roles)s. A small game: the secret cadet looks only in the "
                           "first night, and is caught if he finds a Rascal."),
    },
    ("setup", "large"): gettext_lazy("The cards are dealt: %(roles)s. A large game: the first two players "
                                     "out in round 1 each take a last shot."),
    ("night", None): {
        GRANNA: gettext_lazy("Night %(round)s falls on Spytown. Everyone, close your eyes — look only at "
                             "your own phone."),
        POLISH: gettext_lazy("Night %(round)s: the city falls asleep. Look only at your own phone."),
        KIDS: gettext_lazy("Night %(round)s at the Police Academy. Look only at your own phone."),
    },
    ("agent_step", None): {
        GRANNA: gettext_lazy("Agent, open your eyes. Point at one player — I will show you their token."),
        POLISH: gettext_lazy("The agent wakes up. Point at one person — I will show you their token."),
        KIDS: gettext_lazy("Secret cadet, open your eyes. Point at one player — I will show you their card."),
    },
    ("doctor_step", None): gettext_lazy("The doctor wakes up. Choose someone to heal tonight."),
    ("mafia_step", None): {
        GRANNA: gettext_lazy("Mafiosi, open your eyes. Recognise each other and silently choose tonight's "
                             "victim."),
        POLISH: gettext_lazy("The mafia wakes up. Meet each other, and silently choose the officer who dies "
                             "tonight."),
        KIDS: gettext_lazy("Rascals, open your eyes. Recognise each other and choose who to catch tonight."),
    },
    ("wizard_step", None): gettext_lazy("The wizard wakes up. A spell tonight?"),
    ("dawn", None): {
        GRANNA: gettext_lazy("Everyone, open your eyes."),
        POLISH: gettext_lazy("The city wakes up."),
        KIDS: gettext_lazy("Good morning, cadets!"),
    },
    ("spell_cast", None): gettext_lazy("Magic was in the air tonight — everyone, check your card."),
    ("agent_caught", None): {
        GRANNA: gettext_lazy("The Agent was discovered — the Agent is dead."),
        POLISH: gettext_lazy("The agent was discovered — the agent is dead."),
        KIDS: gettext_lazy("The secret cadet was discovered and caught."),
    },
    ("killed", None): {
        GRANNA: gettext_lazy("Killed tonight: %(seat)s. Token: %(role)s."),
        POLISH: gettext_lazy("Fallen tonight: %(seat)s. Card: %(role)s."),
        KIDS: gettext_lazy("Caught by the Rascals tonight: %(seat)s. Card: %(role)s."),
    },
    ("saved", None): gettext_lazy("Attacked tonight and saved by the doctor: %(seat)s."),
    ("nobody_died", None): {
        GRANNA: gettext_lazy("The night passed quietly. Nobody died."),
        POLISH: gettext_lazy("Tonight nobody was eliminated."),
        KIDS: gettext_lazy("The night passed quietly. Nobody was caught."),
    },
    ("discussion", None): {
        GRANNA: gettext_lazy("Police, the intruders are among you. Discuss: who are the Mafiosi?"),
        POLISH: gettext_lazy("Someone among you works for the gang. Talk it over — accuse, defend, reveal as "
                             "much as you dare."),
        KIDS: gettext_lazy("Cadets, the Rascals are among you. Talk it over: who are they?"),
    },
    ("vote", None): gettext_lazy("Vote on your phone: point at the player you suspect."),
    ("votes_revealed", None): gettext_lazy("The votes are in."),
    ("judge_double", None): gettext_lazy("%(seat)s uses the judge's power — that vote counts twice."),
    ("finalists", None): {
        GRANNA: gettext_lazy("%(seats)s received the most votes. Each may speak in their defence — everyone "
                             "else, silence."),
        POLISH: gettext_lazy("The floor is yours: %(seats)s. Convince us you are innocent."),
        KIDS: gettext_lazy("%(seats)s received the most votes. Each may speak in their defence — everyone "
                           "else, silence."),
    },
    ("final_vote", None): {
        GRANNA: gettext_lazy("Final vote: %(ballot)s?"),
        POLISH: gettext_lazy("Final vote: %(ballot)s. You may change your mind."),
        KIDS: gettext_lazy("Final vote: %(ballot)s?"),
    },
    ("tie", None): gettext_lazy("A tie: %(seats)s. Talk once more — will anyone change their mind?"),
    ("re_vote", None): gettext_lazy("Vote again: %(ballot)s."),
    ("coin", None): gettext_lazy("Still tied. The coin decides: %(seat)s."),
    ("lynched", None): {
        GRANNA: gettext_lazy("%(seat)s is out. Token: %(role)s."),
        POLISH: gettext_lazy("Arrested: %(seat)s. Card: %(role)s."),
        KIDS: gettext_lazy("%(seat)s is out of the game. Card: %(role)s."),
    },
    # The host acting for a player (engines/classic/host.py proxy, remove_player; rules B.2.3).
    ("proxy_vote", None): gettext_lazy("%(seat)s: the host voted on their behalf."),
    ("removed", None): {
        GRANNA: gettext_lazy("Removed from the game: %(seat)s. Token: %(role)s."),
        POLISH: gettext_lazy("Removed from the game: %(seat)s. Card: %(role)s."),
        KIDS: gettext_lazy("Removed from the game: %(seat)s. Card: %(role)s."),
    },
    ("last_shot", "mandatory"): gettext_lazy("A last shot: %(seat)s. Choose your target on your phone."),
    ("last_shot", "optional"): gettext_lazy("%(seat)s may take a last shot. Choose on your phone."),
    ("shot", None): gettext_lazy("Last shot: %(shooter)s → %(seat)s. %(seat)s is out — %(role)s."),
    ("no_shot", None): gettext_lazy("%(shooter)s does not shoot."),
    ("police_win", None): {
        GRANNA: gettext_lazy("Every Mafioso is gone. Spytown is safe — the Police win!"),
        POLISH: gettext_lazy("The whole gang is behind bars — the police win!"),
        KIDS: gettext_lazy("Every Rascal is caught — the Cadets win!"),
    },
    ("mafia_win", None): {
        GRANNA: gettext_lazy("No Policeman is left standing. The Mafia owns Spytown!"),
        POLISH: gettext_lazy("No officer is left standing — the mafia wins!"),
        KIDS: gettext_lazy("No Cadet is left — the Rascals win!"),
    },
    # GRANNA's extended version: the action cards (rules B.3.4, B.3.5; rules B.4's narration table).
    ("cards_dealt", None): gettext_lazy("Action cards in this game: %(box)s. The rest are neutral. Everyone has one "
                                        "card — look at it in secret."),
    ("leader_shown", None): gettext_lazy("The Leader: %(seat)s. Votes start with them, and they break ties."),
    ("role_swap", None): gettext_lazy("The Role Swap: %(seat)s may swap tokens with one player before the night."),
    ("swap_declined", None): gettext_lazy("%(seat)s keeps their token."),
    ("roles_swapped", None): gettext_lazy("Role Swap: %(seat)s ↔ %(target)s. Both of you, look at your new token."),
    ("new_gang_step", None): gettext_lazy("Members of the New Gang, open your eyes and remember each other. Close "
                                          "your eyes."),
    ("recruitment", None): {
        GRANNA: gettext_lazy("A recruitment is under way… someone is being woken to join the Family."),
        KIDS: gettext_lazy("A recruitment is under way… someone is being woken to join the Rascals."),
    },
    ("struck", None): {
        GRANNA: gettext_lazy("The Mafia's target: %(seat)s…"),
        KIDS: gettext_lazy("The Rascals' target: %(seat)s…"),
    },
    ("condemned", None): gettext_lazy("Voted out: %(seat)s…"),
    ("window_dawn", None): gettext_lazy("%(seconds)s seconds to play a Bulletproof Vest or a Bandage."),
    ("window_lynch", None): gettext_lazy("%(seconds)s seconds to play a Bulletproof Vest or a Bandage."),
    ("window_day_start", None): gettext_lazy("The day begins: %(seconds)s seconds for Arrest and Capture."),
    ("window_day_end", None): gettext_lazy("The day ends: %(seconds)s seconds for Wiretap, Hideout, Safe-Conduct "
                                           "Letter and Shot from Around the Corner."),
    ("window_last_shot", None): gettext_lazy("%(seat)s: %(seconds)s seconds to play a Last Shot."),
    ("saved_by_vest", None): gettext_lazy("%(seat)s is wearing a vest and survives!"),
    ("saved_by_bandage", None): gettext_lazy("Bandage: %(by)s → %(seat)s. Saved!"),
    ("arrest_played", None): gettext_lazy("Arrest: %(seat)s. Nobody may vote for them today."),
    ("capture_played", None): gettext_lazy("Capture: %(seat)s → %(target)s. %(target)s does not vote today."),
    ("wiretap_played", None): gettext_lazy("Wiretap: %(seat)s. Nobody can kill them or vote for them next round."),
    ("hideout_played", None): gettext_lazy("Hideout: %(seat)s. Nobody can kill them or vote for them next round."),
    ("safe_conduct_played", None): gettext_lazy("Safe-Conduct Letter: %(seat)s. Nobody may pick them next night."),
    ("corner_shot", None): gettext_lazy("Shot from Around the Corner: %(shooter)s → %(seat)s. %(seat)s is out — "
                                        "%(role)s."),
    ("leader_tie", None): gettext_lazy("A tie: %(seats)s. The Leader, %(seat)s, decides who goes."),
    ("leader_picked", None): gettext_lazy("The Leader, %(seat)s, chooses: %(target)s."),
    ("leader_passed", None): gettext_lazy("The Leader card passes on. The Leader now: %(seat)s."),
    ("new_gang_shown", None): gettext_lazy("New Gang: %(seat)s."),
    ("no_lynch", None): gettext_lazy("Nobody can be voted out today."),
    ("new_gang_win", None): {
        GRANNA: gettext_lazy("Only the New Gang is left. The New Gang takes the town!"),
        KIDS: gettext_lazy("Only the New Gang is left — the New Gang wins!"),
    },
}


SEAT_PARAMS = {"seat", "shooter", "by", "target"}


SEATS_PARAMS = {"seats", "ballot"}

# A ballot of more names than a TV line holds (every living player, in the Polish edition's
# final vote with "Any living player") is named by its size: the board's chips list the names.
LONG_BALLOT = 6


def words(view: dict) -> str:
    """Whose words this table speaks: the children's re-theme, else the edition's."""
    return KIDS if view["options"].get("kids_retheme") else view["ruleset"]


def role_name(view: dict, role: str | None) -> str:
    names = ROLE_NAMES[words(view)]
    return str(names.get(role) or ROLE_NAMES[POLISH].get(role, role or ""))


def _variant(code: str, params: dict):
    if code == "setup":
        return "small" if params.get("small_game") else "large" if params.get("large_game") else None
    if code == "last_shot":
        return "optional" if params.get("optional") else "mandatory"
    return None


def _roles_text(view: dict, counts: dict) -> str:
    return ", ".join(f"{count}× {role_name(view, role)}" for role, count in counts.items() if count)


def proxy_label(move: dict, names: list[str]) -> str:
    """A day vote the host can cast for an absent player: the name voted for."""
    return names[move["target"]]


def narrate(item: dict, names: list[str], view: dict) -> str:
    """One narration line in the words of ``view``'s table ("" for an unknown code)."""
    code, raw = item.get("code", ""), item.get("params", {})
    line = LINES.get((code, _variant(code, raw)))
    if isinstance(line, dict):
        line = line[words(view)]
    if line is None:
        return ""
    params = {}
    for key, value in raw.items():
        if key in SEAT_PARAMS and isinstance(value, int):
            params[key] = names[value]
        elif key == "ballot" and isinstance(value, list) and len(value) > LONG_BALLOT:
            params[key] = ngettext("%(n)s player on the board", "%(n)s players on the board", len(value)) % {
                "n": len(value)}
        elif key in SEATS_PARAMS and isinstance(value, list):
            params[key] = ", ".join(names[seat] for seat in value)
        elif key == "role":
            params[key] = role_name(view, value)
        elif key == "roles":
            params[key] = _roles_text(view, value)
        elif key == "box" and isinstance(value, list):
            params[key] = ", ".join(str(card_words.CARD_NAMES.get(card, card)) for card in value)
        else:
            params[key] = value
    return fill(line, params)


def card_name(card: str | None) -> str:
    """An action card's name (cards.py; rules B.3.4)."""
    return str(card_words.CARD_NAMES.get(card, "")) if card else ""


def card_help(view: dict, card: str) -> str:
    """What an action card does and whose tokens may use it (the symbols printed on it), in the
    words of the table."""
    roles = [role for role in ("policeman", "mafioso", "agent") if role in C.USABLE_BY[card]]
    usable = fill(card_words.USABLE_BY, {"roles": ", ".join(role_name(view, role) for role in roles)}) if roles else ""
    return " ".join(text for text in (str(card_words.CARD_EFFECTS[card]), usable) if text)


def role_text(view: dict) -> str:
    """A seat's role in words, from its own view: the reveal of a game the host ended."""
    return role_name(view, view["me"]["role"])


def side_words(code: str, ruleset: str, options: dict) -> str:
    """A winning side in the words of the game's table (the evening's scoreboard): the
    children's re-theme names its own sides."""
    return str(TEAM_NAMES[words({"ruleset": ruleset, "options": options})].get(code, code))


def role_words(code: str, ruleset: str, options: dict) -> str:
    """A role in the words of the game's table (the admin's statistics)."""
    return role_name({"ruleset": ruleset, "options": options}, code) or code


def reason_words(code: str, ruleset: str, options: dict) -> str:
    """How a game ended in the words of the game's table (the admin's games)."""
    return str(REASONS[words({"ruleset": ruleset, "options": options})].get(code, code))


# The editions' names (the engine's titles are English).
TITLES = {GRANNA: gettext_lazy("Mafia (GRANNA)"), POLISH: gettext_lazy("Mafia (Polish)")}


# "How to play" (rules B.2, C.2): what the game's own words do not say of a day.
DAY_HELP = {
    "defence": gettext_lazy("The players with the most votes each speak in their defence; everyone else stays silent."),
    "final_vote": gettext_lazy("Everyone votes once more: whoever gets the most votes is out, and their card is "
                               "shown."),
    "re_discussion": gettext_lazy("Still tied: talk once more and vote again; if it stays tied, a coin decides."),
}


def vote_help(kind: str, options: dict) -> str:
    """What a vote of ``kind`` leads to (the "?" beside a phone's vote; rules B.2, B.3.3 3.)."""
    if kind == "vote":
        return str(OPTION_LABELS["kids_single_vote"][1] if options.get("kids_single_vote") else DAY_HELP["defence"])
    return str(DAY_HELP["final_vote" if kind == "final_vote" else "re_discussion"])


def roles_in_play(options: dict) -> list[str]:
    """The roles a game with ``options`` deals (rules B.1, C.1): the extra roles of the Polish
    edition only when the host adds them, the agent unless the children's game leaves him out."""
    roles = ["mafioso", *([] if options.get("kids_no_agent") else ["agent"]), "policeman"]
    return roles + [role for role in ("doctor", "wizard", "judge") if options.get(role)]


def how_to_play(ruleset: str, options: dict) -> list[dict]:
    """The lesson before a first game: the sides, the roles, a night, a day, the end — in the
    edition's words (the children's re-theme its own)."""
    view = {"ruleset": ruleset, "options": options}
    table = words(view)
    helps, teams, reasons = (KIDS_HELP if table == KIDS else ROLE_HELP), TEAM_NAMES[table], REASONS[table]

    def line(code: str, **params) -> str:
        return narrate({"code": code, "params": params}, [], view)

    roles = roles_in_play(options)
    # The night's steps in their order (rules C.2): each role's that is dealt (a step is named by its role).
    night_steps = [f"{step}_step" for step in NIGHT_STEPS if step == MAFIA_STEP or step in roles]
    day = [("discussion", line("discussion")), ("vote", line("vote"))]
    if options.get("kids_single_vote"):
        day.append(("final_vote", OPTION_LABELS["kids_single_vote"][1]))
    else:
        day += [(phase, DAY_HELP[phase]) for phase in ("defence", "final_vote", "re_discussion")]
    return [
        slide(LESSON_TITLES["sides"], [line("discussion")],
              [(teams["mafia"], helps["mafioso"]), (teams["police"], helps["policeman"])]),
        slide(LESSON_TITLES["roles"], tiles=[(role_name(view, role), helps[role]) for role in roles]),
        slide(PHASE_TITLES["mafia"], [line("night", round=1), *(line(step) for step in night_steps),
                                      line("dawn")]),
        slide(LESSON_TITLES["day"], tiles=[(PHASE_TITLES[phase], text) for phase, text in day]),
        slide(LESSON_TITLES["end"], tiles=[(teams["police"], reasons["mafia_eliminated"]),
                                           (teams["mafia"], reasons["police_eliminated"])]),
        *_cards_slide(view, options),
    ]


def _cards_slide(view: dict, options: dict) -> list[dict]:
    """With the action cards (rules B.3.4): the cards the host chose, each with what it does."""
    if not options.get("action_cards"):
        return []
    cards = [card for card in C.SINGLE_CARDS if options.get(C.card_option(card))]
    if options.get("new_gang"):
        cards.append(C.NEW_GANG)
    return [slide(LESSON_TITLES["cards"], [card_words.OPTION_LABELS["action_cards"][1]],
                  [(card_name(card), card_help(view, card)) for card in cards])]


SKIP_LABELS = {
    "skip_check": gettext_lazy("No check tonight"),
    "skip_heal": gettext_lazy("Heal nobody tonight"),
    "skip_swap": gettext_lazy("No spell tonight"),
    "skip_last_shot": gettext_lazy("Don't shoot"),
    "decline_swap": gettext_lazy("Keep my token"),
    # a sleeper's (or a mafioso's) quiet button at night: the shape of "No check tonight"
    "nothing": gettext_lazy("Nobody tonight"),
}


# The host's settings fold these under "Advanced": the clocks, the ghosts' view and the
# children's versions (a host who wants them looks for them; the rest fits one TV screen).
# The action cards' choice of cards and their clock, too (cards.py): the host switches the extended
# version on in the main list and finds its cards here.
ADVANCED_OPTIONS = frozenset({"deadline_seconds", "night_seconds", "discussion_minutes", "ghost_view",
                              "kids_no_agent", "kids_last_shot_all", "kids_single_vote", "kids_retheme",
                              *card_words.ADVANCED_OPTIONS})

OPTION_LABELS = {
    "small_game_rule": (gettext_lazy("Small-game rule (6–7 players)"),
                        gettext_lazy("The agent looks only in the first night, and dies if he points at the "
                                     "Mafioso.")),
    "small_game_round1_mafia": (gettext_lazy("Small game: the mafia kills in round 1 too"),
                                gettext_lazy("The rulebook goes from the agent straight to the day in round 1.")),
    "large_game_rule": (gettext_lazy("Large-game rule (20–21 players)"),
                        gettext_lazy("The first two players out in round 1 each take a last shot.")),
    "kids_no_agent": (gettext_lazy("Children: no agent"), gettext_lazy("One more policeman instead.")),
    "kids_last_shot_all": (gettext_lazy("Children: a last shot for everyone"),
                           gettext_lazy("Everyone killed at night or voted out may shoot one player.")),
    "kids_single_vote": (gettext_lazy("Children: one vote"),
                         gettext_lazy("No defence and final vote: the most votes leave (a tie has a final "
                                      "vote).")),
    "kids_retheme": (gettext_lazy("Children: Police Academy"),
                     gettext_lazy("Cadets and Rascals instead of police and mafia.")),
    "ghost_view": (gettext_lazy("Ghost view"),
                   gettext_lazy("Players who are out see every role and the night's actions — and stay "
                                "silent.")),
    "doctor": (gettext_lazy("Doctor"),
               gettext_lazy("Heals one player each night; plays instead of one policeman.")),
    "wizard": (gettext_lazy("Wizard"), gettext_lazy("Once per game swaps two players' cards at night.")),
    "judge": (gettext_lazy("Judge"), gettext_lazy("Once per game his day vote counts double.")),
    "doctor_self_heal": (gettext_lazy("The doctor may heal himself"),
                         gettext_lazy("Otherwise he heals only other players.")),
    "announce_saved": (gettext_lazy("Name the player the doctor saved"),
                       gettext_lazy("Otherwise dawn only says nobody was eliminated.")),
    "agent_sees": (gettext_lazy("The agent's check shows"),
                   gettext_lazy("A player's team, or, with extra roles in the game, their exact card.")),
    "arrest_scope": (gettext_lazy("Final vote"),
                     gettext_lazy("Who may be arrested: only the players heard in their defence, or anyone alive.")),
    "deadline_seconds": (gettext_lazy("Time to decide at night"),
                         gettext_lazy("Then the game master decides: the mafia's most-picked victim, no "
                                      "check, no heal, no spell, no shot.")),
    "night_seconds": (gettext_lazy("Shortest night step"),
                      gettext_lazy("Every night step lasts at least this long, so nobody learns who was "
                                   "awake.")),
    "discussion_minutes": (gettext_lazy("Discussion timer"), gettext_lazy("The host can end it sooner.")),
    **card_words.OPTION_LABELS,
}


OPTION_CHOICES = {
    # seconds read the same in English and Czech
    "deadline_seconds": {seconds: f"{seconds} s" for seconds in ("30", "60", "90", "120")},
    "night_seconds": {seconds: f"{seconds} s" for seconds in ("5", "8", "12")},
    "window_seconds": {seconds: f"{seconds} s" for seconds in ("8", "10", "15", "20")},
    "agent_sees": {"team": gettext_lazy("Gangster or policeman"), "card": gettext_lazy("The exact card")},
    "arrest_scope": {"heard": gettext_lazy("Only the players heard"), "anyone": gettext_lazy("Any living player")},
    "discussion_minutes": {"off": gettext_lazy("None: the host ends it"), "2": gettext_lazy("2 min"),
                           "3": gettext_lazy("3 min"), "5": gettext_lazy("5 min"), "10": gettext_lazy("10 min")},
}


# Player-facing messages for the engine's refusal codes (the engine's own text is English).
ERRORS = {
    **COMMON_ERRORS,
    "host_only": gettext_lazy("Only the host can do that."),
    "no_clock": gettext_lazy("That is not possible right now."),
    "unknown_seat": gettext_lazy("That player is not at this table."),
    "bad_target": gettext_lazy("Pick a player at this table."),
    "bad_targets": gettext_lazy("Pick exactly two players."),
    "same_target": gettext_lazy("Pick two different players."),
    "bad_double": gettext_lazy("That request was malformed."),
    "target_dead": gettext_lazy("Pick a player still in the game."),
    "dead": gettext_lazy("You are out of the game."),
    "self_target": gettext_lazy("Pick someone else."),
    "wizard_self": gettext_lazy("The wizard cannot swap his own card."),
    "no_self_heal": gettext_lazy("The doctor may not heal himself in this game."),
    "no_self_vote": gettext_lazy("You cannot vote for yourself in this vote."),
    "fellow_mafioso": gettext_lazy("Pick someone who is not one of you."),
    "locked": gettext_lazy("You have already agreed on tonight's victim."),
    "already_acted": gettext_lazy("You have already made tonight's choice."),
    "already_voted": gettext_lazy("You have already voted."),
    "check_required": gettext_lazy("The agent must check a player."),
    "shot_required": gettext_lazy("Take your last shot."),
    "not_on_ballot": gettext_lazy("That player is not on the ballot."),
    "not_judge": gettext_lazy("Only the judge's vote can count double."),
    "judge_used": gettext_lazy("The judge's double vote has been used."),
    # GRANNA's action cards (rules B.3.4)
    "no_ballot": gettext_lazy("A card keeps you from voting today."),
    "protected": gettext_lazy("A card protects that player now."),
    "no_card": gettext_lazy("You have no such card to play."),
    "card_neutral": gettext_lazy("Your card does not carry your token's symbol: it does nothing for you."),
}


# Moments (engines/moments.py): a vote shown, the coin among the tied, a player out.
MOMENT_TITLES = {
    "coin": gettext_lazy("The coin decides"),
    "night": gettext_lazy("At dawn"),
    "lynch": gettext_lazy("The verdict"),
    "last_shot": gettext_lazy("The last shot"),
}
OUT_LINES = {"night": "killed", "lynch": "lynched"}   # the narration's own line for each, else OUT
OUT = gettext_lazy("%(seat)s is out. Card: %(role)s.")
VOTED = gettext_lazy("%(voter)s → %(target)s")
VOTED_TWICE = gettext_lazy("%(voter)s → %(target)s (counts twice)")
MOST_VOTES = gettext_lazy("Most votes: %(names)s (%(count)s)")


def moment_words(event: dict, names: list[str], view: dict) -> dict:
    """One event of a moment in the words of the table (rules B.2.2 votes, the coin, B.2.3)."""
    kind, data = event["kind"], event["data"]
    if kind == "votes_revealed":
        items = [fill(VOTED_TWICE if voter == data["double"] else VOTED, {"voter": names[voter], "target": names[target]})
                 for voter, target in enumerate(data["votes"]) if target is not None]
        top = max(data["tally"], default=0)
        leaders = ", ".join(names[seat] for seat, count in enumerate(data["tally"]) if count == top and top)
        return moment_part("vote", VOTE_KINDS.get(data["kind"], VOTE_KINDS["vote"]), items,
                           fill(MOST_VOTES, {"names": leaders, "count": top}) if top else "")
    if kind == "coin":
        return moment_part("coin", MOMENT_TITLES["coin"], [names[seat] for seat in data["among"]], names[data["seat"]])
    cause = data["cause"]
    line = OUT_LINES.get(cause)
    result = narrate({"code": line, "params": {"seat": data["seat"], "role": data["role"]}}, names, view) if line else \
        fill(OUT, {"seat": names[data["seat"]], "role": role_name(view, data["role"])})
    return moment_part("death" if cause == "night" else "verdict",
                       MOMENT_TITLES.get(cause, MOMENT_TITLES["lynch"]), (), result)
