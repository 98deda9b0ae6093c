"""Issue 32: names enter a line in the form its grammar needs. Russian Characters and
Guests carry their cases as deck data (``cases`` in the translation files), a user's deck
without them gets cases proposed by pymorphy3, seats take their forms from
``locale/<lang>/grammar.toml``, and deeds are said in the past tense agreeing with
the Character."""

from __future__ import annotations

import json
import re
import tomllib
from importlib import resources
from pathlib import Path

import pytest

import gloomtable.games.creatures.messages as CM
import gloomtable.games.gloom.messages as GM
from gloomtable.games import make_game
from gloomtable.games.creatures.hooks.text import CreaturesVoice
from gloomtable.games.gloom.deck import load_deck
from gloomtable.games.gloom.hooks.card_texts import GloomTexts
from gloomtable.games.gloom.hooks.text import GloomVoice
from gloomtable.i18n.catalog import translator
from gloomtable.i18n.events import fill
from gloomtable.i18n.grammar import RU_CASES, Forms, propose_ru
from gloomtable.i18n.narration_text import tell

SETS = resources.files("gloomtable.games.gloom.sets")


def _key(game: object, key: str) -> int:
    return next(c.index for c in game.deck.cards if c.key == key)  # type: ignore[attr-defined]


@pytest.mark.parametrize("set_name", ["classic", "gloomier"])
def test_every_russian_person_carries_its_cases_as_deck_data(set_name: str) -> None:
    texts = GloomTexts(load_deck(set_name), "ru")
    people = [c.key for c in texts.deck.cards if texts.is_person(c.index)]
    assert len(people) >= 20
    for key in people:
        cases = texts.cards[key].get("cases", {})
        assert set(cases) == set(RU_CASES), f"{set_name}: {key} lacks cases {set(RU_CASES) - set(cases)}"
        assert all(str(v).strip() for v in cases.values())


def test_a_russian_name_after_a_preposition_is_in_its_case() -> None:
    game = make_game("gloom", {"players": 3})
    lord, melissa, geese = (_key(game, k) for k in ("lord-slogar", "melissa-slogar", "was-pursued-by-geese"))
    ru = GloomVoice(game, translator("ru"))
    assert fill(ru, GM.PLAY_ON, (1, geese, lord)) == "Игрок 2 играет «За ним гнались гуси» на Лорда Слогара."
    assert fill(ru, GM.PLAY_ON, (1, geese, melissa)) == \
        "Игрок 2 играет «За ней гнались гуси» на Мелиссу Слогар."
    assert fill(ru, GM.MOVE, (geese, melissa, lord)) == \
        "«За ним гнались гуси» переходит от Мелиссы Слогар к Лорду Слогару."
    assert fill(ru, GM.STEAL_HIDDEN, (0, 2)) == "Игрок 1 забирает карту у игрока 3."
    es = GloomVoice(game, translator("es"))
    assert fill(es, GM.STEAL_HIDDEN, (0, 2)) == "El jugador 1 le quita una carta al jugador 3."
    assert fill(es, GM.GAME_OVER, ((3, 3, -10), (0, 1))).endswith("Ganan el jugador 1 y el jugador 2.")
    assert fill(GloomVoice(game, translator("ru")), GM.GAME_OVER, ((3, 4, -10), (0,))).endswith(
        "Побеждает игрок 1.")


def test_seats_take_their_forms_in_creatures_lines_and_narration() -> None:
    ru, es = CreaturesVoice(None, translator("ru")), CreaturesVoice(None, translator("es"))
    assert fill(ru, CM.DRAW_HIDDEN, (0, 2)) == "Игрок 1 заставляет игрока 3 взять карту из Резерва"
    assert fill(ru, CM.GAME_END, ((0, 2), 5)) == \
        "Игра окончена. Лучший результат у игрока 1 и игрока 3: 5 штрафных очков"
    assert fill(es, CM.GAME_END, ((1,), 1)) == \
        "Fin de la partida. El mejor resultado es del jugador 2: 1 punto de penalización"
    line = json.dumps({"told": "draw", "i": 0, "actor": 0, "victim": 2})
    assert tell(None, line, "ru") == "Игрок 1 подсовывает игроку 3 бесхозную Тварь из Резерва."
    assert tell(None, line, "es") == "El jugador 1 le endosa una Criatura perdida de la Reserva al jugador 3."
    assert tell(None, line, "en") == "Player 1 shoves a stray Creature from the Reserve at Player 3."


def test_russian_deeds_are_past_tense_and_agree() -> None:
    texts = GloomTexts(load_deck("classic"), "ru")
    ducks = next(c.index for c in texts.deck.cards if c.key == "was-adored-by-ducklings")
    assert [texts.name(ducks, g) for g in ("masculine", "feminine", "plural")] == \
        ["Утята его обожали", "Утята её обожали", "Утята их обожали"]
    for set_name in ("classic", "gloomier"):  # no present passive participle ("Преследуем гусями")
        for entry in tomllib.loads(SETS.joinpath(f"{set_name}.ru.toml").read_text(encoding="utf-8"))[
                "cards"].values():
            first = str(entry.get("name", "")).split(" ")[0]
            assert not re.fullmatch(r"(Преследуем|Обожаем|Выстрелен)\w*", first), entry["name"]


def test_a_name_without_forms_stays_whole_in_every_slot() -> None:
    plain = Forms("Хэл")
    assert f"{plain:gen} / {plain:a} / {plain}" == "Хэл / Хэл / Хэл"
    assert f"{Forms('Ана', {'gen': 'Аны'}):gen}" == "Аны"


def test_pymorphy3_proposes_cases_for_a_deck_that_gives_none(tmp_path: Path) -> None:
    pytest.importorskip("pymorphy3")
    assert propose_ru("Лорд Слогар", "masculine")["gen"] == "Лорда Слогара"
    assert propose_ru("Лорд Слогар", "masculine")["acc"] == "Лорда Слогара"
    assert propose_ru("Мелисса Слогар", "feminine")["dat"] == "Мелиссе Слогар"
    assert propose_ru("Дядюшка Корнелиус Голл", "masculine")["acc"] == "Дядюшку Корнелиуса Голла"
    # a user's deck with a translation file that names a Character but gives no cases
    deck_src = SETS.joinpath("classic.toml").read_text(encoding="utf-8")
    (tmp_path / "mine.toml").write_text(deck_src, encoding="utf-8")
    ru = SETS.joinpath("classic.ru.toml").read_text(encoding="utf-8")
    (tmp_path / "mine.ru.toml").write_text(re.sub(r"(?m)^cases = .*\n", "", ru), encoding="utf-8")
    texts = GloomTexts(load_deck(tmp_path / "mine.toml"), "ru")
    lord = next(c.index for c in texts.deck.cards if c.key == "lord-slogar")
    assert f"{texts.person(lord):ins}" == "Лордом Слогаром"


def test_the_page_names_the_target_in_its_case() -> None:
    """The page's "on {name}" under the card being played put a name straight after «на»;
    the Russian entry now asks for the accusative, which the card faces carry."""
    from gloomtable.games.catalogue import catalogue
    from gloomtable.i18n.web import localize_catalogue, web_catalog

    assert web_catalog("ru")["on {name}"] == "на {name:acc}"
    assert web_catalog("es")["on {name}"] == "sobre {name:art}"
    game = make_game("gloom", {"players": 3})
    faces = {f["index"]: f for f in localize_catalogue(game, catalogue(game), "ru")["cards"]}
    assert faces[_key(game, "lord-slogar")]["cases"]["acc"] == "Лорда Слогара"
    es = {f["index"]: f for f in localize_catalogue(game, catalogue(game), "es")["cards"]}
    assert es[_key(game, "nanny-grimsditch")]["cases"]["art"] == "la niñera Grimsditch"
