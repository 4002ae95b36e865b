"""``tricklaw fuzz``: the subcommand's arguments checked, the run made, the case files
written and the summary printed."""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

from tricklaw.fuzz.engine import ENGINE_TIMEOUT
from tricklaw.fuzz.progress import progress_bar
from tricklaw.fuzz.run import fuzz, replay_case
from tricklaw.model.options import parse_option_args
from tricklaw.model.replay.declaration import read_declaration
from tricklaw.model.rulesets import RULESETS, get_ruleset
from tricklaw.spec.errors import TricklawError
from tricklaw.spec.outputs import check_output_folder, write_fresh


def cmd_fuzz(args: argparse.Namespace) -> int:
    """``tricklaw fuzz``."""
    if args.replay:
        outcome = replay_case(args.engine, args.replay, args.timeout)
        wrong = outcome.disagreement
        if args.json:
            answer: dict[str, Any] = {
                "status": "agrees" if wrong is None else "disagrees",
                "ruleset": outcome.case.ruleset,
                "players": outcome.case.players,
                "actions": outcome.actions,
            }
            if wrong is not None:
                answer |= {"message": wrong.message, "clauses": list(wrong.clauses)}
            sys.stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
        elif wrong is None:
            sys.stdout.write(f"the engine now agrees on {args.replay} ({outcome.actions} steps)\n")
        else:
            game = f"{outcome.case.ruleset}, {outcome.case.players} players"
            sys.stdout.write(f"disagrees ({game}): {wrong.message} {list(wrong.clauses)}\n")
        return 0 if wrong is None else 1
    if args.games is not None and args.games < 1:
        raise TricklawError("fuzz: --games must be at least 1")
    for name in ("timeout", "time"):
        value = getattr(args, name)
        if value is not None and not (value > 0 and math.isfinite(value)):  # 0 fails any engine
            raise TricklawError(f"fuzz: --{name} must be more than 0 seconds, not {value:g}")
    if args.ruleset is not None:
        ruleset = get_ruleset(args.ruleset)
        if args.players is not None:
            ruleset.make_game(args.players)
    elif args.players is not None:
        raise TricklawError("fuzz: --players needs a RULESET")
    rulesets = [args.ruleset] if args.ruleset else list(RULESETS)
    fixed = dict(parse_option_args(args.option or []))
    for name in rulesets:  # every fixed option must be one of each ruleset fuzzed
        get_ruleset(name).make_game(get_ruleset(name).player_counts[0], fixed)
    if not 0 <= args.seed < 2**64:
        raise TricklawError(f"fuzz: --seed {args.seed} is outside 0 .. 2**64-1")
    out = Path(args.out)
    check_output_folder(out, "fuzz: --out")
    declaration = read_declaration(args.declare, "fuzz: --declare") if args.declare else None
    quiet = False if args.json else None  # --json: never a bar
    with progress_bar(args.games, "fuzz", show=quiet) as advance:
        run = fuzz(
            args.engine,
            rulesets=rulesets,
            players=args.players,
            fixed=fixed,
            games=args.games,
            seed=args.seed,
            seconds=args.time,
            keep_going=args.keep_going,
            timeout=args.timeout,
            declaration=declaration,
            asked=args.ruleset is not None,
            progress=advance,
        )
    text = not args.json
    if text:
        for note in run.notes:
            sys.stderr.write(f"tricklaw: fuzz: note: {note}\n")
    for found in run.departures:
        found["case"] = _write_case(out, "departure", found["report"])
        if text:
            sys.stdout.write(
                f"declared departure ({found['ruleset']}, {found['players']} players, game "
                f"{found['game_index']}): {found['disagreement']['message']} "
                f"[{found['rule']}]\n  case written to {found['case']}\n"
            )
    cases = []
    for report in run.failures:
        path = _write_case(out, "fuzz", report)
        found = report["disagreement"]
        cases.append(_case_json(report, path))
        if text:
            sys.stdout.write(
                f"disagrees ({report['ruleset']}, {report['players']} players, "
                f"{len(report['actions'])} actions{_shrink_note(report['shrunk'])}): "
                f"{found['message']} "
                f"{found['clauses']}{_disputes_note(found)}\n  case written to {path}\n"
            )
    if text:
        sys.stdout.write(run.summary() + "\n")
    else:
        summary = {
            "status": "disagrees" if run.failures else "agrees",
            "games": run.games,
            "actions": run.actions,
            "requests": run.requests,
            "seconds": round(run.seconds, 3),
            "declared": run.declared,
            "notes": run.notes,
            "disagreements": cases,
            "departures": [_departure_json(found) for found in run.departures],
        }
        sys.stdout.write(json.dumps(summary, ensure_ascii=False) + "\n")
    return 1 if run.failures else 0


def _write_case(out: Path, prefix: str, report: dict[str, Any]) -> Path:
    """Write a case report into ``out`` as ``PREFIX-N.json`` (a name no earlier run used)."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        # never an earlier run's case, and never half of one
        path = write_fresh(out, prefix, ".json", json.dumps(report, indent=1) + "\n")
    except OSError as exc:
        raise TricklawError(f"fuzz: cannot write to {out}: {exc.strerror}") from None
    return path


def _case_json(report: dict[str, Any], path: Path) -> dict[str, Any]:
    """A disagreement as ``--json`` lists it: where, what, and the case file."""
    found = report["disagreement"]
    return {
        "ruleset": report["ruleset"],
        "players": report["players"],
        "actions": len(report["actions"]),
        "shrunk": report["shrunk"],
        "message": found["message"],
        "clauses": list(found["clauses"]),
        "disputes": list(found.get("disputes") or []),
        "case": str(path),
    }


def _departure_json(found: dict[str, Any]) -> dict[str, Any]:
    """A declared departure as ``--json`` lists it."""
    return {
        "ruleset": found["ruleset"],
        "players": found["players"],
        "game": found["game_index"],
        "message": found["disagreement"]["message"],
        "rule": found["rule"],
        "case": str(found["case"]),
    }


def _disputes_note(found: dict[str, Any]) -> str:
    disputes = found.get("disputes") or []
    return f" (dispute {', '.join(disputes)})" if disputes else ""


def _shrink_note(shrunk: bool) -> str:
    return " after shrinking" if shrunk else ", not shrunk: the engine broke the protocol"


def add_command(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add the ``fuzz`` subcommand to the ``tricklaw`` parser's ``subparsers``."""
    p = subparsers.add_parser(
        "fuzz",
        help="differential fuzzing of an engine that speaks the oracle's stdio protocol",
        description="Play random and adversarial games on ENGINE and on the reference "
        "model, compare every answer, and shrink the first disagreement to a minimal case. "
        "Exit status: 0 agree, 1 a disagreement, 2 bad input.",
    )
    p.add_argument("ruleset", nargs="?", help="only this ruleset (default: all)")
    p.add_argument("--engine", required=True, metavar="COMMAND", help="the engine's command line")
    p.add_argument("--players", "-n", type=int, help="only this player count (needs RULESET)")
    p.add_argument("--option", "-o", action="append", metavar="NAME=VALUE", help="fix an option")
    p.add_argument("--games", type=int, default=1000, help="games to play (default 1000)")
    p.add_argument("--time", type=float, metavar="SECONDS", help="stop after this long")
    p.add_argument("--seed", type=int, default=1, help="the run's seed (default 1)")
    p.add_argument(
        "--out",
        default="fuzz-cases",
        help="where cases go: each disagreement as fuzz-N.json, each declared departure as "
        "departure-N.json (default ./fuzz-cases)",
    )
    p.add_argument("--keep-going", action="store_true", help="go on after a disagreement")
    p.add_argument(
        "--timeout", type=float, default=ENGINE_TIMEOUT, help="seconds per engine answer"
    )
    p.add_argument("--replay", metavar="FILE", help="play the case in FILE again on the engine")
    p.add_argument(
        "--json",
        action="store_true",
        help="print the result as one JSON object (the run's counts, each disagreement "
        "with its case file, each declared departure) instead of text, and no progress bar",
    )
    p.add_argument(
        "--declare",
        metavar="FILE",
        help="what the engine implements (JSON, as hello's 'implements'; default: the "
        "engine's hello answer)",
    )
    p.set_defaults(func=cmd_fuzz)
