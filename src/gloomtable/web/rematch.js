// Playing again by invitation: when one person starts the next game ("Play again"),
// every other page stays on its end screen and chronicle and offers the next table
// ("Join the next game" or "Stay here"); nobody is taken along. The finished table's
// own links keep opening the finished table (its end screen, chronicle, downloads).

import { h, replace } from "./dom.js";
import { _ } from "./i18n.js";
import { carryMutes } from "./talk.js";

export class RematchOffer {
  constructor(page) {
    this.page = page;
    this.next = null; // the next table's id, once one was started
    this.by = undefined; // the seat that started it (null: the table's host), once read
    this.stayed = false;
    this.el = h("section", { class: "rematch", "data-testid": "rematch", hidden: true, "aria-live": "polite" });
  }

  /** A state message: is there a next table to offer? */
  update(m) {
    if (!m.over || !m.next_table || m.next_table === this.next) return;
    this.next = m.next_table;
    this.by = undefined;
    this.render();
    fetch(`/api/tables/${encodeURIComponent(this.next)}`)
      .then((r) => (r.ok ? r.json() : null))
      .then((t) => {
        const by = t && t.options ? t.options.rematch_by : null;
        this.by = Number.isInteger(by) ? by : null;
        this.render();
      })
      .catch(() => { this.by = null; this.render(); });
  }

  accept() {
    if (!this.next) return;
    carryMutes(this.page.tableId, this.next);
    this.page.follow(this.next);
  }

  link() {
    const t = this.page.token;
    return `/table/${encodeURIComponent(this.next)}${t ? `#token=${encodeURIComponent(t)}` : ""}`;
  }

  /** The offer, drawn on the end screen (the page's renderEnd places it). */
  element() {
    this.render();
    return this.el;
  }

  render() {
    const el = this.el;
    if (!this.next || this.page.followed) { el.hidden = true; replace(el); return; }
    el.hidden = false;
    const seated = this.page.seat !== null && this.page.seat !== undefined;
    const who = Number.isInteger(this.by) ? this.page.seatName(this.by) : null;
    const text = who ? _("{name} started the next game with the same seats.", { name: who })
      : _("The next game with the same seats has started.");
    if (this.stayed) {
      replace(el, h("p", {}, text, " ", h("a", { href: this.link(), "data-testid": "rematch-link",
        onclick: (ev) => { ev.preventDefault(); this.accept(); } },
      seated ? _("Join the next game") : _("Watch the next game"))));
      return;
    }
    replace(el, h("p", { class: "rematch-text" }, text),
      h("div", { class: "rematch-choices" },
        h("button", { type: "button", class: "rematch-accept", "data-testid": "rematch-accept",
          onclick: () => this.accept() }, seated ? _("Join the next game") : _("Watch the next game")),
        " ",
        h("button", { type: "button", class: "rematch-stay", "data-testid": "rematch-stay",
          onclick: () => { this.stayed = true; this.render(); } }, _("Stay here"))));
  }
}
