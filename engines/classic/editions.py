"""The two editions of classic Mafia the engine plays, and the options each offers.

One engine (``engine.py``); an edition decides the player range, the options a host may set
and the values of the rules it does not offer (``FIXED``).  Internally the engine reads every
rule from ``state["rules"]`` (the host's options plus the edition's fixed values).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engines.base import Option
from engines.classic import cards as C

GRANNA, MAFIA_PL = "granna", "mafia_pl"

# Timing (both editions).  Engines know no time: these become ``state["clock"]`` seconds.
TIMING = [
    # How long the night's players (and a last shooter) have to decide; then the game master
    # decides for them: the mafia's most-picked target, no check, no heal, no spell, no shot
    # (rules B.2.5).
    Option("deadline_seconds", "60", kind="choice", choices=("30", "60", "90", "120")),
    # Every night step lasts at least this long however quickly its players act, so nobody
    # learns who was awake from its length (rules §0, anti-tell).
    Option("night_seconds", "8", kind="choice", choices=("5", "8", "12")),
    # The day's discussion ends after this long, or earlier by the host ("off": only by the host).
    Option("discussion_minutes", "off", kind="choice", choices=("off", "2", "3", "5", "10")),
]

# An eliminated player's phone shows every role and the night's actions (the dead watch the
# night in the box game, rules B.2.3); they must stay silent.
GHOST_VIEW = Option("ghost_view", True)

GRANNA_OPTIONS = [
    # The Agent checks only in round 1; an Agent who points at the Mafioso is killed (GRANNA,
    # fewer players; rules B.3.1).  Has an effect only with 6–7 players.
    Option("small_game_rule", True),
    # The rulebook goes from the Agent straight to the day in round 1; this adds the mafia's kill
    # that night (rules B.3.1, the alternative reading).
    # Read only under the small-game rule (night_steps._small_game).
    Option("small_game_round1_mafia", False, requires="small_game_rule"),
    # The first two eliminated in round 1 (night victim, then the lynched player) each take a
    # last shot (GRANNA, more players; rules B.3.2).  Has an effect only with 20–21 players.
    Option("large_game_rule", True),
    # Children's version 1. (GRANNA): one more Policeman instead of the Agent.
    Option("kids_no_agent", False),
    # Children's version 2.: every player killed at night or voted out may take a last shot.
    Option("kids_last_shot_all", False),
    # Children's version 3.: no runoff; the most votes leave, only a tie for the most has a final
    # vote.
    Option("kids_single_vote", False),
    # Children's version 4.: Cadets and Rascals instead of Police and Mafia (words only).
    Option("kids_retheme", False),
    GHOST_VIEW,
    *TIMING,
]

MAFIA_PL_OPTIONS = [
    # Polish rules, extra role 1: heals one player each night before the mafia wakes (rules
    # C.3.1).  Each extra role replaces a policeman (rules C-Q10, PROPOSED).
    Option("doctor", False),
    # Extra role 2: once per game swaps two players' cards at night (rules C.3.2).
    Option("wizard", False),
    # Extra role 3: once per game his day vote counts double (rules C.3.3).
    Option("judge", False),
    # The doctor may heal himself (rules C.3.1, PROPOSED).
    Option("doctor_self_heal", True, requires="doctor"),
    # Name the player the doctor saved; off: dawn only says nobody was eliminated (rules C.3.1,
    # PROPOSED).
    Option("announce_saved", False, requires="doctor"),
    # What the agent's check shows: the token shows the team (gangster or policeman); with extra
    # roles, "card" shows them (rules C-Q6).
    Option("agent_sees", "team", kind="choice", choices=("team", "card")),
    # Who may be arrested in the final vote: only the players heard in their defence ("heard",
    # PROPOSED) or any living player; the rulebook lets players change their vote (rules C-Q2).
    Option("arrest_scope", "heard", kind="choice", choices=("heard", "anyone")),
    GHOST_VIEW,
    *TIMING,
]

# GRANNA's extended version (rules B.3.4, B.3.5), offered to hosts after GRANNA_OPTIONS (the web
# layer words them: mafiagames/presenters/classic/cards.py); each depends on ``action_cards``.
EXTENDED_OPTIONS = [
    # The action cards: one card per player, at most one action card per 4 players (rules B.3.4).
    Option("action_cards", False),
    # All three New Gang cards (rules B.3.5); has an effect only with action_cards and 14+
    # players ("мінімум 14!").  They count 3 towards the cap.
    Option("new_gang", False, requires="action_cards"),
    # Which of the 13 single action cards go in the box (each its own switch; the recommended
    # set on by default, cards.RECOMMENDED).  More than the cap: the cap's worth drawn by lot.
    *(Option(C.card_option(card), card in C.RECOMMENDED, requires="action_cards") for card in C.SINGLE_CARDS),
    # How long each reaction window lasts, always in full (rules §0 anti-tell, B.3.4).
    Option("window_seconds", "10", kind="choice", choices=("8", "10", "15", "20"), requires="action_cards"),
]

# Every rule the engine reads, with the value an edition uses when it does not offer it.
ALL_RULES_DEFAULTS: dict[str, Any] = {
    "small_game_rule": False, "small_game_round1_mafia": False, "large_game_rule": False,
    "kids_no_agent": False, "kids_last_shot_all": False, "kids_single_vote": False,
    "kids_retheme": False,
    "doctor": False, "wizard": False, "judge": False, "doctor_self_heal": True,
    "announce_saved": False, "agent_sees": "team", "arrest_scope": "heard",
    "ghost_view": True, "deadline_seconds": "60", "night_seconds": "8",
    "discussion_minutes": "off",
    **{option.key: option.default for option in EXTENDED_OPTIONS},
}


@dataclass(frozen=True)
class Edition:
    slug: str
    title: str
    min_players: int
    max_players: int
    options: tuple[Option, ...]
    # Rules this edition fixes (not offered to hosts), over ALL_RULES_DEFAULTS.
    fixed: dict[str, Any] = field(default_factory=dict)

    def rules(self, options: dict) -> dict:
        """Every rule key: the host's options over the edition's fixed values."""
        return {**ALL_RULES_DEFAULTS, **self.fixed, **options}


EDITIONS = {
    GRANNA: Edition(
        GRANNA, "Mafia (GRANNA)", 6, 21, tuple(GRANNA_OPTIONS + EXTENDED_OPTIONS),
        # "Агент вказує на будь-якого гравця, а Магістр гри показує йому жетон": a mandatory
        # check that shows the printed token (Mafioso or Policeman).
        fixed={"agent_check_optional": False, "agent_sees": "card"}),
    MAFIA_PL: Edition(
        MAFIA_PL, "Mafia (Polish)", 5, 21, tuple(MAFIA_PL_OPTIONS),
        # "agent może wskazać jedną osobę": the check is optional (rules C-Q5).
        fixed={"agent_check_optional": True}),
}
