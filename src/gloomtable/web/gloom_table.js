// The Gloom (and Gloomier) board: every family's Characters as SVG stacks with
// their Self-Worth and icons beside them (opponents compact, a click expands
// them), the middle (pile, discard, the card in play, Stories and Guests), your
// hand docked at the bottom, and the choices: pick a card, its legal targets
// light up, and a click anywhere on a lit Character plays it there.
// Any card zooms (hover, focus, long press): the page's zoom shows it in words.

import { h, replace } from "./dom.js";
import { _, ngettext, pgettext } from "./i18n.js";
import { cardBackSVG, cardDetails, cardLabel, cardSVG, iconLabel, ICONS, stackSVG, typeLabel } from "./cards.js";

/** "dead" agreeing with the Character's grammatical gender (its face, the bottom card). */
function deadWord(faces) {
  return pgettext(faces.length ? faces[0].gender : null, "dead");
}

/** "Guest" agreeing with the Guest's grammatical gender ("Invitada", "Гостья"). */
function guestWord(faces) {
  return pgettext(faces.length ? faces[0].gender : null, "Guest");
}

/** A stack's faces with each card named in the form that agrees with its Character
 *  (the bottom card; the catalogue's "forms" by gender). */
function agreeing(faces) {
  const g = faces.length ? faces[0].gender : null;
  return faces.map((f) => (g && f && f.forms && f.forms[g] ? { ...f, name: f.forms[g] } : f));
}

const DECISIONS = {
  play: () => _("play a card, or pass"),
  respond: () => _("respond to the card being played, or let it stand"),
  choose_family: () => _("choose a family"),
  choose_character: () => _("choose a Character for your family"),
  set_aside: () => _("set a card aside"),
  discard: () => _("discard a card"),
  choose_player: () => _("choose a player"),
  choose_card: () => _("choose a card"),
  move_modifier_from: () => _("choose the Character to move a Modifier from"),
  move_modifier_to: () => _("choose the Character to move the Modifier to"),
  remove_modifier: () => _("choose a Modifier to remove"),
  return_modifier: () => _("choose a Modifier to return to its owner's hand"),
  revive: () => _("choose a dead Character to bring back"),
  skip_turn: () => _("choose a player who skips their next turn"),
  steal_from: () => _("choose a player to take a card from"),
  swap_hands_with: () => _("choose a player to swap hands with"),
  choose_target: () => _("choose a Character"),
  claim_story: () => _("claim a Story"),
};

function decisionLabel(kind) {
  return DECISIONS[kind] ? DECISIONS[kind]() : String(kind || "").replace(/_/g, " ");
}

const HAND_KINDS = new Set(["play", "play_event", "respond", "discard_one", "choose_card"]);

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

export class GloomBoard {
  constructor(page) {
    this.page = page;
    this.layers = new Map(); // Character card id -> layers shown (null: all)
    this.selected = null;
    this.lastStateId = null;
    this.expanded = new Set(); // opponents' families shown full size
    this.stacks = null; // Character card id -> its stack, as last drawn
    this.lastPlay = null; // {char, card, covered, state}
  }

  face(id) {
    return (this.page.catalogue.cards && this.page.catalogue.cards[id]) ||
      { index: id, name: _("card {n}", { n: id }), type: "modifier", prints: [] };
  }

  handCounts(view) {
    return view.hand_sizes;
  }

  decisionText(m, mine) {
    const d = m.view.decision;
    if (!d) return "";
    let text = decisionLabel(d.kind);
    if (mine && d.kind === "play") {
      text += " \u2014 " + ngettext("{n} play left this turn", "{n} plays left this turn", m.view.plays_left);
    }
    return mine ? _("Your decision: {what}", { what: text }) : text;
  }

  /** The "let it stand" of a response window (R-G19), for the page's automatic answer. */
  letItStand(m) {
    const d = m.view.decision;
    if (!d || d.kind !== "respond") return null;
    const c = m.choices.find((x) => x.kind === "pass");
    return c ? c.action : null;
  }

  escape() {
    if (this.selected === null) return false;
    this.selected = null;
    this.page.render();
    return true;
  }

  // --- choices ----------------------------------------------------------------------

  handChoices(m) {
    const hand = new Set(m.view.hand || []);
    return m.choices.filter((c) => HAND_KINDS.has(c.kind) && c.card !== undefined && hand.has(c.card));
  }

  targetsOf(m, card) {
    const t = new Map();
    for (const c of m.choices) if (c.kind === "play" && c.card === card && c.target !== undefined) t.set(c.target, c);
    return t;
  }

  /** Choices that name a card on the table (a Character to move from, to revive, ...):
   *  those Characters light up too, besides their buttons. */
  tableTargets(m) {
    const hand = new Set(m.view.hand || []);
    const t = new Map();
    for (const c of m.choices) if (c.kind === "choose_card" && !hand.has(c.card)) t.set(c.card, c);
    return t;
  }

  // --- the last play ------------------------------------------------------------------

  /** Compare every stack with the one drawn before: a stack one card taller with a new
   *  top is where the last card landed (on what it covered). */
  noteLastPlay(m) {
    const now = new Map();
    const all = [];
    for (const fam of m.view.families || []) all.push(...(fam.characters || []), ...(fam.guests || []));
    for (const g of (m.view.middle && m.view.middle.guests) || []) all.push(g);
    for (const c of all) now.set(c.card, c.stack);
    if (this.stacks) {
      for (const [card, stack] of now) {
        const before = this.stacks.get(card);
        if (before && stack.length === before.length + 1 && stack[stack.length - 1] !== before[before.length - 1]) {
          this.lastPlay = { char: card, card: stack[stack.length - 1], covered: before[before.length - 1],
            state: m.state_id };
        }
      }
    }
    this.stacks = now;
  }

  // --- drawing ------------------------------------------------------------------------

  render(el, m) {
    if (m.state_id !== this.lastStateId) {
      this.lastStateId = m.state_id;
      const playable = new Set(this.handChoices(m).map((c) => c.card));
      if (!playable.has(this.selected)) this.selected = null;
      this.noteLastPlay(m);
    }
    const v = m.view;
    let targets = new Map();
    if (this.page.isMine()) targets = this.selected !== null ? this.targetsOf(m, this.selected) : this.tableTargets(m);
    const fams = v.families || [];
    const me = fams.filter((f) => f.player === this.page.seat);
    const others = fams.filter((f) => f.player !== this.page.seat);
    const tabs = h("nav", { class: "family-tabs", "aria-label": _("Families") }, fams.map((f) => {
      const lit = (f.characters || []).some((c) => targets.has(c.card));
      return h("button", { type: "button", class: `family-tab${lit ? " lit" : ""}`, "data-player": f.player,
        onclick: () => {
          const t = el.querySelector(`[data-testid=family-${f.player}]`);
          if (t) t.scrollIntoView({ block: "nearest", inline: "start", behavior: "instant" });
        } }, this.page.seatName(f.player));
    }));
    replace(el,
      this.middle(m, targets),
      fams.length > 1 ? tabs : null,
      // before the draft ends the families hold nothing to focus, yet a phone's row of
      // them scrolls sideways: the row itself takes the keyboard then
      h("div", { class: "families", "data-count": fams.length, role: "group", "aria-label": _("Families"),
        tabindex: fams.some((f) => (f.characters || []).length) ? null : 0 },
        me.map((f) => this.familyPanel(m, f, targets, false)),
        others.map((f) => this.familyPanel(m, f, targets, !this.expanded.has(f.player)))));
  }

  familyPanel(m, fam, targets, compact) {
    const p = fam.player;
    const mine = p === this.page.seat;
    const chars = (fam.characters || []).map((c) => this.character(c, targets, compact));
    const guests = (fam.guests || []).map((c) => this.character(c, targets, compact));
    const story = fam.story ? h("div", { class: "story-held" }, this.page.zoomable(
      h("div", { class: "card-zoom", tabindex: 0, "data-focus": `story-${fam.story.card}` },
        cardSVG(this.face(fam.story.card))), () => cardDetails(this.face(fam.story.card)))) : null;
    const seat = (this.page.msg.seats || [])[p];
    const away = seat && seat.kind !== "bot" && !seat.connected;
    const toggle = mine ? null : h("button", { type: "button", class: "family-toggle",
      "aria-expanded": compact ? "false" : "true", "data-testid": `family-toggle-${p}`,
      onclick: () => {
        if (this.expanded.has(p)) this.expanded.delete(p); else this.expanded.add(p);
        this.page.render();
      } }, compact ? _("Expand") : _("Compact"));
    return h("section", { class: `family${mine ? " mine" : ""}${m.deciding === p ? " deciding" : ""}${compact ? " compact" : ""}`,
      "data-player": p, "data-testid": `family-${p}`, "aria-label": this.page.seatName(p) },
    h("div", { class: "family-head" },
      h("span", { class: "family-owner" }, this.page.seatName(p), mine ? ` (${_("you")})` : "",
        away ? h("span", { class: "away-tag" }, ` (${_("away")})`) : null),
      h("span", { class: "family-value", "data-testid": `family-value-${p}` },
        _("Family Value: {v}", { v: fam.family_value })), toggle),
    h("div", { class: "characters" }, chars, guests, story));
  }

  characterLabel(c, faces) {
    const parts = [c.name, c.guest ? guestWord(faces) : _("Character"),
      _("Self-Worth {points}", { points: signed(c.self_worth) })];
    if (c.dead) parts.push(deadWord(faces));
    if (c.icons && c.icons.length) parts.push(_("icons: {icons}", { icons: c.icons.map(iconLabel).join(", ") }));
    if (faces.length > 1) {
      parts.push(ngettext("{n} card on the stack: {names}", "{n} cards on the stack: {names}", faces.length,
        { names: faces.slice().reverse().map((f) => f.name).join(", ") }));
    }
    return parts.join(", ");
  }

  /** The zoom of a stack: every card top to bottom, in words. */
  stackZoom(c, faces) {
    const n = faces.length;
    const last = this.lastPlay && this.lastPlay.char === c.card ? this.lastPlay : null;
    const head = h("div", { class: "zoom-stack-head" }, h("strong", {}, c.name), " ",
      _("Self-Worth {points}", { points: signed(c.self_worth) }), c.dead ? ` \u2620 ${deadWord(faces)}` : "",
      c.icons && c.icons.length ? ` \u00B7 ${c.icons.map(iconLabel).join(", ")}` : "");
    const cards = faces.map((f, i) => {
      let note = n > 1 ? _("layer {k} of {n}", { k: i + 1, n }) : "";
      if (last && last.card === f.index) note += ` \u00B7 ${_("just played")}`;
      return cardDetails(f, { note });
    }).reverse();
    return [head, h("div", { class: "zoom-cards" }, cards)];
  }

  character(c, targets, compact) {
    const faces = agreeing(c.stack.map((id) => this.face(id)));
    const upto = this.layers.has(c.card) ? this.layers.get(c.card) : null;
    const target = targets.get(c.card);
    const label = this.characterLabel(c, faces);
    const stack = stackSVG(faces, { upto, dead: c.dead, label });
    const n = faces.length;
    const shown = upto === null ? n : upto;
    const step = (d) => {
      const next = Math.max(1, Math.min(n, shown + d));
      this.layers.set(c.card, next === n ? null : next);
      this.page.render();
    };
    const layerFace = faces[shown - 1];
    const last = this.lastPlay && this.lastPlay.char === c.card ? this.lastPlay : null;
    const fresh = last && last.state === this.lastStateId;
    const icons = (c.icons || []).map((i) => h("span", { class: `icon-chip icon-${i}`, title: iconLabel(i) },
      ICONS[i] ? ICONS[i].glyph : "?", compact ? "" : ` ${iconLabel(i)}`));
    const named = (id) => faces.find((f) => f && f.index === id) || this.face(id);
    const live = (c.live_effects || []).map((id) => h("li", {}, named(id).name));
    const cls = ["character", c.dead ? "dead" : "", target ? "target" : "", c.guest ? "guest" : "",
      last ? "last-play" : "", fresh ? "landing" : ""];
    const attrs = { class: cls.filter(Boolean).join(" "), "data-char": c.card, "data-testid": `character-${c.card}` };
    const el = h("div", attrs,
      h("div", { class: "stack-wrap", tabindex: target ? -1 : 0, "data-focus": `stack-${c.card}`,
        role: "group", "aria-label": label }, stack),
      h("div", { class: "summary" },
        h("div", { class: "char-name" }, c.name, c.guest ? ` (${guestWord(faces)})` : ""),
        h("div", { class: "self-worth", "data-testid": `self-worth-${c.card}` },
          h("span", { class: "sw-label" }, _("Self-Worth")), " ",
          h("span", { class: "sw-value" }, signed(c.self_worth))),
        c.dead ? h("div", { class: "dead-mark" }, "\u2620 ", deadWord(faces)) : null,
        icons.length ? h("div", { class: "icons" }, icons) : null,
        last ? h("div", { class: "last-note", "data-testid": `last-play-${c.card}` },
          _("Just played: {card}", { card: named(last.card).name }),
          last.covered !== undefined ? h("span", { class: "covered" }, " ",
            _("(covers {card})", { card: named(last.covered).name })) : null) : null,
        !compact && live.length ? h("div", { class: "live" }, h("span", {}, _("Live effects:")), h("ul", {}, live)) : null,
        !compact && n > 1 ? h("div", { class: "layers", "data-testid": `layers-${c.card}` },
          h("button", { type: "button", class: "layer-down", "aria-label": _("Fewer layers"),
            onclick: (ev) => { ev.stopPropagation(); step(-1); }, disabled: shown <= 1 }, "\u25C0"),
          h("span", { class: "layer-pos" }, _("layer {k} of {n}", { k: shown, n })),
          h("button", { type: "button", class: "layer-up", "aria-label": _("More layers"),
            onclick: (ev) => { ev.stopPropagation(); step(1); }, disabled: shown >= n }, "\u25B6"),
          h("div", { class: "layer-name" }, layerFace.name, " (", typeLabel(layerFace.type), ")")) : null),
      // a lit Character is one big button over everything it shows: a click anywhere
      // on it plays the card there (the layer arrows underneath never take it)
      target ? h("button", { type: "button", class: "target-hit", "data-focus": `target-${c.card}`,
        "data-action": target.action, "aria-label": this.page.names(target.text),
        onclick: (ev) => { ev.stopPropagation(); this.page.act(target.action); } }) : null);
    return this.page.zoomable(el, () => this.stackZoom(c, faces));
  }

  middle(m, targets) {
    const v = m.view;
    const top = v.discard && v.discard.length ? v.discard[v.discard.length - 1] : null;
    const playing = v.playing;
    const mid = v.middle || {};
    const zoomCard = (id, key) => this.page.zoomable(h("div", { class: "card-zoom", tabindex: 0, "data-focus": key },
      cardSVG(this.face(id))), () => cardDetails(this.face(id)));
    const parts = [
      h("div", { class: "pile" }, h("div", { class: "pile-label" }, _("Draw pile")), cardBackSVG(v.draw_pile)),
      h("div", { class: "pile" }, h("div", { class: "pile-label" },
        ngettext("Discard ({n} card)", "Discard ({n} cards)", (v.discard || []).length)),
      top !== null ? zoomCard(top, "discard") : h("div", { class: "empty-pile" }, _("empty"))),
    ];
    if (v.in_play && v.in_play.length) {
      const c = v.in_play[v.in_play.length - 1];
      const on = playing && playing.target !== null && playing.target !== undefined
        ? _("on {name}", { name: this.face(playing.target).name,
          forms: { name: this.face(playing.target).cases } }) : "";
      parts.push(h("div", { class: "pile in-play landing", "data-testid": "in-play" },
        h("div", { class: "pile-label" }, _("Being played"), " ", on), zoomCard(c, "in-play")));
    }
    const guests = (mid.guests || []).map((g) => this.character(g, targets, false));
    const stories = (mid.stories || []).map((st) => h("div", { class: "story", "data-card": st.card },
      zoomCard(st.card, `story-${st.card}`)));
    if (guests.length || stories.length) {
      parts.push(h("div", { class: "middle-gloomier", "data-testid": "middle" },
        h("div", { class: "pile-label" }, _("In the middle: Stories and Guests")),
        h("div", { class: "characters" }, stories, guests)));
    }
    return h("section", { class: "middle", "aria-label": _("The middle of the table") }, parts);
  }

  renderHand(el, m) {
    const v = m.view;
    if (v.hand === null || v.hand === undefined) {
      replace(el, h("div", { class: "hand spectator", "data-testid": "hand" }, _("Spectators see no hands.")));
      return;
    }
    const playable = new Set(this.page.isMine() ? this.handChoices(m).map((c) => c.card) : []);
    const cards = v.hand.map((id) => {
      const face = this.face(id);
      const cls = ["hand-card", playable.has(id) ? "playable" : "", this.selected === id ? "selected" : ""];
      const attrs = { class: cls.filter(Boolean).join(" "), "data-card": id, "data-testid": `hand-card-${id}`,
        tabindex: 0, "data-focus": `hand-${id}`, "aria-label": cardLabel(face) };
      if (playable.has(id)) {
        const pick = () => {
          this.selected = this.selected === id ? null : id;
          this.page.holdOn();
          this.page.render();
        };
        attrs.onclick = pick;
        attrs.onkeydown = (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); pick(); } };
        attrs.role = "button";
        attrs["aria-pressed"] = this.selected === id ? "true" : "false";
      } else {
        attrs.role = "img";
      }
      return this.page.zoomable(h("div", attrs, cardSVG(face), h("div", { class: "hand-name" }, face.name)),
        () => cardDetails(face));
    });
    replace(el, h("div", { class: "hand", "data-testid": "hand" },
      h("h2", {}, ngettext("Your hand ({n} card)", "Your hand ({n} cards)", v.hand.length)),
      h("div", { class: "hand-cards" }, cards)));
  }

  prompt(m) {
    const hand = new Set(m.view.hand || []);
    const general = m.choices.filter((c) => !(HAND_KINDS.has(c.kind) && hand.has(c.card)));
    const parts = [];
    if (this.selected !== null) {
      const f = this.face(this.selected);
      const mine = m.choices.filter((c) => c.card === this.selected && HAND_KINDS.has(c.kind));
      const targeted = mine.filter((c) => c.kind === "play");
      const direct = mine.filter((c) => c.kind !== "play");
      parts.push(h("div", { class: "selected-card" }, h("strong", {}, f.name), f.text ? ` \u2014 ${f.text}` : ""));
      if (targeted.length) {
        parts.push(h("p", { class: "hint" }, _("Click a highlighted Character, or choose below.")));
      }
      parts.push(h("div", { class: "choices" }, [...direct, ...targeted].map((c) => this.choiceButton(c))));
    } else if (m.view.decision && m.view.decision.kind === "respond") {
      // the same words whether or not the hand holds a response (R-G20)
      parts.push(h("p", { class: "hint" }, _("Answer with a response card from your hand, or let it stand.")));
    } else if (this.handChoices(m).length) {
      parts.push(h("p", { class: "hint" }, _("Choose a card from your hand.")));
    }
    const draft = m.view.decision && m.view.decision.kind === "choose_character";
    if (general.length && draft) {
      parts.push(h("div", { class: "choices general draft", "data-testid": "draft" },
        general.map((c) => (c.card !== undefined ? this.draftCard(c) : this.choiceButton(c)))));
    } else if (general.length) {
      parts.push(h("div", { class: "choices general" }, general.map((c) => this.choiceButton(c))));
    }
    return parts;
  }

  /** A Character offered in the draft, as its card: it zooms like any card, a click takes it. */
  draftCard(c) {
    const face = this.face(c.card);
    const b = h("button", { type: "button", class: `choice draft-card kind-${c.kind || "other"}`,
      "data-action": c.action, "data-card": c.card, "data-focus": `choice-${c.action}`,
      "aria-label": this.page.names(c.text), onclick: () => this.page.act(c.action) },
    cardSVG(face), h("span", { class: "draft-name", "aria-hidden": "true" }, face.name));
    return this.page.zoomable(b, () => cardDetails(face));
  }

  choiceButton(c) {
    return h("button", { type: "button", class: `choice kind-${c.kind || "other"}`, "data-action": c.action,
      "data-focus": `choice-${c.action}`, onclick: () => this.page.act(c.action) }, this.page.names(c.text));
  }

  endSummary(v) {
    const res = v.result || { scores: [], winners: [] };
    const rows = (v.families || []).map((fam) => h("tr", { class: res.winners.includes(fam.player) ? "winner" : "" },
      h("td", {}, this.page.seatName(fam.player)),
      h("td", { class: "num", "data-testid": `final-value-${fam.player}` }, String(fam.family_value))));
    const seats = res.winners.map((w) => this.page.seatName(w));
    // "A, B and C": a list as a reader says it, inside a sentence ("Ganan A y B.")
    const names = seats.length > 1 ? `${seats.slice(0, -1).join(", ")}${_(" and ")}${seats[seats.length - 1]}` : seats.join("");
    return [
      h("h2", {}, _("The game is over")),
      h("table", { class: "final-values", "data-testid": "final-values" },
        h("thead", {}, h("tr", {}, h("th", {}, _("Family")), h("th", {}, _("Family Value")))),
        h("tbody", {}, rows)),
      h("p", { class: "winner-line", "data-testid": "winner" },
        ngettext("Winner: {names}", "Winners: {names}", res.winners.length, { names })),
      res.capped ? h("p", {}, _("The game stopped at the turn cap.")) : null,
    ];
  }
}

// The page loads a board by the module the server names (table.js): this is its board.
export default GloomBoard;
