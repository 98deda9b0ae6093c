"""The gloomtable server: lobby, live tables over websockets, SQLite store.

``python -m gloomtable.server --host 127.0.0.1 --port 8000 --db gloomtable.db``
or ``gloom serve``. See docs/server.md for the websocket protocol.
"""

from gloomtable.server.app import create_app

__all__ = ["create_app"]
