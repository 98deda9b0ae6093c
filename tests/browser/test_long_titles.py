"""Long card titles are drawn whole and within their room (issue 34, item 4): a
Modifier's caption never runs over its point badges or icon slots, a Character's
name stays in its portrait, a text box's title in its box, and no title is cut
short with an ellipsis."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from conftest import PageErrors
from gloomtable.server.testing import ServerThread

LONG = "Was Thoroughly and Unforgivably Embarrassed at the Lighthouse Regatta"
CHARACTER = "Bartholomew Wickersham-Fotheringay the Younger"
DECK = f'''
[set]
id = "regatta"
name = "The Regatta"
icons = ["gull"]
glyphs = {{ gull = "\u2655" }}
[[families]]
id = "regatta"
name = "The Regatta Club"
[[characters]]
id = "bart"
name = "{CHARACTER}"
family = "regatta"
[[modifiers]]
id = "embarrassed"
name = "{LONG}"
points = {{ top = -15, middle = -10, bottom = 5 }}
icons = {{ top = "murder", middle = "romance", bottom = "gull" }}
[[modifiers]]
id = "told"
name = "Was Told of It at Length by Everyone on the Quay"
points = {{ top = 10 }}
text = "Draw a card."
effects = [{{ when = "immediate", do = [{{ draw = 1 }}] }}]
'''

OVERLAPS = """(sel) => {
  const out = [];
  for (const svg of document.querySelectorAll('.gallery-card svg')) {
    const cap = svg.querySelector(sel);
    if (!cap) continue;
    const b = cap.getBBox();
    for (const c of svg.querySelectorAll('.region.points circle, .region.icon circle')) {
      const r = c.getBBox();
      if (b.x < r.x + r.width && r.x < b.x + b.width && b.y < r.y + r.height && r.y < b.y + b.height)
        out.push(cap.textContent);
    }
    if (b.x < 0 || b.x + b.width > 120 || b.y + b.height > 168) out.push('outside: ' + cap.textContent);
  }
  return out;
}"""


def test_long_titles_are_whole_and_clear_of_the_badges(browser: Any, tmp_path: Path) -> None:
    with ServerThread(tmp_path / "t.db") as server:
        r = httpx.post(server.url + "/api/decks", json={"deck": DECK, "file": "regatta.toml"}, timeout=120)
        assert r.status_code == 201, r.text
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        errors = PageErrors(page)
        page.goto(server.url + r.json()["gallery"])
        page.wait_for_selector(".gallery-card svg", timeout=60_000)
        assert page.evaluate(OVERLAPS, "text.caption") == []
        texts = page.eval_on_selector_all(".gallery-card svg text", "(els) => els.map((e) => e.textContent)")
        joined = " ".join(" ".join(t.split()) for t in texts)
        assert "\u2026" not in joined, joined
        for name in (LONG, CHARACTER, "Was Told of It at Length by Everyone on the Quay"):
            assert name.replace(" ", "") in joined.replace(" ", ""), (name, joined)
        # a squeezed line stays in its room: the caption within the slots' gap, the
        # portrait's name within the portrait, the text box's title within the box
        widths = page.evaluate("""() => [...document.querySelectorAll('.gallery-card svg')].map((svg) => {
          const get = (sel) => { const e = svg.querySelector(sel); return e ? e.getBBox() : null; };
          return { cap: get('text.caption'), por: get('.region.portrait text'),
                   pr: get('.region.portrait rect'), tb: get('.region.text text'),
                   tr: get('.region.text rect') };
        })""")
        for w in widths:
            if w["cap"]:
                assert w["cap"]["x"] >= 29 and w["cap"]["x"] + w["cap"]["width"] <= 91, w
            for inner, outer in (("por", "pr"), ("tb", "tr")):
                if w[inner] and w[outer]:
                    assert w[outer]["x"] <= w[inner]["x"] + 0.5 and \
                        w[inner]["x"] + w[inner]["width"] <= w[outer]["x"] + w[outer]["width"] + 0.5, w
        # a deck's own icon is drawn with the glyph it gives (issue 34, item 3)
        drawn = page.eval_on_selector(".region.icon[data-icon=gull]", "(g) => [g.querySelector('text')"
                                      ".textContent, g.querySelector('title').textContent]")
        assert drawn == ["\u2655", "gull"], drawn
        errors.check()
        page.close()
