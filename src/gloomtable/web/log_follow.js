// The game log keeps its newest line in view: after each move the list scrolls to its
// end, unless the reader scrolled up to read; then a "new lines" marker shows instead,
// and a click on it (or scrolling back down) follows the newest line again.

import { h } from "./dom.js";
import { _ } from "./i18n.js";

/** How close to the end (px) still counts as "at the newest line". */
const AT_END_PX = 24;

export class LogFollower {
  /** `list` is the scrolling <ol> of log lines; the marker is placed right after it. */
  constructor(list) {
    this.list = list;
    this.following = true;
    this.unread = false;
    this.marker = h("button", { type: "button", class: "log-new", "data-testid": "log-new", hidden: true,
      onclick: () => this.toEnd() }, "\u2193 ", _("New lines"));
    list.addEventListener("scroll", () => {
      if (list.clientHeight === 0) return; // folded away: nothing was read
      this.following = this.atEnd();
      if (this.following) this.setUnread(false);
    });
  }

  atEnd() {
    const l = this.list;
    return l.scrollTop + l.clientHeight >= l.scrollHeight - AT_END_PX;
  }

  /** Call after the lines are redrawn. `grew`: new lines arrived. */
  after(grew) {
    if (this.following) this.stick();
    else if (grew) this.setUnread(true);
  }

  stick() {
    const l = this.list;
    if (l.scrollTop + l.clientHeight < l.scrollHeight) l.scrollTop = l.scrollHeight;
  }

  toEnd() {
    this.following = true;
    this.setUnread(false);
    this.stick();
    this.list.focus({ preventScroll: true });
  }

  setUnread(on) {
    this.unread = on;
    this.marker.hidden = !on;
  }
}
