"""Which page this server serves: a short digest of its web files.

A page sent by an older server and still open across an upgrade learns from the
next ``welcome`` that the server now serves another page, and offers a reload
(rather than speaking an old protocol, or staying refused with no hint)."""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

WEB_DIR = Path(__file__).resolve().parent.parent / "web"


@functools.cache
def page_version() -> str:
    """Twelve hex digits of the SHA-256 of every web file's name and bytes (read once)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in WEB_DIR.rglob("*") if p.is_file()):
        digest.update(path.relative_to(WEB_DIR).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]
