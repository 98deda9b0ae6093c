// The lesson panel of a guided first game (docs/learn.md): the step's words in the
// page's language, "Step n of N", Next for a step to read, a wrong move's explanation,
// a suggested move; and on the board the step's areas and the choices that do what it
// asks, marked. The server decides everything (msg.lesson); this only shows it.

import { h, replace } from "./dom.js";
import { _ } from "./i18n.js";

/** A lesson's highlight areas (src/gloomtable/learn/script.py, Highlight) and where
 *  each is on the page; an area the game does not draw matches nothing. */
const AREAS = {
  families: ".families",
  hand: "[data-testid=hand-dock]",
  stack: ".family.mine .stack-wrap",
  layers: ".family.mine .layers",
  self_worth: ".family.mine .self-worth",
  icons: ".family.mine .icons, .story",
  plays_left: "[data-testid=turn-line]",
  draw_pile: ".middle .pile:first-child",
  discard: ".middle .pile:nth-child(2)",
  middle: ".middle",
  stories: ".middle-gloomier .story, .story-held",
  guests: ".character.guest",
  machines: ".machines",
  reserve: "[data-testid=reserve]",
  scores: "[data-testid=scores], .family-value",
  log: "[data-testid=log-toggle], [data-testid=log]",
  decision: "[data-testid=prompt]",
};

const MARKS = ["lesson-area", "lesson-fit", "lesson-suggested"];

export class LessonPanel {
  constructor(page) {
    this.page = page;
    this.why = ""; // the last refused move's explanation (an English msgid)
    this.whyStep = null; // the step it was said at: a new step clears it
    this.pointed = null; // the state id whose suggested move is being shown
    this.note = h("span", { id: "lesson-fit-note", class: "visually-hidden" });
    this.el = h("section", { class: "lesson", "data-testid": "lesson", hidden: true });
    page.els.statusbar.before(this.el);
  }

  /** A move of the learner's that is not the step's must not be made for them: no
   *  automatic "let it stand" while a step asks for something else. */
  holdsStand(m) {
    const l = m && m.lesson;
    return !!(l && !l.done && l.fitting && l.fitting.length);
  }

  error(m) {
    if (m.code === "lesson_step" && this.page.msg && this.page.msg.lesson) {
      this.why = m.message;
      this.whyStep = this.page.msg.lesson.step;
    }
    if (this.page.msg) this.render(this.page.msg);
  }

  render(m) {
    for (const cls of MARKS) {
      for (const el of this.page.root.querySelectorAll(`.${cls}`)) {
        el.classList.remove(cls);
        if (el.getAttribute("aria-describedby") === "lesson-fit-note") el.removeAttribute("aria-describedby");
      }
    }
    const l = m && m.lesson;
    this.el.hidden = !l;
    if (!l) { replace(this.el); return; }
    if (this.whyStep !== l.step) { this.why = ""; this.whyStep = null; }
    const deciding = this.page.isMine() && !l.read && l.suggest !== undefined;
    const pointing = deciding && this.pointed === m.state_id;
    if (!l.done) {
      for (const area of l.highlight || []) {
        const sel = AREAS[area];
        if (sel) for (const el of this.page.root.querySelectorAll(sel)) el.classList.add("lesson-area");
      }
    }
    if (deciding) this.mark(m, l.fitting || [], "lesson-fit");
    if (pointing) this.mark(m, [l.suggest], "lesson-suggested");
    const progress = l.done ? _("Lesson complete: all {total} steps done.", { total: l.steps })
      : _("Step {n} of {total}", { n: l.step + 1, total: l.steps });
    let say;
    if (m.over) say = _(l.end);
    else if (l.done) say = _("Play on to the end of the game as you like; the suggestions still help.");
    else say = _(l.say);
    const choice = pointing ? m.choices.find((c) => c.action === l.suggest) : null;
    replace(this.el,
      h("div", { class: "lesson-head" },
        h("strong", { class: "lesson-title" }, _(l.title)), " ",
        h("span", { class: "lesson-progress", "data-testid": "lesson-progress" }, progress)),
      h("p", { class: "lesson-say", "data-testid": "lesson-say", "aria-live": "polite" }, say),
      this.why ? h("p", { class: "lesson-why", "data-testid": "lesson-why", role: "alert" }, _(this.why)) : null,
      choice ? h("p", { class: "lesson-hint", "data-testid": "lesson-hint" },
        _("Suggested: {move}", { move: this.page.names(choice.text) })) : null,
      h("div", { class: "lesson-tools" },
        l.read && !l.done ? h("button", { type: "button", class: "primary lesson-next", "data-testid": "lesson-next",
          "data-focus": "lesson-next", onclick: () => this.next() }, _("Next")) : null,
        deciding ? h("button", { type: "button", class: "lesson-suggest", "data-testid": "lesson-suggest",
          "data-focus": "lesson-suggest", "aria-pressed": pointing ? "true" : "false",
          onclick: () => this.suggest() }, _("Suggest a move")) : null),
      this.note);
    this.el.dataset.done = l.done ? "true" : "false";
    this.el.dataset.step = l.step_id || "";
    this.note.textContent = pointing ? _("The suggested move.") : _("This does what the step asks.");
  }

  /** Light up every element that makes one of `actions`: the buttons and lit Characters
   *  or Machines that carry it, and the hand cards that lead to it. */
  mark(m, actions, cls) {
    const wanted = new Set(actions);
    const root = this.page.root;
    for (const el of root.querySelectorAll("[data-action]")) {
      if (wanted.has(Number(el.dataset.action))) this.lit(el, cls);
    }
    for (const c of m.choices) {
      if (!wanted.has(c.action) || c.card === undefined) continue;
      const card = root.querySelector(`[data-testid=hand-card-${Number(c.card)}].playable`);
      if (card) this.lit(card, cls);
    }
  }

  lit(el, cls) {
    el.classList.add(cls);
    if (!el.hasAttribute("aria-describedby")) el.setAttribute("aria-describedby", "lesson-fit-note");
  }

  next() {
    this.page.socket.send({ type: "lesson_next" });
  }

  suggest() {
    const m = this.page.msg;
    if (!m || !m.lesson) return;
    this.pointed = this.pointed === m.state_id ? null : m.state_id;
    this.page.holdOn();
    this.page.render();
  }
}
