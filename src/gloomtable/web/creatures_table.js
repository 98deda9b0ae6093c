// The Crazy Creatures board: the four Machines with the side showing and their
// piles, the Reserve, every player's hand count and penalties, and your hand
// with the cards that fit a pile marked. Drawn as SVG from the view.

import { h, replace, s } from "./dom.js";
import { _, ngettext } from "./i18n.js";

const COLOURS = { red: "#b0302a", blue: "#2f5fa8", green: "#3c8a3c", yellow: "#d1a21a" };
const COLOUR_NAMES = {
  red: () => _("red"), blue: () => _("blue"), green: () => _("green"), yellow: () => _("yellow"),
};
const W = 90;
const H = 126;

function colourName(c) {
  return COLOUR_NAMES[c] ? COLOUR_NAMES[c]() : c;
}

/** One Creature card: its colour, number, DNA mark and penalty. */
export function creatureLabel(card) {
  const parts = [`${colourName(card.colour)} ${card.number}`];
  if (card.dna) parts.push(_("DNA"));
  if (card.penalty !== undefined) parts.push(_("penalty {p}", { p: card.penalty }));
  return parts.join(", ");
}

/** A Creature large and in words (the zoom). */
export function creatureDetails(card, note = "") {
  return h("article", { class: "zcard zcard-creature", "data-card": card.id },
    h("div", { class: "zc-head" }, h("strong", { class: "zc-name" }, `${colourName(card.colour)} ${card.number}`),
      h("span", { class: "zc-type" }, _("Creature"))),
    note ? h("div", { class: "zc-note" }, note) : null,
    card.dna ? h("p", { class: "zc-text" }, _("DNA: may always be played on a DNA card of the same colour.")) : null,
    card.penalty !== undefined ? h("p", { class: "zc-text" }, _("penalty {p}", { p: card.penalty })) : null);
}

export function creatureSVG(card) {
  const fill = COLOURS[card.colour] || "#666";
  const root = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "creature-card", role: "img",
    "data-colour": card.colour, "data-number": card.number, "aria-label": creatureLabel(card) });
  root.append(s("title", {}, `${colourName(card.colour)} ${card.number}`));
  root.append(s("rect", { x: 1, y: 1, width: W - 2, height: H - 2, rx: 7, fill: "#fbf6ea", stroke: fill,
    "stroke-width": 4 }));
  root.append(s("text", { x: W / 2, y: 74, "text-anchor": "middle", "font-size": 44, "font-weight": "bold",
    fill }, String(card.number)));
  root.append(s("text", { x: 9, y: 20, "font-size": 14, "font-weight": "bold", fill }, String(card.number)));
  if (card.dna) {
    root.append(s("text", { x: W - 10, y: 20, "text-anchor": "end", "font-size": 11, fill: "#6b2a6b" }, _("DNA")));
  }
  if (card.penalty !== undefined) {
    root.append(s("text", { x: W / 2, y: H - 12, "text-anchor": "middle", "font-size": 10, fill: "#333" },
      _("penalty {p}", { p: card.penalty })));
  }
  return root;
}

function machineSVG(m) {
  const fill = COLOURS[m.colour] || "#666";
  const root = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "machine-card", role: "img",
    "aria-label": machineLabel(m) });
  root.append(s("title", {}, `${m.creature}: ${m.machine} (${m.side})`));
  root.append(s("rect", { x: 1, y: 1, width: W - 2, height: H - 2, rx: 7, fill, stroke: "#222",
    "stroke-width": 1.5 }));
  root.append(s("text", { x: W / 2, y: 18, "text-anchor": "middle", "font-size": 9, fill: "#fff" }, m.creature));
  root.append(s("text", { x: W / 2, y: 58, "text-anchor": "middle", "font-size": 34, "font-weight": "bold",
    fill: "#fff" }, m.side === "+" ? "+" : "\u2212"));
  root.append(s("text", { x: W / 2, y: 78, "text-anchor": "middle", "font-size": 8.5, fill: "#fff" }, m.machine));
  root.append(s("rect", { x: 22, y: 86, width: 46, height: 30, rx: 4, fill: "#fbf6ea" }));
  root.append(s("text", { x: W / 2, y: 109, "text-anchor": "middle", "font-size": 22, "font-weight": "bold",
    fill }, m.top ? String(m.top) : "\u2013"));
  return root;
}

function machineLabel(m) {
  return _("{creature}: {machine}, side {side}, top of the pile: {top}", { creature: m.creature,
    machine: m.machine, side: m.side, top: m.top ? String(m.top) : "\u2013" });
}

function machineDetails(m) {
  const trail = m.pile.slice(-8).map((c) => `${colourName(c.colour)} ${c.number}`).join(", ");
  return h("article", { class: "zcard zcard-machine" },
    h("div", { class: "zc-head" }, h("strong", { class: "zc-name" }, m.creature),
      h("span", { class: "zc-type" }, m.machine)),
    h("p", { class: "zc-text" }, machineLabel(m)),
    h("p", { class: "zc-text" }, ngettext("{n} card in the pile", "{n} cards in the pile", m.pile.length),
      trail ? `: ${trail}` : ""));
}

export class CreaturesBoard {
  constructor(page) {
    this.page = page;
    this.tops = null; // each Machine's pile length, as last drawn
    this.lastMachine = null;
    this.lastStateId = null;
  }

  letItStand() {
    return null;
  }

  escape() {
    return false;
  }

  handCounts(view) {
    return view.hand_counts;
  }

  decisionText(m, mine) {
    const d = m.view.decision;
    // Passing is legal only when no Creature fits (the choices say so); only
    // the deciding seat has them, so others read the plain "play" heading.
    const canPass = mine && m.choices.some((c) => c.kind === "pass");
    const canPlay = mine && m.choices.some((c) => c.kind === "play");
    let text;
    if (d === "same_number") text = _("same number played: flip a Machine or make another player draw");
    else if (canPass && canPlay) text = _("play a Creature on a pile, or pass");
    else if (canPass) text = _("no Creature fits a pile: pass");
    else text = _("play a Creature on a pile");
    return mine ? _("Your decision: {what}", { what: text }) : text;
  }

  render(el, m) {
    const v = m.view;
    if (m.state_id !== this.lastStateId) {
      this.lastStateId = m.state_id;
      const now = v.machines.map((x) => x.pile.length);
      if (this.tops) {
        const grew = now.findIndex((n, i) => n === this.tops[i] + 1);
        if (grew >= 0) this.lastMachine = { index: grew, state: m.state_id };
      }
      this.tops = now;
    }
    const mine = this.page.isMine();
    const flips = new Map(mine ? m.choices.filter((c) => c.kind === "flip").map((c) => [c.index, c]) : []);
    const machines = v.machines.map((mach, i) => {
      const flip = flips.get(i);
      const last = this.lastMachine && this.lastMachine.index === i;
      const cls = ["machine", flip ? "target" : "", last ? "last-play" : "",
        last && this.lastMachine.state === m.state_id ? "landing" : ""];
      const attrs = { class: cls.filter(Boolean).join(" "), "data-colour": mach.colour,
        "data-testid": `machine-${mach.colour}` };
      return this.page.zoomable(h("div", attrs,
        h("div", { class: "card-zoom", tabindex: flip ? -1 : 0, "data-focus": `machine-${i}`, role: "group",
          "aria-label": machineLabel(mach) }, machineSVG(mach)),
        h("div", { class: "pile-info" }, ngettext("{n} card in the pile", "{n} cards in the pile", mach.pile.length)),
        h("div", { class: "pile-trail" }, mach.pile.slice(-6).map((c) => h("span", {}, String(c.number)))),
        flip ? h("button", { type: "button", class: "target-hit", "data-action": flip.action,
          "data-focus": `flip-${i}`, "aria-label": this.page.names(flip.text),
          onclick: (ev) => { ev.stopPropagation(); this.page.act(flip.action); } }) : null),
      () => machineDetails(mach));
    });
    const players = Array.from({ length: v.players }, (_x, p) => h("tr", {
      class: `${p === v.current_player ? "deciding" : ""}${p === this.page.seat ? " mine" : ""}`,
      "data-seat": p },
    h("td", {}, this.page.seatName(p)),
    h("td", { class: "num" }, String(v.hand_counts[p])),
    ...v.round_scores.map((r) => h("td", { class: "num" }, String(r[p]))),
    h("td", { class: "num total" }, String(v.totals[p]))));
    const head = h("tr", {}, h("th", {}, _("Player")), h("th", {}, _("Cards")),
      ...v.round_scores.map((_r, i) => h("th", { class: "round" },
        h("span", { class: "long" }, _("Round {n}", { n: i + 1 })),
        h("abbr", { class: "short", title: _("Round {n}", { n: i + 1 }) }, _("R{n}", { n: i + 1 })))),
      h("th", {}, _("Total")));
    const info = [
      h("span", { "data-testid": "round" }, _("Round {r} of {n}", { r: v.round, n: v.rounds })),
      h("span", { "data-testid": "reserve" }, ngettext("Reserve: {n} card", "Reserve: {n} cards", v.reserve_count)),
    ];
    if (v.closer !== null && v.closer !== undefined) {
      info.push(h("span", {}, ngettext("{name} is out: {n} final turn left", "{name} is out: {n} final turns left",
        v.final_turns_left, { name: this.page.seatName(v.closer) })));
    }
    replace(el,
      h("div", { class: "creatures-info" }, info),
      h("div", { class: "machines" }, machines),
      h("table", { class: "scores round-scores", "data-testid": "scores", "data-rounds": v.round_scores.length },
        h("thead", {}, head), h("tbody", {}, players)));
  }

  renderHand(el, m) {
    replace(el, this.handPanel(m));
  }

  handPanel(m) {
    const v = m.view;
    if (!v.hand) return h("div", { class: "hand spectator", "data-testid": "hand" }, _("Spectators see no hands."));
    const mine = this.page.isMine();
    const plays = new Map(mine ? m.choices.filter((c) => c.kind === "play").map((c) => [c.card, c]) : []);
    const penalty = v.hand.reduce((a, c) => a + c.penalty, 0);
    const cards = v.hand.map((c) => {
      const play = plays.get(c.id);
      const attrs = { class: `hand-card creature${c.playable ? " fits" : ""}${play ? " playable" : ""}`,
        "data-card": c.id, "data-testid": `hand-card-${c.id}`, tabindex: 0, "data-focus": `hand-${c.id}`,
        role: play ? "button" : "img", "aria-label": play ? this.page.names(play.text) : creatureLabel(c) };
      if (play) {
        attrs.onclick = () => this.page.act(play.action);
        attrs.title = play.text;
        attrs.onkeydown = (ev) => {
          if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); this.page.act(play.action); }
        };
      }
      return this.page.zoomable(h("div", attrs, creatureSVG(c)), () => creatureDetails(c));
    });
    return h("div", { class: "hand", "data-testid": "hand" },
      h("h2", {}, ngettext("Your hand ({n} card, penalty {p})", "Your hand ({n} cards, penalty {p})",
        v.hand.length, { p: penalty })),
      h("p", { class: "hint" }, _("Marked cards fit a pile now.")),
      h("div", { class: "hand-cards" }, cards));
  }

  prompt(m) {
    const general = m.choices.filter((c) => c.kind !== "play");
    return [
      m.choices.some((c) => c.kind === "play") ? h("p", { class: "hint" }, _("Click a marked card to play it.")) : null,
      h("div", { class: "choices general" }, general.map((c) => h("button", { type: "button",
        class: `choice kind-${c.kind}`, "data-action": c.action, "data-focus": `choice-${c.action}`,
        onclick: () => this.page.act(c.action) }, this.page.names(c.text))))];
  }

  endSummary(v) {
    const res = v.result || { scores: [], winners: [] };
    const seats = res.winners.map((w) => this.page.seatName(w));
    // "A, B and C": a list as a reader says it, inside a sentence ("Ganan A y B.")
    const names = seats.length > 1 ? `${seats.slice(0, -1).join(", ")}${_(" and ")}${seats[seats.length - 1]}` : seats.join("");
    // every player's total, lowest first (the lowest total wins, R-C11)
    const order = Array.from({ length: v.players }, (_x, p) => p).sort((a, b) => v.totals[a] - v.totals[b] || a - b);
    const rows = order.map((p) => h("tr", { class: res.winners.includes(p) ? "winner" : "" },
      h("td", {}, this.page.seatName(p)),
      h("td", { class: "num", "data-testid": `final-total-${p}` }, String(v.totals[p]))));
    return [h("h2", {}, _("The game is over")),
      h("p", { class: "winner-line", "data-testid": "winner" },
        ngettext("Winner: {names}", "Winners: {names}", res.winners.length, { names })),
      h("table", { class: "final-scores", "data-testid": "final-scores" },
        h("thead", {}, h("tr", {}, h("th", {}, _("Player")), h("th", { class: "num" }, _("Total")))),
        h("tbody", {}, rows))];
  }
}

// The page loads a board by the module the server names (table.js): this is its board.
export default CreaturesBoard;
