"""Issue 10: every card text of every shipped set exists in every language, kept beside
the deck files; a user's deck carries its own translations the same way; and the
engine's events and actions are all said in each language, from their messages and
decoded actions."""

from __future__ import annotations

import shutil
import tomllib
from importlib import resources
from pathlib import Path

import pytest

from gloomtable.bots import bot_action, make_bot
from gloomtable.games import make_game
from gloomtable.games.gloom.deck import SETS_PACKAGE, SHIPPED_SETS, load_deck
from gloomtable.games.gloom.hooks.card_texts import GloomTexts
from gloomtable.i18n.cards import TranslationFileError, read_translation
from gloomtable.i18n.catalog import LANGUAGES
from gloomtable.i18n.client import localizer_for
from gloomtable.i18n.events import render

OTHER = [lang for lang in LANGUAGES if lang != "en"]
SETS = resources.files("gloomtable.games.gloom.sets")


@pytest.mark.parametrize("lang", OTHER)
@pytest.mark.parametrize("set_name", SHIPPED_SETS)
def test_every_gloom_card_and_family_text_is_translated(set_name: str, lang: str) -> None:
    """Names, effect texts and flavour of every card and family, in every shipped set."""
    english = tomllib.loads(SETS.joinpath(f"{set_name}.toml").read_text(encoding="utf-8"))
    data = read_translation(f"{set_name}.toml", lang, SETS_PACKAGE)
    assert data, f"{set_name}.{lang}.toml is missing"
    problems = []
    for field in ("name", "description"):
        if english["set"].get(field) and not data.get("set", {}).get(field):
            problems.append(f"[set] {field}")
    for fam in english.get("families", []):
        for field in ("name", "flavour"):
            if fam.get(field) and not data.get("families", {}).get(fam["id"], {}).get(field):
                problems.append(f"family {fam['id']}: {field}")
    ids = set()
    for table, cards in english.items():
        if table in ("set", "families") or not isinstance(cards, list):
            continue
        for card in [c for front in cards for c in (front, front.get("back")) if c]:
            ids.add(card["id"])
            have = data.get("cards", {}).get(card["id"], {})
            for field in ("name", "text", "flavour", "back_name", "back_text"):
                if card.get(field) and not have.get(field):
                    problems.append(f"{table} {card['id']}: {field}")
    extra = set(data.get("cards", {})) - ids
    assert not extra, f"translations of unknown cards: {sorted(extra)}"
    assert not problems, f"{set_name}.{lang}.toml lacks:\n" + "\n".join(problems)


@pytest.mark.parametrize("lang", OTHER)
def test_crazy_creatures_texts_are_translated(lang: str) -> None:
    english = tomllib.loads(resources.files("gloomtable.games.creatures").joinpath(
        "creatures.toml").read_text(encoding="utf-8"))
    data = tomllib.loads(resources.files("gloomtable.games.creatures").joinpath(
        f"creatures.{lang}.toml").read_text(encoding="utf-8"))
    assert data["name"]
    for colour in english["colours"]:
        have = data["colours"][colour["key"]]
        assert have["name"] and have["creature"] and have["flavour"], colour["key"]
    for side in ("plus", "minus"):
        assert data["machine"][side]["name"] and data["machine"][side]["flavour"]


def test_the_established_terms_are_in_the_card_texts() -> None:
    es = read_translation("classic.toml", "es", SETS_PACKAGE)["cards"]
    ru = read_translation("classic.toml", "ru", SETS_PACKAGE)["cards"]
    assert "Muerte prematura" in es["was-jilted-at-the-lychgate"]["text"]
    assert "Преждевременную смерть" in ru["was-jilted-at-the-lychgate"]["text"]
    assert "límite de robo" in es["inherited-a-menagerie"]["text"]
    assert "лимит карт" in ru["inherited-a-menagerie"]["text"]


def test_a_user_deck_carries_its_own_translations(tmp_path: Path) -> None:
    deck_file = tmp_path / "my_deck.toml"
    shutil.copyfile(str(SETS.joinpath("classic.toml")), deck_file)
    (tmp_path / "my_deck.es.toml").write_text(
        '[families.castle-slogar]\nname = "Mi Castillo"\n'
        '[cards.lord-slogar]\nname = "Mi Lord"\n', encoding="utf-8")
    deck = load_deck(deck_file)
    texts = GloomTexts(deck, "es")
    lord = next(c.index for c in deck.cards if c.key == "lord-slogar")
    oyster = next(c.index for c in deck.cards if c.key == "swallowed-a-suspicious-oyster")
    assert texts.name(lord) == "Mi Lord"
    assert texts.family_name("castle-slogar") == "Mi Castillo"
    assert texts.name(oyster) == "Swallowed a Suspicious Oyster"  # untranslated: English stays
    assert GloomTexts(deck, "ru").name(lord) == "Lord Slogar"  # no my_deck.ru.toml


def test_a_broken_translation_file_is_a_clear_error(tmp_path: Path) -> None:
    deck_file = tmp_path / "bad.toml"
    shutil.copyfile(str(SETS.joinpath("classic.toml")), deck_file)
    (tmp_path / "bad.ru.toml").write_text("[cards\nname = 1", encoding="utf-8")
    with pytest.raises(TranslationFileError, match=r"bad\.ru\.toml: not valid TOML"):
        GloomTexts(load_deck(deck_file), "ru")


GAMES = [("gloom", {"players": 4}), ("gloom", {"players": 3, "edition": 1}),
         pytest.param("gloom", {"players": 5}, marks=pytest.mark.slow), ("gloomier", {"players": 3}),
         pytest.param("gloomier", {"players": 4}, marks=pytest.mark.slow),
         pytest.param("gloom", {"players": 4, "sets": ["classic", "gloomier"]}, marks=pytest.mark.slow),
         ("creatures", {"players": 3})]
"""The long games (five seats, Gloomier's four, the mix) are in the full run only."""


@pytest.mark.parametrize("lang", OTHER)
@pytest.mark.parametrize(("name", "config"), GAMES)
def test_every_engine_line_and_action_is_translated(name: str, config: dict, lang: str) -> None:
    """Whole random games: every event line (as each seat and a spectator see it) is
    rendered in the language, every offered action and every kind of decision is known,
    so no English slips through."""
    game = make_game(name, config)
    loc = localizer_for(game, lang)
    assert loc.impl is not None
    unknown: set[str] = set()
    for seed in range(2):
        state = game.new_initial_state(seed)
        bot = make_bot("random", name, seed)
        for _step in range(5000):
            if state.is_over():
                break
            legal = state.legal_actions()
            decision = state.view(state.current_player()).get("decision")
            kind = decision.get("kind") if isinstance(decision, dict) else decision
            if kind not in loc.impl.decisions:
                unknown.add(f"decision kind: {kind}")
            for a in legal:  # made from the decoded action, never from the English text
                text, said = state.action_to_string(a), loc.action(state, a)
                if said == text or "{" in said:
                    unknown.add(f"action: {text} -> {said}")
                parts = loc.action_parts(state, a)
                if parts is not None and (parts[0] in text or "{" in parts[0] + parts[1]):
                    unknown.add(f"action parts: {text} -> {parts}")
            for e in state.apply(bot_action(bot, state, legal)):
                for seen in {e, *(e.for_player(p) for p in range(game.num_players)), e.for_player(None)}:
                    line = loc.event(seen)
                    english = render(seen, "en")
                    if line == english or "{" in line:
                        unknown.add(f"event: {english} -> {line}")
        assert state.is_over()
        assert loc.render(state, 0)
    assert not unknown, "\n".join(sorted(unknown)[:20])
