// The lobby: create a table (game, options, who sits where), get one invite
// link per person seat, see the open tables, join or spectate.

import { AccountPanel } from "./account.js";
import { h, replace } from "./dom.js";
import { _, currentLanguage, ngettext } from "./i18n.js";

const REFRESH_MS = 5000;
const MAX_REFRESHES = 120; // ten minutes of automatic refreshing, then a button
const PAGE = 20; // tables per page of the listing (the server caps it too)

function savedName() {
  try { return localStorage.getItem("gloomtable.name") || ""; } catch { return ""; }
}

function saveName(name) {
  try { localStorage.setItem("gloomtable.name", name); } catch { /* private mode */ }
}

async function api(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  if (method !== "GET") { // a signed-in session's CSRF token (docs/security.md) goes with every POST
    try {
      const me = await (await fetch("/api/account")).json();
      if (me.csrf) headers["X-CSRF-Token"] = me.csrf;
    } catch { /* not signed in */ }
  }
  const r = await fetch(path, { method, headers,
    body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await r.json(); } catch { data = null; }
  if (!r.ok) {
    const err = new Error((data && data.message) || _("The server refused ({status}).", { status: r.status }));
    err.problems = data && data.problems; // an upload's every problem
    throw err;
  }
  return data;
}

function optionLabel(opt) {
  const labels = {
    edition: () => _("Edition"),
    beginner: () => _("Beginner (no card effects)"),
    stories_guests: () => _("Stories and Guests in the middle"),
  };
  // another game's label is a message id of the catalogue (its package marks it N_)
  return labels[opt.key] ? labels[opt.key]() : _(opt.label || opt.key);
}

export class Lobby {
  constructor(root) {
    this.root = root;
    this.info = null;
    this.refreshes = 0;
    this.timer = null;
    this.offset = 0;
  }

  async start() {
    this.info = await api("GET", "/api/games");
    this.myDecks = [];
    try { (await api("GET", "/api/decks")).decks.forEach((d) => this.offerDeck(d)); } catch { /* none */ }
    this.account = new AccountPanel(this.info.games);
    this.build();
    this.account.start();
    this.refresh();
    this.timer = setInterval(() => {
      this.refreshes += 1;
      if (this.refreshes >= MAX_REFRESHES) clearInterval(this.timer);
      else this.refresh();
    }, REFRESH_MS);
  }

  build() {
    const games = this.info.games;
    this.els = {
      name: h("input", { type: "text", maxlength: 40, value: savedName(), "data-testid": "your-name",
        placeholder: _("Your name"), oninput: (ev) => saveName(ev.target.value.trim()) }),
      game: h("select", { name: "game", "data-testid": "game", onchange: () => this.buildOptions() },
        games.map((g) => h("option", { value: g.name }, _(g.title)))),
      players: h("select", { name: "players", "data-testid": "players", onchange: () => this.buildSeats() }),
      options: h("div", { class: "game-options" }),
      seats: h("div", { class: "seat-rows", "data-testid": "seat-rows" }),
      listed: h("input", { type: "checkbox", checked: true, "data-testid": "listed" }),
      spectators: h("input", { type: "checkbox", checked: true, "data-testid": "spectators" }),
      spectatorTalk: h("input", { type: "checkbox", "data-testid": "spectator-talk" }),
      talkInRecord: h("input", { type: "checkbox", "data-testid": "talk-in-record" }),
      timer: h("input", { type: "number", min: 0, max: 3600, value: 0, "data-testid": "turn-timer" }),
      onTimeout: h("select", { "data-testid": "on-timeout" },
        h("option", { value: "bot" }, _("a bot plays for the seat")),
        h("option", { value: "pass" }, _("the seat passes"))),
      botDelay: h("input", { type: "number", min: 0, max: 10000, value: 700, "data-testid": "bot-delay" }),
      // R-G20 online: every other seat gets one fixed pause to answer a card (the server's 0.5 to 30 s)
      responsePause: h("input", { type: "number", min: 0.5, max: 30, step: 0.5, value: 2.5,
        "data-testid": "response-pause" }),
      replaceAbsent: h("input", { type: "checkbox", "data-testid": "replace-absent" }),
      absentAfter: h("input", { type: "number", min: 0, max: 3600, value: 20, "data-testid": "absent-after" }),
      seed: h("input", { type: "number", min: 0, "data-testid": "seed", placeholder: _("random") }),
      pages: h("div", { class: "table-pages", "data-testid": "table-pages" }),
      created: h("section", { class: "created", "data-testid": "created", hidden: true }),
      error: h("p", { class: "error", role: "alert" }),
      list: h("div", { class: "table-list", "data-testid": "table-list" }),
    };
    const e = this.els;
    const form = h("form", { class: "create-form", "data-testid": "create-form",
      onsubmit: (ev) => { ev.preventDefault(); this.create(); } },
    h("h2", {}, _("New table")),
    h("label", {}, _("Game"), " ", e.game),
    h("label", {}, _("Seats"), " ", e.players),
    e.options,
    h("fieldset", {}, h("legend", {}, _("Who sits where")), e.seats),
    h("fieldset", { class: "table-options" }, h("legend", {}, _("Table options")),
      h("label", {}, e.listed, " ", _("List this table in the lobby")),
      h("label", {}, e.spectators, " ", _("Allow spectators")),
      h("label", {}, e.spectatorTalk, " ", _("Spectators may talk among themselves")),
      h("label", {}, e.talkInRecord, " ", _("Keep the table talk in the chronicle")),
      h("label", {}, _("Turn timer in seconds (0 = none)"), " ", e.timer),
      h("label", {}, _("When the timer runs out"), " ", e.onTimeout),
      h("label", {}, _("Bot delay in milliseconds"), " ", e.botDelay),
      h("label", {}, _("Seconds to answer a card played out of turn"), " ", e.responsePause),
      h("label", {}, e.replaceAbsent, " ", _("A bot plays for a person who leaves, after"), " ", e.absentAfter,
        " ", _("seconds")),
      // Only a server started with --allow-fixed-deals takes a chosen deal; the table then
      // says "fixed deal" to everyone and is never listed.
      this.info.fixed_deals
        ? h("label", {}, _("Fixed deal number (optional; everyone is told, and the table is not listed)"),
          " ", e.seed) : null),
    h("button", { type: "submit", class: "primary", "data-testid": "create" }, _("Create the table")),
    e.error);
    replace(this.root,
      h("header", { class: "topbar" }, h("h1", {}, "gloomtable"),
        h("label", { class: "your-name" }, _("Your name"), " ", e.name)),
      h("main", { class: "lobby" },
        h("div", { class: "lobby-col" }, this.learn(), form, e.created, this.uploads()),
        h("div", { class: "lobby-col" },
          this.account.el,
          h("h2", {}, _("Open tables")),
          h("button", { type: "button", onclick: () => this.refresh(), "data-testid": "refresh" }, _("Refresh")),
          e.list, e.pages)));
    this.buildOptions();
  }

  /** "Your decks": upload a deck file (with its translation files, NAME.LANG.toml); the
   * server checks it and offers it in this form's card sets (docs/decks.md). */
  uploads() {
    const e = this.els;
    e.deckFiles = h("input", { type: "file", multiple: true, accept: ".toml", "data-testid": "deck-files",
      "aria-label": _("Deck file and its translations") });
    e.uploadProblems = h("ul", { class: "error", role: "alert", "data-testid": "upload-problems" });
    e.uploadNote = h("p", { "data-testid": "upload-note" });
    e.myDecks = h("ul", { class: "my-decks", "data-testid": "my-decks" });
    this.renderMyDecks();
    return h("section", { class: "uploads", "data-testid": "uploads" },
      h("h2", {}, _("Your decks")),
      h("p", {}, _("Play your own deck: choose its file (and its translations, named like deck.es.toml).")),
      h("label", {}, e.deckFiles), " ",
      h("button", { type: "button", "data-testid": "upload-deck", onclick: () => this.upload() }, _("Upload")),
      e.uploadNote, e.uploadProblems, e.myDecks);
  }

  renderMyDecks() {
    replace(this.els.myDecks, this.myDecks.map((d) => h("li", { "data-testid": `my-deck-${d.key}` },
      this.setName(d.key), " ",
      d.gallery ? h("a", { href: d.gallery, target: "_blank", rel: "noopener" }, _("gallery")) : null)));
  }

  /** Offer an uploaded deck in the form's card sets (Gloom's boxes, Crazy Creatures' list). */
  offerDeck(d) {
    this.info.set_names = { ...(this.info.set_names || {}), [d.key]: d.names || { en: d.name } };
    const list = d.kind === "variant" ? this.info.creature_sets : this.info.gloom_sets;
    if (!list.includes(d.key)) list.push(d.key);
    if (!this.myDecks.some((x) => x.key === d.key)) this.myDecks.push(d);
  }

  async upload() {
    const e = this.els;
    replace(e.uploadProblems);
    e.uploadNote.textContent = "";
    const files = [...e.deckFiles.files];
    const lang = /^(.+)\.([a-z]{2,3}(?:-[A-Za-z]+)?)\.toml$/;
    const deck = files.find((f) => !lang.test(f.name)) || files[0];
    if (!deck) { e.uploadNote.textContent = _("Choose a deck file first."); return; }
    const stem = deck.name.replace(/\.toml$/, "");
    const translations = {};
    for (const f of files) {
      const m = lang.exec(f.name);
      if (f !== deck && m && m[1] === stem) translations[m[2]] = await f.text();
    }
    try {
      const d = await api("POST", "/api/decks", { deck: await deck.text(), file: deck.name, translations });
      this.offerDeck(d);
      this.buildOptions();
      this.renderMyDecks();
      e.uploadNote.textContent = _("{name} is ready: choose it in the card sets above.", { name: this.setName(d.key) });
      replace(e.uploadProblems, (d.warnings || []).map((w) => h("li", { class: "warning" }, w)));
    } catch (err) {
      replace(e.uploadProblems, (err.problems || [err.message]).map((p) => h("li", {}, p)));
    }
  }

  /** "Learn to play": a guided first game of each game (docs/learn.md), one button each. */
  learn() {
    const lessons = this.info.games.filter((g) => g.lesson); // the server says which have one
    if (!lessons.length) return null;
    this.els.learnError = h("p", { class: "error", role: "alert" });
    return h("section", { class: "learn", "data-testid": "learn", "aria-labelledby": "learn-head" },
      h("h2", { id: "learn-head" }, _("Learn to play")),
      h("p", {}, _("A short guided game against bots: each step says what to look at and what to do.")),
      h("div", { class: "learn-buttons" }, lessons.map((g) => h("button", { type: "button",
        "data-testid": `learn-${g.name}`, onclick: () => this.startLesson(g.name) }, _(g.title)))),
      this.els.learnError);
  }

  async startLesson(name) {
    this.els.learnError.textContent = "";
    try {
      const r = await api("POST", "/api/lessons", { lesson: name });
      location.assign(r.link);
    } catch (err) {
      this.els.learnError.textContent = err.message;
    }
  }

  game() {
    return this.info.games.find((g) => g.name === this.els.game.value) || this.info.games[0];
  }

  /** A set's name in the page's language (its id when the server sends none). */
  setName(set) {
    const names = (this.info.set_names || {})[set] || {};
    return names[currentLanguage()] || names.en || set;
  }

  buildOptions() {
    const g = this.game();
    const [lo, hi] = g.players;
    replace(this.els.players, Array.from({ length: hi - lo + 1 }, (_x, i) =>
      h("option", { value: lo + i, selected: lo + i === g.default_players }, String(lo + i))));
    const opts = g.options.map((opt) => {
      if (opt.kind === "sets") {
        return h("fieldset", { class: "sets" }, h("legend", {}, _("Card sets")),
          this.info.gloom_sets.map((set) => h("label", {},
            h("input", { type: "checkbox", name: "set", value: set, checked: set === "classic",
              "data-testid": `set-${set}` }), " ", this.setName(set))));
      }
      if (opt.kind === "creature_set") {  // the shipped set or a variant the server was started with
        return h("label", {}, _("Card sets"), " ", h("select", { name: "creature_set", "data-testid": "opt-creature-set" },
          this.info.creature_sets.map((set, i) => h("option", { value: set, selected: i === 0 }, // shipped first
            this.setName(set)))));
      }
      if (opt.kind === "bool") {
        return h("label", {}, h("input", { type: "checkbox", name: opt.key, checked: !!opt.default,
          "data-testid": `opt-${opt.key}` }), " ", optionLabel(opt));
      }
      return h("label", {}, optionLabel(opt), " ", h("select", { name: opt.key, "data-testid": `opt-${opt.key}` },
        opt.values.map((v) => h("option", { value: v, selected: v === opt.default }, String(v)))));
    });
    replace(this.els.options, opts);
    this.buildSeats();
  }

  buildSeats() {
    const n = Number(this.els.players.value);
    const rows = [];
    for (let i = 0; i < n; i++) {
      const kind = h("select", { class: "seat-kind", "data-testid": `seat-kind-${i}`,
        "aria-label": _("Seat {n}", { n: i + 1 }) },
        h("option", { value: "person", selected: i === 0 }, _("a person")),
        h("option", { value: "open" }, _("an open seat (anyone may join)")),
        h("option", { value: "bot", selected: i > 0 }, _("a bot")));
      const level = h("select", { class: "seat-level", "data-testid": `seat-level-${i}`,
        title: _("Bot level (for a person: the bot that stands in when the timer runs out or they leave)"),
        "aria-label": _("Bot level (for a person: the bot that stands in when the timer runs out or they leave)") },
        this.info.levels.map((l) => h("option", { value: l, selected: l === "medium" }, _(l))));
      const name = h("input", { type: "text", class: "seat-name", maxlength: 40, "data-testid": `seat-name-${i}`,
        placeholder: _("name (optional)"), value: i === 0 ? savedName() : "" });
      rows.push(h("div", { class: "seat-row", "data-seat": i },
        h("span", {}, _("Seat {n}", { n: i + 1 })), kind, level, name));
    }
    replace(this.els.seats, rows);
  }

  collect() {
    const g = this.game();
    const config = {};
    for (const opt of g.options) {
      if (opt.kind === "sets") {
        const sets = [...this.els.options.querySelectorAll("input[name=set]:checked")].map((i) => i.value);
        config.sets = sets.length ? sets : ["classic"];
      } else if (opt.kind === "creature_set") {
        config.sets = [this.els.options.querySelector("select[name=creature_set]").value];
      } else if (opt.kind === "bool") {
        config[opt.key] = this.els.options.querySelector(`input[name=${opt.key}]`).checked;
      } else {
        config[opt.key] = Number(this.els.options.querySelector(`select[name=${opt.key}]`).value);
      }
    }
    const seats = [...this.els.seats.querySelectorAll(".seat-row")].map((row) => ({
      kind: row.querySelector(".seat-kind").value,
      level: row.querySelector(".seat-level").value,
      name: row.querySelector(".seat-name").value.trim(),
    }));
    return {
      game: g.name, config, seats,
      listed: this.els.listed.checked, spectators: this.els.spectators.checked,
      spectator_talk: this.els.spectatorTalk.checked, talk_in_record: this.els.talkInRecord.checked,
      turn_timer: Number(this.els.timer.value) || 0, on_timeout: this.els.onTimeout.value,
      bot_delay_ms: Number(this.els.botDelay.value) || 0,
      response_pause_ms: Math.round((Number(this.els.responsePause.value) || 2.5) * 1000),
      replace_absent: this.els.replaceAbsent.checked, absent_after: Number(this.els.absentAfter.value) || 0,
      ...(this.info.fixed_deals && this.els.seed.value !== "" ? { seed: Number(this.els.seed.value) } : {}),
    };
  }

  async create() {
    this.els.error.textContent = "";
    try {
      const t = await api("POST", "/api/tables", this.collect());
      this.showCreated(t);
      this.refresh();
    } catch (err) {
      this.els.error.textContent = err.message;
    }
  }

  showCreated(t) {
    const base = location.origin;
    const fixed = t.fixed_deal
      ? h("p", { class: "fixed-deal", "data-testid": "fixed-deal" },
        _("Fixed deal: this table's shuffle was chosen when it was created; everyone at it is told."))
      : null;
    const rows = t.invites.map((inv) => h("li", { class: "invite", "data-seat": inv.seat },
      h("span", {}, _("Seat {n}", { n: inv.seat + 1 }), ": ", inv.name, " "),
      h("input", { type: "text", readonly: true, value: base + inv.link, class: "invite-link",
        "aria-label": _("Invite link"), onfocus: (ev) => ev.target.select() }),
      " ",
      h("a", { href: inv.link, class: "take-seat", "data-testid": `take-seat-${inv.seat}` }, _("Take this seat"))));
    replace(this.els.created,
      h("h2", {}, _("Your table is ready")),
      h("p", {}, _("Send each person their own link: it carries that seat's secret token.")),
      fixed, h("ul", { class: "invites" }, rows),
      h("p", {}, h("a", { href: t.spectate, "data-testid": "spectate-link" }, _("Watch as a spectator"))));
    this.els.created.hidden = false;
  }

  async refresh() {
    let data;
    try { data = await api("GET", `/api/tables?offset=${this.offset}&limit=${PAGE}`); } catch { return; }
    if (data.offset > 0 && data.offset >= data.total) { // the page emptied: back to the first
      this.offset = 0;
      this.refresh();
      return;
    }
    const games = Object.fromEntries(this.info.games.map((g) => [g.name, _(g.title)]));
    const rows = data.tables.map((t) => h("div", { class: "table-row", "data-table": t.id },
      h("strong", {}, games[t.game] || t.game), " ",
      h("span", { class: "seat-list" }, this.seatNames(t)), " ",
      (t.uploaded || []).length ? h("span", { class: "uploaded", "data-testid": "uploaded-tag" },
        _("uploaded deck: {names}", { names: t.uploaded.join(", ") }), " ") : null,
      h("span", { class: "open" }, t.open_seats
        ? ngettext("{n} open seat", "{n} open seats", t.open_seats) : _("full")), " ",
      t.open_seats ? h("button", { type: "button", class: "join", onclick: () => this.join(t.id) }, _("Join")) : null,
      t.spectators ? h("a", { href: `/table/${t.id}`, class: "spectate" }, _("Watch")) : null));
    replace(this.els.list, rows.length ? rows : [h("p", {}, _("No open tables yet."))]);
    const last = Math.min(data.offset + data.tables.length, data.total);
    replace(this.els.pages, data.total > data.limit ? [
      h("button", { type: "button", "data-testid": "tables-previous", disabled: data.offset === 0,
        onclick: () => { this.offset = Math.max(0, data.offset - data.limit); this.refresh(); } }, _("Previous")),
      " ", h("span", {}, _("{first}–{last} of {total}", { first: data.offset + 1, last, total: data.total })), " ",
      h("button", { type: "button", "data-testid": "tables-next", disabled: last >= data.total,
        onclick: () => { this.offset = data.offset + data.limit; this.refresh(); } }, _("Next"))] : []);
  }

  /** The seats' names, each with the rating of the account sitting there, if it has one
   * in this game (docs/server.md, the listing's `ratings`). */
  seatNames(t) {
    const parts = [];
    t.seats.forEach((name, i) => {
      if (i) parts.push(", ");
      const r = (t.ratings || [])[i];
      parts.push(h("span", { class: "seat-name", "data-seat": i }, name,
        Number.isInteger(r) ? h("span", { class: "rating", "data-testid": `listing-rating-${i}` },
          " (", _("rating {n}", { n: r }), ")") : null));
    });
    return parts;
  }

  async join(id) {
    try {
      const r = await api("POST", `/api/tables/${encodeURIComponent(id)}/join`, { name: this.els.name.value.trim() });
      location.assign(r.link);
    } catch (err) {
      this.els.error.textContent = err.message;
    }
  }
}
