"""Free text from players: one rule for what may be shown on the TV and on other phones."""

from __future__ import annotations

import unicodedata

# Controls (NUL, escapes), format characters (the bidi overrides U+202A–U+202E and isolates
# U+2066–U+2069 that flip how the rest of a line reads; zero-width characters that make two
# names look alike), private-use and surrogate code points: none of them is something to show.
UNSHOWABLE_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs"})


def unshowable(ch: str) -> bool:
    return unicodedata.category(ch) in UNSHOWABLE_CATEGORIES


def showable(raw) -> str:
    """A player's text with every unshowable character dropped and whitespace (line breaks and
    tabs included) collapsed to single spaces."""
    return " ".join("".join(ch for ch in str(raw) if ch.isspace() or not unshowable(ch)).split())
