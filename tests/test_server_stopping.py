"""A clean stop ends every background task, even one whose cancel was lost.

On Python 3.11 ``asyncio.wait_for`` swallows a cancel that arrives as the call it waits
on completes; a renewal loop around it then runs on, and a stop that cancelled it once
and awaited it waited for ever (the in-process server's shutdown hung on PostgreSQL
now and then, in the socket counts' renewal loop)."""

from __future__ import annotations

import asyncio
import sys

from gloomtable.server.stopping import cancel_and_wait


async def _renewal_loop(calls: list[asyncio.Future[None]]) -> None:
    """A loop that waits on a call through ``wait_for``, then sleeps, round after round."""
    loop = asyncio.get_running_loop()
    while True:
        call: asyncio.Future[None] = loop.create_future()
        calls.append(call)
        await asyncio.wait_for(call, 3600)
        await asyncio.sleep(3600)


async def _lost_cancel_then_stop() -> tuple[bool, bool]:
    calls: list[asyncio.Future[None]] = []
    task = asyncio.get_running_loop().create_task(_renewal_loop(calls))
    while not calls:
        await asyncio.sleep(0)
    calls[0].set_result(None)  # the call completes ...
    task.cancel()  # ... as the stop cancels: the cancel meets the completion
    for _ in range(5):
        await asyncio.sleep(0)
    lost = not task.done()
    await asyncio.wait_for(cancel_and_wait([task]), 30)
    return lost, task.cancelled()


def test_a_task_whose_cancel_was_swallowed_is_stopped_all_the_same() -> None:
    lost, cancelled = asyncio.run(_lost_cancel_then_stop())
    if sys.version_info < (3, 12):
        assert lost, "on 3.11 wait_for swallows this cancel: the case the stop must survive"
    assert cancelled


def test_tasks_already_ended_or_failed_are_read_and_left() -> None:
    async def main() -> list[bool]:
        async def fail() -> None:
            raise ValueError("a renewal that failed")

        async def done() -> None:
            return None

        loop = asyncio.get_running_loop()
        tasks = [loop.create_task(fail()), loop.create_task(done()), loop.create_task(asyncio.sleep(3600))]
        await asyncio.sleep(0)
        await asyncio.wait_for(cancel_and_wait(tasks), 30)
        return [t.done() for t in tasks] + [tasks[2].cancelled()]

    assert asyncio.run(main()) == [True, True, True, True]
