"""Typed errors. A move that is not well formed and a move that is not legal
now are different mistakes and get different types (as in python-chess)."""

from __future__ import annotations


class GloomtableError(Exception):
    """Base of every error this package raises on purpose."""


class MalformedActionError(GloomtableError, ValueError):
    """The action is not an action of this game at all (wrong type, out of range)."""


class IllegalActionError(GloomtableError, ValueError):
    """The action exists but may not be taken now. Says why and what is legal."""

    def __init__(self, action: int, reason: str, legal: list[tuple[int, str]]) -> None:
        self.action = action
        self.reason = reason
        self.legal = legal
        shown = "; ".join(f"{a}: {text}" for a, text in legal[:40])
        more = f" (and {len(legal) - 40} more)" if len(legal) > 40 else ""
        super().__init__(f"illegal action {action}: {reason}. Legal now: {shown}{more}")


class GameNotOverError(GloomtableError, ValueError):
    """A finished game's answer (its result) asked of a game still being played.
    A ``ValueError`` too, as the Gloom engine raised before both games agreed."""


class ConfigError(GloomtableError, ValueError):
    """A table option or a game configuration that cannot be played."""


class ReplayError(GloomtableError):
    """A game record that does not replay; names the action index and why."""

    def __init__(self, index: int, reason: str) -> None:
        self.index = index
        self.reason = reason
        super().__init__(f"record does not replay at action #{index}: {reason}")
