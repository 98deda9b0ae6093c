"""The gloomtable server: lobby, live tables over websockets, SQLite or PostgreSQL store.

``python -m gloomtable.server --host 127.0.0.1 --port 8000`` or ``gloom serve``; the app
itself is :func:`gloomtable.server.app.create_app`. See docs/server.md for the websocket
protocol. This package module imports nothing: every ``gloom`` command reads the server's
limits for its flags, and should not pay for FastAPI unless it serves.
"""
