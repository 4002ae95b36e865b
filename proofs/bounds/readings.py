"""Which readings of the rules the score bounds are proved under.

A bound is proved for every reading that can change a player's round score range:
each dispute option (and custom option) that changes what a round scores, what may be
played, who takes a trick or which cards are dealt is varied on its own, one value at a
time from the defaults, at the player counts where it can matter; a few pairs (and
triples of one custom option's sub-options) that interact are varied together.

Every option of every ruleset is classified by its game's
:class:`~tricklaw.proofs.bounds.game.ReadingTable` (in the game's module of this
package), and a test keeps it so: unchanged (with the reason), varied only at some
player counts, varied only in combinations, or varied on its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tricklaw.model.ruleset import Ruleset
from tricklaw.model.rulesets import get_ruleset
from tricklaw.proofs.bounds.game import BOUNDS, ReadingTable
from tricklaw.spec.proved_bounds import Reading


def table(ruleset_id: str) -> ReadingTable:
    """The reading table of ``ruleset_id`` (raises OptionError for a game without bounds)."""
    return BOUNDS.lookup(ruleset_id).readings


def readings(ruleset: Ruleset[Any] | str, players: int) -> list[Reading]:
    """The readings bounds are proved under at ``players``: the defaults first, then each
    varied option value on its own, then the combinations."""
    rs = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    own = table(rs.id)
    out: list[Reading] = [()]
    for spec in rs.option_specs:
        if not spec.choices or spec.name in own.combined:
            continue
        if not applies(rs.id, spec.name, players):
            continue
        out += [((spec.name, value),) for value in spec.choices if value != spec.default]
    for combo in own.combinations:
        if combo.players is None or players in combo.players:
            out.append(tuple(sorted(combo.options)))
    return out


def applies(ruleset_id: str, option: str, players: int) -> bool:
    """Whether ``option`` can change a round's score range at ``players``."""
    own = table(ruleset_id)
    if option in own.unchanged:
        return False
    counts, _ = own.only_at.get(option, (None, ""))
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
    own = table(ruleset_id)
    out = dict(own.unchanged)
    out |= {
        name: f"only at {'/'.join(map(str, counts))} players: {why}"
        for name, (counts, why) in own.only_at.items()
    }
    return out | {f"{name} alone": why for name, why in own.combined.items()}
