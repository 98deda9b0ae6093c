"""The short rules reference, one Markdown file per game and language
(``locale/<lang>/rules/<game>.md``), for ``gloom rules`` and the web page."""

from __future__ import annotations

from importlib import resources

from markdown_it import MarkdownIt

from gloomtable.engine import ConfigError
from gloomtable.games import registry
from gloomtable.i18n.catalog import LANGUAGES


def rules_text(game: str, lang: str) -> str:
    """The rules reference of ``game`` in ``lang`` (English for unshipped languages):
    one file per rules package (Gloomier's is Gloom's, ``GameEntry.package``)."""
    entry = registry.find(game)
    if entry is None:
        raise ConfigError(f"no rules reference for {game!r}; known games: {', '.join(registry.names())}")
    key = entry.package
    lang = lang if lang in LANGUAGES else "en"
    return resources.files("gloomtable").joinpath("locale", lang, "rules", f"{key}.md").read_text(
        encoding="utf-8")


def rules_html(markdown: str) -> str:
    """A rules reference drawn as HTML for the page (headings, paragraphs, bold,
    lists). Raw HTML in the file is escaped, never passed through."""
    html: str = MarkdownIt("js-default").render(markdown)
    return html
