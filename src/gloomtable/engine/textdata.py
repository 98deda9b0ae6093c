"""JSON and TOML from outside (a network message, a request body, a deck file, a
lesson, a game record) read so that every way the text can be wrong is one
:class:`TextDataError` that says what is wrong, never a traceback.

The standard parsers fail in more ways than their own error types say: text nested
deeper than Python's stack raises ``RecursionError``, and an integer of more digits
than CPython converts (``sys.get_int_max_str_digits()``, 4,300 by default: its guard
against quadratic conversions) raises a plain ``ValueError`` whose advice, to raise
that limit, is for programmers. A few kilobytes of either pass every size cap we
have, so each reader of untrusted text goes through here.
"""

from __future__ import annotations

import json
import sys
import tomllib
from typing import Any

from gloomtable.engine.errors import GloomtableError


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
    if isinstance(exc, (json.JSONDecodeError, tomllib.TOMLDecodeError)):
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
    """``tomllib.loads(text)``, or :class:`TextDataError`."""
    try:
        return tomllib.loads(text)
    except (ValueError, RecursionError) as exc:
        raise TextDataError(_problem(exc, "not valid TOML")) from None
