"""Extraction markers: texts declared as data, found by ``gloomtable.i18n.extract``."""

from __future__ import annotations

GENDERS = ("feminine", "masculine", "plural")
"""Grammatical genders of Characters (deck data). Masculine is the catalogue's plain
entry; ``feminine`` and ``plural`` are message contexts (``msgctxt``) of gendered lines."""

GENDER_CONTEXTS = ("feminine", "plural")


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it here."""
    return message


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a plural pair for extraction (babel keyword ``Nn_:1,2``)."""
    return singular, plural


GENDERED: set[str] = set()
"""Every message marked with :func:`NG_` (filled as modules load; read by extraction)."""


def NG_(message: str) -> str:
    """Mark a gendered message: extraction adds its ``feminine`` and ``plural`` contexts."""
    GENDERED.add(message)
    return message
