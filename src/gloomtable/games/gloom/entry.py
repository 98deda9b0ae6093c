"""Gloom and Gloomier's registry entries (Gloomier is Gloom with its set, R-H1..R-H10).

The registry finds this module on its own (``games/registry.py``). Each part is given
by a small loader whose body imports it, so building a game loads no bot, RL or text
code, and whose return type is the part's Protocol (``engine/hooks.py``), so mypy checks
the part against it here: nothing is named by a string."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from gloomtable.engine.hooks import (
    BotFactory,
    CardTextsFactory,
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
from gloomtable.games.registry import N_, DeckSchema, Factory, GameEntry, Hook, RulesPictures, SetIds

ORDER = 0
"""Gloom and Gloomier stand first (the lobby, ``--game``'s help, the goldens)."""


def _factory() -> Factory:
    from gloomtable.games.gloom.game import make

    return make


def _set_ids() -> SetIds:
    from gloomtable.games.gloom.deck import shipped_sets

    return shipped_sets


def _deck_schema() -> DeckSchema:
    from gloomtable.games.gloom.deck import json_schema

    return json_schema


def _determinizer() -> Determinizer:
    from gloomtable.games.gloom.determinize import GLOOM

    return GLOOM


def _presenter() -> Presenter:
    from gloomtable.games.gloom.present import codec_choice

    return codec_choice


def _bots() -> BotFactory:
    from gloomtable.games.gloom.hooks.levels import gloom_bot

    return gloom_bot


def _narrator() -> Narrator:
    from gloomtable.games.gloom.hooks.narration import narrate_gloom

    return narrate_gloom


def _teller() -> Teller:
    from gloomtable.games.gloom.hooks.narration import TELLER

    return TELLER


def _encoder() -> EncoderFactory:
    from gloomtable.games.gloom.hooks.encode import encoder_for

    return encoder_for


def _texts() -> TextsFactory:
    from gloomtable.games.gloom.hooks.text import GloomLocalizer

    return GloomLocalizer


def _voice() -> VoiceFactory:
    from gloomtable.games.gloom.hooks.text import GloomVoice

    return GloomVoice


def _card_texts() -> CardTextsFactory:
    from gloomtable.games.gloom.hooks.card_texts import deck_texts

    return deck_texts


def _decks() -> Decks:
    from gloomtable.games.gloom.hooks.decks import DECKS

    return DECKS


def _lesson_matcher() -> LessonMatcher:
    from gloomtable.games.gloom.hooks.lesson import gloom_matcher

    return gloom_matcher


def _rules_pictures() -> RulesPictures:
    from gloomtable.games.gloom.hooks.rules_pictures import stack_examples

    return stack_examples


_EDITION_BEGINNER: tuple[Mapping[str, Any], ...] = (
    {"key": "edition", "kind": "choice", "label": "Edition", "values": [2, 1], "default": 2},
    {"key": "beginner", "kind": "bool", "label": "Beginner (no card effects)", "default": False})

GLOOM = GameEntry(
    name="gloom", title=N_("Gloom"), short_title=N_("Gloom"), package="gloom",
    factory=Hook(_factory), players=(2, 5), default_players=4,
    options=frozenset({"edition", "beginner", "tiebreak", "first_player", "setup", "draft_size",
                       "stories_guests"}),
    mixes_sets=True, set_ids=Hook(_set_ids), deck_schema=Hook(_deck_schema),
    bots=Hook(_bots), determinizer=Hook(_determinizer), narrator=Hook(_narrator), teller=Hook(_teller),
    encoder=Hook(_encoder), presenter=Hook(_presenter), texts=Hook(_texts), voice=Hook(_voice),
    card_texts=Hook(_card_texts), decks=Hook(_decks),
    lesson_matcher=Hook(_lesson_matcher), rules_pictures=Hook(_rules_pictures),
    hidden_piles=("draw_pile",), tells_stories=True, board="gloom_table.js",
    lobby_options=({"key": "sets", "kind": "sets"}, *_EDITION_BEGINNER),
    spiel_params={"players": 4, "sets": "classic", "edition": 2, "beginner": False,
                  "turn_cap": 500})

GLOOMIER = replace(  # Gloom with the Gloomier set (R-H1..R-H10)
    GLOOM, name="gloomier", title=N_("Gloomier: A Night at Hemlock Hall"),
    short_title=N_("Gloomier"),
    defaults=MappingProxyType({"sets": ("gloomier",)}),
    lobby_options=({"key": "stories_guests", "kind": "choice",
                    "label": "Stories and Guests in the middle", "values": [2, 1, 0], "default": 2},
                   *_EDITION_BEGINNER),
    spiel_params={"players": 4, "sets": "gloomier", "stories_guests": 2, "turn_cap": 500})

ENTRIES = (GLOOM, GLOOMIER)
