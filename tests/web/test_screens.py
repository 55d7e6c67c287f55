"""The per-process snapshot cache: one load per version, and never a stuck event loop."""

from __future__ import annotations

import asyncio
import types

import pytest

from engines import registry
from mafiagames import presenters, screens


@pytest.fixture
def fake_loads(monkeypatch):
    """Replace the database load with scripted versions; count the loads."""
    script = {"versions": [], "loads": 0, "on_load": None}

    async def fake_read(_fn, code):
        await asyncio.sleep(0)
        script["loads"] += 1
        version = script["versions"].pop(0)
        if script["on_load"]:
            script["on_load"](code, version)
        return screens.Snapshot(version=version, table=object())

    monkeypatch.setattr(screens.db, "read", fake_read)
    monkeypatch.setattr(screens, "_latest", {})
    monkeypatch.setattr(screens, "_loading", {})
    return script


async def test_screens_waiting_for_one_version_share_one_load(fake_loads):
    fake_loads["versions"] = [5]
    results = await asyncio.gather(*(screens.snapshot("ABCD", 5) for _ in range(20)))
    assert fake_loads["loads"] == 1 and {r.version for r in results} == {5}
    assert len({id(r) for r in results}) == 1  # the same snapshot, so the same rendering memo


async def test_a_ping_that_lands_as_an_older_load_finishes_loads_again_instead_of_hanging(fake_loads):
    """Regression: awaiting the finished load again never yielded and froze the server."""
    fake_loads["versions"] = [47, 48]
    later = []
    fake_loads["on_load"] = lambda code, v: later.append(asyncio.ensure_future(screens.snapshot(code, 48))) \
        if v == 47 else None
    first = await screens.snapshot("ABCD", None)
    assert first.version == 47
    second = await asyncio.wait_for(later[0], timeout=5)
    assert second.version == 48 and fake_loads["loads"] == 2


async def test_a_newer_snapshot_is_never_replaced_by_an_older_one(fake_loads):
    fake_loads["versions"] = [9, 7]
    assert (await screens.snapshot("ABCD", 9)).version == 9
    assert (await screens.snapshot("ABCD", None)).version == 9


def test_a_tap_advances_the_cached_snapshot_only_from_the_version_just_before(monkeypatch):
    from mafiagames.rendering import Table

    monkeypatch.setattr(screens, "_latest", {})
    table = Table(code="ABCD", language="en", ruleset="mafie", options={}, players=[{"id": 1}], game={"v": 1})
    screens._latest["ABCD"] = screens.Snapshot(version=4, table=table, memo={"old": "html"})
    screens.advance("ABCD", 6, {"v": 3, "status": "running"})  # a gap: something else changed version 5
    assert screens._latest["ABCD"].version == 4
    screens.advance("ABCD", 5, {"v": 2, "status": "finished"})  # the last tap: loaded (the scoreboard)
    assert screens._latest["ABCD"].version == 4
    screens.advance("ABCD", 5, {"v": 2, "status": "running"})
    fresh = screens._latest["ABCD"]
    assert fresh.version == 5 and fresh.table.game == {"v": 2, "status": "running"} and fresh.table.players == [{"id": 1}]
    assert fresh.memo == {}  # nothing rendered for the old version is reused


@pytest.mark.django_db(transaction=True)
async def test_screens_hear_of_a_tap_only_once_its_snapshot_is_there():
    """The writer hands the committed game over together with the ping, in one callback: a
    screen woken by the ping must find that version ready, not start a database load for it."""
    from channels.db import database_sync_to_async

    from mafiagames import db, taps
    from mafiagames.fanout import HUB

    from .helpers import started_game

    room, players, game = await database_sync_to_async(started_game)()
    before = await screens.snapshot(room.code, None)
    seen = []
    told = asyncio.Event()

    class Screen:
        def refresh_soon(self, version):
            latest = screens._latest.get(room.code)
            seen.append((version, latest.version if latest else None))
            told.set()

    screen = Screen()
    await HUB.register(room.code, screen)
    try:
        form = taps.form_from_json({"action": "ready", "turn": str(game.state["turn"])})
        result = await db.write(taps.tap_by_id, players[0].pk, players[0].token, form)
        assert result.status == 204
        await asyncio.wait_for(told.wait(), 5)
        assert seen == [(before.version + 1, before.version + 1)]
        assert screens._latest[room.code].table.game["version"] == game.version + 1  # the tapped game
    finally:
        await HUB.unregister(room.code, screen)


def test_kept_phone_panels_outside_a_game_follow_the_lobby():
    """A phone outside the game keeps its panel for the whole room (rendering.py), so its key
    must change with what the panel shows: the ruleset and who has joined, or the watcher's text."""
    from mafiagames.rendering import Table, phone_screen

    kept: dict = {}
    players = [{"id": 1, "name": "Ann", "connected": True}]

    def panel(players, ruleset="mafie", game=None):
        table = Table(code="ABCD", language="en", ruleset=ruleset, options={}, players=players, game=game)
        return phone_screen(table, 1, memo={}, kept=kept)["ph-panel"]

    assert "Ann" in panel(players) and "Bob" not in panel(players)
    players = [*players, {"id": 2, "name": "Bob", "connected": True}]
    assert "Bob" in panel(players)
    assert "Mafia" in panel(players, "granna") and "Mafie" in panel(players, "mafie")
    mafie = registry.get("mafie")
    state, _events = mafie.setup(5, {o.key: o.default for o in mafie.options()}, seed=1)
    running = {"id": 7, "ruleset": "mafie", "state": state, "version": 3, "names": ["Cyd", "Di", "Ed", "Flo", "Gus"],
               "seats": [3, 4, 5, 6, 7], "status": "running", "clock_started": None}
    assert "audience-now" in panel(players, game=running)   # the audience's panel: what happens now
    assert "Bob" in panel(players, game={**running, "status": "finished"})


def test_the_lobby_seats_of_players_who_join_during_a_game_are_rendered_as_they_join(monkeypatch):
    """The host's lobby bar comes back with a game's last tap; rendering the seat row of every
    player who joined meanwhile on that tap made it the slowest of the game (docs/performance.md)."""
    from engines import registry
    from mafiagames import rendering
    from mafiagames.rendering import Table, tv_screen

    ruleset = registry.get("mafie")
    state, _events = ruleset.setup(5, {o.key: o.default for o in ruleset.options()}, seed=1)
    players = [{"id": i, "name": f"P{i}", "connected": True} for i in range(5)]
    game = {"id": 1, "ruleset": "mafie", "state": state, "version": 1, "names": [p["name"] for p in players],
            "seats": list(range(5)), "status": "running", "clock_started": None}
    kept: dict = {}
    rendered: list[str] = []
    real = rendering.render_to_string
    monkeypatch.setattr(rendering, "render_to_string",
                        lambda template, context=None: rendered.append(template) or real(template, context))

    def tv(players, status="running"):
        table = Table(code="ABCD", language="en", ruleset="mafie", options={}, players=players,
                      game={**game, "status": status})
        return tv_screen(table, host=True, memo={}, kept=kept)

    tv(players)
    players = [*players, {"id": 9, "name": "Latecomer", "connected": True}]
    rendered.clear()
    tv(players)                                   # the join, during the game
    assert rendered.count("screens/host_seat.html") == 2  # the newcomer and the seat that was last
    rendered.clear()
    html = tv(players, "finished")["tv-host"]     # the game's last tap
    assert "screens/host_seat.html" not in rendered and "Latecomer" in html


def test_memo_keys_tell_apart_what_renders_apart():
    """``key_of`` names a fragment's inputs in the memos (rendering.py): two inputs a template
    could render differently must never share a key, and equal inputs built alike must."""
    from django.utils.safestring import mark_safe
    from django.utils.translation import gettext_lazy, override

    from mafiagames.presenters import key_of

    view = {"phase": "team_vote", "team": [1, 2], "me": {"voted": True, "role": None}}
    assert key_of(view) == key_of({"phase": "team_vote", "team": [1, 2], "me": {"voted": True, "role": None}})
    different = [view, {**view, "team": [2, 1]}, {**view, "me": {"voted": 1, "role": None}},
                 {**view, "me": {"voted": True, "role": ""}}, {**view, "phase": "team_vote "},
                 [1, "1"], [1, 1.0], ["<b>"], [mark_safe("<b>")], ["é"], ["e\u0301"]]
    keys = [key_of(value) for value in different]
    assert len(set(keys)) == len(keys)
    # Not plain data: written as JSON, in the language active while the key is made.
    word = gettext_lazy("Approve")
    with override("cs"):
        czech = key_of([word])
    assert key_of([word]) != czech and isinstance(czech, str)


@pytest.mark.parametrize("missing", presenters.REQUIRED)
def test_a_presenter_missing_a_part_is_refused_naming_it(missing):
    """Every ruleset's presenter is complete at start-up (apps.py); one that lacks a part is
    named, not found missing on somebody's screen."""
    for ruleset in registry.all():
        presenters.check_presenter(presenters.presenter(ruleset.slug))
    whole = presenters.presenter("mafie")
    incomplete = types.SimpleNamespace(__name__="incomplete", **{name: getattr(whole, name)
                                                                   for name in presenters.REQUIRED if name != missing})
    with pytest.raises(TypeError, match=rf"\b{missing}\b"):
        presenters.check_presenter(incomplete)


def test_the_presenter_protocol_is_the_checklist():
    """``REQUIRED`` is read off the ``Presenter`` protocol, so the page that documents a part and
    the check that demands it cannot drift apart; a part of the wrong kind is named too."""
    assert set(presenters.REQUIRED) == {"TEMPLATE_DIR", "ERRORS", "OPTION_LABELS", "OPTION_CHOICES", "present",
                                        "narrate", "role_text", "side_words", "role_words", "phone_fragments",
                                        "phone_board", "parse_action", "how_to_play", "story"}
    whole = presenters.presenter("mafie")
    shaped = types.SimpleNamespace(__name__="misshapen", **{name: getattr(whole, name) for name in presenters.REQUIRED})
    shaped.narrate = "The night falls."
    with pytest.raises(TypeError, match=r"\bnarrate must be a function"):
        presenters.check_presenter(shaped)


@pytest.mark.django_db
def test_a_load_never_puts_newer_data_under_an_older_version(monkeypatch):
    """A write that commits while a screen load reads the room's players and game must not end up
    in the snapshot of the version read before it (screens._load): its own version would then
    change nothing on the screens, and they would never show it as shown."""
    from mafiagames import services
    from mafiagames.models import Room

    from .helpers import room_with_players

    room, _players = room_with_players(3)
    real, writes = screens.load_table, []

    def load_with_a_write_in_between(loading):
        if not writes:
            writes.append(services.set_locked(loading, True))   # commits a new version mid-load
        return real(loading)

    monkeypatch.setattr(screens, "load_table", load_with_a_write_in_between)
    snap = screens._load(room.code)
    assert snap.table.locked and snap.version == Room.objects.get(pk=room.pk).version
