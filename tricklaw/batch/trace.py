"""A batch chunk's games written as JSON Lines logs (the ``tricklaw-log`` format of
:mod:`tricklaw.check.log_format`), so that ``tricklaw check`` judges them like any other
engine's and they can be compared line by line with the reference's logs.

Each game's log has the header, each round's deal (hands in dealt order), every action,
every trick's leader, cards, winner and taken cards, and each round's scores, first leader,
facts and running totals; then the final totals (with the winners, named by the
reference's :meth:`~tricklaw.model.ruleset.Ruleset.winners`, when the game is complete)
and the end line.
"""

from __future__ import annotations

import json
from typing import Any

from tricklaw.batch.engine import Chunk
from tricklaw.model.actions import action_to_string
from tricklaw.model.replay.records import LOG_FORMAT, LOG_VERSION
from tricklaw.model.state import Game


def _line(obj: dict[str, Any]) -> str:
    return json.dumps(obj, separators=(",", ":"))


def game_log(game: Game, chunk: Chunk, g: int) -> list[str]:
    """The log of game ``g`` of ``chunk`` (which must have been played with a trace)."""
    if chunk.trace is None:
        raise ValueError("the chunk was played without a trace")
    notation = game.ruleset.palette.notation
    palette = game.ruleset.palette
    seats = game.seats
    header = {
        "format": LOG_FORMAT,
        "version": LOG_VERSION,
        "ruleset": game.ruleset.id,
        "players": game.players,
        "options": game.options.as_dict(),
        "seed": chunk.seeds[g],
    }
    lines = [_line(header)]
    totals = [0] * seats
    for index, events in enumerate(chunk.trace.rounds[: int(chunk.rounds[g])]):
        first_leader: int | None = None
        for event in events:
            kind = event[0]
            if kind == "deal":
                _, hands, dealer, piles, first, *rest = event
                deal: dict[str, Any] = {
                    "hands": [[notation[c] for c in h[g]] for h in hands],
                    "piles": {name: [notation[c] for c in pile[g]] for name, pile in piles.items()},
                }
                if first is not None:
                    deal["first_leader"] = int(first[g])
                extras, seating = (*rest, None, None)[:2]
                if extras:
                    deal["extras"] = {name: int(v[g]) for name, v in extras.items()}
                lines.append(
                    _line(
                        {
                            "round": index,
                            "deal": deal,
                            "dealer": None if dealer is None else int(dealer[g]),
                            "seating": (
                                list(range(seats)) if seating is None else seating[g].tolist()
                            ),
                        }
                    )
                )
            elif kind == "action":
                _, seat, action, *only = event
                if only and not only[0][g]:
                    continue
                text = action_to_string(int(action[g]), palette)
                lines.append(_line({"seat": int(seat[g]), "action": text}))
            elif kind == "trick":
                _, leader, cards, winner, receiver = event
                if first_leader is None:
                    first_leader = int(leader[g])
                taken: dict[str, list[str]] = {}
                aside: list[str] = []
                for card, to in zip(cards[g], receiver[g], strict=True):
                    if to < 0:
                        aside.append(notation[card])
                    else:
                        taken.setdefault(str(int(to)), []).append(notation[card])
                trick = {
                    "leader": int(leader[g]),
                    "cards": [notation[c] for c in cards[g]],
                    "winner": None if winner[g] < 0 else int(winner[g]),
                    "taken": taken,
                    "aside": aside,
                }
                lines.append(_line({"trick": trick}))
            elif kind == "scores":
                _, scores, facts = event
                row = [int(s) for s in scores[g]]
                totals = [t + s for t, s in zip(totals, row, strict=True)]
                lines.append(
                    _line(
                        {
                            "scores": row,
                            "first_leader": first_leader,
                            "facts": facts[g],
                            "totals": totals,
                        }
                    )
                )
    end: dict[str, Any] = {"totals": totals}
    if chunk.complete[g]:
        end["winners"] = list(game.ruleset.winners(game, tuple(totals)))
    end["complete"] = bool(chunk.complete[g])
    lines.append(_line(end))
    lines.append(_line({"end": {"lines": len(lines)}}))  # the log is whole (version 2)
    return lines
