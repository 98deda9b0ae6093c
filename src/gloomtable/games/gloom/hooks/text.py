"""Gloom in the reader's language: event lines, actions and the table as text.

Everything is rebuilt from ``view(player)`` and the deck's card data, like the
engine's own ``games/gloom/render.py``, so nothing hidden can leak through it."""

from __future__ import annotations

import copy
from typing import Any

from gloomtable.engine import DecisionKind
from gloomtable.engine.hooks import Translating, View
from gloomtable.games.gloom.cards import CardType
from gloomtable.games.gloom.hooks.card_texts import GloomTexts
from gloomtable.games.gloom.view import CharacterView, GloomView, StoryView, gloom_view
from gloomtable.i18n.grammar import Forms, seats_list
from gloomtable.i18n.markers import N_, NG_

ACTIONS = {
    "stand": N_("let it stand (no response)"),
    "pass": N_("pass"),
    "forgo": N_("end the turn (forgo free plays)"),
    "discard_hand": N_("discard your whole hand"),
    "family": N_("take the family {family}"),
    "player": N_("choose player {p}"),
    "discard": N_("discard {cardx}"),
    "aside": N_("set aside {cardx}"),
    "choose": N_("choose {cardx}"),
    "respond": N_("respond with {card}"),
    "event": N_("play the Event {card}"),
    "story": N_("claim the Story {card}"),
    "play_on": N_("play {cardx} on {cardx2}"),
    "play": N_("play {cardx}"),
}
"""A choice's template by its kind; ``{cardx}`` is a card as a choice describes it (a
Character with its Self-Worth and seat), agreeing with the Character it concerns."""

TITLE = N_("\u201c{title}\u201d")
"""How a card's name is quoted as a title inside a sentence («…» in Spanish and Russian)."""

FREE_PLAY = {"card": N_("any card"), "Untimely Death": N_("Untimely Death"),
             "modifier": N_("Modifier"), "event": N_("Event")}

_D = DecisionKind
DECISIONS: dict[str, str] = {
    _D.PLAY: N_("play"), _D.RESPOND: N_("respond"), _D.DISCARD: N_("discard"),
    _D.CHOOSE_FAMILY: N_("choose a family"), _D.SET_ASIDE: N_("set a Character aside"),
    _D.MOVE_MODIFIER_FROM: N_("move a Modifier: from whom"),
    _D.MOVE_MODIFIER_TO: N_("move a Modifier: onto whom"),
    _D.CHOOSE_CHARACTER: N_("choose a Character"),
    _D.REMOVE_MODIFIER: N_("choose a Modifier to remove"),
    _D.RETURN_MODIFIER: N_("choose a Modifier to return to its owner's hand"),
    _D.REVIVE: N_("choose a dead Character to bring back"),
    _D.SKIP_TURN: N_("choose a player who skips their next turn"),
    _D.STEAL_FROM: N_("choose a player to take a card from"),
    _D.SWAP_HANDS_WITH: N_("choose a player to swap hands with"),
    _D.CHOOSE_TARGET: N_("choose a Character"),
    # kinds of action (not of decision) the table page labels the same way
    "choose_player": N_("choose a player"), "choose_card": N_("choose a card"),
    "claim_story": N_("claim a Story"),
}

MIDDLE = N_("in the middle")

GUEST_MARK = NG_(" (Guest)")
"""The terminal table's mark after a Guest's name; it agrees with the Guest's gender."""
NG_("Guest")  # the page's label of a Guest, in its gender (web/gloom_table.js guestWord)

DEAD = NG_("dead")
"""The page's mark on a dead Character; it agrees with the Character's gender."""

ICONS = {"beast": N_("beast"), "death": N_("death"), "duck": N_("duck"), "goblet": N_("goblet"),
         "lucre": N_("lucre"), "romance": N_("romance"), "murder": N_("murder"),
         "investigation": N_("investigation")}

CARD_TYPES = {"character": N_("Character"), "modifier": N_("Modifier"), "event": N_("Event"),
              "untimely_death": N_("Untimely Death"), "guest": N_("Guest"), "story": N_("Story")}


_FREE_PLAY_LABEL = {"any": "card", "untimely_death": "Untimely Death", "modifier": "modifier",
                    "event": "event"}
"""A free play's kind as the English line names it."""
_FREE_PLAY_MSG = {"any": FREE_PLAY["card"], "untimely_death": FREE_PLAY["Untimely Death"],
                  "modifier": FREE_PLAY["modifier"], "event": FREE_PLAY["event"]}


class GloomVoice:
    """How a Gloom game's events say their arguments in one language (see
    ``i18n/events.py``): seats as people count, a Character or Guest by its bare name,
    any other card as a quoted title in the form agreeing with the line's Character."""

    def __init__(self, game: Any, tr: Translating) -> None:
        self.tr = tr
        self.english = tr.lang == "en"
        self.texts = GloomTexts(game.deck, tr.lang) if game is not None else None
        self.title = "{title}" if self.english else tr.gettext(TITLE)
        self.landed: dict[int, str] = {}
        """The gender of the Character each card was last told on, so a later line that
        names the card alone (a cancellation, a Guest following it) keeps its form."""

    def gender(self, value: Any) -> str | None:
        return self.texts.gender(value) if self.texts is not None else None

    def card(self, i: int, gender: str | None) -> str:
        texts = self.texts
        assert texts is not None, "a line naming a card needs the game's deck"
        if texts.is_person(i):  # with the cases a template may ask for ("{char:gen}")
            return texts.person(i) if not self.english else Forms(texts.name(i), person=True)
        if gender is None:
            gender = self.landed.get(i)
        else:
            self.landed[i] = gender
        return Forms(self.title.format(title=texts.name(i, gender)))

    def value(self, kind: str, value: Any, gender: str | None) -> str:
        tr = self.tr
        if kind in ("p", "q", "r"):
            return str(value + 1)
        if kind == "n":
            return str(value)
        if kind == "card":
            return self.card(value, gender)
        if kind == "char":
            return self.card(value, None)
        if kind == "family":
            assert self.texts is not None
            return self.texts.family_name(self.texts.deck.families[value].id)
        if kind == "freeplay":
            return _FREE_PLAY_LABEL[value] if self.english else tr.gettext(_FREE_PLAY_MSG[value])
        if kind == "scores":
            return ", ".join(str(v) for v in value)
        if kind == "names":  # "player 1, player 2 and player 4", with its forms
            return seats_list(tr, value)
        raise KeyError(f"a Gloom line has no placeholder kind {kind!r}")


class GloomLocalizer:
    """Events, actions and the table of one Gloom game in one language."""

    def __init__(self, game: Any, tr: Translating) -> None:
        self.tr = tr
        self.deck = game.deck
        self.texts = GloomTexts(game.deck, tr.lang)
        self.decisions = DECISIONS
        self.title = tr.gettext(TITLE)

    def shown(self, c: int, gender: str | None = None) -> str:
        """A Character or Guest by its bare name; any other card as a quoted title, in
        the form agreeing with ``gender`` (of the Character it is about)."""
        texts = self.texts
        if texts.is_person(c):
            return texts.person(c)
        return Forms(self.title.format(title=texts.name(c, gender)))

    def described(self, s: Any, c: int, gender: str | None = None) -> str:
        """A card as a choice names it: a Character with its Self-Worth and where it is,
        a card with points with them (like ``games/gloom/describe.describe_card``)."""
        card = s.cards[c]
        name = self.shown(c, gender)
        if card.type in (CardType.CHARACTER, CardType.GUEST):
            if c not in s.stacks:
                return name
            owner = s.controller[c]
            whose = self.tr.gettext(MIDDLE) if owner < 0 else self.tr.player(owner)
            return Forms.of(name).with_tail(f" ({s.self_worth(c):+d}, {whose})")
        pts = [p for p in card.points if p is not None]
        return Forms.of(name).with_tail(f" ({', '.join(f'{p:+d}' for p in pts)})") if pts else name

    def action(self, s: Any, action: int) -> str:
        """The choice ``action`` of the board ``s`` in this language, from the decoded
        action (nothing is read back from the engine's English text)."""
        from gloomtable.games.gloom.actions import Kind
        from gloomtable.games.gloom.tasks import RESPOND, SETUP_ASIDE

        codec, tr, texts = s.codec, self.tr, self.texts
        if not 0 <= action < codec.size:
            return f"<invalid action {action}>"
        dec = codec.decode(action)
        d = s.decision
        _ = tr.gettext
        if dec.kind is Kind.PASS:
            if d.kind == RESPOND:
                return _(ACTIONS["stand"])
            return _(ACTIONS["pass"]) if s.counted_used < 2 else _(ACTIONS["forgo"])
        if dec.kind is Kind.DISCARD_HAND:
            return _(ACTIONS["discard_hand"])
        if dec.kind is Kind.CHOOSE_FAMILY:
            fams = self.deck.families
            return _(ACTIONS["family"]).format(family=texts.family_name(fams[dec.index].id)) \
                if dec.index < len(fams) else "?"
        if dec.kind is Kind.CHOOSE_PLAYER:
            return _(ACTIONS["player"]).format(p=dec.index + 1)
        if dec.kind is Kind.CHOOSE_CARD:
            key = {DecisionKind.DISCARD: "discard", SETUP_ASIDE: "aside"}.get(d.kind, "choose")
            gender = None if key == "discard" else texts.gender(dec.card)
            return _(ACTIONS[key]).format(cardx=self.described(s, dec.card, gender))
        if dec.kind is Kind.RESPOND:
            return _(ACTIONS["respond"]).format(card=self.shown(dec.card))
        if dec.kind is Kind.DISCARD_ONE:
            return _(ACTIONS["discard"]).format(cardx=self.shown(dec.card))
        if dec.kind is Kind.PLAY_EVENT:
            return _(ACTIONS["event"]).format(card=self.shown(dec.card))
        if dec.kind is Kind.CLAIM_STORY:
            return _(ACTIONS["story"]).format(card=self.shown(dec.card))
        gender = texts.gender(dec.target)
        return _(ACTIONS["play_on"]).format(cardx=self.described(s, dec.card, gender),
                                            cardx2=self.described(s, dec.target))

    def action_parts(self, s: Any, action: int) -> tuple[str, str, int] | None:
        """A play on a Character as (what, on whom, whose seat), like ``action_parts``
        of the board, in this language."""
        from gloomtable.games.gloom.actions import Kind

        dec = s.codec.decode(action)
        if dec.kind is not Kind.PLAY:
            return None
        # the card as the hand prints it: the menu lists it once, whoever it then lands on
        what = self.tr.gettext(ACTIONS["play"]).format(cardx=self.described(s, dec.card))
        return what, self.described(s, dec.target), s.controller[dec.target]

    def decision(self, kind: str) -> str:
        return self.tr.gettext(DECISIONS[kind]) if kind in DECISIONS else kind.replace("_", " ")

    def localize_catalogue(self, catalogue: dict[str, Any]) -> dict[str, Any]:
        """The table's printed card faces with names, effect texts and flavour in this
        language (a copy)."""
        texts = self.texts
        out = copy.deepcopy(catalogue)
        for face in out.get("cards", []):
            i = face.get("index")
            if isinstance(i, int):
                face["name"], face["text"], face["flavour"] = texts.name(i), texts.text(i), texts.flavour(i)
                if texts.is_person(i):  # the page's words about a Character agree with it
                    face["gender"] = texts.gender(i)
                    face["cases"] = texts.cases(i)  # and name it in its case ("на {name:acc}")
                elif texts.forms(i):  # and so do the cards on its stack
                    face["forms"] = texts.forms(i)
        for fam in out.get("families", []):
            fam["name"] = texts.family_name(fam.get("id", ""))
            own = texts.families.get(fam.get("id", ""), {}).get("flavour")
            fam["flavour"] = own or fam.get("flavour", "")
        for icon, entry in out.get("icons", {}).items():  # a deck's own icons ([icons.<id>] name)
            entry["name"] = texts.icons.get(icon, {}).get("name") or entry.get("name", icon)
        return out

    def localize_view(self, view: dict[str, Any]) -> None:
        """Card and family names in a copy of a view, in this language, in place."""
        texts = self.texts

        def rename(ch: dict[str, Any]) -> None:
            if isinstance(ch.get("card"), int):
                ch["name"] = texts.name(ch["card"])
                if "text" in ch:
                    ch["text"] = texts.text(ch["card"])
        for fam in view.get("families", []):
            for ch in fam.get("characters", []) + fam.get("guests", []):
                rename(ch)
            if fam.get("story"):
                rename(fam["story"])
        middle = view.get("middle") or {}
        for ch in middle.get("guests", []) + middle.get("stories", []):
            rename(ch)
        for ch in view.get("characters_available", []):
            rename(ch)
        for fam in view.get("families_available", []):
            fam["name"] = texts.family_name(fam.get("id", ""))

    def _slots(self, values: list[Any], points: bool) -> str:
        out = []
        for v in values:
            if v is None:
                out.append("·")
            elif v == "blank":
                out.append("▮")
            elif points:
                out.append(f"{v:+d}")
            else:
                out.append(self.icon(v))
        return "/".join(out)

    def icon(self, name: str) -> str:
        return self.tr.gettext(ICONS[name]) if name in ICONS else name

    def _character_lines(self, ch: CharacterView) -> str:
        _, texts = self.tr.gettext, self.texts
        mark = "☠ " if ch["dead"] else "  "
        icons = ", ".join(self.icon(i) for i in ch["icons"])
        mark = self.tr.gendered(texts.gender(ch["card"]), GUEST_MARK) if ch.get("guest") else ""
        name = texts.name(ch["card"]) + mark
        out = [" {mark}{name:<32} {sw}  {pts}  {icons}".format(
            mark=mark, name=name, sw=_("Self-Worth {n}").format(n=f"{ch['self_worth']:+4d}"),
            pts=_("points {slots}").format(slots=self._slots(ch["points"], True)),
            icons=_("icons {icons}").format(icons=icons) if icons else _("no icons"))]
        gender = texts.gender(ch["card"])  # the cards on a stack agree with its Character
        if len(ch["stack"]) > 1:
            stack = " < ".join(texts.name(c, gender) for c in ch["stack"][1:])
            out.append("      " + _("stack (bottom to top): {cards}").format(cards=stack))
        for c in ch["live_effects"]:
            out.append("      " + _("live effect: {card}: {text}").format(
                card=texts.name(c, gender), text=texts.text(c)))
        return "\n".join(out)

    def _story_line(self, st: StoryView) -> str:
        need = ", ".join(f"{n} {self.icon(icon)}" for icon, n in st["requires"].items())
        return "  " + self.tr.gettext("Story {name} (needs {icons}): {text}").format(
            name=self.texts.name(st["card"]), icons=need, text=self.texts.text(st["card"]))

    def render(self, view: View, player: int | None) -> str:
        """The table as text, like ``games/gloom/render.py`` but in the reader's language."""
        return self._render(gloom_view(view), player)

    def _render(self, view: GloomView, player: int | None) -> str:
        _, tr, texts = self.tr.gettext, self.tr, self.texts
        lines: list[str] = []
        if view["over"]:
            lines.append(_("The game ended on turn {turn} (round {round}).").format(
                turn=view["turn"], round=view["round"]))
        elif view["turn"] == 0:
            lines.append(_("Setting up the table: player {p} will play first.").format(
                p=view["turn_player"] + 1))
        else:
            line = tr.ngettext("Turn {turn} (round {round}), player {p} to play; {n} play left",
                               "Turn {turn} (round {round}), player {p} to play; {n} plays left",
                               view["plays_left"]).format(turn=view["turn"], round=view["round"],
                                                          p=view["turn_player"] + 1,
                                                          n=view["plays_left"])
            if view["free_plays"]:
                free = {"any": "card", "untimely_death": "Untimely Death"}
                line += _(", free: {kinds}").format(kinds=", ".join(
                    tr.gettext(FREE_PLAY.get(free.get(k, k), k)) for k in view["free_plays"]))
            lines.append(line)
        lines.append(_("Draw pile {draw}, discard pile {discard}, hands {hands}").format(
            draw=view["draw_pile"], discard=len(view["discard"]), hands=view["hand_sizes"]))
        if view["characters_available"]:
            lines.append(_("Characters still to choose: {names}").format(
                names=", ".join(texts.name(ch["card"]) for ch in view["characters_available"])))
        middle = view["middle"]
        if middle["guests"] or middle["stories"]:
            lines.append("\n" + _("In the middle, uncontrolled:"))
            lines.extend(self._character_lines(ch) for ch in middle["guests"])
            lines.extend(self._story_line(st) for st in middle["stories"])
        for fam in view["families"]:
            p = fam["player"]
            head = (_("Player {p} (you)") if p == player else _("Player {p}")).format(p=p + 1)
            line = _("{who}: Family Value {value}, draw limit {limit}").format(
                who=head, value=fam["family_value"], limit=view["draw_limits"][p])
            if view["skips"][p]:
                line += tr.ngettext(", skips {n} turn", ", skips {n} turns",
                                    view["skips"][p]).format(n=view["skips"][p])
            lines.append("\n" + line)
            story = fam["story"]
            if story is not None:
                lines.append(self._story_line(story))
            lines.extend(self._character_lines(ch) for ch in fam["characters"] + fam["guests"])
        if view["in_play"]:
            lines.append("\n" + _("Being played: {cards}").format(
                cards=", ".join(texts.name(c) for c in view["in_play"])))
        if view["hand"] is not None and player is not None:
            lines.append("\n" + tr.ngettext("Your hand ({n} card, draw limit {limit}):",
                                            "Your hand ({n} cards, draw limit {limit}):",
                                            len(view["hand"])).format(
                n=len(view["hand"]), limit=view["draw_limits"][player]))
            for c in view["hand"]:
                card = self.deck.cards[c]
                bits = []
                if any(x is not None for x in card.points):
                    bits.append(_("points {slots}").format(slots=self._slots(list(card.points), True)))
                if any(i is not None for i in card.icons):
                    bits.append(_("icons {icons}").format(icons=self._slots(list(card.icons), False)))
                kind = tr.gettext(CARD_TYPES.get(card.type.value, card.type.value))
                text = texts.text(c)
                lines.append(f"  [{kind}] {texts.name(c)}  " + "  ".join(bits)
                             + (f"\n      {text}" if text else ""))
        res = view["result"]
        if res is not None:  # the game is over
            lines.append("\n" + _("Game over. Family Values: {scores}").format(scores=", ".join(
                f"{tr.player(p)}: {s}" for p, s in enumerate(res["scores"]))))
            lines.append(tr.ngettext("Winner: {names}", "Winners: {names}", len(res["winners"])).format(
                names=seats_list(tr, res["winners"]))
                + (_(" (the turn cap ended the game)") if res["capped"] else ""))
        return "\n".join(lines)
