"""``tricklaw diff RULESET RULESET``: compare two editions of one game aspect by aspect.

Runs the edition diff (:mod:`tricklaw.proofs.edition_diff`) and prints, for each aspect,
whether the two texts agree under their default readings (and how that was shown: Z3,
an exhaustive check of a small domain, or a sample), the minimal witness of a
difference, the edition dispute that records it, and what varying each reading changes.
``--json`` prints the same as one JSON object. Two rulesets of different game families,
an unknown id or a player count neither has is bad input: one line, exit status 2.

The exit status is :func:`exit_status`, as for ``diff(1)`` and as ``tricklaw --help``'s
table says: 0 when every aspect is shown to agree, 1 when one differs or could not be
decided (a time-out says nothing either way). Whether a difference is *recorded* as an
edition dispute is verify's question (its ``edition-diff`` rows), not this command's.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tricklaw.spec.errors import TricklawError

if TYPE_CHECKING:  # the proofs load when the command runs, not when the parser is built
    from tricklaw.proofs.edition_diff import AspectDiff


def exit_status(diffs: Sequence[AspectDiff]) -> int:
    """0 when every aspect agrees under the default readings (proved, or checked over
    its whole domain or a sample); 1 when an aspect differs or is ``unknown``."""
    from tricklaw.proofs.statuses import UNKNOWN

    undecided = (d for d in diffs if d.default.status == UNKNOWN)
    return 1 if any(d.differs for d in diffs) or any(undecided) else 0


def cmd_diff(args: argparse.Namespace) -> int:
    """Compare the two rulesets and print the differences."""
    from tricklaw.proofs import edition_diff

    if args.timeout < 1:
        raise TricklawError(f"--timeout must be at least 1 millisecond, not {args.timeout}")
    a, b = edition_diff.pair(args.first, args.second)
    diffs = edition_diff.diff(a, b, args.timeout, players=args.players)
    if args.json:
        sys.stdout.write(json.dumps(edition_diff.as_json(a, b, diffs), indent=2) + "\n")
        return exit_status(diffs)
    counts = edition_diff.common_counts(a, b, args.players)
    lines = [f"{a.id} vs {b.id} (editions of {edition_diff.family_of(a)}; players {counts})"]
    for d in diffs:
        c = d.default
        recorded = ", ".join(dispute for _, dispute in d.recorded)
        if d.differs:
            state = f"DIFFERS: {c.summary}" + (f"  [{recorded}]" if recorded else "  [unrecorded]")
        else:
            state = f"{c.status}: agree" + (f"  [recorded as {recorded}]" if recorded else "")
        lines.append(f"{d.aspect:<11} {state}")
        lines.append(f"{'':<11}   by {c.how} ({c.seconds:.3f}s)")
        lines += [f"{'':<11}   reading {note}" for note in edition_diff.reading_notes(d)]
    sys.stdout.write("\n".join(lines) + "\n")
    return exit_status(diffs)


def add_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``diff`` subcommand (``tricklaw diff RULESET RULESET [--json] [-n N]``)."""
    p = subparsers.add_parser(
        "diff", help="compare two editions of one game aspect by aspect, with minimal witnesses"
    )
    p.add_argument("first", metavar="RULESET", help="one edition")
    p.add_argument("second", metavar="RULESET", help="another edition of the same game")
    p.add_argument("--players", "-n", type=int, help="only this player count")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--timeout",
        type=int,
        default=30_000,
        metavar="MS",
        help="time-out per Z3 check in milliseconds (default 30000); a time-out is unknown",
    )
    p.set_defaults(func=cmd_diff)
