"""Every ruleset the app can host, by slug."""

from __future__ import annotations

from engines import classic, mafie, mrakoslapi
from engines.base import Ruleset

_RULESETS: dict[str, Ruleset] = {r.slug: r for r in (mafie.RULESET, classic.GRANNA, classic.MAFIA_PL,
                                                         mrakoslapi.RULESET)}


def get(slug: str) -> Ruleset:
    """The ruleset called ``slug``; KeyError for an unknown one."""
    return _RULESETS[slug]


def all() -> list[Ruleset]:  # noqa: A001 - the issue names it registry.all()
    return list(_RULESETS.values())
