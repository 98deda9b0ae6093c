// Every user-visible string of the page goes through _() (and ngettext() for
// counts). For now they return the English; a catalogue fetched from the
// server (GET /api/i18n/<lang>) replaces it. Catalogue format (JSON):
//   { "English text": "translation",
//     "{n} card": {"one": "...", "few": "...", "many": "...", "other": "..."} }
// Plural keys are Intl.PluralRules categories of the page's language.
// Placeholders {name} are filled from the optional args object.

let catalog = {};
let lang = "en";
let plurals = new Intl.PluralRules("en");

function fill(text, args) {
  if (!args) return text;
  // "{name:acc}": the form a translation asks for (args.forms.name.acc, a Character's
  // cases from its card face), else the plain value (i18n/grammar.py, docs/i18n.md)
  return text.replace(/\{(\w+)(?::(\w+))?\}/g, (m, k, spec) => {
    if (!(k in args)) return m;
    const forms = spec && args.forms && args.forms[k];
    return forms && forms[spec] ? String(forms[spec]) : String(args[k]);
  });
}

/** Translate an English text; fill {placeholders} from args. */
export function _(english, args) {
  const t = catalog[english];
  return fill(typeof t === "string" && t ? t : english, args);
}

/** The form of an English text for a context, e.g. a Character's grammatical gender
 *  ("feminine", "plural"): the catalogue's "context\u0004English" entry, else _(english). */
export function pgettext(context, english, args) {
  const t = context ? catalog[`${context}\u0004${english}`] : undefined;
  return typeof t === "string" && t ? fill(t, args) : _(english, args);
}

/** A text with a count: singular or plural English, or the catalogue's plural form.
 *  {n} in the text is replaced by n. */
export function ngettext(singular, plural, n, args) {
  const all = { n, ...(args || {}) };
  const t = catalog[singular];
  if (t && typeof t === "object") {
    const form = t[plurals.select(n)] || t.other;
    if (typeof form === "string" && form) return fill(form, all);
  }
  return fill(n === 1 ? singular : plural, all);
}

export function currentLanguage() {
  return lang;
}

/** The language the page should use: ?lang=, then a saved choice, then the browser's. */
export function preferredLanguage() {
  const q = new URLSearchParams(location.search).get("lang");
  const saved = (() => { try { return localStorage.getItem("gloomtable.lang"); } catch { return null; } })();
  return (q || saved || navigator.language || "en").slice(0, 5).replace("_", "-").split("-")[0];
}

/** Fetch and install the catalogue of `code` (English needs none). Bounded: one request. */
export async function loadCatalog(code) {
  lang = code || "en";
  plurals = new Intl.PluralRules(lang);
  catalog = {};
  if (lang === "en") return;
  try {
    const r = await fetch(`/api/i18n/${encodeURIComponent(lang)}`);
    if (r.ok) {
      const data = await r.json();
      if (data && typeof data === "object") catalog = data;
    }
  } catch {
    catalog = {};
  }
  document.documentElement.lang = lang;
}

// Seat numbers in the server's lines, in each language it writes, and what a seat's
// name replaces them with (Spanish keeps its preposition: "al jugador 2" -> "a Bea").
const SEAT_PATTERNS = [
  [/\b([Pp])layers (\d+) and (\d+)/g, (n, m) => `${n(m[2])} and ${n(m[3])}`],
  [/\b[Pp]layer (\d+)/g, (n, m) => n(m[1])],
  [/\b([Ll])os jugadores (\d+) y (\d+)/g, (n, m) => `${n(m[2])} y ${n(m[3])}`],
  [/\b([Aa])l jugador (\d+)/g, (n, m) => `${m[1]} ${n(m[2])}`],
  [/\b([Dd])el jugador (\d+)/g, (n, m) => `${m[1]}e ${n(m[2])}`],
  [/\b(?:[Ee]l )?[Jj]ugador (\d+)/g, (n, m) => n(m[1])],
  [/(?<![\p{L}])[Ии]гроки (\d+) и (\d+)/gu, (n, m) => `${n(m[1])} и ${n(m[2])}`],
  [/(?<![\p{L}])[Ии]гро(?:к|ка|ку|ком|ке) (\d+)/gu, (n, m) => n(m[1])],
];

/** A seat's name as shown: the server's default names ("Player 2", "Bot 3 (medium)")
 *  in the page's language; a name someone chose, as they wrote it. */
export function seatLabel(name) {
  const s = String(name || "");
  let m = /^Player (\d+)$/.exec(s);
  if (m) return _("Player {n}", { n: m[1] });
  m = /^Bot (\d+) \((random|easy|medium|hard)\)$/.exec(s);
  if (m) return _("Bot {n} ({level})", { n: m[1], level: _(m[2]) });
  return s;
}

/** Replace "Player 2" (and its Spanish and Russian forms) in a line by the seat's name. */
export function withSeatNames(text, names) {
  if (!text || !names || !names.length) return text;
  let out = String(text);
  for (const [re, make] of SEAT_PATTERNS) {
    out = out.replace(re, (...args) => {
      const m = args.slice(0, -2);
      let known = true;
      const name = (k) => {
        const s = seatLabel(names[Number(k) - 1]);
        if (!s) known = false;
        return s || k;
      };
      const made = make(name, m);
      return known ? made : m[0];
    });
  }
  return out;
}
