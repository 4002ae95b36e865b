"""The ``tricklaw`` command.

This module holds the command line's frame (the parser, :func:`main` and the exit codes)
and the commands that play or judge one game: ``rulesets``, ``play``, ``trick``,
``replay`` and ``completion``. Each other command's arguments and run are in a module of
its own, which adds its subparser (``add_command``): ``bench`` (:mod:`tricklaw.bench`),
``verify`` (:mod:`tricklaw.verify_command`), ``impact``, ``vectors``, ``bounds``,
``check``, ``diff``, ``serve``, ``fuzz``, ``page`` and ``explain`` (:data:`COMMAND_MODULES`;
only the command being run is imported); the arguments naming one game are
:mod:`tricklaw.game_args`.

Bad input of any kind prints one line, ``tricklaw: error: ...``, naming the problem, and
exits with status 2; tricklaw never prints a traceback. Every command keeps
one exit-code table (:data:`EXIT_CODES`, shown by ``tricklaw --help``): 0 ok, 1 a check
failed, 2 bad input or usage, 70 an internal error, 130 interrupted. Error lines are cut
to a sane length (:func:`~tricklaw.spec.errors.clip`), and output paths are checked
before any work (:mod:`tricklaw.spec.outputs`).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import importlib
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, TypeAlias, cast

from tricklaw import __version__
from tricklaw.game_args import add_game_args, make_game
from tricklaw.judging import parse_context, parse_trick
from tricklaw.model.agents import play_random_game
from tricklaw.model.record import loads_record, to_record
from tricklaw.model.replay.records import check_record, replay
from tricklaw.model.replay.verdict import AGREES
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.rulesets import RULESETS
from tricklaw.model.state import Game, State, seat_after
from tricklaw.model.trick import TrickResult
from tricklaw.plugins import load_plugins
from tricklaw.spec import load_registry
from tricklaw.spec.errors import CheckFailedError, RecordError, TricklawError, clip
from tricklaw.spec.json_text import JsonTextError, read_text
from tricklaw.spec.outputs import check_output_file, write_output

_Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
"""What a command module's ``add_command`` is given."""

EXIT_OK = 0
"""Exit status: the command did its work, and every check it made passed."""
EXIT_FAILED = 1
"""Exit status: a check failed (a divergence, a failed proof, a disagreement, a difference)."""
EXIT_BAD_INPUT = 2
"""Exit status: bad input or usage; one line ``tricklaw: error: ...`` names it."""
EXIT_INTERNAL = 70
"""Exit status: a defect in tricklaw (``EX_SOFTWARE``); one line names the exception."""
EXIT_INTERRUPTED = 130
"""Exit status: interrupted (Ctrl-C, ``SIGINT``: 128 + 2)."""
EXIT_CODES = (
    (EXIT_OK, "ok: the work is done and every check passed"),
    (EXIT_FAILED, "a check failed: a divergence, a failing proof, a disagreement, a difference"),
    (EXIT_BAD_INPUT, "bad input or usage: one line 'tricklaw: error: ...' names the field or rule"),
    (EXIT_INTERNAL, "internal error in tricklaw (please report it): one line, no traceback"),
    (EXIT_INTERRUPTED, "interrupted (Ctrl-C)"),
)
"""The exit-code table, the same for every command (``tricklaw --help``, the docs)."""


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit status 2."""

    def error(self, message: str) -> NoReturn:
        command = self.prog.removeprefix("tricklaw").strip()
        raise TricklawError(f"{command}: {message}" if command else message)

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        """argparse's parse, then no empty argument: an empty path (``--record ""``, an
        unset shell variable) names no file and an empty name no game, so it is refused
        in one line rather than read as the current folder or ignored. (An argument whose
        default is empty, such as ``page build --docs-url``, may be given empty.)"""
        parsed, extra = super().parse_known_args(args, namespace)
        for action in self._actions:
            value = getattr(parsed, action.dest, None)
            values = value if isinstance(value, list) else [value]
            if "" in values and action.default != "":
                name = "/".join(action.option_strings) or (action.metavar or action.dest)
                self.error(f"{name} is empty: give a value")
        return parsed, extra


def _out(text: str = "") -> None:
    sys.stdout.write(text + "\n")


# --- rulesets ------------------------------------------------------------------------------


def cmd_rulesets(args: argparse.Namespace) -> int:
    """List the rulesets, their player counts and options."""
    if args.json:
        _out(
            json.dumps(
                [
                    {
                        "id": r.id,
                        "title": r.title,
                        "source": r.source,
                        "players": list(r.player_counts),
                        "trick_context": dict(r.trick_context),
                        "options": [
                            {
                                "name": s.name,
                                "default": s.default,
                                "choices": list(s.choices),
                                "dispute": s.dispute,
                                "help": s.help,
                            }
                            for s in r.option_specs
                        ],
                        "disputes": [
                            {
                                "id": d.id,
                                "title": d.title,
                                "question": d.question,
                                "kind": d.kind,
                                "option": d.option,
                                "default": d.default,
                                "reason": d.reason,
                                "readings": [
                                    {"value": reading.value, "meaning": reading.summary}
                                    for reading in d.readings
                                ],
                                "found_by": list(d.found_by),
                            }
                            for d in load_registry(r.id).disputes
                        ],
                        "presets": [
                            {"name": p.name, "title": p.title, "options": dict(p.options)}
                            for p in load_registry(r.id).presets
                        ],
                    }
                    for r in RULESETS.values()
                ],
                indent=2,
            )
        )
        return 0
    for r in RULESETS.values():
        counts = r.player_counts
        _out(f"{r.id}  {r.title}  ({counts[0]}-{counts[-1]} players; source {r.source})")
        for s in r.option_specs:
            values = "|".join(s.choices) if s.choices else f"{s.minimum}..{s.maximum}"
            dispute = f"  [{s.dispute}]" if s.dispute else ""
            setting = f"{s.name}={s.default}"
            _out(f"    --option {setting:<22} {values:<34} {s.help}{dispute}")
        for name, text in r.trick_context:
            _out(f"    trick --context {name}=...: {text}")
        for d in load_registry(r.id).disputes:
            how = f"found by {', '.join(d.found_by)}" if d.found_by else "written by hand"
            _out(f"    dispute {d.id:<22} {d.kind:<14} {how}: {d.question}")
            for reading in d.readings:
                chosen = " (the default)" if reading.value == d.default else ""
                setting = f"{d.option}={reading.value}" if d.option else reading.value
                _out(f"        {setting}{chosen}: {reading.summary}")
        for p in load_registry(r.id).presets:
            readings = " ".join(f"{k}={v}" for k, v in p.options) or "the defaults"
            _out(f"    --preset {p.name:<20} {p.title}: {readings}")
    return 0


# --- play ------------------------------------------------------------------------------------


def _describe_trick(game: Game, seating: tuple[int, ...], leader: int, result: TrickResult) -> str:
    fmt = game.ruleset.palette.format
    cards = " ".join(
        f"{seat_after(seating, leader, i)}:{fmt(c)}" for i, c in enumerate(result.cards)
    )
    takers = ", ".join(
        f"seat {seat_after(seating, leader, offset)} takes {' '.join(map(fmt, cs))}"
        for offset, cs in result.taken
    )
    if result.winner is None:
        outcome = "no winner, cards set aside"
    else:
        outcome = f"seat {seat_after(seating, leader, result.winner)} wins"
        outcome += f" ({takers})" if len(result.taken) > 1 else ""
    facts = "".join(f"; {k} {v}" for k, v in result.facts)
    return f"{cards}  -> {outcome}{facts}  ({', '.join(result.clauses)})"


def _print_game(state: State[Any]) -> None:
    game = state.game
    for log in state.history:
        dealer = f", dealer seat {log.dealer}" if log.dealer is not None else ""
        _out(f"Round {log.index}{dealer}, seat {log.first_leader} leads first")
        for key, value in log.facts:
            shown = " ".join(map(str, value)) if isinstance(value, list | tuple) else value
            _out(f"  {key}: {shown}")
        for number, (leader, result) in enumerate(log.tricks):
            _out(f"  trick {number:2}: {_describe_trick(game, log.seating, leader, result)}")
        _out(f"  scores: {list(log.scores)}")
    _out(f"Totals: {list(state.returns())}")
    if state.is_terminal():
        winners = game.ruleset.winners(game, state.returns())
        if not winners:
            _out("Winner: nobody (a tie, and the reading gives it to nobody)")
        else:
            seats = ", seat ".join(map(str, winners))
            _out(f"Winner{'s' if len(winners) > 1 else ''}: seat {seats}")
    else:
        _out(f"Stopped unfinished after {len(state.history)} rounds (--max-rounds).")


def cmd_play(args: argparse.Namespace) -> int:
    """Play a whole game with seeded random agents."""
    game = make_game(args)
    if args.record:
        check_output_file(args.record, "--record", "the record")
    if args.json and args.record == "-":
        raise TricklawError("play: --json and --record - both print to stdout: choose one")
    state = play_random_game(game, args.seed, args.max_rounds)
    if args.record:
        text = json.dumps(to_record(state, args.seed), indent=1)
        if args.record == "-":
            _out(text)
            return 0
        write_output(args.record, text + "\n", "the record")
    if args.json:
        _out(json.dumps(_game_summary(state, args.seed)))
    else:
        _print_game(state)
    return 0


def _game_summary(state: State[Any], seed: int) -> dict[str, Any]:
    """``play --json``: the game, each round's scores, the totals and the winners (None
    when the game was stopped unfinished by ``--max-rounds``)."""
    game = state.game
    over = state.is_terminal()
    return {
        "ruleset": game.ruleset.id,
        "players": game.players,
        "options": game.options.as_dict(),
        "seed": seed,
        "rounds": [
            {
                "round": log.index + 1,
                "dealer": log.dealer,
                "first_leader": log.first_leader,
                "tricks": len(log.tricks),
                "scores": list(log.scores),
            }
            for log in state.history
        ],
        "totals": list(state.returns()),
        "over": over,
        "winners": list(game.ruleset.winners(game, state.returns())) if over else None,
    }


# --- trick -----------------------------------------------------------------------------------


def cmd_trick(args: argparse.Namespace) -> int:
    """Judge one complete trick, and show every dispute that bears on it
    (:mod:`tricklaw.trick_report`)."""
    from tricklaw import trick_report as tr

    game = make_game(args)
    ruleset: Ruleset[Any] = game.ruleset
    tr.check_deck(game, ruleset.palette.parse_all(args.cards))
    cards = parse_trick(game, args.cards)
    context = parse_context(game, args.context or [])
    report = tr.build_report(game, cards, context)
    if args.json:
        _out(json.dumps(report.as_json()))
        return 0
    for line in tr.report_lines(report):
        _out(line)
    return 0


# --- bench -----------------------------------------------------------------------------------


# --- impact ----------------------------------------------------------------------------------


def cmd_impact(args: argparse.Namespace) -> int:
    """The dispute-impact study (:mod:`tricklaw.impact`), with OpenSpiel's ISMCTS offered
    as the ``ismcts`` agent (:mod:`tricklaw.search_agents`)."""
    from tricklaw.impact.command import cmd_impact as run_impact
    from tricklaw.search_agents import ismcts_step

    return run_impact(args, {"ismcts": ismcts_step})


# --- completion ------------------------------------------------------------------------------

SHELLS = ("bash", "zsh", "tcsh")
"""The shells ``tricklaw completion`` writes a script for (those of ``shtab``)."""


def cmd_completion(args: argparse.Namespace) -> int:
    """Print the shell's completion script for every command, option and choice, written
    by ``shtab`` from this very parser (so it cannot fall out of step with it)."""
    try:
        import shtab
    except ImportError:
        raise TricklawError("completion needs shtab: pip install 'tricklaw[completion]'") from None
    print(shtab.complete(build_parser(), shell=args.shell), end="")
    return 0


# --- replay ----------------------------------------------------------------------------------


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay a JSON record, checking every recorded result."""
    try:
        text = read_text(args.record)
    except JsonTextError as exc:
        raise RecordError(f"{args.record}: {exc}") from None
    record = loads_record(text)
    if args.json:  # the verdict of the same checks (each deal need only be legal), as JSON
        verdict = check_record(record, own_shuffle=True)
        answer = verdict.as_json()
        if verdict.status == AGREES:
            state = replay(record)
            answer |= {
                "ruleset": state.game.ruleset.id,
                "rounds": len(state.history),
                "totals": list(state.returns()),
            }
        sys.stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
        return verdict.exit_status
    state = replay(record)
    _out(
        f"record agrees with {state.game.ruleset.id}: {len(state.history)} rounds, "
        f"totals {list(state.returns())}"
    )
    return 0


# --- main ------------------------------------------------------------------------------------


COMMANDS: dict[str, str] = {
    "rulesets": "list rulesets, player counts and options",
    "play": "play a whole game with seeded random agents",
    "trick": "judge one complete trick (first card = lead) and show every dispute that bears on it",
    "bench": "measure random rounds per second",
    "verify": "run every check and proof",
    "impact": "measure how often each dispute's reading changes a game",
    "completion": "print a shell completion script",
    "replay": "replay a JSON game record and check every result",
    "vectors": "generate the conformance vectors (spec/vectors/v1), or check them",
    "bounds": "prove every score bound and write them (spec/bounds/v1.json), or check",
    "check": "check a game log or record from any implementation against the rules",
    "diff": "compare two editions of one game aspect by aspect, with minimal witnesses",
    "serve": "the live oracle: JSON-RPC over stdio, or HTTP with an OpenAPI description",
    "fuzz": "differential fuzzing of an engine that speaks the oracle's stdio protocol",
    "page": "build the page for players (the model in the browser, via Pyodide)",
    "explain": "what a clause or dispute says: its paraphrase, readings and options",
}
"""Every command and its one-line help, in ``tricklaw --help``'s order. Only the command
being run has its parser built and its module imported (:func:`build_parser`); the others
are these lines. tests/test_cli.py checks that each command's own parser says the same."""

COMMAND_MODULES = {
    "bench": "tricklaw.bench",
    "verify": "tricklaw.verify_command",
    "vectors": "tricklaw.vectors",
    "bounds": "tricklaw.score_bounds",
    "check": "tricklaw.check",
    "diff": "tricklaw.diff",
    "serve": "tricklaw.serve",
    "fuzz": "tricklaw.fuzz",
    "page": "tricklaw.page.build",
    "explain": "tricklaw.explain",
}
"""The commands whose arguments and run live in a module of their own (its
``add_command``)."""

ALIASES = {"explain": ("dispute", "clause")}
"""Other names of a command (``tricklaw dispute ID`` is ``tricklaw explain ID``)."""


def _add_rulesets(sub: _Subparsers) -> None:
    p = sub.add_parser("rulesets", help=COMMANDS["rulesets"])
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_rulesets)


def _add_play(sub: _Subparsers) -> None:
    p = sub.add_parser("play", help=COMMANDS["play"])
    add_game_args(p, rounds=True)
    p.add_argument("--seed", type=int, required=True, help="the game seed (0 .. 2**64-1)")
    p.add_argument("--record", metavar="FILE", help="write the JSON record to FILE ('-': stdout)")
    p.add_argument(
        "--max-rounds",
        type=int,
        default=1000,
        help="stop an unfinished game after this many rounds (default 1000)",
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="print the game's summary (each round's scores, totals, winners) as one JSON "
        "object instead of the readable log",
    )
    p.set_defaults(func=cmd_play)


def _add_trick(sub: _Subparsers) -> None:
    p = sub.add_parser("trick", help=COMMANDS["trick"])
    add_game_args(
        p, players_help="number of players (default: the one count the cards make a trick at)"
    )
    p.add_argument("cards", nargs="+", metavar="CARD", help="the cards in play order, e.g. R5")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--context",
        "-c",
        action="append",
        metavar="NAME=VALUE",
        help="what else the trick depends on (Hund: powers=R,Y designation=3; see rulesets)",
    )
    p.set_defaults(func=cmd_trick)


def _add_impact(sub: _Subparsers) -> None:
    from tricklaw.impact.command import add_parser as add_impact

    add_impact(sub, cmd_impact)


def _add_completion(sub: _Subparsers) -> None:
    p = sub.add_parser(
        "completion",
        help=COMMANDS["completion"],
        description="Print the completion script of SHELL for tricklaw's commands and "
        'options. bash: eval "$(tricklaw completion bash)" in ~/.bashrc; zsh: write it '
        "to a file named _tricklaw in a folder of $fpath.",
    )
    p.add_argument("shell", choices=SHELLS, help="the shell")
    p.set_defaults(func=cmd_completion)


def _add_replay(sub: _Subparsers) -> None:
    p = sub.add_parser("replay", help=COMMANDS["replay"])
    p.add_argument("record", help="the record file")
    p.add_argument(
        "--json",
        action="store_true",
        help="print the verdict as one JSON object, as check --json does (with the "
        "ruleset, rounds and totals when it agrees)",
    )
    p.set_defaults(func=cmd_replay)


_ADDERS: dict[str, Callable[[_Subparsers], None]] = {
    "rulesets": _add_rulesets,
    "play": _add_play,
    "trick": _add_trick,
    "impact": _add_impact,
    "completion": _add_completion,
    "replay": _add_replay,
}
"""The commands added here; the rest are in :data:`COMMAND_MODULES`."""


def _add(sub: _Subparsers, name: str) -> None:
    """Add command ``name``'s own parser (importing its module)."""
    if name in _ADDERS:
        _ADDERS[name](sub)
    else:
        importlib.import_module(COMMAND_MODULES[name]).add_command(sub)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of the ``tricklaw`` command: every command's own parser, or,
    given ``command``, that one's alone and the others as their help lines (what
    ``tricklaw --help`` shows; ``""``: help lines only), which spares importing every
    command's module on each run (:func:`main`)."""
    parser = _Parser(
        prog="tricklaw",
        description="The rules lawyer for trick-taking card games.",
        epilog="exit status (every command):\n"
        + "\n".join(f"  {code:<4} {meaning}" for code, meaning in EXIT_CODES),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"tricklaw {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    # The commands' modules take the plain argparse type; the parsers are _Parser.
    plain = cast("_Subparsers", sub)
    for name, help_line in COMMANDS.items():
        if command is None or command == name:
            _add(plain, name)
        else:
            sub.add_parser(name, help=help_line, add_help=False, aliases=ALIASES.get(name, ()))
    return parser


def _command(argv: Sequence[str]) -> str | None:
    """The command named in ``argv``: its first word that is not an option (``tricklaw``
    itself takes no option with a value), if it is a command."""
    word = next((a for a in argv if not a.startswith("-")), None)
    named = {alias: name for name, aliases in ALIASES.items() for alias in aliases}
    word = named.get(word or "", word)
    return word if word in COMMANDS else None


def _check_seed(args: argparse.Namespace) -> None:
    seed = getattr(args, "seed", None)
    if seed is not None and not 0 <= seed < 2**64:
        raise TricklawError(f"--seed {seed} is outside 0 .. 2**64-1")
    for name in ("players", "rounds", "bench_rounds", "jobs", "max_rounds"):
        value = getattr(args, name, None)
        if value is not None and value < 1:
            flag = "rounds" if name == "bench_rounds" else name.replace("_", "-")
            raise TricklawError(f"--{flag} must be at least 1, not {value}")


FULL = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})
"""The errors of a device or quota that is full: said in one line, never an internal
error."""


def _drop_output() -> None:
    """Point standard output at the null device, so that what is left in its buffer is
    not written again (and fails again) when the interpreter exits."""
    with contextlib.suppress(OSError, ValueError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    try:
        load_plugins()
        words = sys.argv[1:] if argv is None else list(argv)
        args = build_parser(_command(words) or "").parse_args(words)  # "": help lines only
        _check_seed(args)
        status: int = args.func(args)
        sys.stdout.flush()  # a full device is found here, not at the interpreter's exit
        return status
    except CheckFailedError as exc:
        sys.stderr.write(f"tricklaw: failed: {clip(str(exc))}\n")
        return EXIT_FAILED
    except TricklawError as exc:
        sys.stderr.write(f"tricklaw: error: {clip(str(exc))}\n")
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        sys.stderr.write("tricklaw: interrupted\n")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _drop_output()
        return 0
    except Exception as exc:  # never a traceback: report the defect in one line
        if isinstance(exc, OSError) and exc.errno in FULL:
            _drop_output()
            sys.stderr.write(f"tricklaw: error: cannot write the output: {exc.strerror}\n")
            return EXIT_BAD_INPUT
        sys.stderr.write(
            f"tricklaw: internal error (please report it): {clip(f'{type(exc).__name__}: {exc}')}\n"
        )
        return EXIT_INTERNAL
