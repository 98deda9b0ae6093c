"""The card gallery: every card of a deck drawn by the web table's own SVG
renderer (``web/cards.js``), with a stack builder (``web/gallery.js``).

Two ways to show it: the web app serves :func:`served_page` at ``/gallery``
(it imports the renderer from ``/static``), and ``gloom deck gallery PATH``
writes :func:`standalone_page`: one file with the deck's faces as JSON and the
renderer's modules inlined, which opens in any browser without a server.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from gloomtable.engine import GloomtableError
from gloomtable.games.gloom.cards import Deck
from gloomtable.games.gloom.deck import build_deck, combine, load_deck

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
MODULES = ("dom.js", "i18n.js", "cards.js", "gallery.js")
"""The renderer's modules in dependency order, as inlined in a standalone page."""

CSS = """
.gallery-head { padding: .6rem 1rem; background: var(--plum, #3b2a4a); color: #f4efe6; }
.gallery-head p { margin: .2rem 0; }
.gallery-head .problems { background: #fff1f1; color: #7a1020; padding: .4rem 1.6rem; border-radius: 4px; }
.gallery-body { display: grid; grid-template-columns: 1fr 330px; gap: 1rem; padding: 0 1rem 2rem; }
.gallery-grid { display: flex; flex-wrap: wrap; gap: .6rem; }
.gallery-card { margin: 0; width: 150px; cursor: default; }
.gallery-card[title="Add to the stack"] { cursor: pointer; }
.gallery-card svg { width: 150px; height: 210px; display: block; }
.gallery-card.in-stack svg { outline: 3px solid var(--gold, #c9a227); border-radius: 8px; }
.gallery-card figcaption { font-size: .78rem; line-height: 1.25; }
.gallery-card .card-text { margin-top: .2rem; }
.flavour { font-style: italic; color: #5b4b66; font-size: .78rem; }
.stack-builder { position: sticky; top: .5rem; align-self: start; background: var(--panel, #fffdf8);
                 border: 1px solid var(--line, #d8cfc0); border-radius: 6px; padding: .6rem; }
.stack-view svg { width: 220px; height: 308px; display: block; margin: 0 auto; }
.stack-builder table { font-size: .8rem; border-collapse: collapse; width: 100%; }
.stack-builder td, .stack-builder th { border-bottom: 1px solid #e6dfd2; padding: 1px 4px; text-align: left; }
.stack-builder .layers { font-size: .8rem; padding-left: 1.4rem; }
.stack-builder .hidden-layer { opacity: .45; }
.stack-builder button.remove { padding: 0 5px; font-size: .7rem; }
@media (max-width: 800px) { .gallery-body { grid-template-columns: 1fr; }
                            .stack-builder { position: static; } }
"""


class GalleryError(GloomtableError, ValueError):
    """The gallery cannot be built (the renderer's files are missing or unusable)."""


def faces_of(deck: Deck) -> dict[str, Any]:
    """The deck as the web page sees it: the same card faces the table uses."""
    from gloomtable.games.catalogue import deck_catalogue

    data = deck_catalogue(deck)
    data["deck"] = {"id": deck.id, "name": deck.name, "source": deck.source}
    return data


def gallery_data(paths: list[str]) -> dict[str, Any]:
    """Faces of one deck file or shipped set, or of several mixed (R-H10).
    Raises :class:`~gloomtable.games.gloom.deck.DeckError` naming every problem."""
    decks = [load_deck(p) for p in paths]
    return faces_of(combine(decks) if len(decks) > 1 else decks[0])


def gallery_data_from_text(text: str, source: str = "uploaded deck") -> dict[str, Any]:
    """Faces of a deck sent as TOML text (the served page's "open a deck file")."""
    from gloomtable.engine.textdata import TextDataError, load_toml
    from gloomtable.games.gloom.deck import DeckError

    try:
        data = load_toml(text)
    except TextDataError as exc:
        raise DeckError(source, [str(exc)]) from None
    return faces_of(build_deck(data, source))


def text_faces(text: str) -> tuple[dict[str, Any] | None, str, list[str]]:
    """(the faces, "", []) of a deck sent as TOML text, or (None, what is wrong, every
    problem): plain values, so the server's worker sends them back whole."""
    from gloomtable.games.gloom.deck import DeckError

    try:
        return gallery_data_from_text(text), "", []
    except DeckError as exc:
        return None, str(exc).split("\n")[0], list(exc.problems)


def gallery_sets() -> tuple[str, ...]:
    """The sets the gallery shows by id: the shipped ones, then ``gloom serve --sets``'."""
    from gloomtable.games.gloom.deck import shipped_sets

    return shipped_sets()


def is_packaged(name: str) -> bool:
    """Whether set ``name`` ships in the package (so a worker process reads it too)."""
    from gloomtable.games.gloom.deck import SHIPPED_SETS

    return name in SHIPPED_SETS


def set_text(name: str) -> str:
    """The deck file's text of a set this process knows by id."""
    from gloomtable.games.gloom.deck import read_set

    return read_set(name)[1]


_IMPORT = re.compile(r'^import \{[^}]*\} from "\./[\w.-]+\.js";\n', re.M)
_EXPORT = re.compile(r"^export (?=(?:async )?function |const |let |class )", re.M)
_DECL = re.compile(r"^(?:async )?(?:function\*? |const |let |class )([A-Za-z_$][\w$]*)", re.M)


def bundle(modules: tuple[str, ...] = MODULES, web_dir: Path = WEB_DIR) -> str:
    """The renderer's ES modules as one module: local imports and ``export``
    keywords dropped, which is safe because every top-level name is unique
    (checked here, so a clash fails loudly rather than silently shadowing)."""
    seen: dict[str, str] = {}
    parts = []
    for name in modules:
        try:
            src = (web_dir / name).read_text(encoding="utf-8")
        except OSError as exc:
            raise GalleryError(f"cannot read the renderer module {name}: {exc.strerror}") from None
        src = _EXPORT.sub("", _IMPORT.sub("", src))
        if re.search(r'^\s*import\b', src, re.M) or re.search(r"^export\b", src, re.M):
            raise GalleryError(f"{name} has an import or export the gallery cannot inline")
        for decl in _DECL.findall(src):
            if decl in seen:
                raise GalleryError(f"{decl} is declared in both {seen[decl]} and {name}")
            seen[decl] = name
        parts.append(f"// --- {name} ---\n{src}")
    js = "\n".join(parts)
    if "</script" in js.lower():
        raise GalleryError("a renderer module contains '</script', which cannot be inlined")
    return js


def _json_for_script(data: Any) -> str:
    return json.dumps(data).replace("</", "<\\/").replace("<!--", "<\\!--")


def _page(title: str, head: str, body: str) -> str:
    from html import escape

    return (f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(title)}</title>{head}</head><body>{body}</body></html>\n")


def standalone_page(data: dict[str, Any]) -> str:
    """One self-contained HTML file: style, renderer and the deck's faces inline."""
    try:
        style = (WEB_DIR / "style.css").read_text(encoding="utf-8")
    except OSError:
        style = ""
    js = bundle()
    name = data.get("deck", {}).get("name", "deck")
    head = f"<style>{style}\n{CSS}</style>"
    body = ('<div id="gallery"></div>'
            f'<script type="application/json" id="gallery-data">{_json_for_script(data)}</script>'
            f'<script type="module">{js}\n'
            'startGallery(document.getElementById("gallery"), '
            '{ data: JSON.parse(document.getElementById("gallery-data").textContent) });</script>')
    return _page(f"Card gallery: {name}", head, body)


def served_page() -> str:
    """The page the web app serves at ``/gallery?deck=NAME``."""
    head = ('<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">'
            f'<link rel="stylesheet" href="/static/style.css"><style>{CSS}</style>')
    body = ('<div id="gallery"><p class="loading">gloomtable</p></div>'
            '<script type="module" src="/static/gallery_page.js"></script>')
    return _page("Card gallery", head, body)


def write_gallery(paths: list[str], out: Path | None = None) -> Path:
    """Write the standalone gallery of ``paths`` (default ``<deck id>-gallery.html``)."""
    data = gallery_data(paths)
    target = out or Path(f"{data['deck']['id'].replace('+', '-')}-gallery.html")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(standalone_page(data), encoding="utf-8")
    except OSError as exc:
        raise GalleryError(f"cannot write {target}: {exc.strerror}") from None
    return target
