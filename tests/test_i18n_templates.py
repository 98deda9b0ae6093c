"""Issue 23: every log, prompt and chronicle template stays grammatical in Spanish and
Russian whatever is put in it. Each template is rendered with a woman's and a man's
Character and a long name, for Gloom, Gloomier and Crazy Creatures, and checked: no
placeholder or Markdown mark shows, no Russian preposition is followed by a name in the
nominative, no Spanish name carries an article, card names agree with the Character they
befell, and gendered lines differ by gender."""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import gloomtable.games.creatures.messages
import gloomtable.games.gloom.messages  # noqa: F401
from gloomtable.designer.chronicle import DIED, NOTHING, SURVIVED, Tale, _ending
from gloomtable.engine.messages import REGISTRY, Msg
from gloomtable.games import make_game
from gloomtable.games.creatures.hooks import narration as creatures_narration
from gloomtable.games.creatures.hooks import text as creatures_text
from gloomtable.games.creatures.hooks.text import CreaturesLocalizer, CreaturesVoice
from gloomtable.games.gloom.cards import CardType
from gloomtable.games.gloom.deck import Deck, load_deck
from gloomtable.games.gloom.hooks import narration as gloom_narration
from gloomtable.games.gloom.hooks import text as gloom_text
from gloomtable.games.gloom.hooks.card_texts import GloomTexts
from gloomtable.games.gloom.hooks.text import GloomLocalizer, GloomVoice
from gloomtable.i18n.catalog import translator
from gloomtable.i18n.client import localizer_for
from gloomtable.i18n.events import fill
from gloomtable.i18n.grammar import spanish_person
from gloomtable.i18n.narration_text import tell

SETS = Path(__file__).resolve().parents[1] / "src" / "gloomtable" / "games" / "gloom" / "sets"
LANGS = ("es", "ru")
RU_PREPOSITIONS = ("в", "во", "на", "с", "со", "к", "ко", "от", "у", "из", "за", "о", "об", "по",
                   "для", "без", "до", "при", "про", "над", "под", "перед", "через", "между")
ES_ARTICLES = ("el", "la", "los", "las", "un", "una", "unos", "unas", "al", "del")
MARKS = ("{", "}", "**", "__", "`", "\u201c", "\u201d")

# One Character of each shipped set gets a long name (in English and in each language).
LONG = {
    "classic": ("lord-slogar", "Lord Bartholomew Augustus Slogar-Wellington of the Lower Marsh",
                {"es": "Lord Bartholomew Augustus Slogar-Wellington del Pantano Bajo",
                 "ru": "Лорд Варфоломей Август Слогар-Веллингтон с Нижнего болота"}),
    "gloomier": ("sir-septimus-crane-mortlake",
                 "Sir Septimus Aurelius Crane-Mortlake, Master of Hemlock Hall",
                 {"es": "Sir Septimus Aurelius Crane-Mortlake, señor de Hemlock Hall",
                  "ru": "Сэр Септимус Аврелий Крейн-Мортлейк, хозяин Хемлок-Холла"}),
}
CARD = {"classic": "was-pursued-by-geese", "gloomier": "was-mistaken-for-the-victim"}
"""A Modifier whose name inflects, for the card placeholders."""

PERSON_CARDS = {
    "{card} comes to stay with {char}, {mood}.": {"card"},  # a Guest (bot narration)
    "{char}, {mood}, finds {card} on the doorstep.": {"card"},
    "{card} returns to the middle.": {"card"},
    "{card} follows {card2} from the middle to player {q}'s family.": {"card"},
    "{card} follows {card2} from player {q}'s family to player {r}'s family.": {"card"},
}
"""Card placeholders that hold a Character or Guest although the template names no subject."""


def _long_copy(tmp: Path, set_name: str) -> Path:
    key, english, names = LONG[set_name]
    src = (SETS / f"{set_name}.toml").read_text(encoding="utf-8")
    src, n = re.subn(rf'(id = "{key}"\n(?:\w+ = "[^"]*"\n)*?)name = "[^"]+"', rf'\1name = "{english}"', src,
                     count=1)
    assert n == 1
    path = tmp / f"long_{set_name}.toml"
    path.write_text(src, encoding="utf-8")
    for lang in LANGS:
        text = (SETS / f"{set_name}.{lang}.toml").read_text(encoding="utf-8")
        text = re.sub(rf'(\[cards\.{key}\]\nname = )"[^"]+"', rf'\1"{names[lang]}"', text, count=1)
        (tmp / f"long_{set_name}.{lang}.toml").write_text(text, encoding="utf-8")
    return path


@dataclass
class Cast:
    deck: Deck
    woman: int
    man: int
    long: int
    card: int

    def people(self) -> dict[str, int]:
        return {"a woman": self.woman, "a man": self.man, "a long name": self.long}


@pytest.fixture(scope="module", params=["classic", "gloomier"])
def cast(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Cast:
    set_name = request.param
    deck = load_deck(_long_copy(tmp_path_factory.mktemp(set_name), set_name))
    chars = [c for c in deck.cards if c.type is CardType.CHARACTER]
    by_key = {c.key: c.index for c in deck.cards}
    return Cast(deck, next(c.index for c in chars if c.gender == "feminine"),
                next(c.index for c in chars if c.gender == "masculine" and c.key != LONG[set_name][0]),
                by_key[LONG[set_name][0]], by_key[CARD[set_name]])


def _gloom_args(m: Msg, person: int, card: int) -> tuple[tuple[Any, ...], set[str]]:
    """Typed arguments of an event of message ``m`` with ``person`` in every Character slot."""
    persons = set(PERSON_CARDS.get(m.msgid, set())) | ({m.subject} if m.subject else set())
    args: list[Any] = []
    for name in m.fields:
        kind = name.rstrip("0123456789")
        if kind == "char" or name in persons:
            args.append(person)
        elif kind == "card":
            args.append(card)
        else:
            args.append({"family": 0, "freeplay": "untimely_death", "scores": (-30, 5),
                         "names": (0, 2), "n": 2}.get(kind, 1))
    return tuple(args), {n for n in m.fields if n in persons or n.startswith("char")}


def _check_plain(text: str, where: str, inner_quotes: bool = False) -> None:
    """``inner_quotes``: a narration, where a title takes the inner quotes (“…”, „…“)."""
    for mark in MARKS[:5] if inner_quotes else MARKS:
        assert mark not in text, f"{where}: {mark!r} shows in {text!r}"


def _check_grammar(lang: str, text: str, names: list[str], where: str) -> None:
    """No Russian preposition before a name in the nominative (a name enters in the case
    its template asks for: «на Лорда Слогара», «от Мелиссы Слогар»; an indeclinable name
    is the same in every case and is not counted); no Spanish article before a name; no
    "…: player 3" tail (a seat said after a colon instead of in its sentence)."""
    assert not re.search(r":\s*(?:[Ии]гро(?:к|ка|ку)|jugador|[Pp]layer) \d+\.?$", text), \
        f"{where}: a seat after a colon: {text!r}"
    for name in names:
        if lang == "ru":
            preps = "|".join(RU_PREPOSITIONS)
            assert not re.search(rf"(?<!\w)(?:{preps})\s+«?{re.escape(name)}(?!\w)", text, re.IGNORECASE), \
                f"{where}: a preposition before the name in the nominative: {text!r}"
        elif spanish_person(name)["art"] == name:  # a name with a title takes its article
            arts = "|".join(ES_ARTICLES)
            assert not re.search(rf"(?<!\w)(?:{arts})\s+{re.escape(name)}", text, re.IGNORECASE), \
                f"{where}: an article before the name: {text!r}"
        else:  # and never stands bare after a preposition ("a Reverendo Amos")
            assert not re.search(rf"(?<!\w)(?:a|de|sobre)\s+{re.escape(name)}", text), \
                f"{where}: a title without its article: {text!r}"


@pytest.mark.parametrize("lang", LANGS)
def test_every_gloom_log_and_choice_template(cast: Cast, lang: str) -> None:
    tr = translator(lang)
    loc = GloomLocalizer(SimpleNamespace(deck=cast.deck), tr)
    texts = GloomTexts(cast.deck, lang)
    for m in [m for m in REGISTRY if m.game == "gloom"]:
        forms = {}
        for label, person in cast.people().items():
            voice = GloomVoice(SimpleNamespace(deck=cast.deck), tr)
            args, slots = _gloom_args(m, person, cast.card)
            out = fill(voice, m, args)
            english = fill(GloomVoice(SimpleNamespace(deck=cast.deck), translator("en")), m, args)
            where = f"{lang} log {m.msgid!r} with {label}"
            assert out != english, f"{where}: not translated"
            _check_plain(out, where)
            _check_grammar(lang, out, [texts.name(person)], where)
            gender = texts.gender(person)
            cards = [n for n in m.fields if n.startswith("card") and n not in slots]
            if m.subject and cards:
                assert texts.name(cast.card, gender) in out, f"{where}: the card does not agree: {out!r}"
            forms[label] = out
        if m.gendered and translator(lang).pgettext("feminine", m.msgid) != translator(lang).gettext(m.msgid):
            # (a line whose verb is the same for a woman, "умирает", agrees in number only)
            assert forms["a woman"].replace(texts.name(cast.woman), "") != \
                forms["a man"].replace(texts.name(cast.man), ""), f"{lang}: {m.msgid!r} ignores gender"
    game = SimpleNamespace(deck=cast.deck)
    for key, template in gloom_text.ACTIONS.items():  # the choices, as loc.action fills them
        for label, person in cast.people().items():
            gender = texts.gender(person)
            whose = texts.person(person).with_tail(f" (+0, {tr.player(1)})")
            values = {"family": texts.family_name(cast.deck.families[0].id), "p": "2",
                      "card": loc.shown(cast.card), "cardx": loc.shown(cast.card), "cardx2": whose}
            if key in ("aside", "choose"):
                values["cardx"] = whose
            if key in ("play_on", "play"):
                values["cardx"] = loc.shown(cast.card, gender) + " (-10)"
            out = tr.gettext(template).format(**values)
            where = f"{lang} choice {template!r} with {label}"
            assert out != template.format(**values), f"{where}: not translated"
            _check_plain(out, where)
            _check_grammar(lang, out, [texts.name(person)], where)
            if key == "play_on":
                assert texts.name(cast.card, gender) in out, f"{where}: the card does not agree: {out!r}"
    for group, templates in gloom_narration.TEMPLATES.items():  # bots' told lines, said from their data
        for i, template in enumerate(templates):
            for label, person in cast.people().items():
                card = person if group == "guest" else cast.card
                data = json.dumps({"told": group, "i": i, "card": card, "char": person, "mood": 2,
                                   "actor": 1})
                out = tell(game, data, lang)
                where = f"{lang} bot narration {template!r} with {label}"
                assert out and out != data and out != tell(game, data, "en"), f"{where}: not translated"
                _check_plain(out, where, inner_quotes=True)
                _check_grammar(lang, out, [texts.name(person)], where)
                agreeing = texts.name(cast.card, texts.gender(person))
                if "{deed}" in template:
                    assert agreeing[:1].lower() + agreeing[1:] in out, f"{where}: the deed: {out!r}"
                elif "{card}" in template and "{char}" in template and group != "guest":
                    assert agreeing in out, f"{where}: the card does not agree: {out!r}"


@pytest.mark.parametrize("lang", LANGS)
def test_names_carry_no_article_and_cards_inflect(cast: Cast, lang: str) -> None:
    texts = GloomTexts(cast.deck, lang)
    for c in cast.deck.cards:
        if c.type in (CardType.CHARACTER, CardType.GUEST):
            first = texts.name(c.index).split()[0].lower()
            assert lang != "es" or first not in ES_ARTICLES, f"{texts.name(c.index)!r} has an article"
    for fam in cast.deck.families:
        assert lang != "es" or texts.family_name(fam.id).split()[0].lower() not in ES_ARTICLES
    woman, man = texts.name(cast.card, "feminine"), texts.name(cast.card, "masculine")
    assert woman != man, f"{lang}: {man!r} has no feminine form"
    assert texts.name(cast.card, "plural") not in (woman, man)


@pytest.mark.parametrize("lang", LANGS)
def test_every_prompt_is_one_form(lang: str) -> None:
    """Decisions are prompts in the imperative (not an infinitive or a noun), in both games."""
    tr = translator(lang)
    for kind, message in [*gloom_text.DECISIONS.items(), *creatures_text.DECISIONS.items()]:
        out = tr.gettext(message)
        _check_plain(out, f"{lang} prompt {kind}")
        first = out.split()[0].strip(",:")
        if lang == "es":
            assert not re.search(r"(ar|er|ir)$", first), f"{kind}: {out!r} is not an imperative"
        else:
            assert not re.search(r"(ть|ться|ти)$", first), f"{kind}: {out!r} is not an imperative"
            assert re.search(r"(те|тесь)$", first), f"{kind}: {out!r} is not an imperative"


@pytest.mark.parametrize("lang", LANGS)
def test_chronicle_lines_agree_with_gender(lang: str) -> None:
    tr = translator(lang)
    seen = {}
    for gender in ("feminine", "masculine", "plural"):
        for dead in (True, False):
            tale = Tale(0, "X", 0, "", dead=dead, death="«Y»" if dead else None, self_worth=-20,
                        gender=gender)
            out = _ending(tale, tr)
            _check_plain(out, f"{lang} chronicle {gender}")
            assert "-20" in out and ("«Y»" in out) == dead
            seen[gender, dead] = out
        seen[gender, "nothing"] = tr.gendered(gender, NOTHING)
    for what in (True, False, "nothing"):
        assert seen["plural", what] != seen["masculine", what], f"{lang}: plural {what} as masculine"
    if lang == "ru":  # Spanish past tense has one form for a woman and a man
        for what in (True, False, "nothing"):
            assert seen["feminine", what] != seen["masculine", what], f"ru: feminine {what}"
    assert tr.gendered("feminine", DIED) != DIED and tr.gendered("plural", SURVIVED) != SURVIVED


@pytest.mark.parametrize("lang", LANGS)
def test_every_creatures_template(lang: str) -> None:
    tr = translator(lang)
    loc = CreaturesLocalizer(SimpleNamespace(), tr)
    values = {"p": "2", "q": "3", "n": "2", "r": "1", "label": "red 5", "colour": "yellow",
              "side": "+ Enlarger", "why": "the final turns are over",
              "shown": "player 1: +3 (total 3), player 2: -1 (total 4)", "names": "player 1 and player 3"}
    from gloomtable.games.creatures.cards import CREATURE_SET

    values["side"] = f"+ {CREATURE_SET.plus.name}"
    values.update({"actor": "Player 2", "victim": "Player 3", "creature": CREATURE_SET.colours[0].creature,
                   "machine": CREATURE_SET.minus.name, "number": "4"})
    typed = {"p": 1, "q": 2, "n": 2, "r": 1, "label": 4, "colour": 3, "side": 1, "why": "final",
             "shown": ((3, -1), (3, 4)), "names": (0, 2)}
    for m in [m for m in REGISTRY if m.game == "creatures"]:
        args = tuple(typed[f] for f in m.fields)
        out = fill(CreaturesVoice(None, tr), m, args)
        where = f"{lang} log {m.msgid!r}"
        assert out != fill(CreaturesVoice(None, translator("en")), m, args), f"{where}: not translated"
        _check_plain(out, where)
        if "{colour}" in m.msgid:  # the colour agrees with the Machine
            assert ("жёлтую Машину" if lang == "ru" else "Máquina amarilla") in out, out
        if lang == "ru":
            _check_grammar(lang, out, [], where)
    from gloomtable.games.creatures import actions as ca

    for action in (ca.PASS, ca.PLAY_BASE + 4, ca.FLIP_BASE + 3, ca.DRAW_BASE + 2):
        out = loc.action(None, action)
        where = f"{lang} choice {ca.describe(action)!r}"
        assert out != ca.describe(action), f"{where}: not translated"
        _check_plain(out, where)
        if action == ca.FLIP_BASE + 3:  # the colour agrees with the Machine
            assert ("жёлтую Машину" if lang == "ru" else "Máquina amarilla") in out, out
    for group, templates in creatures_narration.TEMPLATES.items():
        for i, template in enumerate(templates):
            data = json.dumps({"told": group, "i": i, "actor": 1, "victim": 2, "label": 4, "creature": 3,
                               "colour": 3, "number": 4, "machine": "minus"})
            out = tell(None, data, lang)
            where = f"{lang} bot narration {template!r}"
            assert out and out != data and out != tell(None, data, "en"), f"{where}: not translated"
            _check_plain(out, where)
            if "{colour} Machine" in template:  # the colour agrees with it
                assert ("жёлтую Машину" if lang == "ru" else "Máquina amarilla") in out, out
            if lang == "ru":
                _check_grammar(lang, out, [], where)


def _play(game: Any, seed: int, steps: int) -> Any:
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over():
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["gloom", "gloomier", "creatures"])
def test_a_game_reads_cleanly(name: str, lang: str) -> None:
    """A real game's lines and tables: no marks, no preposition before a name, no article."""
    game = make_game(name, {})
    loc = localizer_for(game, lang)
    texts = getattr(loc.impl, "texts", None)
    people = []
    if isinstance(texts, GloomTexts):
        people = [texts.name(c.index) for c in game.deck.cards
                  if c.type in (CardType.CHARACTER, CardType.GUEST)]
    state = game.new_initial_state(11)
    rng = random.Random(11)
    for step in range(400):
        if state.is_over():
            break
        action = rng.choice(state.legal_actions())
        for ev in state.apply(action):
            line = loc.event(ev)
            _check_plain(line, f"{name} {lang} step {step}")
            _check_grammar(lang, line, [p for p in people if p in line], f"{name} {lang} step {step}")
        if step % 40 == 0:
            table = loc.render(state, 0)
            _check_plain(table, f"{name} {lang} table")
            assert "iconos sin iconos" not in table and "значки без значков" not in table
            assert "::" not in table


def test_a_long_name_keeps_the_table_columns(tmp_path: Path) -> None:
    """The terminal table pads names; a long one pushes its own line, not the others'."""
    game = make_game("gloom", {"sets": [str(_long_copy(tmp_path, "classic"))]})
    state = _play(game, 3, 30)
    for lang in LANGS:
        table = localizer_for(game, lang).render(state, 0)
        _check_plain(table, lang)
        label = translator(lang).gettext("Self-Worth {n}").split("{")[0]
        rows = [line for line in table.split("\n") if label in line]
        assert any(LONG["classic"][2][lang] in row for row in rows), f"{lang}: the long name is missing"
        columns = {row.index(label) for row in rows if LONG["classic"][2][lang] not in row}
        assert len(columns) == 1, f"{lang}: Self-Worth columns {columns}"
