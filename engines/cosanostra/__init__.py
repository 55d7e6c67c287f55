"""Cosa Nostra ("Questa guerra è cosa nostra") — mafia families on a ring of businesses and a
7×7 city (docs/rules/cosanostra.md).  ``engine.py`` draws the package's modules and the state."""

from engines.cosanostra.engine import RULESET

__all__ = ["RULESET"]
