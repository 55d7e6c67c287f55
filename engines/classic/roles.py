"""Roles, teams and the role deal of classic Mafia (rules B.1, C.1, C.3).

Pure tables and functions; ``engine.py`` keeps the game.  "rules B.1" means
``docs/rules/classic-mafia.md``; the rulebooks (GRANNA's Ukrainian "Мафія" and the Polish
"Mafia – zasady gry", credited in that file) are the authority.
"""

from __future__ import annotations

from engines import chance
from engines.base import NOBODY

MAFIOSO, AGENT, POLICEMAN = "mafioso", "agent", "policeman"
DOCTOR, WIZARD, JUDGE = "doctor", "wizard", "judge"      # Polish extra roles (rules C.3)
EXTRA_ROLES = (DOCTOR, WIZARD, JUDGE)
ROLES = (MAFIOSO, AGENT, POLICEMAN, *EXTRA_ROLES)

MAFIA, POLICE = "mafia", "police"
# The Agent belongs to the Police (GRANNA: "Агент належить до Поліції"); the Polish extra roles
# each replace a policeman and so play for the police (rules C.3, PROPOSED C-Q10).
TEAM = {MAFIOSO: MAFIA, AGENT: POLICE, POLICEMAN: POLICE, DOCTOR: POLICE, WIZARD: POLICE,
        JUDGE: POLICE}

# Mafiosi by R, the number of humans with a role.  The printed tables include the human Game
# Master; the app is the game master, so we read the printed row T = R + 1 (rules §0, B-Q1,
# C-Q1): GRANNA T 7–22, Polish T 6–22.  R = 5 exists only in the Polish table (T = 6).
MAFIOSI_BY_PLAYERS = {
    5: 1, 6: 1, 7: 1,
    8: 2, 9: 2, 10: 2, 11: 2, 12: 2,
    13: 3, 14: 3, 15: 3, 16: 3, 17: 3,
    18: 4, 19: 4,
    20: 5, 21: 5,
}

SMALL_GAME_PLAYERS = (6, 7)       # printed 7–8 (GRANNA "менше (7-8)"), rules B.3.1
LARGE_GAME_PLAYERS = (20, 21)     # printed 21–22 (GRANNA "більше (21-22)"), rules B.3.2


def team(role: str) -> str:
    return TEAM[role]


def role_counts(players: int, rules: dict) -> dict[str, int]:
    """How many of each role a table of ``players`` gets with these ``rules``.

    One Agent always (GRANNA, Polish), none under the children's version, which adds one
    Policeman instead (GRANNA p. 12, 1.); each Polish extra role replaces one policeman
    (rules C.1, PROPOSED C-Q10).
    """
    mafiosi = MAFIOSI_BY_PLAYERS[players]
    agents = 0 if rules["kids_no_agent"] else 1
    extras = [role for role in EXTRA_ROLES if rules[role]]
    counts = {MAFIOSO: mafiosi, AGENT: agents,
              POLICEMAN: players - mafiosi - agents - len(extras)}
    for role in extras:
        counts[role] = 1
    return counts


def role_list(players: int, rules: dict) -> list[str]:
    """The tokens in the box for this table, in a fixed order (before the shuffle)."""
    return [role for role, count in role_counts(players, rules).items() for _ in range(count)]


DEAL = "deal"      # the chance kit's label of the shuffle (engines/chance.py)


def deal(record: chance.Record, players: int, rules: dict) -> chance.Draw:
    """Shuffle the tokens and hand one to each seat (GRANNA "тасує і довільно розподіляє"): a
    draw of the chance kit, the game master's alone (nobody sees the shuffled box)."""
    return chance.shuffle(record, DEAL, role_list(players, rules), audience=NOBODY)
