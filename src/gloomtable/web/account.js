// Optional accounts (docs/server.md, "Accounts and seats"): the lobby's account panel
// (sign up, sign in, sign out, "My games"), a player's profile at /players/<name> and a
// game's leaderboard at /leaderboard/<game>. Every POST carries the session's CSRF token.

import { h, replace, s } from "./dom.js";
import { _ } from "./i18n.js";

async function call(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  if (method !== "GET") {
    const me = await (await fetch("/api/account")).json();
    if (me.csrf) headers["X-CSRF-Token"] = me.csrf;
  }
  const r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await r.json(); } catch { data = null; }
  if (!r.ok) throw new Error((data && data.message) || _("The server refused ({status}).", { status: r.status }));
  return data;
}

function gameTitle(games, name) {
  const g = (games || []).find((x) => x.name === name);
  return g ? _(g.title) : name;
}

/** The lobby's account panel. */
export class AccountPanel {
  constructor(games) {
    this.games = games;
    this.el = h("section", { class: "account", "data-testid": "account", "aria-labelledby": "account-title" });
  }

  async start() {
    let me = { signed_in: false };
    try { me = await call("GET", "/api/account"); } catch { /* drawn as signed out */ }
    if (me.signed_in) await this.drawSignedIn(me); else this.drawSignedOut();
    return this.el;
  }

  drawSignedOut(message = "") {
    const name = h("input", { type: "text", id: "account-name", autocomplete: "username", maxlength: 24,
      "data-testid": "account-name" });
    const password = h("input", { type: "password", id: "account-password", autocomplete: "current-password",
      maxlength: 256, "data-testid": "account-password" });
    const error = h("p", { class: "error", role: "alert", "data-testid": "account-error" }, message);
    const send = async (path) => {
      error.textContent = "";
      try {
        const me = await call("POST", path, { name: name.value.trim(), password: password.value });
        await this.drawSignedIn(me);
      } catch (err) { error.textContent = err.message; }
    };
    replace(this.el,
      h("h2", { id: "account-title" }, _("Account")),
      h("p", { class: "hint" }, _("Optional: sign in to find your games on every device and to be rated.")),
      h("form", { class: "account-form", onsubmit: (ev) => { ev.preventDefault(); send("/api/account/signin"); } },
        h("label", { for: "account-name" }, _("User name")), " ", name, " ",
        h("label", { for: "account-password" }, _("Password")), " ", password, " ",
        h("button", { type: "submit", "data-testid": "sign-in" }, _("Sign in")), " ",
        h("button", { type: "button", "data-testid": "sign-up", onclick: () => send("/api/account/signup") },
          _("Sign up"))),
      error);
  }

  async drawSignedIn(me) {
    const error = h("p", { class: "error", role: "alert" });
    const list = h("ul", { class: "my-games", "data-testid": "my-games" });
    replace(this.el,
      h("h2", { id: "account-title" }, _("Account")),
      h("p", {}, _("Signed in as {name}", { name: me.name }), " ",
        h("a", { href: `/players/${encodeURIComponent(me.name)}`, "data-testid": "my-profile" }, _("Profile")), " ",
        h("button", { type: "button", "data-testid": "sign-out", onclick: async () => {
          try { await call("POST", "/api/account/signout"); this.drawSignedOut(); } catch (err) { error.textContent = err.message; }
        } }, _("Sign out")), " ",
        h("button", { type: "button", "data-testid": "sign-out-everywhere", onclick: async () => {
          try { await call("POST", "/api/account/signout", { everywhere: true }); this.drawSignedOut(); } catch (err) { error.textContent = err.message; }
        } }, _("Sign out everywhere"))),
      h("h3", {}, _("My games")), list, error);
    let games = [];
    try { games = (await call("GET", "/api/account/games")).games; } catch (err) { error.textContent = err.message; }
    if (!games.length) list.append(h("li", {}, _("No games yet.")));
    for (const g of games) {
      list.append(h("li", { "data-table": g.table },
        gameTitle(this.games, g.game), " · ", _("Seat {n}", { n: g.seat + 1 }), " · ",
        g.over ? _("finished") : _("in play"), " ",
        g.over
          ? h("a", { href: g.spectate }, _("Replay"))
          : h("button", { type: "button", class: "resume", "data-testid": `resume-${g.table}`, onclick: async () => {
            try { location.assign((await call("POST", `/api/account/games/${encodeURIComponent(g.table)}/seat`)).link); } catch (err) { error.textContent = err.message; }
          } }, _("Take my seat"))));
    }
  }
}

function chart(points) {
  // The rating after each rated game, oldest left: an inline SVG line with a text
  // alternative (the first and last value) for screen readers.
  const w = 320, hgt = 120, pad = 10;
  const values = points.map((p) => p.rating);
  const lo = Math.min(0, ...values), hi = Math.max(1, ...values);
  const x = (i) => pad + (points.length > 1 ? (i * (w - 2 * pad)) / (points.length - 1) : (w - 2 * pad) / 2);
  const y = (v) => hgt - pad - ((v - lo) * (hgt - 2 * pad)) / (hi - lo);
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ");
  const label = _("Rating after each game: from {first} to {last}",
    { first: values[0], last: values[values.length - 1] });
  return s("svg", { viewBox: `0 0 ${w} ${hgt}`, width: w, height: hgt, role: "img", "aria-label": label,
    class: "rating-chart" },
  s("polyline", { points: line, fill: "none", stroke: "currentColor", "stroke-width": 2 }),
  points.map((p, i) => s("circle", { cx: x(i), cy: y(p.rating), r: 3, fill: "currentColor" })));
}

/** /players/<name>: games played and won, the rating chart, finished games. */
export class ProfilePage {
  constructor(root, name) { this.root = root; this.name = name; }

  async start() {
    const [info, p] = await Promise.all([call("GET", "/api/games").catch(() => ({ games: [] })),
      call("GET", `/api/players/${encodeURIComponent(this.name)}`).catch((err) => ({ error: err.message }))]);
    const top = h("header", { class: "topbar" }, h("h1", {}, h("a", { href: "/" }, "gloomtable")));
    if (p.error) {
      replace(this.root, top, h("main", { class: "profile" }, h("p", { role: "alert" }, p.error)));
      return;
    }
    const rows = p.games.map((g) => h("tr", { "data-game": g.game },
      h("th", { scope: "row" }, h("a", { href: `/leaderboard/${encodeURIComponent(g.game)}` }, gameTitle(info.games, g.game))),
      h("td", { "data-testid": `rating-${g.game}` }, String(g.rating)), h("td", {}, String(g.played)),
      h("td", {}, String(g.won))));
    const charts = p.games.map((g) => {
      const points = p.history.filter((x) => x.game === g.game);
      return points.length ? h("figure", {}, h("figcaption", {}, gameTitle(info.games, g.game)), chart(points)) : null;
    });
    const finished = p.finished.map((f) => h("li", { "data-table": f.table },
      gameTitle(info.games, f.game), " · ", new Date(f.created * 1000).toLocaleDateString(), " ",
      h("a", { href: f.replay, "data-testid": `replay-${f.table}` }, _("Replay")),
      f.chronicle ? [" ", h("a", { href: f.chronicle, "data-testid": `chronicle-${f.table}` }, _("Chronicle"))] : null));
    replace(this.root, top, h("main", { class: "profile", "data-testid": "profile" },
      h("h2", {}, this.name),
      h("table", { class: "profile-games" },
        h("caption", {}, _("Rated games")),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, _("Game")), h("th", { scope: "col" }, _("Rating")),
          h("th", { scope: "col" }, _("Played")), h("th", { scope: "col" }, _("Won")))),
        h("tbody", {}, rows)),
      charts,
      h("h3", {}, _("Finished games")),
      finished.length ? h("ul", { class: "finished-games" }, finished) : h("p", {}, _("No games yet."))));
  }
}

/** /leaderboard/<game>: the game's rated accounts, best first. */
export class LeaderboardPage {
  constructor(root, game) { this.root = root; this.game = game; }

  async start() {
    const [info, board] = await Promise.all([call("GET", "/api/games").catch(() => ({ games: [] })),
      call("GET", `/api/leaderboard/${encodeURIComponent(this.game)}`)]);
    replace(this.root, h("header", { class: "topbar" }, h("h1", {}, h("a", { href: "/" }, "gloomtable"))),
      h("main", { class: "leaderboard", "data-testid": "leaderboard" },
        h("h2", {}, _("Leaderboard: {game}", { game: gameTitle(info.games, this.game) })),
        board.players.length
          ? h("ol", {}, board.players.map((x) => h("li", {},
            h("a", { href: `/players/${encodeURIComponent(x.name)}` }, x.name), " ",
            _("{rating} ({won} won of {played})", { rating: x.rating, won: x.won, played: x.played }))))
          : h("p", {}, _("No rated games yet."))));
  }
}
