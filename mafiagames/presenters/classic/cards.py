"""Classic Mafia, GRANNA's extended version (rules B.3.4, B.3.5): the words of the action cards
— each card's name (the Ukrainian rulebook's, translated faithfully) and what it does, the
reaction windows, the badges the cards leave on the roster, and the host's options for them.
One place for each word; ``words.py`` keeps the narration lines and refusals, ``context.py``
what the screens get."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from engines.classic import cards as C


# The names printed on the cards ("КАРТКИ ДІЇ – ДЕТАЛЬНИЙ ОПИС").
CARD_NAMES = {
    C.VEST: gettext_lazy("Bulletproof Vest"),
    C.BANDAGE: gettext_lazy("Bandage"),
    C.RECRUITMENT: gettext_lazy("Recruitment"),
    C.LEADER: gettext_lazy("Leader"),
    C.TURNCOAT: gettext_lazy("Turncoat"),
    C.ROLE_SWAP: gettext_lazy("Role Swap"),
    C.WIRETAP: gettext_lazy("Wiretap"),
    C.HIDEOUT: gettext_lazy("Hideout"),
    C.SAFE_CONDUCT: gettext_lazy("Safe-Conduct Letter"),
    C.ARREST: gettext_lazy("Arrest"),
    C.CORNER_SHOT: gettext_lazy("Shot from Around the Corner"),
    C.CAPTURE: gettext_lazy("Capture"),
    C.LAST_SHOT: gettext_lazy("Last Shot"),
    C.NEW_GANG: gettext_lazy("New Gang"),
    C.NEUTRAL: gettext_lazy("Neutral card"),
}


# What each card does, in a few words (the rulebook's texts, rules B.3.4 table); the tokens that
# may use it are added from the engine's table (``card_help``).  No team is named, so the
# children's Police Academy reads them as they are.
CARD_EFFECTS = {
    C.VEST: gettext_lazy("When you are named to die at dawn or voted out, play it: you stay in and your token "
                         "stays hidden. Once."),
    C.BANDAGE: gettext_lazy("When another player is named to die at dawn or voted out, play it: they stay in. "
                            "Not for yourself. Once."),
    C.RECRUITMENT: gettext_lazy("At night, while your side is awake: point at a player — from now on they play "
                                "on your side and wake with you. Once."),
    C.LEADER: gettext_lazy("Shown to all. Votes go one at a time from you, clockwise; in a tie you choose who "
                           "goes. Passes left at the end of each day."),
    C.TURNCOAT: gettext_lazy("Never shown: you play and win for the side opposite your token."),
    C.ROLE_SWAP: gettext_lazy("Shown to all. Before the first night you may swap tokens with one player; you "
                              "both know each other's role."),
    C.WIRETAP: gettext_lazy("At the end of a day: next round nobody can kill you or vote for you; you do not "
                            "vote. Once."),
    C.HIDEOUT: gettext_lazy("At the end of a day: next round nobody can kill you or vote for you; you do not "
                            "vote. Once."),
    C.SAFE_CONDUCT: gettext_lazy("At the end of a day: nobody may pick you the next night. Once."),
    C.ARREST: gettext_lazy("At the start of a day: nobody may vote for you that day. Once."),
    C.CORNER_SHOT: gettext_lazy("Any time in the day's talk or at its end: point at a player — they are out. Not "
                                "if you were struck at last night. Once."),
    C.CAPTURE: gettext_lazy("At the start of a day: point at a player — they do not vote that day. Once."),
    C.LAST_SHOT: gettext_lazy("When you are out: point at a player — they go out with you."),
    C.NEW_GANG: gettext_lazy("You and the other two holders meet on the first night: a third side that wins "
                             "if it outlasts the other two. Shown when you are out."),
    C.NEUTRAL: gettext_lazy("No effect. Keep it hidden."),
}

USABLE_BY = gettext_lazy("Usable by: %(roles)s.")
NEUTRAL_FOR_YOU = gettext_lazy("neutral for you")
PLAYED = gettext_lazy("played face up")
WAITING = gettext_lazy("played: it takes effect when the time is up")
YOUR_CARD = gettext_lazy("Your action card: %(card)s.")
YOU_PLAY_FOR = gettext_lazy("You play for: %(team)s.")


# The reaction windows (rules B.3.4 "Extended-version procedure changes"), as headings.
WINDOW_TITLES = {
    C.DAWN: gettext_lazy("Dawn: a moment to react"),
    C.LYNCH: gettext_lazy("The verdict: a moment to react"),
    C.DAY_START: gettext_lazy("The day begins: action cards"),
    C.DAY_END: gettext_lazy("The day ends: action cards"),
    C.SHOT_WINDOW: gettext_lazy("The Last Shot card"),
}


# What a window is for, the same on every phone (public: the window and its target only).
WINDOW_TEXTS = {
    C.DAWN: gettext_lazy("Struck at: %(seat)s. A Bulletproof Vest or a Bandage may save them now."),
    C.LYNCH: gettext_lazy("Voted out: %(seat)s. A Bulletproof Vest or a Bandage may save them now."),
    C.DAY_START: gettext_lazy("Arrest and Capture may be played now."),
    C.DAY_END: gettext_lazy("Wiretap, Hideout, Safe-Conduct Letter and Shot from Around the Corner may be "
                            "played now."),
    C.SHOT_WINDOW: gettext_lazy("Out: %(seat)s. A Last Shot may be played now."),
}


# The host's options (editions.EXTENDED_OPTIONS): label and help.
OPTION_LABELS = {
    "action_cards": (gettext_lazy("Action cards (extended version)"),
                     gettext_lazy("One card each: at most 1 action card per 4 players, the rest neutral. The "
                                  "cards, the New Gang: Advanced.")),
    "new_gang": (gettext_lazy("New Gang"),
                 gettext_lazy("Three more cards: a third side. Only with 14 players or more; they count as 3 "
                              "action cards.")),
    "window_seconds": (gettext_lazy("Time to react with a card"),
                       gettext_lazy("Each moment to play a card lasts this long, whoever holds one.")),
    **{C.card_option(card): (CARD_NAMES[card], CARD_EFFECTS[card]) for card in C.SINGLE_CARDS},
}

ADVANCED_OPTIONS = frozenset({"new_gang", "window_seconds", *(C.card_option(card) for card in C.SINGLE_CARDS)})
