"""The evening's scoreboard as a pure function (mafiagames/scoreboard.py): several games of one
room, of two rulesets, with a player who changed name, a game the host ended and one still
running — neither of which counts."""

from __future__ import annotations

from mafiagames.scoreboard import scoreboard

ANN, BOB, CID, DAN, EVA = 1, 2, 3, 4, 5


def game(ruleset, seats, names, winner, winners, *, status="finished", roles=None, options=None):
    return {"ruleset": ruleset, "options": options or {}, "seats": seats, "names": names, "status": status,
            "outcome": {"winner": winner, "reason": "r", "winners": winners} if status == "finished" else None,
            "roles": roles}


EVENING = [
    # 1: Mafie, the mafia (Ann, Bob, Cid) win
    game("mafie", [ANN, BOB, CID, DAN, EVA], ["Ann", "Bob", "Cid", "Dan", "Eva"], "mafia", [0, 1, 2],
         roles=["mafioso", "mafioso", "mafioso", "detective", "detective"]),
    # 2: Mafie, the detectives (Dan, Eva) win; Bob now calls himself Bobby
    game("mafie", [EVA, DAN, CID, BOB, ANN], ["Eva", "Dan", "Cid", "Bobby", "Ann"], "detectives", [0, 1],
         roles=["detective", "detective", "mafioso", "mafioso", "mafioso"]),
    # 3: the host ended it: the mafia "would" have won — not counted at all
    game("mafie", [ANN, BOB, CID, DAN, EVA], ["Ann", "Bobby", "Cid", "Dan", "Eva"], None, None,
         status="abandoned", roles=["detective"] * 5),
    # 4: Mrakošlapi among four of them (Eva went home): Cid is the last one alive
    game("mrakoslapi", [ANN, BOB, CID, DAN], ["Ann", "Bobby", "Cid", "Dan"], "last_alive", [2],
         roles=["player"] * 4, options={"x": 1}),
    # 5: Mafie again, the mafia (Ann, Dan) win
    game("mafie", [ANN, BOB, CID, DAN, EVA], ["Ann", "Bobby", "Cid", "Dan", "Eva"], "mafia", [0, 3],
         roles=["mafioso", "detective", "detective", "mafioso", "detective"], options={"plot_cards": True}),
    # 6: running: its roles are secret and it has no winner yet
    game("mafie", [ANN, BOB, CID, DAN, EVA], ["Ann", "Bobby", "Cid", "Dan", "Eva"], None, None,
         status="running", roles=["mafioso"] * 5),
]


def test_only_finished_games_count():
    board = scoreboard(EVENING)
    assert board["played"] == 4
    assert {row["id"]: row["games"] for row in board["players"]} == {ANN: 4, BOB: 4, CID: 4, DAN: 4, EVA: 3}


def test_wins_per_player_sorted_most_wins_first_then_by_name():
    board = scoreboard(EVENING)
    assert [(row["name"], row["wins"], row["games"]) for row in board["players"]] == [
        ("Ann", 2, 4), ("Cid", 2, 4), ("Dan", 2, 4), ("Bobby", 1, 4), ("Eva", 1, 3)]


def test_a_player_who_changed_name_is_one_player_shown_by_the_latest_name():
    board = scoreboard(EVENING)
    bob = next(row for row in board["players"] if row["id"] == BOB)
    assert bob["name"] == "Bobby" and bob["games"] == 4 and bob["wins"] == 1
    assert [row["name"] for row in board["players"]].count("Bob") == 0


def test_wins_per_side_grouped_per_ruleset_in_the_order_first_played_with_the_latest_options():
    board = scoreboard(EVENING)
    assert board["sides"] == [
        {"ruleset": "mafie", "options": {"plot_cards": True},
         "sides": [{"code": "mafia", "wins": 2}, {"code": "detectives", "wins": 1}]},
        {"ruleset": "mrakoslapi", "options": {"x": 1}, "sides": [{"code": "last_alive", "wins": 1}]},
    ]


def test_games_and_wins_by_role():
    board = scoreboard(EVENING)
    rows = {row["id"]: [(r["ruleset"], r["role"], r["games"], r["wins"]) for r in row["roles"]]
            for row in board["players"]}
    assert rows[ANN] == [("mafie", "mafioso", 3, 2), ("mrakoslapi", "player", 1, 0)]
    assert rows[BOB] == [("mafie", "mafioso", 2, 1), ("mafie", "detective", 1, 0), ("mrakoslapi", "player", 1, 0)]
    assert rows[CID] == [("mafie", "mafioso", 2, 1), ("mafie", "detective", 1, 0), ("mrakoslapi", "player", 1, 1)]
    assert rows[EVA] == [("mafie", "detective", 3, 1)]
    # the abandoned and the running game's roles are nowhere
    assert all(r["games"] <= 3 for row in board["players"] for r in row["roles"])


def test_without_roles_there_are_no_statistics_by_role():
    board = scoreboard([{**g, "roles": None} for g in EVENING])
    assert board["played"] == 4 and all(row["roles"] == [] for row in board["players"])


def test_an_evening_without_a_finished_game_is_empty():
    assert scoreboard([]) == {"played": 0, "players": [], "sides": []}
    assert scoreboard(EVENING[2:3] + EVENING[5:]) == {"played": 0, "players": [], "sides": []}
