"""Issue 32: events are catalogue messages with typed arguments, never sentences.

Whole games of every game are played and each event is checked as data (a declared
message, one argument per placeholder, no text among them), then rendered in every
language from the catalogues. The English lines themselves follow the catalogue's
plurals (the engine used to print "1 cards")."""

from __future__ import annotations

import pickle
import random
import re

import pytest

import gloomtable.games.creatures.messages as CM
import gloomtable.games.gloom.messages as GM
from gloomtable.engine import Event
from gloomtable.engine.messages import REGISTRY, Msg
from gloomtable.games import make_game
from gloomtable.i18n.catalog import LANGUAGES, load_catalog
from gloomtable.i18n.events import MessageError, fill, render, voice

GAMES = [("gloom", {"players": 4}), ("gloom", {"players": 3, "edition": 1}),
         ("gloomier", {"players": 3}), ("creatures", {"players": 3})]


def _events(name: str, config: dict, seed: int) -> list[Event]:
    game = make_game(name, config)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    out: list[Event] = []
    while not state.is_over():
        for ev in state.apply(rng.choice(state.legal_actions())):
            out.append(ev)
            out.extend(ev.for_player(p) for p in (None, *range(game.num_players)))
    return out


def _sentence_in(value: object) -> bool:
    if isinstance(value, str):
        return " " in value or "." in value
    if isinstance(value, tuple):
        return any(_sentence_in(v) for v in value)
    return False


@pytest.mark.parametrize(("name", "config"), GAMES)
def test_every_event_is_a_message_with_typed_arguments(name: str, config: dict) -> None:
    seen: set[str] = set()
    for ev in _events(name, config, 3):
        assert isinstance(ev.msg, Msg) and ev.msg in REGISTRY, f"{ev.kind}: {ev.msg!r} is no message"
        assert len(ev.args) == len(ev.msg.fields), f"{ev.msg.msgid!r} got {ev.args!r}"
        assert not _sentence_in(ev.args), f"{ev.msg.msgid!r} carries text: {ev.args!r}"
        assert ev.public_msg is None or isinstance(ev.public_msg, Msg)
        for lang in LANGUAGES:
            line = render(ev, lang)
            assert line and "{" not in line and "}" not in line, f"{lang}: {line!r}"
        seen.add(ev.msg.msgid)
    assert len(seen) >= 8, seen


def test_an_event_with_a_finished_sentence_is_refused() -> None:
    """The old way (a sentence where the message goes) fails the moment it is read."""
    old = Event("pass", "Player 1 passes.", (), 0)  # type: ignore[arg-type]
    with pytest.raises(MessageError, match="not a catalogue message"):
        render(old, "en")
    with pytest.raises(MessageError, match="takes 1 arguments"):
        render(Event("pass", GM.PASS, (0, "Player 1"), 0), "en")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_has_its_template_in_each_language(lang: str) -> None:
    cat = load_catalog(lang)
    for m in REGISTRY:
        entry = cat.get(m.msgid)
        assert entry is not None and not entry.fuzzy, f"{lang}: no entry for {m.msgid!r}"
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        want = cat.num_plurals if m.plural else 1
        assert len([s for s in strings if s]) == want, f"{lang}: {m.msgid!r} lacks forms"
        for s in strings:  # a field may ask for a grammatical form: {char:gen} (i18n/grammar.py)
            for field in m.fields:
                assert re.search(r"\{" + field + r"(?::\w+)?\}", s), \
                    f"{lang}: {m.msgid!r} drops {{{field}}}: {s!r}"
        if m.gendered and lang != "en":
            for ctx in ("feminine", "plural"):
                assert cat.get(m.msgid, context=ctx) is not None, f"{lang}: {m.msgid!r} in {ctx}"


def _say(m: Msg, args: tuple[object, ...], lang: str, game: object = None) -> str:
    return fill(voice(game, m.game, lang), m, args)


def test_english_counts_agree() -> None:
    """The slips the engine's own English had: "1 cards", "1 penalty points", one
    "Winner" for two, a lower-case sentence after "Round N ends (…).\""""
    assert _say(GM.DISCARD_HAND, (0, 1), "en") == "Player 1 discards their hand (1 card)."
    assert _say(GM.DISCARD_HAND, (0, 2), "en") == "Player 1 discards their hand (2 cards)."
    assert _say(CM.GAME_END, ((1,), 1), "en") == "Game over: player 2 with 1 penalty point"
    assert _say(CM.GAME_END, ((0, 2), 5), "en") == "Game over: player 1 and player 3 with 5 penalty points"
    game = make_game("gloom", {"players": 3})
    assert _say(GM.GAME_OVER, ((3, 3, -10), (0, 1)), "en", game).endswith(
        "Winners: player 1 and player 2.")
    assert _say(GM.GAME_OVER, ((3, 4, -10), (0,)), "en", game).endswith("Winner: player 1.")
    assert _say(GM.CAP, (1,), "en").startswith("The table's cap of 1 turn is reached")
    line = _say(CM.ROUND_END, (1, "passed", ((3, -3), (3, 0))), "en")
    assert line == ("Round 1 ends (every player in a row has passed). "
                    "Player 1: +3 (total 3), player 2: -3 (total 0)")


@pytest.mark.parametrize(("n", "ru", "es"), [(1, "1 карта", "1 carta"), (2, "2 карты", "2 cartas"),
                                             (5, "5 карт", "5 cartas"), (21, "21 карта", "21 cartas")])
def test_plural_forms_for_1_2_5_21(n: int, ru: str, es: str) -> None:
    """Russian's three plural categories (1 and 21, 2, 5) and Spanish's two."""
    assert ru in _say(GM.DISCARD_HAND, (0, n), "ru")
    assert es in _say(GM.DISCARD_HAND, (0, n), "es")


def test_a_private_draw_is_a_draw_to_everyone_else() -> None:
    game = make_game("gloom", {"players": 3})
    state = game.new_initial_state(1)
    rng = random.Random(1)
    while True:
        draws = [e for e in state.apply(rng.choice(state.legal_actions())) if e.kind == "draw"]
        if draws:
            break
    ev = draws[0]
    mine = render(ev.for_player(ev.private_to), "en")
    theirs = render(ev.for_player((ev.private_to or 0) + 1), "en")
    assert theirs == f"Player {ev.player + 1} draws a card." != mine  # type: ignore[operator]
    assert ev.for_player(None).card is None and "draws a card" in render(ev.for_player(None), "en")
    assert render(ev.for_player(None), "ru") != theirs


def test_events_pickle_to_the_same_messages() -> None:
    """Search workers get events through pickle: a message comes back as itself."""
    for ev in _events("creatures", {"players": 2}, 1)[:50]:
        back = pickle.loads(pickle.dumps(ev))
        assert back.msg is ev.msg and back.args == ev.args
    assert pickle.loads(pickle.dumps(GM.DRAW)) is GM.DRAW


def test_a_chronicle_as_json_carries_lines_not_events() -> None:
    """A told chronicle travels without the events it was told from (the server makes
    it in a worker process and sends it back pickled; the page gets it as JSON)."""
    import json
    import pickle

    from gloomtable.designer.chronicle import build_chronicle
    from gloomtable.engine.record import GameRecord

    game = make_game("gloom", {"players": 3})
    state = game.new_initial_state(5)
    rng = random.Random(5)
    actions = []
    while not state.is_over():
        actions.append(rng.choice(state.legal_actions()))
        state.apply(actions[-1])
    for lang in LANGUAGES:
        chronicle = build_chronicle(GameRecord.of(game, 5, actions), lang=lang)
        data = json.loads(json.dumps(chronicle.to_dict()))
        lines = [ln for t in data["tales"] for ln in t["lines"]] + data["table"]
        assert lines and all("event" not in ln and ln["text"] for ln in lines)
        assert pickle.loads(pickle.dumps(chronicle)).to_dict() == chronicle.to_dict()


def test_english_narration_of_twins_is_plural() -> None:
    """Issue 32: "Percival and Prudence was buried": a deed told of a plural Character
    says "were"; the told line is data (template and card indices), said in each
    language from it, so nothing is parsed back from English."""
    import json

    from gloomtable.games.gloom.hooks.card_texts import GloomTexts
    from gloomtable.games.gloom.hooks.narration import deed as _deed
    from gloomtable.i18n.narration_text import tell

    assert _deed("Was Pursued by Geese", "plural") == "were pursued by geese"
    assert _deed("Was Pursued by Geese", "feminine") == "was pursued by geese"
    assert _deed("Fell Down a Well", "plural") == "fell down a well"
    game = make_game("gloom", {"players": 3})
    cards = {c.key: c.index for c in game.deck.cards}
    twins, geese = cards["percival-and-prudence"], cards["was-pursued-by-geese"]
    line = json.dumps({"told": "sink_own", "i": 0, "card": geese, "char": twins, "mood": 2, "actor": 0})
    assert tell(game, line, "en") == "Percival and Prudence, already in debt to fate, were pursued by geese."
    es = tell(game, line, "es")
    assert es is not None and GloomTexts(game.deck, "es").name(geese, "plural").lower() in es.lower()
    assert tell(game, "They were doomed anyway.", "es") == "They were doomed anyway."  # a person's words
    assert tell(game, '{"told": "sink_own", "i": 99}', "en") == '{"told": "sink_own", "i": 99}'


@pytest.mark.parametrize(("lang", "words"), [("es", "Las locas criaturas"), ("ru", "Безумных тварей")])
def test_the_lesson_title_names_the_game_as_the_lobby_does(lang: str, words: str) -> None:
    """The Crazy Creatures lesson said "Crazy Creatures" where the lobby says its name."""
    from gloomtable.i18n.catalog import translator

    title = translator(lang).gettext("Learn to play Crazy Creatures")
    assert words in title and "Crazy" not in title


def test_the_first_lesson_counts_a_familys_characters_right() -> None:
    """The Gloom lesson said "a family of four Characters"; the classic families have five."""
    from gloomtable.learn.script import load_lesson, shipped_lessons

    texts = " ".join(load_lesson(shipped_lessons()["gloom"]).texts())
    sizes = {len(f.characters) for f in make_game("gloom", {"players": 4}).deck.families}
    assert sizes == {5} and "a family of five Characters" in texts and "family of four" not in texts
