"""Issue 32's listed slips, each pinned where it was found: a woman Guest's label on the
page, two winners (no "Ganador(es)", no "Winner: a, b" lists), the chronicle's first
line as a sentence with a seat declined as a seat, English and Spanish and Russian verbs
agreeing with a plural Character, plurals for 1, 2, 5 and 21, the Russian terms a native
reader flagged, and events that carry a finished sentence refused."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import gloomtable.games.gloom.messages as GM
from gloomtable.engine import Event
from gloomtable.games import make_game
from gloomtable.i18n.catalog import translator
from gloomtable.i18n.events import MessageError, render

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "src" / "gloomtable"
GLOOM = [sys.executable, "-m", "gloomtable.cli.main"]


def _index(game: object, key: str) -> int:
    return next(c.index for c in game.deck.cards if c.key == key)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("lang", "woman", "man", "pair"), [("es", "Invitada", "Invitado", "Invitados"),
                                                            ("ru", "Гостья", "Гость", "Гости")])
def test_the_page_labels_a_guest_in_the_guests_gender(lang: str, woman: str, man: str, pair: str) -> None:
    """The page wrote "(Invitado)" / "(Гость)" under a woman Guest: it now asks for the
    label in the Guest's gender, which every card face carries."""
    from gloomtable.games.catalogue import catalogue
    from gloomtable.i18n.web import localize_catalogue, web_catalog

    cat = web_catalog(lang)
    assert (cat["Guest"], cat["feminine\x04Guest"], cat["plural\x04Guest"]) == (man, woman, pair)
    game = make_game("gloomier", {"players": 3})
    faces = localize_catalogue(game, catalogue(game), lang)["cards"]
    guests = [f for f in faces if f.get("type") == "guest"]
    assert {"feminine", "masculine"} <= {f["gender"] for f in guests}
    js = (PKG / "web" / "gloom_table.js").read_text(encoding="utf-8")
    assert 'pgettext(faces.length ? faces[0].gender : null, "Guest")' in js
    assert '_("Guest")' not in js


def _play(lang: str, game: str, seed: int) -> str:
    proc = subprocess.run([*GLOOM, "--lang", lang, "play", "--game", game, "--humans", "0",
                           "--seed", str(seed)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout.rstrip("\n").rsplit("\n", 1)[-1]


@pytest.mark.slow  # a whole game in a process of its own, started with --lang
@pytest.mark.parametrize(("lang", "line"), [("en", "Winners: player 3 and player 4"),
                                            ("es", "Ganan el jugador 3 y el jugador 4."),
                                            ("ru", "Побеждают игрок 3 и игрок 4.")])
def test_two_winners_are_named_in_a_sentence_with_the_plural(lang: str, line: str) -> None:
    """Gloom, seed 3, four bots: players 3 and 4 tie. The line was "Ganador(es): jugador 3,
    jugador 4" (a bracket plural and a bare list after a colon)."""
    assert _play(lang, "gloom", 3) == line


@pytest.mark.slow  # a whole game in a process of its own, started with --lang
@pytest.mark.parametrize(("lang", "line"), [("en", "Winner: player 2"), ("es", "Gana el jugador 2."),
                                            ("ru", "Побеждает игрок 2.")])
def test_one_winner_of_crazy_creatures(lang: str, line: str) -> None:
    assert _play(lang, "creatures", 3) == line


def test_a_winners_list_takes_every_form() -> None:
    from gloomtable.i18n.grammar import Forms, and_list, seat, spanish_person

    tr = translator("es")
    who = and_list(tr, [seat("es", "Jugador 1", 1), Forms("Ana", spanish_person("Ana"))])
    assert format(who, "de") == "del jugador 1 y de Ana"
    assert str(who) == "Jugador 1 y Ana"


@pytest.mark.slow
def test_the_chronicle_opens_with_a_sentence_and_declines_a_seat(tmp_path: Path) -> None:
    """It read "ganó la familia más desdichada: Jugador 3 (Castillo Slogar)" and
    "anulada por «…» de Jugador 4" (a default seat written as a person's name)."""
    subprocess.run([*GLOOM, "simulate", "--game", "gloom", "--players", "4", "--games", "1", "--seed", "3",
                    "--save-dir", str(tmp_path)], check=True, capture_output=True, timeout=300)
    record = next(tmp_path.glob("*.json"))
    out = {lang: subprocess.run([*GLOOM, "--lang", lang, "replay", str(record), "--chronicle"],
                                capture_output=True, text=True, check=True, timeout=300).stdout
           for lang in ("en", "es", "ru")}
    first = {lang: text.split("\n")[2] for lang, text in out.items()}
    assert "the family of Player 3, was the gloomiest and won." in first["en"]
    assert "ganó Castillo Slogar, la familia del jugador 3, por ser la más desdichada." in first["es"]
    assert "победила семья игрока 3, Замок Слогар, — самая несчастная из всех." in first["ru"]
    for text in first.values():
        assert ": " not in text.split(". ", 1)[1], text
    assert "del jugador 4)" in out["es"] and "de Jugador" not in out["es"]


@pytest.mark.parametrize(("lang", "one", "both"), [
    ("en", "Lord Slogar dies: ", "Percival and Prudence die: "),
    ("es", "Lord Slogar muere: ", "Percival y Prudence mueren: "),
    ("ru", "Лорд Слогар умирает: ", "Персиваль и Пруденс умирают: ")])
def test_verbs_agree_with_a_plural_character(lang: str, one: str, both: str) -> None:
    """English said "Percival and Prudence dies" (13 times in 38 chronicles): the death and
    return lines now take the Character's number in every language."""
    game = make_game("gloom", {"players": 4})
    slogar, twins = _index(game, "lord-slogar"), _index(game, "percival-and-prudence")
    death = next(c.index for c in game.deck.cards if c.type.value == "untimely_death")
    assert render(Event("death", GM.DEATH, (slogar, death), game=game), lang).startswith(one)
    assert render(Event("death", GM.DEATH, (twins, death), game=game), lang).startswith(both)
    back = render(Event("revive", GM.REVIVE, (twins,), game=game), lang)
    assert back.split(both.split()[-2].rstrip(":"))[0]  # the name comes first
    assert {"en": " return ", "es": " vuelven ", "ru": " возвращаются "}[lang] in back


@pytest.mark.parametrize(("lang", "forms"), [
    ("en", {1: "(1 card)", 2: "(2 cards)", 5: "(5 cards)", 21: "(21 cards)"}),
    ("es", {1: "(1 carta)", 2: "(2 cartas)", 5: "(5 cartas)", 21: "(21 cartas)"}),
    ("ru", {1: "(1 карта)", 2: "(2 карты)", 5: "(5 карт)", 21: "(21 карта)"})])
def test_an_events_count_takes_the_plural_of_1_2_5_and_21(lang: str, forms: dict[int, str]) -> None:
    """Russian has three plural forms (1 and 21; 2; 5); Spanish and English two. English
    printed "discards their hand (1 cards)"."""
    game = make_game("gloom", {"players": 4})
    for n, form in forms.items():
        line = render(Event("discard_hand", GM.DISCARD_HAND, (0, n), game=game), lang)
        assert line.endswith(form + "."), line


@pytest.mark.parametrize(("lang", "forms"), [
    ("es", {1: "Tras 1 ronda,", 2: "Tras 2 rondas,", 5: "Tras 5 rondas,", 21: "Tras 21 rondas,"}),
    ("ru", {1: "Через 1 раунд ", 2: "Через 2 раунда ", 5: "Через 5 раундов ", 21: "Через 21 раунд "})])
def test_the_chronicles_rounds_take_the_plural_of_1_2_5_and_21(lang: str, forms: dict[int, str]) -> None:
    from gloomtable.i18n.grammar import seat

    tr = translator(lang)
    for n, form in forms.items():
        text = tr.ngettext("After {n} round, {family}, the family of {who}, was the gloomiest and won.",
                           "After {n} rounds, {family}, the family of {who}, was the gloomiest and won.", n)
        assert text.format(n=n, family="F", who=seat(lang, "W", 1)).startswith(form), text


def _ru_strings() -> list[str]:
    with (PKG / "locale" / "ru" / "LC_MESSAGES" / "gloomtable.po").open("rb") as fh:
        catalog = read_po(fh, locale="ru")
    out: list[str] = []
    for m in catalog:
        out.extend(m.string if isinstance(m.string, tuple) else (m.string,))
    return out


def test_russian_terms_read_as_a_native_writes_them() -> None:
    """"В центре, ничьи" reads as "draws", "на ходу 41" as "on the move", and "Модификатор,
    который снять" is no Russian relative clause."""
    ru = translator("ru").gettext
    assert ru("In the middle, uncontrolled:") == "В центре, вне семей:"
    assert ru("The game ended on turn {turn} (round {round}).").format(turn=41, round=7) == \
        "Игра закончилась на 41-м ходу, в 7-м раунде."
    assert ru("choose a Modifier to remove") == "выберите, какой Модификатор снять"
    text = "\n".join(_ru_strings())
    assert "ничьи" not in text and "на ходу" not in text
    bad = re.findall(r", (?:котор|у котор|с котор|на котор)\w* \w+ть\b", text)
    assert not bad, bad


def test_an_event_with_a_finished_sentence_is_refused() -> None:
    """An engine that wrote English again (``Event(kind, "Player 1 passes.")``) fails here:
    an event is a declared message with typed arguments, rendered when read."""
    with pytest.raises(MessageError):
        render(Event("pass", "Player 1 passes.", ()), "en")  # type: ignore[arg-type]
    with pytest.raises(MessageError):
        render(Event("pass", GM.PASS, ("Player 1 passes.", 0)), "en")
