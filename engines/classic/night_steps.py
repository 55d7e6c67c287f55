"""The night of classic Mafia (rules B.2, C.2; the extra roles C.3; the mafia's kill B.2.5) and
its dawn (rules B.2.3, B.3.1, C.3.1, C.3.2).

In the rulebooks' order: the night falls and its steps wake one after the other — the agent,
the doctor, the mafia, the wizard — each ended by the game master's clock; what each step's
players may do; then the dawn: the spell carried out, the caught agent, the victim.  The pure
counting of the mafia's picks is ``night.py``'s.
"""

from __future__ import annotations

from engines.base import (
    NOBODY, PUBLIC, Action, Event, IllegalAction, Result, State, next_turn, say, start_clock, stop_clock,
)
from engines.classic import cards as C
from engines.classic import night as night_rules
from engines.classic import roles as R
from engines.classic.table import (
    AFTER_DAWN, AGENT_STEP, DOCTOR_STEP, MAFIA_STEP, NEW_GANG_STEP, NIGHT, SMALL_RULE_AGENT, TALK, TIMEOUT,
    WIZARD_STEP, _begin_discussion, _checked_target, _draw_lots, _eliminate, _expect_phase, _fresh_night,
    _holder, _living, _mafiosi, _mark_used, _night, _offer_last_shot, _open_window, _role_event, _rule, _secret,
    _small_game, _window_wanted,
)


# The role each night step wakes (the mafia step wakes every living mafioso).
STEP_ROLE = {AGENT_STEP: R.AGENT, DOCTOR_STEP: R.DOCTOR, WIZARD_STEP: R.WIZARD}


def _night_steps(state: State) -> list[str]:
    """Tonight's steps, in order; a skipped step is a public fact (the agent's or the doctor's
    death is public, the small-game round and the spent spell too)."""
    round_ = state["round"]
    steps = []
    # "Якщо Агент був раніше «вбитий», то … фаза Агента пропускається" / "o ile nie został
    # wcześniej wyeliminowany"; small game: "тільки в ПЕРШОМУ турі" (rules B.3.1).
    if _holder(state, R.AGENT) is not None and not (_small_game(state) and round_ > 1):
        steps.append(AGENT_STEP)
    if _rule(state, "doctor") and _holder(state, R.DOCTOR) is not None:
        steps.append(DOCTOR_STEP)       # "każdej nocy budzi się przed mafią" (rules C.3.1)
    if C.extended(state) and state["cards"]["new_gang"] and round_ == 1:
        # "Перед першою фазою Мафії … Магістр гри наказує розплющити очі власникам карток НОВА
        # БАНДА" (rules B.3.5): a public step, since the box is public.
        steps.append(NEW_GANG_STEP)
    # Small game, literal reading: round 1 goes from the agent straight to the day (B.3.1).
    if not (_small_game(state) and round_ == 1 and not _rule(state, "small_game_round1_mafia")):
        steps.append(MAFIA_STEP)
    if _rule(state, "wizard") and not state["spell_used"] and _holder(state, R.WIZARD) is not None:
        steps.append(WIZARD_STEP)       # the last night step (rules C.3.2, PROPOSED)
    return steps


def _begin_night(state: State, events: list[Event]) -> None:
    """NIGHT_START: everyone closes their eyes (rules B.2, C.2)."""
    state["night_steps"] = _night_steps(state)
    state["vote"], state["finalists"], state["tied"], state["coin"] = None, [], [], None
    if C.extended(state):
        state["cards"] = {**state["cards"], "struck": None}
    _secret(state, night=_fresh_night(state["round"], state["players"]))
    events.append(Event("night_started", {"round": state["round"],
                                          "steps": list(state["night_steps"])}))
    say(state, "night", round=state["round"])
    _begin_night_step(state, events, 0)


def _begin_night_step(state: State, events: list[Event], index: int) -> None:
    steps = state["night_steps"]
    if index >= len(steps):
        _dawn(state, events)
        return
    step = steps[index]
    if index > 0:
        state["narration"] = []
    next_turn(state, step)
    state["night_step"], state["step_done"] = step, False
    start_clock(state, int(_rule(state, "deadline_seconds")), TIMEOUT)
    if step == MAFIA_STEP:
        _mafia_meeting(state, events)
    if step == NEW_GANG_STEP:
        _new_gang_meeting(state, events)
    say(state, f"{step}_step")


def _new_gang_meeting(state: State, events: list[Event]) -> None:
    """The New Gang's holders open their eyes and remember each other (rules B.3.5); nobody
    acts, so the step lasts exactly ``night_seconds``, like any step whose players are done."""
    members = [seat for seat in C.new_gang_members(state) if seat in _living(state)]
    _secret(state, cards={**state["secret"]["cards"], "gang": members})
    if members:
        events.append(Event("new_gang_meeting", {"members": members}, members))
    _step_done(state)


def _mafia_meeting(state: State, events: list[Event]) -> None:
    """The living mafiosi open their eyes and see each other (GRANNA "дивляться один на
    одного"; Polish "to jest moment, w którym gangsterzy się poznają")."""
    mafiosi = _mafiosi(state)
    met = [list(seen) for seen in state["secret"]["met"]]
    for seat in mafiosi:
        met[seat] = sorted(set(met[seat]) | (set(mafiosi) - {seat}))
    _secret(state, met=met)
    events.append(Event("mafia_meeting", {"round": state["round"], "mafiosi": mafiosi}, mafiosi))


def _step_done(state: State) -> None:
    """The step's players have acted: it ends ``night_seconds`` after it began (or now)."""
    state["step_done"] = True
    state["clock"] = {**state["clock"], "seconds": int(_rule(state, "night_seconds"))}


def _actors(state: State) -> list[int]:
    """Who acts in the current night step (before they are done)."""
    step = state["night_step"]
    if step == MAFIA_STEP:
        return _mafiosi(state)
    if step == NEW_GANG_STEP:
        return []       # they only look at each other
    holder = _holder(state, STEP_ROLE[step])
    return [holder] if holder is not None else []


def _mafia_targets(state: State) -> list[int]:
    """Living players not awake with the mafia (GRANNA "вказують на одного з Полісменів"; Polish
    "wybranie policjanta"); not an agent the small-game rule already caught (his token lies face
    up); not a player a Wiretap, Hideout or Safe-Conduct protects tonight (rules B.3.4)."""
    caught, awake = state["secret"]["night"]["caught"], set(_mafiosi(state))
    barred = set(C.badges(state, "untouchable")) | set(C.badges(state, "safe"))
    return [seat for seat in _living(state) if seat not in awake and seat != caught and seat not in barred]


def _recruits(state: State, seat: int) -> list[int]:
    """Whom ``seat`` may recruit now (rules B.3.4 Recruitment): in the mafia step, holding the
    card with a Mafioso token, any living player not awake with the mafia (the Agent too)."""
    if state["phase"] != MAFIA_STEP or state["step_done"] or not C.extended(state) \
            or seat not in _mafiosi(state) or not C.holds(state, seat, C.RECRUITMENT):
        return []
    awake = set(_mafiosi(state))
    return [other for other in _living(state) if other not in awake]


def recruit(state: State, seat: int, target: int, events: list[Event]) -> None:
    """"покажи цю карту Магістру гри і вкажи на одного з гравців … З цього самого моменту, цей
    гравець стає мафіозі": the recruit wakes and joins tonight's choice.  Only the mafia (the
    recruit among them) learn who; the table hears that a recruitment happened."""
    if target not in _recruits(state, seat):
        raise IllegalAction("fellow_mafioso", "Pick a player who is not in the mafia")
    _mark_used(state, seat)
    cards = state["secret"]["cards"]
    _secret(state, cards={**cards, "recruits": sorted(cards["recruits"] + [target])})
    _mafia_meeting(state, events)
    events.append(Event("recruited", {"seat": seat, "recruit": target, "round": state["round"]},
                        _mafiosi(state)))
    events.append(Event("recruitment", {"round": state["round"]}))
    say(state, "recruitment")


def _doomed(state: State) -> int | None:
    """The seat that dies at this dawn by the mafia: the victim unless the doctor healed him."""
    tonight = state["secret"]["night"]
    victim, heal = tonight["victim"], tonight["heal"]
    if victim is None or (heal is not None and heal["target"] == victim):
        return None
    return victim


def _swap_targets(state: State) -> list[int]:
    """Two of these (rules C.3.2, PROPOSED): living, not the wizard, not the dying victim."""
    wizard, doomed = _holder(state, R.WIZARD), _doomed(state)
    return [seat for seat in _living(state) if seat not in (wizard, doomed)]


def _end_night_step(state: State, events: list[Event]) -> None:
    """The game master ends the step (the clock): the mafia's deadline rules, then the next."""
    step = state["night_step"]
    if step == MAFIA_STEP:
        _settle_victim(state, events)
    events.append(Event("night_step_ended", {"step": step}))
    _begin_night_step(state, events, state["night_steps"].index(step) + 1)


def _settle_victim(state: State, events: list[Event]) -> None:
    """The mafia's victim: the locked target, else the deadline rule (rules B.2.5)."""
    tonight = state["secret"]["night"]
    mafiosi = _mafiosi(state)
    if tonight["locked"] is not None:
        victim = tonight["locked"]
    else:
        victim, how, candidates = night_rules.deadline_victim(
            tonight["picks"], mafiosi, _mafia_targets(state),
            lambda among: _draw_lots(state, events, among, "victim", mafiosi))
        events.append(Event("victim_chosen", {"how": how, "candidates": candidates,
                                              "victim": victim}, mafiosi))
    _night(state, victim=victim)


# --------------------------------------------------------------------------------------------
# The night's actions, step by step (agent, doctor, mafia, wizard)
# --------------------------------------------------------------------------------------------

def _expect_actor(state: State, seat: int | None, step: str) -> None:
    """``seat`` is awake in this night step and has not acted yet."""
    _expect_phase(state, step)
    if seat is None or seat not in _actors(state):
        raise IllegalAction("not_your_turn", "You have nothing to do now")
    if state["step_done"]:
        if step == MAFIA_STEP:
            raise IllegalAction("locked", "The mafia has already agreed on tonight's victim")
        raise IllegalAction("already_acted", "You have already made tonight's choice")


def check(state: State, seat: int | None, action: Action) -> Result:
    """The agent points at one living player and sees his token (rules B.2 AGENT_PHASE)."""
    _expect_actor(state, seat, AGENT_STEP)
    target = _checked_target(state, action["target"], seat)
    role = state["secret"]["roles"][target]
    # GRANNA shows the printed token; Polish agent_sees=team shows gangster/policeman, the extra
    # police roles as policemen (rules C-Q6).
    seen = role if _rule(state, "agent_sees") == "card" or role == R.MAFIOSO else R.POLICEMAN
    record = {"round": state["round"], "agent": seat, "target": target, "role": seen}
    _secret(state, checks=state["secret"]["checks"] + [record])
    caught = _small_game(state) and role == R.MAFIOSO
    # Small-game rule: "Якщо трапиться, що Агент побачить Мафіозі, тоді Агента «вбито»".
    _night(state, check={"agent": seat, "target": target, "role": seen},
           caught=seat if caught else None)
    events = [Event("checked", {**record, "caught": caught}, [seat])]
    _step_done(state)
    return Result(state, events)


def skip_check(state: State, seat: int | None, action: Action) -> Result:
    """Polish: the agent "may" point at someone (rules C-Q5); GRANNA: he must."""
    _expect_actor(state, seat, AGENT_STEP)
    if not _rule(state, "agent_check_optional"):
        raise IllegalAction("check_required", "The agent must check a player")
    return _pass(state, seat, "check_skipped")


def heal(state: State, seat: int | None, action: Action) -> Result:
    """The doctor picks one person to heal tonight (rules C.3.1)."""
    _expect_actor(state, seat, DOCTOR_STEP)
    self_seat = None if _rule(state, "doctor_self_heal") else seat
    target = _checked_target(state, action["target"], self_seat, "no_self_heal")
    record = {"round": state["round"], "doctor": seat, "target": target}
    _secret(state, heals=state["secret"]["heals"] + [record])
    _night(state, heal={"doctor": seat, "target": target})
    _step_done(state)
    return Result(state, [Event("healed", record, [seat])])


def _pass(state: State, seat: int, kind: str) -> Result:
    """The step's player (checked by the caller) does nothing tonight; only he is told."""
    _step_done(state)
    return Result(state, [Event(kind, {"round": state["round"]}, [seat])])


def skip_heal(state: State, seat: int | None, action: Action) -> Result:
    _expect_actor(state, seat, DOCTOR_STEP)
    return _pass(state, seat, "heal_skipped")


def pick_victim(state: State, seat: int | None, action: Action) -> Result:
    """A mafioso points at tonight's victim; the others see it live; all the same → locked."""
    _expect_actor(state, seat, MAFIA_STEP)
    target = _checked_target(state, action["target"])
    if target in _mafiosi(state):
        raise IllegalAction("fellow_mafioso", "Pick someone who is not in the mafia")
    if target not in _mafia_targets(state):
        if target in C.badges(state, "untouchable") + C.badges(state, "safe"):
            raise IllegalAction("protected", "A card protects that player tonight")
        raise IllegalAction("target_dead", "Pick a player still in the game")
    mafiosi = _mafiosi(state)
    picks = list(state["secret"]["night"]["picks"])
    picks[seat] = target
    _night(state, picks=picks)
    events = [Event("picked", {"seat": seat, "target": target}, mafiosi)]
    agreed = night_rules.unanimous(picks, mafiosi)
    if agreed is not None:
        _night(state, locked=agreed)
        events.append(Event("victim_chosen", {"how": night_rules.UNANIMOUS,
                                              "candidates": [agreed], "victim": agreed}, mafiosi))
        _step_done(state)
    return Result(state, events)


def cast_swap(state: State, seat: int | None, action: Action) -> Result:
    """The wizard points at two people whose cards are swapped (rules C.3.2)."""
    _expect_actor(state, seat, WIZARD_STEP)
    first, second = action["targets"]
    for target in (first, second):
        _checked_target(state, target, seat, "wizard_self")
    if first == second:
        raise IllegalAction("same_target", "Pick two different players")
    if _doomed(state) in (first, second):
        raise IllegalAction("target_dead", "Pick a player still in the game")
    swap = {"wizard": seat, "targets": sorted([first, second])}
    _night(state, swap=swap)
    _step_done(state)
    return Result(state, [Event("swap_cast", {"round": state["round"], **swap}, [seat])])


def skip_swap(state: State, seat: int | None, action: Action) -> Result:
    _expect_actor(state, seat, WIZARD_STEP)
    return _pass(state, seat, "swap_skipped")


# --------------------------------------------------------------------------------------------
# Dawn (rules B.2.3, B.3.1, C.3.1, C.3.2)
# --------------------------------------------------------------------------------------------

def _dawn(state: State, events: list[Event]) -> None:
    """Everyone opens their eyes: the spell, the caught agent, the victim — in that order."""
    state["narration"] = []
    state["night_step"], state["step_done"] = None, False
    stop_clock(state)
    tonight = state["secret"]["night"]
    state["dawn"] = {"round": state["round"], "spell": False, "deaths": [], "saved": None}
    events.append(Event("dawn", {"round": state["round"]}))
    say(state, "dawn", round=state["round"])
    if tonight["swap"] is not None:
        _carry_out_swap(state, events)
    if tonight["caught"] is not None:
        seat = tonight["caught"]
        # "Агента «вбито» … Коли решта гравців відкриє очі, то дізнається що Агента було
        # «вбито»" (rules B.3.1); his check target stays secret.
        if _eliminate(state, events, seat, SMALL_RULE_AGENT, "agent_caught", at_dawn=True):
            return
    victim, doomed = tonight["victim"], _doomed(state)
    if victim is not None and doomed is None:
        # "Jeśli będzie to osoba wskazana przez mafię, nie zostanie ona wyeliminowana" (C.3.1)
        announce = _rule(state, "announce_saved")
        events.append(Event("saved", {"seat": victim}, PUBLIC if announce else NOBODY))
        if announce:
            state["dawn"] = {**state["dawn"], "saved": victim}
            say(state, "saved", seat=victim)
    if doomed is not None:
        _night_victim_named(state, events, doomed)
        return
    if not state["dawn"]["deaths"]:
        say(state, "nobody_died")
    _after_dawn(state, events)


def _after_dawn(state: State, events: list[Event]) -> None:
    """The day begins: the start-of-day window (Arrest, Capture; rules B.3.4) "after dawn
    resolution and any last shots", then the discussion."""
    if _window_wanted(state, C.DAY_START):
        _open_window(state, events, C.DAY_START, None, TALK)
    else:
        _begin_discussion(state, events)


def _night_victim_named(state: State, events: list[Event], seat: int) -> None:
    """The game master names the night's victim ("Завжди після фази Мафії Магістр гри повинен
    стати за гравцем … Саме в цей момент гравець має час на реакцію"): with a Vest or a
    Bandage in play, "The Mafia struck at …" and the dawn's reaction window (rules B.3.4,
    windows.py); else the elimination at once."""
    if C.extended(state):
        state["cards"] = {**state["cards"], "struck": seat}
    if _window_wanted(state, C.DAWN):
        events.append(Event("struck", {"seat": seat, "round": state["round"]}))
        say(state, "struck", seat=seat)
        _open_window(state, events, C.DAWN, seat, AFTER_DAWN)
        return
    _kill_at_dawn(state, events, seat)


def _kill_at_dawn(state: State, events: list[Event], seat: int) -> None:
    if _eliminate(state, events, seat, NIGHT, "killed", at_dawn=True):
        return
    if not _offer_last_shot(state, events, seat, NIGHT, then=AFTER_DAWN):
        _after_dawn(state, events)


def _carry_out_swap(state: State, events: list[Event]) -> None:
    """The wizard's spell (rules C.3.2): the two cards change places — everything on them,
    the judge's used flag included — and the whole city looks at its cards."""
    tonight = state["secret"]["night"]
    first, second = tonight["swap"]["targets"]
    roles = list(state["secret"]["roles"])
    roles[first], roles[second] = roles[second], roles[first]
    record = {"round": state["round"], "wizard": tonight["swap"]["wizard"],
              "targets": [first, second]}
    _secret(state, roles=roles, swap=record)
    state["spell_used"] = True
    state["dawn"] = {**state["dawn"], "spell": True}
    events.append(Event("swap_carried_out", dict(record), NOBODY))
    events.append(Event("spell_cast", {"round": state["round"]}))
    events += [_role_event(state, first), _role_event(state, second)]
    say(state, "spell_cast")
