// Gloom cards as SVG, drawn region by region (R-G3, R-G4).
//
// A card is transparent except where it prints: each of its printed regions
// (three point slots on the left, three icon slots on the right, the portrait,
// the text box, the persistent icon) is an opaque shape. A stack is the cards
// drawn bottom to top in one SVG, so a later card really covers the regions it
// prints on and lets the rest show through: the cardinal rule, visible.
// Pure functions of the card data: (face, options) -> SVG element.

import { h, s } from "./dom.js";
import { _, ngettext } from "./i18n.js";

export const CARD_W = 120;
export const CARD_H = 168;
const CAPTION_ROOM = 58; // px between the point slots and the icon slots

/** Region geometry, indexed like the engine's Region enum. */
export const REGIONS = {
  points: [{ cx: 17, cy: 24 }, { cx: 17, cy: 62 }, { cx: 17, cy: 100 }],
  icons: [{ cx: 103, cy: 24 }, { cx: 103, cy: 62 }, { cx: 103, cy: 100 }],
  slotR: 12,
  portrait: { x: 33, y: 8, w: 54, h: 106 },
  text: { x: 33, y: 119, w: 81, h: 43 },
  persistent: { cx: 17, cy: 140, r: 9 },
};

export const ICONS = {
  beast: { glyph: "\u265E", color: "#7a4b22", label: () => _("beast") },
  death: { glyph: "\u2620", color: "#222222", label: () => _("death") },
  duck: { glyph: "D", color: "#b8952a", label: () => _("duck") },
  goblet: { glyph: "\u26B1", color: "#6b2a6b", label: () => _("goblet") },
  lucre: { glyph: "\u00A3", color: "#2f6b3a", label: () => _("lucre") },
  romance: { glyph: "\u2665", color: "#a3243b", label: () => _("romance") },
  murder: { glyph: "\u2694", color: "#5a1010", label: () => _("murder") },
  investigation: { glyph: "\u2315", color: "#1f4e79", label: () => _("investigation") },
};

/** The icons a deck adds, from its catalogue's `icons` (glyph and name, in the page's
 * language): drawn as the deck says, beside the built-in ones. */
export function useDeckIcons(icons) {
  for (const [name, def] of Object.entries(icons || {})) {
    if (ICONS[name] && !ICONS[name].custom) continue; // a built-in icon keeps its own
    ICONS[name] = { glyph: String(def.glyph || name.slice(0, 1).toUpperCase()).slice(0, 2), color: "#555",
      label: () => def.name || name, custom: true };
  }
}

export function iconLabel(name) {
  if (name === "blank") return _("blank");
  return ICONS[name] ? ICONS[name].label() : name;
}

const TYPE_LABEL = {
  character: () => _("Character"),
  modifier: () => _("Modifier"),
  event: () => _("Event"),
  untimely_death: () => _("Untimely Death"),
  guest: () => _("Guest"),
  story: () => _("Story"),
};

export function typeLabel(type) {
  return TYPE_LABEL[type] ? TYPE_LABEL[type]() : String(type || "");
}

/** Split text into lines of at most `width` characters (words kept whole when they fit). */
export function wrap(text, width, maxLines) {
  const words = String(text || "").split(/\s+/).filter(Boolean);
  const lines = [];
  let cur = "";
  for (const w of words) {
    if (!cur) cur = w;
    else if ((cur + " " + w).length <= width) cur += " " + w;
    else { lines.push(cur); cur = w; }
  }
  if (cur) lines.push(cur);
  if (maxLines && lines.length > maxLines) {
    const kept = lines.slice(0, maxLines);
    kept[maxLines - 1] = kept[maxLines - 1].replace(/.{0,2}$/, "") + "\u2026";
    return kept;
  }
  return lines;
}

/** A title in at most `maxLines` lines of about `width` characters, never cut: a word
 * longer than a line is split, and what is past the last line joins it (textLines
 * then squeezes a line wider than its room). */
export function titleLines(text, width, maxLines) {
  const words = String(text || "").split(/\s+/).filter(Boolean)
    .flatMap((w) => w.length <= width ? [w] : w.match(new RegExp(`.{1,${width}}`, "g")));
  const lines = wrap(words.join(" "), width);
  if (lines.length <= maxLines) return lines;
  return [...lines.slice(0, maxLines - 1), lines.slice(maxLines - 1).join(" ")];
}

const CHAR_EM = 0.56; // a generous average width of a character, in ems

function textLines(lines, x, y, size, attrs = {}, room = 0) {
  // a line that may be wider than its `room` (px) is drawn squeezed into it, never past it
  const squeeze = (line) => room && line.length * size * CHAR_EM > room
    ? { textLength: room, lengthAdjust: "spacingAndGlyphs" } : {};
  return s("text", { x, y, "font-size": size, ...attrs },
    lines.map((line, i) => s("tspan", { x, dy: i === 0 ? 0 : size * 1.15, ...squeeze(line) }, line)));
}

function fmtPoints(p) {
  return p > 0 ? `+${p}` : String(p);
}

function pointSlot(value, slot) {
  const { cx, cy } = REGIONS.points[slot];
  const neg = value < 0;
  return s("g", { class: "region points", "data-region": `points-${slot}` },
    s("circle", { cx, cy, r: REGIONS.slotR, fill: neg ? "#3b2a4a" : "#f3e7c9",
      stroke: "#1b1420", "stroke-width": 1.2 }),
    s("text", { x: cx, y: cy + 3.5, "text-anchor": "middle", "font-size": 10, "font-weight": "bold",
      fill: neg ? "#f0e6ff" : "#7a1020" }, fmtPoints(value)));
}

function iconSlot(name, slot) {
  const { cx, cy } = REGIONS.icons[slot];
  if (name === "blank") {
    return s("g", { class: "region icon blank", "data-region": `icon-${slot}` },
      s("circle", { cx, cy, r: REGIONS.slotR, fill: "#d9d2c3", stroke: "#1b1420", "stroke-width": 1.2 }),
      s("title", {}, _("blank (hides the icon below)")));
  }
  const def = ICONS[name] || { glyph: (name || "?").slice(0, 1).toUpperCase(), color: "#555" };
  return s("g", { class: "region icon", "data-region": `icon-${slot}`, "data-icon": name },
    s("circle", { cx, cy, r: REGIONS.slotR, fill: def.color, stroke: "#1b1420", "stroke-width": 1.2 }),
    s("text", { x: cx, y: cy + 4.5, "text-anchor": "middle", "font-size": 13, fill: "#fff",
      "font-family": "DejaVu Sans, sans-serif" }, def.glyph),
    s("title", {}, iconLabel(name)));
}

function portrait(face) {
  const { x, y, w, h } = REGIONS.portrait;
  const death = face.type === "untimely_death";
  const g = s("g", { class: "region portrait", "data-region": "portrait" },
    s("rect", { x, y, width: w, height: h, rx: 4, fill: death ? "#2b2530" : "#e8dcc0",
      stroke: "#1b1420", "stroke-width": 1 }));
  const mx = x + w / 2;
  if (death) {
    // a headstone
    g.append(s("path", { d: `M${mx - 15} ${y + 70} v-30 a15 15 0 0 1 30 0 v30 z`, fill: "#8d8697",
      stroke: "#111", "stroke-width": 1 }));
    g.append(s("text", { x: mx, y: y + 55, "text-anchor": "middle", "font-size": 9, fill: "#2b2530" },
      "R.I.P."));
  } else {
    // a head-and-shoulders silhouette
    g.append(s("circle", { cx: mx, cy: y + 34, r: 12, fill: "#4a3b52" }));
    g.append(s("path", { d: `M${mx - 22} ${y + 72} q22 -30 44 0 z`, fill: "#4a3b52" }));
  }
  const lines = titleLines(face.name, 12, 3);
  g.append(textLines(lines, mx, y + h - 26, 7, { "text-anchor": "middle",
    fill: death ? "#f0e6ff" : "#2b2530", "font-weight": "bold" }, w - 4));
  return g;
}

function textBox(face) {
  const { x, y, w, h } = REGIONS.text;
  const lines = wrap(face.text || "", 24, 3);
  return s("g", { class: "region text", "data-region": "text" },
    s("rect", { x, y, width: w, height: h, rx: 3, fill: "#f7f0dc", stroke: "#1b1420", "stroke-width": 1 }),
    textLines(titleLines(face.name, 24, 1), x + 3, y + 9, 6.2, { "font-weight": "bold", fill: "#3b2a4a" }, w - 6),
    textLines(lines, x + 3, y + 18, 5.6, { fill: "#222" }));
}

function persistentIcon() {
  const { cx, cy, r } = REGIONS.persistent;
  return s("g", { class: "region persistent", "data-region": "persistent" },
    s("path", { d: `M${cx} ${cy - r} L${cx + r} ${cy} L${cx} ${cy + r} L${cx - r} ${cy} z`,
      fill: "#c9a227", stroke: "#1b1420", "stroke-width": 1 }),
    s("title", {}, _("persistent effect")));
}

/** One card as an SVG group: a clear outline plus an opaque shape per printed region. */
export function cardLayer(face, { base = false } = {}) {
  const prints = face.prints || [];
  const g = s("g", { class: `card-layer type-${face.type}`, "data-card": face.index });
  g.append(s("rect", { x: 1, y: 1, width: CARD_W - 2, height: CARD_H - 2, rx: 7,
    fill: base ? "#fbf6ea" : "rgba(255,255,255,0.06)", stroke: base ? "#1b1420" : "rgba(27,20,32,0.45)",
    "stroke-width": base ? 1.5 : 1 }));
  if (prints[7]) g.append(portrait(face));
  if (prints[6]) g.append(textBox(face));
  for (let i = 0; i < 3; i++) {
    if (prints[i] && face.points) g.append(pointSlot(face.points[i], i));
    if (prints[3 + i] && face.icons) g.append(iconSlot(face.icons[i], i));
  }
  if (prints[8]) g.append(persistentIcon());
  if (!prints[7] && !prints[6]) {
    // a card printing neither portrait nor text names itself only in its tooltip
    g.append(s("title", {}, face.name));
  }
  return g;
}

function svgRoot(cls, extra = {}) {
  return s("svg", { viewBox: `0 0 ${CARD_W} ${CARD_H}`, class: cls, role: "img", ...extra });
}

/** What a card prints, in words: its name, type, the points and icons it adds. */
export function cardLabel(face) {
  const prints = face.prints || [];
  const parts = [face.name, typeLabel(face.type)];
  const pts = [0, 1, 2].filter((i) => prints[i] && face.points && face.points[i] !== null)
    .map((i) => fmtPoints(face.points[i]));
  if (pts.length) parts.push(_("Self-Worth {points}", { points: pts.join(" ") }));
  const icons = [0, 1, 2].filter((i) => prints[3 + i] && face.icons && face.icons[i])
    .map((i) => iconLabel(face.icons[i]));
  if (icons.length) parts.push(_("icons: {icons}", { icons: icons.join(", ") }));
  return parts.join(", ");
}

/** A card large and in words, every region it prints as text (the zoom). */
export function cardDetails(face, { note = "" } = {}) {
  const prints = face.prints || [];
  const rows = [];
  const slots = [0, 1, 2].map((i) => {
    if (!prints[i] || !face.points || face.points[i] === null || face.points[i] === undefined) return "\u2014";
    return fmtPoints(face.points[i]);
  });
  if ([0, 1, 2].some((i) => prints[i])) {
    rows.push(h("div", { class: "zc-row zc-points" }, h("span", { class: "zc-key" }, _("Self-Worth")), " ",
      slots.join(" / ")));
  }
  const icons = [0, 1, 2].filter((i) => prints[3 + i] && face.icons && face.icons[i]).map((i) => {
    const name = face.icons[i];
    if (name === "blank") return h("span", { class: "zc-icon" }, _("blank (hides the icon below)"));
    const def = ICONS[name];
    return h("span", { class: `zc-icon icon-${name}` }, def ? `${def.glyph} ` : "", iconLabel(name));
  });
  if (icons.length) rows.push(h("div", { class: "zc-row zc-icons" }, h("span", { class: "zc-key" }, _("Icons")), " ", icons));
  if (face.requires && face.requires.length) {
    const req = face.requires.map(([icon, n]) => `${n}\u00D7 ${iconLabel(icon)}`).join(", ");
    rows.push(h("div", { class: "zc-row zc-needs" }, `${_("Needs")}: ${req}`));
  }
  if (prints[8]) rows.push(h("div", { class: "zc-row zc-persistent" }, "\u25C6 ", _("persistent effect")));
  return h("article", { class: `zcard zcard-${face.type}`, "data-card": face.index },
    h("div", { class: "zc-head" }, h("strong", { class: "zc-name" }, face.name),
      h("span", { class: "zc-type" }, typeLabel(face.type))),
    note ? h("div", { class: "zc-note" }, note) : null,
    rows,
    face.text ? h("p", { class: "zc-text" }, face.text) : null,
    face.flavour ? h("p", { class: "zc-flavour" }, face.flavour) : null);
}

/** A backdrop that makes the transparent parts of a single card visible. */
function glassBackdrop() {
  return s("g", {},
    s("defs", {}, s("pattern", { id: "glass-check", width: 12, height: 12, patternUnits: "userSpaceOnUse" },
      s("rect", { width: 12, height: 12, fill: "#efe9f3" }),
      s("rect", { width: 6, height: 6, fill: "#e0d8e6" }),
      s("rect", { x: 6, y: 6, width: 6, height: 6, fill: "#e0d8e6" }))),
    s("rect", { x: 1, y: 1, width: CARD_W - 2, height: CARD_H - 2, rx: 7, fill: "url(#glass-check)" }));
}

/** A card on its own (in a hand, on the discard pile): Events and Stories are
 *  opaque, everything else shows its clear parts over a chequered backdrop. */
export function cardSVG(face, { title } = {}) {
  const root = svgRoot(`card card-${face.type}`, { "data-card": face.index, "aria-label": title || cardLabel(face) });
  root.append(s("title", {}, title || `${face.name} (${typeLabel(face.type)})`));
  if (face.type === "event" || face.type === "story") {
    root.append(s("rect", { x: 1, y: 1, width: CARD_W - 2, height: CARD_H - 2, rx: 7,
      fill: face.type === "event" ? "#e9e0f2" : "#efe4cc", stroke: "#1b1420", "stroke-width": 1.5 }));
    root.append(textLines(titleLines(face.name, 19, 3), CARD_W / 2, 24, 8.5,
      { "text-anchor": "middle", "font-weight": "bold", fill: "#3b2a4a" }, CARD_W - 16));
    root.append(s("text", { x: CARD_W / 2, y: 62, "text-anchor": "middle", "font-size": 7, fill: "#6a5a78" },
      typeLabel(face.type)));
    root.append(textLines(wrap(face.text || "", 24, 7), 8, 80, 6.6, { fill: "#222" }));
    if (face.requires && face.requires.length) {
      const req = face.requires.map(([icon, n]) => `${n}\u00D7${iconLabel(icon)}`).join(", ");
      root.append(textLines(wrap(`${_("Needs")}: ${req}`, 24, 2), 8, 150, 6.6, { fill: "#7a1020" }));
    }
    return root;
  }
  root.append(glassBackdrop());
  root.append(cardLayer(face, { base: face.type === "character" || face.type === "guest" }));
  if (face.type !== "character" && face.type !== "guest" && !face.prints?.[7]) {
    // between the point slots (left, to x 29; the persistent icon below them) and the
    // icon slots (right, from x 91), under the lowest of both: never over a badge
    root.append(textLines(titleLines(face.name, 16, 5), CARD_W / 2, 126, 7,
      { "text-anchor": "middle", "font-style": "italic", fill: "#3b2a4a", class: "caption" }, CAPTION_ROOM));
  }
  return root;
}

/** A Character's stack: cards bottom to top, drawn squarely on each other.
 *  `upto` (1..n) draws only the lowest `upto` cards, to look through the stack. */
export function stackSVG(faces, { upto = null, dead = false, label = "" } = {}) {
  const n = upto === null ? faces.length : Math.max(1, Math.min(upto, faces.length));
  const root = svgRoot("stack", { "data-layers": n,
    "aria-label": label || faces.slice(0, n).map((f) => f.name).join(" \u2192 ") });
  root.append(s("title", {}, faces.slice(0, n).map((f) => f.name).join(" \u2192 ")));
  faces.slice(0, n).forEach((f, i) => root.append(cardLayer(f, { base: i === 0 })));
  if (dead && n === faces.length) {
    root.append(s("g", { class: "skull" },
      s("circle", { cx: CARD_W / 2, cy: 60, r: 20, fill: "rgba(20,14,24,0.82)" }),
      s("text", { x: CARD_W / 2, y: 70, "text-anchor": "middle", "font-size": 28, fill: "#f4efe6",
        "font-family": "DejaVu Sans, sans-serif" }, "\u2620")));
  }
  return root;
}

/** The face-down draw pile with its count. */
export function cardBackSVG(count) {
  const root = svgRoot("card card-back", { "aria-label": ngettext("Draw pile: {n} card", "Draw pile: {n} cards", count) });
  root.append(s("rect", { x: 1, y: 1, width: CARD_W - 2, height: CARD_H - 2, rx: 7, fill: "#2b2530",
    stroke: "#111", "stroke-width": 1.5 }));
  root.append(s("text", { x: CARD_W / 2, y: 80, "text-anchor": "middle", "font-size": 16, fill: "#d8c9a3",
    "font-family": "DejaVu Serif, serif" }, "Gloom"));
  root.append(s("text", { x: CARD_W / 2, y: 104, "text-anchor": "middle", "font-size": 12, fill: "#d8c9a3" },
    String(count)));
  return root;
}
