"""verify's ``checker rejects`` row (tricklaw/verify/wrong_logs.py): the log checker
refuses every wrong log made from a model game, and the row fails when the checker
accepts one (planted checker bugs of the kinds issue 44 lists)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tricklaw.model.rulesets import get_ruleset
from tricklaw.verify import wrong_logs
from tricklaw.verify.wrong_logs import checker_rejects


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset_id", "players"), [("the-last", 2), ("hund", 3)])
def test_every_wrong_log_is_rejected_naming_a_clause(ruleset_id: str, players: int) -> None:
    row = checker_rejects(get_ruleset(ruleset_id), players, {})
    assert row.status == "pass", row.detail
    assert row.obligation == "checker rejects"
    for field in ("seat of a card", "trick winner", "trick taken", "scores", "winners"):
        assert field in row.detail, (field, row.detail)


@pytest.mark.slow
def test_the_decisions_are_given_by_seats_not_asked() -> None:
    """Hund's start-player choice and The Last's keep and swap are among the changes."""
    assert "seat of a leader" in checker_rejects(get_ruleset("hund"), 3, {}).detail
    last = checker_rejects(get_ruleset("the-last"), 3, {}).detail
    assert "seat of a swap" in last and "seat of a keep" in last


def _not_comparing(where: str, field: str) -> Any:
    """A planted checker bug: the real checker, but blind to ``field`` of the lines that
    hold ``where`` (it is dropped before they are read; every such field is optional).
    Planted around the checker, not in it: the installed checker is compiled, and a
    compiled module's own calls cannot be patched."""
    real = wrong_logs.check_lines

    def blind(lines: list[str]) -> Any:
        objs = [json.loads(line) for line in lines]
        for obj in objs:
            holder = obj.get("trick", {}) if where == "trick" else obj if where in obj else {}
            holder.pop(field, None)
        return real([json.dumps(o) + "\n" for o in objs])

    return blind


@pytest.mark.parametrize(
    ("where", "field"),
    [("trick", "taken"), ("trick", "facts"), ("winners", "winners"), ("scores", "facts")],
)
def test_a_checker_blind_to_a_field_fails_the_row(
    monkeypatch: pytest.MonkeyPatch, where: str, field: str
) -> None:
    monkeypatch.setattr(wrong_logs, "check_lines", _not_comparing(where, field))
    row = checker_rejects(get_ruleset("the-last"), 2, {})
    assert row.status == "fail", (where, field, row.detail)
    assert "not rejected" in row.detail
