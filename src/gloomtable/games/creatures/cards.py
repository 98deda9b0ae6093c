"""The Crazy Creatures set (R-C1): loaded from ``creatures.toml``, validated by a
pydantic schema, and flattened into plain tuples indexed by card id.

Why tuples: the rules engine looks cards up on every action, and
``NUMBER[card]`` is the cheapest lookup Python has. The :class:`Creature`
values are for people (views, logs, tests); the tuples are for the hot path.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from gloomtable.engine import GloomtableError
from gloomtable.engine.textdata import TextDataError, load_toml

NUM_COLOURS = 4
"""One Machine and one pile per colour; the action space assumes four."""
NUM_CREATURES = 48
DNA_NUMBERS = (1, 6)
COLOUR_KEYS_SHIPPED = ("red", "blue", "green", "yellow")
SHIPPED_SET = "creatures"
SETS_PACKAGE = "gloomtable.games.creatures"
"""The package holding the shipped set's file (``creatures.toml``) and its translation files."""


class CreatureSetError(GloomtableError, ValueError):
    """A set file that cannot be played; names the file and the field. ``problems``
    lists every problem of a set that failed its checks, each as a Gloom deck's are
    (``colours[0] (key 'red'): field creature: ...``), under a count."""

    def __init__(self, message: str, source: str = "", problems: list[str] | None = None) -> None:
        self.source = source
        self.problems = problems or []
        if problems:
            lines = "\n".join(f"  {source}: {p}" for p in problems)
            message = f"{len(problems)} problem(s) in Crazy Creatures set {source}:\n{lines}"
        super().__init__(message)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)  # no coercion, as a Gloom deck


class ColourSpec(_Strict):
    key: str = Field(min_length=1, max_length=16, pattern=r"^[a-z]+$")
    creature: str = Field(min_length=1, max_length=40)
    flavour: str = Field("", max_length=200)


class NumberSpec(_Strict):
    value: int = Field(ge=1, le=6)
    penalty: int = Field(ge=0, le=10)
    dna: bool = False


class MachineSideSpec(_Strict):
    symbol: str = Field(pattern=r"^[+-]$")
    name: str = Field(min_length=1, max_length=40)
    flavour: str = Field("", max_length=200)


class MachineSpec(_Strict):
    plus: MachineSideSpec
    minus: MachineSideSpec


class SetSpec(_Strict):
    """The whole ``creatures.toml`` file, or a variant deck file of the same shape."""

    id: str = Field("creatures", min_length=1, max_length=64, pattern=r"^[a-z0-9][a-z0-9_-]*$",
                    description="The set's id: a table names a variant by it.")
    name: str = Field(min_length=1, max_length=80)
    copies: int = Field(ge=1, le=4)
    colours: list[ColourSpec]
    numbers: list[NumberSpec]
    machine: MachineSpec


@dataclass(frozen=True, slots=True)
class Creature:
    """One Creature card. ``id`` is fixed for the set and used by actions."""

    id: int
    colour: int
    colour_key: str
    creature: str
    number: int
    copy: int
    penalty: int
    dna: bool
    flavour: str

    @property
    def label(self) -> str:
        """How the card reads in logs and actions: ``red 4``."""
        return f"{self.colour_key} {self.number}"

    def __str__(self) -> str:
        return self.label


@dataclass(frozen=True, slots=True)
class MachineSide:
    symbol: str
    name: str
    flavour: str


@dataclass(frozen=True, slots=True)
class CreatureSet:
    """A validated set: the Creatures by id, colour facts, the Machine sides."""

    name: str
    source: str
    creatures: tuple[Creature, ...]
    colours: tuple[ColourSpec, ...]
    plus: MachineSide
    minus: MachineSide
    id: str = "creatures"

    @property
    def penalty(self) -> tuple[int, ...]:
        """R-C10: penalty points by card id (the hot path reads this tuple)."""
        return tuple(c.penalty for c in self.creatures)

    @property
    def creature_names(self) -> tuple[str, ...]:
        return tuple(c.creature for c in self.colours)


_ENTRY_NAME = {"colours": "key", "numbers": "value"}
"""What names an entry of each list in a problem (as a Gloom card's id does)."""


def _problem(source: str, data: Any, exc: ValidationError) -> CreatureSetError:
    """Every schema problem, in the words of a Gloom deck's: the entry (its index and
    its key or value), the field, and what is wrong."""
    problems = []
    for err in exc.errors():
        loc = list(err["loc"])
        where: list[str] = []
        if len(loc) >= 2 and isinstance(loc[0], str) and isinstance(loc[1], int):
            table, idx = loc[0], loc[1]
            label = f"{table}[{idx}]"
            try:
                named = data[table][idx].get(_ENTRY_NAME.get(table, ""))
            except (KeyError, IndexError, TypeError, AttributeError):
                named = None
            if isinstance(named, (str, int)) and not isinstance(named, bool):
                label += f" ({_ENTRY_NAME[table]} {named!r})"
            where.append(label)
            loc = loc[2:]
        field_name = ".".join(str(x) for x in loc)
        msg = "unknown field (check the spelling)" if err["type"] == "extra_forbidden" else err["msg"]
        where.append(f"field {field_name}: {msg}" if field_name else msg)
        problems.append(": ".join(where))
    return CreatureSetError("", source, problems)


def parse_set(data: Any, source: str = "<data>") -> CreatureSet:
    """Validate a parsed TOML document and build the set, or raise
    :class:`CreatureSetError` naming the file and the field."""
    try:
        spec = SetSpec.model_validate(data)
    except ValidationError as exc:
        raise _problem(source, data, exc) from None
    problems = []
    if len(spec.colours) != NUM_COLOURS:
        problems.append(f"colours: need exactly {NUM_COLOURS}, got {len(spec.colours)}")
    keys = [c.key for c in spec.colours]
    if len(keys) == NUM_COLOURS and keys != list(COLOUR_KEYS_SHIPPED):
        problems.append(f"colours: the keys are {', '.join(COLOUR_KEYS_SHIPPED)} in this order "
                        f"(the Machines and the table are drawn by them), got {', '.join(keys)}; "
                        "rename the Creatures with 'creature' instead")
    values = [n.value for n in spec.numbers]
    if values != [1, 2, 3, 4, 5, 6]:
        problems.append(f"numbers: need the values 1..6 in order, got {values}")
    if [n.value for n in spec.numbers if n.dna] != list(DNA_NUMBERS):
        problems.append("numbers: exactly 1 and 6 carry the DNA symbol (R-C7)")
    if len(spec.colours) * len(spec.numbers) * spec.copies != NUM_CREATURES:
        problems.append(f"copies: colours x numbers x copies must make {NUM_CREATURES} Creatures, got "
                        f"{len(spec.colours)} x {len(spec.numbers)} x {spec.copies} = "
                        f"{len(spec.colours) * len(spec.numbers) * spec.copies}")
    if (spec.machine.plus.symbol, spec.machine.minus.symbol) != ("+", "-"):
        problems.append("machine.plus.symbol: plus must show '+' and minus '-'")
    if problems:
        raise CreatureSetError("", source, [f"field {p}" for p in problems])
    creatures: list[Creature] = []
    for ci, colour in enumerate(spec.colours):
        for num in spec.numbers:
            for copy in range(spec.copies):
                creatures.append(Creature(
                    id=len(creatures), colour=ci, colour_key=colour.key,
                    creature=colour.creature, number=num.value, copy=copy,
                    penalty=num.penalty, dna=num.dna, flavour=colour.flavour,
                ))
    plus, minus = spec.machine.plus, spec.machine.minus
    return CreatureSet(
        id=spec.id, name=spec.name, source=source, creatures=tuple(creatures),
        colours=tuple(spec.colours),
        plus=MachineSide(plus.symbol, plus.name, plus.flavour),
        minus=MachineSide(minus.symbol, minus.name, minus.flavour),
    )


def load_set(path: str | Path | None = None) -> CreatureSet:
    """Load a set file; ``None`` loads the shipped ``creatures.toml``."""
    if path is None:
        ref = resources.files(SETS_PACKAGE) / f"{SHIPPED_SET}.toml"
        text, source = ref.read_text(encoding="utf-8"), "creatures.toml"
    else:
        try:
            text, source = Path(path).read_text(encoding="utf-8"), str(path)
        except OSError as exc:
            hint = "" if str(path).endswith(".toml") else (
                "; a Crazy Creatures --sets names the shipped set 'creatures' or a deck file "
                "(.toml); Gloom's sets (classic, gloomier) do not fit this game")
            raise CreatureSetError(f"cannot read {path}: {exc.strerror}{hint}") from exc
    try:
        data = load_toml(text)
    except TextDataError as exc:
        raise CreatureSetError(f"{source}: {exc}") from None
    return parse_set(data, source)


CREATURE_SET = load_set()

_REGISTERED: dict[str, CreatureSet] = {}
_LOADED: dict[str, CreatureSet] = {}
_LOADED_IDS: dict[str, CreatureSet] = {}
"""Variants loaded here from a file, by id (a view names its set by id)."""


def register_set(path: str | Path) -> CreatureSet:
    """Make a variant set file playable by its id (``gloom serve --sets``): a remote
    client may then name the id, never a path. Raises :class:`CreatureSetError`."""
    found = load_set(path)
    if found.id == SHIPPED_SET:
        raise CreatureSetError(f"{path}: id: a variant needs its own id, not {SHIPPED_SET!r}")
    _REGISTERED[found.id] = found
    return found


_UPLOADED: dict[str, CreatureSet] = {}
"""Variants people uploaded at the lobby (``server/uploads.py``), by key: not offered
to everyone (:func:`registered_sets`), named by a table with its key."""


def parse_set_text(text: str, source: str) -> CreatureSet:
    """A set from the TOML ``text`` of ``source``. Raises :class:`CreatureSetError`."""
    try:
        data = load_toml(text)
    except TextDataError as exc:
        raise CreatureSetError(f"{source}: {exc}") from None
    return parse_set(data, source)


def register_uploaded(key: str, text: str) -> CreatureSet:
    """Make an uploaded variant (already checked, in the server's worker) playable by
    ``key``, which becomes its id (two uploads may share a file's own id)."""
    found = replace(parse_set_text(text, f"{key}.toml"), id=key)
    _UPLOADED[key] = found
    return found


def uploaded_sets() -> tuple[str, ...]:
    """The keys of the uploaded variants this process knows."""
    return tuple(_UPLOADED)


def json_schema() -> dict[str, Any]:
    """The JSON Schema of a Crazy Creatures set file (``gloom deck schema``)."""
    schema = SetSpec.model_json_schema()
    schema["title"] = "gloomtable Crazy Creatures set"
    return schema


def registered_sets() -> tuple[str, ...]:
    """Ids a table may name: the shipped set, then the variants registered."""
    return (SHIPPED_SET, *_REGISTERED)


def set_named(name: str) -> CreatureSet:
    """A set by shipped name, registered id, or file path (loaded once per path)."""
    if name == SHIPPED_SET:
        return CREATURE_SET
    if name in _REGISTERED:
        return _REGISTERED[name]
    if name in _UPLOADED:
        return _UPLOADED[name]
    if name in _LOADED_IDS and name not in _LOADED:
        return _LOADED_IDS[name]
    if name not in _LOADED:
        _LOADED[name] = found = load_set(name)
        _LOADED_IDS.setdefault(found.id, found)
    return _LOADED[name]
CREATURES: tuple[Creature, ...] = CREATURE_SET.creatures

# Flat lookups by card id (the hot path).
COLOUR: tuple[int, ...] = tuple(c.colour for c in CREATURES)
NUMBER: tuple[int, ...] = tuple(c.number for c in CREATURES)
PENALTY: tuple[int, ...] = tuple(c.penalty for c in CREATURES)
LABEL: tuple[str, ...] = tuple(c.label for c in CREATURES)
COLOUR_KEYS: tuple[str, ...] = tuple(c.key for c in CREATURE_SET.colours)


def _fits(plus: bool, top: int, number: int) -> bool:
    if top == 0:
        return True  # R-C6: an empty pile takes any number of its colour
    if top in DNA_NUMBERS and number in DNA_NUMBERS:
        return True  # R-C7: DNA on DNA, whichever side the Machine shows
    return number >= top if plus else number <= top  # R-C6


FITS: tuple[tuple[tuple[bool, ...], ...], ...] = tuple(
    tuple(tuple(_fits(bool(plus), top, n) for n in range(7)) for top in range(7))
    for plus in (0, 1)
)
"""``FITS[plus][top][number]``: may a Creature numbered ``number`` go on a pile
whose top card is ``top`` (0 = empty pile) while the Machine shows ``+``
(``plus=1``) or ``-`` (``plus=0``)? R-C6 and R-C7 in one table."""


def fits(number: int, top: int, plus: bool | int) -> bool:
    """R-C6/R-C7: may ``number`` cover ``top`` (0 = empty pile) on this side?"""
    return FITS[1 if plus else 0][top][number]


