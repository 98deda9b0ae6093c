"""Stopping a process's background tasks for good.

``task.cancel()`` once, then ``await task``, can wait for ever on Python 3.11:
``asyncio.wait_for`` swallows a cancel that arrives as the call it waits on completes
(it returns that call's result instead of raising; Python 3.12 reimplemented it and
no longer does). A renewal loop around such a call then sleeps on, and the clean
stop that awaits it never ends: the server's shutdown hung there now and then, on
PostgreSQL, where the socket counts renew through ``wait_for``. So a stop cancels
again until every task has ended."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable
from typing import Any

AGAIN_EVERY = 0.1
"""Seconds between cancels of a task that is still running."""


async def cancel_and_wait(tasks: Iterable[asyncio.Task[Any]]) -> None:
    """Cancel every task and return once each has ended (its outcome is read, so an
    error in it is not reported again as never retrieved)."""
    every = list(tasks)
    pending = {t for t in every if not t.done()}
    while pending:
        for task in pending:
            task.cancel()
        _, pending = await asyncio.wait(pending, timeout=AGAIN_EVERY)
    for task in every:
        if not task.cancelled():
            with contextlib.suppress(BaseException):
                task.exception()
