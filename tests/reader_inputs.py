"""Inputs for the readers' fuzz tests, written once for two drivers (issue 16, part 4).

Every maker takes a :class:`Choices`, the source of every decision it makes. Hypothesis
drives them in tests/test_reader_fuzz.py (:class:`Drawn`: each choice a draw, so that a
failure shrinks), and atheris, libFuzzer's coverage-guided engine, in
tests/atheris_readers.py (:class:`Provided`: each choice taken from the fuzzer's bytes,
which it mutates towards new branches). The inputs are random text, random JSON, and real
records, logs, tricks, contexts, options and requests with one part broken: a field
replaced, a line cut or dropped, a number made huge, a value nested deep.

Each reader's check (:data:`READERS`) says what "no crash" means: a result or a
:class:`~tricklaw.spec.errors.TricklawError` (the oracle: a JSON-RPC response, never an
exception); anything else fails.
"""

from __future__ import annotations

import io
import json
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any, Protocol, TypeVar

from tricklaw.check import check_lines, check_stream, record_to_log
from tricklaw.fuzz.cases import Disagreement, Outcome
from tricklaw.fuzz.games import new_case
from tricklaw.fuzz.report import case_from_json, case_json
from tricklaw.judging import parse_context, parse_trick
from tricklaw.model.agents import play_random_game
from tricklaw.model.options import parse_option_args
from tricklaw.model.record import loads_record, to_record
from tricklaw.model.replay.declaration import parse_declaration
from tricklaw.model.replay.records import replay
from tricklaw.model.replay.verdict import Verdict
from tricklaw.model.rulesets import RULESETS, get_ruleset
from tricklaw.oracle.session import Oracle
from tricklaw.page.files import page_file
from tricklaw.spec.errors import TricklawError

T = TypeVar("T")

NASTY = (
    "9" * 5000,
    "[" * 5000,
    "[" * 900 + "]" * 900,
    '"\\ud800"',
    "\ufeff{}",
    "1e999999",
    "-0",
    "NaN",
    "\x00",
    "\xff",
    "{" * 3,
)
"""Texts that broke readers before (issue 16): huge numbers, deep nesting, odd code points."""
BIG_NUMBERS = (10**200, -1, 2**64)
CARD_ALPHABET = "RYGBPKWrx0123456789 -+."
CONTEXT_ALPHABET = "RYGBPZr "
CONTEXT_CARDS = ("R3", "Y4", "G5", "B1", "P2", "R9", "Q1", "Y3")
METHODS = (
    "hello",
    "rulesets",
    "new_game",
    "judge",
    "legal_actions",
    "apply",
    "explain",
    "record",
    "close",
    "nonsense",
)


class Choices(Protocol):
    """Where a maker's decisions come from."""

    def integer(self, low: int, high: int) -> int:
        """A whole number from ``low`` to ``high``, both included."""

    def text(self, max_size: int, alphabet: str | None = None) -> str:
        """A text of up to ``max_size`` characters (of ``alphabet``, or any)."""


def pick(choices: Choices, items: Sequence[T]) -> T:
    """One of ``items``."""
    return items[choices.integer(0, len(items) - 1)]


def flag(choices: Choices) -> bool:
    return choices.integer(0, 1) == 1


def some(choices: Choices, most: int, make: Callable[[], T]) -> list[T]:
    """Up to ``most`` values of ``make``."""
    return [make() for _ in range(choices.integer(0, most))]


def any_json(choices: Choices, depth: int = 2) -> Any:
    """A small JSON value of any shape."""
    kind = choices.integer(0, 7 if depth else 5)
    if kind == 0:
        return None
    if kind == 1:
        return flag(choices)
    if kind == 2:
        return choices.integer(-(2**70), 2**70)
    if kind == 3:
        return choices.integer(-(10**6), 10**6) / pick(choices, (1, 2, 3, 7, 1000))
    if kind == 4:
        return choices.text(8)
    if kind == 5:
        return pick(choices, BIG_NUMBERS)
    if kind == 6:
        return some(choices, 4, lambda: any_json(choices, depth - 1))
    return {choices.text(8): any_json(choices, depth - 1) for _ in range(choices.integer(0, 4))}


def junk(choices: Choices, max_size: int) -> str:
    """Random text, or a text that broke a reader before."""
    return pick(choices, NASTY) if flag(choices) else choices.text(max_size)


def broken_json(choices: Choices, value: Any) -> Any:
    """``value`` with one place replaced by random JSON (or a nasty number), or as is."""
    if choices.integer(0, 9) == 0:
        return value
    path: list[Any] = []
    node = value
    while isinstance(node, dict | list) and node and flag(choices):
        key = pick(choices, list(node) if isinstance(node, dict) else range(len(node)))
        path.append(key)
        node = node[key]
    replacement = any_json(choices)
    if not path:
        return replacement
    copy = json.loads(json.dumps(value))
    parent = copy
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = replacement
    return copy


def has_rounds_option(ruleset_id: str) -> bool:
    spec = {s.name: s for s in get_ruleset(ruleset_id).option_specs}.get("rounds")
    return spec is not None and spec.minimum <= 1


@cache
def records() -> tuple[dict[str, Any], ...]:
    """One finished game's record per ruleset, at its smallest player count."""
    out = []
    for ruleset in RULESETS.values():
        options = {"rounds": 1} if has_rounds_option(ruleset.id) else {}
        game = ruleset.make_game(ruleset.player_counts[0], options)
        out.append(json.loads(json.dumps(to_record(play_random_game(game, 3, 2), 3))))
    return tuple(out)


@cache
def logs() -> tuple[tuple[str, ...], ...]:
    """The JSON Lines log of each of :func:`records`."""
    return tuple(tuple(line + "\n" for line in record_to_log(r)) for r in records())


# --- the makers ------------------------------------------------------------------------------


def record_text(choices: Choices) -> tuple[str, bool]:
    """A record's text: a real one with a field broken, cut short, or random text; and
    whether the checker reads it (else the record reader and the replay)."""
    record = pick(choices, records())
    checker = flag(choices)
    kind = choices.integer(0, 3)
    if kind == 0:
        return junk(choices, 50), checker
    text = json.dumps(broken_json(choices, record))
    if kind == 1:
        return text[: choices.integer(0, len(text))], checker
    return text, checker


def log_lines(choices: Choices) -> tuple[list[str], bool]:
    """A real log's lines with one broken: a line replaced, dropped, cut, doubled; and
    whether they are read as a stream (else as lines)."""
    stream = flag(choices)
    lines = list(pick(choices, logs()))
    index = choices.integer(0, len(lines) - 1)
    kind = choices.integer(0, 4)
    if kind == 0:
        lines[index] = json.dumps(broken_json(choices, json.loads(lines[index]))) + "\n"
    elif kind == 1:
        del lines[index]
    elif kind == 2:
        lines[index] = lines[index][: choices.integer(0, len(lines[index]))]
        if flag(choices):
            lines = lines[: index + 1]
    elif kind == 3:
        lines.insert(index, junk(choices, 30) + "\n")
    else:
        lines.insert(index, lines[index])
    return lines, stream


def cardish(choices: Choices) -> str:
    """A text that looks like a card, or does not."""
    kind = choices.integer(0, 2)
    if kind == 0:
        return choices.text(6, CARD_ALPHABET)
    return pick(choices, NASTY) if kind == 1 else choices.text(4)


def trick_texts(choices: Choices) -> tuple[Any, list[str]]:
    """A game and a trick's card texts: real cards of its deck and card-like junk."""
    ruleset = pick(choices, list(RULESETS.values()))
    game = ruleset.make_game(pick(choices, ruleset.player_counts))
    deck = [game.ruleset.palette.format(c) for c in ruleset.deck(game.players, game.options)]
    texts = some(choices, game.seats + 1, lambda: pick(choices, deck) if flag(choices) else "")
    return game, [t or cardish(choices) for t in texts]


def context_value(choices: Choices) -> str:
    kind = choices.integer(0, 3)
    if kind == 0:
        return ",".join(some(choices, 7, lambda: pick(choices, CONTEXT_ALPHABET)))
    if kind == 1:
        return str(choices.integer(-3, 12))
    if kind == 2:
        return ",".join(some(choices, 6, lambda: pick(choices, CONTEXT_CARDS)))
    return cardish(choices)


def context_args(choices: Choices) -> tuple[Any, list[str]]:
    """A game of a ruleset whose tricks have a context, and ``name=value`` arguments."""
    ruleset = pick(choices, [r for r in RULESETS.values() if r.trick_context])
    options = {s.name: s.default for s in ruleset.option_specs}
    for spec in ruleset.option_specs:
        if spec.choices and flag(choices):
            options[spec.name] = pick(choices, spec.choices)
    game = ruleset.make_game(pick(choices, ruleset.player_counts), options)
    names = [name for name, _ in ruleset.trick_context] + ["bogus"]
    return game, some(choices, 3, lambda: f"{pick(choices, names)}={context_value(choices)}")


def option_args(choices: Choices) -> tuple[str, int, list[str]]:
    """A ruleset id, a player count and ``name=value`` option arguments."""
    specs = [s for r in RULESETS.values() for s in r.option_specs]
    names = sorted({s.name for s in specs})
    values = sorted({c for s in specs for c in s.choices})

    def arg() -> str:
        if choices.integer(0, 4) == 0:
            return choices.text(8)
        name = pick(choices, names) if flag(choices) else choices.text(5)
        kind = choices.integer(0, 2)
        value = (
            pick(choices, values)
            if kind == 0
            else str(choices.integer(-5, 20_000))
            if kind == 1
            else cardish(choices)
        )
        return f"{name}={value}"

    return pick(choices, list(RULESETS)), choices.integer(-2, 20), some(choices, 4, arg)


def request_line(choices: Choices) -> str:
    """A JSON-RPC line: valid-looking requests with a part broken, batches, junk."""
    params = {
        "ruleset": pick(choices, [*RULESETS, "skat"]),
        "players": choices.integer(-1, 7),
        "seed": choices.integer(-1, 2**65),
        "game": pick(choices, ["g1", "g2", "x"]),
        "cards": some(choices, 6, lambda: cardish(choices)),
        "action": cardish(choices),
        "context": {
            pick(choices, ["powers", "designation", "sets", "x"]): context_value(choices)
            for _ in range(choices.integer(0, 2))
        },
    }
    keys = sorted({pick(choices, sorted(params)) for _ in range(choices.integer(0, 4))})
    request: Any = {
        "jsonrpc": "2.0",
        "id": choices.integer(0, 9),
        "method": pick(choices, METHODS),
        "params": {k: params[k] for k in keys},
    }
    request = broken_json(choices, request)
    kind = choices.integer(0, 4)
    if kind == 0:
        return junk(choices, 40)
    if kind == 1:
        return json.dumps([request, request])
    return json.dumps(request)


# --- the readers, and what "no crash" means --------------------------------------------------


def must_read(call: Callable[[], T]) -> T | None:
    """``call()``: a result, or None for a TricklawError; any other exception is a crash."""
    try:
        return call()
    except TricklawError:
        return None


def read_record(made: tuple[str, bool]) -> None:
    """The checker on a record's text, or the record reader and the replay."""
    text, checker = made
    if checker:
        assert isinstance(check_stream(io.StringIO(text)), Verdict)
        return
    record = must_read(lambda: loads_record(text))
    if record is not None:
        must_read(lambda: replay(record))


def read_log(made: tuple[list[str], bool]) -> None:
    """The log checker, on a stream or on lines."""
    lines, stream = made
    if stream:
        assert isinstance(check_stream(io.StringIO("".join(lines))), Verdict)
    else:
        assert isinstance(check_lines(lines), Verdict)


def read_trick(made: tuple[Any, list[str]]) -> None:
    """The trick parser; the cards it accepts are always judged."""
    game, texts = made
    cards = must_read(lambda: parse_trick(game, texts))
    if cards is not None:
        game.ruleset.judge_trick(game, cards, {})


def read_context(made: tuple[Any, list[str]]) -> None:
    """The context parser; a context it accepts is always judged."""
    game, args = made
    context = must_read(lambda: parse_context(game, args))
    if context is not None:
        deck = list(game.ruleset.deck(game.players, game.options))
        game.ruleset.judge_trick(game, deck[: game.seats], context)


def read_options(made: tuple[str, int, list[str]]) -> None:
    """The option parser, then the game those options make."""
    ruleset_id, players, args = made
    options = must_read(lambda: parse_option_args(args))
    if options is not None:
        must_read(lambda: get_ruleset(ruleset_id).make_game(players, options))


def read_requests(lines: list[str]) -> None:
    """The oracle's JSON-RPC framing, after one good ``new_game``: every answer is a
    response object (or a batch of them) with a result or an error."""
    oracle = Oracle()
    oracle.handle_text(
        '{"jsonrpc":"2.0","id":0,"method":"new_game","params":'
        '{"ruleset":"lowhigh","players":3,"seed":1}}'
    )
    for line in lines:
        answer = oracle.handle_text(line)
        if answer is None:
            continue  # a notification, or a batch of them
        response = json.loads(answer)
        for one in response if isinstance(response, list) else [response]:
            assert one["jsonrpc"] == "2.0" and ("result" in one) != ("error" in one), one


def requests(choices: Choices) -> list[str]:
    return [request_line(choices) for _ in range(choices.integer(1, 4))]


@cache
def cases() -> tuple[dict[str, Any], ...]:
    """A fuzz case file (``tricklaw-fuzz-case``) per ruleset: a game's deals and steps, a
    disagreement planted at its tenth step."""
    out = []
    for index, ruleset_id in enumerate(RULESETS):
        case = new_case(index, 7, [ruleset_id], None, {})
        steps = tuple((c, None) for c, _ in case.steps[:10]) or ((0, None),) * 10
        case = replace(case, steps=steps)
        state = case.game().new_state_from_deals(case.deals, case.seed)
        wrong = Disagreement("trick", len(steps) - 1, "planted", 1, 2, ())
        outcome = Outcome(case, state, wrong, len(steps))
        out.append(json.loads(json.dumps(case_json(outcome, "engine"))))
    return tuple(out)


def case_file(choices: Choices) -> Any:
    """A case file with a part broken, as ``fuzz --replay`` and ``check`` read it."""
    return broken_json(choices, pick(choices, cases()))


def read_case(data: Any) -> None:
    """The case-file reader; a case it accepts is played from its deals through its steps
    (each step's choice taken modulo the legal actions, as the fuzzer does), and ``check``
    given the same file says what it is or reads it as a record."""
    case = must_read(lambda: case_from_json(data, "case"))
    if case is not None:
        state = case.game().new_state_from_deals(case.deals, case.seed)
        for choice, _ in case.steps[:500]:
            legal = state.legal_actions()
            if not legal:
                break
            state = state.child(legal[choice % len(legal)])
    assert isinstance(check_stream(io.StringIO(json.dumps(data))), Verdict)


DECLARATION = {
    "rulesets": {
        "sticheln": {
            "players": [3, 4],
            "options": {"rounds": [1, 2]},
            "disputes": {
                "STI-D-ZEROLEAD": "lead-card",
                "STI-D-GAMETIE": {"reading": "own", "rule": "lowest seat"},
            },
        },
        "hund": {"options": {"rounds": [1]}},
    }
}
"""An engine's declaration with a reading, an own rule and option values (docs/oracle.md)."""


def declaration(choices: Choices) -> Any:
    """A declaration with a part broken, or random JSON."""
    return broken_json(choices, DECLARATION) if flag(choices) else any_json(choices)


def read_declaration(data: Any) -> None:
    """The declaration reader; a declaration it accepts answers what the fuzzer and the
    checker ask of it."""
    found = must_read(lambda: parse_declaration(data, "implements"))
    if found is not None:
        for ruleset in found.rulesets:
            ruleset.allows(
                ruleset.players[0], {name: values[0] for name, values in ruleset.options}
            )


PAGE_PATHS = ("", "/", "/index.html", "/config.json", "/../secret", "/%2e%2e/x", "/a/../index.html")


def page_path(choices: Choices) -> str:
    """A request path for ``serve --http --page``: the page's own, climbs out of it, odd
    bytes and names, long ones."""
    kind = choices.integer(0, 3)
    if kind == 0:
        return pick(choices, PAGE_PATHS) + choices.text(8)
    if kind == 1:
        return "/" + "/".join(
            some(choices, 6, lambda: pick(choices, ("..", ".", "", "index.html", "x")))
        )
    if kind == 2:
        return "/" + "a" * choices.integer(0, 5000)
    return junk(choices, 60)


@cache
def page_folder() -> Path:
    """A page folder: an index, a config, a file in a subfolder, and a secret beside it."""
    root = Path(tempfile.mkdtemp(prefix="tricklaw-page-fuzz-"))
    (root / "secret").write_text("outside")
    page = root / "page"
    (page / "sub").mkdir(parents=True)
    (page / "index.html").write_text("<html></html>")
    (page / "config.json").write_text("{}")
    (page / "sub" / "x").write_text("x")
    return page


def read_page_path(path: str) -> None:
    """The page route's file lookup: a file inside the page folder, or None; never an
    exception, never a file outside the folder."""
    found = page_file(page_folder(), path)
    assert found is None or found[0] != b"outside", path


READERS: dict[str, tuple[Callable[[Choices], Any], Callable[[Any], None]]] = {
    "record": (record_text, read_record),
    "log": (log_lines, read_log),
    "trick": (trick_texts, read_trick),
    "context": (context_args, read_context),
    "options": (option_args, read_options),
    "stdio": (requests, read_requests),
    "case": (case_file, read_case),
    "declaration": (declaration, read_declaration),
    "page": (page_path, read_page_path),
}
"""Each reader's maker and its check: ``check(make(choices))`` must not raise."""
