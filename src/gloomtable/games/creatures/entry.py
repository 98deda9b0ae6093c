"""Crazy Creatures' registry entry.

The registry finds this module on its own (``games/registry.py``). Each part is given
by a small loader whose body imports it, so building a game loads no bot, RL or text
code, and whose return type is the part's Protocol (``engine/hooks.py``), so mypy checks
the part against it here: nothing is named by a string."""

from __future__ import annotations

from gloomtable.engine.hooks import (
    BotFactory,
    Decks,
    Determinizer,
    EncoderFactory,
    LessonMatcher,
    Narrator,
    Presenter,
    Teller,
    TextsFactory,
    VoiceFactory,
)
from gloomtable.games.registry import N_, DeckSchema, Factory, GameEntry, Hook, SetIds

ORDER = 1
"""After Gloom and Gloomier, before the games that give no order."""


def _factory() -> Factory:
    from gloomtable.games.creatures.game import make

    return make


def _set_ids() -> SetIds:
    from gloomtable.games.creatures.cards import registered_sets

    return registered_sets


def _deck_schema() -> DeckSchema:
    from gloomtable.games.creatures.cards import json_schema

    return json_schema


def _determinizer() -> Determinizer:
    from gloomtable.games.creatures.determinize import CREATURES

    return CREATURES


def _presenter() -> Presenter:
    from gloomtable.games.creatures.present import creatures_choice

    return creatures_choice


def _bots() -> BotFactory:
    from gloomtable.games.creatures.hooks.levels import creatures_bot

    return creatures_bot


def _narrator() -> Narrator:
    from gloomtable.games.creatures.hooks.narration import narrate_creatures

    return narrate_creatures


def _teller() -> Teller:
    from gloomtable.games.creatures.hooks.narration import TELLER

    return TELLER


def _encoder() -> EncoderFactory:
    from gloomtable.games.creatures.hooks.encode import encoder_for

    return encoder_for


def _texts() -> TextsFactory:
    from gloomtable.games.creatures.hooks.text import CreaturesLocalizer

    return CreaturesLocalizer


def _voice() -> VoiceFactory:
    from gloomtable.games.creatures.hooks.text import CreaturesVoice

    return CreaturesVoice


def _decks() -> Decks:
    from gloomtable.games.creatures.decks import DECKS

    return DECKS


def _lesson_matcher() -> LessonMatcher:
    from gloomtable.games.creatures.hooks.lesson import creatures_matcher

    return creatures_matcher


ENTRIES = (GameEntry(
    name="creatures", title=N_("Crazy Creatures of Dr. Gloom"), short_title=N_("Crazy Creatures"),
    package="creatures", factory=Hook(_factory),
    players=(2, 4), default_players=3, options=frozenset({"rounds", "first_player"}),
    mixes_sets=False, set_ids=Hook(_set_ids),
    hidden_piles=("reserve", "aside"), sorted_zones=frozenset({"hands", "aside"}),
    board="creatures_table.js",
    deck_schema=Hook(_deck_schema), bots=Hook(_bots), determinizer=Hook(_determinizer),
    narrator=Hook(_narrator), teller=Hook(_teller), encoder=Hook(_encoder), presenter=Hook(_presenter),
    texts=Hook(_texts), voice=Hook(_voice), decks=Hook(_decks), lesson_matcher=Hook(_lesson_matcher),
    spiel_params={"players": 3, "rounds": 0, "turn_cap": 2000, "sets": "creatures"}),)
