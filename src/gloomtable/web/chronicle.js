// The chronicle on the end screen (R-G27): the tale of each Character, in
// order, with the narration typed or generated, their end and the Family
// Values; plus the two downloads (Markdown, printable HTML). The server builds
// it by replaying the table's record (GET /api/tables/<id>/chronicle).

import { h, replace } from "./dom.js";
import { _, pgettext, seatLabel, withSeatNames } from "./i18n.js";

const told = new Map(); // table id -> section element (fetched once)

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

function lineItem(c, line) {
  const told = withSeatNames(line.text, c.seat_names);
  if (line.death) return h("li", { class: "death" }, "\u2620 ", told);
  // a line the server told in the page's language ends with a full stop; what follows it
  // (the cancellation, the narration) continues the sentence
  const text = line.narration || line.cancelled_by ? told.replace(/\.$/, "") : told;
  const played = line.card !== null && /^player/i.test(line.text);
  return h("li", {},
    played ? [line.stand_in ? _("{name}'s stand-in bot", { name: seatLabel(c.seat_names[line.actor]) || "?" })
      : seatLabel(c.seat_names[line.actor]) || "?", " ", _("played"), " ",
      h("b", { class: line.cancelled_by ? "cancelled" : "" }, line.card)] : text,
    line.cancelled_by ? ` (${_("cancelled by {who}", { who: withSeatNames(line.cancelled_by, c.seat_names) })})` : null,
    line.narration ? [": ", h("q", { class: "narration" }, withSeatNames(line.narration, c.seat_names))] : null);
}

function tale(c, t) {
  // the ending agrees with the Character's grammatical gender (catalogue contexts)
  const ending = t.dead
    ? pgettext(t.gender, "died ({death}) with Self-Worth {sw}", { death: t.death || _("an Untimely Death"), sw: signed(t.self_worth) })
    : pgettext(t.gender, "survived with Self-Worth {sw}", { sw: signed(t.self_worth) });
  return h("article", { class: "tale", "data-card": t.card },
    h("h4", {}, t.name, " ", h("span", { class: "ending" }, ending)),
    t.lines.length ? h("ol", {}, t.lines.map((ln) => lineItem(c, ln))) : h("p", {}, pgettext(t.gender, "Nothing befell them at all.")));
}

function render(c) {
  const seats = c.family_values.map((fv, p) => h("section", { class: "chronicle-family", "data-player": p },
    h("h3", {}, `${seatLabel(c.seat_names[p])}: ${c.family_names[p]} (${_("Family Value")} ${signed(fv)})`),
    c.tales.filter((t) => t.player === p).map((t) => tale(c, t))));
  const table = c.table.length
    ? h("section", {}, h("h3", {}, _("Events, responses and Stories")), h("ol", {}, c.table.map((ln) => lineItem(c, ln))))
    : null;
  // the seats' table talk, only where the table kept it in its record (talk_in_record)
  const talk = Array.isArray(c.talk) && c.talk.length
    ? h("section", { class: "chronicle-talk", "data-testid": "chronicle-talk" }, h("h3", {}, _("Table talk")),
      h("ul", {}, c.talk.map(([seat, text]) =>
        h("li", {}, h("b", {}, seatLabel(c.seat_names[seat]) || "?"), ": ", text))))
    : null;
  return [seats, table, talk];
}

/** The chronicle section of a finished table (built once, then reused by re-renders). */
export function chronicleSection(tableId) {
  if (told.has(tableId)) return told.get(tableId);
  const base = `/api/tables/${encodeURIComponent(tableId)}/chronicle`;
  const body = h("div", { class: "chronicle-body" }, _("Gathering the tale\u2026"));
  const el = h("section", { class: "chronicle", "data-testid": "chronicle" },
    h("h2", {}, _("The chronicle")),
    h("p", { class: "chronicle-downloads" },
      h("a", { href: `${base}.md`, download: `chronicle-${tableId}.md`, "data-testid": "chronicle-md" },
        _("Download the chronicle (Markdown)")), " \u00B7 ",
      h("a", { href: `${base}.html`, target: "_blank", rel: "noopener", "data-testid": "chronicle-html" },
        _("Printable chronicle (HTML)"))),
    body);
  told.set(tableId, el);
  tell(base, body, el, tableId, 0);
  return el;
}

const RETRIES = 6;
/** A busy server (503, 429) or a lost request is asked again, after 1, 2, 4 ... s. */
function tell(base, body, el, tableId, attempt) {
  fetch(base)
    .then((r) => {
      if (r.ok) return r.json();
      const err = new Error(String(r.status));
      err.retry = r.status === 503 || r.status === 429 || r.status >= 502;
      return Promise.reject(err);
    })
    .then((data) => { replace(body, render(data)); el.dataset.ready = "1"; })
    .catch((err) => {
      const again = (err.retry || err instanceof TypeError) && attempt < RETRIES;
      if (again) { setTimeout(() => tell(base, body, el, tableId, attempt + 1), 1000 * 2 ** attempt); return; }
      replace(body, _("The chronicle could not be told."));
      told.delete(tableId);
    });
}
