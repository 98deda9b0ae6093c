"""The chronicle: the tale of a finished Gloom game, Character by Character.

Built by replaying a :class:`GameRecord` through the public engine API: the
events of each action say what was played on whom and by whom, the spectator
view says who each Character belongs to, how they ended and the Family Values.
Narration comes from the record (typed by the players, R-G27) or, where a play
has none, from the bots' narrator. Markdown for keeping, HTML for printing;
every text is escaped, since card and family names come from deck files.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import escape
from typing import Any

from gloomtable.designer.facts import characters_in
from gloomtable.engine import DeckGame, Event, GloomtableError
from gloomtable.engine.errors import ReplayError
from gloomtable.engine.record import GameRecord
from gloomtable.games import make_game, registry
from gloomtable.games.gloom.view import CharacterView, gloom_view
from gloomtable.i18n.catalog import Translator, translator
from gloomtable.i18n.chronicle_text import DIED, NOTHING, SURVIVED
from gloomtable.i18n.events import render
from gloomtable.i18n.grammar import Forms, and_list, seat, spanish_person
from gloomtable.i18n.markers import N_

"""The tale's lines that agree with the Character's grammatical gender (catalogue contexts)."""

TARGETS_CHARACTER = frozenset({"move", "return", "remove", "revive"})
"""Event kinds whose ``target`` is the Character something happened to."""
MOVES_CARD = frozenset({"follow"})
"""Event kinds whose ``card`` is a Character-like card that moved (a Guest following, R-H7)."""
TABLE_NEWS = frozenset({"claim", "story_returned"})
"""Event kinds told among the Events: Stories claimed and lost (R-H5)."""


def _en(ev: Event) -> str:
    """An event's line in the record's English (retold in the reader's language later)."""
    return render(ev, "en")


@dataclass
class Line:
    """One thing that happened to a Character (or, for Events, to the table)."""

    index: int
    text: str
    actor: int | None = None
    card: str | None = None
    narration: str | None = None
    cancelled_by: str | None = None
    death: bool = False
    stand_in: bool = False
    """A bot made this play for the absent ``actor`` (a stand-in): it is credited as such."""
    cancelled_seat: int | None = None
    cancelled_card: str | None = None
    event: Event | None = field(default=None, repr=False, compare=False)
    """What the line tells, as the engine told it, while the chronicle is being told (to
    retell it in the reader's language); ``None`` once it is told."""


@dataclass
class Tale:
    card: int
    name: str
    player: int | None
    family: str
    lines: list[Line] = field(default_factory=list)
    dead: bool = False
    death: str | None = None
    self_worth: int = 0
    gender: str = "masculine"
    """The Character's grammatical gender (deck data; masculine when the deck is silent)."""


@dataclass
class Chronicle:
    game: str
    seed: int
    players: int
    rounds: int
    capped: bool
    over: bool
    family_values: list[int]
    winners: list[int]
    family_names: list[str]
    tales: list[Tale]
    table: list[Line] = field(default_factory=list)
    """Events, responses and Stories: what happened on no Character."""
    seat_names: list[str] = field(default_factory=list)
    """How to call each seat ("Player 1" unless the table named its players)."""
    lang: str = "en"
    """The language of the names and lines (the Markdown and HTML speak it too)."""
    talk: list[tuple[int, str]] = field(default_factory=list)
    """The seats' table talk, (seat, line) oldest first: only where the table put it in
    its record (the ``talk_in_record`` table option, off by default)."""

    def who(self, p: int | None) -> str:
        """The seat ``p`` as the chronicle names it, with the forms its language's
        templates ask for (Spanish "del jugador 3", Russian "игрока 3")."""
        tr = translator(self.lang)
        if p is None:
            return seat(tr.lang, tr.gettext("someone"), None)
        if 0 <= p < len(self.seat_names):
            return Forms.of(self.seat_names[p])
        return seat(tr.lang, tr.gettext("Player {n}").format(n=p + 1), p + 1)

    def credit(self, line: Line) -> str:
        """Who made a play: the seat, or the bot that stood in for them."""
        if not line.stand_in:
            return self.who(line.actor)
        return translator(self.lang).gettext("{who}'s stand-in bot").format(who=self.who(line.actor))

    def tales_of(self, player: int) -> list[Tale]:
        return [t for t in self.tales if t.player == player]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the told lines (a told chronicle keeps no events)."""
        from dataclasses import asdict

        out = asdict(self)
        for ln in [x for t in out["tales"] for x in t["lines"]] + out["table"]:
            del ln["event"]
        return out


class ChronicleError(GloomtableError, ValueError):
    """The record cannot be told as a chronicle (wrong game, or it does not end)."""


def _narrator() -> Any:
    try:
        from gloomtable.bots.narration import narrate
    except ImportError:  # the narrator is optional: typed lines still tell the tale
        return None
    return narrate


def build_chronicle(record: GameRecord, narrate: bool = True, allow_unfinished: bool = False,
                    seat_names: list[str] | None = None, stand_ins: frozenset[int] = frozenset(),
                    lang: str = "en") -> Chronicle:
    """Replay ``record`` and gather every Character's tale in order, told in ``lang``
    (names from the deck's translation files, lines through the client formatter,
    card names agreeing with the Character they befell). ``stand_ins``: the indices of
    actions a bot made for an absent person (credited to the stand-in)."""
    game = make_game(record.game, record.config)
    if not isinstance(game, DeckGame):
        raise ChronicleError(f"the chronicle tells Gloom games; this record is a game of {record.game}")
    deck = game.deck
    cards = deck.cards
    family_name = {f.id: f.name for f in deck.families}
    narrator = _narrator() if narrate else None
    state = game.new_initial_state(record.seed)
    tales: dict[int, Tale] = {}
    table: list[Line] = []
    by_card: dict[int, Line] = {}  # the latest line for each card played, to mark cancellations

    def tale(c: int, info: CharacterView | None) -> Tale:
        if c not in tales:
            fam = family_name.get(cards[c].family or "", "")
            tales[c] = Tale(c, info.get("name", cards[c].name) if info else cards[c].name,
                            info.get("controller") if info else None, fam,
                            gender=getattr(cards[c], "gender", None) or "masculine")
        return tales[c]

    for i, action in enumerate(record.actions):
        if state.is_over():
            raise ReplayError(i, "the game was already over")
        before = gloom_view(state.view(None))
        chars = characters_in(before)
        try:
            events = state.apply(action)
        except GloomtableError as exc:
            raise ReplayError(i, str(exc)) from exc
        said = record.narration.get(i)
        if said is None and narrator is not None and any(e.kind in ("play", "response") for e in events):
            said = narrator(record.game, before, action, record.seed + i)
        for ev in events:
            name = cards[ev.card].name if ev.card is not None and 0 <= ev.card < len(cards) else None
            if ev.kind == "play":
                line = Line(i, _en(ev), ev.player, name, said, stand_in=i in stand_ins, event=ev)
                by_card[ev.card if ev.card is not None else -1] = line
                if ev.target is not None:
                    tale(ev.target, chars.get(ev.target)).lines.append(line)
                else:
                    table.append(line)
            elif ev.kind == "response":
                line = Line(i, _en(ev), ev.player, name, said, stand_in=i in stand_ins, event=ev)
                table.append(line)
                hit = by_card.get(ev.target if ev.target is not None else -2)
                if hit is not None:
                    hit.cancelled_by = f"{_seat(seat_names, ev.player)}'s {name}"
                    hit.cancelled_seat, hit.cancelled_card = ev.player, name
            elif ev.kind == "death" and ev.target is not None:
                t = tale(ev.target, chars.get(ev.target))
                t.lines.append(Line(i, _en(ev), ev.player, name, death=True, event=ev))
            elif ev.kind in TARGETS_CHARACTER and ev.target is not None:
                tale(ev.target, chars.get(ev.target)).lines.append(
                    Line(i, _en(ev), ev.player, name, event=ev))
            elif ev.kind in MOVES_CARD and ev.card is not None:
                tale(ev.card, chars.get(ev.card)).lines.append(
                    Line(i, _en(ev), ev.player, name, event=ev))
            elif ev.kind in TABLE_NEWS:
                table.append(Line(i, _en(ev), ev.player, name, event=ev))
    if not state.is_over() and not allow_unfinished:
        raise ChronicleError("the record stops before the end of the game, so its tale is unfinished")
    final = gloom_view(state.view(None))
    ordered: list[Tale] = []
    for fam in final["families"]:
        for ch in fam["characters"]:
            t = tale(ch["card"], ch)
            t.player = fam["player"]
            ordered.append(t)
    for c, info in characters_in(final).items():  # Guests and the like, after the families
        if all(t.card != c for t in ordered):
            t = tale(c, info)
            t.player = info["controller"]
            ordered.append(t)
    for t in ordered:
        shown = characters_in(final).get(t.card)
        t.self_worth = 0 if shown is None else shown["self_worth"]
        t.dead = shown is not None and shown["dead"]
        deaths = [ln for ln in t.lines if ln.death]
        t.death = deaths[-1].card if t.dead and deaths else None
    n = game.num_players
    fam_names = []
    for p in range(n):
        names = {t.family for t in ordered if t.player == p and t.family}
        fam_names.append(" & ".join(sorted(names)) or f"Player {p + 1}'s family")
    if state.is_over():
        res = state.result()
        fvs, winners, capped = list(res.scores), list(res.winners), res.capped
        rounds = int(res.details.get("rounds", 0))
    else:
        fvs = [int(f.get("family_value", 0)) for f in final.get("families", [])]
        winners, capped, rounds = [], False, int(final.get("round", 0))
    seats = [_seat(seat_names, p) for p in range(n)]
    chron = Chronicle(record.game, record.seed, n, rounds, capped, state.is_over(), fvs, winners,
                      fam_names, ordered, table, seats)
    told = chron if lang == "en" else _told_in(chron, game, lang)
    from gloomtable.i18n.narration_text import tell

    for ln in [x for t in told.tales for x in t.lines] + told.table:
        ln.event = None  # told: a chronicle travels (pickled, as JSON) without its game
        if lang == "en" and ln.narration:  # a bot's told line in English; a person's words
            ln.narration = tell(game, ln.narration, "en")
    return told


def _told_in(c: Chronicle, game: Any, lang: str) -> Chronicle:
    """``c`` with its names and lines in ``lang`` (the engine's English, re-rendered)."""
    from gloomtable.i18n.client import localizer_for

    tr = translator(lang)
    loc = localizer_for(game, tr.lang)
    texts = registry.entry(game.name).deck_texts(game, tr.lang)  # the game's own (its hooks)
    c.lang = tr.lang
    c.seat_names = [seat_label(name, tr) for name in c.seat_names]
    index_of = {card.name: card.index for card in game.deck.cards}
    title = tr.gettext("\u201c{title}\u201d")

    def card_name(english: str | None, gender: str | None) -> str | None:
        if english is None or english not in index_of:
            return english
        return title.format(title=texts.name(index_of[english], gender))

    def line(ln: Line, gender: str | None) -> None:
        if ln.event is not None:
            ln.text = loc.event(ln.event)
        if ln.narration:  # a bot's line from its template; a person's words as written
            ln.narration = loc.narration(ln.narration)
        if ln.cancelled_by is not None and ln.cancelled_card is not None:
            ln.cancelled_by = tr.gettext("{card} of {who}").format(
                card=card_name(ln.cancelled_card, None), who=c.who(ln.cancelled_seat))
        ln.card = card_name(ln.card, gender)

    for t in c.tales:
        t.gender = texts.gender(t.card)
        t.name = texts.name(t.card)
        for ln in t.lines:
            line(ln, t.gender)
        t.death = card_name(t.death, t.gender)
    for ln in c.table:
        line(ln, None)
    english_families = {f.name: texts.family_name(f.id) for f in game.deck.families}
    c.family_names = [" & ".join(english_families.get(part, part) for part in name.split(" & "))
                      for name in c.family_names]
    return c


def seat_label(name: str, tr: Translator) -> str:
    """A seat's name in ``tr``'s language when it is one the server gives by default
    ("Player 2", "Bot 3 (medium)"); a name someone chose stays as they wrote it."""
    m = re.fullmatch(r"Player (\d+)", name)
    if m:  # a seat, declined as one ("del jugador 2"), not a person called "Jugador 2"
        return seat(tr.lang, tr.gettext("Player {n}").format(n=m.group(1)), int(m.group(1)))
    m = re.fullmatch(r"Bot (\d+) \((random|easy|medium|hard)\)", name)
    if m:
        name = tr.gettext("Bot {n} ({level})").format(n=m.group(1), level=tr.gettext(m.group(2)))
    return Forms(name, spanish_person(name) if tr.lang == "es" else {}, person=True)


def _seat(names: list[str] | None, p: int | None) -> str:
    if p is None:
        return "someone"
    return names[p] if names and 0 <= p < len(names) and names[p] else f"Player {p + 1}"


# --- Markdown -------------------------------------------------------------------

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>#|~])")


def md(text: str) -> str:
    """Escape Markdown's special characters so names print as written."""
    return _MD_SPECIAL.sub(r"\\\1", text)


def _played(c: Chronicle, line: Line) -> bool:
    """A card played by a seat (told as "<who> played <card>"), in the record's English."""
    return c.lang == "en" and line.card is not None and line.text.startswith(("Player", "player"))


def _told(line: Line) -> bool:
    """Whether the line's narration is told: never for a card that was cancelled (a
    bot's line tells what the card did, and a cancelled card did nothing, R-G20)."""
    return bool(line.narration) and not line.cancelled_by


def _continued(line: Line) -> str:
    """The line's text, without its full stop when a cancellation or narration follows."""
    more = line.cancelled_by or _told(line) or line.stand_in
    return line.text[:-1] if more and line.text.endswith(".") else line.text


def _line_md(c: Chronicle, line: Line) -> str:
    tr = translator(c.lang)
    if line.death:
        out = f"☠ {md(line.text)}"
    elif _played(c, line):
        out = f"{md(c.credit(line))} played **{md(line.card or '')}**"
    else:  # a told line's full stop gives way to what continues it
        out = md(_continued(line)) + (f" ({md(c.credit(line))})" if line.stand_in else "")
    if line.cancelled_by:
        out += " (" + md(tr.gettext("cancelled by {who}").format(who=line.cancelled_by)) + ")"
    if _told(line):
        out += f": *{md(line.narration or '')}*"
    return out


def _ending(t: Tale, tr: Translator) -> str:
    """How the tale ends, in the form that agrees with the Character's gender."""
    sw = f"{t.self_worth:+d}"
    if t.dead:
        return tr.gendered(t.gender, DIED).format(
            death=t.death or tr.gettext("an Untimely Death"), sw=sw)
    return tr.gendered(t.gender, SURVIVED).format(sw=sw)


def _summary(c: Chronicle) -> str:
    tr = translator(c.lang)
    if not c.over:
        return tr.gettext("The game is not over yet.")
    cap = " " + tr.gettext("The table's turn cap ended it.") if c.capped else ""
    if len(c.winners) == 1:  # a sentence, not "won: Player 3 (Castle Slogar)"
        w = c.winners[0]
        return tr.ngettext("After {n} round, {family}, the family of {who}, was the gloomiest and won.",
                           "After {n} rounds, {family}, the family of {who}, was the gloomiest and won.",
                           c.rounds).format(n=c.rounds, family=c.family_names[w], who=c.who(w)) + cap
    who = and_list(tr, [Forms.of(c.who(w)) for w in c.winners])
    return tr.ngettext("After {n} round, the families of {who} were equally gloomy and shared the win.",
                       "After {n} rounds, the families of {who} were equally gloomy and shared the win.",
                       c.rounds).format(n=c.rounds, who=who) + cap


def _title(c: Chronicle) -> str:
    tr = translator(c.lang)
    entry = registry.find(c.game)
    name = c.game.capitalize() if entry is None else entry.short_title
    return tr.gettext("The chronicle of a game of {game}").format(game=tr.gettext(name))


def _family_head(c: Chronicle, p: int) -> str:
    tr = translator(c.lang)
    return tr.gettext("{who}: {family} (Family Value {value})").format(
        who=c.who(p), family=c.family_names[p], value=f"{c.family_values[p]:+d}")


def chronicle_markdown(c: Chronicle) -> str:
    tr = translator(c.lang)
    _ = tr.gettext
    out = [f"# {md(_title(c))}", "",
           md(tr.ngettext("{n} player, seed {seed}.", "{n} players, seed {seed}.", c.players).format(
               n=c.players, seed=c.seed)) + f" {md(_summary(c))}", ""]
    for p in range(c.players):
        out += [f"## {md(_family_head(c, p))}", ""]
        for t in c.tales_of(p):
            out += [f"### {md(t.name)}: {md(_ending(t, tr))}", ""]
            if not t.lines:
                out += [md(tr.gendered(t.gender, NOTHING)), ""]
            out += [f"{k}. {_line_md(c, line)}" for k, line in enumerate(t.lines, 1)]
            out.append("")
    others = [t for t in c.tales if t.player is None or not 0 <= t.player < c.players]
    if others:
        out += [f"## {md(_(NOBODY))}", ""]
        for t in others:
            out += [f"### {md(t.name)}: {md(_ending(t, tr))}", ""]
            out += [f"{k}. {_line_md(c, line)}" for k, line in enumerate(t.lines, 1)]
            out.append("")
    if c.table:
        out += [f"## {md(_('Events, responses and Stories'))}", ""]
        out += [f"{k}. {_line_md(c, line)}" for k, line in enumerate(c.table, 1)]
        out.append("")
    if c.talk:
        out += [f"## {md(_(TABLE_TALK))}", ""]
        out += [f"- {md(c.who(seat))}: {md(text)}" for seat, text in c.talk]
        out.append("")
    out += [f"## {md(_('Family Values'))}", "",
            f"| {md(_('player'))} | {md(_('family'))} | {md(_('Family Value'))} | |",
            "| --- | --- | ---: | --- |"]
    for p in range(c.players):
        mark = md(_("winner")) if p in c.winners else ""
        out.append(f"| {md(c.who(p))} | {md(c.family_names[p])} | {c.family_values[p]:+d} | {mark} |")
    out.append("")
    return "\n".join(out)


NOBODY = N_("In nobody's family")
TABLE_TALK = N_("Table talk")


# --- HTML -----------------------------------------------------------------------

_CSS = """
body { font: 16px/1.5 Georgia, 'Times New Roman', serif; max-width: 44em; margin: 2em auto;
       padding: 0 1em; color: #1d1a17; background: #fdfaf3; }
h1 { font-weight: normal; text-align: center; letter-spacing: .04em; }
h2 { font-weight: normal; border-bottom: 1px solid #999; margin-top: 2em; }
h3 { margin-bottom: .2em; } .ending { color: #5b4636; font-style: italic; }
ol { margin-top: .3em; } li { margin: .15em 0; } .narration { font-style: italic; color: #4b3b6b; }
.death { color: #7b1e1e; } .cancelled { text-decoration: line-through; }
table { border-collapse: collapse; } td, th { padding: .2em .8em; border-bottom: 1px solid #ccc; }
.winner { font-weight: bold; }
@media print { body { background: white; margin: 0; } h2 { break-after: avoid; }
               section.family { break-inside: avoid-page; } }
"""


def _line_html(c: Chronicle, line: Line) -> str:
    tr = translator(c.lang)
    if line.death:
        body = f'<span class="death">☠ {escape(line.text)}</span>'
    elif _played(c, line):
        cls = ' class="cancelled"' if line.cancelled_by else ""
        body = f"{escape(c.credit(line))} played <b{cls}>{escape(line.card or '')}</b>"
    else:
        body = escape(_continued(line)) + (f" ({escape(c.credit(line))})" if line.stand_in else "")
    if line.cancelled_by:
        body += " (" + escape(tr.gettext("cancelled by {who}").format(who=line.cancelled_by)) + ")"
    if _told(line):
        body += f': <span class="narration">{escape(line.narration or "")}</span>'
    return f"<li>{body}</li>"


def _tale_html(c: Chronicle, t: Tale) -> str:
    tr = translator(c.lang)
    items = "".join(_line_html(c, ln) for ln in t.lines) or (
        f"<li>{escape(tr.gendered(t.gender, NOTHING))}</li>")
    return (f'<article class="tale" data-card="{t.card}"><h3>{escape(t.name)}</h3>'
            f'<div class="ending">{escape(_ending(t, tr))}</div><ol>{items}</ol></article>')


def chronicle_html(c: Chronicle) -> str:
    """A printable page: one section per family, then the Family Values."""
    _ = translator(c.lang).gettext
    parts = [f'<section class="family" data-player="{p}"><h2>{escape(_family_head(c, p))}</h2>'
             + "".join(_tale_html(c, t) for t in c.tales_of(p)) + "</section>"
             for p in range(c.players)]
    others = [t for t in c.tales if t.player is None or not 0 <= t.player < c.players]
    if others:
        parts.append(f'<section class="family"><h2>{escape(_(NOBODY))}</h2>'
                     + "".join(_tale_html(c, t) for t in others) + "</section>")
    if c.table:
        parts.append(f"<section><h2>{escape(_('Events, responses and Stories'))}</h2><ol>"
                     + "".join(_line_html(c, ln) for ln in c.table) + "</ol></section>")
    if c.talk:
        said = "".join(f"<li><b>{escape(c.who(seat))}</b>: {escape(text)}</li>" for seat, text in c.talk)
        parts.append(f'<section class="talk"><h2>{escape(_(TABLE_TALK))}</h2><ul>{said}</ul></section>')
    winner = escape(_("winner"))
    rows = "".join(
        f'<tr class="{"winner" if p in c.winners else ""}"><td>{escape(c.who(p))}</td>'
        f"<td>{escape(c.family_names[p])}</td><td>{c.family_values[p]:+d}</td>"
        f'<td>{winner if p in c.winners else ""}</td></tr>' for p in range(c.players))
    parts.append(f'<section><h2>{escape(_("Family Values"))}</h2><table id="family-values"><tr>'
                 f'<th>{escape(_("player"))}</th><th>{escape(_("family"))}</th>'
                 f'<th>{escape(_("Family Value"))}</th><th></th></tr>{rows}</table></section>')
    title = _title(c)
    players = translator(c.lang).ngettext("{n} player, seed {seed}.", "{n} players, seed {seed}.",
                                          c.players).format(n=c.players, seed=c.seed)
    return (f'<!doctype html><html lang="{escape(c.lang)}"><head><meta charset="utf-8">'
            f"<title>{escape(title)}</title>"
            f"<style>{_CSS}</style></head><body><h1>{escape(title)}</h1>"
            f"<p>{escape(players)} {escape(_summary(c))}</p>"
            + "".join(parts) + "</body></html>\n")
