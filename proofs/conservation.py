"""Card conservation, proved by induction over each ruleset's state machine.

Every place a card can be (a hand, the trick, a taken pile, the points pile,
...) is a Z3 set of card numbers. The invariant, for one card ``k``:

    Inv(k):  k in the deck  ->  k is in exactly one place
             k not in deck  ->  k is in no place

A **transition** (play, close a trick, keep, swap, ...) is written from the
clause that states it, as new sets made from the old ones; it moves a
symbolic card ``c`` or a whole set. The obligations:

* **base**: the deal puts every card of the deck in exactly one place
  (``Inv(k)`` after the deal clause);
* **step**, per transition: ``Inv(k) and Inv(c) and pre and T  ->  Inv'(k)``
  for a symbolic ``k``. Since ``k`` is arbitrary, this proves the invariant
  for every card at once, for every deck size; the unsat core names the
  transition's clause.

A deliberately broken transition (a card dropped, a trick duplicated) gives a
counterexample naming the card and the transition (see the tests).

This module holds the induction and the moves; each game's machine (its places and
transitions, from its clauses) is written in its encoding module of
:mod:`tricklaw.proofs.encodings` and registered in :data:`MACHINES`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import z3

from tricklaw.model.registry import Registry
from tricklaw.proofs.solver import Outcome, Tracked, check, exactly_one

Places = dict[str, z3.ArrayRef]
Apply = Callable[[Places, z3.ArithRef], tuple[z3.BoolRef, Places]]
"""A move: from the places and the card ``c`` it moves, its precondition and the
places it changes."""


@dataclass(frozen=True)
class Transition:
    """One kind of move: its clause, the places it reads, and what it makes of them.

    ``apply(places, c)`` returns the precondition and the new places; ``c`` is
    the symbolic card it moves (if any).
    """

    name: str
    clause: str
    apply: Apply


@dataclass(frozen=True)
class Machine:
    """The places and transitions of one ruleset at one table size."""

    ruleset: str
    places: tuple[str, ...]
    deal_places: tuple[str, ...]
    deal_clause: str
    transitions: tuple[Transition, ...]


def _sets(names: tuple[str, ...], tag: str) -> Places:
    return {n: z3.Const(f"{n}_{tag}", z3.SetSort(z3.IntSort())) for n in names}


def holds(places: Places, k: z3.ArithRef, deck: z3.BoolRef) -> z3.BoolRef:
    """``Inv(k)``: a deck card in exactly one place, any other card in none."""
    inside = [z3.IsMember(k, s) for s in places.values()]
    return z3.If(deck, exactly_one(inside), z3.Not(z3.Or(*inside)))


def deck_size() -> z3.ArithRef:
    """The deck size, left symbolic: the proofs hold for every deck."""
    return z3.Int("deck_size")


def in_deck(k: z3.ArithRef) -> z3.BoolRef:
    """Card numbers ``0 .. deck_size-1`` form the deck."""
    return z3.And(k >= 0, k < deck_size())


def base(machine: Machine, timeout_ms: int) -> Outcome:
    """The deal leaves every deck card in exactly one place: the deal clause gives each
    card one destination among the deal's places; all other places start empty."""
    k = z3.Int("k")
    dest = z3.Function("dealt_to", z3.IntSort(), z3.IntSort())
    places = _sets(machine.places, "deal")
    facts = []
    for i, name in enumerate(machine.places):
        if name in machine.deal_places:
            index = machine.deal_places.index(name)
            facts.append(places[name] == z3.Lambda([k], z3.And(in_deck(k), dest(k) == index)))
        else:
            facts.append(places[name] == z3.EmptySet(z3.IntSort()))
        del i
    x = z3.Int("x")
    facts.append(
        z3.ForAll(
            [x], z3.Implies(in_deck(x), z3.And(dest(x) >= 0, dest(x) < len(machine.deal_places)))
        )
    )
    claim = z3.Not(holds(places, k, in_deck(k)))
    return check(
        [
            Tracked(machine.deal_clause, z3.And(*facts)),
            Tracked("claim:card-misplaced-at-deal", claim),
        ],
        timeout_ms,
        lambda m: {"card": m.eval(k, model_completion=True).as_long()},
    )


def step(machine: Machine, transition: Transition, timeout_ms: int) -> Outcome:
    """``transition`` keeps the invariant for an arbitrary card."""
    k, c = z3.Int("k"), z3.Int("c")
    before = _sets(machine.places, "before")
    after = _sets(machine.places, "after")
    pre, changed = transition.apply(before, c)
    effect = [after[name] == expr for name, expr in changed.items()]
    frame = [after[name] == before[name] for name in machine.places if name not in changed]
    return check(
        [
            Tracked(
                "hypothesis:invariant",
                z3.And(holds(before, k, in_deck(k)), holds(before, c, in_deck(c))),
            ),
            Tracked(transition.clause, z3.And(pre, *effect)),
            Tracked("frame:other-places-unchanged", z3.And(*frame)),
            Tracked("claim:card-lost-or-doubled", z3.Not(holds(after, k, in_deck(k)))),
        ],
        timeout_ms,
        lambda m: {
            "card": m.eval(k, model_completion=True).as_long(),
            "moved": m.eval(c, model_completion=True).as_long(),
        },
    )


# --- moves shared by the machines ------------------------------------------------------------


def move(src: str, dst: str) -> Apply:
    """Card ``c`` goes from place ``src`` (where it must be) to ``dst``."""

    def apply(p: Places, c: z3.ArithRef) -> tuple[z3.BoolRef, Places]:
        return z3.IsMember(c, p[src]), {
            src: z3.SetDel(p[src], c),
            dst: z3.SetAdd(p[dst], c),
        }

    return apply


def pour(src: str, dst: str) -> Apply:
    """Every card of ``src`` goes to ``dst``; ``src`` is left empty."""

    def apply(p: Places, c: z3.ArithRef) -> tuple[z3.BoolRef, Places]:
        return z3.BoolVal(True), {
            src: z3.EmptySet(z3.IntSort()),
            dst: z3.SetUnion(p[dst], p[src]),
        }

    return apply


def split(src: str, one: str, rest: str) -> Apply:
    """Card ``c`` of ``src`` goes to ``one``, the other cards of ``src`` to ``rest``."""

    def apply(p: Places, c: z3.ArithRef) -> tuple[z3.BoolRef, Places]:
        return z3.IsMember(c, p[src]), {
            src: z3.EmptySet(z3.IntSort()),
            one: z3.SetAdd(p[one], c),
            rest: z3.SetUnion(p[rest], z3.SetDel(p[src], c)),
        }

    return apply


def swap(hand: str, pending: str, down: str) -> Apply:
    """The pending card goes into ``hand`` and hand card ``c`` face down (The Last)."""

    def apply(p: Places, c: z3.ArithRef) -> tuple[z3.BoolRef, Places]:
        return z3.IsMember(c, p[hand]), {
            hand: z3.SetUnion(z3.SetDel(p[hand], c), p[pending]),
            pending: z3.EmptySet(z3.IntSort()),
            down: z3.SetAdd(p[down], c),
        }

    return apply


# --- the machines: each game's, registered by its encoding module -----------------------

MachineBuilder = Callable[[str, int, Mapping[str, str]], Machine]
"""``(ruleset id, seats, clause table) -> the state machine`` of one game."""

MACHINES: Registry[MachineBuilder] = Registry("state machine", "tricklaw.proofs.encodings")
"""Ruleset id -> the builder of its state machine; each game's encoding module (in
:mod:`tricklaw.proofs.encodings`) writes its machine from its clauses and registers it."""


def machine(ruleset: str, seats: int, clause: Mapping[str, str]) -> Machine:
    """The state machine of ``ruleset`` at a table of ``seats``; ``clause`` maps rule
    roles to the clause ids of its text (the ruleset's ``clause`` table)."""
    return MACHINES.lookup(ruleset)(ruleset, seats, clause)


def seat_places(prefix: str, seats: int) -> tuple[str, ...]:
    """One place per seat: ``hand0``, ``hand1``, ... for the prefix ``hand``."""
    return tuple(f"{prefix}{s}" for s in range(seats))


def per_seat(
    seats: int, name: str, clause: str, apply: Callable[[int], Apply]
) -> tuple[Transition, ...]:
    """One transition per seat ``s``, named ``name.format(s=s)``, moving ``apply(s)``."""
    return tuple(Transition(name.format(s=s), clause, apply(s)) for s in range(seats))


def plays(seats: int, clause: Mapping[str, str]) -> tuple[Transition, ...]:
    """Each seat plays a card of its hand to the trick (the ``turn`` clause)."""
    return per_seat(seats, "play seat {s}", clause["turn"], lambda s: move(f"hand{s}", "trick"))


def takes(seats: int, clause: str) -> tuple[Transition, ...]:
    """Each seat takes the whole trick (``clause``)."""
    return per_seat(seats, "seat {s} takes the trick", clause, lambda s: pour("trick", f"taken{s}"))
