"""Mrakošlapi nights, rule by rule: every night acceptance test of rules §9 (N00–N24 as listed),
then a few of our own for rules the §9 list refers to but does not spell out.

"rules §9" = docs/rules/mrakoslapi.md; the Czech Mrakošlapi rulebook is
the authority.  Each test copies the fixture text of rules §9 verbatim (cards, choices, trace,
announcement); the helpers below parse it and render the resolver's JSON trace back into the
rules file's notation, so a test fails on any difference in the secret trace or the public
announcement.  Seats (rules §8): Adam 0, Bara 1, Cyril 2, Dana 3, Emil 4, Fany 5, Gita 6, Hugo 7.
"""

from __future__ import annotations

import copy
import json
import re
from fractions import Fraction

import pytest

from engines.mrakoslapi import announce, night
from engines.mrakoslapi import cards as C
from engines.mrakoslapi.players import ALIVE, DEAD, FAKE_DEAD, new_player
from engines.mrakoslapi.resolver import resolve

NAMES = ["Adam", "Bara", "Cyril", "Dana", "Emil", "Fany", "Gita", "Hugo"]
SEAT = {name: seat for seat, name in enumerate(NAMES)}
CZECH = {name: card_type for card_type, (name, _) in C.CARD_TYPES.items()}
ALL = "Adam, Bara, Cyril, Dana, Emil, Fany, Gita, Hugo"


# --------------------------------------------------------------------------------------------
# Reading the fixture notation of rules §8/§9
# --------------------------------------------------------------------------------------------

def parse_cards(text: str) -> dict[str, list[dict]]:
    """"Adam: Mafián 1; Mág 1 · Hugo: Mág 3; Zrcadlo 4; Ateista" → cards per name."""
    hands: dict[str, list[dict]] = {}
    for part in filter(None, (p.strip() for p in text.split("·"))):
        name, items = part.split(":", 1)
        for item in items.split(";"):
            match = re.fullmatch(r"\s*(\D+?)\s*([\d, ]*)\s*", item)
            nos = [int(n) for n in re.findall(r"\d+", match.group(2))] or [1]
            hands.setdefault(name.strip(), []).extend(C.card(CZECH[match.group(1)], no)
                                                      for no in nos)
    return hands


def parse_choices(text: str) -> dict:
    """"Mafia: Adam→Dana · Gunmen: G1→Dana · Tunnels: Mág 1: Dana→Emil · Slime: Slina 1→Emil ·
    Exhibit: Exhibicionista 1→Emil · Duch Bobo→Fany · Medik: Cyril uses it" → choices JSON."""
    choices: dict = {}
    for part in filter(None, (p.strip() for p in text.split("·"))):
        if part.startswith("Duch Bobo→"):
            choices["bobo"] = SEAT[part.split("→")[1]]
            continue
        head, body = part.split(":", 1)
        if head == "Medik":
            choices["medik"] = True
            continue
        for entry in body.split(","):
            left, target = (s.strip() for s in entry.split("→"))
            if head == "Mafia":
                choices.setdefault("mafia", []).append({"seat": SEAT[left], "target": SEAT[target]})
            elif head == "Gunmen":
                choices.setdefault("gunmen", []).append({"no": int(left[1:]),
                                                         "target": SEAT[target]})
            elif head == "Tunnels":
                card, frm = (s.strip() for s in left.split(":"))
                choices.setdefault("tunnels", []).append(
                    {"no": int(card.split()[1]), "from": SEAT[frm], "to": SEAT[target]})
            else:
                key = {"Slime": "slime", "Exhibit": "exhibit"}[head]
                choices.setdefault(key, []).append({"no": int(left.split()[1]),
                                                    "target": SEAT[target]})
    return choices


def parse_announce(text: str) -> list[dict]:
    """"shots 1 · slimed — · exhibited Emil, Fany · mirrors 2 · Mrakošlapy 3, 6 · dead —"."""
    fields = {}
    for part in (p.strip() for p in text.split("·")):
        key, _, value = part.partition(" ")
        fields[key] = [] if value.strip() == "—" else [v.strip() for v in value.split(",")]
    seats = lambda key: sorted(SEAT[name] for name in fields[key])  # noqa: E731
    numbers = lambda key: sorted(int(n) for n in fields[key])      # noqa: E731
    return [
        announce.line(announce.SHOTS, count=int(fields["shots"][0])),
        announce.line(announce.SLIMED, seats=seats("slimed")),
        announce.line(announce.EXHIBITED, seats=seats("exhibited")),
        announce.line(announce.MIRRORS, numbers=numbers("mirrors")),
        announce.line(announce.MRAKS, numbers=numbers("Mrakošlapy")),
        announce.line(announce.DEAD, seats=seats("dead")),
    ]


def table(night_no: int, alive: str, cards: str, dead_cards: str = "",
          pending_bobo: str | None = None) -> dict:
    """Eight seats; those not in ``alive`` are DEAD.  Fixture convention (rules §8): only the
    listed cards exist."""
    alive_names = {n.strip() for n in alive.split(",")}
    hands = parse_cards(cards)
    for name, hand in parse_cards(dead_cards).items():
        hands.setdefault(name, []).extend(hand)
    players = []
    for seat, name in enumerate(NAMES):
        player = new_player(seat, hands.get(name, []))
        if name not in alive_names:
            player["status"] = DEAD
        players.append(player)
    return {"night": night_no, "players": players,
            "pending_bobo": SEAT[pending_bobo] if pending_bobo else None}


# --------------------------------------------------------------------------------------------
# Writing the resolver's trace in the notation of rules §9
# --------------------------------------------------------------------------------------------

def frac(text: str) -> str:
    q = Fraction(text)
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def spec_order(fragments: list[dict]) -> list[dict]:
    """Rules §9 lists the fragments of one step by bullet name (N12: "G1(1)->Emil, M1(1)->…");
    only the notation, the JSON keeps the canonical M1…G2 order."""
    return sorted(fragments, key=lambda f: f["bullet"])


def render(step: dict) -> str:
    n = NAMES.__getitem__
    kind = step["kind"]
    if kind == "discard":
        reason = step["reason"].replace("_", " ").replace("atheist", "Atheist")
        if step["card"] == C.MAG:
            return (f"(input filter) tunnel Mag {step['no']} {n(step['from'])}->{n(step['to'])} "
                    f"discarded: {reason}")
        return f"(input filter) slime Slina {step['no']} on {n(step['target'])} discarded: {reason}"
    if kind == "fire":
        return f"t=0 FIRE {step['bullet']}: {n(step['origin'])} -> {n(step['target'])}"
    head = f"t={step['t']} @{n(step['at'])} "
    if kind == "tunnel":
        carries = ", ".join(f"{f['bullet']}({frac(f['fraction'])})"
                            for f in spec_order(step["carries"]))
        return (head + f"TUNNEL Mag {step['mag']} {n(step['from'])}->{n(step['to'])} used, "
                f"carries {carries} -> arrive t={step['arrive']}")
    if kind == "saliva":
        return head + "SALIVA absorbs " + ", ".join(
            f"{f['bullet']}({frac(f['fraction'])}) from {n(f['prev'])}"
            for f in spec_order(step["absorbs"]))
    if kind == "mirror":
        reflects = ", ".join(f"{f['bullet']}({frac(f['fraction'])})->{n(f['to'])}"
                             for f in spec_order(step["reflects"]))
        return (head + f"MIRROR Zrcadlo {step['no']} breaks, reflects {reflects} "
                f"arrive t={step['arrive']}")
    if kind == "mrak_dies":
        return head + f"Mrakošlap {step['no']} dies (hit by {step['bullet']})"
    if kind == "player_dies":
        return head + f"{n(step['at'])} DIES (hit by {step['bullet']})"
    assert kind == "corpse"
    if step["died_at"] == step["t"]:              # a further bullet of the killing group (R7)
        return head + f"CORPSE: {step['fragments'][0]['bullet']} stuck (no effect)"
    stuck = ", ".join(f"{f['bullet']}({frac(f['fraction'])}) from {n(f['prev'])}"
                      for f in spec_order(step["fragments"]))
    return head + f"CORPSE: {stuck} stuck (no effect)"


def lines(block: str) -> list[str]:
    return [ln.strip() for ln in block.strip().splitlines()
            if ln.strip() and ln.strip() != "(no bullet fired)"]


# --------------------------------------------------------------------------------------------
# One night, end to end
# --------------------------------------------------------------------------------------------

def play(tbl: dict, choices: str | dict, options: dict | None = None):
    """Build, resolve, apply and announce one night; check purity and JSON on the way."""
    before = copy.deepcopy(tbl)
    choice_json = parse_choices(choices) if isinstance(choices, str) else choices
    night_input = night.build_night_input(tbl, choice_json, options)
    input_copy = copy.deepcopy(night_input)
    result = resolve(night_input)
    applied = night.apply_night(tbl, result)
    lines_ = announce.morning(result, applied)
    assert tbl == before and night_input == input_copy            # nothing was mutated
    for blob in (night_input, result, applied, lines_):
        assert json.loads(json.dumps(blob)) == blob                # JSON types only
    return result, applied, lines_


def check(night_no: int, alive: str, cards: str, choices: str, trace: str, announced: str,
          **extra):
    tbl = table(night_no, alive, cards, **extra)
    result, applied, lines_ = play(tbl, choices)
    assert [render(step) for step in result["trace"]] == lines(trace)
    assert lines_ == parse_announce(announced)
    return tbl, result, applied


def card_state(applied: dict, name: str, card_type: str, no: int = 1) -> str:
    [c] = [c for c in applied["players"][SEAT[name]]["cards"]
           if c["type"] == card_type and c["no"] == no]
    return c["state"]


# --------------------------------------------------------------------------------------------
# Rules §9, in order
# --------------------------------------------------------------------------------------------

def test_N00_night_has_no_meaning():
    tbl = table(6, "Bara, Emil, Hugo", "Emil: Mág 1", dead_cards="Adam: Mafián 1")
    tbl["players"][SEAT["Emil"]]["cards"].append(C.card(C.MEDIK, 1, C.SPENT))
    assert not night.night_has_meaning(tbl["players"])
    applied = night.apply_skipped_night(tbl)
    assert applied["night"] == 6
    assert announce.skipped(applied) == [{"code": "night.no_meaning", "params": {}}]
    assert applied["players"] == tbl["players"]


def test_N00b_a_ready_medik_makes_the_night_meaningful():
    tbl = table(6, "Bara, Emil, Hugo", "Bara: Medik")
    assert night.night_has_meaning(tbl["players"])
    _, _, lines_ = play(tbl, {})
    assert lines_ == parse_announce("shots 0 · slimed — · exhibited — · mirrors — · "
                                    "Mrakošlapy — · dead —")


def test_N00c_a_gunman_counts_even_on_a_night_he_does_not_shoot():
    tbl = table(7, "Bara, Emil, Hugo", "Hugo: Šílený střelec 1")
    assert not night.is_gunman_night(7)
    assert night.night_has_meaning(tbl["players"])
    _, _, lines_ = play(tbl, {})
    assert lines_[0] == announce.line(announce.SHOTS, count=0)
    with pytest.raises(ValueError):
        night.build_night_input(tbl, {"gunmen": [{"no": 1, "target": SEAT["Bara"]}]})


def test_N01_night_1_three_mafia_bullets_kill_an_undefended_target():
    check(1, ALL,
          "Adam: Mafián 1 · Bara: Mafián 2 · Cyril: Mafián 3",
          "Mafia: Adam→Dana, Bara→Dana, Cyril→Dana",
          """
          t=0 FIRE M1: Adam -> Dana
          t=0 FIRE M2: Bara -> Dana
          t=0 FIRE M3: Cyril -> Dana
          t=1 @Dana Dana DIES (hit by M1)
          t=1 @Dana CORPSE: M2 stuck (no effect)
          t=1 @Dana CORPSE: M3 stuck (no effect)
          """,
          "shots 3 · slimed — · exhibited — · mirrors — · Mrakošlapy — · dead Dana")


def test_N02_mafia_disagree_no_mafia_shot_at_all():
    check(3, ALL,
          "Adam: Mafián 1 · Bara: Mafián 2 · Cyril: Mafián 3 · Emil: Slina 1",
          "Mafia: Adam→Dana, Bara→Dana, Cyril→Emil · Slime: Slina 1→Emil",
          "(no bullet fired)",
          "shots 0 · slimed Emil · exhibited — · mirrors — · Mrakošlapy — · dead —")


def test_N03_two_living_mafian_cards_two_bullets_each_kills_one_mrakoslap():
    _, _, applied = check(
        3, "Adam, Bara, Dana, Emil, Fany, Gita, Hugo",
        "Adam: Mafián 1 · Bara: Mafián 2 · Dana: Mrakošlap 2, 5",
        "Mafia: Adam→Dana, Bara→Dana",
        """
        t=0 FIRE M1: Adam -> Dana
        t=0 FIRE M2: Bara -> Dana
        t=1 @Dana Mrakošlap 2 dies (hit by M1)
        t=1 @Dana Mrakošlap 5 dies (hit by M2)
        """,
        "shots 2 · slimed — · exhibited — · mirrors — · Mrakošlapy 2, 5 · dead —")
    assert card_state(applied, "Dana", C.MRAKOSLAP, 2) == C.DEAD
    assert card_state(applied, "Dana", C.MRAKOSLAP, 5) == C.DEAD
    assert applied["players"][SEAT["Dana"]]["status"] == ALIVE


def test_N04_one_mirror_reflects_a_whole_group_each_bullet_to_its_own_shooter():
    _, _, applied = check(
        1, ALL,
        "Adam: Mafián 1; Mrakošlap 1 · Bara: Mafián 2 · Cyril: Mafián 3 · Dana: Zrcadlo 3 · "
        "Hugo: Slina 2",
        "Mafia: Adam→Dana, Bara→Dana, Cyril→Dana · Slime: Slina 2→Cyril",
        """
        t=0 FIRE M1: Adam -> Dana
        t=0 FIRE M2: Bara -> Dana
        t=0 FIRE M3: Cyril -> Dana
        t=1 @Dana MIRROR Zrcadlo 3 breaks, reflects M1(1)->Adam, M2(1)->Bara, M3(1)->Cyril arrive t=2
        t=2 @Adam Mrakošlap 1 dies (hit by M1)
        t=2 @Bara Bara DIES (hit by M2)
        t=2 @Cyril SALIVA absorbs M3(1) from Dana
        """,
        "shots 3 · slimed Cyril · exhibited — · mirrors 3 · Mrakošlapy 1 · dead Bara")
    assert card_state(applied, "Dana", C.ZRCADLO, 3) == C.BROKEN
    bara = applied["players"][SEAT["Bara"]]
    assert bara["status"] == DEAD and bara["died_in"] == {"phase": "NIGHT", "number": 1, "t": 2}
    assert card_state(applied, "Bara", C.MAFIAN, 2) == C.SURRENDERED


def test_N05_saliva_is_checked_before_mirror_and_mrakoslap_nothing_is_consumed():
    _, _, applied = check(
        3, "Adam, Bara, Dana, Emil, Fany, Gita, Hugo",
        "Adam: Mafián 1, 2 · Emil: Zrcadlo 2; Mrakošlap 4 · Fany: Slina 1",
        "Mafia: Adam→Emil · Slime: Slina 1→Emil",
        """
        t=0 FIRE M1: Adam -> Emil
        t=0 FIRE M2: Adam -> Emil
        t=1 @Emil SALIVA absorbs M1(1) from Adam, M2(1) from Adam
        """,
        "shots 2 · slimed Emil · exhibited — · mirrors — · Mrakošlapy — · dead —")
    assert card_state(applied, "Emil", C.ZRCADLO, 2) == C.READY
    assert card_state(applied, "Emil", C.MRAKOSLAP, 4) == C.READY


def test_N06_tunnel_is_checked_before_saliva():
    check(3, ALL,
          "Adam: Mafián 1 · Fany: Slina 3 · Hugo: Mág 1",
          "Mafia: Adam→Dana · Tunnels: Mág 1: Dana→Emil · Slime: Slina 3→Dana",
          """
          t=0 FIRE M1: Adam -> Dana
          t=1 @Dana TUNNEL Mag 1 Dana->Emil used, carries M1(1) -> arrive t=2
          t=2 @Emil Emil DIES (hit by M1)
          """,
          "shots 1 · slimed Dana · exhibited — · mirrors — · Mrakošlapy — · dead Emil")


def test_N07_atheist_tunnel_and_saliva_aimed_at_him_vanish_his_own_slina_is_void():
    # The two "slime … discarded" lines are ours: rules §9 N07 lists only the discarded tunnel
    # and describes the void saliva in its note (see engines/mrakoslapi/night.py).
    check(3, ALL,
          "Adam: Mafián 1 · Emil: Slina 2; Ateista · Fany: Slina 1 · Hugo: Mág 1",
          "Mafia: Adam→Dana · Tunnels: Mág 1: Dana→Emil · Slime: Slina 1→Emil, Slina 2→Dana",
          """
          (input filter) tunnel Mag 1 Dana->Emil discarded: destination is Atheist
          (input filter) slime Slina 1 on Emil discarded: target is Atheist
          (input filter) slime Slina 2 on Dana discarded: maker is Atheist
          t=0 FIRE M1: Adam -> Dana
          t=1 @Dana Dana DIES (hit by M1)
          """,
          "shots 1 · slimed — · exhibited — · mirrors — · Mrakošlapy — · dead Dana")


def test_N08_split_into_halves_one_half_mirrored_back_to_the_splitting_person():
    _, result, _ = check(
        2, ALL,
        "Adam: Mafián 1; Mág 1 · Bara: Mafián 2; Mág 2 · Dana: Mrakošlap 3 · Emil: Zrcadlo 2 · "
        "Fany: Mrakošlap 6 · Gita: Šílený střelec 1",
        "Mafia: Adam→Cyril, Bara→Hugo · Gunmen: G1→Dana · "
        "Tunnels: Mág 1: Dana→Emil, Mág 2: Dana→Fany",
        """
        t=0 FIRE G1: Gita -> Dana
        t=1 @Dana TUNNEL Mag 1 Dana->Emil used, carries G1(1/2) -> arrive t=2
        t=1 @Dana TUNNEL Mag 2 Dana->Fany used, carries G1(1/2) -> arrive t=2
        t=2 @Emil MIRROR Zrcadlo 2 breaks, reflects G1(1/2)->Dana arrive t=3
        t=2 @Fany Mrakošlap 6 dies (hit by G1)
        t=3 @Dana Mrakošlap 3 dies (hit by G1)
        """,
        "shots 1 · slimed — · exhibited — · mirrors 2 · Mrakošlapy 3, 6 · dead —")
    assert [s["split"] for s in result["trace"] if s["kind"] == "tunnel"] == [2, 2]


def test_N09b_without_the_backup_the_reflected_bullet_stays_with_dana():
    check(1, ALL,
          "Adam: Mafián 1 · Dana: Mág 1 · Emil: Zrcadlo 1",
          "Mafia: Adam→Dana · Tunnels: Mág 1: Dana→Emil",
          """
          t=0 FIRE M1: Adam -> Dana
          t=1 @Dana TUNNEL Mag 1 Dana->Emil used, carries M1(1) -> arrive t=2
          t=2 @Emil MIRROR Zrcadlo 1 breaks, reflects M1(1)->Dana arrive t=3
          t=3 @Dana Dana DIES (hit by M1)
          """,
          "shots 1 · slimed — · exhibited — · mirrors 1 · Mrakošlapy — · dead Dana")


def test_N10_tunnel_loop_terminates_because_each_tunnel_is_one_use():
    check(2, ALL,
          "Adam: Slina 1 · Bara: Mrakošlap 7 · Dana: Mág 1, 2 · Emil: Mafián 1 · Fany: Mafián 2 · "
          "Gita: Šílený střelec 1 · Hugo: Šílený střelec 2",
          "Mafia: Emil→Cyril, Fany→Dana · Gunmen: G1→Bara, G2→Adam · "
          "Tunnels: Mág 1: Bara→Cyril, Mág 2: Cyril→Bara · Slime: Slina 1→Adam",
          """
          t=0 FIRE G1: Gita -> Bara
          t=0 FIRE G2: Hugo -> Adam
          t=1 @Adam SALIVA absorbs G2(1) from Hugo
          t=1 @Bara TUNNEL Mag 1 Bara->Cyril used, carries G1(1) -> arrive t=2
          t=2 @Cyril TUNNEL Mag 2 Cyril->Bara used, carries G1(1) -> arrive t=3
          t=3 @Bara Mrakošlap 7 dies (hit by G1)
          """,
          "shots 2 · slimed Adam · exhibited — · mirrors — · Mrakošlapy 7 · dead —")


def test_N11_mirror_ping_pong_between_shooter_and_target():
    check(2, ALL,
          "Adam: Šílený střelec 1; Zrcadlo 3 · Bara: Zrcadlo 1, 2",
          "Gunmen: G1→Bara",
          """
          t=0 FIRE G1: Adam -> Bara
          t=1 @Bara MIRROR Zrcadlo 1 breaks, reflects G1(1)->Adam arrive t=2
          t=2 @Adam MIRROR Zrcadlo 3 breaks, reflects G1(1)->Bara arrive t=3
          t=3 @Bara MIRROR Zrcadlo 2 breaks, reflects G1(1)->Adam arrive t=4
          t=4 @Adam Adam DIES (hit by G1)
          """,
          "shots 1 · slimed — · exhibited — · mirrors 1, 2, 3 · Mrakošlapy — · dead Adam")


def test_N12_gunman_night_five_shots_one_mirror_reflects_a_group_of_four():
    check(2, ALL,
          "Adam: Mafián 1; Zrcadlo 5 · Bara: Mafián 2; Mrakošlap 2 · Cyril: Mafián 3 · "
          "Dana: Zrcadlo 4; Mrakošlap 1 · Emil: Šílený střelec 1; Mrakošlap 3 · "
          "Fany: Šílený střelec 2 · Gita: Mrakošlap 6 · Hugo: Slina 1",
          "Mafia: Adam→Dana, Bara→Dana, Cyril→Dana · Gunmen: G1→Dana, G2→Gita · "
          "Slime: Slina 1→Cyril",
          """
          t=0 FIRE M1: Adam -> Dana
          t=0 FIRE M2: Bara -> Dana
          t=0 FIRE M3: Cyril -> Dana
          t=0 FIRE G1: Emil -> Dana
          t=0 FIRE G2: Fany -> Gita
          t=1 @Dana MIRROR Zrcadlo 4 breaks, reflects G1(1)->Emil, M1(1)->Adam, M2(1)->Bara, M3(1)->Cyril arrive t=2
          t=1 @Gita Mrakošlap 6 dies (hit by G2)
          t=2 @Adam MIRROR Zrcadlo 5 breaks, reflects M1(1)->Dana arrive t=3
          t=2 @Bara Mrakošlap 2 dies (hit by M2)
          t=2 @Cyril SALIVA absorbs M3(1) from Dana
          t=2 @Emil Mrakošlap 3 dies (hit by G1)
          t=3 @Dana Mrakošlap 1 dies (hit by M1)
          """,
          "shots 5 · slimed Cyril · exhibited — · mirrors 4, 5 · Mrakošlapy 1, 2, 3, 6 · dead —")


def test_N15_three_different_tunnels_split_a_bullet_into_thirds():
    check(2, ALL,
          "Adam: Mág 1 · Bara: Mág 2; Slina 1 · Cyril: Mág 3 · Dana: Mrakošlap 3 · "
          "Fany: Mrakošlap 6 · Gita: Zrcadlo 2 · Hugo: Šílený střelec 1",
          "Gunmen: G1→Dana · Tunnels: Mág 1: Dana→Emil, Mág 2: Dana→Fany, Mág 3: Dana→Gita · "
          "Slime: Slina 1→Emil",
          """
          t=0 FIRE G1: Hugo -> Dana
          t=1 @Dana TUNNEL Mag 1 Dana->Emil used, carries G1(1/3) -> arrive t=2
          t=1 @Dana TUNNEL Mag 2 Dana->Fany used, carries G1(1/3) -> arrive t=2
          t=1 @Dana TUNNEL Mag 3 Dana->Gita used, carries G1(1/3) -> arrive t=2
          t=2 @Emil SALIVA absorbs G1(1/3) from Dana
          t=2 @Fany Mrakošlap 6 dies (hit by G1)
          t=2 @Gita MIRROR Zrcadlo 2 breaks, reflects G1(1/3)->Dana arrive t=3
          t=3 @Dana Mrakošlap 3 dies (hit by G1)
          """,
          "shots 1 · slimed Emil · exhibited — · mirrors 2 · Mrakošlapy 3, 6 · dead —")


def test_N18_a_delayed_bullet_reaching_a_dead_player_sticks_in_the_corpse():
    check(2, "Adam, Bara, Dana, Emil, Fany, Gita, Hugo",
          "Adam: Mafián 1 · Bara: Šílený střelec 1 · Fany: Zrcadlo 1 · Gita: Mág 1",
          "Mafia: Adam→Emil · Gunmen: G1→Fany · Tunnels: Mág 1: Bara→Emil",
          """
          t=0 FIRE M1: Adam -> Emil
          t=0 FIRE G1: Bara -> Fany
          t=1 @Emil Emil DIES (hit by M1)
          t=1 @Fany MIRROR Zrcadlo 1 breaks, reflects G1(1)->Bara arrive t=2
          t=2 @Bara TUNNEL Mag 1 Bara->Emil used, carries G1(1) -> arrive t=3
          t=3 @Emil CORPSE: G1(1) from Bara stuck (no effect)
          """,
          "shots 2 · slimed — · exhibited — · mirrors 1 · Mrakošlapy — · dead Emil")


def test_N19_a_tunnel_from_the_atheist_is_valid():
    # The "slime … discarded" line is ours, see N07.
    check(3, ALL,
          "Adam: Mafián 1 · Fany: Slina 1 · Gita: Mág 1; Mrakošlap 3 · Hugo: Ateista",
          "Mafia: Adam→Hugo · Tunnels: Mág 1: Hugo→Gita · Slime: Slina 1→Hugo",
          """
          (input filter) slime Slina 1 on Hugo discarded: target is Atheist
          t=0 FIRE M1: Adam -> Hugo
          t=1 @Hugo TUNNEL Mag 1 Hugo->Gita used, carries M1(1) -> arrive t=2
          t=2 @Gita Mrakošlap 3 dies (hit by M1)
          """,
          "shots 1 · slimed — · exhibited — · mirrors — · Mrakošlapy 3 · dead —")


def test_N19_alternative_config_atheist_blocks_tunnel_from():
    tbl = table(3, ALL, "Adam: Mafián 1 · Fany: Slina 1 · Gita: Mág 1; Mrakošlap 3 · Hugo: Ateista")
    result, _, lines_ = play(tbl, "Mafia: Adam→Hugo · Tunnels: Mág 1: Hugo→Gita · "
                                  "Slime: Slina 1→Hugo", {"atheist_blocks_tunnel_from": True})
    assert render(result["trace"][0]) == ("(input filter) tunnel Mag 1 Hugo->Gita discarded: "
                                          "origin is Atheist")
    assert lines_[-1] == announce.line(announce.DEAD, seats=[SEAT["Hugo"]])


def test_N20_atheists_own_mag_is_void_mirrors_still_protect_the_atheist():
    check(3, ALL,
          "Adam: Mafián 1; Mrakošlap 1 · Hugo: Mág 3; Zrcadlo 4; Ateista",
          "Mafia: Adam→Hugo · Tunnels: Mág 3: Hugo→Adam",
          """
          (input filter) tunnel Mag 3 Hugo->Adam discarded: maker is Atheist
          t=0 FIRE M1: Adam -> Hugo
          t=1 @Hugo MIRROR Zrcadlo 4 breaks, reflects M1(1)->Adam arrive t=2
          t=2 @Adam Mrakošlap 1 dies (hit by M1)
          """,
          "shots 1 · slimed — · exhibited — · mirrors 4 · Mrakošlapy 1 · dead —")


def test_N22_bullet_redirected_onto_saliva_shot_fired_nothing_happens():
    check(3, ALL,
          "Adam: Mafián 1 · Bara: Mág 1 · Fany: Slina 1; Zrcadlo 1",
          "Mafia: Adam→Dana · Tunnels: Mág 1: Dana→Fany · Slime: Slina 1→Fany",
          """
          t=0 FIRE M1: Adam -> Dana
          t=1 @Dana TUNNEL Mag 1 Dana->Fany used, carries M1(1) -> arrive t=2
          t=2 @Fany SALIVA absorbs M1(1) from Dana
          """,
          "shots 1 · slimed Fany · exhibited — · mirrors — · Mrakošlapy — · dead —")


def test_N23_medik_fake_death_exhibicionista_and_duch_bobo_in_the_announcement():
    tbl, _, applied = check(
        3, "Adam, Bara, Cyril, Dana, Emil, Fany, Gita",
        "Adam: Mafián 1 · Bara: Mafián 2 · Cyril: Medik · Dana: Exhibicionista 1 · "
        "Gita: Mrakošlap 6, 7",
        "Mafia: Adam→Gita, Bara→Gita · Exhibit: Exhibicionista 1→Emil · Duch Bobo→Fany · "
        "Medik: Cyril uses it",
        """
        t=0 FIRE M1: Adam -> Gita
        t=0 FIRE M2: Bara -> Gita
        t=1 @Gita Mrakošlap 6 dies (hit by M1)
        t=1 @Gita Mrakošlap 7 dies (hit by M2)
        """,
        "shots 2 · slimed — · exhibited Emil, Fany · mirrors — · Mrakošlapy 6, 7 · dead Cyril",
        dead_cards="Hugo: Duch Bobo", pending_bobo="Hugo")
    players = applied["players"]
    cyril = players[SEAT["Cyril"]]
    assert cyril["status"] == FAKE_DEAD and cyril["fake_dead_until_dawn_of_night"] == 4
    assert applied["died"] == [] and applied["fake_dead"] == [SEAT["Cyril"]]
    assert applied["muted"] == [SEAT["Emil"], SEAT["Fany"]]
    assert players[SEAT["Emil"]]["muted_day"] == players[SEAT["Fany"]]["muted_day"] == 3
    assert card_state(applied, "Dana", C.EXHIBICIONISTA, 1) == C.SPENT
    assert card_state(applied, "Cyril", C.MEDIK) == C.SPENT
    assert card_state(applied, "Hugo", C.DUCH_BOBO) == C.SPENT
    assert applied["pending_bobo"] is None
    # Night 4: Cyril gets no prompt and cannot be chosen; morning 4 starts with his return.
    night4 = {"night": 4, "players": applied["players"], "pending_bobo": None}
    with pytest.raises(ValueError):
        night.build_night_input(night4, {"mafia": [{"seat": 0, "target": SEAT["Cyril"]}]})
    night4_input = night.build_night_input(night4, {})
    assert SEAT["Cyril"] not in [p["seat"] for p in night4_input["players"]]
    _, applied4, lines4 = play(night4, "Mafia: Adam→Dana, Bara→Dana")
    assert lines4[0] == announce.line(announce.RETURNING, seat=SEAT["Cyril"])
    assert lines4[1] == announce.line(announce.SHOTS, count=2)
    assert applied4["players"][SEAT["Cyril"]]["status"] == ALIVE


def test_N24_mafia_target_one_of_their_own_mirror_sends_both_bullets_back():
    check(3, "Adam, Bara, Cyril, Dana, Emil, Fany, Gita",
          "Adam: Mafián 1; Mág 1; Mrakošlap 1 · Bara: Mafián 2 · Cyril: Zrcadlo 2",
          "Mafia: Adam→Adam, Bara→Adam · Tunnels: Mág 1: Adam→Cyril",
          """
          t=0 FIRE M1: Adam -> Adam
          t=0 FIRE M2: Bara -> Adam
          t=1 @Adam TUNNEL Mag 1 Adam->Cyril used, carries M1(1), M2(1) -> arrive t=2
          t=2 @Cyril MIRROR Zrcadlo 2 breaks, reflects M1(1)->Adam, M2(1)->Adam arrive t=3
          t=3 @Adam Mrakošlap 1 dies (hit by M1)
          t=3 @Adam Adam DIES (hit by M2)
          """,
          "shots 2 · slimed — · exhibited — · mirrors 2 · Mrakošlapy 1 · dead Adam")


# --------------------------------------------------------------------------------------------
# Ours: rules the §9 list names (N09, N16/N17, N25, …) without spelling them out
# --------------------------------------------------------------------------------------------

def test_identical_tunnel_is_a_backup_for_the_reflection():
    """Rules §4.4 R4/R6 ("Druhý tunel slouží jako pojistka … odrazu přes zrcadlo"): the control
    N09b plus Dana's second, identical tunnel — the reflected bullet goes through it to Emil."""
    check(1, ALL,
          "Adam: Mafián 1 · Dana: Mág 1, 2 · Emil: Zrcadlo 1",
          "Mafia: Adam→Dana · Tunnels: Mág 1: Dana→Emil, Mág 2: Dana→Emil",
          """
          t=0 FIRE M1: Adam -> Dana
          t=1 @Dana TUNNEL Mag 1 Dana->Emil used, carries M1(1) -> arrive t=2
          t=2 @Emil MIRROR Zrcadlo 1 breaks, reflects M1(1)->Dana arrive t=3
          t=3 @Dana TUNNEL Mag 2 Dana->Emil used, carries M1(1) -> arrive t=4
          t=4 @Emil Emil DIES (hit by M1)
          """,
          "shots 1 · slimed — · exhibited — · mirrors 1 · Mrakošlapy — · dead Emil")


def test_identical_and_different_tunnels_split_by_destination_the_spare_waits():
    """A16: Dana→Emil twice and Dana→Fany once split into halves; the spare Dana→Emil carries
    Fany's reflected half on to Emil."""
    check(2, ALL,
          "Adam: Mág 1 · Bara: Mág 2 · Cyril: Mág 3 · Emil: Mrakošlap 4, 5 · Fany: Zrcadlo 1 · "
          "Gita: Šílený střelec 1",
          "Gunmen: G1→Dana · Tunnels: Mág 1: Dana→Emil, Mág 2: Dana→Fany, Mág 3: Dana→Emil",
          """
          t=0 FIRE G1: Gita -> Dana
          t=1 @Dana TUNNEL Mag 1 Dana->Emil used, carries G1(1/2) -> arrive t=2
          t=1 @Dana TUNNEL Mag 2 Dana->Fany used, carries G1(1/2) -> arrive t=2
          t=2 @Emil Mrakošlap 4 dies (hit by G1)
          t=2 @Fany MIRROR Zrcadlo 1 breaks, reflects G1(1/2)->Dana arrive t=3
          t=3 @Dana TUNNEL Mag 3 Dana->Emil used, carries G1(1/2) -> arrive t=4
          t=4 @Emil Mrakošlap 5 dies (hit by G1)
          """,
          "shots 1 · slimed — · exhibited — · mirrors 1 · Mrakošlapy 4, 5 · dead —")


def _split_and_rejoin(fany_to: str) -> dict:
    """G1 → Dana, split to Emil and Fany; Emil tunnels to Gita, Fany tunnels to ``fany_to``;
    Hugo (if reached) tunnels on to Gita.  Resolver level: the fixture needs five Mág cards."""
    seats = [{"seat": s, "mirrors": [], "mraks": []} for s in range(8)]
    seats[SEAT["Gita"]]["mraks"] = [6, 7]
    return resolve({
        "players": seats,
        "shots": [{"bullet": "G1", "origin": SEAT["Adam"], "target": SEAT["Dana"]}],
        "tunnels": [{"mag": 1, "from": SEAT["Dana"], "to": SEAT["Emil"]},
                    {"mag": 2, "from": SEAT["Dana"], "to": SEAT["Fany"]},
                    {"mag": 3, "from": SEAT["Emil"], "to": SEAT["Gita"]},
                    {"mag": 4, "from": SEAT["Fany"], "to": SEAT[fany_to]},
                    {"mag": 5, "from": SEAT["Hugo"], "to": SEAT["Gita"]}],
        "slimed": [],
    })


def test_fragments_of_one_bullet_arriving_together_rejoin_and_count_once():
    """A3 (the rules file's N16): both halves reach Gita at t = 3 — one Mrakošlap dies."""
    result = _split_and_rejoin("Gita")
    assert [render(s) for s in result["trace"]][-1] == "t=3 @Gita Mrakošlap 6 dies (hit by G1)"
    [hit] = [s for s in result["trace"] if s["kind"] == "mrak_dies"]
    assert hit["fragments"] == [{"bullet": "G1", "fraction": "1/2", "prev": SEAT["Emil"]},
                                {"bullet": "G1", "fraction": "1/2", "prev": SEAT["Fany"]}]


def test_fragments_of_one_bullet_arriving_at_different_times_each_count():
    """A3 (the rules file's N17): the halves reach Gita at t = 3 and t = 4 — two die."""
    result = _split_and_rejoin("Hugo")
    assert [render(s) for s in result["trace"] if s["kind"] == "mrak_dies"] == [
        "t=3 @Gita Mrakošlap 6 dies (hit by G1)", "t=4 @Gita Mrakošlap 7 dies (hit by G1)"]


def test_without_merging_each_fragment_of_a_group_is_a_hit():
    night_input = {
        "players": [{"seat": s, "mirrors": [], "mraks": [6, 7] if s == 6 else []}
                    for s in range(8)],
        "shots": [{"bullet": "G1", "origin": 0, "target": 3}],
        "tunnels": [{"mag": 1, "from": 3, "to": 4}, {"mag": 2, "from": 3, "to": 5},
                    {"mag": 3, "from": 4, "to": 6}, {"mag": 4, "from": 5, "to": 6}],
        "options": {"merge_same_bullet_same_time": False},
    }
    assert [m["no"] for m in resolve(night_input)["dead_mraks"]] == [6, 7]


def test_a_missing_mafia_choice_counts_as_disagreement():
    tbl = table(3, ALL, "Adam: Mafián 1 · Bara: Mafián 2")
    result, _, _ = play(tbl, "Mafia: Adam→Dana")
    assert result["shots"] == [] and result["trace"] == []


def test_a_player_holding_two_mafian_cards_makes_one_choice_for_both():
    tbl = table(3, ALL, "Adam: Mafián 1, 3 · Bara: Mafián 2")
    result, _, _ = play(tbl, "Mafia: Adam→Dana, Bara→Dana")
    assert [(s["bullet"], s["origin"]) for s in result["shots"]] == [
        ("M1", SEAT["Adam"]), ("M2", SEAT["Bara"]), ("M3", SEAT["Adam"])]


def test_medik_who_really_dies_on_his_night_is_simply_dead():
    """A8: night n resolves normally; a Medik killed that night is really dead."""
    tbl = table(3, ALL, "Adam: Mafián 1 · Cyril: Medik")
    _, applied, lines_ = play(tbl, "Mafia: Adam→Cyril · Medik: Cyril uses it")
    assert applied["died"] == [SEAT["Cyril"]] and applied["fake_dead"] == []
    assert applied["players"][SEAT["Cyril"]]["status"] == DEAD
    assert card_state(applied, "Cyril", C.MEDIK) == C.SURRENDERED
    assert lines_[-1] == announce.line(announce.DEAD, seats=[SEAT["Cyril"]])


def test_duch_bobo_holder_killed_at_night_haunts_the_next_night_only():
    tbl = table(3, ALL, "Adam: Mafián 1 · Hugo: Duch Bobo; Zrcadlo 2; Mrakošlap 1")
    _, applied, _ = play(tbl, "Mafia: Adam→Hugo")
    assert applied["pending_bobo"] is None                    # the mirror saved him
    _, applied, _ = play(table(3, ALL, "Adam: Mafián 1 · Hugo: Duch Bobo; Mrakošlap 1"),
                         "Mafia: Adam→Hugo")
    assert applied["pending_bobo"] is None                    # a Mrakošlap died, not Hugo
    _, applied, _ = play(table(3, ALL, "Adam: Mafián 1 · Hugo: Duch Bobo"), "Mafia: Adam→Hugo")
    assert applied["pending_bobo"] == SEAT["Hugo"]
    assert card_state(applied, "Hugo", C.DUCH_BOBO) == C.READY
    # Night 4 is played but Bobo does not act: the chance is lost.
    night4 = {"night": 4, "players": applied["players"], "pending_bobo": applied["pending_bobo"]}
    _, applied4, _ = play(night4, {})
    assert applied4["pending_bobo"] is None
    assert card_state(applied4, "Hugo", C.DUCH_BOBO) == C.SURRENDERED
    # A skipped night forfeits it too (A33).
    skipped = night.apply_skipped_night(night4)
    assert skipped["pending_bobo"] is None
    assert card_state(skipped, "Hugo", C.DUCH_BOBO) == C.SURRENDERED


def test_a_skipped_night_still_returns_a_fake_dead_medik():
    tbl = table(5, "Bara, Emil, Hugo", "Emil: Mág 1")
    tbl["players"][SEAT["Cyril"]] |= {"status": FAKE_DEAD, "fake_dead_until_dawn_of_night": 5,
                                      "cards": [C.card(C.MEDIK, 1, C.SPENT)]}
    assert not night.night_has_meaning(tbl["players"])
    applied = night.apply_skipped_night(tbl)
    assert announce.skipped(applied) == [announce.line(announce.NO_MEANING),
                                         announce.line(announce.RETURNING, seat=SEAT["Cyril"])]
    assert applied["players"][SEAT["Cyril"]]["status"] == ALIVE


def test_choices_the_rules_do_not_allow_are_refused():
    tbl = table(2, "Adam, Bara, Cyril, Dana, Emil, Fany, Gita",
                "Adam: Mafián 1 · Bara: Mág 1 · Cyril: Slina 1 · Dana: Exhibicionista 1")
    for bad in ({"mafia": [{"seat": SEAT["Bara"], "target": 0}]},          # not a Mafián
                {"mafia": [{"seat": 0, "target": SEAT["Hugo"]}]},          # dead target
                {"tunnels": [{"no": 1, "from": 2, "to": 2}]},              # from == to
                {"tunnels": [{"no": 2, "from": 2, "to": 3}]},              # card not held
                {"slime": [{"no": 1, "target": SEAT["Hugo"]}]},
                {"exhibit": [{"no": 2, "target": 1}]},
                {"medik": True},
                {"bobo": 1},
                {"gunmen": [{"no": 1, "target": 1}]},                      # not held
                {"mafia": [{"seat": 0, "target": 1}, {"seat": 0, "target": 2}]}):
        with pytest.raises(ValueError):
            night.build_night_input(tbl, bad)
