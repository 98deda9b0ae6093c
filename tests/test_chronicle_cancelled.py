"""A cancelled card is not narrated as if it had happened (issue 34, item 4): in the
chronicle a card a response cancelled (R-G20) is marked so, and the bot's line that
tells what the card did is left out, in Markdown and in HTML; a card that stood keeps
its narration."""

from __future__ import annotations

import random

from gloomtable.designer.chronicle import build_chronicle, chronicle_html, chronicle_markdown
from gloomtable.engine.record import GameRecord
from gloomtable.games import make_game


def a_game_with_a_cancellation() -> GameRecord:
    """Random play of Gloomier (which has responses) until a response is played."""
    game = make_game("gloomier", {"players": 4})
    for seed in range(400):
        state, rng, actions, cancelled = game.new_initial_state(seed), random.Random(seed), [], False
        while not state.is_over() and len(actions) < 3000:
            action = rng.choice(state.legal_actions())
            actions.append(action)
            cancelled |= any(e.kind == "response" for e in state.apply(action))
        if cancelled and state.is_over():
            return GameRecord.of(game, seed, actions)
    raise AssertionError("no response was played in 400 random games")


def test_a_cancelled_card_is_not_narrated() -> None:
    chron = build_chronicle(a_game_with_a_cancellation(), narrate=True)
    lines = chron.table + [ln for t in chron.tales for ln in t.lines]
    cancelled = [ln for ln in lines if ln.cancelled_by and ln.narration]
    stood = [ln for ln in lines if ln.narration and not ln.cancelled_by and ln.card]
    assert cancelled and stood
    text, page = chronicle_markdown(chron), chronicle_html(chron)
    for ln in cancelled:
        assert ln.narration not in text and ln.narration not in page, ln
    assert "cancelled by" in text and 'class="cancelled"' in page
    assert any(ln.narration in text for ln in stood)
