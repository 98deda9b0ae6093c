// Drawn examples for the rules reference (the page's "Rules"): small Gloom stacks made
// with the table's own renderer (cards.js), each beside what it shows. The cards are
// made up for the examples (no set's cards); the Self-Worth under each stack is worked
// out here by the cardinal rule (R-G4): in each points region only the top card that
// prints there counts.

import { h } from "./dom.js";
import { _ } from "./i18n.js";
import { stackSVG } from "./cards.js";

const NONE = [false, false, false, false, false, false, false, false, false];

function printsOf({ points = [], icons = [], text = false, portrait = false }) {
  const p = NONE.slice();
  for (let i = 0; i < 3; i++) {
    p[i] = points[i] !== undefined && points[i] !== null;
    p[3 + i] = !!icons[i];
  }
  p[6] = text;
  p[7] = portrait;
  return p;
}

function face(index, name, type, spec) {
  return { index, name, type, points: [0, 1, 2].map((i) => spec.points?.[i] ?? null),
    icons: [0, 1, 2].map((i) => spec.icons?.[i] ?? null), text: spec.text || "", prints: printsOf(spec) };
}

/** The Self-Worth a stack shows: per region, the points of the top card printing there. */
export function selfWorth(faces) {
  let total = 0;
  for (let i = 0; i < 3; i++) {
    for (let k = faces.length - 1; k >= 0; k--) {
      if (faces[k].prints[i]) { total += faces[k].points[i]; break; }
    }
  }
  return total;
}

function examples() {
  const character = face(-1, _("A Character"), "character", { portrait: true });
  const sad = face(-2, _("A sad Modifier"), "modifier", { points: [-10], icons: [null, "duck"] });
  const happy = face(-3, _("A happy Modifier"), "modifier", { points: [10, -5] });
  const death = face(-4, _("An Untimely Death"), "untimely_death", { portrait: true, text: true });
  death.text = _("Played only on a Character whose Self-Worth is below zero.");
  return [
    { faces: [character, sad], text: _("A Modifier lays its points on the Character: this one shows −10.") },
    { faces: [character, sad, happy],
      text: _("The cardinal rule: a card covers every region it prints in, and only what shows counts. " +
        "The +10 covers the −10, so the stack is worth +10 − 5 = +5; the duck still shows.") },
    { faces: [character, sad, death], dead: true,
      text: _("An Untimely Death, only as the first play of a turn and only on a Character below zero: " +
        "the Character is dead, and only dead Characters count in their family's Family Value.") },
  ];
}

/** The examples, as a section for the rules panel. */
export function stackExamples() {
  return h("section", { class: "rules-pictures", "data-testid": "rules-pictures" },
    h("h2", {}, _("Stacks, drawn")),
    examples().map((ex) => {
      const sw = selfWorth(ex.faces);
      const points = sw > 0 ? "+" + sw : String(sw);
      return h("figure", { class: "rules-example" },
        stackSVG(ex.faces, { dead: !!ex.dead, label: ex.text }),
        h("figcaption", {}, h("strong", { "data-testid": "example-self-worth" },
          _("Self-Worth {points}", { points })), " \u2014 ", ex.text));
    }));
}
