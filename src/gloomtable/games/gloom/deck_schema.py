"""The schema of a Gloom deck file: pydantic models (unknown keys are an error) and the
JSON Schema derived from them, with every effect primitive spelled out.

:mod:`deck` validates a file against :class:`DeckSpec` and builds its cards.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from gloomtable.games.gloom.effects import PRIMITIVES

Required = Literal["persistent_icon", "portrait", "text"]
"""A region that must show for a card's persistent effects to hold (R-G19)."""


def _regions(*names: Required) -> list[Required]:
    return list(names)


class _Strict(BaseModel):
    # strict: a deck file says what it means; "-10", true or -7.0 for a number is an error
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class SlotsSpec(_Strict):
    """Printed slots by name; an omitted slot is unprinted (see-through)."""

    top: Any = None
    middle: Any = None
    bottom: Any = None


class PointsSpec(SlotsSpec):
    top: int | None = Field(None, ge=-100, le=100)
    middle: int | None = Field(None, ge=-100, le=100)
    bottom: int | None = Field(None, ge=-100, le=100)


class IconsSpec(SlotsSpec):
    top: str | None = None
    middle: str | None = None
    bottom: str | None = None


def _step_schema(defs: dict[str, Any]) -> dict[str, Any]:
    """Every step's own model (``effects.Primitive.model``), as one ``oneOf``: the
    discriminated union of the primitives, by the key each names."""
    alternatives = []
    for prim in PRIMITIVES.values():
        sch = prim.model.model_json_schema(ref_template="#/$defs/{model}")
        defs.update(sch.pop("$defs", {}))
        sch["description"] = prim.doc
        sch.pop("title", None)
        if prim.nests:
            sch["properties"]["do"] = {"type": "array", "minItems": 1, "maxItems": 12,
                                       "items": {"$ref": "#/$defs/Step"}}
        alternatives.append(sch)
    return {"oneOf": alternatives}


class EffectSpec(_Strict):
    when: Literal["immediate", "continuous", "persistent", "response"]
    do: list[dict[str, Any]] = Field(min_length=1, max_length=12)


class CardSpec(_Strict):
    id: str = Field(min_length=1, max_length=64, pattern=r"^[a-z0-9][a-z0-9_-]*$")
    name: str = Field(min_length=1, max_length=80)
    text: str = Field("", max_length=400, description="Effect text as printed.")
    flavour: str = Field("", max_length=400)
    points: PointsSpec = PointsSpec()
    icons: IconsSpec = IconsSpec()
    effects: list[EffectSpec] = Field(default_factory=list, max_length=6)
    portrait: bool | None = Field(None, description="Prints a central illustration.")
    persistent_icon: bool = False
    persistent_requires: list[Required] = Field(default_factory=lambda: _regions("persistent_icon"))


class BackSpec(_Strict):
    """The reverse side of a double-sided Character (R-H1): an Unwelcome Guest or a Story."""

    type: Literal["guest", "story"]
    id: str = Field(min_length=1, max_length=64, pattern=r"^[a-z0-9][a-z0-9_-]*$")
    name: str = Field(min_length=1, max_length=80)
    text: str = Field("", max_length=400)
    flavour: str = Field("", max_length=400)
    requires: dict[str, int] = Field(
        default_factory=dict, description="Stories: icon -> how many the claimer's family must show.")
    effects: list[EffectSpec] = Field(default_factory=list, max_length=6)
    persistent_requires: list[Required] = Field(
        default_factory=lambda: _regions("persistent_icon", "portrait"),
        description="Guests: regions that must show for their persistent effects to hold (R-G19).")
    gender: Literal["feminine", "masculine", "plural"] | None = Field(
        None, description="Grammatical gender, for translations that inflect (masculine if unset).")


class CharacterSpec(CardSpec):
    family: str
    back: BackSpec | None = None
    gender: Literal["feminine", "masculine", "plural"] | None = Field(
        None, description="Grammatical gender, for translations that inflect (masculine if unset).")


class FamilySpec(_Strict):
    id: str = Field(min_length=1, max_length=64, pattern=r"^[a-z0-9][a-z0-9_-]*$")
    name: str = Field(min_length=1, max_length=80)
    flavour: str = Field("", max_length=400)


class ComponentsSpec(_Strict):
    characters: int | None = Field(None, ge=0, le=500)
    modifiers: int | None = Field(None, ge=0, le=2000)
    events: int | None = Field(None, ge=0, le=500)
    untimely_deaths: int | None = Field(None, ge=0, le=500)
    families: int | None = Field(None, ge=0, le=100)
    guests: int | None = Field(None, ge=0, le=500)
    stories: int | None = Field(None, ge=0, le=500)


class SetSpec(_Strict):
    id: str = Field(min_length=1, max_length=64, pattern=r"^[a-z0-9][a-z0-9_-]*$")
    name: str = Field(min_length=1, max_length=120)
    description: str = ""
    icons: list[str] = Field(default_factory=list, description="Icons this deck adds.")
    glyphs: dict[str, Annotated[str, Field(min_length=1, max_length=2)]] = Field(
        default_factory=dict, description="The character the table draws for each icon this deck "
        "adds (umbrella = \"\u2602\"); without one, an icon is drawn as its first letter.")
    components: ComponentsSpec = ComponentsSpec()


class DeckSpec(_Strict):
    """The whole deck file."""

    set: SetSpec
    families: list[FamilySpec] = Field(default_factory=list)
    characters: list[CharacterSpec] = Field(default_factory=list)
    modifiers: list[CardSpec] = Field(default_factory=list)
    events: list[CardSpec] = Field(default_factory=list)
    untimely_deaths: list[CardSpec] = Field(default_factory=list)

    @field_validator("modifiers", "events", "untimely_deaths", "characters")
    @classmethod
    def _bounded(cls, v: list[Any]) -> list[Any]:
        if len(v) > 2000:
            raise ValueError("at most 2000 cards of one type")
        return v


def json_schema() -> dict[str, Any]:
    """The JSON Schema of a deck file, with every effect primitive spelled out."""
    schema = DeckSpec.model_json_schema()
    defs = schema.setdefault("$defs", {})
    defs["Step"] = _step_schema(defs)
    defs["EffectSpec"]["properties"]["do"]["items"] = {"$ref": "#/$defs/Step"}
    schema["title"] = "gloomtable Gloom deck"
    return schema
