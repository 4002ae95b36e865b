"""The pages' figures and tables of play: the score-distribution plot of random agents
(``generated/img/scores.png`` and ``scores.inc``) and the palettes and decks of every
ruleset (``generated/palettes.inc``)."""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from .markdown import write
from .rulesets import palette_line


def gen_plot(gen: Path, rounds: int) -> float:
    """Box plots of round scores per ruleset and player count (random agents)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from tricklaw.model.agents import play_random_game
    from tricklaw.model.rulesets import RULESETS

    start = time.perf_counter()
    ids = list(RULESETS)
    fig, axes = plt.subplots(1, len(ids), figsize=(3.2 * len(ids), 3.6), sharey=False)
    stats: list[str] = [
        "| ruleset | players | rounds | mean | median | min | max |",
        "|---|---|---|---|---|---|---|",
    ]
    for ax, ruleset_id in zip(axes, ids, strict=True):
        r = RULESETS[ruleset_id]
        data, labels = [], []
        for players in r.player_counts:
            game = r.make_game(players)
            scores: list[int] = []
            for seed in range(rounds):
                state = play_random_game(game, seed, max_rounds=1)
                scores += list(state.history[0].scores[: game.players])
            data.append(scores)
            labels.append(str(players))
            stats.append(
                f"| {ruleset_id} | {players} | {rounds} | {statistics.mean(scores):.1f} "
                f"| {statistics.median(scores):g} | {min(scores)} | {max(scores)} |"
            )
        ax.boxplot(data, tick_labels=labels, showfliers=False)
        ax.set_title(ruleset_id, fontsize=10)
        ax.set_xlabel("players")
        ax.grid(axis="y", alpha=0.3)
    axes[0].set_ylabel("round score per player")
    fig.suptitle(f"Round scores of random agents ({rounds} seeded rounds per setting)")
    fig.tight_layout()
    (gen / "img").mkdir(parents=True, exist_ok=True)
    target = gen / "img" / "scores.png"
    tmp = gen / "img" / "scores.tmp.png"
    fig.savefig(tmp, dpi=96, metadata={"Software": None})
    plt.close(fig)
    if target.exists() and target.read_bytes() == tmp.read_bytes():
        tmp.unlink()
    else:
        tmp.replace(target)
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
