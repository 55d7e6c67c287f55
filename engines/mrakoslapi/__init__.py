"""Mrakošlapi — a Czech club variant of Mafia ("Městečko Palermo") where everyone plays for
himself with a hand of secret cards: bullets, tunnels, saliva, mirrors and spare lives.

Source: the Czech Mrakošlapi rulebook (the authority; credited in the file below), restated as
state machines in ``docs/rules/mrakoslapi.md`` ("rules §4.4" below means that file).

The modules (pure functions over JSON dicts, seats as ids):

* ``cards``     the 40-card deck, the deck per player count, card state, the seeded secret deal,
                the card semantics as data (rules §1).
* ``players``   the player records of the state model (rules §2).
* ``resolver``  ``resolve(night_input)``: the night's bullets through tunnels, saliva, mirrors
                and Mrakošlapy, with exact fractions and a secret replayable trace (rules §4.4).
* ``night``     the "night has no meaning" rule, the resolver input built from the night's
                choices, and the result applied to the players (rules §4.1, §4.3, §4.8).
* ``announce``  the morning announcement as codes and parameters (rules §4.7).
* ``day``       the day as a state machine over a JSON ``day`` dict: skip rule, accusations,
                defence, weighted votes, the Astronom window, execution and aftermath, the
                Anarchista, the day announcements, the end of the game and the stalemate guard
                (rules §5, §6).

* ``engine``    the ruleset object ``engine.RULESET`` (slug ``mrakoslapi``): ``setup``/
                ``legal_actions``/``apply``/``view``/``outcome``/``waiting_for`` over the modules
                above, the night prompts and deadline of rules §4.2 and the day timers of rules
                §5.2 as the game master's clock moves.

Its screens: ``mafiagames/presenters/mrakoslapi.py`` and ``templates/engines/mrakoslapi/``.
"""

from engines.mrakoslapi.engine import RULESET

__all__ = ["RULESET"]
