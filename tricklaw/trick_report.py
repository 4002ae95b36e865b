"""Every dispute that bears on one trick: the report behind ``tricklaw trick``.

A trick of known cards is judged under the chosen readings (the trick clauses, e.g.
STI93-TRICK-1); this module gathers what else a player arguing over it needs to see:

* **deck**: a card outside the deck in use is refused, naming the dispute and the
  ``--option`` reading that admits it (e.g. STI93-D-DECK, ``deck=full``);
* **trick readings**: each reading of an option that can change who takes the trick
  (``OptionSpec.affects_trick``, and any disputed option whose readings give this trick
  another result), judged by the model;
* **legality**: for each card played and each reading of every disputed option, whether
  the model's ``playable`` (the play clauses, e.g. STI93-PLAY-2) lets that seat play it.
  The player's hand is unknown, so the answer is about hands: ``always`` (whatever else
  he holds), ``never``, or ``only if`` every other card in his hand is among a set of
  cards (found by asking ``playable`` about the card with each unseen card beside it,
  and confirmed on the largest hands: all allowed cards, and each forbidding card added
  to them), or ``depends`` when that test does not settle it. A reading under which a
  card is not in the deck at all makes the trick ``impossible`` under it;
* **switchless disputes**: a dispute without a model option (a recorded finding such as
  STI-D-ZEROOFF, or an edition difference) bears on the trick when one of its clauses is
  among the clauses that decided it.

Nothing here names a ruleset: it works from the ruleset's option specs, deck, ``playable``
and ``judge_trick``, and from its clause registry, so a plug-in game gets it too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tricklaw.model.cards import Card, colour_of
from tricklaw.model.options import OptionSpec, OptionValue
from tricklaw.model.record import result_json
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.state import Game
from tricklaw.model.trick import TrickResult
from tricklaw.spec import Registry, load_registry
from tricklaw.spec.errors import CardError, TricklawError

ALWAYS = "always"
NEVER = "never"
ONLY_IF = "only-if"
DEPENDS = "depends"
NOT_IN_DECK = "not-in-deck"
VERDICTS = (ALWAYS, ONLY_IF, DEPENDS, NEVER, NOT_IN_DECK)
"""What a reading says about one card played: may it be played at all?"""


@dataclass(frozen=True, slots=True)
class Legality:
    """What one reading says about one card of the trick (hand unknown)."""

    option: str
    value: str
    verdict: str
    allowed_with: tuple[Card, ...] = ()
    """For ``only-if``: the unseen cards the rest of the hand may hold (and no others)."""
    forbidden_by: tuple[Card, ...] = ()
    """For ``only-if``: the other unseen cards, any one of which in the hand forbids it."""

    def text(self, ruleset: Ruleset[Any]) -> str:
        """The verdict in words."""
        if self.verdict == ALWAYS:
            return "may be played whatever else its player held"
        if self.verdict == NEVER:
            return "may never be played here"
        if self.verdict == NOT_IN_DECK:
            return "is not in the deck"
        if self.verdict == DEPENDS:
            return "may be played with some hands, not with others"
        if not self.allowed_with:
            return "only if it was its player's last card"
        unseen = self.allowed_with + self.forbidden_by
        allowed = " or ".join(describe_cards(ruleset, self.allowed_with, unseen, "{} cards"))
        forbidden = " nor ".join(describe_cards(ruleset, self.forbidden_by, unseen, "{} card"))
        if len(forbidden) <= len(allowed):
            return f"only if its player held no {forbidden}"
        return f"only if its player held nothing else but {allowed}"


def describe_cards(
    ruleset: Ruleset[Any], cards: Sequence[Card], unseen: Sequence[Card], whole: str
) -> list[str]:
    """``cards`` (a subset of ``unseen``) in few words: a whole colour of the unseen cards
    as ``whole`` formatted with the colour's letter ("any R card"), else the cards by name."""
    chosen = set(cards)
    words: list[str] = []
    for colour in sorted({colour_of(c) for c in cards}):
        of_colour = [c for c in unseen if colour_of(c) == colour]
        if all(c in chosen for c in of_colour) and len(of_colour) > 1:
            words.append(whole.format(ruleset.palette.letter(colour)))
        else:
            words += ruleset.palette.format_all(c for c in of_colour if c in chosen)
    return words


def _allowed(
    ruleset: Ruleset[Any], game: Game, hand: Sequence[Card], prefix: Sequence[Card], card: Card
) -> bool:
    return card in ruleset.playable(game, tuple(hand), tuple(prefix))


def card_legality(game: Game, cards: Sequence[Card], position: int) -> tuple[str, tuple[Card, ...]]:
    """Whether the card at ``position`` of the trick ``cards`` may be played onto the cards
    before it under ``game``'s readings (the play clauses), for a hand otherwise unknown: a
    verdict of :data:`VERDICTS` and, for ``only-if``, the unseen cards the rest of the hand
    may hold."""
    ruleset: Ruleset[Any] = game.ruleset
    card, prefix = cards[position], cards[:position]
    deck = ruleset.deck(game.players, game.options)
    if card not in deck:
        return NOT_IN_DECK, ()
    if not _allowed(ruleset, game, [card], prefix, card):
        return NEVER, ()
    seen = set(cards)
    unseen = [c for c in deck if c not in seen]
    friends = tuple(c for c in unseen if _allowed(ruleset, game, [card, c], prefix, card))
    if len(friends) == len(unseen):
        # No single card forbids it; confirm on the whole rest of the deck as the hand.
        return (
            (ALWAYS, ())
            if _allowed(ruleset, game, [card, *unseen], prefix, card)
            else (DEPENDS, ())
        )
    # Confirm the split on the largest hands: all the allowed cards together allow it, and
    # each forbidding card still forbids it beside all of them.
    foes = [c for c in unseen if c not in friends]
    if _allowed(ruleset, game, [card, *friends], prefix, card) and not any(
        _allowed(ruleset, game, [card, foe, *friends], prefix, card) for foe in foes
    ):
        return ONLY_IF, friends
    return DEPENDS, ()


def _game_with(game: Game, name: str, value: OptionValue) -> Game:
    return game.ruleset.make_game(game.players, {**game.options.as_dict(), name: value})


def _disputed(ruleset: Ruleset[Any]) -> tuple[OptionSpec, ...]:
    return tuple(s for s in ruleset.option_specs if s.dispute and s.choices)


def check_deck(game: Game, cards: Sequence[Card]) -> None:
    """Raise CardError for a card outside the deck in use, naming each ``--option`` value
    that admits it, with its dispute where it is one (the ``deck`` clause)."""
    ruleset: Ruleset[Any] = game.ruleset
    deck = set(ruleset.deck(game.players, game.options))
    registry = load_registry(ruleset.id)
    for card in cards:
        if card in deck:
            continue
        name = ruleset.palette.format(card)
        admit = [
            f"--option {spec.name}={value} admits it"
            + (
                f" (dispute {spec.dispute}: {registry.dispute(spec.dispute).title})"
                if spec.dispute
                else f" ({spec.help})"
            )
            for spec in game.ruleset.option_specs
            if spec.choices
            for value in spec.choices
            if value != game.options[spec.name]
            and card in ruleset.deck(game.players, _game_with(game, spec.name, value).options)
        ]
        where = f"{name} is not in the {game.players}-player deck of {ruleset.id} " + (
            f"[{ruleset.clause['deck']}]"
        )
        raise CardError(where + ("; " + "; ".join(admit) if admit else ""))


def legality_readings(game: Game, cards: Sequence[Card]) -> list[dict[str, Any]]:
    """For each card played, the readings of each disputed option that disagree about
    whether it may be played (empty for a card on which they all agree)."""
    ruleset: Ruleset[Any] = game.ruleset
    registry = load_registry(ruleset.id)
    out: list[dict[str, Any]] = []
    for position, card in enumerate(cards):
        disputes: list[dict[str, Any]] = []
        for spec in _disputed(ruleset):
            assert spec.dispute is not None
            readings = []
            for value in spec.choices:
                other = _game_with(game, spec.name, value)
                verdict, friends = card_legality(other, cards, position)
                foes = (
                    tuple(
                        c
                        for c in ruleset.deck(game.players, other.options)
                        if c not in friends and c not in cards
                    )
                    if verdict == ONLY_IF
                    else ()
                )
                readings.append(Legality(spec.name, value, verdict, friends, foes))
            # Readings that differ only in which unseen cards exist at all agree here.
            common = set.intersection(
                *(
                    set(ruleset.deck(game.players, _game_with(game, spec.name, v).options))
                    for v in spec.choices
                )
            )
            if len({(r.verdict, frozenset(common & set(r.allowed_with))) for r in readings}) > 1:
                disputes.append(
                    {
                        "dispute": spec.dispute,
                        "title": registry.dispute(spec.dispute).title,
                        "option": spec.name,
                        "readings": [
                            {
                                "value": r.value,
                                "default": r.value == game.options[spec.name],
                                "verdict": r.verdict,
                                "allowed_with": ruleset.palette.format_all(r.allowed_with),
                                "forbidden_by": ruleset.palette.format_all(r.forbidden_by),
                                "text": r.text(ruleset),
                            }
                            for r in readings
                        ],
                    }
                )
        out.append(
            {
                "seat": position,
                "card": ruleset.palette.format(card),
                "verdict": card_legality(game, cards, position)[0],
                "disputes": disputes,
            }
        )
    return out


def _same(a: TrickResult, b: TrickResult) -> bool:
    return (a.winner, a.taken, a.aside) == (b.winner, b.taken, b.aside)


def trick_readings(
    game: Game, cards: Sequence[Card], context: Mapping[str, str], result: TrickResult
) -> dict[str, dict[str, Any]]:
    """Each reading of each disputed option, judged: the options marked as changing who
    takes a trick (``affects_trick``) always, and any other whose readings give this trick
    another result (found by judging, not by the mark: Hund's ``set-match`` changes a
    trick only where designation sets are in play). A reading under which the trick
    cannot be judged (its context means nothing there) is left out."""
    ruleset: Ruleset[Any] = game.ruleset
    readings: dict[str, dict[str, Any]] = {}
    for spec in ruleset.option_specs:
        if not (spec.affects_trick or (spec.dispute and spec.choices)):
            continue
        judged: dict[str, Any] = {}
        for value in spec.choices:
            other = _game_with(game, spec.name, value)
            try:
                alt = ruleset.judge_trick(other, cards, context)
            except TricklawError:
                if spec.affects_trick:
                    raise
                continue
            alt_json = result_json(alt, other.ruleset.palette)
            judged[str(value)] = {**alt_json, "same": _same(alt, result)}
        if spec.affects_trick or not all(v["same"] for v in judged.values()):
            readings[spec.name] = judged
    return readings


def impossible_under(game: Game, cards: Sequence[Card]) -> list[dict[str, Any]]:
    """The readings of disputed options under which this trick cannot happen: a card is
    not in the deck, or a card may never be played where it was."""
    ruleset: Ruleset[Any] = game.ruleset
    out: list[dict[str, Any]] = []
    for spec in _disputed(ruleset):
        for value in spec.choices:
            other = _game_with(game, spec.name, value)
            bad = [
                (ruleset.palette.format(card), verdict)
                for position, card in enumerate(cards)
                for verdict in [card_legality(other, cards, position)[0]]
                if verdict in (NOT_IN_DECK, NEVER)
            ]
            if bad:
                out.append(
                    {
                        "option": spec.name,
                        "value": value,
                        "dispute": spec.dispute,
                        "cards": [{"card": name, "verdict": verdict} for name, verdict in bad],
                    }
                )
    return out


def switchless_disputes(registry: Registry, result: TrickResult) -> list[dict[str, Any]]:
    """The disputes without a model option one of whose clauses decided the trick."""
    deciding = set(result.clauses)
    return [
        {
            "dispute": d.id,
            "title": d.title,
            "kind": d.kind,
            "found_by": list(d.found_by),
            "clauses": sorted(deciding & set(d.clauses)),
            "default": d.default,
        }
        for d in registry.disputes
        if not d.option and deciding & set(d.clauses)
    ]


def unaffected_options(
    game: Game,
    readings: Mapping[str, Any],
    legality: Sequence[Mapping[str, Any]],
    impossible: Sequence[Mapping[str, Any]],
) -> list[str]:
    """The disputed options none of whose readings changes this trick: not who takes it
    (judged: :func:`trick_readings`), not whether each card may be played, not whether
    the trick can happen at all."""
    bearing = {d["option"] for entry in legality for d in entry["disputes"]}
    bearing |= {entry["option"] for entry in impossible}
    bearing |= set(readings)
    return [s.name for s in game.ruleset.option_specs if s.dispute and s.name not in bearing]


# --- in words ----------------------------------------------------------------------------


def seat_name(offset: int) -> str:
    """A seat named by its offset from the leader."""
    return "the leader" if offset == 0 else f"seat +{offset}"


def describe_result(ruleset: Ruleset[Any], result: TrickResult) -> list[str]:
    """A trick result in words, seats as offsets from the leader."""
    fmt = ruleset.palette.format
    if result.winner is None:
        lines = [f"no winner: {' '.join(map(fmt, result.aside))} are set aside"]
    else:
        win = result.winner
        lines = [f"{seat_name(win)} ({fmt(result.cards[win])}) wins the trick"]
        lines += [
            f"{seat_name(offset)} ({fmt(result.cards[offset])}) takes {' '.join(map(fmt, cs))}"
            for offset, cs in result.taken
        ]
        if result.aside:
            lines.append(f"out of play: {' '.join(map(fmt, result.aside))}")
    lines += [f"{key.replace('-', ' ')}: {value}" for key, value in result.facts]  # words
    return lines


@dataclass(frozen=True, slots=True)
class TrickReport:
    """A judged trick and every dispute that bears on it (see the module docstring)."""

    game: Game
    cards: tuple[Card, ...]
    context: Mapping[str, str]
    result: TrickResult
    registry: Registry
    readings: Mapping[str, Mapping[str, Mapping[str, Any]]]
    legality: Sequence[Mapping[str, Any]]
    impossible: Sequence[Mapping[str, Any]]
    switchless: Sequence[Mapping[str, Any]]
    unaffected: Sequence[str]

    def as_json(self) -> dict[str, Any]:
        """The report as the ``trick --json`` object."""
        ruleset: Ruleset[Any] = self.game.ruleset
        return {
            "ruleset": ruleset.id,
            "players": self.game.players,
            "options": self.game.options.as_dict(),
            "cards": ruleset.palette.format_all(self.cards),
            **result_json(self.result, ruleset.palette),
            "readings": self.readings,
            "legality": self.legality,
            "legality_by_dispute": legality_by_dispute(self.legality),
            "impossible": self.impossible,
            "disputes": self.switchless,
            "unaffected": self.unaffected,
        }


def build_report(game: Game, cards: Sequence[Card], context: Mapping[str, str]) -> TrickReport:
    """Judge the complete trick ``cards`` (checked by the caller: one per seat, each in the
    deck) and gather every dispute that bears on it."""
    ruleset: Ruleset[Any] = game.ruleset
    result = ruleset.judge_trick(game, cards, context)
    registry = load_registry(ruleset.id)
    legality = legality_readings(game, cards)
    impossible = impossible_under(game, cards)
    readings = trick_readings(game, cards, context, result)
    return TrickReport(
        game=game,
        cards=tuple(cards),
        context=dict(context),
        result=result,
        registry=registry,
        readings=readings,
        legality=legality,
        impossible=impossible,
        switchless=switchless_disputes(registry, result),
        unaffected=unaffected_options(game, readings, legality, impossible),
    )


def legality_by_dispute(legality: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """:func:`legality_readings` regrouped for the table: each dispute once per trick,
    and under each of its readings the cards that share a verdict together, with the
    verdict said of them (``said``: the words of the ``trick`` report and of the page's
    "may each card be played?")."""
    disputes: dict[str, dict[str, Any]] = {}
    for entry in legality:
        for d in entry["disputes"]:
            grouped = disputes.setdefault(
                d["dispute"],
                {"dispute": d["dispute"], "title": d["title"], "option": d["option"], "by": {}},
            )
            for r in d["readings"]:
                reading = grouped["by"].setdefault(
                    r["value"], {"value": r["value"], "default": r["default"], "groups": {}}
                )
                cards = reading["groups"].setdefault(r["text"], [])
                cards.append({"seat": entry["seat"], "card": entry["card"]})
    return [
        {
            "dispute": d["dispute"],
            "title": d["title"],
            "option": d["option"],
            "readings": [
                {
                    "value": r["value"],
                    "default": r["default"],
                    "groups": [
                        {"text": t, "cards": c, "said": _said_of(c, t)}
                        for t, c in r["groups"].items()
                    ],
                }
                for r in d["by"].values()
            ],
        }
        for d in disputes.values()
    ]


def _said_of(cards: Sequence[Mapping[str, Any]], text: str) -> str:
    """One verdict said of the cards that share it: "B2 (seat +1) and Y3 (seat +2): each
    only if its player held no R card"."""
    names = [f"{c['card']} ({seat_name(c['seat'])})" for c in cards]
    if len(names) == 1:
        return f"{names[0]} {text}"
    return f"{', '.join(names[:-1])} and {names[-1]}: each {text}"


def _why_impossible(entry: Mapping[str, Any]) -> str:
    return ", ".join(
        f"{c['card']} "
        + ("is not in the deck" if c["verdict"] == NOT_IN_DECK else "may never be played")
        for c in entry["cards"]
    )


def report_lines(report: TrickReport) -> list[str]:
    """The ``trick`` command's report in words."""
    game, cards, context, result = report.game, report.cards, report.context, report.result
    registry = report.registry
    ruleset: Ruleset[Any] = game.ruleset
    lines = describe_result(ruleset, result)
    lines.append("decided by:")
    for cid in result.clauses:
        text = registry.dispute(cid).title if "-D-" in cid else registry.clause(cid).summary
        lines.append(f"  {cid}: {text}")
    if report.readings:
        lines.append("other readings:")
        for name, values in report.readings.items():
            for value, alt in values.items():
                if value == game.options[name]:
                    continue
                if alt["same"]:
                    verdict = "same result"
                else:
                    other = _game_with(game, name, value)
                    verdict = "; ".join(
                        describe_result(ruleset, ruleset.judge_trick(other, cards, context))
                    )
                lines.append(f"  --option {name}={value}: {verdict}")
    grouped = legality_by_dispute(report.legality)
    if grouped:
        lines.append("may each card be played? (the hands are unknown; readings disagree)")
        for dispute in grouped:
            lines.append(f"  {dispute['dispute']}: {dispute['title']}")
            for r in dispute["readings"]:
                chosen = " (chosen)" if r["default"] else ""
                said = "; ".join(g["said"] for g in r["groups"])
                lines.append(f"    --option {dispute['option']}={r['value']}{chosen}: {said}")
    for entry in report.impossible:
        lines.append(
            f"under --option {entry['option']}={entry['value']} ({entry['dispute']}) this trick "
            f"cannot happen: {_why_impossible(entry)}"
        )
    if report.switchless:
        lines.append("recorded disputes without a switch that bear on this trick:")
        for d in report.switchless:
            found = f", found by {', '.join(d['found_by'])}" if d["found_by"] else ""
            lines.append(
                f"  {d['dispute']} ({d['kind']}{found}; via {', '.join(d['clauses'])}): "
                f"{d['title']} (the model reads it as: {d['default']})"
            )
    if report.unaffected:
        lines.append(f"readings of {', '.join(report.unaffected)} do not change this trick")
    return lines
