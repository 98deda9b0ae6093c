"""``/healthz`` and ``/readyz``: what a load balancer or an orchestrator asks
(docs/deploy.md, "Health checks").

- ``/healthz`` says only that the process serves HTTP: a liveness probe, to restart
  a process that stopped answering. It asks nothing of the database, so an outage
  of the database never gets every process restarted at once.
- ``/readyz`` says whether this process should be sent players: its store answers
  within ``--store-timeout``, the stored schema is the one this code migrates to,
  and on PostgreSQL the process renewed its cluster heartbeat (its table leases)
  within a lease's time to live. Any of these failing is ``503`` with the reasons,
  so a balancer stops sending new players here until it is ``200`` again.

Both answer ``GET`` and ``HEAD`` and are never rate limited."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from gloomtable.server.errors import ServerError
from gloomtable.server.migrations import LATEST
from gloomtable.server.store_guard import GuardedStore
from gloomtable.server.table import LEASE_TTL

router = APIRouter()


@router.api_route("/healthz", methods=["GET", "HEAD"], include_in_schema=False)
async def healthz() -> dict[str, str]:
    """The process serves (nothing else is asked)."""
    return {"status": "ok"}


async def _store_version(store: Any, timeout: float) -> int:
    """The stored schema version. A guarded (PostgreSQL) store is asked in a thread, so
    the event loop never waits on it; a SQLite file answers in microseconds on the loop
    (its one connection is the loop's)."""
    if not isinstance(store, GuardedStore):
        return int(store.schema_version())
    return int(await asyncio.wait_for(asyncio.to_thread(store.schema_version), timeout))


@router.api_route("/readyz", methods=["GET", "HEAD"], include_in_schema=False)
async def readyz(request: Request) -> JSONResponse:
    """Ready for players: the store answers in time, migrations are current, leases are held."""
    lobby = getattr(request.app.state, "lobby", None)
    if lobby is None:
        return JSONResponse({"status": "starting", "problems": ["the server is starting"]}, status_code=503)
    timeout: float = request.app.state.limits.store_timeout
    problems: list[str] = []
    checks: dict[str, Any] = {}
    started = time.monotonic()
    try:
        version = await _store_version(lobby.store, timeout)
    except (TimeoutError, ServerError):
        problems.append(f"the tables' database did not answer within {timeout:g} s")
    except Exception as exc:  # an error from the database is an answer, but not a good one
        problems.append(f"the tables' database answered with an error: {type(exc).__name__}")
    else:
        checks["store_seconds"] = round(time.monotonic() - started, 4)
        checks["schema_version"] = version
        if version != LATEST:
            problems.append(f"the stored schema is version {version}; this server needs {LATEST}")
    cluster = lobby.cluster
    if cluster is not None:
        age = time.monotonic() - cluster.renewed_at
        checks["heartbeat_age_seconds"] = round(age, 3)
        checks["leases_held"] = len(cluster.held)
        if age > LEASE_TTL:
            problems.append(f"the cluster heartbeat was last stored {age:.1f} s ago "
                            f"(leases last {LEASE_TTL:g} s)")
    body: dict[str, Any] = {"status": "ready" if not problems else "not_ready", **checks}
    if problems:
        body["problems"] = problems
    return JSONResponse(body, status_code=503 if problems else 200)
