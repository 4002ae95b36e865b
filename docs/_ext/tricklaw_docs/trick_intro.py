"""The section "How a trick is won" that opens each ruleset page: the ruleset's trick
clauses (kind ``trick``) in the registry's order, each with a trick the model decides by
that clause, drawn as cards by the ``{trick}`` directive.

An example is looked for first among the worked tricks of the ruleset's examples file,
then among seeded random tricks at each player count (the same every build); a clause the
model never cites as deciding a trick is shown without one, saying so. Works for any
ruleset of the registry, a plug-in's included."""

from __future__ import annotations

import random
from typing import Any

from tricklaw.model.rulesets import get_ruleset
from tricklaw.spec import load_examples, load_registry

from .markdown import linkify

TRIES = 400
"""Random tricks tried per player count when looking for a clause's example."""


def _worked(ruleset_id: str) -> list[tuple[int, list[str]]]:
    data = load_examples(ruleset_id)
    return [
        (seq["players"], list(t["cards"]))
        for seq in data.get("sequence", [])
        for t in seq.get("trick", [])
        if "cards" in t and not seq.get("holds_under") and not t.get("holds_under")
    ]


def trick_examples(ruleset_id: str) -> dict[str, tuple[int, list[str]]]:
    """For each trick clause of ``ruleset_id``, a (players, cards) trick the model decides
    by it under the default readings; clauses with none found are left out."""
    ruleset = get_ruleset(ruleset_id)
    wanted = [c.id for c in load_registry(ruleset_id).clauses if c.kind == "trick"]
    found: dict[str, tuple[int, int, list[str]]] = {}

    def consider(players: int, texts: list[str], worked: bool = False) -> None:
        game = ruleset.make_game(players)
        try:
            result = ruleset.judge_trick(game, ruleset.palette.parse_all(texts), {})
        except Exception:  # a worked trick that needs a context: skip it
            return
        # Prefer the text's own tricks, then tricks that need the fewest other clauses.
        rank = -1 if worked else len(result.clauses)
        for cid in result.clauses:
            if cid in wanted and (cid not in found or rank < found[cid][0]):
                found[cid] = (rank, players, texts)

    for players, texts in _worked(ruleset_id):
        consider(players, texts, worked=True)
    rng = random.Random(f"{ruleset_id} trick examples")
    for players in ruleset.player_counts:
        game = ruleset.make_game(players)
        deck = list(ruleset.deck(players, game.options))
        for _ in range(TRIES):
            cards = rng.sample(deck, game.seats)
            consider(players, ruleset.palette.format_all(cards))
    return {cid: (players, texts) for cid, (_, players, texts) in found.items()}


def trick_intro(ruleset_id: str) -> list[str]:
    """The MyST lines of the "How a trick is won" section."""
    reg = load_registry(ruleset_id)
    clauses = [c for c in reg.clauses if c.kind == "trick"]
    examples = trick_examples(ruleset_id)
    out: list[str] = [
        "## How a trick is won",
        "",
        "The trick clauses in the text's order, each with a trick the model decides by it "
        "(the winning card is filled in; *Decided by* lists every clause it used).",
        "",
    ]
    for number, c in enumerate(clauses, 1):
        out += [f"{number}. {{clause}}`{c.id}`: {linkify(c.summary)}", ""]
        if c.id in examples:
            players, cards = examples[c.id]
            out += [
                f"   ```{{trick}} {ruleset_id} {' '.join(cards)}",
                f"   :players: {players}",
                "   ```",
                "",
            ]
        else:
            out += [
                "   *(No drawn example: the model does not cite this clause when it judges "
                "a trick's cards alone; it acts elsewhere in the round or needs the trick's "
                "context.)*",
                "",
            ]
    return out


def summary_of(ruleset_id: str) -> dict[str, Any]:
    """How many trick clauses have a drawn example (for tests)."""
    clauses = [c.id for c in load_registry(ruleset_id).clauses if c.kind == "trick"]
    return {"clauses": clauses, "examples": trick_examples(ruleset_id)}
