"""The checker on the richer card language (docs/decks.md, "Targets, conditions and
triggers"): each primitive's own model refuses a wrong parameter, and the rules the
schema cannot say name the file, the card and the field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gloom_helpers import card, deck_data, imm, pers
from gloomtable.games.gloom.deck import DeckError, build_deck
from gloomtable.games.gloom.deck_schema import json_schema
from gloomtable.games.gloom.effects import PRIMITIVES, step_union

ROOKERY = str(Path(__file__).resolve().parents[1] / "examples" / "ashgrove-rookery.toml")


def problems(**tables: list) -> list[str]:
    data = deck_data(modifiers=tables.get("modifiers", []), events=tables.get("events", []))
    with pytest.raises(DeckError) as err:
        build_deck(data, "mine.toml")
    assert err.value.source == "mine.toml"
    return err.value.problems


def one(**tables: list) -> str:
    found = problems(**tables)
    assert len(found) == 1, found
    return found[0]


def test_move_this_is_for_modifiers_only() -> None:
    msg = one(events=[card("e", effects=[imm({"move_this": True})])])
    assert msg.startswith("events[0] (id 'e'): field effects[0].do[0].move_this:")
    assert "only a Modifier" in msg


def test_a_response_starts_with_cancel() -> None:
    msg = one(events=[card("e", effects=[{"when": "response", "do": [{"draw": 1}]}])])
    assert "field effects[0].do[0]" in msg and "starts with 'cancel'" in msg


def test_a_response_may_do_more_after_cancelling() -> None:
    data = deck_data(events=[card("e", effects=[{"when": "response", "do": [
        {"cancel": "modifier"}, {"draw": 2}]}])])
    deck = build_deck(data, "mine.toml")
    assert [st.name for st in deck.cards[-1].effects[0].steps] == ["cancel", "draw"]


def test_an_event_has_no_target_to_test() -> None:
    msg = one(events=[card("e", effects=[imm({"only_if": {"self_worth_at_most": -5},
                                               "do": [{"draw": 1}]})])])
    assert "field effects[0].do[0].only_if" in msg and "no target" in msg
    msg = one(events=[card("e", effects=[imm({"for_players": "target_owner",
                                               "do": [{"draw": 1}]})])])
    assert "target_owner" in msg


def test_a_condition_names_a_test_and_known_icons() -> None:
    msg = one(modifiers=[card("m", effects=[imm({"only_if": {}, "do": [{"draw": 1}]})])])
    assert "effects[0].do[0].only_if" in msg and "at least one test" in msg
    msg = one(modifiers=[card("m", effects=[imm({"only_if": {"icons": {"icon": "gull"}},
                                                  "do": [{"draw": 1}]})])])
    assert "unknown icon 'gull'" in msg


def test_parameters_are_read_strictly() -> None:
    msg = one(events=[card("e", effects=[imm({"take_card": "1"})])])
    assert "effects[0].do[0].take_card" in msg
    msg = one(modifiers=[card("m", effects=[pers({"worth_per_icon": {"icon": "duck", "n": 11}})],
                              persistent_icon=True)])
    assert "worth_per_icon" in msg


def test_a_trigger_narrows_only_plays_and_runs_immediate_steps() -> None:
    msg = one(modifiers=[card("m", persistent_icon=True, effects=[pers(
        {"on": {"event": "turn_start", "card": "modifier"}, "do": [{"draw": 1}]})])])
    assert "'card' and 'icon' narrow only the 'played_on' event" in msg
    msg = one(modifiers=[card("m", persistent_icon=True, effects=[pers(
        {"on": {"event": "death"}, "do": [{"draw_limit": 1}]})])])
    assert "do[0]" in msg and "not immediate" in msg


def test_only_nesting_primitives_take_a_do_list() -> None:
    msg = one(events=[card("e", effects=[imm({"draw": 1, "do": [{"draw": 1}]})])])
    assert "take a 'do' list" in msg and "only_if" in msg


def test_the_schema_is_the_union_of_every_primitives_model() -> None:
    schema = json_schema()
    alternatives = schema["$defs"]["Step"]["oneOf"]
    assert {next(iter(a["required"])) for a in alternatives} == set(PRIMITIVES)
    assert {"Condition", "Trigger", "IconCount", "CardCount"} <= set(schema["$defs"])
    json.dumps(schema)
    from pydantic import TypeAdapter

    union = TypeAdapter(step_union())
    assert type(union.validate_python({"only_if": {"hand_at_most": 2},
                                       "do": [{"draw": 1}]})).__name__ == "OnlyIf"


def test_a_condition_or_trigger_on_an_icon_no_card_prints_is_a_warning(tmp_path) -> None:
    from gloomtable.designer.check import check_decks
    from gloomtable.games.gloom.deck import load_deck

    text = (Path(ROOKERY).read_text(encoding="utf-8")
            .replace('icons = { icon = "duck", at_least = 2 }', 'icons = { icon = "gull", at_least = 2 }')
            .replace('description = "A crooked', 'icons = ["gull"]\ndescription = "A crooked'))
    path = tmp_path / "gulls.toml"
    path.write_text(text, encoding="utf-8")
    found = [f for f in check_decks([load_deck(path)]) if f.code == "icon-never-shows"]
    assert len(found) == 1 and "only_if" in found[0].field
    assert "rookery-counted-the-ducks" in found[0].where
