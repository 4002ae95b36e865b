"""The pages' figures and tables of play: the score-distribution plots of random agents
(one SVG per ruleset, ``generated/img/scores-<id>.svg``, ``scores-plots.inc`` and
``scores.inc``) and the palettes and decks of every
ruleset (``generated/palettes.inc``)."""

from __future__ import annotations

import io
import statistics
import time
from pathlib import Path
from typing import TYPE_CHECKING

from .markdown import write
from .rulesets import palette_line

if TYPE_CHECKING:
    from tricklaw.model.state import Game


CHUNK = 2000
"""Games the batch engine plays at once for the plot (memory stays flat)."""


def first_round_scores(game: Game, rounds: int, engine: str) -> list[int]:
    """The first-round scores of each player in the random games of seeds ``0 ..
    rounds - 1``, player by player, game after game: played by the batch engine
    (:mod:`tricklaw.batch`, equal to the reference game by game: tests/test_batch.py) in
    chunks, or with ``engine`` ``reference`` (or without numpy) one by one by
    :func:`~tricklaw.model.agents.play_random_game`."""
    if engine == "batch":
        try:
            import numpy  # noqa: F401  (the batch engine's arrays)
        except ImportError:  # not installed: the reference plays
            engine = "reference"
    if engine == "batch":
        from tricklaw.batch import engine_for

        scores: list[int] = []
        batch = engine_for(game.ruleset.id)
        for start in range(0, rounds, CHUNK):
            seeds = tuple(range(start, min(rounds, start + CHUNK)))
            totals = batch.play(game, seeds, max_rounds=1).totals
            scores += [int(s) for row in totals.tolist() for s in row[: game.players]]
        return scores
    from tricklaw.model.agents import play_random_game

    scores = []
    for seed in range(rounds):
        state = play_random_game(game, seed, max_rounds=1)
        scores += list(state.history[0].scores[: game.players])
    return scores


def gen_plot(gen: Path, rounds: int, engine: str = "batch") -> float:
    """Box plots of round scores per player count (random agents), one SVG panel per
    ruleset (``img/scores-<id>.svg``), drawn in a grid by ``scores-plots.inc``; the games
    are played by ``engine`` (:func:`first_round_scores`)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from tricklaw.model.rulesets import RULESETS

    start = time.perf_counter()
    stats: list[str] = [
        "| ruleset | players | rounds | mean | median | min | max |",
        "|---|---|---|---|---|---|---|",
    ]
    figures: list[str] = ["```{container} tl-plots", ""]
    (gen / "img").mkdir(parents=True, exist_ok=True)
    style = {"font.size": 13, "svg.hashsalt": "tricklaw", "svg.fonttype": "none"}
    for ruleset_id, r in RULESETS.items():
        data, labels = [], []
        for players in r.player_counts:
            game = r.make_game(players)
            scores = first_round_scores(game, rounds, engine)
            data.append(scores)
            labels.append(str(players))
            stats.append(
                f"| {ruleset_id} | {players} | {rounds} | {statistics.mean(scores):.1f} "
                f"| {statistics.median(scores):g} | {min(scores)} | {max(scores)} |"
            )
        with plt.rc_context(style):
            fig, ax = plt.subplots(figsize=(4.6, 3.4))
            ax.boxplot(data, tick_labels=labels, showfliers=False)
            ax.set_title(ruleset_id)
            ax.set_xlabel("players")
            ax.set_ylabel("round score per player")
            ax.grid(axis="y", alpha=0.3)
            fig.tight_layout()
            svg = io.StringIO()
            fig.savefig(svg, format="svg", metadata={"Date": None, "Creator": None})
            plt.close(fig)
        write(gen / "img" / f"scores-{ruleset_id}.svg", svg.getvalue())
        figures += [
            f"![Round scores of random agents in {ruleset_id}, by player count]"
            f"(generated/img/scores-{ruleset_id}.svg)",
            "",
        ]
    write(gen / "scores-plots.inc", "\n".join([*figures, "```"]) + "\n")
    write(gen / "scores.inc", "\n".join(stats) + "\n")
    return time.perf_counter() - start


def gen_palettes(gen: Path) -> None:
    """Write the table of every ruleset's letters, colours and decks by player count."""
    from tricklaw.model.rulesets import RULESETS

    out = [
        "| ruleset | letters | colours (canonical order) | deck by player count |",
        "|---|---|---|---|",
    ]
    for ruleset_id, r in RULESETS.items():
        decks = []
        for players in r.player_counts:
            game = r.make_game(players)
            deck = r.deck(players, game.options)
            first, last = r.palette.format(deck[0]), r.palette.format(deck[-1])
            decks.append(f"{players}: {len(deck)} ({first}..{last})")
        out.append(
            f"| `{ruleset_id}` | {palette_line(ruleset_id)} | "
            f"{', '.join(r.palette.names)} | {'; '.join(decks)} |"
        )
    write(gen / "palettes.inc", "\n".join(out) + "\n")
