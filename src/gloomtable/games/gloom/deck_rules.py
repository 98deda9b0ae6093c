"""The deck checker's rules for the richer card language: what the schema cannot say
(a step that could never do anything where it is printed), each problem naming the
card and the field, as :mod:`deck` reports every other problem.
"""

from __future__ import annotations

from collections.abc import Iterator

from gloomtable.games.gloom.cards import CardType, Effect, Step
from gloomtable.games.gloom.effects import CANCELS, PRIMITIVES

TARGET_TESTS = ("self_worth_at_most", "self_worth_at_least", "target_owner")


def _walk(steps: tuple[Step, ...], path: str) -> Iterator[tuple[str, Step]]:
    for i, st in enumerate(steps):
        here = f"{path}[{i}]"
        yield here, st
        yield from _walk(st.steps, f"{here}.do")


def language_problems(label: str, ctype: CardType, effects: list[Effect]) -> list[str]:
    """Problems of ``label``'s effects that only the card's type and place reveal."""
    out: list[str] = []
    for j, effect in enumerate(effects):
        if effect.when == "response":
            if not effect.steps or effect.steps[0].name not in CANCELS:
                out.append(f"{label}: field effects[{j}].do[0]: a response starts with "
                           "'cancel' (R-G20): the steps after it happen once it has cancelled")
            elif any(st.name in CANCELS for st in effect.steps[1:]):
                out.append(f"{label}: field effects[{j}].do: a response cancels once; "
                           "put each 'cancel' in its own response effect")
        for where, st in _walk(effect.steps, f"effects[{j}].do"):
            field = f"{label}: field {where}.{st.name}"
            in_trigger = PRIMITIVES[st.name].trigger is not None
            if st.name == "move_this" and ctype is not CardType.MODIFIER:
                out.append(f"{field}: only a Modifier can move itself on (this card is "
                           f"{ctype.value.replace('_', ' ')})")
            if ctype is CardType.EVENT and not in_trigger:
                if st.name == "only_if" and any(getattr(st.param, t) is not None
                                                for t in TARGET_TESTS):
                    out.append(f"{field}: an Event has no target, so a test of the target's "
                               "Self-Worth or owner never holds; test your hand or a count")
                if st.name == "only_if" and st.param.icons is not None \
                        and st.param.icons.whose == "target":
                    out.append(f"{field}.icons.whose: an Event has no target; count "
                               "'yours' or the 'table'")
                if st.name == "for_players" and st.param == "target_owner":
                    out.append(f"{field}: an Event has no target, so it has no target_owner")
            if in_trigger and st.param.whose == "this" and ctype is CardType.EVENT:
                out.append(f"{field}.whose: an Event never stays on a Character")
    return out
