// The page's language: ?lang= in the address, else the one chosen with the switch
// (remembered in localStorage), else the best of the browser's Accept-Language as
// the server negotiates it (GET /api/i18n). The choice also goes into the
// "gloomtable_lang" cookie, so the server sends card texts, choices and the game
// log of the table in the same language (docs/i18n.md).

import { _ } from "./i18n.js";
import { stackExamples } from "./rules_pictures.js";

const KEY = "gloomtable.lang";
const COOKIE = "gloomtable_lang";
const FALLBACK = [{ code: "en", name: "English" }, { code: "es", name: "Español" }, { code: "ru", name: "Русский" }];

function saved() {
  try { return localStorage.getItem(KEY); } catch { return null; }
}

function remember(code) {
  try { localStorage.setItem(KEY, code); } catch { /* private mode: the cookie still holds it */ }
  document.cookie = `${COOKIE}=${encodeURIComponent(code)}; path=/; max-age=31536000; SameSite=Lax`;
}

/** { lang, languages }: the language to use now and the ones the server ships. One request. */
export async function chooseLanguage() {
  let info = { lang: "en", languages: FALLBACK };
  try {
    const r = await fetch("/api/i18n");
    if (r.ok) info = await r.json();
  } catch { /* offline: English and the built-in list */ }
  const codes = new Set(info.languages.map((l) => l.code));
  const pick = (c) => (c && codes.has(c.slice(0, 2).toLowerCase()) ? c.slice(0, 2).toLowerCase() : null);
  const asked = pick(new URLSearchParams(location.search).get("lang"));
  const lang = asked || pick(saved()) || pick(info.lang) || "en";
  if (asked) remember(asked);
  else document.cookie = `${COOKIE}=${encodeURIComponent(lang)}; path=/; max-age=31536000; SameSite=Lax`;
  return { lang, languages: info.languages };
}

/** A small select in the corner of every page; a change is remembered and reloads the page. */
export function mountLanguageSwitch(current, languages) {
  const select = document.createElement("select");
  select.className = "lang-switch";
  select.dataset.testid = "lang-switch";
  select.setAttribute("aria-label", _("Language"));
  for (const l of languages) {
    const o = document.createElement("option");
    o.value = l.code;
    o.textContent = l.name;
    o.selected = l.code === current;
    select.append(o);
  }
  select.addEventListener("change", () => {
    remember(select.value);
    const url = new URL(location.href);
    url.searchParams.delete("lang");
    location.assign(url.toString());
  });
  const rules = document.createElement("button");
  rules.type = "button";
  rules.className = "rules-button";
  rules.dataset.testid = "rules-button";
  rules.textContent = _("Rules");
  rules.setAttribute("aria-expanded", "false");
  rules.addEventListener("click", () => toggleRules());
  // Escape closes the panel (before the table's own Escape), and focus goes back to its button
  window.addEventListener("keydown", (ev) => {
    const open = document.querySelector(".rules-panel");
    if (ev.key !== "Escape" || !open) return;
    ev.preventDefault();
    ev.stopPropagation();
    toggleRules();
    rules.focus();
  }, true);
  const corner = document.createElement("div");
  corner.className = "lang-corner";
  corner.append(rules, select);
  document.body.append(corner);
  return select;
}

/** One rules reference per rules package the server offers (Gloomier reads Gloom's),
 *  and whether its stacks are drawn, in the server's order. */
async function rulesPackages() {
  try {
    const r = await fetch("/api/games");
    const games = r.ok ? (await r.json()).games : [];
    const seen = new Map();
    for (const g of games) {
      if (!seen.has(g.rules)) seen.set(g.rules, { rules: g.rules, drawn: g.drawn_rules });
    }
    return [...seen.values()];
  } catch { return []; }
}

/** The short rules reference of every game, in the page's language, in a panel. */
async function toggleRules() {
  const open = document.querySelector(".rules-panel");
  const button = document.querySelector(".rules-button");
  if (open) { open.remove(); if (button) button.setAttribute("aria-expanded", "false"); return; }
  const panel = document.createElement("section");
  panel.className = "rules-panel";
  panel.dataset.testid = "rules-panel";
  for (const { rules, drawn } of await rulesPackages()) {
    const text = document.createElement("div");
    text.className = "rules-text";
    try { // the server draws its own Markdown as HTML, raw HTML escaped (i18n/rules.py)
      const r = await fetch(`/api/rules/${rules}?format=html`);
      text.innerHTML = r.ok ? await r.text() : "";
    } catch { text.textContent = ""; }
    panel.append(text);
    if (drawn) panel.append(stackExamples()); // the cardinal rule, drawn
  }
  document.body.append(panel);
  if (button) button.setAttribute("aria-expanded", "true");
}
