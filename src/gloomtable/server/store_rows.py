"""What a store keeps and how it fails: the table and seat rows, the store's errors,
and a database's name fit to show. The :class:`~gloomtable.server.store.Store`
protocol and both backends import these; the protocol module opens a backend by its
URL, so the rows live apart from it and no module of the server's storage imports
round a circle."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gloomtable.engine import GloomtableError

LEASE_TERM = 2.5
"""Seconds a process's table leases and stored presence outlive its last heartbeat
(one row per process, renewed from a thread of its own: server/cluster.py)."""
FORGET = 60.0
"""Seconds after its last heartbeat that a dead process's heartbeat and presence rows
are deleted (until then they only stop counting)."""


class StoreError(GloomtableError):
    """The database cannot be used: names it (never with a password) and says why."""


class StaleActionError(StoreError):
    """Another writer stored an action at that index first; nothing was written."""


@dataclass
class SeatRow:
    seat: int
    kind: str  # "person" or "bot"
    level: str  # the bot level (for a person: the stand-in's level)
    name: str
    token: str
    claimed: bool = False


@dataclass
class TableRow:
    id: str
    game: str
    config: dict[str, Any]
    seed: int
    options: dict[str, Any]
    listed: bool
    host_token: str
    seats: list[SeatRow]
    over: bool = False
    next_table: str | None = None
    actions: list[int] = field(default_factory=list)
    actors: list[tuple[int, str]] = field(default_factory=list)
    narration: dict[int, str] = field(default_factory=dict)
    created: float = 0.0
    """Wall-clock time of creation (0 = now, when stored)."""
    times: list[float] = field(default_factory=list)
    """Wall-clock time each action was stored (filled by ``load``; kept by ``db copy``)."""
    first: int = 0
    """The index of ``actions[0]``: 0, except from ``load(id, since=n)``."""
    deadline: float | None = None
    """The stored turn-timer deadline (epoch seconds) of the decision at ``deadline_idx``."""
    deadline_idx: int | None = None
    finished: float | None = None
    """Wall-clock time the game ended (its last action's time); None while it is not over.
    A finished table is deleted this long after it: ``--finished-table-expiry``."""

    def finished_at(self) -> float | None:
        """When the table finished, as a store writes it: the stored time, else (a row
        built before the store knew it) its last action's time, else now; None if not over."""
        if not self.over:
            return None
        if self.finished is not None:
            return self.finished
        return self.times[-1] if self.times else time.time()


def shown(db: str | Path) -> str:
    """The database's name fit for a log line or an error: a URL loses its password."""
    return re.sub(r"(://[^:/@]*):[^@/]*@", r"\1:***@", str(db))
