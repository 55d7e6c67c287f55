"""Mrakošlapi — a Czech club variant of Mafia ("Městečko Palermo") where everyone plays for
himself with a hand of secret cards: bullets, tunnels, saliva, mirrors and spare lives.

Source: the Czech Mrakošlapi rulebook (the authority; credited in the file below), restated as
state machines in ``docs/rules/mrakoslapi.md`` ("rules §4.4" below means that file).

The modules (pure functions over JSON dicts, seats as ids):

The rules, in the rulebook's order (pure functions over JSON dicts, seats as ids):

* ``cards``     the 40-card deck, the deck per player count, card state, the secret deal (a
                draw of the chance kit, engines/chance.py), the card semantics as data (§1).
* ``players``   the player records of the state model (rules §2).
* ``night``     the "night has no meaning" rule, the resolver input built from the night's
                choices, and the result applied to the players (rules §4.1, §4.3, §4.8).
* ``resolver``  ``resolve(night_input)``: the night's bullets through tunnels, saliva, mirrors
                and Mrakošlapy, with exact fractions and a secret replayable trace (rules §4.4).
* ``announce``  the morning announcement as codes and parameters (rules §4.7).
* ``day``       the day as a state machine over a JSON ``day`` dict, a package by chapter:
                the day start and the floor (§5.1, §5.3, §5.4), the vote (§5.5), the sentence,
                the execution and its aftermath (§5.6–§5.8), what may happen at any time
                (§5.9), the end of the day and of the game (§6).

The engine over them (the protocol of ``engines/base.py``):

* ``state``     the ruleset's name, phases and options, and the readers of its state (§2).
* ``cycle``     night after day: a night's prompts or its skip, its dawn, the day's start and
                steps, the end-of-game test after a night, and the game master's clock of each
                step (the night's deadline of §4.2, the day's timers of §5.2).
* ``moves``     what the players, the clock and the host may send, checked and taken in.
* ``turns``     whose move: the awaited seats, their legal moves, the outcome.
* ``views``     the TV's and each phone's view (rules §3).
* ``engine``    ``setup``, ``apply`` and the ruleset object ``engine.RULESET`` (slug
                ``mrakoslapi``); its docstring draws the phases and the state.

Its screens: ``mafiagames/presenters/mrakoslapi/`` and ``templates/engines/mrakoslapi/``.
"""

from engines.mrakoslapi.engine import RULESET

__all__ = ["RULESET"]
