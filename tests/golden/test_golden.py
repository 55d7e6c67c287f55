"""The golden playthroughs (tests/golden/playbook.py): each recorded game, replayed from its
seed and actions, shows exactly the words its file says, on the TV and on every phone.

A failure is a change of what players see (or of the rules under a recorded game): read the
diff; if it is the change you meant, write the files again (``python -m tests.golden.regenerate``)
and commit them with it, so that the reviewer reads the new screens too.
"""

from __future__ import annotations

import difflib

import pytest

from engines import registry
from engines.base import EngineError
from tests.golden.playbook import GAMES, REGENERATE, full_options, hosting, recorded, render

DIFF_LINES = 40


def short_diff(expected: str, actual: str, name: str) -> str:
    """The first ``DIFF_LINES`` lines of a unified diff, recorded → now."""
    diff = list(difflib.unified_diff(expected.splitlines(), actual.splitlines(),
                                     f"tests/golden/{name} (recorded)", f"{name} (now)", lineterm="", n=2))
    more = f"\n… {len(diff) - DIFF_LINES} more diff lines" if len(diff) > DIFF_LINES else ""
    return "\n".join(diff[:DIFF_LINES]) + more


def test_every_ruleset_has_a_golden_game():
    """A ruleset added to the registry gets a recorded game too (add it to ``playbook.GAMES``)."""
    missing = {ruleset.slug for ruleset in registry.all()} - {game.ruleset for game in GAMES}
    assert not missing, f"no golden playthrough of {', '.join(sorted(missing))}: add one to tests/golden/playbook.py"


@pytest.mark.parametrize("game", GAMES, ids=[game.name for game in GAMES])
def test_the_screens_are_as_recorded(game):
    known = recorded(game)
    assert known is not None, f"{game.path.name} is missing: run {REGENERATE} {game.name}"
    options, actions = known
    with hosting(game):
        assert options == full_options(game), (
            f"{game.path.name} was recorded with other options than playbook.GAMES gives now "
            f"(a ruleset's option or its default changed?): run {REGENERATE} {game.name}")
        try:
            actual = render(game, options, actions)
        except EngineError as error:
            pytest.fail(f"{game.path.name}: a recorded action is refused now ({error.code}: {error.message}); "
                        f"if the rules changed on purpose, record a new game: {REGENERATE} --fresh {game.name}")
    expected = game.path.read_text(encoding="utf-8")
    if actual != expected:   # pytest.fail: pytest's own diff of two long texts would bury this one
        pytest.fail(f"What the screens show (or the engine tells) in {game.path.name} changed:\n{short_diff(expected, actual, game.path.name)}\n"
                    f"If this change is intended, run {REGENERATE} {game.name} and commit the file with it.",
                    pytrace=False)
