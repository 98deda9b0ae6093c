// The table page shared by every game: connection, seats, prompt, narration,
// log, timer and the end of the game. The board itself is drawn by the game's
// own module, which the server names (the registry entry's `board`), from the
// view the server sent.

import { h, replace } from "./dom.js";
import { _, ngettext, seatLabel, withSeatNames } from "./i18n.js";
import { TableSocket } from "./net.js";
import { ButtonsBoard } from "./buttons_board.js";
import { chronicleSection } from "./chronicle.js";
import { LessonPanel } from "./lesson.js";
import { LogFollower } from "./log_follow.js";
import { TurnAnnouncer } from "./announce.js";
import { TalkPanel } from "./talk.js";
import { RematchOffer } from "./rematch.js";
import { useDeckIcons } from "./cards.js";

// The board that draws a table is the module the server names in the table's
// `board` (the registry entry's board script, a module of this folder whose default
// export is the board class: Gloomier is drawn by Gloom's), loaded on the first
// welcome. A table that names none (a game that ships no board), or a module that
// does not load, is drawn by the plain board: the view's facts and the choices as
// buttons, never another game's board reading keys its view does not have.
const BOARD_MODULE = /^[a-z][a-z0-9_]*\.js$/;
const boards = new Map(); // module name -> its board class, once loaded

function loadBoard(name) {
  if (!name || !BOARD_MODULE.test(name)) return Promise.resolve(ButtonsBoard);
  return import(`./${name}`).then((mod) => mod.default || ButtonsBoard, () => ButtonsBoard)
    .then((Board) => { boards.set(name, Board); return Board; });
}

const LOG_SHOWN = 200;
const AUTO_STAND_MS = 2500;
/** At a lesson's table (whose steps ask one player at a time) the automatic "let it
 *  stand" answers every response window after this same delay, whether or not this
 *  seat holds a response, so its timing tells nobody anything. Elsewhere the table
 *  itself gives every window one fixed pause, for all the seats at once. */
const LONG_PRESS_MS = 450;
const BUSY_RETRIES = 5;

function savedFlag(key, fallback) {
  try {
    const v = localStorage.getItem(key);
    return v === null ? fallback : v === "1";
  } catch {
    return fallback;
  }
}

/** Window widths above this show the side panel (seats, log) beside the table by default. */
const LOG_BESIDE_PX = 900;

function saveFlag(key, on) {
  try { localStorage.setItem(key, on ? "1" : "0"); } catch { /* private mode */ }
}

/** A table's title in the reader's language: the registry's English title (a message
 *  id of the catalogue) that the server sends with the table, else its game's name. */
export function gameTitle(name, title) {
  return title ? _(title) : name;
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

/** A table on a deck uploaded in the lobby says so, and each seat may open its gallery. */
function uploadedDecks(options) {
  const decks = (options && options.uploaded_decks) || [];
  if (!decks.length) return null;
  return h("span", { class: "uploaded-decks", "data-testid": "uploaded-decks" }, " \u2013 ", _("uploaded deck:"), " ",
    decks.map((d, i) => [i ? ", " : "", d.name, " (", h("a", { href: `/gallery?deck=${encodeURIComponent(d.key)}`,
      target: "_blank", rel: "noopener", "data-testid": `gallery-${d.key}` }, _("gallery")), ")"]));
}

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
    this.boardLoading = false;
    this.held = []; // messages that came while the board's module loaded
    this.status = "connecting";
    this.notice = "";
    this.clock = null;
    this.followed = false;
    this.autoStand = savedFlag("gloomtable.autostand", true);
    this.standTimer = null;
    this.standFor = null; // the state id the automatic answer waits on
    this.standAt = 0;
    this.logOpen = savedFlag("gloomtable.log", window.innerWidth > LOG_BESIDE_PX);
    this.followWidth();
    this.zoomPinned = false;
    this.build();
    this.lesson = new LessonPanel(this); // a guided game's steps (shown only at a lesson's table)
    document.addEventListener("keydown", (ev) => this.onKey(ev));
    document.addEventListener("pointerdown", (ev) => {
      this.keyboardUsed = false;
      if (this.zoomPinned && !this.els.zoom.contains(ev.target)) this.hideZoom();
    });
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
    document.body.classList.add("table-mode");
    this.els = {
      title: h("h1", { class: "table-title" }, _("Table")),
      status: h("span", { class: "conn-status", "data-testid": "conn-status" }),
      banner: h("div", { class: "conn-banner", "data-testid": "conn-banner", role: "alert", hidden: true }),
      turn: h("div", { class: "turn-line", "data-testid": "turn-line", "aria-live": "polite" }),
      timer: h("span", { class: "timer", "data-testid": "timer" }),
      notice: h("div", { class: "notice", role: "status" }),
      board: h("section", { class: "board", "data-testid": "board", "aria-label": _("The table") }),
      hand: h("section", { class: "hand-dock", "data-testid": "hand-dock", "aria-label": _("Your hand") }),
      prompt: h("div", { class: "prompt", "data-testid": "prompt" }),
      stand: h("div", { class: "auto-stand" }),
      seats: h("section", { class: "seats", "data-testid": "seats" }),
      end: h("section", { class: "end", "data-testid": "end", hidden: true }),
      log: h("ol", { class: "log", "data-testid": "log", tabindex: 0, "aria-label": _("Game log") }),
      side: h("aside", { class: "side-col", id: "side-panel", "data-testid": "side-panel",
        "aria-label": _("Seats and game log") }),
      logToggle: h("button", { type: "button", class: "log-toggle", "data-testid": "log-toggle",
        "aria-controls": "side-panel", onclick: () => this.toggleLog() },
      h("span", { class: "log-glyph", "aria-hidden": "true" }, "\u2630 "), h("span", { class: "log-label" }, _("Game log"))),
      zoom: h("aside", { class: "zoom", "data-testid": "zoom", hidden: true, "aria-label": _("Card zoom") }),
      narration: h("input", { type: "text", class: "narration", maxlength: 200, "data-testid": "narration",
        placeholder: _("Tell how it happened (optional)"), "aria-label": _("Narration") }),
    };
    const e = this.els;
    this.talk = new TalkPanel(this); // table talk (talk.js); the side column or a phone's sheet
    this.rematch = new RematchOffer(this); // "play again" offered, never forced (rematch.js)
    this.logFollow = new LogFollower(e.log);
    this.announcer = new TurnAnnouncer();
    const standBox = h("input", { type: "checkbox", "data-testid": "auto-stand", checked: this.autoStand,
      onchange: (ev) => {
        this.autoStand = ev.target.checked;
        saveFlag("gloomtable.autostand", this.autoStand);
        this.planStand();
      } });
    e.statusbar = h("section", { class: "statusbar", "data-testid": "statusbar", tabindex: -1,
      "aria-label": _("Your decision") },
    h("div", { class: "turn-bar" }, e.turn, e.timer), e.notice, e.prompt,
    h("div", { class: "statusbar-tools" },
      e.standLabel = h("label", { class: "auto-stand-label", hidden: true }, standBox, " ",
        _("Let it stand automatically")), e.stand,
      h("label", { class: "narration-label" }, e.narration)));
    e.side.append(e.seats, h("h2", {}, _("Game log")),
      h("div", { class: "log-wrap" }, e.log, this.logFollow.marker));
    replace(this.root,
      h("header", { class: "topbar" },
        h("a", { href: "/", class: "home" }, _("Lobby")), e.title, e.status, this.talk.toggle, e.logToggle),
      e.banner,
      h("div", { class: "table-page" },
        h("main", { class: "main-col" }, e.statusbar, e.hand,
          h("div", { class: "board-scroll", "data-testid": "board-scroll" }, e.end, e.board)),
        e.side),
      e.zoom);
    this.renderLogOpen();
  }

  /** Until the reader opens or closes the side panel, it follows the window: open
   *  beside a wide table, closed over a narrow one. A tablet turned from landscape to
   *  portrait, or a window made narrow, would otherwise keep it open over the board. */
  followWidth() {
    const wide = window.matchMedia(`(min-width: ${LOG_BESIDE_PX + 1}px)`);
    wide.addEventListener("change", (ev) => {
      if (savedFlag("gloomtable.log", null) !== null || this.logOpen === ev.matches) return;
      this.logOpen = ev.matches;
      if (this.els) this.renderLogOpen();
    });
  }

  toggleLog() {
    this.logOpen = !this.logOpen;
    saveFlag("gloomtable.log", this.logOpen);
    this.renderLogOpen();
  }

  renderLogOpen() {
    this.els.side.hidden = !this.logOpen;
    this.els.logToggle.setAttribute("aria-expanded", this.logOpen ? "true" : "false");
    document.body.classList.toggle("log-open", this.logOpen);
    if (this.logOpen && this.logFollow.following) this.logFollow.stick();
  }

  /** Seat numbers in the server's lines ("Player 2", "jugador 2", "игрока 2") become
   *  the seats' names. */
  names(text) {
    const seats = (this.msg && this.msg.seats) || (this.info && this.info.seats) || [];
    return withSeatNames(text, seats.map((s) => s.name));
  }

  // --- the zoom -------------------------------------------------------------------

  /** Make `el` zoom: hover, keyboard focus or a long press shows content() large. */
  zoomable(el, content) {
    el.classList.add("zoomable");
    el.addEventListener("mouseenter", () => { if (!this.zoomPinned) this.showZoom(el, content); });
    el.addEventListener("mouseleave", () => { if (!this.zoomPinned) this.hideZoom(); });
    el.addEventListener("focusin", () => { if (!this.zoomPinned) this.showZoom(el, content); });
    el.addEventListener("focusout", () => { if (!this.zoomPinned) this.hideZoom(); });
    let timer = null;
    let pressed = false;
    el.addEventListener("pointerdown", (ev) => {
      if (ev.pointerType === "mouse") return;
      pressed = false;
      clearTimeout(timer);
      timer = setTimeout(() => { pressed = true; this.showZoom(el, content, true); }, LONG_PRESS_MS);
    });
    const cancel = () => clearTimeout(timer);
    el.addEventListener("pointerup", cancel);
    el.addEventListener("pointercancel", cancel);
    el.addEventListener("pointermove", (ev) => { if (Math.abs(ev.movementX) + Math.abs(ev.movementY) > 6) cancel(); });
    el.addEventListener("contextmenu", (ev) => { if (pressed) ev.preventDefault(); });
    el.addEventListener("click", (ev) => {
      if (pressed) { pressed = false; ev.stopPropagation(); ev.preventDefault(); } // the long press was a zoom
    }, true);
    return el;
  }

  showZoom(el, content, pinned = false) {
    const z = this.els.zoom;
    replace(z, content(), pinned ? h("button", { type: "button", class: "zoom-close",
      onclick: () => this.hideZoom() }, _("Close")) : null);
    z.hidden = false;
    this.zoomPinned = pinned;
    const r = el.getBoundingClientRect();
    z.classList.toggle("left", r.left + r.width / 2 > window.innerWidth / 2);
    z.classList.toggle("pinned", pinned);
    this.placeZoom(r);
  }

  /** The zoom opens below the decision bar and inside the table's column, on the side
   *  away from the card it shows, so it never covers the choices or the seats. */
  placeZoom(r) {
    const z = this.els.zoom;
    const bar = this.els.statusbar.getBoundingClientRect();
    const gap = 6;
    const top = Math.max(bar.bottom + gap, 0);
    if (window.matchMedia("(max-width: 700px)").matches) { // a phone: a sheet from the bottom
      z.style.cssText = `max-height: ${Math.max(160, window.innerHeight - top)}px`;
      return;
    }
    const col = this.root.querySelector(".main-col").getBoundingClientRect();
    const width = Math.min(440, Math.max(240, col.width - 2 * gap));
    const onRight = r.left + r.width / 2 <= col.left + col.width / 2;
    const left = onRight ? col.right - gap - width : col.left + gap;
    z.style.cssText = `top: ${top}px; left: ${left}px; right: auto; width: ${width}px; ` +
      `max-height: ${Math.max(160, window.innerHeight - top - gap)}px`;
  }

  hideZoom() {
    this.zoomPinned = false;
    this.els.zoom.hidden = true;
    replace(this.els.zoom);
  }

  // --- keyboard ---------------------------------------------------------------------

  onKey(ev) {
    this.keyboardUsed = true;
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const tag = ev.target && ev.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") {
      if (ev.key === "Escape") ev.target.blur();
      return;
    }
    if (/^[1-9]$/.test(ev.key)) {
      const buttons = [...this.els.prompt.querySelectorAll("button.choice:not([disabled])")];
      const b = buttons[Number(ev.key) - 1];
      if (b) { ev.preventDefault(); b.click(); }
    } else if (ev.key === "Escape") {
      const zoomed = !this.els.zoom.hidden;
      const pinned = this.zoomPinned;
      if (zoomed) this.hideZoom();
      if (pinned) { ev.preventDefault(); return; } // a long-press zoom closes first
      if ((this.board && this.board.escape && this.board.escape()) || zoomed) ev.preventDefault();
    }
  }

  // --- let it stand automatically ------------------------------------------------------

  /** Any move of the player's own (picking a card) stops the automatic answer. */
  holdOn() {
    clearTimeout(this.standTimer);
    this.standTimer = null;
    this.standHeld = this.msg ? this.msg.state_id : null;
    this.renderStand();
  }

  /** Whether this page offers "let it stand automatically": a seat (not a spectator),
   *  at a game with responses, whose table asks one seat at a time (a lesson's). */
  offersStand() {
    return this.seat !== null && !!this.info && this.info.response_pause == null &&
      !!(this.board && this.board.letItStand);
  }

  planStand() {
    const m = this.msg;
    if (this.els.standLabel) this.els.standLabel.hidden = !this.offersStand();
    const action = m && !m.window && this.offersStand() && this.isMine() && this.board && this.board.letItStand ? this.board.letItStand(m) : null;
    if (action === null || !this.autoStand || this.standHeld === m.state_id || this.lesson.holdsStand(m)) {
      clearTimeout(this.standTimer);
      this.standTimer = null;
      this.standFor = null;
      this.renderStand();
      return;
    }
    if (this.standFor === m.state_id && this.standTimer) return;
    clearTimeout(this.standTimer);
    this.standFor = m.state_id;
    this.standAt = Date.now() + AUTO_STAND_MS;
    this.standTimer = setTimeout(() => {
      this.standTimer = null;
      if (this.msg && this.msg.state_id === this.standFor && this.isMine() && !this.pending) this.act(action);
    }, AUTO_STAND_MS);
    this.renderStand();
  }

  renderStand() {
    const on = !!this.standTimer;
    this.els.stand.textContent = on
      ? ngettext("It stands in {n} second unless you respond.", "It stands in {n} seconds unless you respond.",
        Math.max(1, Math.ceil((this.standAt - Date.now()) / 1000)))
      : "";
  }

  onMessage(m) {
    if (m.type === "talk") { this.talk.take(m); return; }
    // While the board's module loads, the table's messages wait, in order, for it.
    if (this.boardLoading) { this.held.push(m); return; }
    this.take(m);
  }

  /** The board of this table's welcome: at once if its module is loaded, else once it
   *  is, the messages that came meanwhile taken then in the order they came. */
  useBoard(name) {
    const Board = name ? boards.get(name) : ButtonsBoard;
    if (Board) { this.board = new Board(this); return; }
    this.board = null;
    this.boardLoading = true;
    loadBoard(name).then((Loaded) => {
      this.board = new Loaded(this);
      this.boardLoading = false;
      while (this.held.length && !this.boardLoading) this.take(this.held.shift());
      this.render();
    });
  }

  take(m) {
    if (m.type === "error" && this.talk.error(m)) return; // a refused line of talk, not a move
    if (m.type === "welcome") {
      // a page from an older server, open across an upgrade: say so, and offer a reload
      if (this.version && m.version && m.version !== this.version) this.newerServer = true;
      this.version = this.version || m.version || null;
      this.info = m.table;
      this.seat = m.seat;
      this.loadCards(m.cards_url);
      this.log = [];
      this.logOffset = null;
      const game = this.info.game;
      this.useBoard(this.info.board);
      // A deal its creator chose (a server started with --allow-fixed-deals): everyone is told.
      replace(this.els.title, gameTitle(game, this.info.title), this.info.fixed_deal
        ? h("span", { class: "fixed-deal", "data-testid": "fixed-deal" }, " (", _("fixed deal"), ")") : null,
      uploadedDecks(this.info.options));
      document.title = `${gameTitle(game, this.info.title)} \u2013 gloomtable`;
      this.announcer.setBase(document.title);
      this.sendSavedName();
    } else if (m.type === "state") {
      this.lastAct = null;
      clearTimeout(this.retryTimer);
      this.takeLog(m);
      if (this.ratings === undefined || (m.over && !this.ratingsAfter)) this.loadRatings(m.over);
      this.msg = m;
      this.pending = false;
      if (this.info) this.info.seats = m.seats;
      this.render();
      this.rematch.update(m); // offered on the end screen; this page stays where it is
    } else if (m.type === "answer") {
      this.answerFate(m);
    } else if (m.type === "seats") {
      // every place a name shows (families, the status line, the log, talk) follows a rename at once
      if (this.msg) {
        this.msg.seats = m.seats;
        if (this.info) this.info.seats = m.seats;
        this.render();
        this.talk.render();
      }
    } else if (m.type === "error") {
      if (m.code === "server_busy" && this.retryAct()) return;
      this.lastAct = null;
      this.pending = false;
      const text = ERROR_TEXT[m.code] ? ERROR_TEXT[m.code]() : this.names(m.message);
      if (m.code !== "lesson_step") this.showNotice(text, m.code); // the lesson panel explains it
      if (this.msg) this.renderPrompt();
      this.lesson.error(m);
    }
  }

  async loadCards(url) {
    if (!url || this.cardsUrl === url) return;
    this.cardsUrl = url;
    try {
      const r = await fetch(url);
      const data = r.ok ? await r.json() : null;
      if (data && Array.isArray(data.cards)) {
        useDeckIcons(data.icons); // a deck's own icons: its glyphs and names
        this.catalogue = data;
        this.render();
      }
    } catch {
      this.cardsUrl = null; // try again on the next welcome
    }
  }

  takeLog(m) {
    if (this.logOffset === null || m.log_start < this.logOffset || m.resync) {
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
    return s ? seatLabel(s.name) : _("Player {n}", { n: i + 1 });
  }

  isMine() {
    const m = this.msg;
    if (!m || this.seat === null || m.over) return false;
    if (m.window) return m.window.seats.includes(this.seat) && !m.window.answered;
    return m.deciding === this.seat;
  }

  /** The seats being asked now: every seat of an open response window, else the one deciding. */
  askedSeats() {
    const m = this.msg;
    if (!m || m.over) return [];
    return m.window ? m.window.seats : [m.deciding];
  }

  /** The table's word on this seat's answer to a response window that just closed:
   *  an answer it did not take is said so, never left for the page to guess. */
  answerFate(m) {
    const text = {
      not_asked: () => _("A seat before you in turn order answered first; your answer was not needed."),
      unconfirmed: () => _("Your answer is not confirmed yet: the table shows what it holds once the database answers."),
      not_taken: () => _("The table moved on before your answer was taken; here is the current state."),
    }[m.result];
    if (text) this.showNotice(text(), `answer_${m.result}`);
  }

  /** A move refused because the server was busy goes again, the same move at the same
   *  state id (the server takes it at most once), a few times with growing pauses. */
  retryAct() {
    const last = this.lastAct;
    if (!last || !this.msg || last.body.state_id !== this.msg.state_id || last.tries >= BUSY_RETRIES) return false;
    last.tries += 1;
    this.showNotice(_("The server is busy; sending your choice again\u2026"), "server_busy");
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      if (this.lastAct === last && !this.socket.send(last.body)) { this.lastAct = null; this.pending = false; this.renderPrompt(); }
    }, 500 * 2 ** (last.tries - 1));
    return true;
  }

  act(action) {
    if (!this.msg || this.pending) return;
    const narration = this.els.narration.value.trim();
    const body = { type: "act", action, state_id: this.msg.state_id, ...(narration ? { narration } : {}) };
    const sent = this.socket.send(body);
    this.lastAct = sent ? { body, tries: 0 } : null;
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
    // Our own "play again" answer and accepting the offer of another's both lead
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
    const active = document.activeElement;
    const focusKey = active && active !== document.body && this.root.contains(active)
      ? active.dataset.focus || "" : null;
    const lost = active === document.body || (active && !active.isConnected);
    this.renderStatus();
    this.renderTurn();
    this.renderTimer();
    this.board.render(this.els.board, this.msg);
    this.board.renderHand(this.els.hand, this.msg);
    this.renderPrompt();
    this.renderSeats();
    this.renderLog();
    this.renderEnd();
    this.planStand();
    this.lesson.render(this.msg);
    this.announcer.update(!!this.isMine(), this.msg.state_id);
    this.els.zoom.hidden = this.els.zoom.hidden || !this.zoomPinned;
    if (focusKey !== null || (lost && this.keyboardUsed)) this.restoreFocus(focusKey);
  }

  /** A re-render draws everything anew: keep the keyboard where it was, or bring it
   *  back to the decision when the element it was on went away. */
  restoreFocus(key) {
    const same = key ? this.root.querySelector(`[data-focus="${CSS.escape(key)}"]`) : null;
    if (same) { same.focus({ preventScroll: false }); return; }
    if (document.activeElement && document.activeElement !== document.body &&
        this.root.contains(document.activeElement)) return;
    this.els.statusbar.focus({ preventScroll: true });
  }

  renderStatus() {
    const text = {
      connecting: _("connecting\u2026"), online: _("connected"), reconnecting: _("reconnecting\u2026"),
      refused: _("refused by the server"), gone: _("connection lost; reload the page"),
    }[this.status] || this.status;
    this.els.status.textContent = text;
    this.els.status.dataset.status = this.status;
    const down = this.status === "reconnecting" || this.status === "gone" || this.status === "refused";
    const banner = this.els.banner;
    banner.hidden = !down && !this.newerServer;
    banner.dataset.status = this.newerServer ? "newer" : this.status;
    const reload = h("button", { type: "button", class: "reload", "data-testid": "reload",
      onclick: () => location.reload() }, _("Reload"));
    if (this.newerServer) {
      replace(banner, _("The server was updated. Reload the page to go on playing."), " ", reload);
    } else if (down) {
      replace(banner, {
        reconnecting: _("The connection to the table was lost. Reconnecting\u2026"),
        gone: _("The connection to the table is lost. Reload the page."),
        refused: _("The server refused this connection."),
      }[this.status], this.status === "reconnecting" ? null : " ", this.status === "reconnecting" ? null : reload);
    } else {
      replace(banner);
    }
    document.body.classList.toggle("offline", down);
    if (this.msg) this.renderSeats();
  }

  renderTurn() {
    const m = this.msg;
    let text;
    if (m.broken) text = _("This table cannot continue: {why}", { why: m.broken });
    else if (m.over) text = _("The game is over.");
    else if (this.isMine()) text = this.board.decisionText(m, true);
    else if (m.window && m.window.answered) text = _("You answered; the card is settled when the pause ends.");
    else if (m.window) text = _("The other players may respond to the card being played.");
    else text = _("{name} is deciding: {what}", { name: this.seatName(m.deciding),
      what: this.board.decisionText(m, false) });
    const who = this.seat === null ? _("You are watching.")
      : _("You are {name}.", { name: this.seatName(this.seat) });
    replace(this.els.turn, h("span", { class: "who" }, who), " ", h("strong", {}, text));
    this.els.turn.classList.toggle("mine", !!this.isMine());
    this.els.statusbar.classList.toggle("over", !!m.over);
  }

  renderTimer() {
    if (this.standTimer) this.renderStand();
    const m = this.msg;
    if (!m || !m.deadline || m.over) { this.els.timer.textContent = ""; return; }
    const left = Math.max(0, Math.round(m.deadline - Date.now() / 1000));
    this.els.timer.textContent = ngettext("{n} second left", "{n} seconds left", left);
  }

  renderPrompt() {
    const el = this.els.prompt;
    if (!this.msg || !this.board) return;
    this.els.statusbar.classList.toggle("mine", !!this.isMine());
    if (!this.isMine()) {
      replace(el);
      el.hidden = true;
      return;
    }
    el.hidden = false;
    replace(el, this.board.prompt(this.msg));
    el.classList.toggle("pending", this.pending);
    for (const b of el.querySelectorAll("button.choice")) b.disabled = this.pending;
  }

  renderSeats() {
    const m = this.msg;
    const counts = this.board.handCounts(m.view) || [];
    const rows = (m.seats || []).map((s) => {
      const tags = [];
      const offline = this.status !== "online";
      if (s.seat === this.seat) tags.push(_("you"));
      if (s.kind === "bot") tags.push(_("bot"));
      else if (s.stand_in) tags.push(_("a bot plays while away"));
      else if (!s.connected) tags.push(_("away"));
      const away = !(s.connected || s.kind === "bot");
      const cls = ["seat", this.askedSeats().includes(s.seat) ? "deciding" : "", away ? "away" : "", offline ? "unknown" : ""];
      return h("li", { class: cls.join(" "), "data-seat": s.seat },
        h("span", { class: "dot" }), h("span", { class: "seat-name" }, seatLabel(s.name)),
        this.ratingOf(s.seat) !== null
          ? h("span", { class: "rating", "data-testid": `seat-rating-${s.seat}` },
            " ", _("rating {n}", { n: this.ratingOf(s.seat) })) : null,
        tags.length ? h("span", { class: "tags" }, `(${tags.join(", ")})`) : null,
        counts[s.seat] !== undefined
          ? h("span", { class: "hand-count" }, ngettext("{n} card", "{n} cards", counts[s.seat])) : null);
    });
    if (!this.els.seatList) {
      this.els.seatList = h("ul", {});
      replace(this.els.seats, h("h2", {}, _("Seats")), this.els.seatList);
    }
    replace(this.els.seatList, rows);
    if (this.seat !== null) {
      // one form kept in place across re-renders, so a name being typed survives the table's moves
      if (!this.els.rename) {
        const input = h("input", { type: "text", maxlength: 40, "aria-label": _("Your name"),
          "data-focus": "rename" });
        this.els.renameInput = input;
        this.els.rename = h("form", { class: "rename", onsubmit: (ev) => {
          ev.preventDefault();
          const name = input.value.trim();
          if (!name) return;
          try { localStorage.setItem("gloomtable.name", name); } catch { /* private mode */ }
          this.socket.send({ type: "name", name });
          input.blur();
        } }, input, h("button", { type: "submit" }, _("Rename")));
        this.els.seats.append(this.els.rename, this.announcer.controls());
      }
      if (document.activeElement !== this.els.renameInput) this.els.renameInput.value = this.seatName(this.seat);
    } else if (!this.els.spectatorNote) {
      this.els.spectatorNote = h("p", { class: "spectator-note" }, _("Spectators see no hands."));
      this.els.seats.append(this.els.spectatorNote);
    }
  }

  renderLog() {
    const shown = this.log.slice(-LOG_SHOWN);
    const newest = this.logOffset + this.log.length;
    const grew = this.logNewest !== undefined && newest > this.logNewest;
    this.logNewest = newest;
    replace(this.els.log, shown.map((e) => {
      if (e.kind === "narration") {
        // a stand-in's (or a timed-out seat's) bot speaks for itself, not for the absent person
        const by = e.actor === "stand_in" || e.actor === "timeout"
          ? _("{name}'s stand-in bot", { name: this.seatName(e.player) }) : this.seatName(e.player);
        return h("li", { class: "log-entry narration" }, h("q", {}, this.names(e.text)), " \u2014 ",
          h("span", { class: "by" }, by));
      }
      return h("li", { class: `log-entry kind-${e.kind}` }, this.names(e.text));
    }));
    this.logFollow.after(grew);
  }

  /** The rating beside each account's seat (docs/server.md, "Ratings"): read when the page
   *  opens and once more when the game is over, so the end screen shows the change. */
  async loadRatings(over) {
    if (over) this.ratingsAfter = true;
    else this.ratings = null;
    let seats = {};
    try {
      seats = (await (await fetch(`/api/tables/${encodeURIComponent(this.tableId)}/ratings`)).json()).seats || {};
    } catch { return; }
    if (over) this.ratingsEnd = seats;
    else this.ratings = seats;
    if (this.msg) { this.renderSeats(); this.renderEnd(); }
  }

  ratingOf(seat) {
    const r = (this.ratingsEnd || this.ratings || {})[String(seat)];
    return r && Number.isInteger(r.rating) ? r.rating : null;
  }

  ratingChanges() {
    if (!this.ratingsEnd || !this.ratings) return null;
    const rows = [];
    for (const [seat, after] of Object.entries(this.ratingsEnd)) {
      const before = this.ratings[seat];
      if (!Number.isInteger(after.rating)) continue;
      const was = before && Number.isInteger(before.rating) ? before.rating : 0;
      if (was === after.rating && before && Number.isInteger(before.rating)) continue;
      rows.push(h("li", { "data-seat": seat }, _("{name}: rating {before} → {after}",
        { name: after.account, before: was, after: after.rating })));
    }
    return rows.length ? h("section", { class: "rating-changes", "data-testid": "rating-changes" },
      h("h3", {}, _("Ratings")), h("ul", {}, rows)) : null;
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
    replace(el, parts, this.ratingChanges(), this.rematch.element(), this.rematch.next ? null : again, chronicle);
  }
}
