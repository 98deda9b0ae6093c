"""Every refusal the server makes, as one JSON shape with a stable code.

``{"type": "error", "code": "stale_state", "message": "..."}``: the code is
for programs (docs/server.md lists them all), the message for people.
"""

from __future__ import annotations

from typing import Any

CODES = {
    "bad_json": "the message is not JSON",
    "bad_message": "the message is JSON but not a message the server knows",
    "too_large": "the message is longer than the server accepts",
    "rate_limited": "too many messages too fast",
    "not_found": "no such table",
    "bad_token": "the token is not a seat of this table",
    "no_spectators": "this table does not allow spectators",
    "read_only": "spectators cannot act",
    "not_your_turn": "another seat is deciding",
    "stale_state": "the action was chosen in an older state",
    "illegal_action": "the engine does not allow that action now",
    "game_over": "the game is over",
    "no_open_seat": "no open seat of that table is left to join",
    "not_over": "the game is not over yet",
    "broken_table": "the table's record does not replay",
    "bad_table": "the table options cannot be played",
    "server_busy": "the server holds as many open tables as it may",
    "server_error": "something went wrong on the server",
    "bad_content_type": "a JSON endpoint was sent something other than application/json",
    "hello_needed": "a websocket's first message must be hello",
    "bad_origin": "a websocket opened by another site's page",
    "lesson_step": "a lesson's step asks for something else (the message says what)",
    "too_many_sockets": "that seat token or address already holds as many websockets as it may",
    "bad_account": "a user name or password that cannot be used (the message says why)",
    "name_taken": "another account has that user name",
    "bad_signin": "the name and password do not match an account (a wrong name answers the same)",
    "not_signed_in": "the request needs a signed-in session",
    "bad_csrf": "a signed-in request that changes something came without its X-CSRF-Token",
    "bad_password": "the account's own password, asked again, was wrong",
    "nobody_here": "a game is played again only while a person has a page of it open",
    "bad_name": "a seat name that reads as another seat's or as a bot's label",
    "bad_request": "a query value or an id is out of range or not of the right shape",
    "forbidden": "/metrics asked from an address --metrics-allow does not name, or through a proxy",
    "bad_deck": "an uploaded deck or translation cannot be played (every problem is listed)",
    "too_many_decks": "this client keeps as many uploaded decks as it may",
}


class ServerError(Exception):
    """A refusal that becomes a JSON error message (and an HTTP status for the API)."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        assert code in CODES, code
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status

    def to_dict(self) -> dict[str, Any]:
        return error_message(self.code, self.message)


class Unconfirmed(ServerError):
    """A store call whose outcome is not known (it timed out, or its link was cut while
    it ran): the change may yet be stored, so nobody is told "nothing was changed".
    ``future`` is the call, still running or done."""

    def __init__(self, future: Any = None) -> None:
        super().__init__("server_busy", "the tables' database did not answer in time; whether that "
                         "was stored is not known yet. Try again in a few seconds", 503)
        self.future = future


def error_message(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message, **extra}
