"""The views layer (tricklaw.views): one view per ruleset, the common fields and each
game's own, and the refusal of a field or a ruleset that has no encoding."""

from __future__ import annotations

import numpy as np
import pytest

from tricklaw.model.rulesets import RULESETS
from tricklaw.spec.errors import OptionError, TricklawError
from tricklaw.views import VIEWS, make_layout
from tricklaw.views.encodings import COMMON


def test_every_ruleset_has_a_view_and_no_other() -> None:
    assert set(VIEWS) == set(RULESETS)


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_a_view_encodes_exactly_the_fields_its_game_adds(ruleset_id: str) -> None:
    """No field of an observation goes without an encoding, and no game's view names a
    field its observation does not have."""
    ruleset = RULESETS[ruleset_id]
    for players in ruleset.player_counts:
        probe = ruleset.make_game(players).new_initial_state(0).observation(0)
        own = set(VIEWS[ruleset_id].fields)
        assert set(probe) == set(COMMON) | own, players
        assert not own & set(COMMON)


def test_a_field_without_an_encoding_is_refused() -> None:
    game = RULESETS["lowhigh"].make_game(3)
    probe = game.new_initial_state(0).observation(0)
    layout = make_layout(game, probe)
    assert layout.encode(probe).shape == (layout.size,)
    with pytest.raises(TricklawError, match="'mystery' has no tensor encoding"):
        make_layout(game, {**probe, "mystery": 1})


def test_a_ruleset_without_a_view_is_refused() -> None:
    game = RULESETS["hund"].make_game(2)
    probe = game.new_initial_state(0).observation(0)
    view = VIEWS["hund"]
    VIEWS.unregister("hund")
    try:
        with pytest.raises(OptionError, match="no view for ruleset 'hund'"):
            make_layout(game, probe)
    finally:
        VIEWS.register("hund", view)
    assert make_layout(game, probe).size > 0


def test_hidden_picks_take_the_place_after_the_deck() -> None:
    """Sticheln: a pick not yet revealed is marked in the extra place of its seat's row;
    the observing seat's own pick is its card."""
    game = RULESETS["sticheln"].make_game(3)
    state = game.new_initial_state(0)
    state = state.child(state.legal_actions()[0])  # seat 0 picks
    layout = make_layout(game, state.observation(1))
    deck = len(game.ruleset.deck(game.players, game.options))
    offset = 0
    for piece in layout.pieces:
        if piece.name == "picked":
            break
        offset += piece.size
    for seat, own in ((1, False), (0, True)):
        block = layout.encode(state.observation(seat))[offset : offset + 3 * (deck + 1)]
        rows = block.reshape(3, deck + 1)
        assert rows[0, deck] == (0 if own else 1)
        assert np.sum(rows[0, :deck]) == (1 if own else 0)
        assert not rows[1:].any()
