"""Mafie's components as data (docs/rules/mafie.md A.1; Czech rulebook, Příprava hry and
Vytvoření týmu), its phases (A.2) and options (A.3), and the small questions every chapter
of the rules asks of them."""

from __future__ import annotations

from engines.base import IllegalAction, Option, State
from engines.mafie import plot_cards as plot


# --------------------------------------------------------------------------------------------
# Tables (rules A.1; Czech rulebook, Příprava hry and Vytvoření týmu)
# --------------------------------------------------------------------------------------------

MAFIOSO, DETECTIVE = "mafioso", "detective"
SUCCESS, FAIL = "success", "fail"
MAFIA, DETECTIVES = "mafia", "detectives"

# players: (mafiosi, detectives) — Czech rulebook, Příprava hry.
ROLES = {5: (3, 2), 6: (4, 2), 7: (4, 3), 8: (5, 3), 9: (6, 3), 10: (6, 4)}

# players: crew size for actions 1..5 — Czech rulebook, Vytvoření týmu.
TEAM_SIZE = {
    5: (2, 3, 2, 3, 3),
    6: (2, 3, 4, 3, 4),
    7: (2, 3, 3, 4, 4),
    8: (3, 4, 4, 5, 5),
    9: (3, 4, 4, 5, 5),
    10: (3, 4, 4, 5, 5),
}

# "more than half of ALL players", i.e. floor(N/2) + 1; a tie is a rejection
# (Czech rulebook, Hlasování o týmu).
APPROVALS_NEEDED = {5: 3, 6: 4, 7: 4, 8: 5, 9: 5, 10: 6}

SLOTS = 5                       # at most five actions (Czech rulebook, Průběh hry)
WINS_NEEDED = 3                 # 3 successes: mafia; 3 failures: detectives (Konec hry)
MAX_REJECTIONS = 5              # 5 teams in a row not approved: detectives win at once
TWO_FAIL_SLOT = 4               # "the 4th action with 7+ players needs 2 fail cards"
TWO_FAIL_MIN_PLAYERS = 7
SLOT5_SUCCESSES_NEEDED = 2      # targeting: "the 5th action only after 2 actions succeeded"
# A reaction window lasts at least this long however quickly its holders answer, so nobody
# learns from its length who thought about playing (rules §A.3.3; PROPOSED length).
PLOT_WINDOW_SECONDS = 4

DETECTIVE_MEETING = "detective_meeting"
TEAM_SELECTION = "team_selection"
TEAM_VOTE = "team_vote"
ACTION_PLAY = "action_play"
PLOT_DEAL = "plot_deal"         # The Plot Thickens: the Kmotr hands out the round's plot cards
PLOT_WINDOW = "plot_window"     # The Plot Thickens: holders of a card are asked, one by one
GAME_OVER = "game_over"

OPTIONS = [
    # The Kmotr first picks which action to attempt; each action once; the 5th only after two
    # actions succeeded (Czech rulebook, Změna pořadí akcí).
    Option("targeting", False),
    # Skip the detective meeting (Czech rulebook, Detektivové se neznají).
    Option("blind_detectives", False),
    # Plot cards: the Kmotr deals 1–3 each round (Czech rulebook, Smyčka se utahuje).
    Option("plot_cards", False),
    # Which deck and how many cards a round with 5–8 players uses: the Czech rulebook's (7 cards,
    # 1 per round for 5–6 players) or the other source's (10 cards, 2 per round; rules A-Q2, E.4).
    Option("plot_distribution", plot.CZ, kind="choice", choices=(plot.CZ, plot.ULTRA), requires="plot_cards"),
]


def team_size(players: int, slot: int) -> int:
    return TEAM_SIZE[players][slot - 1]


def fails_needed(players: int, slot: int) -> int:
    """Fail cards that foil the action in ``slot`` (rules A.2; A-Q12 puts the rule on slot 4)."""
    return 2 if slot == TWO_FAIL_SLOT and players >= TWO_FAIL_MIN_PLAYERS else 1


def left(state: State, seat: int) -> int:
    """The next seat clockwise (rules §0: Czech "po levici" = clockwise)."""
    return (seat + 1) % state["players"]


def _expect_phase(state: State, phase: str) -> None:
    if state["phase"] != phase:
        raise IllegalAction("wrong_phase", "That is not possible right now")


def _successes(state: State) -> int:
    return sum(1 for entry in state["track"] if entry["result"] == SUCCESS)
