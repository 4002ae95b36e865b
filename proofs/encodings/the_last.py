"""The Last's trick rule in Z3, written from its clauses.

002, lines 7, 29-31: 48 cards, values 1-12 in four colours (LAST-DECK-1). The
colour of the last card played is the winning colour, whatever it is
(LAST-TRICK-2); the player of the highest value of that colour takes the
points card (LAST-TRICK-3). One rule for every trick: a single text case.
Each value exists once per colour, so two cards of the winning colour never
tie. With two players the ghost fills a third place (LAST-GHOST-1), so the
trick has as many cards as there are seats.

Card conservation (:func:`conservation_machine`): each trick turns up a points card
(LAST-TRICK-1), its winner takes it and keeps it or swaps it for a hand card, face
down (LAST-TRICK-3, LAST-COLLECT-1); the played cards are discarded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar

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
    swap,
)
from tricklaw.proofs.encodings import ENCODINGS
from tricklaw.proofs.game_end import Ending
from tricklaw.proofs.liveness import (
    CHOOSE,
    LIVENESS,
    PLAY,
    TURN,
    GameLiveness,
    Progress,
    Step,
    Vars,
    close_step,
    dealt,
    held,
    in_play,
    observed,
    play_step,
    seat_of,
    trick_names,
)
from tricklaw.proofs.plays import PLAYS, CardTerm, PlayEncoding, colour_in
from tricklaw.proofs.quantities import (
    PLAY_ORDER,
    TIES,
    CardQuantity,
    PlayerQuantity,
    cards,
)
from tricklaw.proofs.solver import Tracked
from tricklaw.proofs.tricks import Case, TrickEncoding

COLOURS = 4
"""Four colours (002 line 7, LAST-DECK-1)."""
VALUES = range(1, 13)
"""Each colour holds the values 1 to 12 once (002 line 7, LAST-DECK-1)."""
HAND = MappingProxyType({3: 12, 4: 9, 5: 8})
"""players -> cards dealt to each (002, LAST-DEAL-1)."""


class TheLastTrick(TrickEncoding):
    """A trick of The Last: the last card names the winning colour."""

    ruleset = "the-last"
    tie_rule = "by value within the winning colour; no tie possible"
    hollow: ClassVar[Mapping[str, str]] = {
        "coverage": "one case for every trick ('in all cases', LAST-TRICK-2)",
        "overlap": "one text case: no pair of cases to overlap",
        "tie-rule": "only cards of the winning colour compete and each value is in it once "
        "(LAST-DECK-1): no tie can arise (ties-possible shows it)",
    }
    unasserted: ClassVar[Mapping[str, str]] = {
        "LAST-TRICK-1": "the prize card turned over for the trick does not decide who wins "
        "it, so the trick encoding has no term for it (the conservation machine moves it)",
    }

    def deck_table(self) -> tuple[int, range, str]:
        """48 cards, 1-12 in four colours, for every player count (LAST-DECK-1)."""
        return COLOURS, VALUES, "LAST-DECK-1"

    def winning(self) -> list[z3.BoolRef]:
        """The cards of the winning colour: the last card's colour (LAST-TRICK-2)."""
        last = self.colour[-1]
        return [c == last for c in self.colour]

    def text_cases(self) -> list[Case]:
        """'In all cases' the last card's colour wins (LAST-TRICK-2): one case, no guard."""
        return [Case("LAST-TRICK-2", z3.BoolVal(True))]

    def citations(self) -> Mapping[str, z3.BoolRef]:
        """Every trick is decided the same way: the last card's colour (LAST-TRICK-2),
        its highest card (LAST-TRICK-3), and every card of it discarded (LAST-COLLECT-2)."""
        every = z3.BoolVal(True)
        return {"LAST-TRICK-2": every, "LAST-TRICK-3": every, "LAST-COLLECT-2": every}

    def resolution(self, outcome: Mapping[str, z3.ArithRef]) -> list[Tracked]:
        """The winner plays the winning colour (LAST-TRICK-2) and holds its highest
        value (LAST-TRICK-3)."""
        w = outcome["winner"]
        winning = self.winning()
        return [
            Tracked("LAST-TRICK-2", self.is_one_of(w, winning)),
            Tracked("LAST-TRICK-3", self.no_higher(w, winning)),
        ]

    def tie_possible(self) -> z3.BoolRef:
        """Two cards of the winning colour with one value (impossible: each card once)."""
        winning = self.winning()
        return z3.Or(
            *[
                z3.And(winning[i], winning[j], self.value[i] == self.value[j])
                for i in range(self.size)
                for j in range(i + 1, self.size)
            ]
        )

    def tie_winner(self, outcome: Mapping[str, z3.ArithRef]) -> z3.BoolRef:
        """The winner is a highest card of the winning colour."""
        w = outcome["winner"]
        winning = self.winning()
        return z3.And(self.is_one_of(w, winning), self.no_higher(w, winning))


def conservation_machine(ruleset: str, seats: int, clause: Mapping[str, str]) -> Machine:
    """Where The Last's cards can be and how they move: dealt to the hands and the points
    pile (``deal``); the top points card turned up (``turn-up``: each trick begins so,
    LAST-TRICK-1); hand cards played (``turn``) and the trick discarded (``collect``);
    the points card won (``points-card``), then kept face down or swapped for a hand card
    laid face down (``decide``); under ``unused-points=last-winner`` the points cards
    never turned up taken by the last trick's winner (LAST-D-UNUSED)."""
    hands, pending, taken = (seat_places(p, seats) for p in ("hand", "pending", "taken"))
    moves = (
        Transition("turn up a points card", clause["turn-up"], move("points", "shown")),
        *plays(seats, clause),
        Transition("discard the trick", clause["collect"], pour("trick", "discard")),
        *per_seat(
            seats,
            "seat {s} wins the points card",
            clause["points-card"],
            lambda s: pour("shown", f"pending{s}"),
        ),
        *per_seat(
            seats, "seat {s} keeps it", clause["decide"], lambda s: pour(f"pending{s}", f"taken{s}")
        ),
        *per_seat(
            seats,
            "seat {s} swaps it",
            clause["decide"],
            lambda s: swap(f"hand{s}", f"pending{s}", f"taken{s}"),
        ),
        *per_seat(
            seats,
            "seat {s} takes the unused points cards",
            "LAST-D-UNUSED",
            lambda s: pour("points", f"taken{s}"),
        ),
    )
    places = (*hands, "points", "shown", "trick", "discard", *pending, *taken)
    return Machine(ruleset, places, (*hands, "points"), clause["deal"], moves)


class TheLastPlay(PlayEncoding):
    """What may be played in The Last (002, lines 23-29): the trick's first player plays
    any card (LAST-PLAY-1); every later player but the last follows the first card's
    colour if he holds it (LAST-PLAY-2); the last player plays a colour already in the
    trick if he holds one (LAST-PLAY-3), or, under ``last-play=free``
    (LAST-D-LASTPLAY), any card. The last player is the one completing the trick
    (a trick has as many cards as seats, the ghost's included: LAST-GHOST-1)."""

    ruleset = "the-last"
    trick_encoding = TheLastTrick
    readings = ("last-play",)
    hold_clause = "LAST-PLAY-1"

    def first_hand(self) -> tuple[int, str] | None:
        """12, 12, 9 or 8 cards for 2, 3, 4 or 5 players (LAST-DEAL-1, LAST-GHOST-1); a
        points card swapped in replaces a hand card (LAST-COLLECT-1), so a hand loses one
        card a trick all the same."""
        if self.game.players == 2:
            return 12, "LAST-GHOST-1"
        return HAND[self.game.players], "LAST-DEAL-1"

    def rule(
        self, held: Mapping[Card, z3.BoolRef], trick: Sequence[CardTerm], card: CardTerm
    ) -> list[Tracked]:
        """The follow duty of a non-first player, the last player's own rule."""
        if not trick:
            return []
        if len(trick) < self.size - 1:
            return [Tracked("LAST-PLAY-2", self.must_if_held(held, card, colour_in([trick[0][0]])))]
        if self.options["last-play"] == "free":
            return []
        played = colour_in([c for c, _ in trick])
        return [Tracked("LAST-PLAY-3", self.must_if_held(held, card, played))]


ENCODINGS.register("the-last", TheLastTrick)
MACHINES.register("the-last", conservation_machine)


HAND = MappingProxyType({2: 12, 3: 12, 4: 9, 5: 8})
"""players -> cards a hand: 12, 9 or 8 for 3, 4 or 5 players (LAST-DEAL-1); 12 each for
two players and the ghost (LAST-GHOST-1)."""


def progress(game: Game) -> Progress:
    """The Last's round as a progress machine: the hands dealt (``deal``), the rest the
    points pile (``points-pile``); each trick a points card turned up (``turn-up``, the
    rules' move: the pile must not run out), the cards played in turn (``turn``; the
    ghost's by the rules, LAST-GHOST-3), the trick's taker keeping or swapping the points
    card (``decide``: keep is always there; a swap keeps the hand's size; the ghost keeps,
    LAST-GHOST-5), until the taker's hand is empty (``round-end``)."""
    seats, players, clause = game.seats, game.players, game.ruleset.clause
    hand = HAND[players]
    names = trick_names(seats, "pts")

    def in_hands(v: Vars) -> z3.ArithRef:
        return z3.Sum(*[v[f"h{s}"] for s in range(seats)])

    def even(v: Vars) -> z3.BoolRef:
        return z3.And(v["t"] == 0, *[v[f"h{s}"] == v["k"] for s in range(seats)])

    def turning(v: Vars) -> z3.BoolRef:
        return z3.And(even(v), seat_of(v, "lead", seats), v["cur"] == v["lead"], v["k"] >= 1)

    def deciding(v: Vars) -> z3.BoolRef:
        lead = z3.And(v["lead"] >= 0, v["lead"] < players)
        return z3.And(even(v), v["k"] >= 0, lead, v["cur"] == v["lead"])

    def taken(v: Vars, w: z3.ArithRef) -> dict[str, z3.ArithRef]:
        if players == seats:
            return {"ph": z3.IntVal(CHOOSE)}
        ghost = w >= players  # the ghost keeps the points card (LAST-GHOST-5)
        empty = z3.And(ghost, held(v, seats, w) == 0)
        return {
            "ph": z3.If(ghost, z3.If(empty, PLAY, TURN), CHOOSE),
            "over": z3.If(empty, 1, 0),
        }

    def turn_up(v: Vars) -> tuple[z3.BoolRef, dict[str, z3.ArithRef]]:
        return z3.And(v["ph"] == TURN, v["pts"] >= 1), {"pts": v["pts"] - 1, "ph": z3.IntVal(PLAY)}

    def decide(swap: bool) -> Step:
        def apply(v: Vars) -> tuple[z3.BoolRef, dict[str, z3.ArithRef]]:
            size = held(v, seats, v["cur"])
            pre = z3.And(v["ph"] == CHOOSE, size >= 1) if swap else v["ph"] == CHOOSE
            return pre, {"ph": z3.If(size == 0, PLAY, TURN), "over": z3.If(size == 0, 1, 0)}

        name = "the taker swaps" if swap else "the taker keeps"
        return Step(name, clause["decide"], lambda v: z3.BoolVal(True), apply)

    return Progress(
        game.ruleset.id,
        names,
        clause["deal"],
        lambda v: z3.And(
            dealt(v, seats, hand, z3.And(v["lead"] >= 0, v["lead"] < players), TURN),
            v["k"] == hand,
            v["pts"] == COLOURS * len(VALUES) - seats * hand,
        ),
        lambda v: z3.And(
            z3.Implies(v["ph"] == TURN, z3.And(turning(v), v["over"] == 0, v["pts"] >= v["k"])),
            z3.Implies(v["ph"] == PLAY, z3.And(in_play(v, seats), v["pts"] >= v["k"] - 1)),
            z3.Implies(v["ph"] == CHOOSE, z3.And(deciding(v), v["over"] == 0, v["pts"] >= v["k"])),
            z3.Or(v["ph"] == TURN, v["ph"] == PLAY, v["ph"] == CHOOSE),
        ),
        lambda v: v["over"] != 0,
        (
            Step("a points card turned up", clause["turn-up"], _rules_move, turn_up),
            play_step(seats, players, clause["turn"], lambda v: v["ph"] == PLAY),
            close_step(seats, clause["points-card"], taken),
            decide(False),
            decide(True),
        ),
        lambda v: (
            in_hands(v) + 3 * v["k"] + z3.If(v["ph"] == TURN, 1, 0) + z3.If(v["ph"] == CHOOSE, 2, 0)
        ),
        lambda v: (
            z3.Sum(*[v[f"h{s}"] for s in range(players)]) + v["k"] + z3.If(v["ph"] == CHOOSE, 1, 0)
        ),
        observe=observe,
    )


def observe(st: Any) -> dict[str, int]:
    """A model state as the machine's variables: a card to play, or the taker's keep or
    swap (phase CHOOSE: the points card is pending)."""
    pts = len(st.extra.points)
    if st.extra.pending is not None:
        return observed(st, CHOOSE, pts=pts)
    return observed(st, PLAY, pts=pts)


def _rules_move(v: Vars) -> z3.BoolRef:
    """A move of the rules, no player's decision."""
    return z3.BoolVal(False)


def ending(game: Game) -> Ending:
    """After the ``rounds`` agreed (LAST-D-ROUNDS)."""
    n = game.options.number("rounds")
    return Ending("LAST-D-ROUNDS", lambda rounds, totals: rounds >= n, n)


LIVENESS.register("the-last", GameLiveness((), progress, (), ending))
PLAYS.register("the-last", TheLastPlay)


TIES.register(
    "the-last",
    MappingProxyType(
        {
            # The cards of the winning colour, compared by value (LAST-TRICK-3).
            "winning-colour-value": CardQuantity(cards("winning")),
            # The first card (LAST-PLAY-2) and the last player's card (LAST-PLAY-3,
            # LAST-TRICK-2): places in the order of play.
            "play-order": PLAY_ORDER,
            "total": PlayerQuantity(),
        }
    ),
)
