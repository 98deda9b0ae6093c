"""Drawn examples for the terminal's rules reference (``gloom rules``): small stacks of
made-up cards, each layer's regions in the terminal table's own slot notation, and what
shows, worked out by the engine's cardinal rule (R-G4), as the page's Rules panel does
with its card renderer (web/rules_pictures.js, the same texts)."""

from __future__ import annotations

from gloomtable.engine.hooks import Translating
from gloomtable.games.gloom.cards import Card, CardType, visible


def _card(index: int, name: str, kind: CardType, points: tuple[int | None, ...] = (None, None, None),
          icons: tuple[str | None, ...] = (None, None, None), *, prints_text: bool = False,
          prints_portrait: bool = False) -> Card:
    return Card(index=index, key=f"example-{index}", type=kind, name=name,
                points=(points[0], points[1], points[2]), icons=(icons[0], icons[1], icons[2]),
                prints_text=prints_text, prints_portrait=prints_portrait)


def _slots(values: tuple[object, ...], tr: Translating, points: bool) -> str:
    """The terminal table's notation: ``·`` prints nothing, ``▮`` a blank."""
    from gloomtable.games.gloom.hooks.text import ICONS

    out = []
    for v in values:
        if v is None:
            out.append("·")
        elif points and isinstance(v, int):
            out.append(f"{v:+d}")
        else:
            out.append(tr.gettext(ICONS[str(v)]) if str(v) in ICONS else str(v))
    return "/".join(out)


def stack_examples(tr: Translating) -> str:
    """The examples as Markdown, for the end of the Gloom rules reference."""
    _ = tr.gettext
    character = _card(0, _("A Character"), CardType.CHARACTER, prints_portrait=True)
    sad = _card(1, _("A sad Modifier"), CardType.MODIFIER, (-10, None, None), (None, "duck", None))
    happy = _card(2, _("A happy Modifier"), CardType.MODIFIER, (10, -5, None))
    death = _card(3, _("An Untimely Death"), CardType.UNTIMELY_DEATH, prints_portrait=True,
                  prints_text=True)
    examples = [
        ([character, sad], _("A Modifier lays its points on the Character: this one shows −10.")),
        ([character, sad, happy], _(
            "The cardinal rule: a card covers every region it prints in, and only what shows counts. "
            "The +10 covers the −10, so the stack is worth +10 − 5 = +5; the duck still shows.")),
        ([character, sad, death], _(
            "An Untimely Death, only as the first play of a turn and only on a Character below zero: "
            "the Character is dead, and only dead Characters count in their family's Family Value.")),
    ]
    width = max(len(c.name) for c in (character, sad, happy, death)) + 2
    out = ["", f"## {_('Stacks, drawn')}", ""]
    for stack, text in examples:
        shows = visible(stack)
        lines = []
        for i, card in enumerate(stack):
            lines.append(f"{'+' if i else ' '} {card.name:<{width}} "
                         f"{_('points {slots}').format(slots=_slots(card.points, tr, True)):<24} "
                         f"{_('icons {icons}').format(icons=_slots(card.icons, tr, False))}")
        points = tuple(shows.points)
        lines.append(f"= {'':<{width}} {_('points {slots}').format(slots=_slots(points, tr, True)):<24} "
                     f"{_('icons {icons}').format(icons=_slots(tuple(shows.icon_slots), tr, False))}")
        lines.append(f"  {'':<{width}} " + _("Self-Worth {n}").format(n=f"{shows.self_worth:+d}"))
        out += ["```", *lines, "```", "", text, ""]
    return "\n".join(out)
