"""The two editions of classic Mafia the engine plays, and the options each offers.

One engine (``engine.py``); an edition decides the player range, the options a host may set
and the values of the rules it does not offer (``FIXED``).  Internally the engine reads every
rule from ``state["rules"]`` (the host's options plus the edition's fixed values).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engines.base import Option

GRANNA, MAFIA_PL = "granna", "mafia_pl"

# Timing (both editions).  Engines know no time: these become ``state["clock"]`` seconds.
TIMING = [
    Option("deadline_seconds", "Time to decide at night and for a last shot", "60", kind="choice",
           choices=(("30", "30 s"), ("60", "60 s"), ("90", "90 s"), ("120", "120 s")),
           help="How long the night's players (and a last shooter) have to decide; then the "
                "game master decides for them: the mafia's most-picked target, no check, no "
                "heal, no spell, no shot (rules B.2.5)."),
    Option("night_seconds", "Shortest night step", "8", kind="choice",
           choices=(("5", "5 s"), ("8", "8 s"), ("12", "12 s")),
           help="Every night step lasts at least this long however quickly its players act, "
                "so nobody learns who was awake from its length (rules §0, anti-tell)."),
    Option("discussion_minutes", "Discussion timer", "off", kind="choice",
           choices=(("off", "No timer: the host ends it"), ("2", "2 min"), ("3", "3 min"),
                    ("5", "5 min"), ("10", "10 min")),
           help="The day's discussion ends after this long, or earlier by the host."),
]

GHOST_VIEW = Option(
    "ghost_view", "Ghost view for the eliminated", True,
    help="An eliminated player's phone shows every role and the night's actions (the dead "
         "watch the night in the box game, rules B.2.3) — they must stay silent.")

GRANNA_OPTIONS = [
    Option("small_game_rule", "Small-game rule (6–7 players)", True,
           help="The Agent checks only in round 1; an Agent who points at the Mafioso is killed "
                "(GRANNA, fewer players; rules B.3.1).  Has an effect only with 6–7 players."),
    Option("small_game_round1_mafia", "Small game: mafia kills in round 1 too", False,
           help="The rulebook goes from the Agent straight to the day in round 1; this option "
                "adds the mafia's kill that night (rules B.3.1, the alternative reading)."),
    Option("large_game_rule", "Large-game rule (20–21 players)", True,
           help="The first two eliminated in round 1 (night victim, then the lynched player) "
                "each take a last shot (GRANNA, more players; rules B.3.2).  Has an effect only "
                "with 20–21 players."),
    Option("kids_no_agent", "Children: no Agent", False,
           help="One more Policeman instead of the Agent (GRANNA, children's version 1.)."),
    Option("kids_last_shot_all", "Children: everyone has a last shot", False,
           help="Every player killed at night or voted out may take a last shot (children's "
                "version 2.)."),
    Option("kids_single_vote", "Children: one vote", False,
           help="No runoff: the most votes leave; only a tie for the most has a final vote "
                "(children's version 3.)."),
    Option("kids_retheme", "Children: Police Academy words", False,
           help="Cadets and Rascals instead of Police and Mafia (children's version 4.)."),
    GHOST_VIEW,
    *TIMING,
]

MAFIA_PL_OPTIONS = [
    Option("doctor", "Doctor", False,
           help="Heals one player each night before the mafia wakes (Polish rules, extra role "
                "1; replaces a policeman)."),
    Option("wizard", "Wizard", False,
           help="Once per game swaps two players' cards at night (extra role 2)."),
    Option("judge", "Judge", False,
           help="Once per game his day vote counts double (extra role 3)."),
    Option("doctor_self_heal", "The doctor may heal himself", True,
           help="rules C.3.1, PROPOSED."),
    Option("announce_saved", "Name the player the doctor saved", False,
           help="Off: dawn only says nobody was eliminated (rules C.3.1, PROPOSED)."),
    Option("agent_sees", "What the agent's check shows", "team", kind="choice",
           choices=(("team", "Gangster or policeman"), ("card", "The exact card")),
           help="rules C-Q6: the token shows the team; with extra roles, 'card' shows them."),
    Option("arrest_scope", "Who may be arrested in the final vote", "heard", kind="choice",
           choices=(("heard", "Only the players heard"), ("anyone", "Any living player")),
           help="rules C-Q2: the rulebook lets players change their vote; PROPOSED heard only."),
    GHOST_VIEW,
    *TIMING,
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
        GRANNA, "Mafia (GRANNA)", 6, 21, tuple(GRANNA_OPTIONS),
        # "Агент вказує на будь-якого гравця, а Магістр гри показує йому жетон": a mandatory
        # check that shows the printed token (Mafioso or Policeman).
        fixed={"agent_check_optional": False, "agent_sees": "card"}),
    MAFIA_PL: Edition(
        MAFIA_PL, "Mafia (Polish)", 5, 21, tuple(MAFIA_PL_OPTIONS),
        # "agent może wskazać jedną osobę": the check is optional (rules C-Q5).
        fixed={"agent_check_optional": True}),
}
