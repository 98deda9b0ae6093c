// The table page shared by every game: connection, seats, prompt, narration,
// log, timer and the end of the game. The board itself is drawn by the game's
// module (gloom_table.js, creatures_table.js), from the view the server sent.

import { h, replace } from "./dom.js";
import { _, ngettext } from "./i18n.js";
import { TableSocket } from "./net.js";
import { GloomBoard } from "./gloom_table.js";
import { CreaturesBoard } from "./creatures_table.js";
import { chronicleSection } from "./chronicle.js";

const LOG_SHOWN = 200;

const GAME_TITLES = {
  gloom: () => _("Gloom"),
  gloomier: () => _("Gloomier: A Night at Hemlock Hall"),
  creatures: () => _("Crazy Creatures of Dr. Gloom"),
};

export function gameTitle(name) {
  return GAME_TITLES[name] ? GAME_TITLES[name]() : name;
}

const ERROR_TEXT = {
  stale_state: () => _("The table moved on before your choice arrived; here is the current state."),
  not_your_turn: () => _("It is not your decision right now."),
  illegal_action: () => _("That is not allowed now."),
  rate_limited: () => _("Slow down a little."),
  bad_token: () => _("This invite link is not valid for this table."),
  not_found: () => _("There is no such table."),
  no_spectators: () => _("This table does not allow spectators."),
  game_over: () => _("The game is over."),
};

export class TablePage {
  constructor(root, tableId, token) {
    this.root = root;
    this.tableId = tableId;
    this.token = token || null;
    this.info = null;
    this.catalogue = { cards: [], families: [] };
    this.seat = null;
    this.msg = null;
    this.log = [];
    this.logOffset = 0;
    this.pending = false;
    this.board = null;
    this.status = "connecting";
    this.notice = "";
    this.clock = null;
    this.followed = false;
    this.build();
    this.socket = new TableSocket(tableId, this.token, {
      onMessage: (m) => this.onMessage(m),
      onStatus: (st) => { this.status = st; this.renderStatus(); },
    });
  }

  start() {
    this.socket.connect();
    this.clock = setInterval(() => this.renderTimer(), 1000);
  }

  build() {
    this.els = {
      title: h("h1", { class: "table-title" }, _("Table")),
      status: h("span", { class: "conn-status", "data-testid": "conn-status" }),
      turn: h("div", { class: "turn-line", "data-testid": "turn-line", "aria-live": "polite" }),
      timer: h("span", { class: "timer", "data-testid": "timer" }),
      notice: h("div", { class: "notice", role: "status" }),
      board: h("section", { class: "board", "data-testid": "board" }),
      prompt: h("section", { class: "prompt", "data-testid": "prompt" }),
      seats: h("section", { class: "seats", "data-testid": "seats" }),
      end: h("section", { class: "end", "data-testid": "end", hidden: true }),
      log: h("ol", { class: "log", "data-testid": "log" }),
      narration: h("input", { type: "text", class: "narration", maxlength: 200, "data-testid": "narration",
        placeholder: _("Tell how it happened (optional)") }),
    };
    const e = this.els;
    replace(this.root,
      h("header", { class: "topbar" },
        h("a", { href: "/", class: "home" }, _("Lobby")), e.title, e.status),
      h("div", { class: "table-page" },
        h("div", { class: "main-col" }, h("div", { class: "turn-bar" }, e.turn, e.timer), e.notice, e.end,
          e.board, e.prompt),
        h("aside", { class: "side-col" }, e.seats,
          h("h2", {}, _("Game log")), e.log)));
  }

  onMessage(m) {
    if (m.type === "welcome") {
      this.info = m.table;
      this.seat = m.seat;
      this.loadCards(m.cards_url);
      this.log = [];
      this.logOffset = null;
      const game = this.info.game;
      this.board = game === "creatures" ? new CreaturesBoard(this) : new GloomBoard(this);
      this.els.title.textContent = gameTitle(game);
      document.title = `${gameTitle(game)} \u2013 gloomtable`;
      this.sendSavedName();
    } else if (m.type === "state") {
      this.takeLog(m);
      this.msg = m;
      this.pending = false;
      if (this.info) this.info.seats = m.seats;
      this.render();
      if (m.next_table && !this.followed) this.follow(m.next_table);
    } else if (m.type === "seats") {
      if (this.msg) { this.msg.seats = m.seats; this.renderSeats(); }
    } else if (m.type === "error") {
      this.pending = false;
      const text = ERROR_TEXT[m.code] ? ERROR_TEXT[m.code]() : m.message;
      this.showNotice(text, m.code);
      if (this.msg) this.renderPrompt();
    }
  }

  async loadCards(url) {
    if (!url || this.cardsUrl === url) return;
    this.cardsUrl = url;
    try {
      const r = await fetch(url);
      const data = r.ok ? await r.json() : null;
      if (data && Array.isArray(data.cards)) {
        this.catalogue = data;
        this.render();
      }
    } catch {
      this.cardsUrl = null; // try again on the next welcome
    }
  }

  takeLog(m) {
    if (this.logOffset === null || m.log_start < this.logOffset) {
      this.logOffset = m.log_start;
      this.log = m.log.slice();
      return;
    }
    const expected = this.logOffset + this.log.length;
    if (m.log_start === expected) this.log.push(...m.log);
    else this.socket.send({ type: "sync" });
  }

  sendSavedName() {
    if (this.seat === null) return;
    let name = null;
    try { name = localStorage.getItem("gloomtable.name"); } catch { name = null; }
    if (name) this.socket.send({ type: "name", name });
  }

  seatName(i) {
    const seats = (this.msg && this.msg.seats) || (this.info && this.info.seats) || [];
    const s = seats[i];
    return s ? s.name : _("Player {n}", { n: i + 1 });
  }

  isMine() {
    return this.msg && this.seat !== null && this.msg.deciding === this.seat && !this.msg.over;
  }

  act(action) {
    if (!this.msg || this.pending) return;
    const narration = this.els.narration.value.trim();
    const sent = this.socket.send({ type: "act", action, state_id: this.msg.state_id,
      ...(narration ? { narration } : {}) });
    if (sent) {
      this.pending = true;
      this.els.narration.value = "";
      this.renderPrompt();
    } else {
      this.showNotice(_("Not connected; your choice was not sent. Reconnecting\u2026"), "offline");
    }
  }

  showNotice(text, code) {
    this.els.notice.textContent = text;
    this.els.notice.dataset.code = code || "";
    clearTimeout(this.noticeTimer);
    this.noticeTimer = setTimeout(() => { this.els.notice.textContent = ""; }, 6000);
  }

  async playAgain() {
    try {
      const r = await fetch(`/api/tables/${encodeURIComponent(this.tableId)}/again`, {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ token: this.token || "" }),
      });
      const data = await r.json();
      if (!r.ok) this.showNotice(data.message || _("Could not start another game."), data.code);
      else this.follow(data.id);
    } catch {
      this.showNotice(_("Could not reach the server."), "offline");
    }
  }

  follow(nextId) {
    // The server's "next_table" message and our own "play again" answer both lead
    // here; navigating twice would abort the first navigation.
    if (this.followed) return;
    this.followed = true;
    this.socket.close();
    clearInterval(this.clock);
    const frag = this.token ? `#token=${encodeURIComponent(this.token)}` : "";
    location.assign(`/table/${encodeURIComponent(nextId)}${frag}`);
  }

  // --- drawing ------------------------------------------------------------------

  render() {
    if (!this.msg || !this.board) return;
    this.renderStatus();
    this.renderTurn();
    this.renderTimer();
    this.board.render(this.els.board, this.msg);
    this.renderPrompt();
    this.renderSeats();
    this.renderLog();
    this.renderEnd();
  }

  renderStatus() {
    const text = {
      connecting: _("connecting\u2026"), online: _("connected"), reconnecting: _("reconnecting\u2026"),
      refused: _("refused by the server"), gone: _("connection lost; reload the page"),
    }[this.status] || this.status;
    this.els.status.textContent = text;
    this.els.status.dataset.status = this.status;
  }

  renderTurn() {
    const m = this.msg;
    let text;
    if (m.broken) text = _("This table cannot continue: {why}", { why: m.broken });
    else if (m.over) text = _("The game is over.");
    else if (this.isMine()) text = this.board.decisionText(m, true);
    else text = _("{name} is deciding: {what}", { name: this.seatName(m.deciding),
      what: this.board.decisionText(m, false) });
    const who = this.seat === null ? _("You are watching.")
      : _("You are {name}.", { name: this.seatName(this.seat) });
    replace(this.els.turn, h("span", { class: "who" }, who), " ", h("strong", {}, text));
    this.els.turn.classList.toggle("mine", !!this.isMine());
  }

  renderTimer() {
    const m = this.msg;
    if (!m || !m.deadline || m.over) { this.els.timer.textContent = ""; return; }
    const left = Math.max(0, Math.round(m.deadline - Date.now() / 1000));
    this.els.timer.textContent = ngettext("{n} second left", "{n} seconds left", left);
  }

  renderPrompt() {
    const el = this.els.prompt;
    if (!this.msg || !this.board) return;
    if (!this.isMine()) {
      replace(el);
      el.hidden = true;
      return;
    }
    el.hidden = false;
    const parts = this.board.prompt(this.msg);
    replace(el, parts,
      h("label", { class: "narration-label" }, _("Narration"), " ", this.els.narration));
    el.classList.toggle("pending", this.pending);
    for (const b of el.querySelectorAll("button.choice")) b.disabled = this.pending;
  }

  renderSeats() {
    const m = this.msg;
    const counts = this.board.handCounts(m.view) || [];
    const rows = (m.seats || []).map((s) => {
      const tags = [];
      if (s.seat === this.seat) tags.push(_("you"));
      if (s.kind === "bot") tags.push(_("bot"));
      else if (s.stand_in) tags.push(_("a bot plays while away"));
      else if (!s.connected) tags.push(_("away"));
      const cls = ["seat", s.seat === m.deciding ? "deciding" : "", s.connected || s.kind === "bot" ? "" : "away"];
      return h("li", { class: cls.join(" "), "data-seat": s.seat },
        h("span", { class: "dot" }), h("span", { class: "seat-name" }, s.name),
        tags.length ? h("span", { class: "tags" }, `(${tags.join(", ")})`) : null,
        counts[s.seat] !== undefined
          ? h("span", { class: "hand-count" }, ngettext("{n} card", "{n} cards", counts[s.seat])) : null);
    });
    const parts = [h("h2", {}, _("Seats")), h("ul", {}, rows)];
    if (this.seat !== null) {
      const input = h("input", { type: "text", maxlength: 40, value: this.seatName(this.seat),
        "aria-label": _("Your name") });
      parts.push(h("form", { class: "rename", onsubmit: (ev) => {
        ev.preventDefault();
        const name = input.value.trim();
        if (!name) return;
        try { localStorage.setItem("gloomtable.name", name); } catch { /* private mode */ }
        this.socket.send({ type: "name", name });
      } }, input, h("button", { type: "submit" }, _("Rename"))));
    } else {
      parts.push(h("p", { class: "spectator-note" }, _("Spectators see no hands.")));
    }
    replace(this.els.seats, parts);
  }

  renderLog() {
    const shown = this.log.slice(-LOG_SHOWN);
    replace(this.els.log, shown.map((e) => {
      if (e.kind === "narration") {
        return h("li", { class: "log-entry narration" }, h("q", {}, e.text), " \u2014 ",
          h("span", { class: "by" }, this.seatName(e.player)));
      }
      return h("li", { class: `log-entry kind-${e.kind}` }, e.text);
    }));
    this.els.log.scrollTop = this.els.log.scrollHeight;
  }

  renderEnd() {
    const m = this.msg;
    const el = this.els.end;
    if (!m.over) { el.hidden = true; replace(el); return; }
    el.hidden = false;
    const parts = this.board.endSummary(m.view);
    const again = this.seat !== null
      ? h("button", { class: "play-again", onclick: () => this.playAgain() }, _("Play again")) : null;
    const chronicle = m.view && m.view.families ? chronicleSection(this.tableId) : null; // Gloom tables
    replace(el, parts, again, chronicle);
  }
}
