"""A named layout of a flat observation vector: which slots mean what.

Encoders build their layout once (per game config) with :class:`Layout` and
write into plain ``numpy`` offsets on the hot path; the same layout prints the
slot table of ``docs/rl.md`` (:meth:`Layout.table`), so code and docs agree.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Slot:
    """``size`` consecutive floats starting at ``start``."""

    name: str
    start: int
    size: int
    meaning: str


class Layout:
    """Append-only list of slots; ``add`` returns the new slot's start offset."""

    def __init__(self) -> None:
        self.slots: list[Slot] = []
        self.size = 0

    def add(self, name: str, size: int, meaning: str) -> int:
        start = self.size
        self.slots.append(Slot(name, start, size, meaning))
        self.size += size
        return start

    def __getitem__(self, name: str) -> Slot:
        for slot in self.slots:
            if slot.name == name:
                return slot
        raise KeyError(f"no observation slot named {name!r}")

    def table(self) -> str:
        """The layout as a Markdown table (offsets, sizes, meanings)."""
        rows = ["| slots | size | name | meaning |", "| --- | --- | --- | --- |"]
        for s in self.slots:
            where = f"{s.start}..{s.start + s.size - 1}" if s.size else "(none)"
            rows.append(f"| {where} | {s.size} | `{s.name}` | {s.meaning} |")
        return "\n".join(rows)
