"""JSON and TOML from outside (a network message, a request body, a deck file, a
lesson, a game record) read so that every way the text can be wrong is one
:class:`TextDataError` that says what is wrong, never a traceback.

The standard parsers fail in more ways than their own error types say: text nested
deeper than Python's stack raises ``RecursionError``, and an integer of more digits
than CPython converts (``sys.get_int_max_str_digits()``, 4,300 by default: its guard
against quadratic conversions) raises a plain ``ValueError`` whose advice, to raise
that limit, is for programmers. A few kilobytes of either pass every size cap we
have, so each reader of untrusted text goes through here.

TOML is first checked for the shapes on which ``tomllib`` is quadratic (long dotted
keys) or that cost memory or stack (many keys, deep nesting), within this process's
:class:`~gloomtable.engine.tomlshape.TextLimits` (:func:`set_text_limits`; ``gloom
serve`` sets them from its flags, in its heavy worker too). JSON needs no such pass:
the C parser is linear, and too deep a nesting is its ``RecursionError`` at once.
"""

from __future__ import annotations

import json
import sys
import tomllib
from typing import Any

from gloomtable.engine.errors import GloomtableError
from gloomtable.engine.tomlshape import ShapeError, TextLimits, check_toml_shape

_limits = TextLimits()


def text_limits() -> TextLimits:
    """The bounds :func:`load_toml` holds outside text to in this process."""
    return _limits


def set_text_limits(limits: TextLimits) -> None:
    """Hold every later :func:`load_toml` in this process to ``limits``."""
    global _limits
    _limits = limits


class TextDataError(GloomtableError, ValueError):
    """The text is not the JSON or TOML it should be; the message is what is wrong
    (``"not JSON: Expecting value: line 1 column 1 (char 0)"``, ``"not valid TOML:
    nested too deeply"``),
    for the caller to put after the name of what it read."""


def _problem(exc: ValueError | RecursionError, not_it: str) -> str:
    """What is wrong, after ``not_it`` ("not JSON", "not valid TOML")."""
    if isinstance(exc, RecursionError):
        return f"{not_it}: nested too deeply"
    if isinstance(exc, UnicodeDecodeError):
        return f"{not_it}: not UTF-8 text"
    if isinstance(exc, (json.JSONDecodeError, tomllib.TOMLDecodeError, ShapeError)):
        return f"{not_it}: {exc}"
    if "integer string conversion" in str(exc):
        return f"{not_it}: a number has more than {sys.get_int_max_str_digits()} digits"
    return f"{not_it}: {exc}"


def load_json(text: str | bytes) -> Any:
    """``json.loads(text)``, or :class:`TextDataError`."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise TextDataError(_problem(exc, "not JSON")) from None


def load_toml(text: str) -> dict[str, Any]:
    """``tomllib.loads(text)``, or :class:`TextDataError` (also for a shape past
    :func:`text_limits`, refused before ``tomllib`` sees it)."""
    try:
        check_toml_shape(text, _limits)
        return tomllib.loads(text)
    except (ValueError, RecursionError) as exc:
        raise TextDataError(_problem(exc, "not valid TOML")) from None
