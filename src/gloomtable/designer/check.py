"""What ``gloom deck check`` finds beyond the schema: a deck can be valid data and
still go wrong in play.

The schema and the per-card rules live in :mod:`gloomtable.games.gloom.deck`
(a deck that fails them cannot be loaded at all). The checks here look at the
deck as a whole, or at a mix of decks (R-H10), and sort what they find:

- an **error**: the deck cannot be played as written (a Story nobody can ever
  claim, a response with nothing to answer, no Character that can ever go
  below zero, too few Untimely Deaths for any game to end);
- a **warning**: it can be played, but something will likely go wrong (too few
  Deaths to be sure a game ends at the largest table, families of unequal size,
  too few Modifiers with negative points for every Character to reach zero, a
  deck that seats no table alone and so can only be mixed).

Each finding names the file, the card (or the deck's table) and the field, and
says what to change. A deck meant only to be mixed may name icons or card
types that another set brings: check the mix (``gloom deck check classic,FILE``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from gloomtable.engine import ConfigError, DecisionKind
from gloomtable.games.gloom.actions import MAX_PLAYERS
from gloomtable.games.gloom.cards import SLOTS, CardType, Deck, Step
from gloomtable.games.gloom.deck import CARD_TABLES, combine
from gloomtable.games.gloom.effects import PRIMITIVES, step_icons
from gloomtable.games.gloom.game import GloomConfig, GloomGame

Severity = Literal["error", "warning"]
SETUP_DECISIONS = (DecisionKind.CHOOSE_FAMILY, DecisionKind.SET_ASIDE, DecisionKind.CHOOSE_CHARACTER)
TABLE_OF = {t: name for name, t in CARD_TABLES.items()}
ICON_STEPS = {"if_icon": "happen", "draw_per_icon": "draw a card",
              "draw_limit_per_icon": "raise a draw limit", "follows": "move its Guest",
              "only_if": "happen", "worth_per_icon": "change a Self-Worth", "on": "trigger"}
"""The primitives that wait for an icon, and what they would do when it shows."""


@dataclass(frozen=True)
class Finding:
    """One thing ``deck check`` reports. ``code`` is stable (tests and scripts
    match on it); ``where`` is the card as the file lists it, or the deck table."""

    severity: Severity
    code: str
    source: str
    where: str
    field: str
    message: str

    def line(self) -> str:
        return f"{self.source}: {self.where}: field {self.field}: {self.message}"


@dataclass(frozen=True)
class TableSize:
    """One table size a deck allows, as setup really deals it."""

    players: int
    characters: int
    """Characters in the players' families once setup is done."""
    smallest_family: int
    largest_family: int


def table_sizes(deck: Deck) -> list[TableSize]:
    """Every table size the deck allows (2 to 8 seats), with the families that
    setup really deals there: a real game is set up, as the engine does it."""
    out = []
    for n in range(2, MAX_PLAYERS + 1):
        try:
            game = GloomGame(GloomConfig(players=n), deck=deck)
        except ConfigError:
            continue
        state = game.new_initial_state(0)
        while not state.is_over() and state.decision.kind in SETUP_DECISIONS:
            state.apply(state.legal_actions()[0])
        sizes = [len(f) for f in state.families]
        out.append(TableSize(n, sum(sizes), min(sizes), max(sizes)))
    return out


class _Labels:
    """Where each card sits in its own file: ``modifiers[3] (id 'x')``."""

    def __init__(self, decks: list[Deck]) -> None:
        self.source: dict[str, str] = {}
        self.label: dict[str, str] = {}
        for d in decks:
            backs = {c.back_key: c for c in d.cards if c.back_key}
            for t, table in TABLE_OF.items():
                for i, c in enumerate(d.of_type(t)):
                    self.label.setdefault(c.key, f"{table}[{i}] (id {c.key!r})")
                    self.source.setdefault(c.key, d.source)
            for c in d.cards:
                if c.key in backs:
                    front = backs[c.key]
                    self.label.setdefault(c.key, f"{self.label[front.key]}, its back (id {c.key!r})")
                    self.source.setdefault(c.key, d.source)


def _dealt(sizes: list[TableSize]) -> str:
    """The family sizes dealt at each table size: "2 players 4 to 5, 4 players 3 to 4"."""
    return ", ".join(f"{s.players} players {s.smallest_family}"
                     + (f" to {s.largest_family}" if s.largest_family != s.smallest_family else " each")
                     for s in sizes)


def check_decks(decks: list[Deck]) -> list[Finding]:
    """Everything found in ``decks`` played together (one deck, or a mix)."""
    deck = combine(decks)
    labels = _Labels(decks)
    source = " + ".join(d.source for d in decks)
    found: list[Finding] = []

    def add(severity: Severity, code: str, where: str, fld: str, message: str,
            src: str = source) -> None:
        found.append(Finding(severity, code, src, where, fld, message))

    hint = (" If this deck is meant to be mixed with another set, check the mix: "
            "gloom deck check classic,FILE.") if len(decks) == 1 else ""
    sizes = table_sizes(deck)
    if not sizes:
        add("warning", "no-table", "[[families]]", "count",
            f"this deck alone seats no table of 2 to {MAX_PLAYERS} players: taking whole "
            "families needs a family per player (R-G7), a draft 4 Characters per player "
            "(R-H2); fine for a set meant only to be mixed (R-H10), else add families or "
            "Characters.")
    mods = deck.of_type(CardType.MODIFIER)
    deaths = deck.of_type(CardType.UNTIMELY_DEATH)
    events = deck.of_type(CardType.EVENT)
    counts = Counter(c.type for c in deck.cards)

    # A response that can answer nothing (R-G20).
    on_turn_events = [e for e in events if any(x.when != "response" for x in e.effects)
                      or not e.effects]
    can_be_answered = {"modifier": bool(mods), "untimely_death": bool(deaths),
                       "event": bool(on_turn_events)}
    for c in deck.cards:
        for j, eff in enumerate(c.effects):
            if eff.when != "response":
                continue
            for step in eff.steps:
                if step.name == "cancel" and not can_be_answered.get(step.param, True):
                    what = {"modifier": "Modifiers", "untimely_death": "Untimely Deaths",
                            "event": "Events played on a turn"}[step.param]
                    add("error", "response-answers-nothing", labels.label[c.key],
                        f"effects[{j}].do (cancel = {step.param!r})",
                        f"cancels {what}, but the deck has none, so the card can never be "
                        f"played; cancel another card type, or add {what}.{hint}",
                        labels.source[c.key])

    # A Story whose requirement no family can ever show (R-H5).
    family_cap = max((s.largest_family for s in sizes), default=4) + counts[CardType.GUEST]
    printers = [c for c in deck.cards if c.type in (CardType.MODIFIER, CardType.UNTIMELY_DEATH)]
    for story in deck.of_type(CardType.STORY):
        for icon, need in story.requires:
            prints = sum(1 for c in printers for i in c.icons if i == icon)
            slots = sum(1 for k in range(len(SLOTS)) if any(c.icons[k] == icon for c in printers))
            most = min(prints, slots * family_cap)
            if need > most:
                add("error", "story-unreachable", labels.label[story.key], f"requires.{icon}",
                    f"needs {need} {icon} icon(s) showing in one family, but the deck's cards "
                    f"can show at most {most} ({prints} print it, in {slots} of 3 slots, "
                    f"families of up to {family_cap}); lower it to {most} or fewer, or add "
                    f"Modifiers printing {icon}.{hint}", labels.source[story.key])

    # A step that waits for an icon no card of the deck prints can never do anything.
    printed = {i for c in deck.cards for i in c.icons if i}

    def icon_steps(steps: tuple[Step, ...], path: str) -> Iterator[tuple[str, str, str]]:
        for k, st in enumerate(steps):
            icon = st.param if isinstance(st.param, str) else getattr(st.param, "icon", None)
            named = step_icons(st.name, st.param) if st.name in PRIMITIVES else ()
            icon = icon or (named[0] if named else None)
            if st.name in ICON_STEPS and icon:
                yield f"{path}[{k}] ({st.name} = {icon!r})", st.name, icon
            yield from icon_steps(st.steps, f"{path}[{k}].do")

    for c in deck.cards:
        for j, eff in enumerate(c.effects):
            for fld, name, icon in icon_steps(eff.steps, f"effects[{j}].do"):
                if icon not in printed:
                    add("warning", "icon-never-shows", labels.label.get(c.key, repr(c.key)), fld,
                        f"{name} looks for the {icon!r} icon, but no card of the deck prints it, "
                        f"so it can never {ICON_STEPS[name]}; use an icon the cards print, or "
                        f"add cards printing {icon!r}.{hint}", labels.source.get(c.key, source))

    # Self-Worth that can never go below zero: no Death can ever be played (R-G11).
    negative = [c for c in mods if any(p is not None and p < 0 for p in c.points)]
    if not negative:
        add("error", "never-below-zero", "[[modifiers]]", "points",
            "no Modifier prints negative points, so no Character can go below zero and no "
            "Untimely Death can ever be played (R-G11); give some Modifiers negative points.")

    if not sizes:
        return found
    # Deaths: a game ends when a family's last Character dies (R-G24).
    ending = min(s.smallest_family for s in sizes)
    largest = max(sizes, key=lambda s: s.players)
    worst = largest.characters - largest.players + 1
    if len(deaths) < ending:
        add("error", "cannot-end", "[[untimely_deaths]]", "count",
            f"{len(deaths)} Untimely Death(s), but even the smallest family dealt has {ending} "
            f"Characters: no game can ever end (R-G24); add at least {ending - len(deaths)}.")
    elif len(deaths) < worst:
        add("warning", "too-few-deaths", "[[untimely_deaths]]", "count",
            f"{len(deaths)} Untimely Deaths, but at {largest.players} players "
            f"({largest.characters} Characters in {largest.players} families) a game can take "
            f"up to {worst} before one family is all dead (R-G24): many games will run out of "
            f"Deaths and stop at the turn cap; add {worst - len(deaths)} more, or deal fewer "
            "Characters.")

    # Families of unequal size (R-G7): a larger family has more to bury.
    if not any(c.back_key for c in deck.cards):
        fam_sizes = {f.id: len(f.characters) for f in deck.families}
        if len(set(fam_sizes.values())) > 1:
            small = min(fam_sizes, key=lambda k: fam_sizes[k])
            big = max(fam_sizes, key=lambda k: fam_sizes[k])
            add("warning", "unequal-families", f"families (id {small!r})", "characters",
                f"family {small!r} has {fam_sizes[small]} Characters and {big!r} has "
                f"{fam_sizes[big]}, and as setup deals them (R-G7, R-G8: at 4 and 5 players "
                f"each family sets one aside) {_dealt(sizes)}: the player with the larger "
                "family has more to bury before the game ends; give every family the same "
                "number of Characters.")

    # Too few negative Modifiers for every Character to reach below zero.
    if negative and len(negative) < largest.characters:
        add("warning", "self-worth-range", "[[modifiers]]", "points",
            f"only {len(negative)} Modifiers print negative points, for {largest.characters} "
            f"Characters at {largest.players} players: a Character needs one showing to go "
            "below zero, so some families can never be brought low enough for a Death; give "
            f"at least {largest.characters - len(negative)} more Modifiers negative points.")
    return found
