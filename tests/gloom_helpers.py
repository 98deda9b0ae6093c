"""Shared helpers for the Gloom rule and card tests.

Decks are built from Python dicts through the real schema (``build_deck``), games
are started through the public ``GloomGame`` API, and positions are arranged by
moving card indices between the state's zones (hands, stacks, draw pile, discard)
so that every card stays in exactly one place. Everything after the arrangement
goes through ``apply()`` and is checked through public facts.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gloomtable.engine import Event
from gloomtable.games.gloom.cards import CardType
from gloomtable.games.gloom.deck import Deck, build_deck, load_deck
from gloomtable.games.gloom.game import GloomConfig, GloomGame
from gloomtable.games.gloom.state import GloomState

PLAY = "play"
RESPOND = "respond"

# --- deck building -------------------------------------------------------------


def imm(*steps: dict[str, Any]) -> dict[str, Any]:
    """An immediate effect, e.g. ``imm({"draw": 1})``."""
    return {"when": "immediate", "do": list(steps)}


def cont(*steps: dict[str, Any]) -> dict[str, Any]:
    return {"when": "continuous", "do": list(steps)}


def pers(*steps: dict[str, Any]) -> dict[str, Any]:
    return {"when": "persistent", "do": list(steps)}


def resp(kind: str) -> dict[str, Any]:
    """A response effect: cancel a card of type ``kind`` as it is played."""
    return {"when": "response", "do": [{"cancel": kind}]}


def card(
    key: str,
    points: Iterable[int | None] = (None, None, None),
    icons: Iterable[str | None] = (None, None, None),
    effects: Iterable[dict[str, Any]] = (),
    text: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A card table as a deck file would hold it. ``points`` and ``icons`` are
    (top, middle, bottom) with ``None`` for an unprinted slot. Cards with effects
    get a default text so they print an effect plate."""
    effects = list(effects)
    d: dict[str, Any] = {"id": key, "name": extra.pop("name", key.replace("-", " ").title())}
    p = {s: v for s, v in zip(("top", "middle", "bottom"), points, strict=True) if v is not None}
    if p:
        d["points"] = p
    i = {s: v for s, v in zip(("top", "middle", "bottom"), icons, strict=True) if v is not None}
    if i:
        d["icons"] = i
    if effects:
        d["effects"] = effects
    if text is None and effects:
        text = f"Effect of {key}."
    if text:
        d["text"] = text
    d.update(extra)
    return d


def deck_data(
    modifiers: Iterable[dict[str, Any]] = (),
    events: Iterable[dict[str, Any]] = (),
    deaths: Iterable[dict[str, Any]] = (),
    families: int = 4,
    per_family: int = 5,
    fillers: int = 30,
    set_id: str = "test",
    icons: Iterable[str] = (),
) -> dict[str, Any]:
    """The dict a deck TOML file would parse to. ``fillers`` plain Modifiers
    (printing nothing, doing nothing) keep the draw pile from running dry."""
    fams = [{"id": f"fam{f}", "name": f"Family {f}"} for f in range(families)]
    chars = [{"id": f"c{f}-{i}", "name": f"Character {f}-{i}", "family": f"fam{f}"}
             for f in range(families) for i in range(per_family)]
    mods = list(modifiers) + [card(f"filler-{i}") for i in range(fillers)]
    return {
        "set": {"id": set_id, "name": f"Test set {set_id}", "icons": list(icons)},
        "families": fams,
        "characters": chars,
        "modifiers": mods,
        "events": list(events),
        "untimely_deaths": list(deaths),
    }


def make_deck(*args: Any, **kw: Any) -> Deck:
    """Build a validated test deck from dicts (takes :func:`deck_data`'s arguments)."""
    return build_deck(deck_data(*args, **kw), "test-deck")


_CLASSIC: Deck | None = None


def classic() -> Deck:
    global _CLASSIC
    if _CLASSIC is None:
        _CLASSIC = load_deck("classic")
    return _CLASSIC


# --- starting games --------------------------------------------------------------


def new_game(deck: Deck | None = None, players: int = 2, seed: int = 0, **config: Any) -> GloomState:
    """A fresh state, before setup."""
    cfg = GloomConfig(players=players, **config)
    return GloomGame(cfg, deck=deck if deck is not None else classic()).new_initial_state(seed)


def pass_setup(state: GloomState) -> GloomState:
    """Answer every setup question with its first legal action: each chooser takes
    the lowest free family (or, in a draft, the first Character still free) and
    sets aside the first Character offered."""
    while not state.is_over() and state.decision.kind in ("choose_family", "set_aside",
                                                          "choose_character"):
        state.apply(state.legal_actions()[0])
    return state


def start(
    deck: Deck | None = None, players: int = 2, seed: int = 0, first_player: int | None = 0,
    **config: Any,
) -> GloomState:
    """A state at the first play of the first turn (``first_player`` 0 by default)."""
    return pass_setup(new_game(deck, players, seed, first_player=first_player, **config))


MIX_ONLY_DECK = '''
[set]
id = "mine"
name = "My family"
[[families]]
id = "mine"
name = "The Mine Family"
[[characters]]
id = "mine-a"
name = "Auntie Mine"
family = "mine"
[[modifiers]]
id = "mine-mod"
name = "Fell Down a Mine"
points = { top = -20 }
'''
"""A deck of one family of one Character and one Modifier: it seats no table alone,
it is meant only to be mixed (R-H10)."""


# --- arranging positions ---------------------------------------------------------


def cid(state: GloomState, key: str) -> int:
    """Card index of the card with deck id ``key``."""
    return state.game.card_by_key[key]


def _idx(state: GloomState, c: int | str) -> int:
    return cid(state, c) if isinstance(c, str) else c


def take(state: GloomState, c: int | str) -> int:
    """Lift card ``c`` out of wherever it is (hand, piles, a stack above its
    Character, out of game), so it can be placed elsewhere."""
    c = _idx(state, c)
    for hand in state.hands:
        if c in hand:
            hand.remove(c)
            return c
    for pile in (state.draw_pile, state.discard, state.limbo, state.out_of_game):
        if c in pile:
            pile.remove(c)
            return c
    for char, stack in state.stacks.items():
        if c in stack:
            assert c != char, "a Character cannot be lifted off its own stack"
            state.lift(char, c)
            return c
    raise AssertionError(f"card {c} is nowhere")


def set_hand(state: GloomState, p: int, cards: Iterable[int | str]) -> list[int]:
    """Make player ``p``'s hand exactly ``cards``; the old hand goes to the bottom
    of the draw pile."""
    wanted = [_idx(state, c) for c in cards]
    for c in list(state.hands[p]):
        if c not in wanted:
            state.hands[p].remove(c)
            state.draw_pile.insert(0, c)
    for c in wanted:
        take(state, c)
        state.hands[p].append(c)
    return wanted


def give(state: GloomState, p: int, *cards: int | str) -> list[int]:
    """Add ``cards`` to player ``p``'s hand."""
    out = []
    for c in cards:
        c = take(state, c)
        state.hands[p].append(c)
        out.append(c)
    return out


def put_on(state: GloomState, char: int, *cards: int | str) -> None:
    """Stack ``cards`` (bottom first) on top of Character ``char``."""
    for c in cards:
        state.lay(char, take(state, c))


def set_draw_pile_top(state: GloomState, *cards: int | str) -> list[int]:
    """Put ``cards`` on top of the draw pile; the first one is drawn first."""
    out = [take(state, c) for c in cards]
    state.draw_pile.extend(reversed(out))
    return out


def empty_piles(state: GloomState) -> None:
    """Move the whole draw pile and discard pile out of the game (for draw-out tests)."""
    state.out_of_game.extend(state.draw_pile)
    state.out_of_game.extend(state.discard)
    state.draw_pile.clear()
    state.discard.clear()


def kill(state: GloomState, char: int, death: int | str) -> None:
    """Arrange ``char`` as dead: put an Untimely Death on top (no play, no check)."""
    put_on(state, char, death)


def cards_of(state: GloomState, ctype: CardType, with_effects: bool | None = None) -> list[int]:
    """Card indices of a type, optionally only those with (or without) effects."""
    out = []
    for c in state.cards:
        if c.type is not ctype:
            continue
        if with_effects is not None and bool(c.effects) != with_effects:
            continue
        out.append(c.index)
    return out


def plain_cards(state: GloomState, ctype: CardType, n: int, exclude: Iterable[int] = ()) -> list[int]:
    """``n`` effect-free cards of a type that are not in ``exclude`` and not on a stack."""
    ex = set(exclude)
    on_table = {c for s in state.stacks.values() for c in s}
    out = [c for c in cards_of(state, ctype, with_effects=False) if c not in ex and c not in on_table]
    assert len(out) >= n, f"only {len(out)} plain {ctype} cards available"
    return out[:n]


def check_conservation(state: GloomState) -> None:
    """Every card is in exactly one place (raises otherwise)."""
    where = state.locations()
    assert sorted(where) == list(range(len(state.cards)))


# --- acting ----------------------------------------------------------------------


def play(state: GloomState, c: int | str, target: int | None = None) -> list[Event]:
    """The turn player plays ``c`` (a Modifier or Untimely Death on ``target``, or an Event)."""
    c = _idx(state, c)
    if state.cards[c].type is CardType.EVENT:
        assert target is None
        return state.apply(state.codec.play_event(c))
    assert target is not None
    return state.apply(state.codec.play(c, target))


def play_action(state: GloomState, c: int | str, target: int | None = None) -> int:
    """The action id of playing ``c`` (on ``target``, unless ``c`` is an Event)."""
    c = _idx(state, c)
    if state.cards[c].type is CardType.EVENT:
        return state.codec.play_event(c)
    assert target is not None
    return state.codec.play(c, target)


def pass_play(state: GloomState) -> list[Event]:
    assert state.decision.kind == PLAY
    return state.apply(state.codec.PASS)


def pass_responses(state: GloomState) -> list[Event]:
    """Every player asked to respond lets it stand."""
    events: list[Event] = []
    while not state.is_over() and state.decision.kind == RESPOND:
        events.extend(state.apply(state.codec.PASS))
    return events


def choose_card(state: GloomState, c: int | str) -> list[Event]:
    return state.apply(state.codec.choose_card(_idx(state, c)))


def choose_player(state: GloomState, p: int) -> list[Event]:
    return state.apply(state.codec.choose_player(p))


def finish_turn(state: GloomState) -> list[Event]:
    """Pass the turn player's remaining plays (answering response windows with
    pass) until the turn passes to someone else or the game ends."""
    p = state.turn_player
    turn = state.turn
    events: list[Event] = []
    while not state.is_over() and state.turn == turn and state.turn_player == p:
        if state.decision.kind == RESPOND:
            events.extend(state.apply(state.codec.PASS))
        else:
            assert state.decision.kind == PLAY, state.decision
            events.extend(state.apply(state.codec.PASS))
    return events


def kinds(events: Iterable[Event]) -> list[str]:
    return [e.kind for e in events]


def char_view(state: GloomState, char: int, viewer: int | None = None) -> dict[str, Any]:
    """The public view of one Character."""
    for fam in state.view(viewer)["families"]:
        for ch in fam["characters"]:
            if ch["card"] == char:
                return ch
    raise AssertionError(f"Character {char} is not in play")


def draw_limits(state: GloomState) -> list[int]:
    return list(state.view(None)["draw_limits"])


HARBOUR_DECK = '''
[set]
id = "harbour"
name = "The Harbour"
[[families]]
id = "harbour"
name = "The Harbourmasters"
[[characters]]
id = "old-salt"
name = "The Old Salt"
family = "harbour"
[[modifiers]]
id = "fell-off-the-pier"
name = "Fell off the Pier"
points = { top = -15 }
[[modifiers]]
id = "found-a-message-in-a-bottle"
name = "Found a Message in a Bottle"
points = { middle = 10 }
'''
"""A small Gloom deck of our own (one family, two Modifiers) for the custom-deck and upload tests."""
