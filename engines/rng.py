"""Seeded randomness derived per purpose (DESIGN.md §3: no global random)."""

import random


def rng(seed: int, label: str) -> random.Random:
    """A generator that depends only on the game's seed and what it is drawn for."""
    return random.Random(f"{seed}:{label}")
