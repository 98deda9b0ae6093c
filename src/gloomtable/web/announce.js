// "Your turn", told to a person whose tab is in the background: the tab's title and
// favicon change while this seat must decide and the page is hidden, and change back
// when it is seen or the decision is gone; a short beep (off unless switched on) and a
// browser notification (only when the person allowed them) go with it. The choices
// are remembered in localStorage.

import { h } from "./dom.js";
import { _ } from "./i18n.js";

const ICON = "/static/favicon.svg";
const TURN_ICON = "/static/favicon-turn.svg";
const SOUND_KEY = "gloomtable.turn-sound";
const NOTIFY_KEY = "gloomtable.turn-notify";

function saved(key) {
  try { return localStorage.getItem(key) === "1"; } catch { return false; }
}

function save(key, on) {
  try { localStorage.setItem(key, on ? "1" : "0"); } catch { /* private mode */ }
}

function isHidden() {
  return document.visibilityState === "hidden";
}

export class TurnAnnouncer {
  constructor() {
    this.baseTitle = document.title;
    this.mine = false;
    this.told = null; // the state id last announced (one beep and notification per decision)
    this.announced = false;
    this.sound = saved(SOUND_KEY);
    this.notify = saved(NOTIFY_KEY) && this.permission() === "granted";
    this.notice = null;
    document.addEventListener("visibilitychange", () => this.refresh());
    window.addEventListener("focus", () => this.refresh());
  }

  permission() {
    return typeof Notification === "undefined" ? "unsupported" : Notification.permission;
  }

  setBase(title) {
    this.baseTitle = title;
    this.refresh();
  }

  /** The page's latest state: `mine` when this seat must decide; `stateId` tells decisions apart. */
  update(mine, stateId) {
    this.mine = mine;
    this.stateId = stateId;
    this.refresh();
  }

  refresh() {
    const on = this.mine && isHidden();
    if (on && this.told !== this.stateId) {
      this.told = this.stateId;
      if (this.sound) this.beep();
      if (this.notify) this.showNotification();
    }
    if (!this.mine && this.notice) { this.notice.close(); this.notice = null; }
    if (on === this.announced) return;
    this.announced = on;
    document.title = on ? _("Your turn! {title}", { title: this.baseTitle }) : this.baseTitle;
    const link = document.querySelector("link[rel=icon]");
    if (link) link.setAttribute("href", on ? TURN_ICON : ICON);
    document.documentElement.dataset.turn = on ? "mine" : "";
  }

  beep() {
    try {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      if (!Ctx) return;
      this.audio = this.audio || new Ctx();
      const ctx = this.audio;
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = 660;
      gain.gain.setValueAtTime(0.0001, ctx.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.2, ctx.currentTime + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + 0.25);
      osc.connect(gain).connect(ctx.destination);
      osc.start();
      osc.stop(ctx.currentTime + 0.3);
      this.beeps = (this.beeps || 0) + 1;
    } catch { /* no sound on this device */ }
  }

  showNotification() {
    try {
      if (this.notice) this.notice.close();
      this.notice = new Notification(_("Your turn at gloomtable"), { body: this.baseTitle, tag: "gloomtable-turn" });
      this.notice.onclick = () => { window.focus(); if (this.notice) this.notice.close(); };
    } catch { /* notifications refused or unsupported */ }
  }

  /** The two switches, for the side panel. */
  controls() {
    const sound = h("input", { type: "checkbox", "data-testid": "turn-sound", checked: this.sound,
      onchange: (ev) => {
        this.sound = ev.target.checked;
        save(SOUND_KEY, this.sound);
        if (this.sound) this.beep(); // a sample, and a user gesture that lets the page play sound later
      } });
    const notify = h("input", { type: "checkbox", "data-testid": "turn-notify", checked: this.notify,
      disabled: this.permission() === "unsupported" || this.permission() === "denied",
      onchange: async (ev) => {
        let on = ev.target.checked;
        if (on && this.permission() === "default") {
          try { on = (await Notification.requestPermission()) === "granted"; } catch { on = false; }
        }
        on = on && this.permission() === "granted";
        ev.target.checked = on;
        this.notify = on;
        save(NOTIFY_KEY, on);
      } });
    return h("fieldset", { class: "turn-alerts", "data-testid": "turn-alerts" },
      h("legend", {}, _("When it is your turn and this tab is hidden")),
      h("label", {}, sound, " ", _("Play a short sound")),
      h("label", {}, notify, " ", _("Show a notification")));
  }
}
