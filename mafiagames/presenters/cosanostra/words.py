"""Cosa Nostra: the words — every translated table (families, ranks, squares, the 32 cards and
what they do, narration and history lines, refusals, options) and the sentences made of them.
One place for each word; the context (``context.py``), the forms (``forms.py``) and the story
(``story.py``) use them.  Seats become names and colours here, amounts "D" (donaro).

The game is a faithful-in-spirit adaptation of the board game "Questa guerra è cosa nostra":
where the rulebook is silent the rules are ours (docs/rules/cosanostra.md marks them [P]); the
lobby says so in the title, the options' help and the first slide of "How to play".
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from engines.cosanostra import board

from .. import COMMON_ERRORS, LESSON_TITLES, fill, moment_part, seconds, slide, table_words

TITLES = {"cosanostra": gettext_lazy("Cosa Nostra (our adaptation)")}

HOST_MOVES: dict = {}   # the host has only the common proxy and removal (docs/rules/cosanostra.md §12)

# The public choices the host may make for an absent family (engines/cosanostra/moves.py
# ``public_choice``): roll, move what was rolled, say no, end the turn.
PROXY_LABELS = {"roll": gettext_lazy("Roll the die"), "decline": gettext_lazy("Say no"),
                "end_turn": gettext_lazy("End the turn")}


def proxy_label(move: dict, names: list[str]) -> str:
    if move["type"] == "move":
        return ngettext("Move %(n)s square", "Move %(n)s squares", move["steps"]) % {"n": move["steps"]}
    return str(PROXY_LABELS.get(move["type"], ""))

# --- families, ranks, squares (rules §2–§5) ------------------------------------------------------

COLOUR_NAMES = {
    "BLUE": pgettext_lazy("family colour", "Blue"), "GREEN": pgettext_lazy("family colour", "Green"),
    "YELLOW": pgettext_lazy("family colour", "Yellow"), "PURPLE": pgettext_lazy("family colour", "Purple"),
    "WHITE": pgettext_lazy("colour die", "White"), "BLACK": pgettext_lazy("colour die", "Black"),
}

RANK_NAMES = {"MAFIOSO": pgettext_lazy("Cosa Nostra rank", "Mafioso"), "CAPIREGIME": gettext_lazy("Capiregime"), "CAPO": gettext_lazy("Capo")}

# How far each rank may bend the roll (rules §5), in words for the phone and the lesson.
RANK_HELP = {
    "MAFIOSO": gettext_lazy("0–2 tiles: you may move up to 2 more or fewer than you rolled."),
    "CAPIREGIME": gettext_lazy("3–6 tiles: you may move 1 more or fewer than you rolled."),
    "CAPO": gettext_lazy("7 tiles or more: you move exactly what you rolled."),
}

SQUARE_KINDS = {
    "START": pgettext_lazy("square", "Start"), "BANK": pgettext_lazy("square", "Bank"),
    "FORTUNA": pgettext_lazy("square", "Fortuna"), "POLICE": pgettext_lazy("square", "Police station"),
    "ARMS": pgettext_lazy("square", "Arms shop"), "SPICL": pgettext_lazy("square", "Špicl"),
    "SPORTS": pgettext_lazy("square", "Sports club"), "CASINO": pgettext_lazy("square", "Casino"),
    "PROBLEM": pgettext_lazy("square", "Problem"), "BIG_CITY": pgettext_lazy("square", "Big city"),
    "YAKUZA": pgettext_lazy("square", "Yakuza"), "FEDERAL": pgettext_lazy("square", "Federal agent"),
}

# What stopping on each square does (rules §6), short: the lesson's tiles and the phone's "?".
SQUARE_HELP = {
    "START": gettext_lazy("Pass or stop here: +4000 D."),
    "BANK": gettext_lazy("Neutral: collect by rank. Yours: +3000 D. Another family's: pay its owner."),
    "FORTUNA": gettext_lazy("Roll the die: odd draws a black card, even a red one."),
    "POLICE": gettext_lazy("Neutral: pay a bribe by rank. Controlled by another family: pay it double."),
    "ARMS": gettext_lazy("Neutral: collect by rank. Yours: +5000 D. Another family's: pay its owner."),
    "SPICL": gettext_lazy("You may pay 400 D for a red card."),
    "SPORTS": gettext_lazy("You may hire one picciotto for 1000 D."),
    "CASINO": gettext_lazy("Neutral: collect by rank. Yours: +2000 D. Another family's: pay its owner."),
    "PROBLEM": gettext_lazy("Draw a black card."),
    "BIG_CITY": gettext_lazy("Collect 200 D for each of your tiles."),
    "YAKUZA": gettext_lazy("You may pay 2000 D to remove any picciotto from the city."),
    "FEDERAL": gettext_lazy("Federal ban: no buying, hiring or moving picciotti for this and 3 more turns."),
}

GATE_NAMES = {"N": pgettext_lazy("gate", "North"), "E": pgettext_lazy("gate", "East"),
              "S": pgettext_lazy("gate", "South"), "W": pgettext_lazy("gate", "West")}


def colour_name(seat: int) -> str:
    return str(COLOUR_NAMES[board.COLOURS[seat]])


def family(seat: int | None, names: list[str]) -> str:
    """A family as the table calls it: its player and colour ("Alice (Blue)"); the bank for None."""
    if seat is None:
        return str(_("the bank"))
    return _("%(name)s (%(colour)s)") % {"name": names[seat], "colour": colour_name(seat)}


def square_name(square: int) -> str:
    """A ring square in words: its kind, and its number for a business ("Bank 2")."""
    kind, business = board.RING[square]
    if business is None:
        return str(SQUARE_KINDS[kind])
    return _("%(kind)s %(n)s") % {"kind": SQUARE_KINDS[kind], "n": business[1:]}


def money(amount: int | None) -> str:
    return "?" if amount is None else _("%(amount)s D") % {"amount": f"{amount:,}".replace(",", " ")}


def gate_or_cell(where) -> str:
    return str(_("the gate")) if where == "gate" else str(where)


# --- the cards (rules §11.3: our 24 + 24) ---------------------------------------------------------

CARD_NAMES = {
    "R01": gettext_lazy("Police dossier"), "R02": gettext_lazy("Bribed bank director"),
    "R03": gettext_lazy("Arms dealer on the payroll"), "R04": gettext_lazy("The bodyguard's betrayal"),
    "R05": gettext_lazy("Smuggled shipment"), "R06": gettext_lazy("Protection racket"),
    "R07": gettext_lazy("The laundromat"), "R08": gettext_lazy("Cousin from Palermo"),
    "R09": gettext_lazy("A councillor in your pocket"), "R10": gettext_lazy("Fast car"),
    "R11": gettext_lazy("Night run"), "R12": gettext_lazy("The lawyer"), "R13": gettext_lazy("Alibi"),
    "R14": gettext_lazy("Swiss account"), "R15": gettext_lazy("Yakuza contact"),
    "R16": gettext_lazy("Friend of the family"),
    "B01": gettext_lazy("Police raid"), "B02": gettext_lazy("The informer"), "B03": gettext_lazy("Internal affairs"),
    "B04": gettext_lazy("Feds on your tail"), "B05": gettext_lazy("Lost shipment"), "B06": gettext_lazy("Road works"),
    "B07": gettext_lazy("Turf war"), "B08": gettext_lazy("Funeral"), "B09": gettext_lazy("Hush money"),
    "B10": gettext_lazy("Under surveillance"), "B11": gettext_lazy("Loan shark"), "B12": gettext_lazy("Arson"),
    "B13": gettext_lazy("Summoned for questioning"), "B14": gettext_lazy("Vendetta"),
    "B15": gettext_lazy("The councillor's cut"), "B16": gettext_lazy("Closed by the inspector"),
}

CARD_HELP = {
    "R01": gettext_lazy("Take control of a neutral police station; the card lies there."),
    "R02": gettext_lazy("Take a neutral bank free, or another family's for 4000 D; the card protects it."),
    "R03": gettext_lazy("Take a neutral arms shop free, or another family's for 6000 D; the card protects it."),
    "R04": gettext_lazy("Take a protected tile next to your territory: its picciotto leaves, no tax."),
    "R05": gettext_lazy("Collect 3000 D from the bank."),
    "R06": gettext_lazy("Every other family pays you 500 D."),
    "R07": gettext_lazy("Collect 1000 D per business you control (at most 5000 D)."),
    "R08": gettext_lazy("A free picciotto on your gate."),
    "R09": gettext_lazy("A free tile on an empty cell next to your territory."),
    "R10": gettext_lazy("Before rolling: do not roll, move 1 to 6 squares."),
    "R11": gettext_lazy("One picciotto may take up to 3 steps this turn."),
    "R12": gettext_lazy("Armed: cancels the next black card you draw."),
    "R13": gettext_lazy("Armed: you pay nothing at a police station once."),
    "R14": gettext_lazy("Armed: you pay nothing when the city tax strikes."),
    "R15": gettext_lazy("Remove any one picciotto from the city, free."),
    "R16": gettext_lazy("Another family's business becomes friendly to you: you pay nothing there."),
    "B01": gettext_lazy("Pay the bank 1000 / 2000 / 3000 D by rank."),
    "B02": gettext_lazy("One of your picciotti goes back to the supply; none: pay 1000 D."),
    "B03": gettext_lazy("Lose a police station you control; none: pay 1000 D."),
    "B04": gettext_lazy("Federal ban, from now."),
    "B05": gettext_lazy("Pay the bank 2000 D."),
    "B06": gettext_lazy("Pay the bank 200 D per tile you own."),
    "B07": gettext_lazy("Lose an unprotected tile of yours that borders another family's."),
    "B08": gettext_lazy("Pay the bank 500 D per picciotto you have."),
    "B09": gettext_lazy("Pay every other family 500 D."),
    "B10": gettext_lazy("Pay double at police stations until you pass Start."),
    "B11": gettext_lazy("Pay the bank 500 D at the start of each of your next 3 turns."),
    "B12": gettext_lazy("A business of yours without a card becomes neutral; none: pay 1000 D."),
    "B13": gettext_lazy("Go forward to the next police station and pay there."),
    "B14": gettext_lazy("Roll the colour die: pay 1000 D to that family, the bank, or one you pick."),
    "B15": gettext_lazy("Pay 1000 D to the family with the most tiles (or the bank if that is you)."),
    "B16": gettext_lazy("A business of yours is closed until you pass Start; none: pay 500 D."),
}

# Red cards a phone arms to fire by themselves (rules §11.2 REACTION).
REACTIONS = frozenset({"R12", "R13", "R14"})

TIMING = {
    "ACTION": gettext_lazy("Play it in your own turn, after you moved."),
    "BEFORE_ROLL": gettext_lazy("Play it instead of rolling."),
    "REACTION": gettext_lazy("Arm it: it fires by itself when its moment comes."),
}


def card_timing(code: str) -> str:
    if code in REACTIONS:
        return "REACTION"
    return "BEFORE_ROLL" if code == "R10" else "ACTION"


def card_name(code: str) -> str:
    return str(CARD_NAMES.get(code, ""))


def card_code(card_id: str) -> str:
    """A card instance's code ("R05-1" → "R05", interface)."""
    return card_id.split("-")[0]


# --- phases --------------------------------------------------------------------------------------

PHASE_TITLES = {
    "gates": gettext_lazy("Choosing the gates"),
    "before_roll": gettext_lazy("Time to roll"),
    "choose_move": gettext_lazy("Where to stop"),
    "offer": gettext_lazy("An offer on the square"),
    "choose": gettext_lazy("A black card asks a choice"),
    "action": gettext_lazy("Buy, hire, move, attack"),
    "liquidation": gettext_lazy("Paying a debt"),
    "over": gettext_lazy("Game over"),
}

OFFER_ASKS = {
    "SPICL": gettext_lazy("Pay 400 D for a red card?"),
    "SPORTS": gettext_lazy("Hire a picciotto for 1000 D? It waits on your gate."),
    "YAKUZA": gettext_lazy("Pay 2000 D to remove a picciotto? Tap its cell."),
}

CHOOSE_ASKS = {
    "B02": gettext_lazy("Which of your picciotti goes back to the supply?"),
    "B03": gettext_lazy("Which police station do you lose?"),
    "B07": gettext_lazy("Which tile do you lose?"),
    "B12": gettext_lazy("Which business burns?"),
    "B14": gettext_lazy("White: whom do you pay 1000 D?"),
    "B16": gettext_lazy("Which business is closed?"),
}

REASONS = {
    "four_sides": gettext_lazy("Their territory links all four sides of the city."),
    "full_map": gettext_lazy("The city is full: the most tiles win."),
    "bankruptcy": gettext_lazy("A family went bankrupt: the greatest power over the city wins."),
    "rounds": gettext_lazy("The last round is over: the most tiles win."),
}


# --- narration and history (what the engine says and keeps, in codes: interface, history) ------

# Params naming a seat become its family ("Alice (Blue)"); a square its name; a card its name;
# an amount its "D"; a colour (the colour die) its word.
LINES = {
    # setup and turns (rules §4, §12)
    "start_player": gettext_lazy("The colour die picks who starts: %(seat)s."),
    "gate": gettext_lazy("%(seat)s takes the %(gate)s gate."),
    "start_tile": gettext_lazy("%(seat)s places a starting tile on %(cell)s."),
    "turn": gettext_lazy("Round %(round)s. Now playing: %(seat)s."),
    "rolled": gettext_lazy("%(seat)s rolls %(die)s and may move %(allowed)s."),
    "move": gettext_lazy("%(seat)s moves %(steps)s to %(to)s."),
    # money (rules §6, §9); "pay" has lines of its own (PAY_LINES)
    "liquidation": gettext_lazy("%(seat)s owes %(owed)s and must sell or deal."),
    "city_sale": gettext_lazy("%(seat)s sells %(cell)s to the city for 1000 D."),
    "city_tax": gettext_lazy("The bank is empty: the city tax takes half of everyone's cash!"),
    "bankruptcy": gettext_lazy("%(seat)s is bankrupt!"),
    # the ring (rules §6, §10)
    "fortuna": gettext_lazy("Fortuna: %(seat)s rolls %(die)s."),
    "federal_ban": gettext_lazy("Federal ban: %(seat)s!"),
    "hire": gettext_lazy("%(seat)s hires a picciotto."),
    "yakuza": gettext_lazy("The Yakuza removes the picciotto on %(cell)s (owner: %(owner)s)."),
    # the city (rules §7, §8)
    "buy_tile": gettext_lazy("%(seat)s buys %(cell)s."),
    "buy_business": gettext_lazy("%(seat)s buys %(square)s."),
    "step": gettext_lazy("%(seat)s: a picciotto steps %(from)s → %(to)s."),
    "closed": gettext_lazy("%(square)s is closed by the inspector."),
    "picciotto_lost": gettext_lazy("%(seat)s loses the picciotto on %(at)s."),
    "business_lost": gettext_lazy("%(seat)s loses %(square)s."),
    "tile_lost": gettext_lazy("%(seat)s loses the tile %(cell)s."),
    # cards (rules §11)
    "drew_red": gettext_lazy("%(seat)s draws a red card."),
    "drew_black": gettext_lazy("%(seat)s draws a black card: %(card)s."),
    "card_played": gettext_lazy("%(seat)s plays %(card)s."),
    "colour_rolled": gettext_lazy("The colour die shows %(colour)s."),
    "deck_empty": gettext_lazy("The deck is empty: no card."),
    # deals (rules §13): their contents reach only the TV once done
    "trade_sent": gettext_lazy("An offer: %(from)s → %(to)s."),
    "trade_done": gettext_lazy("Deal: %(from)s gives %(give)s; %(to)s gives %(take)s."),
    "trade_declined": gettext_lazy("Offer %(from)s → %(to)s: declined."),
    "trade_withdrawn": gettext_lazy("Offer %(from)s → %(to)s: withdrawn."),
    "trade_expired": gettext_lazy("Offer %(from)s → %(to)s: expired."),
    # the end (rules §15)
    "game_over": gettext_lazy("The game is over: %(winners)s. %(end)s"),
    "winner": gettext_lazy("%(winners)s wins!"),
}

SEAT_PARAMS = {"seat", "by", "owner"}
# "from" and "to" are families in payments and deals, ring squares in a figure's move, and a
# cell or the gate in a picciotto's step.
FAMILY_ENDS = {"pay", "trade_sent", "trade_done", "trade_declined", "trade_withdrawn", "trade_expired"}


def goods_words(goods: dict | None) -> str:
    """What one side of a deal hands over, in words: cash, tiles, businesses, red cards (a
    count: rules §14, a completed deal shows no card's text)."""
    goods = goods or {}
    parts = []
    if goods.get("cash"):
        parts.append(money(goods["cash"]))
    parts += [str(cell) for cell in goods.get("tiles") or []]
    parts += [square_name(int(square)) for square in goods.get("businesses") or []]
    cards = goods.get("red_cards") or []
    count = cards if isinstance(cards, int) else len(cards)
    if count:
        parts.append(ngettext("%(n)s red card", "%(n)s red cards", count) % {"n": count})
    return ", ".join(parts) or str(_("nothing"))


def _params(code: str, raw: dict, names: list[str]) -> dict:
    params = {}
    for key, value in raw.items():
        if key in ("from", "to"):
            params[key] = (family(value, names) if code in FAMILY_ENDS else
                           square_name(value) if isinstance(value, int) else gate_or_cell(value))
        elif key in SEAT_PARAMS and (value is None or isinstance(value, int)):
            params[key] = family(value, names)
        elif key == "square" and isinstance(value, int):
            params[key] = square_name(value)
        elif key == "card" and isinstance(value, str):
            params[key] = card_name(card_code(value))
        elif key in ("amount", "owed", "price") and isinstance(value, int):
            params[key] = money(value)
        elif key in ("colour", "gate"):
            params[key] = str(COLOUR_NAMES.get(value, GATE_NAMES.get(value, value)))
        elif key in ("give", "take"):
            params[key] = goods_words(value)
        elif key == "winners" and isinstance(value, list):
            params[key] = ", ".join(family(seat, names) for seat in value)
        elif key == "at" and isinstance(value, str):
            params[key] = gate_or_cell(value)
        elif key == "allowed" and isinstance(value, list):
            params[key] = "–".join(str(n) for n in value) if value[0] != value[-1] else str(value[0])
        elif key == "end":
            params[key] = str(REASONS.get(value, ""))
        else:
            params[key] = value
    return params


# Why money moved ("pay" items, rules §6 and §9): a square's kind, a card's code, or one of these.
WHY = {
    "tile": gettext_lazy("a tile"), "attack": gettext_lazy("an attack"), "hire": gettext_lazy("a picciotto"),
    "business": gettext_lazy("a business"), "spicl": SQUARE_KINDS["SPICL"], "yakuza": SQUARE_KINDS["YAKUZA"],
    "sports": SQUARE_KINDS["SPORTS"], "start": SQUARE_KINDS["START"], "loan_shark": gettext_lazy("the loan shark"),
    "bankruptcy": gettext_lazy("bankruptcy"), "city_sale": gettext_lazy("a sale to the city"),
    "trade": gettext_lazy("a deal"), "city_tax": gettext_lazy("the city tax"),
}

PAY_LINES = {
    "bank_pays": gettext_lazy("The bank → %(to)s: %(amount)s (%(why)s)."),
    "to_bank": gettext_lazy("%(from)s → the bank: %(amount)s (%(why)s)."),
    "to_family": gettext_lazy("%(from)s → %(to)s: %(amount)s (%(why)s)."),
}


def why_words(why) -> str:
    """The reason of a payment: a ring square's kind, a card's name, or our word for it."""
    if not isinstance(why, str):
        return ""
    if why in SQUARE_KINDS:
        return str(SQUARE_KINDS[why])
    if card_code(why) in CARD_NAMES:
        return card_name(card_code(why))
    return str(WHY.get(why, WHY.get(why.lower(), "")))


def _pay_line(params: dict, names: list[str]) -> str:
    """A payment: from the bank, to the bank, or between two families (rules §9)."""
    payer, payee = params.get("from"), params.get("to")
    line = PAY_LINES["bank_pays"] if payer is None else PAY_LINES["to_bank"] if payee is None else PAY_LINES["to_family"]
    words = {"from": family(payer, names) if payer is not None else "", "to": family(payee, names) if payee is not None else "",
             "amount": money(params.get("amount")), "why": why_words(params.get("why")) or "—"}
    return fill(line, words)


def narrate(item: dict, names: list[str], view: dict) -> str:
    """One narration or history item in words; one the presenter has no line for is left out."""
    if item["code"] == "pay":
        return _pay_line(item.get("params", {}), names)
    return fill(LINES.get(item["code"]), _params(item["code"], item.get("params", {}), names))


def winners_text(winners: list[int], names: list[str]) -> str:
    if not winners:
        return str(_("Nobody wins."))
    return fill(LINES["winner"], {"winners": ", ".join(family(seat, names) for seat in winners)})


# --- refusals (interface: the §12 list in lower case, plus the web's own) -------------------------

ERRORS = {
    **COMMON_ERRORS,
    "not_adjacent": gettext_lazy("That cell is not next to your territory."),
    "occupied": gettext_lazy("That cell is taken."),
    "protected": gettext_lazy("A picciotto protects that tile."),
    "fed_ban": gettext_lazy("The federal ban forbids that now."),
    "no_cash": gettext_lazy("Not enough cash."),
    "no_piece": gettext_lazy("You have no tile left to place."),
    "no_marker": gettext_lazy("You have no marker left for another business."),
    "no_token": gettext_lazy("No picciotto left in the supply."),
    "already_stepped": gettext_lazy("That picciotto has already stepped this turn."),
    "protected_by_card": gettext_lazy("A card lying there protects that business."),
    "bad_cell": gettext_lazy("There is no such cell."),
    "bad_square": gettext_lazy("There is no such square."),
    "not_yours": gettext_lazy("That is not yours."),
    "not_allowed_now": gettext_lazy("That is not possible right now."),
    "no_trade": gettext_lazy("There is no offer to answer."),
    "trade_invalid": gettext_lazy("That deal is not possible: check what each side gives."),
    "out_of_range": gettext_lazy("You cannot move that far."),
    "no_card": gettext_lazy("You do not hold that card."),
    "bad_trade": gettext_lazy("That offer was malformed: name what each side gives."),
    "game_master_only": gettext_lazy("Only the game master's clock does that."),
    "no_clock": gettext_lazy("That is not possible right now."),
}


# --- the options (rules §16; the interface's keys) -------------------------------------------------

OPTION_LABELS = {
    "capo_diagonal": (gettext_lazy("A capo's picciotti step diagonally"),
                      gettext_lazy("Our adaptation: the rulebook says only that the capo's hitman may go "
                                   "across the corner; we let him for every step, capture and attack.")),
    "city_sale_piece": (gettext_lazy("A tile sold to the city"),
                        gettext_lazy("The rulebook says such pieces leave the game. Our adaptation can send them "
                                     "back to the family's supply instead, so the four sides stay reachable.")),
    "bankruptcy_ends_game": (gettext_lazy("A bankruptcy ends the game"),
                             gettext_lazy("As the rulebook: the strongest family in the city wins then. Off (our "
                                          "rule): the bankrupt family leaves and play goes on.")),
    "max_rounds": (gettext_lazy("Round limit"),
                   gettext_lazy("Our rule: after this many rounds the family with the most tiles wins.")),
    "fortuna_uses_colour_die": (gettext_lazy("Fortuna rolls the colour die"),
                                gettext_lazy("Our harsher variant: only white or your own colour draws a red "
                                             "card there.")),
    "hidden_cash": (gettext_lazy("Hidden cash"),
                    gettext_lazy("Our variant: each family's cash shows only on its own phone.")),
    "turn_seconds": (gettext_lazy("Time for a turn's actions"),
                     gettext_lazy("Our rule, so the evening never stalls: then the turn ends by itself.")),
}

OPTION_CHOICES = {
    "capo_diagonal": {"all_steps": gettext_lazy("for every step"), "off": gettext_lazy("never")},
    "city_sale_piece": {"to_supply": gettext_lazy("back to the supply"),
                        "out_of_game": gettext_lazy("out of the game")},
    "max_rounds": {"off": gettext_lazy("no limit"), **{n: n for n in ("10", "20", "40", "70")}},
    "turn_seconds": {"off": gettext_lazy("no clock"), **seconds("60", "120", "180")},
}

# The host's settings fold the readings of unclear rules and the variants under "Advanced": the
# defaults are the rulebook's (or our proposal where it is silent), and a TV has room for two
# options with their help lines beside the seating.
ADVANCED_OPTIONS = frozenset({"capo_diagonal", "city_sale_piece", "fortuna_uses_colour_die", "hidden_cash",
                              "turn_seconds"})


# --- the evening's scoreboard and statistics -----------------------------------------------------

# The engine's outcome (engines/cosanostra/engine.py ``outcome``, ``roles``): one family wins, or
# several share the victory (rules §15 tie-breaks); every seat plays a family.
SIDES = {"family": gettext_lazy("One family"), "shared": gettext_lazy("Families sharing the city")}
ROLES = {"family": gettext_lazy("A family")}


side_words = table_words(SIDES, "How a game was won, in words (the evening's scoreboard).")
role_words = table_words(ROLES, "A seat's role in words (the admin's statistics).")
reason_words = table_words(REASONS, "How a game ended, in words (the admin's games).")


def role_text(view: dict) -> str:
    """A seat's family in words (the host's list at the end)."""
    me = view.get("me") or {}
    seat = me.get("seat")
    return colour_name(seat) if isinstance(seat, int) else ""


# --- "How to play" (rules §0–§15, in the game's own words) --------------------------------------

LESSON = {
    "goal": gettext_lazy("Link all four sides"),
    "goal_how": gettext_lazy("Each family grows its tiles in the 7×7 city. The first whose connected tiles touch "
                             "the north, east, south and west edges wins at once."),
    "adaptation": gettext_lazy("A faithful-in-spirit adaptation of the board game “Questa guerra è cosa nostra”: "
                               "the board's layout, the cards and the options marked “our” are our rules."),
    "turn": gettext_lazy("Your turn"),
    "turn_how": gettext_lazy("Roll the die, then pick where to stop within the range your rank allows. "
                             "The square acts, then you may buy, hire and attack, and end your turn."),
    "ring": gettext_lazy("The ring"),
    "city": gettext_lazy("The city"),
    "buy": gettext_lazy("Buy a tile"),
    "buy_how": gettext_lazy("3000 D: an empty cell next to your territory (your tiles and your gate)."),
    "hire": gettext_lazy("Hire a picciotto"),
    "hire_how": gettext_lazy("2000 D: he waits on your gate and steps one cell a turn."),
    "capture": pgettext_lazy("Cosa Nostra: a picciotto taking an empty cell", "Capture"),
    "capture_how": gettext_lazy("A picciotto stepping onto an empty cell takes it for you."),
    "attack": gettext_lazy("Attack"),
    "attack_how": gettext_lazy("3000 D: onto another family's tile without a picciotto; it becomes yours."),
    "protect": gettext_lazy("Protection"),
    "protect_how": gettext_lazy("A picciotto standing on your tile protects it from attacks."),
    "money": gettext_lazy("Money and debts"),
    "money_how": gettext_lazy("Debts are paid at once. Short of cash, sell tiles to the city for 1000 D each or "
                              "make a deal; with nothing left you are bankrupt."),
    "deal": gettext_lazy("Deals"),
    "deal_how": gettext_lazy("In your turn, or while you owe, offer another family cash, tiles, businesses or "
                             "red cards for theirs on your phone."),
    "cards": gettext_lazy("Red and black cards"),
    "cards_how": gettext_lazy("Red cards are yours, secret, on your phone. Black cards strike at once, face up."),
}


def how_to_play(ruleset: str, options: dict) -> list[dict]:
    """Six slides (the web layer adds the options in play): the goal, a turn and the ranks, the
    ring's squares, the city, money and deals, the cards."""
    kinds = ("START", "BANK", "ARMS", "CASINO", "POLICE", "FORTUNA", "PROBLEM", "SPICL", "SPORTS", "YAKUZA",
             "BIG_CITY", "FEDERAL")
    return [
        slide(LESSON["goal"], [LESSON["goal_how"], LESSON["adaptation"]]),
        slide(LESSON["turn"], [LESSON["turn_how"]], [(RANK_NAMES[r], RANK_HELP[r]) for r in RANK_NAMES]),
        slide(LESSON["ring"], tiles=[(SQUARE_KINDS[k], SQUARE_HELP[k]) for k in kinds[:6]]),
        slide(LESSON["ring"], tiles=[(SQUARE_KINDS[k], SQUARE_HELP[k]) for k in kinds[6:]]),
        slide(LESSON["city"], tiles=[(LESSON[k], LESSON[f"{k}_how"]) for k in ("buy", "hire", "capture", "attack",
                                                                             "protect")]),
        slide(LESSON["money"], [LESSON["money_how"], LESSON["deal_how"], LESSON["cards_how"]]),
    ]


# --- moments: the dice on the stage (engines/moments.py) ------------------------------------------

DIE = gettext_lazy("The die")


def moment_words(event: dict, names: list[str], view: dict) -> dict:
    """A roll as the stage shows it: who rolled, the die, where they may stop (rules §5)."""
    data = event.get("data") or {}
    seat = data.get("seat", data.get("by"))
    die = data.get("die")
    lo, hi = (data.get("allowed") or [die, die])[:2]
    who = family(seat, names) if isinstance(seat, int) else ""
    result = (_("Move %(lo)s to %(hi)s squares.") % {"lo": lo, "hi": hi} if lo != hi
              else _("Move %(n)s squares.") % {"n": lo})
    return moment_part("die", f"{DIE}: {who}" if who else DIE, [str(die)] if die is not None else [], result)
