"""Issue 16, part 4: every reader fuzzed by Hypothesis, with zero crashes.

The readers: the record reader (:func:`~tricklaw.model.record.loads_record` and the replay),
the log reader (:func:`~tricklaw.check.check_lines`, :func:`~tricklaw.check.check_stream`),
the trick parser (:func:`~tricklaw.judging.parse_trick`), the trick context parser
(:func:`~tricklaw.judging.parse_context`, then the game's judge), the option parser
(:func:`~tricklaw.model.options.parse_option_args`, then ``make_game``) and the oracle's
JSON-RPC framing on stdio (:meth:`~tricklaw.oracle.session.Oracle.handle_text`). Each input
must give a result or a :class:`~tricklaw.spec.errors.TricklawError` (the oracle: a JSON-RPC
response, never an exception); anything else is a crash and fails the test.

Inputs are random text, random JSON, and valid records, logs and requests with one part
broken (a field replaced, a line cut or dropped, a number made huge, a value nested deep).
Each test runs in two tiers: ``fast`` (:data:`FAST` examples) and ``slow`` (:data:`SLOW`,
marked ``slow``; ``TRICKLAW_FUZZ_EXAMPLES=100000`` is the issue's full run). The bugs
found on the way are kept as explicit examples (``@example``) of the tests they came from.
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tricklaw.check import check_lines, check_stream, record_to_log
from tricklaw.judging import parse_context, parse_trick
from tricklaw.model.agents import play_random_game
from tricklaw.model.options import parse_option_args
from tricklaw.model.record import loads_record, to_record
from tricklaw.model.replay.records import replay
from tricklaw.model.replay.verdict import Verdict
from tricklaw.model.rulesets import RULESETS, get_ruleset
from tricklaw.oracle.session import Oracle
from tricklaw.spec.errors import TricklawError

FAST = 300
"""Examples per reader in the fast tier."""
SLOW = int(os.environ.get("TRICKLAW_FUZZ_EXAMPLES", "2000"))
"""Examples per reader in the slow tier: 2,000 by default, about 4 minutes for the six
readers on one core. Issue 16 asks for 100,000 each: ``TRICKLAW_FUZZ_EXAMPLES=100000``.
That run costs about 3.5 hours of one core (measured at 3,000 each: 384 s on a loaded
2-core machine; the time grows linearly), so it is not the CI default."""
TIERS = [
    pytest.param(FAST, id="fast"),
    pytest.param(SLOW, id="slow", marks=pytest.mark.slow),
]


def fuzz(examples: int, test: Callable[..., None]) -> None:
    """Run the Hypothesis test ``test`` with ``examples`` examples."""
    settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )(test)()


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
"""Any JSON value (small)."""
NASTY = st.sampled_from(
    [
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
    ]
)
"""Texts that broke readers before (issue 16): huge numbers, deep nesting, odd code points."""


@cache
def _records() -> tuple[dict[str, Any], ...]:
    """One finished game's record per ruleset, at its smallest player count."""
    out = []
    for ruleset in RULESETS.values():
        game = ruleset.make_game(
            ruleset.player_counts[0], {"rounds": 1} if _has_rounds(ruleset.id) else {}
        )
        out.append(json.loads(json.dumps(to_record(play_random_game(game, 3, 2), 3))))
    return tuple(out)


@cache
def _logs() -> tuple[tuple[str, ...], ...]:
    """The JSON Lines log of each of :func:`_records`."""
    return tuple(tuple(line + "\n" for line in record_to_log(r)) for r in _records())


def _has_rounds(ruleset_id: str) -> bool:
    spec = {s.name: s for s in get_ruleset(ruleset_id).option_specs}.get("rounds")
    return spec is not None and spec.minimum <= 1


@st.composite
def broken_json(draw: st.DrawFn, value: Any) -> Any:
    """``value`` with one place replaced by random JSON (or a nasty number), or as is."""
    if draw(st.integers(0, 9)) == 0:
        return value
    path: list[Any] = []
    node = value
    while isinstance(node, dict | list) and node and draw(st.booleans()):
        key = draw(st.sampled_from(list(node) if isinstance(node, dict) else range(len(node))))
        path.append(key)
        node = node[key]
    replacement = draw(JSON | st.just(10**200) | st.just(-1) | st.just(2**64))
    if not path:
        return replacement
    copy = json.loads(json.dumps(value))
    parent = copy
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = replacement
    return copy


@st.composite
def record_texts(draw: st.DrawFn) -> str:
    """A record's text: a real one with a field broken, cut short, or random text."""
    record = draw(st.sampled_from(_records()))
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return draw(st.text(max_size=50) | NASTY)
    text = json.dumps(draw(broken_json(record)))
    if kind == 1:
        return text[: draw(st.integers(0, len(text)))]
    return text


def _must_read(call: Callable[[], Any]) -> Any:
    """``call()``: a result, or None for a TricklawError; any other exception is a crash."""
    try:
        return call()
    except TricklawError:
        return None


@pytest.mark.parametrize("examples", TIERS)
def test_the_record_reader_never_crashes(examples: int) -> None:
    @given(record_texts())
    @example('{"format": "tricklaw-record", "options": {"a": ' + "[" * 990 + "]" * 990 + "}}")
    @example("[" * 100_000)
    def check(text: str) -> None:
        record = _must_read(lambda: loads_record(text))
        if record is not None:
            _must_read(lambda: replay(record))
        assert isinstance(check_stream(io.StringIO(text)), Verdict)

    fuzz(examples, check)


@st.composite
def log_lines(draw: st.DrawFn) -> list[str]:
    """A real log's lines with one broken: a line replaced, dropped, cut, doubled."""
    lines = list(draw(st.sampled_from(_logs())))
    index = draw(st.integers(0, len(lines) - 1))
    kind = draw(st.integers(0, 4))
    if kind == 0:
        lines[index] = json.dumps(draw(broken_json(json.loads(lines[index])))) + "\n"
    elif kind == 1:
        del lines[index]
    elif kind == 2:
        lines[index] = lines[index][: draw(st.integers(0, len(lines[index])))]
        if draw(st.booleans()):
            lines = lines[: index + 1]
    elif kind == 3:
        lines.insert(index, draw(st.text(max_size=30) | NASTY) + "\n")
    else:
        lines.insert(index, lines[index])
    return lines


@pytest.mark.parametrize("examples", TIERS)
def test_the_log_reader_never_crashes(examples: int) -> None:
    @given(log_lines())
    def check(lines: list[str]) -> None:
        assert isinstance(check_lines(lines), Verdict)
        assert isinstance(check_stream(io.StringIO("".join(lines))), Verdict)

    fuzz(examples, check)


CARDISH = st.text(alphabet="RYGBPKWrx0123456789 -+.", max_size=6) | NASTY | st.text(max_size=4)
"""Texts that look like cards, and some that do not."""


@st.composite
def games(draw: st.DrawFn) -> Any:
    ruleset = draw(st.sampled_from(list(RULESETS.values())))
    return ruleset.make_game(draw(st.sampled_from(ruleset.player_counts)))


@pytest.mark.parametrize("examples", TIERS)
def test_the_trick_parser_never_crashes(examples: int) -> None:
    @given(games(), st.data())
    def check(game: Any, data: st.DataObject) -> None:
        deck = list(game.ruleset.deck(game.players, game.options))
        real = [game.ruleset.palette.format(c) for c in data.draw(st.permutations(deck))]
        texts = data.draw(st.lists(CARDISH | st.sampled_from(real), max_size=game.seats + 1))
        cards = _must_read(lambda: parse_trick(game, texts))
        if cards is not None:
            game.ruleset.judge_trick(game, cards, {})  # valid cards: always judged

    fuzz(examples, check)


CONTEXT_VALUES = (
    st.lists(st.sampled_from("RYGBPZr "), max_size=7).map(",".join)
    | st.integers(-3, 12).map(str)
    | st.lists(st.sampled_from(["R3", "Y4", "G5", "B1", "P2", "R9", "Q1", "Y3"]), max_size=6).map(
        ",".join
    )
    | CARDISH
)


@pytest.mark.parametrize("examples", TIERS)
def test_the_context_parser_never_crashes(examples: int) -> None:
    hund = [r for r in RULESETS.values() if r.trick_context]

    @given(st.sampled_from(hund), st.data())
    @example(hund[0], None)  # the context with more powers than suits (issue 16)
    def check(ruleset: Any, data: st.DataObject | None) -> None:
        names = [name for name, _ in ruleset.trick_context]
        options = {s.name: s.default for s in ruleset.option_specs}
        if data is None:
            players, args = ruleset.player_counts[-1], ["powers=R,Y,G,B,P,R"]
        else:
            for spec in ruleset.option_specs:
                if spec.choices and data.draw(st.booleans()):
                    options[spec.name] = data.draw(st.sampled_from(spec.choices))
            players = data.draw(st.sampled_from(ruleset.player_counts))
            pairs = st.tuples(st.sampled_from([*names, "bogus"]), CONTEXT_VALUES)
            args = [f"{n}={v}" for n, v in data.draw(st.lists(pairs, max_size=3))]
        game = ruleset.make_game(players, options)
        context = _must_read(lambda: parse_context(game, args))
        if context is not None:  # a context the input checks accept is always judged
            deck = list(ruleset.deck(game.players, game.options))
            game.ruleset.judge_trick(game, deck[: game.seats], context)

    fuzz(examples, check)


@pytest.mark.parametrize("examples", TIERS)
def test_the_option_parser_never_crashes(examples: int) -> None:
    names = sorted({s.name for r in RULESETS.values() for s in r.option_specs})
    values = sorted({c for r in RULESETS.values() for s in r.option_specs for c in s.choices})

    @given(
        st.sampled_from(list(RULESETS)),
        st.integers(-2, 20),
        st.lists(
            st.tuples(
                st.sampled_from(names) | st.text(max_size=5),
                st.sampled_from(values) | st.integers(-5, 20_000).map(str) | CARDISH,
            ).map("=".join)
            | st.text(max_size=8),
            max_size=4,
        ),
    )
    def check(ruleset_id: str, players: int, args: list[str]) -> None:
        options = _must_read(lambda: parse_option_args(args))
        if options is not None:
            _must_read(lambda: get_ruleset(ruleset_id).make_game(players, options))

    fuzz(examples, check)


@st.composite
def requests(draw: st.DrawFn) -> str:
    """A JSON-RPC line: valid-looking requests with a part broken, batches, junk."""
    method = draw(
        st.sampled_from(
            [
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
            ]
        )
    )
    params = {
        "ruleset": draw(st.sampled_from([*RULESETS, "skat"])),
        "players": draw(st.integers(-1, 7)),
        "seed": draw(st.integers(-1, 2**65)),
        "game": draw(st.sampled_from(["g1", "g2", "x"])),
        "cards": draw(st.lists(CARDISH, max_size=6)),
        "action": draw(CARDISH),
        "context": draw(
            st.dictionaries(
                st.sampled_from(["powers", "designation", "sets", "x"]), CONTEXT_VALUES, max_size=2
            )
        ),
    }
    keys = draw(st.lists(st.sampled_from(sorted(params)), unique=True, max_size=4))
    request: Any = {
        "jsonrpc": "2.0",
        "id": draw(st.integers(0, 9)),
        "method": method,
        "params": {k: params[k] for k in keys},
    }
    request = draw(broken_json(request))
    kind = draw(st.integers(0, 4))
    if kind == 0:
        return draw(st.text(max_size=40) | NASTY)
    if kind == 1:
        return json.dumps([request, request])
    return json.dumps(request)


@pytest.mark.parametrize("examples", TIERS)
def test_the_stdio_framing_never_crashes(examples: int) -> None:
    @given(st.lists(requests(), min_size=1, max_size=4))
    def check(lines: list[str]) -> None:
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

    fuzz(examples, check)
