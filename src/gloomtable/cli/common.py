"""What every ``gloom`` command shares: the error console, a clean failure, and the
``--lang`` option applied. Kept apart from ``cli/main.py`` so the commands that live in
their own modules (``gloom learn``) use them without importing the app back."""

from __future__ import annotations

from typing import NoReturn

import typer
from rich.console import Console

from gloomtable.i18n import LANGUAGES, LanguageError
from gloomtable.i18n.cli_language import CLI as LANG
from gloomtable.i18n.cli_language import _

err = Console(stderr=True, soft_wrap=True)


def fail(message: str, code: int = 2) -> NoReturn:
    err.print(f"[bold red]{_('error:')}[/] {message}", highlight=False)
    raise typer.Exit(code)


def set_language(lang: str | None, reset: bool = False) -> None:
    """Apply a ``--lang`` option, or fail with the languages we ship."""
    try:
        LANG.reset(lang) if reset else LANG.set(lang)
    except LanguageError:
        fail(_("--lang {lang!r}: not a shipped language; choose one of {langs}").format(
            lang=lang, langs=", ".join(LANGUAGES)))
