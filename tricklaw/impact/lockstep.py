"""A chunk of a study's paired games played by the batch engine (:mod:`tricklaw.batch`).

The batch engine plays random agents only, drawing from the same streams as the reference
(:func:`tricklaw.model.agents.random_step` with :func:`tricklaw.model.rng.agent_rng`), so
a seed gives the same game in both engines; :func:`pairs` plays the chunk's seeds under
both readings in lockstep and compares each pair on the study's three measures, as
:func:`tricklaw.impact.study.compare` does on the reference's states, from the engine's
trace arrays (writing each game's log and reading it back cost more than the reference's
games):

* a trick is its leader, its winner and who took which cards, in the order played: the
  cards sorted stably by recipient, cards put aside left out (the reference's taken cards
  by seat); the games' tricks differ when any trick of any round differs, or a game has
  a round or a trick the other has not;
* the scores differ when any round's do, or a game has a round more;
* where the study compares over the rounds both games play (an option that sets the
  number of rounds, :func:`tricklaw.impact.study.compare`'s ``common``), a round more is
  no difference;
* the winners are the ruleset's own (:meth:`~tricklaw.model.ruleset.Ruleset.winners`) of
  each game's totals.

Where the batch engine has no path, None is returned and the caller plays the reference:
numpy not installed, a game its engine does not play in lockstep
(:meth:`~tricklaw.batch.engine.BatchEngine.kernel_plays`: no numba, a plug-in's ruleset),
and agents other than random (the heuristic and search agents are not vectorised: they
decide from the model's views card by card, which a kernel would have to restate rule by
rule).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tricklaw.model.state import Game

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from tricklaw.batch.engine import Chunk

Outcome = list[tuple[bool, bool, bool]]


def events(chunk: Chunk, round_index: int) -> list[tuple[object, ...]]:
    """Round ``round_index``'s events of a chunk played with a trace."""
    if chunk.trace is None:
        raise ValueError("the chunk was played without a trace")
    return chunk.trace.rounds[round_index]


def trick_rows(chunk: Chunk, round_index: int) -> npt.NDArray[np.int64]:
    """Round ``round_index``'s tricks of every game: ``(games, tricks, 2 + 2 * seats)``
    rows of leader, winner, then the recipients and cards sorted stably by recipient
    (an aside card as recipient ``seats``, card ``-1``)."""
    import numpy as np

    rows = []
    for event in events(chunk, round_index):
        if event[0] != "trick":
            continue
        _, leader, cards, winner, recipients = event
        recipients = np.asarray(recipients, dtype=np.int64)
        seats = recipients.shape[1]
        aside = recipients < 0
        recipients = np.where(aside, seats, recipients)
        cards = np.where(aside, -1, np.asarray(cards, dtype=np.int64))
        order = np.argsort(recipients, axis=1, kind="stable")
        rows.append(
            np.concatenate(
                [
                    np.asarray(leader, dtype=np.int64)[:, None],
                    np.asarray(winner, dtype=np.int64)[:, None],
                    np.take_along_axis(recipients, order, axis=1),
                    np.take_along_axis(cards, order, axis=1),
                ],
                axis=1,
            )
        )
    games = len(chunk.seeds)
    return np.stack(rows, axis=1) if rows else np.zeros((games, 0, 0), dtype=np.int64)


def round_scores(chunk: Chunk, round_index: int) -> npt.NDArray[np.int64]:
    """Round ``round_index``'s scores of every game, ``(games, seats)``."""
    import numpy as np

    event = next(e for e in events(chunk, round_index) if e[0] == "scores")
    return np.asarray(event[1], dtype=np.int64)


def compared(
    a: Chunk, b: Chunk, common: bool = False
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """Per game, whether the two chunks' games differ in a trick, and in a round's scores
    (with ``common``, over the rounds both games play only)."""
    import numpy as np

    rounds_a, rounds_b = np.asarray(a.rounds), np.asarray(b.rounds)
    trick = (rounds_a != rounds_b) & (not common)
    score = trick.copy()
    for r in range(int(min(rounds_a.max(), rounds_b.max()))):
        both = (r < rounds_a) & (r < rounds_b)
        rows_a, rows_b = trick_rows(a, r), trick_rows(b, r)
        if rows_a.shape == rows_b.shape:
            same = (rows_a == rows_b).all(axis=(1, 2))
        else:
            same = np.zeros(len(a.seeds), dtype=np.bool_)
        trick |= both & ~same
        score |= both & ~(round_scores(a, r) == round_scores(b, r)).all(axis=1)
    return trick, score


def pairs(
    base: Game, other: Game, first: int, count: int, max_rounds: int, *, common: bool = False
) -> Outcome | None:
    """The pairs of random games of seeds ``first .. first + count - 1`` under ``base``
    and ``other``, each compared (trick, score, winner; with ``common``, tricks and
    scores over the rounds both play); None where the batch engine has no path for either
    game."""
    try:
        import numpy  # noqa: F401  (the batch engine's arrays)
    except ImportError:  # not installed: the reference plays
        return None
    from tricklaw.batch import engine_for

    seeds = tuple(range(first, first + count))
    played = []
    for game in (base, other):
        engine = engine_for(game.ruleset.id)
        if not engine.kernel_plays(game):  # the reference plays this game
            return None
        played.append(engine.play(game, seeds, max_rounds, trace=True))
    trick, score = compared(played[0], played[1], common)
    out = []
    for g in range(count):
        winners_a = base.ruleset.winners(base, tuple(int(x) for x in played[0].totals[g]))
        winners_b = other.ruleset.winners(other, tuple(int(x) for x in played[1].totals[g]))
        out.append((bool(trick[g]), bool(score[g]), winners_a != winners_b))
    return out
