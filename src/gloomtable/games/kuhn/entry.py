"""Kuhn poker's registry entry: the registry finds this module on its own (any package
under ``games/`` with an ``entry.py``), and every part is given as it is, so mypy checks
each against its Protocol here."""

from __future__ import annotations

from gloomtable.engine.hooks import (
    BotFactory,
    Determinizer,
    EncoderFactory,
    Narrator,
    Presenter,
    TextsFactory,
    VoiceFactory,
)
from gloomtable.games.kuhn import game, parts
from gloomtable.games.registry import DeckSchema, Factory, GameEntry, Hook, SetIds

_factory: Factory = game.make
_bots: BotFactory = parts.bots
_determinizer: Determinizer = parts.KuhnDeterminizer()
_narrator: Narrator = parts.narrator
_encoder: EncoderFactory = parts.encoder
_presenter: Presenter = parts.present
_texts: TextsFactory = parts.KuhnTexts
_voice: VoiceFactory = parts.KuhnVoice
_set_ids: SetIds = parts.set_ids
_schema: DeckSchema = parts.deck_schema

ENTRIES = (GameEntry(
    name="kuhn", title="Kuhn poker", short_title=parts.N_("Kuhn poker"), package="kuhn",
    factory=Hook.of(_factory), players=(2, 2), default_players=2, lobby_players=2,
    options=frozenset({"hands", "first_player"}), mixes_sets=False,
    set_ids=Hook.of(_set_ids), deck_schema=Hook.of(_schema), bots=Hook.of(_bots),
    determinizer=Hook.of(_determinizer), narrator=Hook.of(_narrator), encoder=Hook.of(_encoder),
    presenter=Hook.of(_presenter), texts=Hook.of(_texts), voice=Hook.of(_voice),
    lobby_options=({"key": "hands", "kind": "choice", "label": parts.N_("Hands"), "values": [1, 3, 5, 9],
                    "default": 1},),
    spiel_params={"players": 2, "hands": 1}),)
