"""Message catalogs: ``locale/<lang>/LC_MESSAGES/gloomtable.po`` compiled at load time.

**Decision:** we ship only the ``.po`` files and compile them in memory with
``babel.messages`` on first use (a few milliseconds, cached per language), so a
stale ``.mo`` can never disagree with its ``.po``."""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

DOMAIN = "gloomtable"
LANGUAGES = ("en", "es", "ru")
"""The languages we ship, English first (the source language)."""

LANGUAGE_NAMES = {"en": "English", "es": "Español", "ru": "Русский"}


def po_path(lang: str) -> Traversable:
    """Where the catalog of ``lang`` lives inside the package."""
    return resources.files("gloomtable").joinpath("locale", lang, "LC_MESSAGES", f"{DOMAIN}.po")


@cache
def load_catalog(lang: str) -> Catalog:
    """The parsed ``.po`` catalog of ``lang`` (raises ``KeyError`` for unknown languages)."""
    if lang not in LANGUAGES:
        raise KeyError(lang)
    with po_path(lang).open("rb") as fh:
        return read_po(fh, locale=lang, domain=DOMAIN)


@cache
def _translations(lang: str) -> NullTranslations:
    buf = io.BytesIO()
    write_mo(buf, load_catalog(lang))
    buf.seek(0)
    return Translations(buf, domain=DOMAIN)


@dataclass(frozen=True)
class Translator:
    """gettext for one language; pass it to whatever prints for a person."""

    lang: str
    translations: NullTranslations

    def gettext(self, message: str) -> str:
        return self.translations.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.translations.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        return str(self.translations.pgettext(context, message))

    def gendered(self, gender: str | None, message: str) -> str:
        """``message`` in the form for a Character of ``gender`` (a message context);
        the plain entry when the gender is masculine or unknown, or the catalogue has no
        entry in that context."""
        if gender:
            found = str(self.translations.pgettext(gender, message))
            if found != message or self.lang == "en":
                return found
        return self.translations.gettext(message)

    def ngendered(self, gender: str | None, singular: str, plural: str, n: int) -> str:
        """:meth:`gendered` for a plural pair."""
        if gender:
            found = str(self.translations.npgettext(gender, singular, plural, n))
            if found not in (singular, plural) or self.lang == "en":
                return found
        return self.translations.ngettext(singular, plural, n)

    def player(self, seat: int) -> str:
        """"player 3" for seat 2, as people count."""
        return self.gettext("player {n}").format(n=seat + 1)


@cache
def translator(lang: str) -> Translator:
    """The translator of ``lang`` (one of :data:`LANGUAGES`; anything else gets English)."""
    if lang not in LANGUAGES:
        lang = "en"
    return Translator(lang, _translations(lang))
