"""Every ruleset the app can host, by slug."""

from __future__ import annotations

from engines import classic, cosanostra, mafie, mrakoslapi
from engines.base import Ruleset, check_ruleset
from engines.briefing import briefed
from engines.moments import paced


def registered(*rulesets: Ruleset) -> dict[str, Ruleset]:
    """Rulesets by slug, each checked against the contract (``check_ruleset``) as it is added."""
    table: dict[str, Ruleset] = {}
    for ruleset in rulesets:
        check_ruleset(ruleset)
        if ruleset.slug in table:
            raise TypeError(f"two rulesets are called {ruleset.slug!r}")
        table[ruleset.slug] = ruleset
    return table


# Each ruleset's engine as its rulebook plays (the rules' own tests play these) ...
_ENGINES = registered(mafie.RULESET, classic.GRANNA, classic.MAFIA_PL, mrakoslapi.RULESET, cosanostra.RULESET)
# ... and as the app serves it: opening with a briefing, so that nobody's clock runs until
# everyone has seen their role (engines/briefing.py), and with its results on the stage for a
# few seconds (engines/moments.py).  The moments are the outer layer: a moment's clock is the
# game master's even while the briefing holds the engine's (Mafie's players act meanwhile).
def served(ruleset: Ruleset) -> Ruleset:
    return paced(briefed(ruleset))


_RULESETS = registered(*map(served, _ENGINES.values()))


def register(ruleset: Ruleset) -> None:
    """Add a ruleset kept outside this package (a folder named in the web app's settings,
    ``EXTRA_RULESETS``: docs/adding-a-ruleset.md), checked like the built-in ones."""
    _ENGINES.update(registered(*_ENGINES.values(), ruleset))
    _RULESETS.update(registered(*_RULESETS.values(), served(ruleset)))


def get(slug: str) -> Ruleset:
    """The ruleset called ``slug``; KeyError for an unknown one."""
    return _RULESETS[slug]


def engine(slug: str) -> Ruleset:
    """The ruleset called ``slug`` as its rulebook plays, without the app's briefing and moments."""
    return _ENGINES[slug]


def all() -> list[Ruleset]:  # noqa: A001 - the issue names it registry.all()
    return list(_RULESETS.values())
