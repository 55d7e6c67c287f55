"""Each ruleset's story of a finished game (``Presenter.story``, issue 16): forced games played
the way the engines' tests play them, told from their event log; every step names exactly what
the issue lists for its ruleset, and each line the seats it is about (their phones mark it)."""

from __future__ import annotations

from engines.base import HOST
from engines.mafie import plot_cards as plot
from mafiagames import story
from mafiagames.presenters import presenter
from tests.engines.classic_helpers import Table as ClassicTable, deal
from tests.engines.mafie_helpers import Table as MafieTable
from tests.engines.test_mrakoslapi_engine_game import Game as MrakGame
from tests.tiny import presenter as tiny
from tests.tiny.engine import RULESET as TINY

NAMES = ["Ann", "Bob", "Cyd", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]


def told(slug: str, events, players: int, options: dict | None = None) -> list[tuple[str, list[tuple[str, list[int]]]]]:
    steps = presenter(slug).story(events, NAMES[:players], slug, options or {})
    return [(step["heading"], [(line["text"], line["seats"]) for line in step["lines"]]) for step in steps]


def test_mafie_tells_each_jobs_crew_who_played_fail_and_every_plot_cards_private_result():
    deck = ["overheard_conversation", "establish_confidence", *[c for c in plot.deck(7)
            if c not in ("overheard_conversation", "establish_confidence")][:12], "overheard_conversation"]
    g = MafieTable(7, detectives={1, 4, 6}, kmotr=2, plot_deck=deck, plot_cards=True)
    g.ready_all()
    g.act(2, {"type": "assign_plot_card", "card": 2, "to": 5})   # Establish Confidence: Fay sees Cyd's role
    g.act(2, {"type": "assign_plot_card", "card": 1, "to": 0})   # Overheard Conversation: Ann listens to Bob
    g.act(0, {"type": "overhear", "target": 1})
    g.pass_plot_cards()
    g.propose([1, 2])
    g.vote()
    g.pass_plot_cards()
    g.play(fails={1})
    steps = told("mafie", g.events, 7)
    assert steps[0] == ("Who was who", [("The Mafia: Ann, Cyd, Dan, Fay", [0, 2, 3, 5]),
                                        ("The detectives: Bob, Eve, Gus", [1, 4, 6])])
    heading, lines = steps[1]
    assert heading == "Job 1: foiled"
    assert lines[:2] == [("Crew: Bob, Cyd", [1, 2]), ("Played Fail: Bob", [1])]
    assert ("Fay — Establish Confidence: Cyd is a Mafioso.", [2, 5]) in lines
    assert ("Ann — Overheard Conversation: Bob is a Detective.", [0, 1]) in lines
    assert len(steps) == 2


def test_mafie_tells_a_job_nobody_sabotaged():
    g = MafieTable(5, detectives={3, 4}, kmotr=0)
    g.ready_all()
    g.job([0, 1])
    assert told("mafie", g.events, 5)[1] == ("Job 1: pulled off", [("Crew: Ann, Bob", [0, 1]),
                                                                   ("Nobody played Fail.", [])])


def test_classic_tells_each_nights_kill_check_heal_and_spell_and_the_judges_vote():
    options = {"doctor": True, "wizard": True, "judge": True}
    g = ClassicTable("mafia_pl", deal(10, mafiosi=[0, 1], agent=2, doctor=3, wizard=9, judge=4), **options)
    g.night(check=0, heal=5, kill=5, swap=[6, 7])   # the doctor saves the victim; the wizard swaps
    g.end_discussion()
    g.vote({seat: 8 for seat in g.living if seat != 8} | {8: 0}, double=4)
    g.end_defence()
    g.vote({seat: 8 for seat in g.living if seat != 8} | {8: 0})
    g.night(check=1, heal=2, kill=7)
    steps = dict(told("mafia_pl", g.events, 10, {**options, "agent_sees": "team"}))
    assert list(steps) == ["Who was who", "Night 1", "Day 1", "Night 2"]
    assert ("Gangster: Ann, Bob", [0, 1]) in steps["Who was who"]
    assert steps["Night 1"] == [
        ("Check: Cyd → Ann: Gangster.", [0, 2]), ("Heal: Dan → Fay.", [3, 5]), ("The gang chose: Fay.", [5]),
        ("Jo swapped cards: Gus ↔ Hal.", [6, 7, 9]), ("Nobody died.", [])]
    assert steps["Day 1"] == [("The judge's power: Eve → Ivy counted twice.", [4, 8]),
                              ("Ivy is out — Policeman, voted out.", [8])]
    assert ("The gang chose: Hal.", [7]) in steps["Night 2"]
    assert steps["Night 2"][-1] == ("Hal is out — Policeman, killed at night.", [7])


def test_mrakoslapi_tells_the_hands_as_dealt_and_each_nights_choices_and_trace():
    g = MrakGame()
    for seat, action in [(0, {"type": "mafia_target", "target": 5}), (1, {"type": "mafia_target", "target": 5}),
                         (1, {"type": "tunnel", "no": 1, "from": 5, "to": 2})]:
        g.do(seat, action)
    g.finish_night()
    steps = told("mrakoslapi", g.events, 6)
    assert steps[0][0] == "The hands as dealt" and [seats for _text, seats in steps[0][1]] == [[s] for s in range(6)]
    heading, lines = steps[1]
    assert heading == "Night 1: the choices"
    assert ("Ann (Mafián) picked: Fay.", [0, 5]) in lines and ("Mág 1: a tunnel Fay → Cyd.", [2, 5]) in lines
    heading, lines = steps[2]
    assert heading == "Night 1: what happened"
    assert lines[0] == ("Shot Ann → Fay: the bullet of Mafián 1.", [0, 5])   # the trace, step by step


def test_a_long_step_goes_on_in_the_next_steps():
    """The TV shows a step whole and never scrolls: ``story.paged`` cuts a long one, by lines
    and by the rows its lines fill at the TV's smaller size (a line starts a row)."""
    short = [{"text": str(n), "seats": []} for n in range(story.PAGE_LINES * 2 + 1)]
    paged = story.paged([{"heading": "Night 1", "lines": short}, {"heading": "Day 1", "lines": []}])
    assert [s["heading"] for s in paged] == ["Night 1", "Night 1 (2)", "Night 1 (3)", "Day 1"]
    assert [len(s["lines"]) for s in paged] == [story.PAGE_LINES, story.PAGE_LINES, 1, 0]
    assert [line for step in paged[:3] for line in step["lines"]] == short
    half = story.SMALL_ROW_CHARS * story.PAGE_ROWS // 2   # a line of half a page's rows
    long = [{"text": "x" * half, "seats": []} for _ in range(3)]
    assert [len(lines) for lines in story.pages(long)] == [2, 1]
    # one row more than a page's half: each line a page of its own
    longer = [{"text": "x" * (half + 1), "seats": []} for _ in range(2)]
    assert [len(lines) for lines in story.pages(longer)] == [1, 1]
    whole = [{"text": "x" * (story.SMALL_ROW_CHARS * story.PAGE_ROWS * 2), "seats": []}]
    assert story.pages(whole) == [whole]   # a line is never cut


def test_a_step_is_set_smaller_when_its_lines_would_fill_too_many_rows_at_the_big_size():
    """The big size holds ``BIG_ROWS`` rows of ``BIG_ROW_CHARS``: three lines that wrap to three
    rows each are set smaller, as are more than ``MANY_LINES`` short lines (a Cosa Nostra start
    of four long gate lines once ran the TV's story card off a 1080p screen)."""
    def lines(*lengths):
        return [{"text": "x" * n, "seats": []} for n in lengths]
    assert not story.many(lines(*[story.BIG_ROW_CHARS * 2] * (story.BIG_ROWS // 2)))
    assert story.many(lines(*[story.BIG_ROW_CHARS + 1] * (story.BIG_ROWS // 2 + 1)))
    assert story.many(lines(*[3] * (story.MANY_LINES + 1)))
    assert not story.many(lines(*[3] * story.MANY_LINES))
