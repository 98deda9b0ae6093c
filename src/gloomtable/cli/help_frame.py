"""The words typer puts around our help texts ("Usage:", "Options", "[default: …]",
"Show this message and exit.") in the command line's language.

typer builds them with the standard library's gettext, which our ``.po`` catalogues
do not feed, so ``gloom --lang es --help`` printed them in English around Spanish
texts. **Decision:** set typer's own module-level strings (``typer.rich_utils``, read
when help is printed) to our translations once, at start-up, and give the help option
and the usage line their text through the two methods that make them; no copy of
typer's help layout of our own. Types in angle brackets (``<int>``) are typer's
notation, left as they are (docs/i18n.md)."""

from __future__ import annotations

import re
from typing import Any

import typer
import typer.core
import typer.rich_utils as rich_utils

from gloomtable.i18n.cli_language import _
from gloomtable.i18n.markers import N_

HELP_OPTION = N_("Show this message and exit.")
USAGE = N_("Usage: ")
_STRINGS = {
    "DEFAULT_STRING": N_("[default: {}]"),
    "REQUIRED_LONG_STRING": N_("[required]"),
    "ENVVAR_STRING": N_("[env var: {}]"),
    "DEPRECATED_STRING": N_("(deprecated) "),
    "ARGUMENTS_PANEL_TITLE": N_("Arguments"),
    "OPTIONS_PANEL_TITLE": N_("Options"),
    "COMMANDS_PANEL_TITLE": N_("Commands"),
    "ERRORS_PANEL_TITLE": N_("Error"),
}


def _help_option(original: Any) -> Any:
    def get_help_option(self: Any, ctx: Any) -> Any:
        option = original(self, ctx)
        if option is not None:
            option.help = _(HELP_OPTION)
        return option
    return get_help_option


def _format_usage(self: Any, ctx: Any, formatter: Any) -> None:
    formatter.write_usage(ctx.command_path, " ".join(self.collect_usage_pieces(ctx)), prefix=_(USAGE))


def translate_help_frame() -> None:
    """Put typer's frame words in the current language (call once the language is known)."""
    for name, english in _STRINGS.items():
        setattr(rich_utils, name, _(english))
    rich_utils.RICH_HELP = _("Try [blue]'{command_path} {help_option}'[/] for help.")
    classes: tuple[Any, ...] = (typer.core.TyperCommand, typer.core.TyperGroup)
    for cls in classes:
        if not getattr(cls, "_gloom_translated", False):
            cls.get_help_option = _help_option(cls.get_help_option)
            cls.format_usage = _format_usage
            cls._gloom_translated = True
    # rich's highlighter styles the usage prefix it knows: teach it ours too
    prefix = _(USAGE)
    if prefix != USAGE:
        highlights = list(rich_utils.OptionHighlighter.highlights)
        highlights.append(rf"(?P<usage>{re.escape(prefix)})")
        rich_utils.OptionHighlighter.highlights = highlights
