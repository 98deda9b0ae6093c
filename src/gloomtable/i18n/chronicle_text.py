"""The chronicle's gendered lines (``designer/chronicle.py``): marked here, in the
i18n layer, so message extraction finds every gendered message without importing
the designer above it."""

from __future__ import annotations

from gloomtable.i18n.markers import NG_

DIED = NG_("died ({death}) with Self-Worth {sw}")
SURVIVED = NG_("survived with Self-Worth {sw}")
NOTHING = NG_("Nothing befell them at all.")
