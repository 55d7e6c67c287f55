"""Identical night screens, proven by machine (issue 14).

During a secret step a neighbour glancing at a phone must not tell its role from the panel's
shape: at such a step every living phone in the same public situation shows the same tag tree,
the same buttons and boxes with the same classes, and texts of about the same length.  The
fingerprint ignores what differs by name or value only (names, seat numbers, hidden inputs, which
are never drawn); a text inside ``.fixed-lines`` counts as one block because app.css gives that
box one fixed height whatever it says.

Random seeded games of every ruleset and option set (tests/engines/playthrough.py) are rendered
without a server, as tests/web/test_no_leak_rendered.py does.
"""

from __future__ import annotations

import random
from html.parser import HTMLParser

import pytest

from engines import registry
from mafiagames.rendering import phone_screen
from tests.engines.playthrough import option_combinations, random_playthrough
from tests.web.test_no_leak_rendered import table_for

BUCKET = 12     # text lengths in steps of 12 characters: a third of a line on a 360 px phone


class Fingerprint(HTMLParser):
    """The structure of a fragment: tags with their classes, and text lengths bucketed."""

    def __init__(self, html: str):
        super().__init__()
        self.shape: list[str] = []
        self._fixed: list[bool] = []    # for each open element: inside a .fixed-lines box?
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "input" and attrs.get("type") == "hidden":
            return      # never drawn
        classes = " ".join(sorted((attrs.get("class") or "").split()))
        kind = f"[{attrs.get('type')}]" if tag == "input" else ""
        self.shape.append(f"<{tag}{kind}.{classes}>")
        if tag not in ("input", "br", "img", "meta"):
            self._fixed.append("fixed-lines" in classes.split() or (bool(self._fixed) and self._fixed[-1]))

    def handle_endtag(self, tag):
        if tag in ("input", "br", "img", "meta"):
            return
        self.shape.append(f"</{tag}>")
        if self._fixed:
            self._fixed.pop()

    def handle_data(self, data):
        text = " ".join(data.split())
        if text and not (self._fixed and self._fixed[-1]):
            self.shape.append(f"~{len(text) // BUCKET}")


def fingerprint(html: str) -> str:
    return "".join(Fingerprint(html).shape)


def secret(ruleset, state) -> bool:
    """The steps when someone acts in secret and everyone else must look the same."""
    phase = state.get("phase")
    if ruleset.slug in ("granna", "mafia_pl"):
        return phase in ("agent", "doctor", "mafia", "wizard")
    if ruleset.slug == "mrakoslapi":
        return phase == "night"
    if ruleset.slug == "cosanostra":    # every step: the hands are secret all game (rules §14)
        return phase != "over"
    return phase == "action_play"   # Mafie: the crew plays Success or Fail face down (rules A.2)


def situation(ruleset, state, seat):
    """What everyone knows about a seat at this step: seats publicly alike must look alike.
    ``None``: not a living phone (the dead, who see the ghost view)."""
    public = ruleset.view(state, None)
    briefing = public.get("briefing")      # who has looked at their role is public (engines/briefing.py)
    looked = briefing["seen"][seat] if briefing else None
    if ruleset.slug == "mafie":  # the crew is public, who has played (the TV's progress), and
        # the plot cards each holds (The Plot Thickens deals them face up)
        held = sorted(c["card"] for c in (public.get("plot") or {}).get("held", []) if c["holder"] == seat)
        return (seat in public["team"], state["secret"]["cards"][seat] is not None, tuple(held), looked)
    if ruleset.slug == "cosanostra":    # whom the step asks and who is in the open deal are public
        asked = {public["active"], *((public.get(step) or {}).get("seat") for step in ("liquidation", "offer", "choose"))}
        trade = public.get("trade") or {}
        return (seat in asked, seat in (trade.get("from"), trade.get("to")), public["families"][seat]["out"], looked)
    return ("living", looked) if public["seats"][seat]["alive"] else None


def games(ruleset):
    rng = random.Random(f"fingerprint:{ruleset.slug}")
    combos = option_combinations(ruleset)
    sizes = [ruleset.min_players, ruleset.max_players if ruleset.slug != "granna" else 13]
    chosen = [(n, combos[-1]) for n in sizes] + [(n, rng.choice(combos)) for n in sizes]
    return [random_playthrough(ruleset, n, options, seed) for seed, (n, options) in enumerate(chosen)]


def differing(ruleset, play, state) -> str | None:
    """None, or a description of two living phones that differ in shape at ``state``."""
    table, memo = table_for(ruleset, state, play.players, "en"), {}   # one memo for the version's phones
    groups: dict = {}
    for seat in range(play.players):
        key = situation(ruleset, state, seat)
        if key is not None:
            groups.setdefault(key, []).append((seat, fingerprint(phone_screen(table, 100 + seat, memo=memo)["ph-panel"])))
    for members in groups.values():
        (first, shape), *rest = members
        for seat, other in rest:
            if other != shape:
                return (f"{play} phase {state['phase']}: seat {first} ({ruleset.view(state, first)['me'].get('role')}) "
                        f"and seat {seat} ({ruleset.view(state, seat)['me'].get('role')}) differ:\n{shape}\n{other}")
    return None


@pytest.mark.parametrize("ruleset", registry.all(), ids=lambda r: r.slug)
def test_every_living_phone_has_the_same_shape_at_every_secret_step(ruleset):
    checked = 0
    for play in games(ruleset):
        secret_states = [s for s in play.states if secret(ruleset, s)]
        for state in secret_states[::max(1, len(secret_states) // 25)]:
            problem = differing(ruleset, play, state)
            assert problem is None, problem
            checked += 1
    assert checked > 10


def test_the_fingerprint_tells_a_missing_button_and_a_longer_text():
    """The oracle itself: names and values do not count, shape and length do."""
    one = '<div class="a"><form class="f"><input type="hidden" name="t" value="1"><button class="choice">Al</button></form></div>'
    assert fingerprint(one) == fingerprint(one.replace("Al", "Bo").replace('value="1"', 'value="22"'))
    assert fingerprint(one) != fingerprint(one.replace("</form>", '</form><button class="choice">X</button>'))
    assert fingerprint(one) != fingerprint(one.replace("Al", "A much longer label here"))
    assert fingerprint(one) != fingerprint(one.replace('class="choice"', 'class="quiet choice"'))
