"""Sticheln's trick rule in Z3, both editions, written from their clauses.

1993 (000, lines 35-43): trump cards are the non-zero cards of colours other
than the start colour (STI93-TRICK-2). All start colour: highest wins
(STI93-TRICK-3); otherwise, if only zeros of other colours: highest start-
colour card (STI93-TRICK-4); otherwise highest trump card (STI93-TRICK-5),
the earliest of equal ones (STI93-TRICK-6).

Later edition (001, lines 37-42, 78-80): only lead colour: highest wins
(STI-TRICK-1); any other colour: highest card not of the lead colour
(STI-TRICK-2), the earliest of equal ones (STI-TRICK-3); a zero never wins
and is ignored (STI-TRICK-4); all zeros: nobody (STI-TRICK-6); the lead
card's colour is the lead colour (STI-TRICK-5), or the first non-zero card's
(reading ``zero-lead=first-nonzero``).

Card conservation (:func:`conservation_machine`): the cards move from the hands to the
picked cards (STI93-SELECT-1, STI-SELECT-2), to the trick, and from the trick to its
winner (STI93-COLLECT-1, STI-COLLECT-1) or, when nobody wins it, aside.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar, cast

import z3

from tricklaw.model.cards import Card
from tricklaw.model.state import Game
from tricklaw.proofs.conservation import (
    MACHINES,
    Machine,
    Transition,
    move,
    per_seat,
    plays,
    pour,
    seat_places,
    takes,
)
from tricklaw.proofs.encodings import ENCODINGS
from tricklaw.proofs.game_end import Ending
from tricklaw.proofs.liveness import (
    LIVENESS,
    PLAY,
    SELECT,
    GameLiveness,
    Progress,
    Step,
    Vars,
    close_step,
    dealt,
    end_when_empty,
    held,
    in_play,
    next_seat,
    observed,
    offset,
    offset_of_cur,
    play_step,
    seat_of,
    take_one,
    trick_names,
)
from tricklaw.proofs.plays import PLAYS, CardTerm, PlayEncoding
from tricklaw.proofs.quantities import (
    PLAY_ORDER,
    TIES,
    CardQuantity,
    PlayerQuantity,
    any_of,
    cards,
)
from tricklaw.proofs.solver import Tracked
from tricklaw.proofs.tricks import NOBODY, Case, TrickEncoding

DECK_1993 = MappingProxyType({3: (5, 8), 4: (5, 11), 5: (5, 14), 6: (6, 14)})
"""players -> (colours, top value): the table of 000 lines 15-23 (STI93-DECK-2)."""
DECK_LATER = MappingProxyType({3: (5, 8), 4: (5, 11), 5: (5, 14), 6: (6, 14)})
"""players -> (colours, top value): 001 lines 5-9 (STI-DECK-1)."""


class StichelnTrick(TrickEncoding):
    """A Sticheln trick, 1993 text or later text, under the chosen readings."""

    tie_rule = "earliest of the equal highest cards off the lead colour"
    hollow: ClassVar[Mapping[str, str]] = {
        "coverage": "the cases are 'every card of the lead colour' and forms of its negation "
        "(a card off it; only zeros off it): they cover every trick by their form",
    }
    readings = ("all-zero", "deck", "zero-lead")

    def __init__(self, game: Game, context: Mapping[str, Any] | None = None) -> None:
        super().__init__(game, context)
        self.ruleset = game.ruleset.id
        self.is_1993 = self.ruleset == "sticheln-1993"

    def recorded(self) -> Mapping[frozenset[str], str]:
        """The overlaps the texts' own words create, and the disputes recording them."""
        if self.is_1993:
            return {frozenset({"STI93-TRICK-4", "STI93-D-ALLZERO"}): "STI93-D-ALLZERO"}
        return {
            frozenset({"STI-TRICK-2", "STI-TRICK-6"}): "STI-D-ZEROOFF",
            frozenset({"STI-TRICK-2", "STI-TRICK-4"}): "STI-D-ZEROOFF",
            frozenset({"STI-TRICK-4", "STI-TRICK-6"}): "STI-D-ZEROOFF",
        }

    def deck_table(self) -> tuple[int, range, str]:
        """The deck table of the edition, or (1993, ``deck=full``) all 90 cards."""
        if self.is_1993:
            if self.options["deck"] == "full":
                return 6, range(15), "STI93-D-DECK"
            colours, top = DECK_1993[self.game.players]
            return colours, range(top + 1), "STI93-DECK-2"
        colours, top = DECK_LATER[self.game.players]
        return colours, range(top + 1), "STI-DECK-1"

    def lead(self) -> z3.ArithRef:
        """The lead colour: the first card's (STI93-TRICK-1, STI-TRICK-5), or under
        ``zero-lead=first-nonzero`` the first non-zero card's."""
        if self.is_1993 or self.options["zero-lead"] == "lead-card":
            return self.colour[0]
        lead = self.colour[0]
        for i in range(self.size - 1, 0, -1):
            earlier_zero = z3.And(*[self.value[j] == 0 for j in range(i)])
            lead = z3.If(z3.And(earlier_zero, self.value[i] != 0), self.colour[i], lead)
        return lead

    def text_cases(self) -> list[Case]:
        """The cases as written (lead colour = the first card's colour)."""
        lead = self.colour[0]
        all_lead = z3.And(*[c == lead for c in self.colour])
        all_zero = z3.And(*[v == 0 for v in self.value])
        if self.is_1993:
            off_zero_only = z3.And(
                z3.Not(all_lead),
                *[
                    z3.Implies(c != lead, v == 0)
                    for c, v in zip(self.colour, self.value, strict=True)
                ],
            )
            trump = z3.Or(
                *[z3.And(c != lead, v != 0) for c, v in zip(self.colour, self.value, strict=True)]
            )
            cases = [
                Case("STI93-TRICK-3", all_lead),
                Case("STI93-TRICK-4", off_zero_only),
                Case("STI93-TRICK-5", trump),
            ]
            if self.options["all-zero"] == "no-winner":
                cases.append(Case("STI93-D-ALLZERO", all_zero))
            return cases
        off = z3.Or(*[c != lead for c in self.colour])
        only_zero_off = z3.And(
            off,
            *[z3.Implies(c != lead, v == 0) for c, v in zip(self.colour, self.value, strict=True)],
        )
        return [
            Case("STI-TRICK-1", all_lead),
            Case("STI-TRICK-2", off),
            # "a zero can never win": with only zeros off the lead colour, line 38 names a
            # zero as the winner and line 40 forbids it.
            Case("STI-TRICK-4", only_zero_off),
            Case("STI-TRICK-6", all_zero),
        ]

    def resolution(self, outcome: Mapping[str, z3.ArithRef]) -> list[Tracked]:
        """The rule under the readings, each part tracked by its clause."""
        w = outcome["winner"]
        lead = self.lead()
        nonzero = [v != 0 for v in self.value]
        trump = [z3.And(c != lead, nz) for c, nz in zip(self.colour, nonzero, strict=True)]
        any_trump = z3.Or(*trump)
        all_zero = z3.And(*[z3.Not(nz) for nz in nonzero])
        if self.is_1993:
            start = [c == lead for c in self.colour]
            nobody = all_zero if self.options["all-zero"] == "no-winner" else z3.BoolVal(False)
            return [
                Tracked(
                    "STI93-TRICK-5",
                    z3.Implies(
                        any_trump, z3.And(self.is_one_of(w, trump), self.no_higher(w, trump))
                    ),
                ),
                Tracked("STI93-TRICK-6", z3.Implies(any_trump, self.earliest_of_equal(w, trump))),
                Tracked(
                    "STI93-TRICK-4",
                    z3.Implies(
                        z3.And(z3.Not(any_trump), z3.Not(nobody)),
                        z3.And(self.is_one_of(w, start), self.no_higher(w, start)),
                    ),
                ),
                Tracked("STI93-D-ALLZERO", z3.Implies(nobody, w == NOBODY)),
            ]
        lead_nonzero = [z3.And(c == lead, nz) for c, nz in zip(self.colour, nonzero, strict=True)]
        return [
            Tracked(
                "STI-TRICK-2",
                z3.Implies(any_trump, z3.And(self.is_one_of(w, trump), self.no_higher(w, trump))),
            ),
            Tracked("STI-TRICK-3", z3.Implies(any_trump, self.earliest_of_equal(w, trump))),
            Tracked(
                "STI-TRICK-1",
                z3.Implies(
                    z3.And(z3.Not(any_trump), z3.Not(all_zero)),
                    z3.And(self.is_one_of(w, lead_nonzero), self.no_higher(w, lead_nonzero)),
                ),
            ),
            Tracked("STI-TRICK-4", z3.Implies(w != NOBODY, self.at(self.value, w) != 0)),
            Tracked("STI-TRICK-6", z3.Implies(all_zero, w == NOBODY)),
        ]

    def citations(self) -> Mapping[str, z3.BoolRef]:
        """The clauses that decide a trick, each where its case applies: how the lead
        colour was found (STI93-TRICK-1, STI-TRICK-5; under ``zero-lead=first-nonzero``
        with a zero led, STI-D-ZEROLEAD); a trump card decides (STI93-TRICK-5,
        STI-TRICK-2), two of the top trump value tie (STI93-TRICK-6, STI-TRICK-3); with
        no trump the lead colour decides, every card of it (STI93-TRICK-3) or some zero
        off it (STI93-TRICK-4; the later text's one case, STI-TRICK-1); a zero in a trick
        someone takes never counts (STI93-TRICK-2, STI-TRICK-4); the all-zero trick goes
        to nobody (STI93-D-ALLZERO, STI-TRICK-6) or, in 1993 by default, to its leader as
        the only lead-colour card (STI93-TRICK-4)."""
        lead = self.lead()
        trump = z3.Or(*self.trumps())
        all_zero = z3.And(*[v == 0 for v in self.value])
        nobody = self.no_winner_condition()
        leader_takes_zeros = z3.And(all_zero, z3.Not(nobody))
        by_lead = z3.And(
            z3.Not(trump),
            z3.Or(
                *[z3.And(c == lead, v != 0) for c, v in zip(self.colour, self.value, strict=True)]
            ),
        )
        every_lead = z3.And(*[c == lead for c in self.colour])
        zero_counts_not = z3.And(z3.Or(*[v == 0 for v in self.value]), z3.Not(all_zero))
        if self.is_1993:
            return {
                "STI93-TRICK-1": z3.BoolVal(True),
                "STI93-TRICK-5": trump,
                "STI93-TRICK-6": self.tie_possible(),
                "STI93-TRICK-3": z3.And(by_lead, every_lead),
                "STI93-TRICK-4": z3.Or(z3.And(by_lead, z3.Not(every_lead)), leader_takes_zeros),
                "STI93-TRICK-2": zero_counts_not,
                "STI93-D-ALLZERO": z3.And(all_zero, nobody),
            }
        zero_led = z3.BoolVal(False)
        if self.options["zero-lead"] == "first-nonzero":
            zero_led = self.value[0] == 0
        return {
            "STI-TRICK-5": z3.Not(zero_led),
            "STI-D-ZEROLEAD": zero_led,
            "STI-TRICK-2": trump,
            "STI-TRICK-3": self.tie_possible(),
            "STI-TRICK-1": z3.Or(by_lead, leader_takes_zeros),
            "STI-TRICK-4": zero_counts_not,
            "STI-TRICK-6": z3.And(all_zero, nobody),
        }

    def trumps(self) -> list[z3.BoolRef]:
        """The cards that compete across colours: non-zero cards off the lead colour."""
        lead = self.lead()
        return [z3.And(c != lead, v != 0) for c, v in zip(self.colour, self.value, strict=True)]

    def no_winner_condition(self) -> z3.BoolRef:
        """Every card a zero (STI-TRICK-6; 1993 only under ``all-zero=no-winner``)."""
        if self.is_1993 and self.options["all-zero"] != "no-winner":
            return z3.BoolVal(False)
        return z3.And(*[v == 0 for v in self.value])

    def tie_possible(self) -> z3.BoolRef:
        """Two trump cards share the highest trump value (possible: colours differ)."""
        t = self.trumps()
        return z3.Or(
            *[
                z3.And(
                    t[i],
                    t[j],
                    self.value[i] == self.value[j],
                    *[z3.Implies(t[k], self.value[k] <= self.value[i]) for k in range(self.size)],
                )
                for i in range(self.size)
                for j in range(i + 1, self.size)
            ]
        )

    def tie_winner(self, outcome: Mapping[str, z3.ArithRef]) -> z3.BoolRef:
        """The winner is a trump, and no earlier trump has its value."""
        w = outcome["winner"]
        t = self.trumps()
        return z3.And(
            self.is_one_of(w, t),
            *[
                z3.Implies(
                    w == i,
                    z3.And(
                        *[z3.Not(z3.And(t[j], self.value[j] == self.value[i])) for j in range(i)]
                    ),
                )
                for i in range(self.size)
            ],
        )


def conservation_machine(ruleset: str, seats: int, clause: Mapping[str, str]) -> Machine:
    """Where Sticheln's cards can be and how they move (both editions): dealt to the hands
    and aside (the ``deal`` clause); a hand card picked (``select``) or played to the
    trick (``turn``); the trick taken by its winner (``collect``) or by nobody, set aside
    (``all-zero``)."""
    hands, picked, taken = (seat_places(p, seats) for p in ("hand", "picked", "taken"))
    moves = (
        *per_seat(
            seats, "pick seat {s}", clause["select"], lambda s: move(f"hand{s}", f"picked{s}")
        ),
        *plays(seats, clause),
        *takes(seats, clause["collect"]),
        Transition("nobody takes the trick", clause["all-zero"], pour("trick", "aside")),
    )
    places = (*hands, *picked, "trick", *taken, "aside")
    return Machine(ruleset, places, (*hands, "aside"), clause["deal"], moves)


class StichelnPlay(PlayEncoding):
    """What may be played in Sticheln, both editions, written from their clauses.

    1993 (000, lines 31-38): the leader plays any card (STI93-LEAD-2); the others, read
    as dispute STI93-D-FOLLOW says: ``free``, any card; ``follow-or-trump`` (line 38 as
    written, STI93-PLAY-2), a start-colour card or a trump card (a non-zero card of
    another colour, STI93-TRICK-2) unless the hand holds neither; ``must-follow``, the
    start colour if held, else a trump card if held, else any card. Later edition (001,
    line 33): any card (STI-PLAY-2). Every card played is one of the player's own
    (STI93-PLAY-1, STI-PLAY-1).
    """

    trick_encoding = StichelnTrick
    readings = ("follow", "deck")

    def __init__(self, game: Game, context: Mapping[str, Any] | None = None) -> None:
        super().__init__(game, context)
        self.ruleset = game.ruleset.id
        self.is_1993 = self.ruleset == "sticheln-1993"
        self.hold_clause = "STI93-PLAY-1" if self.is_1993 else "STI-PLAY-1"

    def first_hand(self) -> tuple[int, str] | None:
        """15 cards dealt, one laid down as the misery (unwanted) card: 14 at the first
        trick (STI93-LEAD-2 says so; STI-SELECT-2: one of his 15 cards)."""
        return 14, "STI93-LEAD-2" if self.is_1993 else "STI-SELECT-2"

    def rule(
        self, held: Mapping[Card, z3.BoolRef], trick: Sequence[CardTerm], card: CardTerm
    ) -> list[Tracked]:
        """The follow reading's restriction on a card played after the lead."""
        if not trick or not self.is_1993 or self.options["follow"] == "free":
            return []
        start = trick[0][0]  # the start colour is the first card's (STI93-TRICK-1)

        def follows(c: CardTerm) -> z3.BoolRef:
            return c[0] == start

        def trumps(c: CardTerm) -> z3.BoolRef:  # STI93-TRICK-2
            return z3.And(c[0] != start, c[1] != 0)

        if self.options["follow"] == "follow-or-trump":
            either = lambda c: z3.Or(follows(c), trumps(c))  # noqa: E731
            return [Tracked("STI93-PLAY-2", self.must_if_held(held, card, either))]
        return [
            Tracked(
                "STI93-D-FOLLOW",
                z3.And(
                    self.must_if_held(held, card, follows),
                    z3.Implies(
                        z3.Not(self.holds_any(held, follows)),
                        self.must_if_held(held, card, trumps),
                    ),
                ),
            )
        ]


ENCODINGS.register("sticheln-1993", StichelnTrick)
ENCODINGS.register("sticheln", StichelnTrick)
MACHINES.register("sticheln-1993", conservation_machine)
MACHINES.register("sticheln", conservation_machine)


HAND_SIZE = 15
"""Fifteen cards each (STI93-DEAL-2, STI-DEAL-1)."""


def progress(game: Game) -> Progress:
    """Sticheln's round as a progress machine (both editions): fifteen cards each
    (``deal``); from the first leader (any seat: the dealer's left, STI93-LEAD-1, or by
    STI-D-ROUNDLEAD) each player in turn picks one hand card (``select``); then the
    tricks, the cards played in turn (``turn``), the winner (or, after a trick nobody
    takes, the same leader) leading next (``collect``), until seat 0's hand is empty."""
    seats, clause = game.seats, game.ruleset.clause
    names = trick_names(seats, "sel")

    def picking(v: Vars) -> z3.BoolRef:
        return z3.And(
            v["sel"] >= 0,
            v["sel"] < seats,
            v["t"] == 0,
            v["over"] == 0,
            v["k"] >= 1,
            seat_of(v, "lead", seats),
            offset_of_cur(v, seats, "sel"),
            *[
                v[f"h{s}"] == v["k"] + 1 - z3.If(offset(s, v, seats) < v["sel"], 1, 0)
                for s in range(seats)
            ],
        )

    def pick(v: Vars) -> tuple[z3.BoolRef, dict[str, z3.ArithRef]]:
        last = v["sel"] + 1 == seats
        cur = v["cur"]
        return z3.And(v["ph"] == SELECT, held(v, seats, cur) >= 1), {
            **take_one(v, seats, cur),
            "sel": v["sel"] + 1,
            "ph": z3.If(last, PLAY, SELECT),
            "cur": z3.If(last, v["lead"], next_seat(cur, seats)),
        }

    return Progress(
        game.ruleset.id,
        names,
        clause["deal"],
        lambda v: z3.And(
            dealt(v, seats, HAND_SIZE, seat_of(v, "lead", seats), SELECT),
            v["sel"] == 0,
            v["k"] == HAND_SIZE - 1,
        ),
        lambda v: z3.Or(
            z3.And(v["ph"] == SELECT, picking(v)),
            z3.And(v["ph"] == PLAY, v["sel"] == seats, in_play(v, seats)),
        ),
        lambda v: v["over"] != 0,
        (
            Step("a card picked", clause["select"], lambda v: z3.BoolVal(True), pick),
            play_step(seats, game.players, clause["turn"], lambda v: v["ph"] == PLAY),
            close_step(seats, clause["collect"], end_when_empty(seats, lambda w: z3.IntVal(0))),
        ),
        lambda v: z3.Sum(*[v[f"h{s}"] for s in range(seats)]) + v["k"],
        lambda v: z3.Sum(*[v[f"h{s}"] for s in range(seats)]),
        observe=observe,
    )


def observe(st: Any) -> dict[str, int]:
    """A model state as the machine's variables: picking (the seat to act holds one card
    more than it will at the first trick) or playing."""
    sel = sum(1 for p in st.extra.picked if p is not None)
    if sel < len(st.extra.picked):
        return observed(st, SELECT, sel=sel, k=len(st.hands[st.current]) - 1)
    return observed(st, PLAY, sel=sel)


def ending(game: Game) -> Ending:
    """1993: after the ``rounds`` agreed, or once a total reaches the ``target``
    (STI93-GAME-1, dispute STI93-D-END); later text: after as many rounds as players, or
    the ``rounds`` agreed (STI-GAME-1)."""
    options = game.options
    if game.ruleset.id == "sticheln-1993" and options.text("end") == "target":
        target = options.number("target")
        return Ending(
            "STI93-GAME-1",
            lambda rounds, totals: z3.Or(*[t >= target for t in totals]),
            None,
            "STI93-D-END",
        )
    n = options.number("rounds") or game.players
    clause = game.ruleset.clause["game-end"]
    dispute = "STI93-D-END" if game.ruleset.id == "sticheln-1993" else ""
    return Ending(clause, lambda rounds, totals: rounds >= n, n, dispute)


_END_READINGS = ("end", "follow")
"""What the 1993 end reads, and what most constrains the plays of an endless cycle (the
all-zero and deck readings are held at their defaults there: a search per reading would
cost verify seconds for the same finding)."""
LIVENESS.register("sticheln-1993", GameLiveness((), progress, _END_READINGS, ending))
LIVENESS.register("sticheln", GameLiveness((), progress, ("zero-lead",), ending))
PLAYS.register("sticheln-1993", StichelnPlay)
PLAYS.register("sticheln", StichelnPlay)


# --- the quantities the clauses pick by (tricklaw.proofs.ties) ------------------------------


def _sticheln(enc: TrickEncoding) -> StichelnTrick:
    return cast(StichelnTrick, enc)


TRUMPS = cards("trumps")
"""The cards compared across colours: non-zero cards off the lead colour."""


def _start_colour(enc: TrickEncoding) -> list[z3.BoolRef]:
    """The cards of the start colour (STI93-TRICK-3, STI93-TRICK-4)."""
    return [c == enc.colour[0] for c in enc.colour]


def _lead_nonzero(enc: TrickEncoding) -> list[z3.BoolRef]:
    """The non-zero cards of the lead colour (STI-TRICK-1, zeros left out: STI-TRICK-4)."""
    lead = _sticheln(enc).lead()
    return [z3.And(c == lead, v != 0) for c, v in zip(enc.colour, enc.value, strict=True)]


def _draw(game: Game, values: Sequence[z3.ArithRef]) -> list[Tracked]:
    """Every player draws one card of the deck in use: distinct cards, so equal values
    only in different colours (STI93-DEAL-1; the deck: STI93-DECK-2, or STI93-D-DECK)."""
    deck = game.ruleset.deck(game.players, game.options)
    colours = [z3.Int(f"drawn_colour_{i}") for i in range(len(values))]
    out = [
        Tracked(
            "STI93-DECK-2",
            z3.Or(*[z3.And(c == card >> 5, v == card & 31) for card in deck]),
        )
        for c, v in zip(colours, values, strict=True)
    ]
    distinct = [
        z3.Or(colours[i] != colours[j], values[i] != values[j])
        for i in range(len(values))
        for j in range(i + 1, len(values))
    ]
    return [*out, Tracked("STI93-DEAL-1", z3.And(*distinct))]


TIES.register(
    "sticheln-1993",
    MappingProxyType(
        {
            "drawn-card": PlayerQuantity(
                observe=lambda game, state: (), relaxation=_draw, exact=True, modelled=False
            ),
            "start-colour-value": CardQuantity(_start_colour),
            "trump-value": CardQuantity(TRUMPS, applies=any_of(TRUMPS)),
            "play-order": PLAY_ORDER,
            "total": PlayerQuantity(),
        }
    ),
)


def _ages(game: Game, values: Sequence[z3.ArithRef]) -> list[Tracked]:
    """The players' ages, compared to find the youngest (STI-LEAD-1): any ages at all
    (each a whole number of days, the finest any table compares by), so two players of
    one age are a real table."""
    return [Tracked("STI-LEAD-1", z3.And(*[v >= 0 for v in values]))]


TIES.register(
    "sticheln",
    MappingProxyType(
        {
            # Outside the model: seats are numbered from the youngest (STI-LEAD-1).
            "age": PlayerQuantity(
                observe=lambda game, state: (), relaxation=_ages, exact=True, modelled=False
            ),
            "lead-colour-value": CardQuantity(_lead_nonzero),
            "trump-value": CardQuantity(TRUMPS, applies=any_of(TRUMPS)),
            "play-order": PLAY_ORDER,
            "total": PlayerQuantity(),
        }
    ),
)
