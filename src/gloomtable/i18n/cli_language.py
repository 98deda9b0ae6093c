"""The command line's language: ``--lang`` (anywhere on the command line), else the
POSIX locale (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English.

Help texts are built when the ``gloom`` module is imported, so the language is
found once from ``sys.argv`` and the environment at start; ``--lang`` options then
set it again for the messages printed while the command runs."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence

from gloomtable.i18n.catalog import Translator, translator
from gloomtable.i18n.negotiate import LanguageError, resolve_language


def startup_language(argv: Sequence[str] | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language a command line asks for before it is parsed (bad names -> locale/English:
    the option's own validation reports them properly later)."""
    args = list(sys.argv[1:] if argv is None else argv)
    option = None
    for i, a in enumerate(args):
        if a == "--lang" and i + 1 < len(args):
            option = args[i + 1]
        elif a.startswith("--lang="):
            option = a.split("=", 1)[1]
    try:
        return resolve_language(option, environ)
    except LanguageError:
        return resolve_language(None, environ)


class CliLanguage:
    """The current language of one ``gloom`` run; ``_`` and ``ngettext`` follow it."""

    def __init__(self, lang: str) -> None:
        self.lang = self.default = lang

    def reset(self, option: str | None) -> None:
        """At the start of each run (the app's callback): ``--lang`` or the start-up language,
        so nothing carries over between runs in one process (tests, shells)."""
        self.lang = self.default
        self.set(option)

    @property
    def tr(self) -> Translator:
        return translator(self.lang)

    def set(self, option: str | None) -> None:
        """Apply a ``--lang`` option (raises :class:`LanguageError` for unknown names)."""
        self.lang = resolve_language(option) if option else self.lang

    def gettext(self, message: str) -> str:
        return self.tr.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.tr.ngettext(singular, plural, n)


CLI = CliLanguage(startup_language())
"""The ``gloom`` program's language. Command modules translate with::

    from gloomtable.i18n.cli_language import _, ngettext
    help=_("Address to listen on.")
"""
_ = CLI.gettext
ngettext = CLI.ngettext
