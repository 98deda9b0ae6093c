"""Property tests over whole seeded random Gloom games (issue: core Gloom).

Seeded games of 2 to 5 players (200 in the suite, the first 24 with every view
checked; 500 and 60 in the soak, ``scripts/soak.py``), a third each of classic
Gloom, Gloomier and the classic+gloomier mix (R-H10): every card in exactly one
place after every
action (R-G9, R-G23), replay from the record reproduces every state, views
depend only on what the seat may know, Family Values equal an independent
recount (R-G25), and every game ends or hits the counted cap (R-G24).
"""

from __future__ import annotations

import hashlib
import json

import pytest

from delta_support import check_patch
from gloomtable.bots import RandomBot
from gloomtable.engine import Rng
from gloomtable.engine.record import GameRecord, iter_replay
from gloomtable.games.gloom.cards import CardType
from gloomtable.games.gloom.game import GloomConfig, GloomGame
from gloomtable.games.gloom.state import GloomState
from gloomtable.i18n.events import render
from gloomtable.server.deltas import diff
from scale import scaled

GAMES = scaled(200, 500)
SET_MIXES = (("classic",), ("gloomier",), ("classic", "gloomier"))
VIEW_CHECKED_GAMES = scaled(24, 60)
"""Games whose views are checked after every action: the slow part. 24 seeds hold
each of the 12 pairs of seat count and set mix twice (seed % 4 and seed % 3)."""


def digest(state: GloomState) -> str:
    return hashlib.sha1(json.dumps(state.snapshot(), sort_keys=True).encode()).hexdigest()


def recount_family_value(state: GloomState, p: int) -> int:
    """R-G25 recomputed without the engine's cardinal-rule code: scan each dead
    Character's stack from the top for the first card printing each point slot."""
    total = 0
    guests = [g for g in state.guests if state.controller[g] == p]
    for c in [*state.families[p], *guests]:  # chosen Characters and controlled Guests (R-H9)
        stack = [state.cards[i] for i in state.stacks[c]]
        if stack[-1].type is not CardType.UNTIMELY_DEATH:
            continue
        for slot in range(3):
            for card in reversed(stack):
                if card.points[slot] is not None:
                    total += card.points[slot]
                    break
    return total


def scramble_hidden(state: GloomState, viewer: int, rng: Rng) -> GloomState:
    """A copy in which everything ``viewer`` cannot see is dealt differently:
    other hands (same sizes) and the draw pile (same size) are reshuffled."""
    other = state.clone()
    hidden = [c for q in range(other.n) if q != viewer for c in other.hands[q]] + other.draw_pile
    rng.shuffle(hidden)
    i = 0
    for q in range(other.n):
        if q == viewer:
            continue
        k = len(other.hands[q])
        other.hands[q] = hidden[i:i + k]
        i += k
    other.draw_pile = hidden[i:]
    return other


def play_one(seed: int, check_views: bool) -> tuple[GloomGame, GameRecord, list[str], GloomState]:
    players = 2 + seed % 4
    sets = SET_MIXES[seed % len(SET_MIXES)]
    game = GloomGame(GloomConfig(players=players, sets=sets, edition=1 if seed % 7 == 0 else 2))
    state = game.new_initial_state(seed)
    bot = RandomBot(seed)
    rng = Rng(seed + 99)
    all_cards = set(range(len(game.deck.cards)))
    record = GameRecord("gloom", game.config_dict(), seed)
    digests = [digest(state)]
    shown = [state.view(p) for p in range(players)]
    while not state.is_over():
        action = bot.choose({}, state.legal_actions())
        events = state.apply(action)
        record.actions.append(action)
        where = state.locations()  # raises if a card is in two places
        assert set(where) == all_cards, "a card went missing"
        digests.append(digest(state))
        for e in events:
            if e.kind in ("draw", "steal"):
                assert e.private_to is not None, f"{e.kind} event must be private"
        if check_views:
            for p in range(players):
                for e in events:
                    seen = e.for_player(p)
                    if e.private_to is not None and e.private_to != p:
                        assert seen.card is None
                        assert "draws a card" in render(seen, "en") or "takes a card" in render(seen, "en")
                view = state.view(p)
                assert view == scramble_hidden(state, p, rng).view(p), (
                    f"seed {seed}: player {p}'s view depends on hidden cards")
                # the patch a page with deltas gets (server/deltas.py) depends on them no more
                ops = check_patch(shown[p], view)
                assert ops == diff(shown[p], scramble_hidden(state, p, rng).view(p)), (
                    f"seed {seed}: player {p}'s patch depends on hidden cards")
                shown[p] = view
    return game, record, digests, state


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(10))
def test_random_games_conserve_cards_replay_and_score(chunk: int) -> None:
    """R-G24/R-G25 and card conservation over GAMES seeded games, a tenth per chunk
    (200 in the suite, 500 in the soak); at most one in 20 reaches the turn cap."""
    capped = 0
    for seed in range(chunk * GAMES // 10, (chunk + 1) * GAMES // 10):
        game, record, digests, final = play_one(seed, check_views=seed < VIEW_CHECKED_GAMES)
        result = final.result()
        capped += result.capped
        assert not final.legal_actions()
        # Family Values equal a recount from visible points (R-G25).
        assert list(result.scores) == [recount_family_value(final, p) for p in range(final.n)]
        assert result.winners and all(result.scores[w] == min(result.scores) for w in result.winners)
        if not result.capped:
            # R-G24: it ended because some family is entirely dead.
            assert any(fam and all(final.is_dead(c) for c in fam) for fam in final.families)
        # Replay from the saved record, through JSON, gives identical states at every step.
        loaded = GameRecord.from_json(record.to_json())
        replayed = [digest(s) for s in iter_replay(game, loaded)]
        assert replayed == digests, f"seed {seed}: replay diverged"
    assert capped <= GAMES // 10 // 20, f"{capped} of {GAMES // 10} games hit the turn cap"


def test_views_hide_other_hands_and_draw_order_in_json() -> None:
    """DESIGN 'Hidden information': a seat's JSON view never names another hand's cards."""
    game = GloomGame(GloomConfig(players=4))
    state = game.new_initial_state(3)
    bot = RandomBot(3)
    for _ in range(150):
        if state.is_over():
            break
        state.apply(bot.choose({}, state.legal_actions()))
        for p in range(4):
            view = state.view(p)
            hidden = {c for q in range(4) if q != p for c in state.hands[q]} | set(state.draw_pile)
            shown = set(view["hand"]) | set(view["discard"]) | set(view["in_play"])
            for fam in view["families"]:
                for ch in fam["characters"]:
                    shown |= set(ch["stack"])
            assert not shown & hidden
            assert "draw_pile" in view and isinstance(view["draw_pile"], int)
            assert view["hand_sizes"] == [len(h) for h in state.hands]


@pytest.mark.parametrize("sets", SET_MIXES)
def test_is_legal_agrees_with_legal_actions_for_every_action(sets) -> None:
    """``apply`` validates with the fast ``is_legal``; it must say exactly what
    ``legal_actions`` lists, for every action id, in every kind of position."""
    game = GloomGame(GloomConfig(players=3, sets=sets))
    for seed in range(4):
        state = game.new_initial_state(seed)
        bot = RandomBot(seed)
        steps = 0
        while not state.is_over() and steps < 400:
            legal = set(state.legal_actions())
            if steps % 5 == 0:
                assert {a for a in range(game.codec.size) if state.is_legal(a)} == legal
            state.apply(bot.choose({}, sorted(legal)))
            steps += 1
