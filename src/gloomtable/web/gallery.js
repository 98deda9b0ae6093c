// The card gallery: every card of a deck drawn with the table's own SVG
// renderer (cards.js), and a stack builder that shows, region by region, which
// card of a chosen stack shows there: the cardinal rule (R-G4) made visible.
//
// startGallery(root, { data }) draws a deck given as data (the self-contained
// file `gloom deck gallery` writes); startGallery(root, {}) asks the server
// for the deck named by ?deck= (a shipped set) and offers to open a deck file.
// The stack lives in the URL fragment (#stack=card-id,card-id,...).

import { h, replace } from "./dom.js";
import { _ } from "./i18n.js";
import { cardSVG, iconLabel, stackSVG, typeLabel, useDeckIcons } from "./cards.js";

export const REGION_LABELS = [
  () => _("points, top"), () => _("points, middle"), () => _("points, bottom"),
  () => _("icon, top"), () => _("icon, middle"), () => _("icon, bottom"),
  () => _("text plate"), () => _("portrait"), () => _("persistent icon"),
];

const SECTIONS = [
  ["modifier", () => _("Modifiers")],
  ["event", () => _("Events")],
  ["untimely_death", () => _("Untimely Deaths")],
  ["guest", () => _("Guests")],
  ["story", () => _("Stories")],
];

const STACK_BASES = new Set(["character", "guest"]);
const STACKABLE = new Set(["modifier", "untimely_death"]);

/** For each region, the position in `faces` (bottom first) of the card that
 *  shows there, or -1: the topmost card printing into the region (R-G4). */
export function shownBy(faces) {
  const shown = new Array(9).fill(-1);
  for (let pos = faces.length - 1; pos >= 0; pos--) {
    const prints = faces[pos].prints || [];
    for (let r = 0; r < 9; r++) if (prints[r] && shown[r] < 0) shown[r] = pos;
  }
  return shown;
}

/** Self-Worth (R-G5) and counted icons (R-G6) of a stack, from what shows. */
export function stackFacts(faces) {
  const shown = shownBy(faces);
  let worth = 0;
  const icons = [];
  for (let i = 0; i < 3; i++) {
    if (shown[i] >= 0) worth += faces[shown[i]].points[i];
    const icon = shown[3 + i] >= 0 ? faces[shown[3 + i]].icons[i] : null;
    if (icon && icon !== "blank") icons.push(icon);
  }
  return { shown, selfWorth: worth, icons };
}

function fmt(n) {
  return n > 0 ? `+${n}` : String(n);
}

export class Gallery {
  constructor(root, data, { upload = false } = {}) {
    this.root = root;
    this.upload = upload;
    this.problems = [];
    this.setData(data);
  }

  setData(data) {
    this.data = data;
    useDeckIcons(data && data.icons); // a deck's own icons: its glyphs and names
    this.byKey = new Map((data.cards || []).map((c) => [c.key, c]));
    this.stack = [];
    this.upto = null;
    const m = location.hash.match(/stack=([^&]*)/);
    if (m) {
      for (const key of decodeURIComponent(m[1]).split(",")) {
        const face = this.byKey.get(key);
        if (face) this.add(face, false);
      }
    }
  }

  add(face, render = true) {
    if (STACK_BASES.has(face.type)) this.stack = [face];
    else if (STACKABLE.has(face.type) && this.stack.length) this.stack.push(face);
    else if (STACKABLE.has(face.type)) this.stack = [this.firstCharacter(), face].filter(Boolean);
    else return;
    this.upto = null;
    if (render) this.changed();
  }

  firstCharacter() {
    return (this.data.cards || []).find((c) => c.type === "character");
  }

  changed() {
    const keys = this.stack.map((f) => f.key).join(",");
    history.replaceState(null, "", keys ? `#stack=${encodeURIComponent(keys)}` : location.pathname + location.search);
    this.render();
  }

  removeAt(i) {
    this.stack.splice(i, 1);
    if (i === 0) this.stack = [];
    this.upto = null;
    this.changed();
  }

  tile(face) {
    const inStack = this.stack.includes(face);
    const usable = STACK_BASES.has(face.type) || STACKABLE.has(face.type);
    return h("figure", { class: `gallery-card type-${face.type}${inStack ? " in-stack" : ""}`,
      "data-key": face.key, "data-testid": `card-${face.key}`,
      title: usable ? _("Add to the stack") : typeLabel(face.type),
      onclick: usable ? () => this.add(face) : null },
    cardSVG(face),
    h("figcaption", {}, h("b", {}, face.name), h("br"), typeLabel(face.type),
      face.text ? h("div", { class: "card-text" }, face.text) : null,
      face.flavour ? h("div", { class: "flavour" }, face.flavour) : null));
  }

  families() {
    const cards = this.data.cards || [];
    return (this.data.families || []).map((fam) => h("section", { class: "gallery-family", "data-family": fam.id },
      h("h3", {}, fam.name),
      fam.flavour ? h("p", { class: "flavour" }, fam.flavour) : null,
      h("div", { class: "gallery-grid" },
        cards.filter((c) => c.type === "character" && c.family === fam.id).map((c) => this.tile(c)))));
  }

  stackPanel() {
    if (!this.stack.length) {
      return h("aside", { class: "stack-builder", "data-testid": "stack-builder" },
        h("h2", {}, _("Build a stack")),
        h("p", {}, _("Click a Character, then Modifiers and Untimely Deaths to put on it, bottom to top.")));
    }
    const n = this.stack.length;
    const shownCount = this.upto === null ? n : this.upto;
    const faces = this.stack.slice(0, shownCount);
    const facts = stackFacts(faces);
    const rows = REGION_LABELS.map((label, r) => {
      const pos = facts.shown[r];
      return h("tr", { "data-region": r },
        h("td", {}, label()),
        h("td", { "data-testid": `region-${r}` }, pos < 0 ? _("nothing: see-through") : faces[pos].name));
    });
    const layers = this.stack.map((f, i) => h("li", { class: i < shownCount ? "" : "hidden-layer" },
      `${f.name} (${typeLabel(f.type)}) `,
      h("button", { type: "button", class: "remove", "aria-label": _("Remove"),
        onclick: () => this.removeAt(i) }, "\u2715")));
    return h("aside", { class: "stack-builder", "data-testid": "stack-builder" },
      h("h2", {}, _("The stack")),
      h("div", { class: "stack-view" }, stackSVG(this.stack, { upto: shownCount })),
      n > 1 ? h("label", { class: "upto" }, _("Layers shown: {k} of {n}", { k: shownCount, n }), " ",
        h("input", { type: "range", min: 1, max: n, value: shownCount, "data-testid": "upto",
          oninput: (ev) => { const v = Number(ev.target.value); this.upto = v === n ? null : v; this.render(); } }))
        : null,
      h("p", { class: "stack-facts" },
        _("Self-Worth"), " ", h("b", { "data-testid": "stack-self-worth" }, fmt(facts.selfWorth)), "; ",
        _("icons"), ": ", h("span", { "data-testid": "stack-icons" },
          facts.icons.map((i) => iconLabel(i)).join(", ") || "\u2013")),
      h("table", { class: "regions" }, h("thead", {}, h("tr", {}, h("th", {}, _("region")),
        h("th", {}, _("shown by")))), h("tbody", {}, rows)),
      h("ol", { class: "layers", reversed: true }, layers.reverse()),
      h("button", { type: "button", onclick: () => { this.stack = []; this.changed(); } }, _("Clear the stack")));
  }

  uploader() {
    if (!this.upload) return null;
    const input = h("input", { type: "file", accept: ".toml,text/plain", "data-testid": "deck-file",
      onchange: async () => {
        const file = input.files && input.files[0];
        if (!file) return;
        const text = await file.text();
        const r = await fetch("/api/gallery", { method: "POST", headers: { "Content-Type": "text/plain" }, body: text });
        const body = await r.json().catch(() => ({}));
        if (r.ok) { this.problems = []; this.setData(body); history.replaceState(null, "", location.pathname); }
        else this.problems = body.problems || [body.message || _("That deck cannot be read.")];
        this.render();
      } });
    return h("label", { class: "deck-file" }, _("Open a deck file: "), input);
  }

  render() {
    const cards = this.data.cards || [];
    const counts = SECTIONS.map(([t]) => [t, cards.filter((c) => c.type === t).length]);
    const deck = this.data.deck || {};
    replace(this.root,
      h("header", { class: "gallery-head" },
        h("h1", { "data-testid": "deck-name" }, deck.name || _("Card gallery")),
        cards.length ? h("p", { "data-testid": "deck-counts" }, [
          [cards.filter((c) => c.type === "character").length, _("Characters")],
          ...counts.map(([t, k]) => [k, SECTIONS.find(([x]) => x === t)[1]()]),
        ].filter(([k]) => k).map(([k, label]) => `${k} ${label}`).join(", ")) : null,
        this.uploader(),
        this.problems.length ? h("ul", { class: "problems", "data-testid": "problems" },
          this.problems.map((p) => h("li", {}, p))) : null),
      h("div", { class: "gallery-body" },
        h("main", {},
          h("h2", {}, _("Families")), this.families(),
          SECTIONS.filter(([t]) => cards.some((c) => c.type === t)).map(([t, label]) =>
            h("section", { class: `gallery-section section-${t}` }, h("h2", {}, label()),
              h("div", { class: "gallery-grid" }, cards.filter((c) => c.type === t).map((c) => this.tile(c)))))),
        this.stackPanel()));
  }
}

/** Start the gallery in `root`: from `data`, or from the server's ?deck= set. */
export async function startGallery(root, { data = null } = {}) {
  let gallery;
  if (data) {
    gallery = new Gallery(root, data);
  } else {
    const name = new URLSearchParams(location.search).get("deck") || "classic";
    const r = await fetch(`/api/gallery/${encodeURIComponent(name)}`);
    const body = await r.json().catch(() => ({}));
    gallery = new Gallery(root, r.ok ? body : { cards: [], families: [], deck: { name: _("Card gallery") } },
      { upload: true });
    if (!r.ok) gallery.problems = [body.message || _("No such deck.")];
  }
  window.gloomtableGallery = gallery; // for tests and curious designers
  gallery.render();
  return gallery;
}
