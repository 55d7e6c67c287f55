"""Heads or Tails, a ruleset in one folder: the example of docs/adding-a-ruleset.md.

``engine.py`` (the rules, pure), ``presenter.py`` (words and contexts) and ``templates/tiny/``
(the screens).  The tests host it by naming this package in ``EXTRA_RULESETS``.
"""

from tests.tiny.engine import RULESET

__all__ = ["RULESET"]
