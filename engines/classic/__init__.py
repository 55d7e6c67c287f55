"""Classic Mafia: GRANNA "Мафія" (``granna``) and the Polish "Mafia – zasady gry" (``mafia_pl``).

One engine (``engine.py``, split by rulebook chapter: ``table.py``, ``setup.py``,
``night_steps.py``, ``day.py``, ``host.py``, ``moves.py``, ``views.py``) with two presets
(``editions.py``); pure tables in ``roles.py``, ``votes.py`` and ``night.py``.  Rules:
``docs/rules/classic-mafia.md`` §B, §C.
"""

from engines.classic.editions import GRANNA as _GRANNA_SLUG
from engines.classic.editions import MAFIA_PL as _MAFIA_PL_SLUG
from engines.classic.engine import RULESETS

GRANNA = RULESETS[_GRANNA_SLUG]
MAFIA_PL = RULESETS[_MAFIA_PL_SLUG]
