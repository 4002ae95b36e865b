"""The page's JSON API: what the page asks the model, answered by the functions the
command line uses (run inside Pyodide; plain Python, no z3).

One entry point, :func:`call` (method name, JSON params -> JSON text), so that the page's
JavaScript makes one kind of call. Methods:

* ``rulesets``: every ruleset, its player counts, options with their disputes' readings,
  trick and score context, and presets (``[[preset]]``);
* ``table``: the deck of one table (ruleset, players, readings) by colour;
* ``judge``: ``tricklaw trick --json``'s object (:func:`tricklaw.trick_report.build_report`),
  plus the report's lines and each deciding clause's paraphrase and source lines (the
  trick clauses, e.g. STI93-TRICK-1);
* ``may_play``: may this card be played from this hand onto the trick so far (the play
  clause, e.g. STI93-PLAY-2), with the readings that answer otherwise;
* ``score``: a round's score from the cards each seat took (``Ruleset.score_piles``, the
  score clauses, e.g. STI93-SCORE-1).

Errors of the input come back as ``{"error": message}``, never as an exception.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from tricklaw import trick_report
from tricklaw.judging import check_context, parse_trick, preset_options
from tricklaw.model.cards import colour_of
from tricklaw.model.options import OptionSpec
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.rulesets import RULESETS, get_ruleset
from tricklaw.model.state import Game
from tricklaw.spec import load_registry
from tricklaw.spec.errors import TricklawError


def _spec_json(ruleset: Ruleset[Any], spec: OptionSpec) -> dict[str, Any]:
    registry = load_registry(ruleset.id)
    readings = (
        {r.value: r.summary for r in registry.dispute(spec.dispute).readings}
        if spec.dispute
        else {}
    )
    return {
        "name": spec.name,
        "default": str(spec.default),
        "choices": list(spec.choices),
        "dispute": spec.dispute,
        "title": registry.dispute(spec.dispute).title if spec.dispute else spec.help,
        "help": spec.help,
        "readings": [{"value": v, "summary": readings.get(v, "")} for v in spec.choices],
    }


def rulesets() -> list[dict[str, Any]]:
    """Every ruleset as the page's menus need it."""
    out = []
    for r in RULESETS.values():
        registry = load_registry(r.id)
        out.append(
            {
                "id": r.id,
                "title": r.title,
                "players": list(r.player_counts),
                "colours": [
                    {"letter": letter, "name": name}
                    for letter, name in zip(r.palette.letters, r.palette.names, strict=True)
                ],
                "options": [_spec_json(r, s) for s in r.option_specs if s.choices],
                "context": [
                    {"name": n, "help": h, "when": dict(r.trick_context_when.get(n, ()))}
                    for n, h in r.trick_context
                ],
                "score_context": [{"name": n, "help": h} for n, h in r.score_context],
                "presets": [
                    {
                        "name": p.name,
                        "title": p.title,
                        "summary": p.summary,
                        "options": dict(p.options),
                    }
                    for p in registry.presets
                ],
            }
        )
    return out


def make_game(
    ruleset_id: str, players: int, options: Mapping[str, str], preset: str | None = None
) -> Game:
    """The game of a table: the preset's readings, then ``options`` over them (as
    ``--preset`` and ``--option`` on the command line)."""
    ruleset = get_ruleset(ruleset_id)
    chosen: dict[str, Any] = preset_options(ruleset, preset)
    chosen.update(options)
    return ruleset.make_game(int(players), chosen)


def table(ruleset: str, players: int, options: Mapping[str, str], preset: str = "") -> Any:
    """The deck of the table, by colour, and the readings in force."""
    game = make_game(ruleset, players, options, preset)
    r: Ruleset[Any] = game.ruleset
    deck = r.deck(game.players, game.options)
    return {
        "options": {k: str(v) for k, v in game.options.as_dict().items()},
        "seats": game.seats,
        "deck": [
            {
                "letter": r.palette.letter(colour),
                "name": r.palette.name(colour),
                "cards": [r.palette.format(c) for c in deck if colour_of(c) == colour],
            }
            for colour in range(len(r.palette.letters))
        ],
    }


def _clauses(game: Game, ids: Sequence[str]) -> list[dict[str, Any]]:
    registry = load_registry(game.ruleset.id)
    out = []
    for cid in ids:
        if cid in {d.id for d in registry.disputes}:
            d = registry.dispute(cid)
            out.append({"id": cid, "summary": d.title, "lines": [list(x) for x in d.lines]})
        else:
            c = registry.clause(cid)
            out.append({"id": cid, "summary": c.summary, "lines": [list(x) for x in c.lines]})
    return out


def judge(
    ruleset: str,
    players: int,
    options: Mapping[str, str],
    *,
    cards: Sequence[str],
    context: Mapping[str, str] | None = None,
    preset: str = "",
) -> Any:
    """``tricklaw trick --json`` for the trick ``cards`` (the same
    :func:`~tricklaw.trick_report.build_report`), with its lines and clauses."""
    game = make_game(ruleset, players, options, preset)
    r: Ruleset[Any] = game.ruleset
    trick_report.check_deck(game, r.palette.parse_all(cards))
    parsed = parse_trick(game, cards)
    ctx = check_context(game, {k: v for k, v in (context or {}).items() if v})
    report = trick_report.build_report(game, parsed, ctx)
    return {
        "report": report.as_json(),
        "lines": trick_report.report_lines(report),
        "clauses": _clauses(game, report.result.clauses),
    }


def may_play(
    ruleset: str,
    players: int,
    options: Mapping[str, str],
    *,
    hand: Sequence[str],
    trick: Sequence[str],
    card: str,
    preset: str = "",
) -> Any:
    """May ``card`` of ``hand`` be played onto ``trick`` (the cards so far, lead first)?
    The model's ``playable`` (the play clause) answers under the readings in force and
    under each other reading of every disputed option; those that answer otherwise are
    listed."""
    game = make_game(ruleset, players, options, preset)
    r: Ruleset[Any] = game.ruleset
    fmt = r.palette.format
    held = tuple(r.palette.parse_all(hand))
    so_far = tuple(r.palette.parse_all(trick))
    chosen = r.palette.parse(card)
    if chosen not in held:
        held = (*held, chosen)
    if len(so_far) >= game.seats:
        raise TricklawError(f"the trick is complete ({game.seats} cards); no card may follow")
    deck = set(r.deck(game.players, game.options))
    for c in (*held, *so_far):
        if c not in deck:
            trick_report.check_deck(game, [c])
    if len(set(held) | set(so_far)) != len(held) + len(so_far):
        raise TricklawError("a card is both in the hand and in the trick; each card exists once")

    def answer(g: Game) -> tuple[bool, list[str]]:
        allowed = g.ruleset.playable(g, held, so_far)
        return chosen in allowed, [fmt(c) for c in allowed]

    legal, allowed = answer(game)
    registry = load_registry(r.id)
    play = r.clause["play"]
    readings = []
    for spec in r.option_specs:
        if not (spec.dispute and spec.choices):
            continue
        for value in spec.choices:
            if value == str(game.options[spec.name]):
                continue
            current = {k: str(v) for k, v in game.options.as_dict().items()}
            other = make_game(r.id, game.players, {**current, spec.name: value})
            if not set(held) | set(so_far) <= set(r.deck(other.players, other.options)):
                continue
            alt, alt_allowed = answer(other)
            if alt != legal:
                readings.append(
                    {
                        "option": spec.name,
                        "value": value,
                        "dispute": spec.dispute,
                        "title": registry.dispute(spec.dispute).title,
                        "legal": alt,
                        "playable": alt_allowed,
                    }
                )
    name = fmt(chosen)
    if legal:
        reason = f"{name} may be played [{play}]"
    else:
        reason = f"{name} may not be played: the hand must play one of {' '.join(allowed)} [{play}]"
    return {
        "card": name,
        "legal": legal,
        "playable": allowed,
        "reason": reason,
        "clause": {"id": play, "summary": registry.clause(play).summary},
        "readings": readings,
    }


def score(
    ruleset: str,
    players: int,
    options: Mapping[str, str],
    *,
    piles: Sequence[Sequence[str]],
    context: Mapping[str, str] | None = None,
    preset: str = "",
) -> Any:
    """Each seat's round score from the cards it took (``Ruleset.score_piles``)."""
    game = make_game(ruleset, players, options, preset)
    r: Ruleset[Any] = game.ruleset
    parsed = [r.palette.parse_all(p) for p in piles]
    if len(parsed) != game.seats:
        raise TricklawError(f"give {game.seats} piles (one per seat), not {len(parsed)}")
    seen = [c for p in parsed for c in p]
    if len(set(seen)) != len(seen):
        raise TricklawError("a card is in two piles; each card exists once")
    trick_report.check_deck(game, seen)
    scores = r.score_piles(game, parsed, {k: v for k, v in (context or {}).items() if v})
    return {"scores": list(scores), "clause": r.clause.get("score-total", "")}


PAGE_METHODS = {
    "rulesets": rulesets,
    "table": table,
    "judge": judge,
    "may_play": may_play,
    "score": score,
}
"""The page's methods by name."""


def call(method: str, params: str) -> str:
    """Answer ``method`` with the JSON object ``params`` as keyword arguments; the answer
    (or ``{"error": message}`` for bad input) as JSON text."""
    try:
        function: Any = PAGE_METHODS[method]
        result = function(**json.loads(params or "{}"))
    except KeyError:
        if method not in PAGE_METHODS:
            return json.dumps({"error": f"no method {method!r}"})
        raise
    except (TricklawError, TypeError, ValueError) as exc:
        return json.dumps({"error": str(exc)})
    return json.dumps({"result": result})
