"""Summaries of repeated measurements: the median with the spread around it.

A single timing on a shared 2-core machine says little; several runs, reported
as median, min and max, show both the figure and how much to trust it."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

Clock = Callable[[], float]
"""A clock in seconds: ``time.process_time`` (CPU seconds of this process, so
other work on a shared machine does not bend the figures) or ``time.perf_counter``."""

CLOCKS: dict[str, Clock] = {"cpu": time.process_time, "wall": time.perf_counter}


def summary(values: list[float], digits: int = 1) -> dict[str, Any]:
    """``{"median", "min", "max", "runs"}`` of ``values`` (rounded for reading)."""
    if not values:
        raise ValueError("summary() needs at least one measured value")
    return {
        "median": round(statistics.median(values), digits),
        "min": round(min(values), digits),
        "max": round(max(values), digits),
        "runs": [round(v, digits) for v in values],
    }


def ratio(ours: float | None, baseline: float | None) -> float | None:
    """``ours / baseline`` to 3 decimals, or ``None`` when either is missing."""
    if ours is None or baseline is None or baseline <= 0:
        return None
    return round(ours / baseline, 3)
