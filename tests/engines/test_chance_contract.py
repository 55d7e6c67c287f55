"""Chance on every ruleset (engines/chance.py): every draw a game makes is recorded in its log,
numbered by the game's counter, and replaying the game's actions from its seed draws exactly
the same again."""

from __future__ import annotations

import pytest

from engines import chance
from engines.replay import replay
from tests.engines.playthrough import playthroughs
from tests.engines.test_contract import CASE_IDS, CASES


@pytest.mark.parametrize(("ruleset", "options"), CASES, ids=CASE_IDS)
def test_every_draw_is_in_the_log_and_replay_draws_it_again(ruleset, options, monkeypatch):
    made = []
    draw = chance._draw

    def recorded(*args, **kwargs):
        result = draw(*args, **kwargs)
        made.append(result.event.to_json())
        return result

    monkeypatch.setattr(chance, "_draw", recorded)
    for play in playthroughs(ruleset, options):
        made.clear()
        _state, events = replay(ruleset, play.players, options, play.seed, None, play.actions)
        logged = [event.to_json() for event in events if event.kind == chance.CHANCE]
        assert made, f"{play}: a game of {ruleset.slug} draws at least its deal"
        assert logged == made, play            # every draw the engine made is in the log, in order
        assert [data["draw"] for data in chance.draws(events)] == list(range(len(made))), play
        assert logged == [event.to_json() for event in play.events if event.kind == chance.CHANCE], play
