"""Issue 32 in a real Chromium against a real server: the Spanish and the Russian page
show no English word of the interface anywhere a person reads it (text, tooltips,
labels): the lobby, a table of each game mid-game with a zoom open and at its end
(log and chronicle), and a lesson.

"English" is a word of an English message or card name of ours that the page's own
language never uses (so names and shared words such as "Lord" or "DNA" are not counted).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from importlib import resources
from typing import Any

import pytest
from babel.messages.pofile import read_po

from conftest import create_in_lobby
from gloomtable.i18n.extract import po_file
from gloomtable.server.testing import LiveServer, ServerThread

WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")
TEXTS = """() => {
  const out = [document.body.innerText];
  for (const el of document.querySelectorAll('[title], [aria-label], [placeholder], svg title, svg text')) {
    for (const a of ['title', 'aria-label', 'placeholder']) {
      if (el.getAttribute(a)) out.push(el.getAttribute(a));
    }
    const tag = el.tagName.toLowerCase();
    if (tag === 'title' || tag === 'text') out.push([...el.childNodes].map(n => n.textContent).join(' '));
  }
  return out.join('\\n');
}"""


def _words(text: str) -> set[str]:
    """Words of four letters or more, in Latin letters only (a Russian or Spanish word
    with an accent is its own word, not an English one inside it)."""
    found = WORD.findall(re.sub(r"\{\w*\}", " ", text))
    return {w.lower() for w in found if len(w) >= 4 and w.isascii()}


def _po(lang: str) -> list[Any]:
    with po_file(lang).open("rb") as fh:
        return [m for m in read_po(fh, locale=lang) if m.id]


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _strings(v)


def english_words(lang: str) -> set[str]:
    """Words of our English texts that ``lang``'s own texts never use."""
    english: set[str] = set()
    for m in _po("en"):
        english |= _words(" ".join(m.id) if isinstance(m.id, tuple) else m.id)
    own: set[str] = set()
    for m in _po(lang):
        own |= _words(" ".join(s or "" for s in m.string) if isinstance(m.string, tuple) else m.string)
    sets = resources.files("gloomtable.games.gloom.sets")
    creatures = resources.files("gloomtable.games.creatures")
    for folder, names in ((sets, ("classic", "gloomier")), (creatures, ("creatures",))):
        for name in names:
            deck = tomllib.loads(folder.joinpath(f"{name}.toml").read_text(encoding="utf-8"))
            english |= {w for s in _strings(deck) for w in _words(s)}
            own |= {w for s in _strings(tomllib.loads(folder.joinpath(f"{name}.{lang}.toml").read_text(
                encoding="utf-8"))) for w in _words(s)}
    return english - own


ZOOM_TEXT = """() => {
  const el = document.querySelector(".character .char-name, .machine-card");
  if (!el) return null;
  (el.closest(".zoomable") || el).dispatchEvent(new MouseEvent("mouseenter"));
  const z = document.querySelector("[data-testid=zoom]");
  return z.hidden ? null : z.innerText;
}"""


def english_on(page: Any, lang: str, where: str, vocabulary: set[str]) -> None:
    text = page.evaluate(TEXTS)
    found = sorted(_words(text) & vocabulary)
    lines = [ln for ln in text.split("\n") if _words(ln) & vocabulary][:8]
    assert not found, f"{lang}, {where}: English words {found} in {lines}"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with ServerThread(tmp_path_factory.mktemp("i18n-no-english") / "tables.db") as srv:
        yield srv


def watch(page: Any, base: str, game: str, lang: str, vocabulary: set[str]) -> None:
    """A table of three bots of ``game``: checked mid-game with a zoom open, and at the end."""
    create_in_lobby(page, base, game, seats=3, bots=3, seed=41)
    page.goto(base + page.get_attribute("[data-testid=spectate-link]", "href"))
    page.wait_for_function("() => document.querySelectorAll('[data-testid=log] .log-entry').length >= 8",
                           timeout=120_000)
    english_on(page, lang, f"{game} mid-game", vocabulary)
    # Bots at full speed redraw the table (and close an unpinned zoom) many times a
    # second, so the zoom is opened and read in one task of the page, before any redraw.
    zoom = page.evaluate(ZOOM_TEXT)
    assert zoom, f"{lang}, {game}: hovering a stack opened no zoom"
    found = sorted(_words(zoom) & vocabulary)
    assert not found, f"{lang}, {game} zoom: English words {found} in {zoom[:300]!r}"
    page.wait_for_selector("[data-testid=end]:not([hidden])", timeout=400_000)
    if game != "creatures":
        page.wait_for_selector("[data-testid=chronicle][data-ready='1']", timeout=300_000)
    english_on(page, lang, f"{game} at the end", vocabulary)


@pytest.mark.slow
@pytest.mark.parametrize(("locale", "lang"), [("es-ES", "es"), ("ru-RU", "ru")])
def test_the_page_shows_no_english(browser: Any, server: LiveServer, locale: str, lang: str) -> None:
    vocabulary = english_words(lang)
    assert {"draws", "discard", "family"} & vocabulary  # the check can fail
    ctx = browser.new_context(locale=locale, viewport={"width": 1360, "height": 900})
    ctx.set_default_timeout(20_000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(server.url + "/")
        page.wait_for_selector("[data-testid=create]")
        english_on(page, lang, "lobby", vocabulary)
        for game in ("gloom", "gloomier", "creatures"):
            watch(page, server.url, game, lang, vocabulary)
        for game in ("gloom", "creatures"):
            page.goto(server.url + "/")
            page.click(f"[data-testid=learn-{game}]")
            page.wait_for_selector("[data-testid=lesson]:not([hidden])")
            page.wait_for_selector("[data-testid=hand] .hand-card, [data-testid=hand] .creature-card",
                                   timeout=30_000)
            english_on(page, lang, f"{game} lesson", vocabulary)
        assert not errors, errors
    finally:
        ctx.close()
