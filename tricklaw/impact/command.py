"""The ``tricklaw impact`` command: its arguments and what it prints.

``tricklaw impact [RULESET] [--players N] [--dispute ID] [--games G]
[--agents random,heuristic] [--jobs J] [--ray ADDRESS] [--json FILE] [--plot FILE]
[--seed S]``: for each dispute with readings (of every ruleset, or ``RULESET``'s) and
player count, ``G`` paired games under each reading and the default
(:mod:`tricklaw.impact.study`), run on ``J`` local processes (every core by default) or
on Ray (:mod:`tricklaw.impact.run`). Prints one line per case (the share of pairs whose
trick, round scores and winner differ, with 95 % Wilson intervals), writes the JSON
report (``--json``, ``-`` for stdout instead of the table) and the SVG figure
(``--plot``, :mod:`tricklaw.impact.plot`). A progress bar goes to stderr on a terminal.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from tricklaw.impact.plot import check_plotting
from tricklaw.impact.run import study
from tricklaw.impact.study import AGENTS, ENGINES, MEASURES, Step, cases
from tricklaw.model.rulesets import RULESETS, get_ruleset
from tricklaw.spec.errors import TricklawError
from tricklaw.spec.outputs import check_output_file, write_output


def add_parser(sub: Any, run: Callable[[argparse.Namespace], int] | None = None) -> None:
    """Add the ``impact`` subcommand to the ``tricklaw`` parser's subparsers ``sub``;
    ``run`` runs it (default :func:`cmd_impact`)."""
    p = sub.add_parser(
        "impact",
        help="measure how often each dispute's reading changes a game",
        description="Paired games (same deals, same agent seeds) under each reading of "
        "each dispute and its default: how often a trick, a round's scores and the "
        "winner change, with 95% Wilson intervals.",
    )
    p.add_argument("ruleset", nargs="?", help="one ruleset (default: all)")
    p.add_argument("--players", "-n", type=int, help="one player count (default: all)")
    p.add_argument("--dispute", metavar="ID", help="one dispute (default: all with readings)")
    p.add_argument("--games", type=int, default=100, help="pairs per case (default 100)")
    p.add_argument(
        "--agents",
        default="random,heuristic",
        help=f"comma-separated agents among {', '.join(AGENTS)}, and ismcts (OpenSpiel's "
        "ISMCTS: the openspiel extra; slow) (default: random,heuristic)",
    )
    p.add_argument("--jobs", "-j", type=int, help="local processes (default: every core)")
    p.add_argument(
        "--ray", metavar="ADDRESS", help="run on the Ray cluster at ADDRESS ('local': start one)"
    )
    p.add_argument(
        "--engine",
        choices=ENGINES,
        default="batch",
        help="what plays the games: the batch engine where it can (random agents on a "
        "table with a kernel; the reference otherwise), or the reference always; the same "
        "report either way (default: batch)",
    )
    p.add_argument("--seed", type=int, default=0, help="the first seed (default 0)")
    p.add_argument("--json", dest="json_path", metavar="FILE", help="write the JSON report")
    p.add_argument("--plot", metavar="FILE", help="write the figure as SVG (needs matplotlib)")
    p.set_defaults(func=run or cmd_impact)


def cmd_impact(args: argparse.Namespace, extra: Mapping[str, Step] | None = None) -> int:
    """Run the study the arguments describe and print or write its report; ``extra``
    offers agents besides :data:`~tricklaw.impact.study.AGENTS`."""
    known = {**AGENTS, **(extra or {})}
    agents = [a.strip() for a in args.agents.split(",") if a.strip()]
    unknown = [a for a in agents if a not in known]
    if unknown or not agents:
        raise TricklawError(f"--agents: unknown {unknown} (agents: {', '.join(known)})")
    if args.games < 1:
        raise TricklawError(f"--games must be at least 1, not {args.games}")
    if args.jobs is not None and args.jobs < 1:
        raise TricklawError(f"--jobs must be at least 1, not {args.jobs}")
    ids = [get_ruleset(args.ruleset).id] if args.ruleset else list(RULESETS)
    chosen = cases(ids, args.players, args.dispute, agents)
    if not chosen:
        raise TricklawError("no dispute with readings matches (see `tricklaw rulesets`)")
    # The outputs are checked before the games are played, not after.
    if args.json_path and args.json_path != "-":
        check_output_file(args.json_path, "impact: --json", "the report")
    if args.plot:
        if args.plot == "-":
            raise TricklawError("impact: --plot - : the figure is written to a file, not stdout")
        check_output_file(args.plot, "impact: --plot", "the figure")
        if args.plot == args.json_path:
            raise TricklawError(f"impact: --plot {args.plot} is also the --json file")
        check_plotting()
    report = study(
        chosen,
        args.games,
        args.seed,
        jobs=args.jobs,
        ray_address=args.ray,
        agents=known,
        engine=args.engine,
    )
    if args.json_path:
        text = json.dumps(report, indent=1)
        if args.json_path == "-":
            sys.stdout.write(text + "\n")
        else:
            write_output(args.json_path, text + "\n", "impact: the report (--json)")
    if args.plot:
        from tricklaw.impact.plot import write_svg  # matplotlib: only when asked

        try:
            write_svg(report, Path(args.plot))
        except OSError as exc:
            raise TricklawError(
                f"impact: cannot write {args.plot} (--plot): {exc.strerror}"
            ) from None
    if args.json_path != "-":
        for line in table(report):
            sys.stdout.write(line + "\n")
    return 0


def table(report: dict[str, Any]) -> list[str]:
    """One line per case: the share of differing pairs per measure, with its interval."""
    lines = [
        f"{report['games']} pairs per case from seed {report['seed']}; "
        f"{report['seconds']} s, {report['games_per_second']} games/s"
    ]
    for row in report["cases"]:
        shares = "  ".join(
            f"{m} {100 * row[m]['share']:5.1f}% [{100 * row[m]['ci95'][0]:.1f}, "
            f"{100 * row[m]['ci95'][1]:.1f}]"
            for m in MEASURES
        )
        lines.append(
            f"{row['ruleset']} {row['players']}p {row['agent']:<9} {row['dispute']}="
            f"{row['reading']}: {shares}"
        )
    return lines
