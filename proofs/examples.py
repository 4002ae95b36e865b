"""The rule texts' worked examples, checked against the model under every reading.

Each ruleset's ``spec/<ruleset>.examples.toml`` encodes its text's worked
examples as data. For every combination of the ruleset's dispute readings,
:func:`check_examples` replays each example through the model and lists what
fails. The data also says under which readings each example must hold
(``holds_under``), so an example that breaks a reading is a *finding*: a check
passes when the example holds exactly where the data says it does.

What a trick sequence checks:

* every card is in the deck for the player count (the ruleset's ``deck`` clause);
* each trick is led by the previous trick's winner (``collect``);
* the model's trick result names the winner the text names, hands the cards
  to whom the text says (``taken``), and the trick is worth the points the
  text says to its winner (``points``, via ``Ruleset.example_points`` and the
  seat's ``owners`` fact, in Sticheln his misery colour);
* every card played follows the model's rule of what may be played (``play``),
  given the smallest hand the sequence allows: the cards that player plays later
  in it. Legality is anti-monotone in the hand, so a card illegal with that hand
  is illegal with every hand holding those cards, that is, as long as the tricks
  are consecutive tricks of one round (the data's ``consecutive``). This is the
  model's side; the clauses' side, a Z3 search over every hand the text allows
  (hand sizes, the cards dealt once, the cards laid aside, stated voids), and
  whether a verdict rests on the tricks being consecutive, is
  :mod:`tricklaw.proofs.example_legality`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tricklaw.model.cards import Card
from tricklaw.model.ruleset import GAME_TIE, Ruleset
from tricklaw.model.rulesets import get_ruleset
from tricklaw.proofs.combinations import dispute_options, reading_combinations
from tricklaw.spec import load_examples
from tricklaw.spec.errors import TricklawError


@dataclass(frozen=True, slots=True)
class ExampleCheck:
    """One worked example under one combination of readings."""

    ruleset: str
    example: str
    clauses: tuple[str, ...]
    readings: tuple[tuple[str, str], ...]
    holds: bool
    expected: bool
    failures: tuple[str, ...]

    @property
    def ok(self) -> bool:
        """Whether the example holds exactly where its data says it does."""
        return self.holds == self.expected


def _expected(holds_under: Mapping[str, Sequence[str]], readings: Mapping[str, str]) -> bool:
    return all(readings[name] in values for name, values in holds_under.items())


def _check_sequence(
    ruleset: Ruleset[Any], ex: dict[str, Any], options: dict[str, str]
) -> list[str]:
    game = ruleset.make_game(ex["players"], options)
    palette = ruleset.palette
    fmt = palette.format
    fmt_all = palette.format_all
    seats: list[str] = ex["seats"]
    n = len(seats)
    deck = set(ruleset.deck(game.players, game.options))
    tricks = [(t, palette.parse_all(t["cards"])) for t in ex["trick"]]
    failures: list[str] = []
    for t, cards in tricks:
        for card in cards:
            if card not in deck:
                failures.append(
                    f"{t['clause']}: {fmt(card)} is not in the {n}-player deck "
                    f"[{ruleset.clause['deck']}]"
                )
    plays: dict[str, list[tuple[int, Card]]] = {name: [] for name in seats}
    for k, (t, cards) in enumerate(tricks):
        lead = seats.index(t["leader"])
        for pos, card in enumerate(cards):
            plays[seats[(lead + pos) % n]].append((k, card))
    for k, (t, cards) in enumerate(tricks):
        clause = t["clause"]
        lead = seats.index(t["leader"])
        if k > 0 and t["leader"] != tricks[k - 1][0]["winner"]:
            failures.append(
                f"{clause}: {t['leader']} leads, but the previous trick went to "
                f"{tricks[k - 1][0]['winner']} [{ruleset.clause['collect']}]"
            )
        result = ruleset.judge_trick(game, cards)
        got = None if result.winner is None else seats[(lead + result.winner) % n]
        if got != t.get("winner"):
            failures.append(
                f"{clause}: the text gives the trick to {t.get('winner')}, the rules to "
                f"{got or 'nobody'} [{', '.join(result.clauses)}]"
            )
        taken = {seats[(lead + offset) % n]: fmt_all(cs) for offset, cs in result.taken}
        if "taken" in t and taken != t["taken"]:
            failures.append(
                f"{clause}: the text hands out {t['taken']}, the rules {taken} "
                f"[{', '.join(result.clauses)}]"
            )
        if "points" in t and got is not None:
            won = [
                c for offset, cs in result.taken if seats[(lead + offset) % n] == got for c in cs
            ]
            points = ruleset.example_points(game, ex["owners"][got], won)
            if points != t["points"]:
                failures.append(
                    f"{clause}: the text scores the trick {t['points']} for {got}, "
                    f"the rules {points} [{ruleset.clause['score-total']}]"
                )
        for pos in range(1, n):
            player = seats[(lead + pos) % n]
            hand = tuple(sorted(c for j, c in plays[player] if j >= k))
            card = cards[pos]
            if card not in ruleset.playable(game, hand, tuple(cards[:pos])):
                later = [fmt(c) for c in hand if c != card]
                failures.append(
                    f"{clause}: {player} plays {fmt(card)} to a {fmt(cards[0])} lead while "
                    f"holding {', '.join(later)} (played later), which "
                    f"{', '.join(f'{k}={v}' for k, v in options.items() if k == 'follow')} "
                    f"forbids [{ruleset.clause['play']}]"
                )
    return failures


def _check_score(ruleset: Ruleset[Any], ex: dict[str, Any], options: dict[str, str]) -> list[str]:
    game = ruleset.make_game(ex["players"], options)
    deck = set(ruleset.deck(game.players, game.options))
    cards, total = ruleset.example_score(game, ex)
    failures = [
        f"{ex['clause']}: {ruleset.palette.format(c)} is not in the {game.players}-player deck "
        f"[{ruleset.clause['deck']}]"
        for c in cards
        if c not in deck
    ]
    if total != ex["total"]:
        failures.append(
            f"{ex['clause']}: the text's total is {ex['total']}, the rules give {total} "
            f"[{ruleset.clause['score-total']}]"
        )
    return failures


def check_examples(ruleset_id: str) -> list[ExampleCheck]:
    """Every worked example of ``ruleset_id`` under every combination of readings (but
    those of ``game-tie``: no worked example reaches the game's winner)."""
    ruleset = get_ruleset(ruleset_id)
    data = load_examples(ruleset_id)
    out = []
    options = [name for name in dispute_options(ruleset) if name != GAME_TIE]
    for readings in reading_combinations(ruleset, options):
        cases: list[tuple[str, tuple[str, ...], dict[str, Any], Any]] = [
            (ex["id"], tuple(ex["clauses"]), ex, _check_sequence) for ex in data.get("sequence", [])
        ] + [(ex["clause"], (ex["clause"],), ex, _check_score) for ex in data.get("score", [])]
        for name, clauses, ex, check in cases:
            try:
                failures = check(ruleset, ex, readings)
            except TricklawError as exc:
                failures = [f"{name}: {exc}"]
            out.append(
                ExampleCheck(
                    ruleset=ruleset_id,
                    example=name,
                    clauses=clauses,
                    readings=tuple(readings.items()),
                    holds=not failures,
                    expected=_expected(ex.get("holds_under", {}), readings),
                    failures=tuple(failures),
                )
            )
    return out
