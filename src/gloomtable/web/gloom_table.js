// The Gloom (and Gloomier) board: every family's Characters as SVG stacks with
// their Self-Worth and icons beside them, a control to look through any stack
// layer by layer, the middle (pile, discard, the card in play, Stories and
// Guests), your hand, and the choices: pick a card, its legal targets light up.

import { h, replace } from "./dom.js";
import { _, ngettext } from "./i18n.js";
import { cardBackSVG, cardSVG, iconLabel, ICONS, stackSVG, typeLabel } from "./cards.js";

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
  claim_story: () => _("claim a Story"),
};

function decisionLabel(kind) {
  return DECISIONS[kind] ? DECISIONS[kind]() : String(kind || "").replace(/_/g, " ");
}

const HAND_KINDS = new Set(["play", "play_event", "respond", "discard_one", "choose_card"]);

export class GloomBoard {
  constructor(page) {
    this.page = page;
    this.layers = new Map(); // Character card id -> layers shown (null: all)
    this.selected = null;
    this.lastStateId = null;
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

  // --- drawing ------------------------------------------------------------------------

  render(el, m) {
    if (m.state_id !== this.lastStateId) {
      this.lastStateId = m.state_id;
      const playable = new Set(this.handChoices(m).map((c) => c.card));
      if (!playable.has(this.selected)) this.selected = null;
    }
    const v = m.view;
    let targets = new Map();
    if (this.page.isMine()) targets = this.selected !== null ? this.targetsOf(m, this.selected) : this.tableTargets(m);
    const families = (v.families || []).map((fam) => this.familyPanel(m, fam, targets));
    replace(el,
      h("div", { class: "families" }, families),
      this.middle(m, targets),
      this.handPanel(m));
  }

  familyPanel(m, fam, targets) {
    const p = fam.player;
    const mine = p === this.page.seat;
    const chars = (fam.characters || []).map((c) => this.character(c, targets));
    const guests = (fam.guests || []).map((c) => this.character(c, targets));
    const story = fam.story ? h("div", { class: "story-held" }, cardSVG(this.face(fam.story.card))) : null;
    return h("div", { class: `family${mine ? " mine" : ""}${m.deciding === p ? " deciding" : ""}`,
      "data-player": p, "data-testid": `family-${p}` },
    h("div", { class: "family-head" },
      h("span", { class: "family-owner" }, this.page.seatName(p), mine ? ` (${_("you")})` : ""),
      h("span", { class: "family-value", "data-testid": `family-value-${p}` },
        _("Family Value: {v}", { v: fam.family_value }))),
    h("div", { class: "characters" }, chars, guests, story));
  }

  character(c, targets) {
    const faces = c.stack.map((id) => this.face(id));
    const upto = this.layers.has(c.card) ? this.layers.get(c.card) : null;
    const target = targets.get(c.card);
    const stack = stackSVG(faces, { upto, dead: c.dead });
    const n = faces.length;
    const shown = upto === null ? n : upto;
    const step = (d) => {
      const next = Math.max(1, Math.min(n, shown + d));
      this.layers.set(c.card, next === n ? null : next);
      this.page.render();
    };
    const layerFace = faces[shown - 1];
    const icons = (c.icons || []).map((i) => h("span", { class: `icon-chip icon-${i}`, title: iconLabel(i) },
      ICONS[i] ? ICONS[i].glyph : "?", " ", iconLabel(i)));
    const live = (c.live_effects || []).map((id) => h("li", {}, this.face(id).name));
    const attrs = { class: `character${c.dead ? " dead" : ""}${target ? " target" : ""}${c.guest ? " guest" : ""}`,
      "data-char": c.card, "data-testid": `character-${c.card}` };
    if (target) {
      attrs.onclick = () => this.page.act(target.action);
      attrs.title = target.text;
      attrs.role = "button";
      attrs.tabindex = 0;
      attrs.onkeydown = (ev) => { if (ev.key === "Enter") this.page.act(target.action); };
    }
    return h("div", attrs,
      h("div", { class: "stack-wrap" }, stack),
      h("div", { class: "summary" },
        h("div", { class: "char-name" }, c.name, c.guest ? ` (${_("Guest")})` : ""),
        h("div", { class: "self-worth", "data-testid": `self-worth-${c.card}` },
          h("span", { class: "sw-label" }, _("Self-Worth")), " ",
          h("span", { class: "sw-value" }, c.self_worth > 0 ? `+${c.self_worth}` : String(c.self_worth))),
        c.dead ? h("div", { class: "dead-mark" }, "\u2620 ", _("dead")) : null,
        icons.length ? h("div", { class: "icons" }, icons) : null,
        live.length ? h("ul", { class: "live" }, h("span", {}, _("Live effects:")), live) : null,
        n > 1 ? h("div", { class: "layers", "data-testid": `layers-${c.card}` },
          h("button", { type: "button", class: "layer-down", "aria-label": _("Fewer layers"),
            onclick: (ev) => { ev.stopPropagation(); step(-1); }, disabled: shown <= 1 }, "\u25C0"),
          h("span", { class: "layer-pos" }, _("layer {k} of {n}", { k: shown, n })),
          h("button", { type: "button", class: "layer-up", "aria-label": _("More layers"),
            onclick: (ev) => { ev.stopPropagation(); step(1); }, disabled: shown >= n }, "\u25B6"),
          h("div", { class: "layer-name" }, layerFace.name, " (", typeLabel(layerFace.type), ")")) : null));
  }

  middle(m, targets) {
    const v = m.view;
    const top = v.discard && v.discard.length ? v.discard[v.discard.length - 1] : null;
    const playing = v.playing;
    const mid = v.middle || {};
    const parts = [
      h("div", { class: "pile" }, h("div", { class: "pile-label" }, _("Draw pile")), cardBackSVG(v.draw_pile)),
      h("div", { class: "pile" }, h("div", { class: "pile-label" },
        ngettext("Discard ({n} card)", "Discard ({n} cards)", (v.discard || []).length)),
      top !== null ? cardSVG(this.face(top)) : h("div", { class: "empty-pile" }, _("empty"))),
    ];
    if (v.in_play && v.in_play.length) {
      const c = v.in_play[v.in_play.length - 1];
      const on = playing && playing.target !== null && playing.target !== undefined
        ? _("on {name}", { name: this.face(playing.target).name }) : "";
      parts.push(h("div", { class: "pile in-play", "data-testid": "in-play" },
        h("div", { class: "pile-label" }, _("Being played"), " ", on), cardSVG(this.face(c))));
    }
    const guests = (mid.guests || []).map((g) => this.character(g, targets));
    const stories = (mid.stories || []).map((st) => h("div", { class: "story", "data-card": st.card },
      cardSVG(this.face(st.card))));
    if (guests.length || stories.length) {
      parts.push(h("div", { class: "middle-gloomier", "data-testid": "middle" },
        h("div", { class: "pile-label" }, _("In the middle: Stories and Guests")),
        h("div", { class: "characters" }, stories, guests)));
    }
    return h("div", { class: "middle" }, parts);
  }

  handPanel(m) {
    const v = m.view;
    if (v.hand === null || v.hand === undefined) {
      return h("div", { class: "hand spectator", "data-testid": "hand" }, _("Spectators see no hands."));
    }
    const playable = new Set(this.page.isMine() ? this.handChoices(m).map((c) => c.card) : []);
    const cards = v.hand.map((id) => {
      const cls = ["hand-card", playable.has(id) ? "playable" : "", this.selected === id ? "selected" : ""];
      const attrs = { class: cls.join(" "), "data-card": id, "data-testid": `hand-card-${id}` };
      if (playable.has(id)) {
        const pick = () => { this.selected = this.selected === id ? null : id; this.page.render(); };
        attrs.onclick = pick;
        attrs.onkeydown = (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); pick(); } };
        attrs.role = "button";
        attrs.tabindex = 0;
      }
      return h("div", attrs, cardSVG(this.face(id)), h("div", { class: "hand-name" }, this.face(id).name));
    });
    return h("div", { class: "hand", "data-testid": "hand" },
      h("h2", {}, ngettext("Your hand ({n} card)", "Your hand ({n} cards)", v.hand.length)),
      h("div", { class: "hand-cards" }, cards));
  }

  prompt(m) {
    const hand = new Set(m.view.hand || []);
    const general = m.choices.filter((c) => !(HAND_KINDS.has(c.kind) && hand.has(c.card)));
    const parts = [h("h2", {}, this.decisionText(m, true))];
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
    } else if (this.handChoices(m).length) {
      parts.push(h("p", { class: "hint" }, _("Choose a card from your hand.")));
    }
    if (general.length) parts.push(h("div", { class: "choices general" }, general.map((c) => this.choiceButton(c))));
    return parts;
  }

  choiceButton(c) {
    return h("button", { type: "button", class: `choice kind-${c.kind || "other"}`, "data-action": c.action,
      onclick: () => this.page.act(c.action) }, c.text);
  }

  endSummary(v) {
    const res = v.result || { scores: [], winners: [] };
    const rows = (v.families || []).map((fam) => h("tr", { class: res.winners.includes(fam.player) ? "winner" : "" },
      h("td", {}, this.page.seatName(fam.player)),
      h("td", { class: "num", "data-testid": `final-value-${fam.player}` }, String(fam.family_value))));
    const names = res.winners.map((w) => this.page.seatName(w)).join(", ");
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
