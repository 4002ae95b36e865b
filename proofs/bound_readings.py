"""Which readings of the rules the score bounds are proved under.

A bound is proved for every reading that can change a player's round score range:
each dispute option (and custom option) that changes what a round scores, what may be
played, who takes a trick or which cards are dealt is varied on its own, one value at a
time from the defaults, at the player counts where it can matter; a few pairs (and
triples of one custom option's sub-options) that interact are varied together.

Every option of every ruleset is classified here, and a test keeps it so:

* :data:`UNCHANGED`: options that provably cannot change a round's score range, with
  the reason (they only act between rounds, or only on seats the relaxations are blind
  to);
* :data:`ONLY_AT`: options varied only at some player counts, with the reason they
  cannot matter at the others;
* :data:`COMBINED`: options varied only together with another (listed in
  :data:`COMBINATIONS`), with the reason they do nothing alone;
* every other text option is varied on its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tricklaw.model.ruleset import Ruleset
from tricklaw.model.rulesets import get_ruleset

Reading = tuple[tuple[str, str], ...]
"""A reading: the options whose values differ from the defaults (name, value), sorted."""

UNCHANGED: Mapping[str, Mapping[str, str]] = {
    "sticheln-1993": {
        "end": "only decides when the game ends, never what a round scores",
        "rounds": "only the number of rounds",
        "target": "only the total that ends the game",
    },
    "sticheln": {
        "round-leader": (
            "only who leads the rounds after the first (the first is led by seat 0 either "
            "way, and the relaxation is blind to seats)"
        ),
        "rounds": "only the number of rounds",
    },
    "the-last": {
        "rounds": "only the number of rounds",
        "ghost-seat": (
            "only where the ghost sits from the second round on (the first is seated alike, "
            "and the relaxation is blind to the seating)"
        ),
    },
    "lowhigh": {
        "first-leader": (
            "only who starts the rounds after the first (seat 0 starts the first either way, "
            "and the relaxation is blind to seats)"
        ),
        "rounds": "only the number of rounds",
    },
    "hund": {
        "lead-tie": (
            "only who names the next round's start player (HUND-POWER-5): no card scores by it"
        ),
    },
}
"""Ruleset -> option -> why no value of it can change a round's score range."""

ONLY_AT: Mapping[str, Mapping[str, tuple[tuple[int, ...], str]]] = {
    "the-last": {
        "unused-points": (
            (4,),
            "with 2 (ghost), 3 and 5 players the pile holds one card a trick: none is left over",
        ),
        "ghost-play": ((2,), "the ghost plays only at a two-player table"),
    },
    "hund": {
        "virtual-hund": ((2,), "the virtual player sits only at a two-player table"),
    },
}
"""Ruleset -> option -> (the player counts where it is varied, why not at the others)."""

COMBINED: Mapping[str, Mapping[str, str]] = {
    "hund": {
        "virtual-odd": (
            "only an odd virtual hand has an odd column: 15 cards, with more-cards=yes "
            "at two players"
        ),
        "set-suits": "read only with designation-mode=sets",
        "set-match": "read only with designation-mode=sets",
        "set-repeat": "read only with designation-mode=sets",
    },
}
"""Ruleset -> option -> why it is varied only in :data:`COMBINATIONS`."""

SETS = ("designation-mode", "sets")


@dataclass(frozen=True)
class Combination:
    """Options varied together (at ``players``, or every count), and why they interact."""

    options: Reading
    why: str
    players: tuple[int, ...] | None = None


COMBINATIONS: Mapping[str, tuple[Combination, ...]] = {
    "sticheln-1993": tuple(
        Combination(
            (("deck", "full"), pair),
            "the deck sets the bound, the follow and all-zero rules which rounds reach it",
        )
        for pair in (
            ("all-zero", "no-winner"),
            ("follow", "follow-or-trump"),
            ("follow", "must-follow"),
        )
    ),
    "hund": (
        Combination(
            (("more-cards", "yes"), ("virtual-odd", "extra-up")),
            "the odd column exists only with 15 cards a seat",
            (2,),
        ),
        Combination(
            (("hund-tie", "scores"), ("virtual-hund", "ignored")),
            "with two seats compared only a tie can earn the Hund award",
            (2,),
        ),
        Combination((SETS, ("set-suits", "any")), "a sub-option of the designation sets"),
        Combination((SETS, ("set-match", "value")), "a sub-option of the designation sets"),
        Combination((SETS, ("set-repeat", "stack")), "a sub-option of the designation sets"),
        Combination(
            (SETS, ("set-repeat", "stack"), ("set-suits", "any")),
            "two sets of one suit stack powers on it only if repeats stack",
        ),
        Combination(
            (SETS, ("set-match", "value"), ("set-repeat", "stack")),
            "matching by value gives a suit many matching cards, which stack only if repeats stack",
        ),
    ),
}
"""Ruleset -> the combinations of options varied together."""


def label(reading: Reading) -> str:
    """A reading as the verify table shows it: ``name=value, ...``, or ``default``."""
    return ", ".join(f"{k}={v}" for k, v in reading) or "default"


def readings(ruleset: Ruleset[Any] | str, players: int) -> list[Reading]:
    """The readings bounds are proved under at ``players``: the defaults first, then each
    varied option value on its own, then the combinations."""
    rs = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    out: list[Reading] = [()]
    for spec in rs.option_specs:
        if not spec.choices or spec.name in UNCHANGED.get(rs.id, {}):
            continue
        if spec.name in COMBINED.get(rs.id, {}) or not applies(rs.id, spec.name, players):
            continue
        out += [((spec.name, value),) for value in spec.choices if value != spec.default]
    for combo in COMBINATIONS.get(rs.id, ()):
        if combo.players is None or players in combo.players:
            out.append(tuple(sorted(combo.options)))
    return out


def applies(ruleset_id: str, option: str, players: int) -> bool:
    """Whether ``option`` can change a round's score range at ``players``."""
    if option in UNCHANGED.get(ruleset_id, {}):
        return False
    counts, _ = ONLY_AT.get(ruleset_id, {}).get(option, (None, ""))
    return counts is None or players in counts


def agrees(
    ruleset: Ruleset[Any], reading: Reading, players: int, fixed: Mapping[str, object]
) -> bool:
    """Whether ``reading`` has the ``fixed`` option values (a verify scope's ``--option``),
    options that cannot change the bounds at ``players`` aside."""
    values = {s.name: str(s.default) for s in ruleset.option_specs} | dict(reading)
    return all(
        values.get(name) == str(value)
        for name, value in fixed.items()
        if applies(ruleset.id, name, players)
    )


def not_varied(ruleset_id: str) -> dict[str, str]:
    """Option -> why no bound of ``ruleset_id`` is proved under its other values alone
    (it cannot change them; or only at some player counts, or only with another)."""
    out = dict(UNCHANGED.get(ruleset_id, {}))
    out |= {
        name: f"only at {'/'.join(map(str, counts))} players: {why}"
        for name, (counts, why) in ONLY_AT.get(ruleset_id, {}).items()
    }
    return out | {f"{name} alone": why for name, why in COMBINED.get(ruleset_id, {}).items()}
