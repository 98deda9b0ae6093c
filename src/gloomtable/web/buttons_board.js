// The board of a game that ships none (its registry entry names no `board` script):
// the view's facts as a plain table and every legal choice as a button with its
// text. Any game plays here before anyone draws it.

import { h, replace } from "./dom.js";
import { _, ngettext } from "./i18n.js";

const HIDDEN_KEYS = new Set(["game", "viewer", "legal_actions", "choices", "config", "result"]);

function shown(value) {
  if (value === null || value === undefined) return "\u2013";
  if (Array.isArray(value)) return value.map(shown).join(", ");
  if (typeof value === "object") return Object.entries(value).map(([k, v]) => `${k}: ${shown(v)}`).join("; ");
  return String(value);
}

export class ButtonsBoard {
  constructor(page) {
    this.page = page;
  }

  letItStand() {
    return null;
  }

  escape() {
    return false;
  }

  handCounts(view) {
    return view.hand_counts || [];
  }

  decisionText(m, mine) {
    const what = m.view.decision ? String(m.view.decision).replace(/_/g, " ") : _("choose an action");
    return mine ? _("Your decision: {what}", { what }) : what;
  }

  render(el, m) {
    const rows = Object.entries(m.view || {}).filter(([k]) => !HIDDEN_KEYS.has(k))
      .map(([k, v]) => h("tr", { "data-key": k }, h("th", {}, k.replace(/_/g, " ")), h("td", {}, shown(v))));
    replace(el, h("table", { class: "plain-view", "data-testid": "plain-view" }, h("tbody", {}, rows)));
  }

  renderHand(el) {
    replace(el);
  }

  prompt(m) {
    return h("div", { class: "choices general" }, (m.choices || []).map((c) => h("button", { type: "button",
      class: `choice kind-${c.kind || "action"}`, "data-action": c.action, "data-focus": `choice-${c.action}`,
      onclick: () => this.page.act(c.action) }, this.page.names(c.text))));
  }

  endSummary(v) {
    const res = v.result || { winners: [] };
    const names = (res.winners || []).map((w) => this.page.seatName(w)).join(", ");
    return [h("h2", {}, _("The game is over")),
      h("p", { class: "winner-line", "data-testid": "winner" },
        ngettext("Winner: {names}", "Winners: {names}", (res.winners || []).length, { names }))];
  }
}
