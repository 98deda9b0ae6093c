"""The page's own addresses: the lobby at ``/``, a table at ``/table/<id>`` (the same
page: it reads the address), and the icon. The page's files are under ``/static``
(mounted by ``create_app``)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

WEB_DIR = Path(__file__).resolve().parent.parent / "web"

router = APIRouter()


@router.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
async def index() -> FileResponse:
    """The lobby (HEAD too: uptime checks and proxies ask with it)."""
    return FileResponse(WEB_DIR / "index.html")


@router.get("/favicon.ico", include_in_schema=False)
async def favicon() -> FileResponse:
    """Pages without an icon link (the printable chronicle) make browsers ask here."""
    return FileResponse(WEB_DIR / "favicon.svg", media_type="image/svg+xml")


@router.get("/table/{table_id}", include_in_schema=False)
async def table_page(table_id: str) -> FileResponse:
    return FileResponse(WEB_DIR / "index.html")
