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


def add_game_args(
    p: argparse.ArgumentParser, rounds: bool = False, players_help: str | None = None
) -> None:
    """Add the ruleset, ``--players``, ``--option`` and ``--preset`` to ``p`` (and
    ``--rounds`` with ``rounds``). With ``players_help``, ``--players`` may be left out
    (the command infers it: :func:`infer_players`) and that is its help."""
    p.add_argument("ruleset", help="ruleset id (see 'tricklaw rulesets')")
    p.add_argument(
        "--players",
        "-n",
        type=int,
        required=players_help is None,
        help=players_help or "number of players",
    )
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
    players = args.players if args.players is not None else infer_players(args, options)
    return ruleset.make_game(players, options)


def infer_players(args: argparse.Namespace, options: dict[str, Any]) -> int:
    """The player count a complete trick of ``args.cards`` implies: the one count whose
    table has a place for each card (an automatic seat, The Last's ghost or Hund's
    virtual player, has one too) and whose deck holds every card. None, or more than
    one, is an :class:`~tricklaw.spec.errors.OptionError` that names the counts."""
    ruleset = get_ruleset(args.ruleset)
    cards = ruleset.palette.parse_all(args.cards)
    fits, refused = [], []
    for n in ruleset.player_counts:
        try:
            game = ruleset.make_game(n, options)
        except OptionError as error:  # an option this table does not take: not this count
            refused.append(error)
            continue
        if game.seats == len(cards) and set(cards) <= set(ruleset.deck(n, game.options)):
            fits.append(n)
    counts = ", ".join(map(str, ruleset.player_counts))
    if len(fits) == 1:
        return fits[0]
    if len(refused) == len(ruleset.player_counts):
        raise refused[0]  # the options themselves are wrong, whatever the count
    if not fits:
        raise OptionError(
            f"--players: no table of {ruleset.id} ({counts} players) plays these "
            f"{len(cards)} cards as one trick; give --players"
        )
    raise OptionError(
        f"--players: {len(cards)} cards make a trick at "
        + " and at ".join(f"{n} players" for n in fits)
        + " (an automatic seat plays too); give --players"
    )
