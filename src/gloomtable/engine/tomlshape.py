"""A linear pass over TOML text that refuses, before ``tomllib`` sees it, the shapes
on which ``tomllib`` is slow: it is quadratic in time and memory on long dotted keys
(``a.a.a.….b = 1``: 8,000 parts took 1.2 s and 258 MB, 16,000 took 4.6 s and 1 GB;
a 512 KB upload could ask for hundreds of GB), with a table header's parts counting
towards every key under it. Deep nesting of arrays and inline tables ends in a
``RecursionError`` and many keys cost memory, so both are bounded here too, with an
error that says what and at which line.

The pass follows TOML's grammar only as far as it needs to tell keys from values
(strings, comments, arrays, inline tables). Where it cannot follow the text (text
that is not TOML, which ``tomllib`` then refuses with its own message), it checks
the rest with a coarser rule that needs no grammar: a key fits on one line, so no
line may hold more dots than a key may have parts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class TextLimits:
    """How large a shape outside TOML may have (docs/security.md; ``gloom serve``
    flags ``--text-max-key-parts``, ``--text-max-keys``, ``--text-max-nesting``)."""

    max_key_parts: int = 8
    """Parts of one dotted key, its table header's parts included (shipped files use 2)."""
    max_keys: int = 200_000
    """Keys and table headers in one text (a 512 KB upload holds at most about 100,000)."""
    max_nesting: int = 32
    """Arrays and inline tables inside each other."""

    def __post_init__(self) -> None:
        for name in ("max_key_parts", "max_keys", "max_nesting"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")


class ShapeError(ValueError):
    """The text has a shape past a :class:`TextLimits` bound; the message says which, and where."""


_WS = re.compile(r"[ \t]*")
_WS_NL = re.compile(r"(?:[ \t\r\n]+|#[^\n]*)*")
_EOL = re.compile(r"[ \t]*(?:#[^\n]*)?(?:\r?\n|\Z)")
_KEY_PART = re.compile(r"""[A-Za-z0-9_-]+|"(?:[^"\\\n]|\\.)*"|'[^'\n]*'""")
_STRING = re.compile(r'''"""(?:[^"\\]|\\[\s\S]|"(?!""))*"""(?:""?(?!"))?'''
                     r"""|'''[\s\S]*?'''(?:''?(?!'))?"""
                     r'''|"(?:[^"\\\n]|\\.)*"|'[^'\n]*\'''')
_SCALAR = re.compile(r"""[^\s,\[\]{}#"'=]+(?: (?=\d\d:)[^\s,\[\]{}#"'=]+)?""")


class _Lost(Exception):
    """The pass cannot follow the text from this position on."""


def check_toml_shape(text: str, limits: TextLimits) -> None:
    """Raise :class:`ShapeError` if ``text`` has a key of more than
    ``limits.max_key_parts`` parts, more than ``limits.max_keys`` keys, or arrays
    and inline tables nested more than ``limits.max_nesting`` deep; else return
    (the text may still not be TOML: ``tomllib`` says so)."""
    try:
        _follow(text, limits)
    except _Lost as lost:
        _coarse(text, lost.args[0], limits)


def _line(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _follow(text: str, limits: TextLimits) -> None:
    n = len(text)
    pos = 0
    keys = 0
    header = 0  # parts of the current table header
    stack: list[str] = []  # "[" for an array, "{" for an inline table

    def key(pos: int, base: int) -> tuple[int, int]:
        """Past one dotted key that starts at ``pos`` (after ``base`` header parts), and its parts."""
        nonlocal keys
        keys += 1
        if keys > limits.max_keys:
            raise ShapeError(f"more than {limits.max_keys} keys (the next at line {_line(text, pos)})")
        parts = base
        while True:
            pos = _WS.match(text, pos).end()  # type: ignore[union-attr]  # matches empty
            m = _KEY_PART.match(text, pos)
            if m is None:
                raise _Lost(pos)
            parts += 1
            if parts > limits.max_key_parts:
                raise ShapeError(f"a key of more than {limits.max_key_parts} parts at line {_line(text, pos)}"
                                 + (f" (with the {base} of its table header)" if base else ""))
            pos = _WS.match(text, m.end()).end()  # type: ignore[union-attr]
            if pos < n and text[pos] == ".":
                pos += 1
                continue
            return pos, parts

    def expect(pos: int, char: str) -> int:
        pos = _WS.match(text, pos).end()  # type: ignore[union-attr]
        if not text.startswith(char, pos):
            raise _Lost(pos)
        return pos + len(char)

    state = "line"
    while True:
        if state == "line":  # a statement at the top: a table header, a key = value, or nothing
            pos = _WS_NL.match(text, pos).end()  # type: ignore[union-attr]
            if pos >= n:
                return
            if text[pos] == "[":
                close = "]]" if text.startswith("[[", pos) else "]"
                end, header = key(pos + len(close), 0)
                pos = expect(end, close)
                state = "eol"
            else:
                pos = expect(key(pos, header)[0], "=")
                state = "value"
        elif state == "eol":
            m = _EOL.match(text, pos)
            if m is None:
                raise _Lost(pos)
            pos = m.end()
            state = "line"
        elif state == "value":
            pos = (_WS_NL if stack and stack[-1] == "[" else _WS).match(text, pos).end()  # type: ignore[union-attr]
            char = text[pos] if pos < n else ""
            if char in ("[", "{"):
                stack.append(char)
                if len(stack) > limits.max_nesting:
                    raise ShapeError(f"nested too deeply at line {_line(text, pos)} (more than "
                                     f"{limits.max_nesting} arrays or inline tables inside each other)")
                pos += 1
                state = "first"
                continue
            m = (_STRING if char in ("'", '"') else _SCALAR).match(text, pos)
            if m is None:
                raise _Lost(pos)
            pos = m.end()
            state = "after"
        elif state == "first":  # just inside "[" or "{": a value or key, or the close
            inner = stack[-1]
            pos = (_WS_NL if inner == "[" else _WS).match(text, pos).end()  # type: ignore[union-attr]
            if text.startswith("]" if inner == "[" else "}", pos):
                stack.pop()
                pos += 1
                state = "after"
            elif inner == "[":
                state = "value"
            else:
                pos = expect(key(pos, 0)[0], "=")
                state = "value"
        else:  # "after" a value
            if not stack:
                state = "eol"
                continue
            inner = stack[-1]
            pos = (_WS_NL if inner == "[" else _WS).match(text, pos).end()  # type: ignore[union-attr]
            char = text[pos] if pos < n else ""
            if char == ",":
                pos += 1
                if inner == "[":
                    state = "first"  # a trailing comma may come before "]"
                else:
                    pos = expect(key(pos, 0)[0], "=")
                    state = "value"
            elif char == ("]" if inner == "[" else "}"):
                stack.pop()
                pos += 1
            else:
                raise _Lost(pos)


def _coarse(text: str, pos: int, limits: TextLimits) -> None:
    """From the line holding ``pos`` on, no line has more dots than a key may have parts."""
    start = text.rfind("\n", 0, pos) + 1
    for number, line in enumerate(text[start:].split("\n"), _line(text, start)):
        if line.count(".") >= limits.max_key_parts:
            raise ShapeError(f"line {number} has {line.count('.')} dots, more than a key may have "
                             f"parts ({limits.max_key_parts}), in text that is not plain TOML")
