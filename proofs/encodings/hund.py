"""Hund's trick rule in Z3, written from its clauses.

004, line 7: once every player has played, if a trump suit has been
designated and trumps were played, the highest trump wins (HUND-TRICK-1);
otherwise the highest card of the first card's suit (HUND-TRICK-2). Lines
11-15: a card showing the round's designated number hands its suit the next
effect at once, the first such card's suit getting Trump (HUND-DESIG-2),
which is trump "from now on" (HUND-POWER-1). Which cards of a suit made
trump in the middle of the trick count in that trick is dispute
HUND-D-TRUMPTIMING: all of them (``whole-trick``), those from the designating
card on (``from-card``), or none (``next-trick``).

The deck: five suits (HUND-FACT-1) of 6/6/8/10 cards for 2/3/4/5 players, or
9/9/12/15 with the custom option ``more-cards`` (HUND-OPT-1, line 41),
numbered from 1 (HUND-GAP-1) or from 0 (dispute HUND-D-VALUES). Two players
add a virtual third player (HUND-TWO-1), so a trick has one card per seat.

The trick is judged in a context: ``trump``, the suit already trump before
the trick (or None), and ``designation``, the round's designated number (or
None). Only Trump matters to the trick; when no suit is trump yet, the first
card in the trick showing the designated number makes its suit trump.

Card conservation (:func:`conservation_machine`): every card is dealt (HUND-GAP-2),
played to a trick, and the trick taken whole by its winner (HUND-COLLECT-1).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar, Protocol, cast

import z3

from tricklaw.model.cards import Card
from tricklaw.model.state import Game, RoundLog, State
from tricklaw.model.trick import TrickResult
from tricklaw.proofs.conservation import MACHINES, Machine, plays, seat_places, takes
from tricklaw.proofs.encodings import ENCODINGS
from tricklaw.proofs.game_end import Ending
from tricklaw.proofs.liveness import (
    LIVENESS,
    NAME,
    PLAY,
    SETS,
    GameLiveness,
    Lemma,
    Progress,
    Step,
    Vars,
    close_step,
    end_when_empty,
    in_play,
    next_seat,
    observed,
    play_step,
    seat_of,
    trick_names,
)
from tricklaw.proofs.plays import PLAYS, FollowLead
from tricklaw.proofs.quantities import (
    PLAY_ORDER,
    ROW_DISTINCT,
    TIES,
    CardQuantity,
    Frame,
    PlayerQuantity,
    RowQuantity,
    any_of,
    cards,
    cards_of_colour,
    per_round,
    places,
    play_order,
)
from tricklaw.proofs.solver import Tracked
from tricklaw.proofs.tricks import Case, TrickEncoding

SUITS = 5
"""Five suits (HUND-FACT-1)."""
SUIT_CARDS = MappingProxyType({2: 6, 3: 6, 4: 8, 5: 10})
"""players -> cards per suit: "instead of 6/6/8/10 in 2/3/4/5-player mode" (004 line 41,
HUND-OPT-1)."""
MORE_CARDS = MappingProxyType({2: 9, 3: 9, 4: 12, 5: 15})
"""players -> cards per suit with "Use more cards: 9/9/12/15" (004 line 41, HUND-OPT-1)."""
DESIGNATIONS = (1, 2, 3, 4, 5)
"""The normal designation cards, "1-5" (004 line 43, HUND-DESIG-1)."""


class _InContext(Protocol):
    """The Hund model's trick rule without the naming of powers."""

    def trick_in_context(
        self, game: Game, cards: Sequence[Card], context: Mapping[str, str] | None = None
    ) -> tuple[TrickResult, tuple[int, ...]]: ...


class HundTrick(TrickEncoding):
    """A Hund trick in its context (trump held before it, the designated number)."""

    ruleset = "hund"
    readings = ("trump-timing",)
    deck_readings = ("more-cards", "values")
    unencoded = MappingProxyType(
        {
            "designation-mode": "the designation sets of the custom option (HUND-OPT-2) are"
            " not encoded: the contexts are the drawn designated numbers 1-5 (HUND-DESIG-1)"
            " and the suits already trump"
        }
    )
    tie_rule = "trump before the lead suit; no tie possible within a suit"
    order_only = False
    """The designated number is compared by equality (HUND-DESIG-2): a value map that
    keeps the order can move a card onto or off the designated number."""
    hollow: ClassVar[Mapping[str, str]] = {
        "coverage": "the cases are 'trumps played' and 'otherwise' (HUND-TRICK-1/2): they "
        "cover every trick by their form",
        "tie-rule": "each suit holds each value once (HUND-FACT-1), and only cards of one suit "
        "compete: no tie can arise (ties-possible shows it)",
        "overlap": "before any suit is trump (the context with no trump and no designation), "
        "the trump case HUND-TRICK-1 applies to no trick",
    }

    def __init__(self, game: Game, context: Mapping[str, Any] | None = None) -> None:
        super().__init__(game, context)
        trump = self.context.get("trump")
        number = self.context.get("designation")
        self.prior_trump: int | None = None if trump is None else int(trump)
        self.designation: int | None = None if number is None else int(number)
        self.timing = str(self.options["trump-timing"])

    @classmethod
    def contexts(cls, game: Game) -> list[dict[str, int | None]]:
        """The contexts to check: no trump and no designation; each suit already trump;
        no trump yet, with each designated number 1-5."""
        return contexts(game)

    def deck_table(self) -> tuple[int, range, str]:
        """Five suits of 6/6/8/10 (``more-cards``: 9/9/12/15) cards for 2/3/4/5 players
        (HUND-OPT-1), numbered from 1 (HUND-GAP-1) or from 0 (HUND-D-VALUES)."""
        more = self.options["more-cards"] == "yes"
        count = (MORE_CARDS if more else SUIT_CARDS)[self.game.players]
        if self.options["values"] == "from-0":
            return SUITS, range(count), "HUND-D-VALUES"
        return SUITS, range(1, count + 1), "HUND-OPT-1" if more else "HUND-GAP-1"

    def fixed_colours(self) -> tuple[int, ...]:
        """The suit already trump before the trick (HUND-POWER-1), which renaming must keep."""
        return () if self.prior_trump is None else (self.prior_trump,)

    def designating(self) -> list[z3.BoolRef]:
        """Card ``i`` is the first in the trick showing the designated number, so it
        hands its suit Trump (HUND-DESIG-2, HUND-POWER-1); only when no suit is trump
        before the trick."""
        d = self.designation
        if self.prior_trump is not None or d is None:
            return [z3.BoolVal(False)] * self.size
        return [
            z3.And(self.value[i] == d, *[self.value[j] != d for j in range(i)])
            for i in range(self.size)
        ]

    def trumps(self) -> list[z3.BoolRef]:
        """The cards that count as trumps in this trick: of the suit trump before it
        (HUND-POWER-1: "from now on"), or of the suit made trump in it, as the
        ``trump-timing`` reading says (HUND-D-TRUMPTIMING)."""
        if self.prior_trump is not None:
            return [c == self.prior_trump for c in self.colour]
        first = self.designating()
        if self.timing == "next-trick":
            return [z3.BoolVal(False)] * self.size
        out = []
        for i in range(self.size):
            upto = i + 1 if self.timing == "from-card" else self.size
            same_suit = [z3.And(first[k], self.colour[i] == self.colour[k]) for k in range(upto)]
            out.append(z3.Or(*same_suit))
        return out

    def lead_suit(self) -> list[z3.BoolRef]:
        """The cards of the first card's suit (HUND-TRICK-2)."""
        return [c == self.colour[0] for c in self.colour]

    unasserted: ClassVar[Mapping[str, str]] = {
        "HUND-POWER-1": "it says which cards are trumps; the encoding applies it inside the "
        "HUND-TRICK-1 and HUND-TRICK-2 assertions (the trump suit of the trick context, "
        "trumps()), not as an assertion of its own",
    }

    def text_cases(self) -> list[Case]:
        """Trumps played: the highest trump (HUND-TRICK-1); "otherwise" the highest card
        of the first card's suit (HUND-TRICK-2)."""
        any_trump = z3.Or(*self.trumps())
        return [Case("HUND-TRICK-1", any_trump), Case("HUND-TRICK-2", z3.Not(any_trump))]

    def citations(self) -> Mapping[str, z3.BoolRef]:
        """The highest trump decides a trick with a trump in it (HUND-TRICK-1), the first
        card's suit one without (HUND-TRICK-2); the winner takes every card of either
        (HUND-COLLECT-1)."""
        any_trump = z3.Or(*self.trumps())
        return {
            "HUND-TRICK-1": any_trump,
            "HUND-TRICK-2": z3.Not(any_trump),
            "HUND-COLLECT-1": z3.BoolVal(True),
        }

    def resolution(self, outcome: Mapping[str, z3.ArithRef]) -> list[Tracked]:
        """The rule under the readings, each part tracked by its clause."""
        w = outcome["winner"]
        trumps = self.trumps()
        lead = self.lead_suit()
        any_trump = z3.Or(*trumps)
        # Which cards are trumps (HUND-POWER-1, HUND-DESIG-2, the HUND-D-TRUMPTIMING
        # reading) is stated inside the HUND-TRICK-1/2 assertions, through trumps().
        out: list[Tracked] = [
            Tracked(
                "HUND-TRICK-1",
                z3.Implies(any_trump, z3.And(self.is_one_of(w, trumps), self.no_higher(w, trumps))),
            ),
            Tracked(
                "HUND-TRICK-2",
                z3.Implies(
                    z3.Not(any_trump), z3.And(self.is_one_of(w, lead), self.no_higher(w, lead))
                ),
            ),
        ]
        return out

    def model_result(self, cards: Sequence[Card]) -> TrickResult:
        """The rule part of the model's ``judge_trick``
        (:meth:`~tricklaw.model.rulesets.hund.ruleset.Hund.trick_in_context`: the same
        code without naming the powers in the result's facts)."""
        ruleset = cast(_InContext, self.game.ruleset)
        result, _ = ruleset.trick_in_context(self.game, cards, self.model_context())
        return result

    def model_context(self) -> dict[str, str]:
        """The same context in the model's terms: ``powers`` (the trump suit's letter)
        and ``designation`` (the number)."""
        out: dict[str, str] = {}
        if self.prior_trump is not None:
            out["powers"] = self.game.ruleset.palette.letters[self.prior_trump]
        if self.designation is not None:
            out["designation"] = str(self.designation)
        return out

    def tie_possible(self) -> z3.BoolRef:
        """Two trumps, or two cards of the lead suit, of one value (impossible: one card
        per value in each suit)."""
        trumps = self.trumps()
        lead = self.lead_suit()
        return z3.Or(
            *[
                z3.And(z3.Or(z3.And(trumps[i], trumps[j]), z3.And(lead[i], lead[j])), same)
                for i in range(self.size)
                for j in range(i + 1, self.size)
                for same in [self.value[i] == self.value[j]]
            ]
        )

    def tie_winner(self, outcome: Mapping[str, z3.ArithRef]) -> z3.BoolRef:
        """A trump wins if any was played, else a card of the lead suit."""
        w = outcome["winner"]
        trumps = self.trumps()
        any_trump = z3.Or(*trumps)
        return z3.If(any_trump, self.is_one_of(w, trumps), self.is_one_of(w, self.lead_suit()))


def contexts(game: Game) -> list[dict[str, int | None]]:
    """The trick contexts to check for ``game``: no trump and no designation; each of
    the five suits trump before the trick; no trump yet and each designated number 1-5
    (HUND-DESIG-1)."""
    out: list[dict[str, int | None]] = [{"trump": None, "designation": None}]
    out += [{"trump": s, "designation": None} for s in range(SUITS)]
    out += [{"trump": None, "designation": d} for d in DESIGNATIONS]
    return out


def conservation_machine(ruleset: str, seats: int, clause: Mapping[str, str]) -> Machine:
    """Where Hund's cards can be and how they move: dealt to the hands (``deal``), played
    to the trick (``turn``), the trick taken whole by its winner (``collect``)."""
    hands, taken = seat_places("hand", seats), seat_places("taken", seats)
    moves = (*plays(seats, clause), *takes(seats, clause["collect"]))
    return Machine(ruleset, (*hands, "trick", *taken), hands, clause["deal"], moves)


class HundPlay(FollowLead):
    """What may be played in Hund (004): the start player plays any card (HUND-PLAY-1); the
    others play the suit of the trick's first card if they hold it, else any card
    (HUND-PLAY-2). The effects (trump and the rest) change who wins, not what may be
    played: the rule needs no trick context."""

    ruleset = "hund"
    trick_encoding = HundTrick
    readings = ("more-cards", "values")
    hold_clause = "HUND-PLAY-1"
    follow_clause = "HUND-PLAY-2"


ENCODINGS.register("hund", HundTrick)
MACHINES.register("hund", conservation_machine)


POWER_COUNT = 5
"""Five powers, so five designation sets (HUND-OPT-2) and five rounds (HUND-GAME-1)."""
ROUNDS = 5
"""Five rounds (HUND-GAME-1)."""


def _hand(game: Game) -> tuple[int, int]:
    """The cards of the deck (five suits, HUND-FACT-1, of 6/6/8/10 or 9/9/12/15 cards,
    HUND-OPT-1) and of each hand, all dealt evenly over the seats (HUND-GAP-2)."""
    more = game.options.text("more-cards") == "yes"
    deck = SUITS * (MORE_CARDS if more else SUIT_CARDS)[game.players]
    return deck, deck // game.seats


def _lemmas(game: Game) -> tuple[Lemma, ...]:
    """What the guards of Hund's machine stand for: every card dealt; a set left to
    choose; a face-up card for the virtual player; a designation card for each round."""
    deck, hand = _hand(game)
    seats = game.seats
    count = deck // SUITS

    def dealt() -> list[Tracked]:
        # Z3 does the arithmetic: the deck of five suits (HUND-FACT-1) of ``count`` cards
        # (HUND-OPT-1), the hand the most cards each seat can get (HUND-GAP-2).
        d, h = z3.Int("deck"), z3.Int("hand")
        return [
            Tracked("HUND-FACT-1", d == SUITS * count),
            Tracked("HUND-GAP-2", z3.And(h * seats <= d, d < (h + 1) * seats)),
        ]

    out = [
        Lemma(
            "every card dealt evenly",
            dealt,
            lambda: z3.Int("hand") * seats == z3.Int("deck"),
        )
    ]
    if game.options.text("designation-mode") == "sets":
        out.append(
            Lemma("a designation set left to choose", lambda: _sets(count), lambda: _free(count))
        )
    else:
        r = z3.Int("round")
        out.append(
            Lemma(
                "a designation card left for the round",
                lambda: [
                    Tracked("HUND-GAME-1", z3.And(r >= 0, r < ROUNDS)),
                ],
                lambda: len(DESIGNATIONS) - r >= 1,
            )
        )
    if game.players == 2:
        out.append(Lemma("a face-up card for the virtual player", lambda: _columns(hand), _shown))
    return tuple(out)


def _set_vars() -> tuple[list[z3.ArithRef], list[z3.ArithRef], z3.ArithRef]:
    """The suits and values of the sets chosen so far, and how many there are (made in
    the current Z3 context, as verify runs each unit in a fresh one). There are as many
    slots as sets in all, so that "fewer than five chosen" is a premise the proof rests
    on (HUND-OPT-2), not a fact of the number of variables (which would make the lemma
    true by construction)."""
    suits = [z3.Int(f"set_suit{i}") for i in range(POWER_COUNT)]
    values = [z3.Int(f"set_value{i}") for i in range(POWER_COUNT)]
    return suits, values, z3.Int("sets_chosen")


def _sets(count: int) -> list[Tracked]:
    """Fewer than five sets chosen, each a suit and a value of the deck, the values
    distinct and (the stricter reading of HUND-D-SETSUITS, which covers the other) the
    suits distinct (HUND-OPT-2)."""
    suits, values, chosen_n = _set_vars()
    facts = [
        z3.And(s >= 0, s < SUITS, v >= 0, v < count) for s, v in zip(suits, values, strict=True)
    ]
    distinct = [
        z3.Implies(j < chosen_n, z3.And(suits[i] != suits[j], values[i] != values[j]))
        for j in range(POWER_COUNT)
        for i in range(j)
    ]
    return [
        Tracked("HUND-OPT-2", z3.And(chosen_n >= 0, chosen_n < POWER_COUNT, *facts)),
        Tracked("HUND-D-SETSUITS", z3.And(*distinct)),
    ]


def _free(count: int) -> z3.BoolRef:
    """A value no chosen set uses, and a suit none uses: together a set to choose."""

    suits, values, chosen_n = _set_vars()

    def unused(chosen: list[z3.ArithRef], x: int) -> z3.BoolRef:
        return z3.And(*[z3.Implies(i < chosen_n, c != x) for i, c in enumerate(chosen)])

    return z3.And(
        z3.Or(*[unused(values, v) for v in range(count)]),
        z3.Or(*[unused(suits, s) for s in range(SUITS)]),
    )


def _column_vars() -> list[z3.ArithRef]:
    """How many columns hold two cards, a face-up card only, a face-down card only."""
    return list(z3.Ints("columns_both columns_up_only columns_down_only"))


def _columns(hand: int) -> list[Tracked]:
    """The virtual player's columns at a trick's start: as dealt, half the cards face down
    and half face up on them, the odd card either way (HUND-TWO-2, HUND-D-VIRTUALODD); or
    after a trick, every column without a face-up card turned up (HUND-TWO-6). It holds a
    card (its hand is the others', so the machine's invariant gives it one)."""
    both, up_only, down_only = _column_vars()
    shapes = []
    for downs in (hand - hand // 2, hand // 2):
        ups = hand - downs
        pairs = min(ups, downs)
        shapes.append(z3.And(pairs == both, ups - pairs == up_only, downs - pairs == down_only))
    return [
        Tracked("HUND-TWO-2", z3.And(both >= 0, up_only >= 0, down_only >= 0)),
        Tracked("HUND-D-VIRTUALODD", z3.Or(*shapes, down_only == 0)),
        Tracked("HUND-TWO-6", 2 * both + up_only + down_only >= 1),
    ]


def _shown() -> z3.BoolRef:
    """A face-up card to play (HUND-TWO-4/5)."""
    both, up_only, _down_only = _column_vars()
    return both + up_only >= 1


def progress(game: Game) -> Progress:
    """Hund's round as a progress machine: the cards dealt evenly (HUND-GAP-2); the Lead
    decider of the round before, if any, names the start player, any seat
    (HUND-POWER-5); with designation sets the players choose five sets in turn
    (HUND-OPT-2); then the cards played in turn (HUND-PLAY-1; the virtual player's by the
    rules, HUND-TWO-3), the winner leading next (HUND-COLLECT-1), until the leader's hand
    is empty."""
    seats, players, clause = game.seats, game.players, game.ruleset.clause
    _, hand = _hand(game)
    sets = game.options.text("designation-mode") == "sets"
    after_start = SETS if sets else PLAY

    def chooser(s: z3.ArithRef) -> z3.ArithRef:
        nxt = next_seat(s, seats)
        return z3.If(nxt >= players, next_seat(nxt, seats), nxt)

    named = z3.Int("named")

    def name(v: Vars) -> tuple[z3.BoolRef, dict[str, z3.ArithRef]]:
        return v["ph"] == NAME, {
            "lead": named,
            "cur": chooser(named) if sets else named,
            "ph": z3.IntVal(after_start),
        }

    def choose(v: Vars) -> tuple[z3.BoolRef, dict[str, z3.ArithRef]]:
        last = v["ch"] + 1 == POWER_COUNT
        return v["ph"] == SETS, {
            "ch": v["ch"] + 1,
            "ph": z3.If(last, PLAY, SETS),
            "cur": z3.If(last, v["lead"], chooser(v["cur"])),
        }

    def decide(v: Vars) -> z3.BoolRef:
        return z3.BoolVal(True)

    def player(v: Vars) -> z3.BoolRef:
        return z3.And(v["cur"] >= 0, v["cur"] < players)

    def waiting(v: Vars) -> z3.BoolRef:
        return z3.And(
            v["t"] == 0,
            v["over"] == 0,
            v["k"] >= 1,
            seat_of(v, "lead", seats),
            *[v[f"h{s}"] == v["k"] for s in range(seats)],
        )

    extra = POWER_COUNT if sets else 0

    def pending(v: Vars) -> z3.ArithRef:
        return z3.If(v["ph"] == NAME, 1 + extra, z3.If(v["ph"] == SETS, POWER_COUNT - v["ch"], 0))

    return Progress(
        game.ruleset.id,
        trick_names(seats, "ch"),
        clause["deal"],
        lambda v: z3.And(
            *[v[f"h{s}"] == hand for s in range(seats)],
            v["t"] == 0,
            v["k"] == hand,
            v["over"] == 0,
            v["ch"] == 0,
            seat_of(v, "lead", seats),
            z3.Or(
                z3.And(v["ph"] == NAME, player(v)),
                z3.And(v["ph"] == after_start, player(v) if sets else v["cur"] == v["lead"]),
            ),
        ),
        lambda v: z3.Or(
            z3.And(v["ph"] == NAME, waiting(v), player(v), v["ch"] == 0),
            z3.And(
                v["ph"] == SETS,
                sets,
                waiting(v),
                player(v),
                v["ch"] >= 0,
                v["ch"] < POWER_COUNT,
            ),
            z3.And(v["ph"] == PLAY, in_play(v, seats)),
        ),
        lambda v: v["over"] != 0,
        (
            Step(
                "the start player named",
                clause["lead"],
                decide,
                name,
                lambda v: z3.And(named >= 0, named < seats),
            ),
            *([Step("a designation set chosen", clause["sets"], decide, choose)] if sets else []),
            play_step(seats, players, clause["turn"], lambda v: v["ph"] == PLAY),
            close_step(seats, clause["collect"], end_when_empty(seats, lambda w: w)),
        ),
        lambda v: z3.Sum(*[v[f"h{s}"] for s in range(seats)]) + v["k"] + pending(v),
        lambda v: z3.Sum(*[v[f"h{s}"] for s in range(players)]) + pending(v),
        _lemmas(game),
        observe=observe,
    )


def observe(st: Any) -> dict[str, int]:
    """A model state as the machine's variables: naming the start player, choosing sets,
    or playing."""
    choosing = st.extra.choosing
    ph = NAME if choosing == "leader" else SETS if choosing == "sets" else PLAY
    return observed(st, ph, ch=len(st.extra.sets))


def ending(game: Game) -> Ending:
    """After five rounds (HUND-GAME-1)."""
    return Ending("HUND-GAME-1", lambda rounds, totals: rounds >= ROUNDS, ROUNDS)


LIVENESS.register("hund", GameLiveness(("designation-mode", "more-cards"), progress, (), ending))
PLAYS.register("hund", HundPlay)


# --- the quantities the clauses pick by (tricklaw.proofs.ties) ------------------------------

HUND_POWER, LEAD_POWER = 2, 4
"""The places of Hund (HUND-POWER-3) and Lead (HUND-POWER-5) among the five effects, in
the order they are handed out (HUND-DESIG-1)."""


TRUMPS = cards("trumps")
"""The trumps of the trick (HUND-TRICK-1)."""
LEAD_SUIT = cards("lead_suit")
"""The cards of the first card's suit (HUND-TRICK-2)."""


def _suit_counts(power: int, with_virtual: bool) -> Any:
    """How many cards of the suit holding effect ``power`` each seat took in a round (the
    virtual player's seat too when ``with_virtual``, else the players' only); None for a
    round in which no suit took that effect."""

    def count(game: Game, log: RoundLog) -> tuple[int, ...] | None:
        holders = dict(log.facts).get("powers") or ()
        if len(holders) <= power or holders[power] is None:
            return None
        suit = game.ruleset.palette.letters.index(holders[power])
        seats = game.seats if with_virtual else game.players
        return cards_of_colour(log.taken(game.seats), suit)[:seats]

    return count


def _hund_counts(game: Game, state: State[Any]) -> Any:
    """The Hund-suit counts compared by HUND-POWER-3: the virtual player's too unless
    ``virtual-hund=ignored`` (HUND-D-VIRTUALHUND)."""
    with_virtual = game.options["virtual-hund"] == "counts"
    return per_round(_suit_counts(HUND_POWER, with_virtual))(game, state)


def _showing(enc: TrickEncoding) -> list[z3.BoolRef]:
    """The cards of the trick showing the round's designated number (HUND-DESIG-2); none
    in a context with no designated number."""
    d = cast(HundTrick, enc).designation
    return [z3.BoolVal(False) if d is None else v == d for v in enc.value]


SHOWN_FIRST = (
    "HUND-DESIG-2 hands the effects out in the order of play: two cards showing the "
    "designated number never share a place in it, so no tie, by construction"
)


def _display(lead_only: bool) -> Any:
    """The virtual player's face-up row at its turn (two players): the columns as dealt or
    after a trick (HUND-TWO-2, HUND-D-VIRTUALODD, HUND-TWO-6), the shown cards in places
    0, 1, ... from the left, each of a suit; the trick's lead suit (-1: it leads). The
    candidates: the shown cards of the lead suit (``lead_only``, HUND-TWO-5), else the
    shown cards it may play (HUND-TWO-4: the lead suit if shown, else any; the follow
    duty read on the face-up row, as the model does)."""

    def frame(game: Game) -> Frame:
        _, hand = _hand(game)
        size = hand - hand // 2
        both, up_only, down_only = _column_vars()
        suits = [z3.Int(f"display_suit_{i}") for i in range(size)]
        lead = z3.Int("display_lead")
        shown = [both + up_only > i for i in range(size)]
        of_lead = [z3.And(shown[i], suits[i] == lead) for i in range(size)]
        premises = (
            *_columns(hand),
            Tracked("HUND-FACT-1", z3.And(*[z3.And(x >= 0, x < SUITS) for x in suits])),
            Tracked("HUND-PLAY-2", z3.And(lead >= -1, lead < SUITS)),
        )
        if lead_only:
            eligible = of_lead
            applies = z3.And(lead >= 0, z3.Or(*of_lead))
        else:
            free = z3.Or(lead < 0, z3.Not(z3.Or(*of_lead)))
            eligible = [z3.And(shown[i], z3.Or(suits[i] == lead, free)) for i in range(size)]
            applies = 2 * both + up_only + down_only >= 1  # its turn, a card in hand

        def decode(model: z3.ModelRef) -> dict[str, Any]:
            def val(x: z3.ArithRef) -> int:
                return int(model.eval(x, model_completion=True).as_long())

            count = val(both + up_only)
            return {"lead": val(lead), "shown": [val(x) for x in suits[:count]]}

        return Frame(premises, tuple(eligible), places(size), applies, decode)

    return frame


TIES.register(
    "hund",
    MappingProxyType(
        {
            "play-order": PLAY_ORDER,
            "designation-order": CardQuantity(
                _showing, play_order, applies=any_of(_showing), hollow=SHOWN_FIRST, readings=()
            ),
            # The row's length is half the virtual hand: the deck's size (HUND-OPT-1).
            "display-place": RowQuantity(
                _display(lead_only=False), ROW_DISTINCT, readings=("more-cards",)
            ),
            "display-lead-place": RowQuantity(
                _display(lead_only=True),
                ROW_DISTINCT,
                given="HUND-TWO-5 applies only when a face-up card of the lead suit is shown",
                readings=("more-cards",),
            ),
            "trump-value": CardQuantity(TRUMPS, applies=any_of(TRUMPS)),
            "lead-suit-value": CardQuantity(LEAD_SUIT, applies=any_of(TRUMPS, present=False)),
            "hund-cards": PlayerQuantity(observe=_hund_counts, readings=("virtual-hund",)),
            # Every seat's Lead cards compete; a virtual decider decides nothing (HUND-GAP-6).
            "lead-cards": PlayerQuantity(observe=per_round(_suit_counts(LEAD_POWER, True))),
            "total": PlayerQuantity(),
        }
    ),
)
