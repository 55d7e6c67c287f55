"""The story of a finished game, told at its end (issue 16, "a reveal worth watching").

The game is over, so everything may be told: its whole event log, secret events included, is
read back (``events_of``) and each ruleset's presenter makes it into steps (``Presenter.story``).
Which step every screen shows is the server's, stored with the game (``Game.story_step``,
``story_all``, ``story_moved``): the writer moves it (services.story_move for the host's Back /
Next / All, services.story_tick for the pace) and the game master's scheduler paces it
(timers.py), so every screen agrees and a restart goes on from the same step.
"""

from __future__ import annotations

import time

from django.conf import settings

from engines.base import Event as EngineEvent

from .models import Event
from .presenters import presenter

# How much of a step the TV's story card holds (the TV never scrolls), counted in rows: a line
# takes as many rows as its characters fill at a size (``rows``).  The card stands in the finished
# layout's first column, at least some 700 px wide at 1080p (static/app.css caps the columns
# beside it), under the result: some 26 characters a row and 6 rows at the big size; a step with
# more lines or rows is set smaller (``many``), some 36 characters a row, and a page holds at most
# ``PAGE_ROWS`` of those and ``PAGE_LINES`` lines; a longer step goes on in the next.
BIG_ROW_CHARS, BIG_ROWS, MANY_LINES = 26, 6, 5
SMALL_ROW_CHARS, PAGE_ROWS, PAGE_LINES = 36, 8, 8
# The whole story at once (the host's All) on the TV: three columns of about 28 characters, some
# 10 rows each at the reading size (a step is not split across columns, a long line wraps).  A longer story (eighteen nights of Mrakošlapi) shows each
# step's first lines and its last steps, as many as fit, and says how many more the phones show
# (a phone scrolls; the TV never does).  Before the current step the TV names at most ``EARLIER``
# steps, on one row.
ALL_ROWS, ALL_ROW_CHARS, ALL_HEADING_CHARS, ALL_LEAST = 30, 28, 22, 2
EARLIER = 2
# How long one step holds the stage before the next comes by itself (× CLOCK_SCALE): time for
# the table to read a job or a night out loud and react.
STEP_SECONDS = 8


def events_of(game_id: int) -> list[EngineEvent]:
    """A game's whole log as the engine wrote it (one query)."""
    return [EngineEvent(kind, data, audience)
            for kind, data, audience in Event.objects.filter(game_id=game_id).order_by("seq")
            .values_list("kind", "data", "audience")]


def steps(game: dict, events: list[EngineEvent]) -> list[dict]:
    """The finished ``game``'s story (``game_dict``) in the active language, each step at most
    ``PAGE_LINES`` long (``paged``)."""
    return paged(presenter(game["ruleset"]).story(events, game["names"], game["ruleset"], game["options"]))


def paged(story: list[dict]) -> list[dict]:
    """A step too long for the TV goes on in the next steps, its heading numbered: the TV shows
    a step whole and never scrolls, whatever a ruleset tells in one (``pages``)."""
    return [{"heading": step["heading"] if not number else f"{step['heading']} ({number + 1})", "lines": lines}
            for step in story for number, lines in enumerate(pages(step["lines"]))]


def pages(lines: list[dict]) -> list[list[dict]]:
    """Lines cut into pages of at most ``PAGE_LINES`` lines and ``PAGE_ROWS`` rows at the smaller
    size; at least one line a page (a line is never cut), one page at least."""
    cut: list[list[dict]] = [[]]
    used = 0
    for line in lines:
        cost = rows([line], SMALL_ROW_CHARS)
        if cut[-1] and (len(cut[-1]) == PAGE_LINES or used + cost > PAGE_ROWS):
            cut.append([])
            used = 0
        cut[-1].append(line)
        used += cost
    return cut


def rows(lines: list[dict], per_row: int) -> int:
    """How many rows lines take on the TV at ``per_row`` characters a row (a line starts a row)."""
    return sum(max(1, -(-len(line["text"]) // per_row)) for line in lines)


def many(lines: list[dict]) -> bool:
    """Whether a step is set at the smaller size on the TV: too many lines or rows for the big one."""
    return len(lines) > MANY_LINES or rows(lines, BIG_ROW_CHARS) > BIG_ROWS


def due_in(game: dict, now: float | None = None) -> float | None:
    """Seconds until the story of a finished game moves on by itself (≤ 0: now); None while it
    stands (told to the end, shown all at once, the next game began) or for any other game."""
    moved = (game.get("story") or {}).get("moved")
    if game["status"] != "finished" or moved is None:
        return None
    return moved + STEP_SECONDS * settings.CLOCK_SCALE - (time.time() if now is None else now)


def told(game: dict, story: list[dict], seat: int | None = None) -> dict:
    """What a screen shows of the story: the step the server is at (``game["story"]``), the
    earlier steps' headings, or every step when the host showed it all; for a seat's phone each
    line says whether it is about that seat (``mine``)."""
    at = game["story"]
    index = min(at["step"], len(story) - 1)

    def shown(step: dict) -> dict:
        return {"heading": step["heading"],
                "lines": [{"text": line["text"], "mine": seat in line["seats"]} for line in step["lines"]]}
    every = [shown(step) for step in story] if at["all"] else []
    earlier = [step["heading"] for step in story[:index]]
    before = 0
    if seat is None:   # the TV: what fits the stage (a phone scrolls and shows it all)
        before, every = fitted(every) if every else (0, [])
        earlier = earlier[-EARLIER:]
    return {"index": index, "number": index + 1, "count": len(story), "all": at["all"],
            "earlier": earlier, "earlier_more": index - len(earlier), "steps_before": before,
            "steps": every,
            "current": shown(story[index]), "many": many(story[index]["lines"])}


def fitted(steps: list[dict]) -> tuple[int, list[dict]]:
    """What the TV shows of the whole story: as many of its last steps as fit ``ALL_ROWS`` with
    at least ``ALL_LEAST`` lines each, every step cut to the same number of first lines, each
    saying how many more it has (``more``); and how many steps before them it leaves to the
    phones.  The end of a story is what a table wants to see again; a phone has every line."""
    def taken(tail: list[dict], cap: int) -> int:
        return sum(rows([{"text": step["heading"]}], ALL_HEADING_CHARS) + rows(step["lines"][:cap], ALL_ROW_CHARS)
                   + (len(step["lines"]) > cap) for step in tail)
    for first in range(len(steps)):
        tail = steps[first:]
        cap = next((cap for cap in range(PAGE_LINES, ALL_LEAST - 1, -1) if taken(tail, cap) <= ALL_ROWS), None)
        if cap is not None or first == len(steps) - 1:
            cap = ALL_LEAST if cap is None else cap
            return first, [{**step, "lines": step["lines"][:cap], "more": max(0, len(step["lines"]) - cap)}
                           for step in tail]
    return 0, []
