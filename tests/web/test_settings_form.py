"""The host's settings (issue 16): an option shows only when it applies (``Option.requires``),
sits under the option it depends on, keeps its value while hidden, and the presenter's
``ADVANCED_OPTIONS`` are folded under "Advanced"."""

from __future__ import annotations

import re

from django.http import QueryDict

from engines import registry
from mafiagames.presenters import part
from mafiagames.rendering import Table, tv_screen
from mafiagames.views import _options_from_form


def settings_html(slug: str, options: dict) -> str:
    table = Table(code="TEST", language="en", ruleset=slug, options=options,
                  players=[{"id": i, "name": f"P{i}", "connected": True} for i in range(7)])
    return tv_screen(table, host=True)["tv-settings"]


def option_block(html: str, key: str) -> str:
    match = re.search(rf'<div class="option[^"]*" data-option="{key}"[^>]*>.*?</div>', html, re.S)
    assert match, key
    return match.group(0)


def posted(html: str) -> QueryDict:
    """What the browser sends from the form: every named field, hidden or not (only unticked
    checkboxes are left out)."""
    data = QueryDict(mutable=True)
    for tag in re.findall(r"<select[^>]*>.*?</select>|<input[^>]*>", html, re.S):
        name = re.search(r'name="([^"]+)"', tag).group(1)
        if tag.startswith("<select"):
            chosen = re.search(r'<option value="([^"]+)" selected', tag)
            data[name] = chosen.group(1) if chosen else re.search(r'<option value="([^"]+)"', tag).group(1)
        elif 'type="checkbox"' in tag:
            if " checked" in tag:
                data[name] = re.search(r'value="([^"]+)"', tag).group(1)
        else:
            data[name] = re.search(r'value="([^"]*)"', tag).group(1)
    return data


def test_a_dependent_option_shows_only_under_its_option_switched_on():
    off = settings_html("mafie", {"plot_cards": False})
    assert "hidden" in option_block(off, "plot_distribution").split(">")[0]
    on = settings_html("mafie", {"plot_cards": True})
    block = option_block(on, "plot_distribution")
    assert "hidden" not in block.split(">")[0] and 'data-requires="plot_cards"' in block
    # under it: the next option after plot_cards
    assert on.index('data-option="plot_cards"') < on.index('data-option="plot_distribution"')
    assert "Plot cards with 5–8 players" in block and "<small class=\"help\">" in block   # with its explanation


def test_a_hidden_option_keeps_its_value():
    html = settings_html("mafia_pl", {"doctor": False, "doctor_self_heal": False, "announce_saved": True})
    for key in ("doctor_self_heal", "announce_saved"):
        assert "hidden" in option_block(html, key).split(">")[0]
    # The form sends what it holds, hidden or not: the host ticking the wizard keeps them.
    form = posted(html)
    form["opt-wizard"] = "on"
    options = _options_from_form("mafia_pl", form, switched=False)
    assert options["announce_saved"] == "on" and options["doctor_self_heal"] is False and options["wizard"] == "on"
    shown = settings_html("mafia_pl", {"doctor": True, "doctor_self_heal": False, "announce_saved": True})
    assert 'name="opt-announce_saved" value="on" checked' in option_block(shown, "announce_saved")
    assert "hidden" not in option_block(shown, "doctor_self_heal").split(">")[0]


def test_advanced_folds_the_presenters_advanced_options():
    for slug in ("mrakoslapi", "granna", "mafia_pl"):
        advanced = part(slug, "ADVANCED_OPTIONS")
        assert advanced, slug
        html = settings_html(slug, {})
        fold = re.search(r'<details class="advanced"[^>]*>.*?</details>', html, re.S)
        assert fold and "<summary>Advanced</summary>" in fold.group(0), slug
        outside = html.replace(fold.group(0), "")
        for option in (o for o in registry.get(slug).options() if o.offered):   # the host's options only
            inside = f'name="opt-{option.key}"' in fold.group(0)
            assert inside == (option.key in advanced), (slug, option.key)
            assert inside or f'name="opt-{option.key}"' in outside
        assert " open" not in fold.group(0).split(">")[0]   # folded until the host opens it
    assert "<details" not in settings_html("mafie", {})   # nothing advanced: no fold
