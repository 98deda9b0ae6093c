"""Crazy Creatures in the reader's language: event lines, actions and the table."""

from __future__ import annotations

from typing import Any

from gloomtable.engine import DecisionKind
from gloomtable.engine.hooks import Translating, View
from gloomtable.games.creatures.hooks.card_texts import CreatureTexts
from gloomtable.games.creatures.view import CreaturesView, creatures_view
from gloomtable.i18n.grammar import seats_list
from gloomtable.i18n.markers import N_

ACTIONS = {"pass": N_("pass"), "play": N_("play {label}"), "flip": N_("flip {colour} Machine"),
           "draw": N_("make player {p} draw")}
"""A choice's template by its kind (the layout of ``games/creatures/actions.py``)."""

WHY = {"passed": N_("every player in a row has passed"), "final": N_("the final turns are over")}
"""Why a round ended, by the key its event carries."""

DECISIONS: dict[str, str] = {DecisionKind.PLAY: N_("play"),
                              DecisionKind.SAME_NUMBER: N_("flip a Machine or make another player draw")}


class CreaturesVoice:
    """How a Crazy Creatures game's events say their arguments in one language (see
    ``i18n/events.py``): with the table's own set, so a variant's Machines are named
    in the log as its narration and board name them (issue 34)."""

    def __init__(self, game: Any, tr: Translating) -> None:
        from gloomtable.games.creatures.cards import CREATURE_SET

        card_set = getattr(game, "card_set", None) or CREATURE_SET
        self.tr = tr
        self.creatures = card_set.creatures
        self.colours = [c.key for c in card_set.colours]
        self.texts = CreatureTexts(card_set, tr.lang)
        # English names a side as the engine prints it ("- Shrinker"); other languages put
        # the Machine's name first, where a sentence expects a name («теперь это Уменьшитель (−)»)
        self.sides = ((f"- {self.texts.machine('minus')}", f"+ {self.texts.machine('plus')}")
                      if tr.lang == "en" else
                      (f"{self.texts.machine('minus')} (\u2212)", f"{self.texts.machine('plus')} (+)"))

    def gender(self, value: Any) -> str | None:
        return None

    def value(self, kind: str, value: Any, gender: str | None) -> str:
        tr, texts = self.tr, self.texts
        if kind in ("p", "q"):
            return str(value + 1)
        if kind in ("n", "r"):
            return str(value)
        if kind == "label":
            c = self.creatures[value]
            return f"{texts.colour(c.colour_key)} {c.number}"
        if kind == "colour":
            return texts.machine_colour(self.colours[value])
        if kind == "side":
            return self.sides[value]
        if kind == "why":
            return tr.gettext(WHY[value])
        if kind == "shown":
            scores, totals = value
            line = ", ".join(tr.gettext("{player}: {score} (total {total})").format(
                player=tr.player(q), score=f"{s:+d}", total=t)
                for q, (s, t) in enumerate(zip(scores, totals, strict=True)))
            return line[:1].upper() + line[1:]  # it starts a sentence
        if kind == "names":  # "player 1 and player 3", with its forms ("{names:gen}")
            return seats_list(tr, value)
        raise KeyError(f"a Crazy Creatures line has no placeholder kind {kind!r}")


class CreaturesLocalizer:
    """Events, actions and the table of one Crazy Creatures game in one language."""

    def __init__(self, game: Any, tr: Translating) -> None:
        from gloomtable.games.creatures.cards import CREATURE_SET

        self.tr = tr
        # Names come from the table's own set (a variant names its Creatures and Machines).
        self.card_set = getattr(game, "card_set", CREATURE_SET)
        self.texts = CreatureTexts(self.card_set, tr.lang)
        self.decisions = DECISIONS

    def action(self, s: Any, action: int) -> str:
        """The choice ``action`` in this language, by its place in the action layout."""
        from gloomtable.games.creatures import actions as ca
        from gloomtable.games.creatures.cards import CREATURES

        _, texts = self.tr.gettext, self.texts
        if ca.PLAY_BASE <= action < ca.FLIP_BASE:
            c = CREATURES[action - ca.PLAY_BASE]
            return _(ACTIONS["play"]).format(label=f"{texts.colour(c.colour_key)} {c.number}")
        if ca.FLIP_BASE <= action < ca.DRAW_BASE:
            key = self.card_set.colours[action - ca.FLIP_BASE].key
            return _(ACTIONS["flip"]).format(colour=texts.machine_colour(key))
        if ca.DRAW_BASE <= action < ca.NUM_ACTIONS:
            return _(ACTIONS["draw"]).format(p=action - ca.DRAW_BASE + 1)
        return _(ACTIONS["pass"])

    def decision(self, kind: str) -> str:
        return self.tr.gettext(DECISIONS[kind]) if kind in DECISIONS else kind.replace("_", " ")

    def localize_catalogue(self, catalogue: dict[str, Any]) -> dict[str, Any]:
        """The card faces as they are: the page draws Creatures from the view's names."""
        return catalogue

    def localize_view(self, view: dict[str, Any]) -> None:
        """Creature and Machine names and the choices' texts in a copy of a view, in place."""
        texts = self.texts
        for m in view.get("machines", []):
            m["creature"] = texts.creature(m.get("colour", ""))
            m["machine"] = texts.machine("plus" if m.get("side") == "+" else "minus")
        for c in view.get("choices", []):
            if isinstance(c.get("action"), int):
                c["text"] = self.action(None, c["action"])

    def render(self, view: View, player: int | None) -> str:
        """The table as text, like ``games/creatures/view.render`` in the reader's language."""
        return self._render(creatures_view(view), player)

    def _render(self, v: CreaturesView, player: int | None) -> str:
        _, tr, texts = self.tr.gettext, self.tr, self.texts
        n = v["players"]
        you = _("spectating") if player is None else _("you are player {p}").format(p=player + 1)
        if v["over"]:
            head = tr.ngettext("Crazy Creatures: game over after {n} round ({you})",
                               "Crazy Creatures: game over after {n} rounds ({you})",
                               len(v["round_scores"])).format(n=len(v["round_scores"]), you=you)
        else:
            what = (_("decides: flip a Machine or make another player draw")
                    if v["decision"] == DecisionKind.SAME_NUMBER else _("to play"))
            head = _("Crazy Creatures: round {r} of {rounds}, player {p} {what} ({you})").format(
                r=v["round"], rounds=v["rounds"], p=v["current_player"] + 1, what=what, you=you)
        lines = [head, _("Machines:")]
        # columns as wide as this language's longest colour, Creature and Machine name
        wc = max(len(texts.colour(m["colour"])) for m in v["machines"]) + 1
        wk = max(len(texts.creature(m["colour"])) for m in v["machines"]) + 1
        wm = max(len(texts.machine(side)) for side in ("plus", "minus")) + 1
        for m in v["machines"]:
            pile = " ".join(str(c["number"]) for c in m["pile"][:-1])
            top = f"[{m['top']}]" if m["top"] else _("(empty)")
            side = "plus" if m["side"] == "+" else "minus"
            lines.append(f"  {texts.colour(m['colour']):<{wc}}{texts.creature(m['colour']):<{wk}} "
                         f"{m['side']} {texts.machine(side):<{wm}} "
                         + _("pile: {cards}").format(cards=(pile + " " if pile else "") + top))
        lines.append(_("Reserve: {n} face down; set aside: {m} unseen").format(
            n=v["reserve_count"], m=v["aside_count"]))
        closer, left = v["closer"], v["final_turns_left"]
        if closer is not None and left is not None:  # both or neither
            lines.append(tr.ngettext("Player {p} is out: {n} final turn left",
                                     "Player {p} is out: {n} final turns left",
                                     left).format(p=closer + 1, n=left))
        for q in range(n):
            mark = ">" if q == v["current_player"] else " "
            name = tr.player(q) + (_(" (you)") if q == player else "")
            rounds = ", ".join(f"{r[q]:+d}" for r in v["round_scores"])
            cards = tr.ngettext("{n} card", "{n} cards", v["hand_counts"][q]).format(
                n=v["hand_counts"][q])
            lines.append(f" {mark} {name:<18}{cards:>10}   " + _("total {n}").format(n=v["totals"][q])
                         + ("   " + _("rounds: {scores}").format(scores=rounds) if rounds else ""))
        if player is not None:
            hand = "  ".join(("*" if c["playable"] else "") + f"{texts.colour(c['colour'])} {c['number']}"
                             for c in v["hand"])
            pen = sum(c["penalty"] for c in v["hand"])
            lines.append(_("Your hand ({n} penalty): {cards}   (* fits a pile now)").format(
                n=pen, cards=hand or _("(empty)")))
        if v["over"]:
            res = v["result"]
            lines.append(tr.ngettext("Winner: {names}", "Winners: {names}", len(res["winners"])).format(
                names=seats_list(tr, res["winners"]))
                         + (_("  (stopped at the turn cap)") if res["capped"] else ""))
        return "\n".join(lines)
