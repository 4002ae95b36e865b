"""Issue 16, part 4: every reader fuzzed, with zero crashes.

The readers (tests/reader_inputs.py, :data:`~reader_inputs.READERS`): the record reader
(:func:`~tricklaw.model.record.loads_record` and the replay), the log reader
(:func:`~tricklaw.check.check_lines`, :func:`~tricklaw.check.check_stream`), the trick
parser (:func:`~tricklaw.judging.parse_trick`), the trick context parser
(:func:`~tricklaw.judging.parse_context`, then the game's judge), the option parser
(:func:`~tricklaw.model.options.parse_option_args`, then ``make_game``) and the oracle's
JSON-RPC framing on stdio (:meth:`~tricklaw.oracle.session.Oracle.handle_text`). Each input
must give a result or a :class:`~tricklaw.spec.errors.TricklawError` (the oracle: a JSON-RPC
response, never an exception); anything else is a crash and fails the test.

Two drivers make the inputs with the same makers: Hypothesis here (:data:`EXAMPLES` inputs
per reader, a tenth of them in the fast tier: ``tier.examples``; a failure shrinks to a
small input), and atheris
(libFuzzer) at volume, 100,000 inputs per reader in the slow tier
(tests/test_reader_atheris.py). The inputs that broke a reader are kept below as
regression tests.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reader_inputs import READERS, read_context, read_record
from tier import examples

from tricklaw.model.rulesets import RULESETS

EXAMPLES = 300
"""Hypothesis's inputs per reader (about a second each)."""


class Drawn:
    """:class:`reader_inputs.Choices` as Hypothesis draws, so that a failure shrinks."""

    def __init__(self, draw: st.DrawFn) -> None:
        self.draw = draw

    def integer(self, low: int, high: int) -> int:
        return self.draw(st.integers(low, high))

    def text(self, max_size: int, alphabet: str | None = None) -> str:
        if alphabet is None:
            return self.draw(st.text(max_size=max_size))
        return self.draw(st.text(alphabet=alphabet, max_size=max_size))


@pytest.mark.parametrize("reader", sorted(READERS))
def test_the_reader_never_crashes(reader: str) -> None:
    make, check = READERS[reader]

    @st.composite
    def inputs(draw: st.DrawFn) -> Any:
        return make(Drawn(draw))

    settings(
        max_examples=examples(EXAMPLES),
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )(given(inputs())(check))()


def test_the_inputs_that_broke_readers_before() -> None:
    """Regressions (issue 16): a record nested 990 deep in its options, a text of 100,000
    brackets, and a Hund context with more powers than suits."""
    deep = '{"format": "tricklaw-record", "options": {"a": ' + "[" * 990 + "]" * 990 + "}}"
    for text in (deep, "[" * 100_000):
        read_record((text, True))
        read_record((text, False))
    hund = next(r for r in RULESETS.values() if r.trick_context)
    read_context((hund.make_game(hund.player_counts[-1]), ["powers=R,Y,G,B,P,R"]))


def test_the_compiled_schema_check_agrees_with_jsonschema() -> None:
    """The readers' fast path (:func:`~tricklaw.model.schemas.fast_valid`, jsonschema_rs)
    says "valid" exactly when the reference (the ``jsonschema`` library) finds no error,
    on real records, rounds and log lines with one place broken."""
    from reader_inputs import broken_json, logs, pick, records

    from tricklaw.check.log_format import HEADER, kind_of
    from tricklaw.model.schemas import _validator, fast_valid

    lines = [(i, json.loads(line)) for log in logs() for i, line in enumerate(log)]
    targets: list[tuple[str, str | None, Any]] = [
        *(("record", None, r) for r in records()),
        *(("record", "round", rnd) for r in records() for rnd in r["rounds"]),
        *(("log", kind_of(line) if i else HEADER, line) for i, line in lines),
    ]

    @st.composite
    def instances(draw: st.DrawFn) -> tuple[str, str | None, Any]:
        name, definition, value = pick(Drawn(draw), targets)
        return name, definition, broken_json(Drawn(draw), value)

    @settings(max_examples=examples(EXAMPLES), deadline=None, database=None)
    @given(instances())
    def check(target: tuple[str, str | None, Any]) -> None:
        name, definition, value = target
        reference = not any(True for _ in _validator(name, definition).iter_errors(value))
        assert fast_valid(name, definition, value) == reference

    check()
