"""The typed hooks of the lasting and response primitives, by primitive name, for the
modules below the effect registry (the deck's facts, the cardinal rule), which cannot
import it without a circle: :mod:`effects` fills these tables as it registers each
primitive (every deck is built through :mod:`deck`, which imports it first).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

CANCELS: dict[str, Callable[[Any], str]] = {}
"""Response steps: the card type each cancels (R-G20)."""
TRIGGERS: dict[str, Callable[[Any], str]] = {}
"""Lasting steps that wait for a table event: the event's name."""
TURN_DRAWS: dict[str, Callable[[Any], int]] = {}
"""Lasting steps that draw their holder cards at the start of each of their turns."""
OTHERS_LIMITS: dict[str, Callable[[Any], int]] = {}
"""Lasting steps that change every other player's draw limit (R-G14)."""
WORTHS: dict[str, Callable[[Any, tuple[str, ...]], int]] = {}
"""Lasting steps that change their stack's Self-Worth, given the icons it shows."""
REVERSES: set[str] = set()
"""Immediate steps that reverse the turn order (a view then says which way it runs)."""
RICH: set[str] = set()
"""The primitives of the richer card language (a deck using one may take more actions a
turn: see ``facts.RICH_ACTIONS_PER_TURN``)."""
