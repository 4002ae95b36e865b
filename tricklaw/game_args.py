"""The arguments that name one game on the command line (``RULESET --players N
[--option NAME=VALUE ...] [--preset NAME] [--rounds R]``), shared by ``tricklaw play``,
``trick`` and ``bench``, and the game they name."""

from __future__ import annotations

import argparse
from typing import Any

from tricklaw.judging import preset_options
from tricklaw.model.options import parse_option_args
from tricklaw.model.rulesets import get_ruleset
from tricklaw.model.state import Game
from tricklaw.spec.errors import OptionError


def add_game_args(p: argparse.ArgumentParser, rounds: bool = False) -> None:
    """Add the ruleset, ``--players``, ``--option`` and ``--preset`` to ``p`` (and
    ``--rounds`` with ``rounds``)."""
    p.add_argument("ruleset", help="ruleset id (see 'tricklaw rulesets')")
    p.add_argument("--players", "-n", type=int, required=True, help="number of players")
    p.add_argument(
        "--option",
        "-o",
        action="append",
        metavar="NAME=VALUE",
        help="choose an option or dispute reading (repeatable)",
    )
    p.add_argument(
        "--preset",
        metavar="NAME",
        help="start from a named set of readings (see 'tricklaw rulesets'); --option overrides",
    )
    if rounds:
        p.add_argument("--rounds", type=int, help="number of rounds (sets option rounds)")


def make_game(args: argparse.Namespace) -> Game:
    """The game the arguments of :func:`add_game_args` name: the preset's readings, then
    each ``--option``, then ``--rounds`` (which must not contradict ``--option rounds``);
    an unknown ruleset, option or reading, or a wrong player count, is a
    :class:`~tricklaw.spec.errors.TricklawError` naming it."""
    ruleset = get_ruleset(args.ruleset)
    options: dict[str, Any] = preset_options(ruleset, getattr(args, "preset", None))
    options.update(parse_option_args(args.option or []))
    rounds = getattr(args, "rounds", None)
    if rounds is not None:
        given = options.get("rounds")
        if given is not None and str(given).strip() != str(rounds):
            raise OptionError(
                f"--rounds {rounds} contradicts --option rounds={given}: give the number once"
            )
        options["rounds"] = rounds
    return ruleset.make_game(args.players, options)
