// Table talk: a small panel where the seats (or, if the table allows it, the
// spectators among themselves) write to each other. The server says which channel
// this page has ("talk" messages, docs/server.md); every line is drawn as text
// (h() makes text nodes, never markup). Muting a person hides their lines on this
// page only, remembered in localStorage per table (and carried into a rematch).
// On a wide screen the panel sits in the side column; on a phone it is a sheet
// over the lower part of the table, below the decision bar, opened by its button.

import { h, replace, s } from "./dom.js";
import { _, ngettext, seatLabel } from "./i18n.js";

const MUTE_KEY = "gloomtable.muted";
const OPEN_KEY = "gloomtable.talk";
const TABLES_KEPT = 50; // tables whose mutes are remembered (the oldest are forgotten)
const LINES_SHOWN = 200;
const PHONE = "(max-width: 700px)";

function readMutes() {
  try {
    const all = JSON.parse(localStorage.getItem(MUTE_KEY) || "{}");
    return all && typeof all === "object" && !Array.isArray(all) ? all : {};
  } catch {
    return {};
  }
}

function writeMutes(all) {
  const ids = Object.keys(all);
  for (const id of ids.slice(0, Math.max(0, ids.length - TABLES_KEPT))) delete all[id];
  try { localStorage.setItem(MUTE_KEY, JSON.stringify(all)); } catch { /* private mode */ }
}

/** Carry this table's mutes to the table played next (a rematch keeps its seats). */
export function carryMutes(fromId, toId) {
  const all = readMutes();
  if (Array.isArray(all[fromId]) && all[fromId].length) {
    all[toId] = [...new Set([...(all[toId] || []), ...all[fromId]])];
    writeMutes(all);
  }
}

export class TalkPanel {
  constructor(page) {
    this.page = page;
    this.channel = undefined; // unknown until the server says; null: no talk here
    this.lines = new Map(); // n -> line
    this.unread = 0;
    this.max = 300;
    const all = readMutes();
    this.muted = new Set(Array.isArray(all[page.tableId]) ? all[page.tableId] : []);
    this.phone = window.matchMedia(PHONE);
    let open = null;
    try { open = localStorage.getItem(OPEN_KEY); } catch { open = null; }
    this.open = open === null ? !this.phone.matches : open === "1";
    this.list = h("ol", { class: "talk-lines", "data-testid": "talk-lines",
      "aria-live": "polite", tabindex: 0 });
    this.input = h("input", { type: "text", class: "talk-input", "data-testid": "talk-input",
      maxlength: this.max, autocomplete: "off", "aria-label": _("Say something to the table"),
      placeholder: _("Say something\u2026") });
    this.note = h("p", { class: "talk-note", "data-testid": "talk-note", role: "status" });
    this.mutedRow = h("p", { class: "talk-muted", "data-testid": "talk-muted" });
    this.title = h("h2", {}, _("Table talk"));
    this.form = h("form", { class: "talk-form", onsubmit: (ev) => { ev.preventDefault(); this.send(); } },
      this.input, h("button", { type: "submit", "data-testid": "talk-send" }, _("Send")));
    this.el = h("section", { class: "talk-panel", "data-testid": "talk-panel", hidden: true,
      "aria-label": _("Table talk") },
    h("div", { class: "talk-head" }, this.title,
      h("button", { type: "button", class: "talk-close", "aria-label": _("Close"),
        onclick: () => this.setOpen(false) }, "\u00D7")),
    this.list, this.mutedRow, this.note, this.form);
    this.badge = h("span", { class: "talk-badge", "data-testid": "talk-badge", hidden: true });
    this.toggle = h("button", { type: "button", class: "talk-toggle", "data-testid": "talk-toggle", hidden: true,
      "aria-expanded": "false", onclick: () => this.setOpen(!this.open) },
    s("svg", { class: "talk-glyph", viewBox: "0 0 16 16", width: 16, height: 16, "aria-hidden": "true" },
      s("path", { d: "M2 2.5h12v8.5H7l-3.5 3v-3H2z", fill: "none", stroke: "currentColor", "stroke-width": 1.6,
        "stroke-linejoin": "round" })), " ",
    h("span", { class: "talk-label" }, _("Talk")), this.badge);
    this.phone.addEventListener("change", () => this.place());
  }

  /** Put the panel where it belongs: the side column (wide) or the page (a phone's sheet). */
  place() {
    const home = this.phone.matches ? this.page.root : this.page.els.side;
    // in the side column: between the seats and the game log's heading
    const before = this.phone.matches ? null : home.querySelector(":scope > h2");
    if (this.el.parentNode !== home) {
      if (before) home.insertBefore(this.el, before);
      else home.append(this.el);
    }
    this.el.classList.toggle("sheet", this.phone.matches);
    this.render();
  }

  setOpen(on) {
    this.open = on;
    try { localStorage.setItem(OPEN_KEY, on ? "1" : "0"); } catch { /* private mode */ }
    if (on) { this.unread = 0; this.renderBadge(); }
    this.render();
    if (on && this.phone.matches) this.input.focus({ preventScroll: true });
  }

  /** A "talk" message: the page's channel and lines (a backlog is merged, never replacing). */
  take(m) {
    if (m.backlog) {
      this.channel = m.channel;
      if (Number.isInteger(m.max) && m.max > 0) { this.max = m.max; this.input.maxLength = m.max; }
      replace(this.title, m.channel === "spectators" ? _("Spectators' talk") : _("Table talk"));
      if (!this.el.parentNode) this.place();
    }
    let fresh = 0;
    for (const line of Array.isArray(m.lines) ? m.lines : []) {
      if (!line || !Number.isInteger(line.n) || this.lines.has(line.n)) continue;
      this.lines.set(line.n, line);
      if (!m.backlog && !this.muted.has(line.who) && line.who !== this.myWho()) fresh += 1;
    }
    while (this.lines.size > LINES_SHOWN) this.lines.delete(Math.min(...this.lines.keys()));
    if (fresh && !(this.open && this.visible())) { this.unread += fresh; this.renderBadge(); }
    this.render();
  }

  /** An error the server marked as the answer to a line of talk; true if it was one. */
  error(m) {
    if (m.about !== "say") return false;
    const text = m.code === "rate_limited" ? _("You are writing too fast; wait a little.")
      : m.code === "too_large" ? _("That line is too long.") : m.message;
    this.note.textContent = text;
    this.note.dataset.code = m.code || "";
    clearTimeout(this.noteTimer);
    this.noteTimer = setTimeout(() => { this.note.textContent = ""; this.note.dataset.code = ""; }, 6000);
    return true;
  }

  send() {
    const text = this.input.value.trim();
    if (!text) return;
    if (this.page.socket.send({ type: "say", text })) this.input.value = "";
    else this.error({ about: "say", code: "offline", message: _("Not connected; your line was not sent.") });
  }

  myWho() {
    return this.page.seat === null || this.page.seat === undefined ? null : `seat:${this.page.seat}`;
  }

  nameOf(line) {
    const seat = /^seat:(\d+)$/.exec(line.who || "");
    if (seat) return this.page.seatName(Number(seat[1])); // as renamed since
    const watcher = /^watcher:(\w+)$/.exec(line.who || "");
    return watcher ? _("Spectator {id}", { id: watcher[1] }) : seatLabel(line.name);
  }

  setMuted(who, on) {
    if (on) this.muted.add(who); else this.muted.delete(who);
    const all = readMutes();
    all[this.page.tableId] = [...this.muted];
    if (!this.muted.size) delete all[this.page.tableId];
    writeMutes(all);
    this.render();
  }

  visible() {
    return !this.el.hidden && this.el.isConnected && this.el.offsetParent !== null;
  }

  renderBadge() {
    this.badge.hidden = this.unread === 0;
    this.badge.textContent = this.unread ? ` ${this.unread}` : "";
    this.toggle.setAttribute("aria-label", this.unread
      ? ngettext("Table talk: {n} new line", "Table talk: {n} new lines", this.unread) : _("Table talk"));
  }

  /** Someone else could read this channel: another person's seat (bots read nothing), or
   *  for the spectators' talk, always (other watchers come and go). */
  anyoneElse() {
    if (this.channel === "spectators") return true;
    const seats = (this.page.msg && this.page.msg.seats) || (this.page.info && this.page.info.seats) || [];
    return seats.length === 0 || seats.some((x) => x.kind === "person" && x.seat !== this.page.seat);
  }

  render() {
    const has = this.channel !== undefined && this.channel !== null && this.anyoneElse();
    this.toggle.hidden = !has;
    this.toggle.setAttribute("aria-expanded", has && this.open ? "true" : "false");
    this.el.hidden = !has || !this.open;
    if (!has) return;
    const atEnd = this.list.scrollTop + this.list.clientHeight >= this.list.scrollHeight - 24;
    const mine = this.myWho();
    const shown = [...this.lines.values()].sort((a, b) => a.n - b.n).filter((x) => !this.muted.has(x.who));
    replace(this.list, shown.map((x) => h("li", { class: `talk-line${x.who === mine ? " mine" : ""}`,
      "data-who": x.who, "data-n": x.n },
    h("b", { class: "talk-who" }, this.nameOf(x)), ": ", h("span", { class: "talk-text" }, x.text),
    x.who === mine ? null : h("button", { type: "button", class: "talk-mute", "data-testid": "talk-mute",
      title: _("Mute {name}", { name: this.nameOf(x) }), "aria-label": _("Mute {name}", { name: this.nameOf(x) }),
      onclick: () => this.setMuted(x.who, true) }, _("mute")))));
    if (atEnd) this.list.scrollTop = this.list.scrollHeight;
    const people = [...this.muted].map((who) => this.nameOf({ who, name: "" }));
    replace(this.mutedRow, this.muted.size ? [_("Muted:"), " ", [...this.muted].map((who, i) =>
      h("button", { type: "button", class: "talk-unmute", "data-testid": "talk-unmute",
        onclick: () => this.setMuted(who, false) }, _("{name} (unmute)", { name: people[i] })))] : null);
    this.mutedRow.hidden = !this.muted.size;
  }
}
