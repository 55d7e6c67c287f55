"""An update frame carries the element that changed, not its whole fragment (mafiagames/swaps.py).

Every consecutive pair of screens of random games of every ruleset, the TV's and each phone's:
the update, applied as htmx applies it (bench/harness.py's ``swap_into``, which finds the element
with Python's own HTML parser, not with the server's code), gives exactly the new fragment.
"""

from __future__ import annotations

import random

import pytest

from bench.harness import swap_into
from engines import registry
from mafiagames import swaps
from mafiagames.rendering import phone_screen, tv_screen
from tests.engines.playthrough import option_combinations, random_playthrough
from tests.web.test_no_leak_rendered import table_for


def screens(ruleset, state, players):
    table = table_for(ruleset, state, players, "en")
    yield "tv", tv_screen(table, host=True)
    for seat in range(players):
        yield seat, phone_screen(table, 100 + seat)


def updated(before: dict[str, str], after: dict[str, str]) -> tuple[dict[str, str], int, int]:
    """``before`` brought to ``after`` by one frame; that frame's bytes and the whole fragments'."""
    for key, html in after.items():
        old = before.get(key)
        if old and old != html:
            # A scan derived from the old one (a change of text or attributes only) is the scan.
            derived = swaps._same_tags(old, html, *swaps._common(old, html))
            assert derived is None or derived == swaps._scan(html), f"{key}: a derived scan differs"
    frame = "".join(swaps.update(key, before.get(key), html) for key, html in after.items() if before.get(key) != html)
    shown = dict(before)
    swap_into(shown, frame)
    return shown, len(frame), sum(len(html) for key, html in after.items() if before.get(key) != html)


@pytest.mark.parametrize("ruleset", registry.all(), ids=lambda r: r.slug)
def test_every_update_of_a_random_game_gives_the_new_screen(ruleset):
    rng = random.Random(f"swaps:{ruleset.slug}")
    options = rng.choice(option_combinations(ruleset))
    play = random_playthrough(ruleset, ruleset.min_players + 1, options, seed=3)
    states = play.states[: 120]
    previous: dict = {}
    sent = whole = 0
    for state in states:
        current = dict(screens(ruleset, state, play.players))
        for who, screen in current.items():
            if who in previous:
                shown, frame, fragments = updated(previous[who], screen)
                assert shown == screen, f"{ruleset.slug}: {who}'s screen after an update is not the new one"
                sent, whole = sent + frame, whole + fragments
        previous = current
    assert sent < whole   # and the frames are smaller than the fragments they update


PANEL = ('<section id="ph-panel" hx-swap-oob="true" class="panel">\n<div class="card"><h2>Vote</h2>'
         '<p class="done big">Waiting for {n} more.</p></div>\n</section>')


def test_a_changed_line_goes_alone_with_its_path():
    old, new = PANEL.format(n=4), PANEL.format(n=3)
    sent = swaps.update("ph-panel", old, new)
    assert sent == ('<p hx-swap-oob="outerHTML:#ph-panel&gt;:nth-child(1)&gt;:nth-child(2)" class="done big">'
                    'Waiting for 3 more.</p>')
    shown = {"ph-panel": old}
    swap_into(shown, sent)
    assert shown == {"ph-panel": new}


@pytest.mark.parametrize(("old", "new"), [
    # an element added to the fragment itself: its siblings move, so the fragment goes whole
    (PANEL.format(n=4), PANEL.format(n=4).replace("</div>", "</div><p>x</p>")),
    # the change is in the fragment's own text
    (PANEL.format(n=4), PANEL.format(n=4).replace("\n</section>", "x\n</section>")),
    # a block inside a <p>: the browser closes the <p> first, so no path in the markup is sure
    (PANEL.format(n=4).replace("</p>", "<div>a</div></p>"), PANEL.format(n=3).replace("</p>", "<div>a</div></p>")),
    # an element left open
    (PANEL.format(n=4).replace("</p>", ""), PANEL.format(n=3).replace("</p>", "")),
])
def test_what_cannot_be_cut_safely_goes_whole(old, new):
    assert swaps.update("ph-panel", old, new) == new


def test_an_element_added_sends_its_parent():
    old = PANEL.format(n=4)
    sent = swaps.update("ph-panel", old, old.replace("</p>", "</p><p>x</p>"))
    assert sent.startswith('<div hx-swap-oob="outerHTML:#ph-panel&gt;:nth-child(1)" class="card">')


def test_inside_a_table_or_an_svg_the_table_or_svg_goes():
    table = '<section id="b" hx-swap-oob="true"><p>x</p><table><tr><td>{n}</td></tr></table></section>'
    assert swaps.update("b", table.format(n=1), table.format(n=2)).startswith('<table hx-swap-oob="outerHTML:#b&gt;:nth-child(2)"')
    svg = '<section id="b" hx-swap-oob="true"><svg viewBox="0 0 9 9"><g><path d="M{n}"/></g></svg></section>'
    assert swaps.update("b", svg.format(n=1), svg.format(n=2)).startswith('<svg hx-swap-oob="outerHTML:#b&gt;:nth-child(1)"')


def test_a_new_screen_goes_whole():
    assert swaps.update("ph-panel", None, PANEL.format(n=3)) == PANEL.format(n=3)


def test_the_common_prefix_and_suffix_are_found_exactly():
    """``_common`` halves; a character by character walk is the oracle."""
    def walked(a: str, b: str) -> tuple[int, int]:
        limit, prefix, suffix = min(len(a), len(b)), 0, 0
        while prefix < limit and a[prefix] == b[prefix]:
            prefix += 1
        while suffix < limit - prefix and a[-1 - suffix] == b[-1 - suffix]:
            suffix += 1
        return prefix, suffix

    rng = random.Random("common")
    for _ in range(5000):
        a, b = ("".join(rng.choice("ab") for _ in range(rng.randint(0, 12))) for _ in range(2))
        assert swaps._common(a, b) == walked(a, b), (a, b)
