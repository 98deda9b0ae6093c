"""Deck files: TOML, validated by a pydantic schema, turned into :class:`Card` values.

Errors name the file, the card (its table and id) and the field, so a designer
can fix a deck without reading code. ``gloom deck schema`` prints the JSON
Schema derived from these models, for editors that autocomplete.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from gloomtable.engine import GloomtableError
from gloomtable.engine.textdata import TextDataError, load_toml
from gloomtable.games.gloom.cards import (
    BLANK,
    CLASSIC_ICONS,
    GLOOMIER_ICONS,
    SLOTS,
    Card,
    CardType,
    Deck,
    Effect,
    Family,
    Region,
    Step,
)
from gloomtable.games.gloom.deck_rules import language_problems
from gloomtable.games.gloom.deck_schema import BackSpec, CharacterSpec, DeckSpec
from gloomtable.games.gloom.deck_schema import json_schema as json_schema  # re-exported: `gloom deck schema`
from gloomtable.games.gloom.effects import FOLLOWS, PRIMITIVES, WORTHS, allowed_in, step_icons, step_key

SHIPPED_SETS = ("classic", "gloomier")
SETS_PACKAGE = "gloomtable.games.gloom.sets"
"""The package holding the shipped sets' files and their translation files."""


_REGISTERED: dict[str, tuple[str, str]] = {}
"""Deck files a server was started with (``gloom serve --sets``), by set id: (source, text)."""


def shipped_sets() -> tuple[str, ...]:
    """The sets a remote table may name (the registry's ``set_ids``): the shipped ones,
    then the deck files the server registered, by their set id (never a path)."""
    return (*SHIPPED_SETS, *_REGISTERED)


def register_deck(path: str | Path) -> Deck:
    """Make a deck file playable at online tables by its set id (``gloom serve --sets``):
    read once, checked as ``deck check`` loads it; a remote table names the id, never the
    path. Raises :class:`DeckError`."""
    source, text = read_set(path)
    deck = parse_deck(text, source)
    if deck.id in SHIPPED_SETS:
        raise DeckError(source, [f"field set.id: {deck.id!r} is a shipped set's id; give the "
                                 "deck its own id"])
    old = _REGISTERED.get(deck.id)
    if old is not None and old[1] != text:
        raise DeckError(source, [f"field set.id: {deck.id!r} is already the id of {old[0]}; "
                                 "give each deck its own id"])
    _REGISTERED[deck.id] = (source, text)
    return deck


_UPLOADED: dict[str, tuple[str, str]] = {}
"""Decks people uploaded at the lobby (``server/uploads.py``), by their key
(``up-`` and their content hash): (source, text). Not offered to everyone, as
:func:`shipped_sets` is: a table names one by its key."""


def register_uploaded(key: str, text: str) -> None:
    """Make an uploaded deck (already checked, in the server's worker) playable by
    ``key``; its source is ``<key>.toml``, so its translations are found by that name."""
    _UPLOADED[key] = (f"{key}.toml", text)


def uploaded_sets() -> tuple[str, ...]:
    """The keys of the uploaded decks this process knows."""
    return tuple(_UPLOADED)


KNOWN_ICONS = (*CLASSIC_ICONS, *GLOOMIER_ICONS)
CARD_TABLES: dict[str, CardType] = {
    "characters": CardType.CHARACTER,
    "modifiers": CardType.MODIFIER,
    "events": CardType.EVENT,
    "untimely_deaths": CardType.UNTIMELY_DEATH,
}


class DeckError(GloomtableError, ValueError):
    """A deck that cannot be used; ``problems`` lists every problem found."""

    def __init__(self, source: str, problems: list[str]) -> None:
        self.source = source
        self.problems = problems
        lines = "\n".join(f"  {source}: {p}" for p in problems)
        super().__init__(f"{len(problems)} problem(s) in deck {source}:\n{lines}")


def _card_label(data: Any, table: str, idx: int) -> str:
    try:
        key = data[table][idx].get("id")
    except (KeyError, IndexError, TypeError, AttributeError):
        key = None
    return f"{table}[{idx}]" + (f" (id {key!r})" if isinstance(key, str) else "")


def _format_validation(data: Any, err: ValidationError) -> list[str]:
    problems = []
    for e in err.errors():
        loc = list(e["loc"])
        where: list[str] = []
        if len(loc) >= 2 and isinstance(loc[0], str) and isinstance(loc[1], int):
            where.append(_card_label(data, loc[0], loc[1]))
            loc = loc[2:]
        field = ".".join(str(x) if not isinstance(x, int) else f"[{x}]" for x in loc)
        field = field.replace(".[", "[")
        msg = e["msg"]
        if e["type"] == "extra_forbidden":
            msg = "unknown field (check the spelling)"
        where.append(f"field {field}: {msg}" if field else msg)
        problems.append(": ".join(where))
    return problems


def _parse_steps(raw: list[dict[str, Any]], when: str, where: str, problems: list[str],
                 depth: int = 0) -> tuple[Step, ...]:
    """Each step validated once, by its primitive's own model (``effects.Primitive.model``)."""
    steps = []
    for i, item in enumerate(raw):
        here = f"{where}[{i}]"
        if not isinstance(item, dict):
            problems.append(f"{here}: a step must be a table like {{ draw = 2 }}")
            continue
        name = step_key(item)
        if name is None:
            problems.append(f"{here}: a step names exactly one primitive, got {sorted(item)}")
            continue
        prim = PRIMITIVES.get(name)
        if prim is None:
            problems.append(f"{here}: unknown effect primitive {name!r} "
                            f"(known: {', '.join(sorted(PRIMITIVES))})")
            continue
        if not allowed_in(name, when):
            problems.append(f"{here}: primitive {name!r} is for {'/'.join(sorted(prim.when))} "
                            f"effects, not {when}")
            continue
        if "do" in item and not prim.nests:
            problems.append(f"{here}: only {', '.join(n for n, p in PRIMITIVES.items() if p.nests)} "
                            "take a 'do' list")
            continue
        if prim.nests and (not isinstance(item.get("do"), list) or not item["do"]):
            problems.append(f"{here}: {name} needs a non-empty 'do' list")
            continue
        try:
            model = prim.model.model_validate(item, strict=True)
        except ValidationError as exc:
            msg = "; ".join(e["msg"] for e in exc.errors())
            problems.append(f"{here}.{name}: {msg}")
            continue
        param = getattr(model, name)
        sub: tuple[Step, ...] = ()
        if prim.nests:
            if depth >= 3:
                problems.append(f"{here}: {name} nested too deep (at most 3)")
                continue
            # a trigger's steps happen now, when it fires: they are immediate ones
            sub_when = "immediate" if prim.trigger is not None else when
            sub = _parse_steps(item["do"], sub_when, f"{here}.do", problems, depth + 1)
        steps.append(Step(name, param, icon=param if name == "if_icon" else None, steps=sub))
    return tuple(steps)


def _step_icons(steps: tuple[Step, ...]) -> list[str]:
    out: list[str] = []
    for s in steps:
        out.extend(step_icons(s.name, s.param))
        out.extend(_step_icons(s.steps))
    return out


def _all_steps(effects: list[Effect], label: str) -> list[tuple[str, Step]]:
    out = []
    for j, e in enumerate(effects):
        stack = list(e.steps)
        while stack:
            step = stack.pop()
            out.append((f"{label}: field effects[{j}]", step))
            stack.extend(step.steps)
    return out


REGION_FIELDS = {"persistent_icon": "persistent_icon = true", "portrait": "portrait = true",
                 "text": "text or effects"}


def _persistence_problems(label: str, effects: list[Effect], requires: list[str],
                          printed: dict[str, bool]) -> list[str]:
    """R-G19: a persistent effect holds while any region its card names shows, so a
    card with one must print at least one of them, and every region it names."""
    if not any(e.when == "persistent" for e in effects):
        return []
    missing = [r for r in requires if not printed[r]]
    if len(missing) == len(requires):
        names = " or ".join(REGION_FIELDS[r] for r in requires) or "a region"
        return [f"{label}: field persistent_requires: a persistent effect with nothing to keep "
                f"it alive: the card prints none of {requires} (R-G19), so the effect never "
                f"holds; set {names}, or make the effect continuous"]
    return [f"{label}: field persistent_requires: names {r!r}, a region the card does not "
            f"print (R-G19); set {REGION_FIELDS[r]} or remove {r!r} from the list"
            for r in missing]


def _build_back(bs: BackSpec, label: str, icons: tuple[str, ...], set_id: str,
                problems: list[str]) -> Card:
    """A Guest or Story card from a Character's ``back`` table (R-H1, R-H5, R-H7)."""
    effects = []
    allowed = ("persistent",) if bs.type == "guest" else ("continuous", "immediate")
    for j, es in enumerate(bs.effects):
        if es.when not in allowed:
            what = "a Guest's effects are persistent" if bs.type == "guest" else (
                "a Story's effects are continuous (while controlled) or immediate (on claiming)")
            problems.append(f"{label}.effects[{j}]: field when: {what}, not {es.when!r}")
            continue
        steps = _parse_steps(es.do, es.when, f"{label}.effects[{j}].do", problems)
        for icon in _step_icons(steps):
            if icon not in icons:
                problems.append(f"{label}.effects[{j}]: unknown icon {icon!r}")
        effects.append(Effect(es.when, steps))
    follows = [s for e in effects for s in e.steps if s.name in FOLLOWS]
    if bs.type == "guest":
        if len(follows) != 1:
            problems.append(f"{label}.effects: a Guest follows exactly one thing "
                            f"(one 'follows' step, R-H7); found {len(follows)}")
        if bs.requires:
            problems.append(f"{label}.requires: only Stories have requirements")
    else:
        if follows:
            problems.append(f"{label}.effects: only a Guest may follow (R-H7)")
        if not bs.requires:
            problems.append(f"{label}.requires: a Story needs at least one icon (R-H5)")
    for icon, n in bs.requires.items():
        if icon not in icons:
            problems.append(f"{label}.requires: unknown icon {icon!r}")
        if not 1 <= n <= 6:
            problems.append(f"{label}.requires.{icon}: a count from 1 to 6, got {n}")
    for s in follows:
        if s.param.icon is not None and s.param.icon not in icons:
            problems.append(f"{label}.effects: follows an unknown icon {s.param.icon!r}")
    region_of = {"persistent_icon": Region.PERSISTENT_ICON, "portrait": Region.PORTRAIT,
                 "text": Region.TEXT}
    guest = bs.type == "guest"
    problems += _persistence_problems(
        label, effects, list(bs.persistent_requires),
        {"persistent_icon": guest, "portrait": True, "text": bool(bs.text) or bool(effects)})
    return Card(
        index=-1, key=bs.id, type=CardType.GUEST if guest else CardType.STORY, name=bs.name,
        text=bs.text, flavour=bs.flavour, prints_text=bool(bs.text) or bool(effects),
        prints_portrait=True, prints_persistent_icon=guest,
        persistent_requires=tuple(region_of[r] for r in bs.persistent_requires),
        effects=tuple(effects), set_id=set_id, requires=tuple(sorted(bs.requires.items())),
        gender=bs.gender if guest else None,
    )


def build_deck(data: Any, source: str, index_offset: int = 0) -> Deck:
    """Validate parsed TOML ``data`` and build the deck. Raises :class:`DeckError`."""
    try:
        spec = DeckSpec.model_validate(data)
    except ValidationError as exc:
        raise DeckError(source, _format_validation(data, exc)) from None
    problems: list[str] = []
    icons = (*KNOWN_ICONS, *spec.set.icons)
    family_ids = [f.id for f in spec.families]
    for fid, n in Counter(family_ids).items():
        if n > 1:
            problems.append(f"family id {fid!r} is used {n} times")
    seen: dict[str, list[str]] = {}  # card id -> where it stands, for a duplicate's message
    cards: list[Card] = []
    back_cards: list[Card] = []
    for table, ctype in CARD_TABLES.items():
        for i, cs in enumerate(getattr(spec, table)):
            label = f"{table}[{i}] (id {cs.id!r})"
            seen.setdefault(cs.id, []).append(f"{table}[{i}]")
            for slot in SLOTS:
                icon = getattr(cs.icons, slot)
                if icon is not None and icon != BLANK and icon not in icons:
                    problems.append(f"{label}: field icons.{slot}: unknown icon {icon!r} "
                                    f"(known: {', '.join(icons)}, or 'blank'; a deck may "
                                    f"declare more in set.icons)")
            effects = []
            for j, es in enumerate(cs.effects):
                steps = _parse_steps(es.do, es.when, f"{label}: field effects[{j}].do", problems)
                for icon in _step_icons(steps):
                    if icon not in icons:
                        problems.append(f"{label}: field effects[{j}]: unknown icon {icon!r}")
                effects.append(Effect(es.when, steps))
            if ctype is CardType.CHARACTER:
                assert isinstance(cs, CharacterSpec)
                if cs.family not in family_ids:
                    problems.append(f"{label}: field family: unknown family {cs.family!r} "
                                    f"(declared: {', '.join(family_ids) or 'none'})")
                if any(getattr(cs.points, s) is not None for s in SLOTS):
                    problems.append(f"{label}: field points: Characters print no points (R-G5)")
                if any(getattr(cs.icons, s) is not None for s in SLOTS):
                    problems.append(f"{label}: field icons: Characters print no icons (R-G5)")
                if cs.effects:
                    problems.append(f"{label}: field effects: Characters print no effects (R-G5)")
                if cs.back is not None:
                    seen.setdefault(cs.back.id, []).append(f"{table}[{i}].back")
                    back_cards.append(_build_back(cs.back, f"{label}: field back", icons,
                                                  spec.set.id, problems))
            if ctype is CardType.EVENT and any(getattr(cs.points, s) is not None for s in SLOTS):
                problems.append(f"{label}: field points: Events are never stacked, so points "
                                "on them would never count")
            if ctype is CardType.MODIFIER and any(e.when == "response" for e in effects):
                problems.append(f"{label}: field effects: responses belong on Events")
            prints_text = bool(cs.text) or bool(effects)
            portrait = cs.portrait if cs.portrait is not None else ctype in (
                CardType.CHARACTER, CardType.UNTIMELY_DEATH)
            region_of = {"persistent_icon": Region.PERSISTENT_ICON,
                         "portrait": Region.PORTRAIT, "text": Region.TEXT}
            problems += _persistence_problems(
                label, effects, list(cs.persistent_requires),
                {"persistent_icon": cs.persistent_icon, "portrait": portrait, "text": prints_text})
            cards.append(Card(
                index=index_offset + len(cards), key=cs.id, type=ctype, name=cs.name,
                points=(cs.points.top, cs.points.middle, cs.points.bottom),
                icons=(cs.icons.top, cs.icons.middle, cs.icons.bottom),
                text=cs.text, flavour=cs.flavour,
                family=cs.family if isinstance(cs, CharacterSpec) else None,
                prints_text=prints_text, prints_portrait=portrait,
                prints_persistent_icon=cs.persistent_icon,
                persistent_requires=tuple(region_of[r] for r in cs.persistent_requires),
                effects=tuple(effects), set_id=spec.set.id,
                shifts_worth=any(st.name in WORTHS for e in effects
                                 if e.when in ("continuous", "persistent") for st in e.steps),
                back_key=cs.back.id if isinstance(cs, CharacterSpec) and cs.back else None,
                gender=cs.gender if isinstance(cs, CharacterSpec) else None,
            ))
            for step_where, step in _all_steps(effects, label):
                if step.name in FOLLOWS:
                    problems.append(f"{step_where}: only a Guest may follow (R-H7)")
            problems += language_problems(label, ctype, effects)
    # The reverse sides come after every front, so classic card indices never move.
    for back in back_cards:
        cards.append(replace(back, index=index_offset + len(cards)))
    for key, places in seen.items():
        if len(places) > 1:
            problems.append(f"card id {key!r} is used {len(places)} times, at "
                            f"{', '.join(places[:-1])} and {places[-1]} (ids must be unique)")
    comp = spec.set.components
    actual = Counter(c.type for c in cards)
    for table, ctype in (*CARD_TABLES.items(), ("guests", CardType.GUEST),
                         ("stories", CardType.STORY)):
        declared = getattr(comp, table)
        if declared is not None and declared != actual.get(ctype, 0):
            problems.append(f"set.components.{table} says {declared} but the deck has "
                            f"{actual.get(ctype, 0)}")
    if comp.families is not None and comp.families != len(spec.families):
        problems.append(f"set.components.families says {comp.families} but the deck "
                        f"declares {len(spec.families)}")
    families = tuple(
        Family(f.id, f.name, f.flavour,
               tuple(c.key for c in cards if c.type is CardType.CHARACTER and c.family == f.id))
        for f in spec.families
    )
    for fam in families:
        if not fam.characters:
            problems.append(f"family {fam.id!r} has no Characters")
    for icon in spec.set.glyphs:
        if icon not in spec.set.icons:
            problems.append(f"set: field glyphs.{icon}: {icon!r} is not an icon this deck adds "
                            f"(set.icons: {', '.join(spec.set.icons) or 'none'}); a built-in icon "
                            "keeps its own glyph")
    if problems:
        raise DeckError(source, problems)
    return Deck(spec.set.id, spec.set.name, source, tuple(cards), families, tuple(icons),
                tuple(spec.set.glyphs.items()))


def read_set(path_or_set: str | Path) -> tuple[str, str]:
    """The text of a deck file, or of a shipped set by name (``classic``), and the
    source its errors name."""
    name = str(path_or_set)
    if name in _REGISTERED:
        return _REGISTERED[name]
    if name in _UPLOADED:
        return _UPLOADED[name]
    if name in SHIPPED_SETS:
        res = resources.files(SETS_PACKAGE).joinpath(f"{name}.toml")
        return f"{name}.toml", res.read_text(encoding="utf-8")
    path = Path(name)
    source = str(path)
    try:
        return source, path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DeckError(source, [f"no such file, and not a shipped set "
                                 f"({', '.join(SHIPPED_SETS)})"]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DeckError(source, [f"cannot read: {exc}"]) from None


def parse_deck(text: str, source: str, index_offset: int = 0) -> Deck:
    """A deck from the TOML ``text`` of ``source``. Raises :class:`DeckError`."""
    try:
        data = load_toml(text)
    except TextDataError as exc:
        raise DeckError(source, [str(exc)]) from None
    return build_deck(data, source, index_offset)


def load_deck(path_or_set: str | Path, index_offset: int = 0) -> Deck:
    """Load a deck file, or a shipped set by name (``classic``)."""
    source, text = read_set(path_or_set)
    return parse_deck(text, source, index_offset)


def combine(decks: list[Deck]) -> Deck:
    """Mix several sets into one deck (R-H10): cards re-indexed in order."""
    if len(decks) == 1:
        return decks[0]
    cards: list[Card] = []
    for d in decks:
        for c in d.cards:
            cards.append(replace(c, index=len(cards)))
    keys = Counter(c.key for c in cards)
    dup = [k for k, n in keys.items() if n > 1]
    if dup:
        def where(k: str) -> str:
            return " and ".join(d.source for d in decks if any(c.key == k for c in d.cards))
        raise DeckError("+".join(d.id for d in decks),
                        [f"card id {k!r} appears in more than one set ({where(k)}); rename it "
                         "in one of them" for k in dup])
    icons = tuple(dict.fromkeys(i for d in decks for i in d.icons))
    return Deck("+".join(d.id for d in decks), " + ".join(d.name for d in decks),
                "+".join(d.source for d in decks), tuple(cards),
                tuple(f for d in decks for f in d.families), icons,
                tuple(dict(g for d in decks for g in d.glyphs).items()))
