"""Every combination of the readings of some options: what the proofs are run under.

A dispute option (or a custom option with choices) has one value per reading of the
rules; the trick obligations (:mod:`tricklaw.proofs.obligations`), the worked examples
(:mod:`tricklaw.proofs.examples`) and their Z3 constraints
(:mod:`tricklaw.proofs.example_constraints`) are each checked under every combination
of the readings of the options they depend on.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from tricklaw.model.options import OptionValue
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.state import Game
from tricklaw.spec.errors import OptionError


def reading_combinations(
    ruleset: Ruleset[Any], names: Collection[str], chosen: Mapping[str, str] | None = None
) -> list[dict[str, str]]:
    """Every combination of the readings of the options ``names`` that ``ruleset`` has
    (option name -> value, in the ruleset's option order), each fixed to ``chosen``
    where given."""
    fixed = chosen or {}
    specs = [s for s in ruleset.option_specs if s.name in names and s.choices]
    choices = [[fixed[s.name]] if s.name in fixed else list(s.choices) for s in specs]
    return [
        {s.name: v for s, v in zip(specs, values, strict=True)}
        for values in itertools.product(*choices)
    ]


def dispute_options(ruleset: Ruleset[Any]) -> tuple[str, ...]:
    """The names of ``ruleset``'s options that select a reading of a dispute."""
    return tuple(s.name for s in ruleset.option_specs if s.dispute)


def with_deck_variants(
    ruleset: Ruleset[Any],
    names: Collection[str],
    deck_names: Collection[str],
    chosen: Mapping[str, str] | None = None,
) -> list[dict[str, str]]:
    """:func:`reading_combinations` of ``names``, then each other value of each option of
    ``deck_names`` (options that change only the deck in play) on its own, with
    ``names`` at their defaults; every option that ``chosen`` fixes keeps its value
    there (and is not varied)."""
    fixed = chosen or {}
    out = reading_combinations(ruleset, names, fixed)
    base = {
        s.name: fixed.get(s.name, str(s.default)) for s in ruleset.option_specs if s.name in names
    }
    for spec in ruleset.option_specs:
        if spec.name in deck_names and spec.choices and spec.name not in fixed:
            out += [{**base, spec.name: v} for v in spec.choices if v != str(spec.default)]
    held = {k: v for k, v in fixed.items() if k in deck_names}
    return [{**r, **held} for r in out]


def option_variants(
    ruleset: Ruleset[Any], game: Game, fixed: Collection[str]
) -> list[tuple[str, Game]]:
    """The games a sampled check of the model draws from, each with a label: ``game``
    (labelled ``defaults``), then ``game`` with each other value of each option not in
    ``fixed`` (the readings the check reads, verify's ``--option``), on its own and with
    the values it acts with (``OptionSpec.acts_with``), where those are not fixed. An
    option a rule does not read can still decide which of its cases a game reaches
    (Hund's Lead goes to no suit only when two designation sets may name one suit).
    Integer options are house parameters and not varied; a value the game refuses at
    this player count (an ``OptionError``) is left out."""
    out = [("defaults", game)]
    for spec in ruleset.option_specs:
        if spec.name in fixed or not spec.choices:
            continue
        acting = {k: v for k, v in spec.acts_with if game.options[k] != v}
        if any(k in fixed for k in acting):
            continue  # the values it acts with are fixed otherwise: it changes nothing
        for value in spec.choices:
            if value == game.options[spec.name]:
                continue
            changed: dict[str, OptionValue] = {**game.options.as_dict(), **acting, spec.name: value}
            try:
                out.append(
                    (
                        _variant_label(acting, spec.name, value),
                        ruleset.make_game(game.players, changed),
                    )
                )
            except OptionError:
                continue
    return out


def _variant_label(acting: Mapping[str, OptionValue], name: str, value: str) -> str:
    return ", ".join(f"{k}={v}" for k, v in {**acting, name: value}.items())


Pair = tuple[tuple[str, str], tuple[str, str]]
"""Two options' readings, ``((name, value), (other name, other value))``."""


def pairwise_variants(
    ruleset: Ruleset[Any],
    game: Game,
    fixed: Collection[str],
    given: Sequence[Mapping[str, OptionValue]] = (),
) -> list[tuple[str, Game]]:
    """Games that together with ``game`` and the games of the readings ``given`` (values
    that differ from ``game``'s) give every pair of readings of two options not in
    ``fixed`` at least once, each reading where it acts (:func:`pairwise_readings` from
    ``game``'s options), each labelled with its readings that are not ``game``'s; a
    combination the game refuses (an ``OptionError``) is left out."""
    base = game.options.as_dict()
    out: list[tuple[str, Game]] = []
    for changed in pairwise_readings(ruleset, base, fixed, given):
        try:
            played = ruleset.make_game(game.players, {**base, **changed})
        except OptionError:
            continue
        label = "pairwise " + ", ".join(f"{k}={v}" for k, v in changed.items())
        out.append((label, played))
    return out


def pairwise_readings(
    ruleset: Ruleset[Any],
    base: Mapping[str, OptionValue],
    fixed: Collection[str] = (),
    given: Sequence[Mapping[str, OptionValue]] = (),
) -> list[dict[str, OptionValue]]:
    """Sets of readings that together with ``base`` (every option's value) and the sets
    already ``given`` (values that differ from ``base``) give every pair of readings of
    two options not in ``fixed`` at least once, each reading where it acts: a covering
    array of strength 2, built greedily (few sets, where every combination would be
    thousands), each set as the values that differ from ``base``.
    One option at a time never plays two readings that are not the defaults together; a
    bug that needs two of them, such as a rule reading one option only under another's
    reading, shows under one of these sets.

    A reading that acts only with other options' values (``OptionSpec.acts_with``) is
    paired only in sets that have those values, and a pair no such set can hold (a
    sub-option's reading beside a value of its parent it does not act with, two readings
    that act with different values of one option, or with a value a ``fixed`` option does
    not have) is left out. Deterministic: options in the ruleset's order, readings in
    their order."""
    specs = [s for s in ruleset.option_specs if s.choices and s.name not in fixed]
    acting = {s.name: dict(s.acts_with) for s in specs}

    def fits(row: Mapping[str, OptionValue], name: str, value: str) -> bool:
        """Whether ``name=value`` can join ``row``: every reading of the two that is not
        ``base``'s has the values it acts with, and no two ask for different values of
        one option."""
        joined = {**row, name: value}
        joined.update({k: base[k] for k in fixed if k in base})  # never varied
        wanted: dict[str, OptionValue] = {}
        for held, val in joined.items():
            if held in acting and val != base[held]:
                for parent, needed in acting[held].items():
                    if joined.get(parent, needed) != needed or wanted.get(parent, needed) != needed:
                        return False
                    wanted[parent] = needed
        return True

    todo: set[Pair] = set()
    for a, b in itertools.combinations(specs, 2):
        for x in a.choices:
            for y in b.choices:
                if fits({a.name: x}, b.name, y):
                    todo.add(((a.name, x), (b.name, y)))
    for known in [{}, *given]:
        played = {**base, **known}
        todo -= {p for p in todo if all(played.get(k) == v for k, v in p)}
    out: list[dict[str, OptionValue]] = []
    while todo:
        seed = min(todo)
        row: dict[str, OptionValue] = dict(seed)
        for spec in specs:
            if spec.name not in row:
                allowed = [v for v in spec.choices if fits(row, spec.name, v)]
                row[spec.name] = max(allowed, key=lambda v: _gain(todo, row, spec.name, v))
        for name, value in list(row.items()):
            if value != base[name]:
                row.update(acting[name])  # integer parents (The Last's rounds) too
        todo -= {p for p in todo if all(row.get(k) == v for k, v in p)} | {seed}
        changed = {k: v for k, v in row.items() if v != base.get(k)}
        if changed:  # else ``base`` itself
            out.append(changed)
    return out


def _gain(todo: set[Pair], row: Mapping[str, OptionValue], name: str, value: str) -> int:
    """How many pairs still to cover ``name=value`` would cover beside ``row``."""
    return sum(
        1
        for held, val in row.items()
        if ((held, str(val)), (name, value)) in todo or ((name, value), (held, str(val))) in todo
    )
