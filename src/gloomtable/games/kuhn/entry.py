"""Kuhn poker's registry entry: the registry finds this module on its own (any package
under ``games/`` with an ``entry.py``). Each part is given by a small loader whose body
imports it, so finding the game loads neither its parts nor numpy, and whose return
type is the part's Protocol (``engine/hooks.py``), so mypy checks each part here."""

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
from gloomtable.games.registry import N_, DeckSchema, Factory, GameEntry, Hook, SetIds


def _factory() -> Factory:
    from gloomtable.games.kuhn.game import make

    return make


def _bots() -> BotFactory:
    from gloomtable.games.kuhn.parts import bots

    return bots


def _determinizer() -> Determinizer:
    from gloomtable.games.kuhn.parts import KuhnDeterminizer

    return KuhnDeterminizer()


def _narrator() -> Narrator:
    from gloomtable.games.kuhn.parts import narrator

    return narrator


def _encoder() -> EncoderFactory:
    from gloomtable.games.kuhn.parts import encoder

    return encoder


def _presenter() -> Presenter:
    from gloomtable.games.kuhn.parts import present

    return present


def _texts() -> TextsFactory:
    from gloomtable.games.kuhn.parts import KuhnTexts

    return KuhnTexts


def _voice() -> VoiceFactory:
    from gloomtable.games.kuhn.parts import KuhnVoice

    return KuhnVoice


def _set_ids() -> SetIds:
    from gloomtable.games.kuhn.parts import set_ids

    return set_ids


def _schema() -> DeckSchema:
    from gloomtable.games.kuhn.parts import deck_schema

    return deck_schema


ENTRIES = (GameEntry(
    name="kuhn", title="Kuhn poker", short_title=N_("Kuhn poker"), package="kuhn",
    factory=Hook(_factory), players=(2, 2), default_players=2, lobby_players=2,
    options=frozenset({"hands", "first_player"}), mixes_sets=False,
    set_ids=Hook(_set_ids), deck_schema=Hook(_schema), bots=Hook(_bots),
    determinizer=Hook(_determinizer), narrator=Hook(_narrator), encoder=Hook(_encoder),
    presenter=Hook(_presenter), texts=Hook(_texts), voice=Hook(_voice),
    lobby_options=({"key": "hands", "kind": "choice", "label": N_("Hands"), "values": [1, 3, 5, 9],
                    "default": 1},),
    spiel_params={"players": 2, "hands": 1}),)
