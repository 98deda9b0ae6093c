"""The lobby API and the websocket's refusals, against a real server process
on 127.0.0.1 with a real SQLite file (issue 6: security, errors as JSON)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from gloomtable.server.testing import ServerProcess, ServerThread
from server_support import assert_error, create_table, invite_token, next_of, open_ws

THREE = [{"kind": "person"}, {"kind": "bot"}, {"kind": "bot"}]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerThread(tmp_path_factory.mktemp("api") / "tables.db") as srv:
        yield srv


create = partial(create_table, seats=THREE)
"""A table of one person and two bots, unless a test says otherwise."""


def test_the_lobby_answers_head_and_the_browsers_icon_request(server: ServerProcess) -> None:
    """Uptime checks ask with HEAD; a page with no icon link makes browsers ask for
    /favicon.ico (the printable chronicle): neither is an error."""
    head = httpx.head(server.url + "/")
    assert head.status_code == 200 and head.headers["content-type"].startswith("text/html")
    icon = httpx.get(server.url + "/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"] == "image/svg+xml"
    assert icon.content.lstrip().startswith(b"<svg")


def test_create_returns_one_invite_per_person_seat_with_unguessable_tokens(server: ServerProcess) -> None:
    t = create(server, seats=[{"kind": "person"}, {"kind": "person", "name": "Ada"}, {"kind": "bot"}])
    assert [i["seat"] for i in t["invites"]] == [0, 1]
    tokens = [i["token"] for i in t["invites"]]
    assert len(set(tokens)) == 2 and all(len(tok) >= 24 for tok in tokens)
    assert t["invites"][1]["name"] == "Ada"
    assert t["invites"][0]["link"] == f"/table/{t['id']}#token={tokens[0]}"
    summary = httpx.get(f"{server.url}/api/tables/{t['id']}").json()
    assert "token" not in json.dumps(summary["seats"]) and tokens[0] not in json.dumps(summary)
    assert summary["config"]["players"] == 3
    assert summary["open_seats"] == 0  # invited seats are reserved: nobody can Join them


def test_bad_requests_are_json_errors_with_codes(server: ServerProcess) -> None:
    url = server.url + "/api/tables"
    as_json = {"Content-Type": "application/json"}
    assert_error(httpx.post(url, content=b"{nope", headers=as_json), 400, "bad_json")
    assert_error(httpx.post(url, content=b"{}"), 415, "bad_content_type")
    assert_error(httpx.post(url, json=[1, 2]), 400, "bad_message")
    assert_error(httpx.post(url, json={"game": "chess", "seats": THREE}), 400, "bad_table")
    assert_error(httpx.post(url, json={"seats": [{"kind": "bot", "level": "godlike"}] * 3}), 400, "bad_table")
    assert_error(httpx.post(url, json={"seats": THREE, "colour": "red"}), 400, "bad_table")
    assert_error(httpx.post(url, json={"game": "creatures", "seats": THREE * 2}), 400, "bad_table")
    assert_error(httpx.post(url, content=b"x" * 20000, headers=as_json), 413, "too_large")
    assert_error(httpx.get(server.url + "/api/tables/nosuchtable"), 404, "not_found")
    assert_error(httpx.get(server.url + "/api/nothing"), 404, "not_found")


def test_listing_join_and_unlisted_tables(server: ServerProcess) -> None:
    listed = create(server, seats=[{"kind": "open"}, {"kind": "open"}])
    hidden = create(server, listed=False)
    ids = [t["id"] for t in httpx.get(server.url + "/api/tables?limit=50").json()["tables"]]
    assert listed["id"] in ids and hidden["id"] not in ids
    j1 = httpx.post(f"{server.url}/api/tables/{listed['id']}/join", json={"name": "  Bo\u0007b  "}).json()
    j2 = httpx.post(f"{server.url}/api/tables/{listed['id']}/join", json={"name": "Cy"}).json()
    assert {j1["seat"], j2["seat"]} == {0, 1} and j1["token"] != j2["token"]
    assert_error(httpx.post(f"{server.url}/api/tables/{listed['id']}/join", json={}), 409, "no_open_seat")
    names = [s["name"] for s in httpx.get(f"{server.url}/api/tables/{listed['id']}").json()["seats"]]
    assert names == ["Bo b", "Cy"]  # control characters dropped


def test_cards_catalogue_is_public_and_complete(server: ServerProcess) -> None:
    t = create(server)
    cat = httpx.get(f"{server.url}/api/tables/{t['id']}/cards").json()
    cards = cat["cards"]
    assert [c["index"] for c in cards] == list(range(len(cards)))
    assert {c["type"] for c in cards} >= {"character", "modifier", "event", "untimely_death"}
    assert all(len(c["prints"]) == 9 for c in cards)


def test_websocket_refusals(server: ServerProcess) -> None:
    t = create(server, spectators=False)
    with open_ws(server, t, "forged") as ws:
        assert next_of(ws, "error")["code"] == "bad_token"
    with open_ws(server, t, None) as ws:
        assert next_of(ws, "error")["code"] == "no_spectators"
    with connect(f"{server.ws_url}/ws/nosuchtable") as ws:
        assert next_of(ws, "error")["code"] == "not_found"


def test_messages_are_checked_in_order(server: ServerProcess) -> None:
    t = create(server, seats=[{"kind": "person"}, {"kind": "person"}], seed=3)
    tok0, tok1 = (i["token"] for i in t["invites"])
    with open_ws(server, t, tok0) as a, open_ws(server, t, tok1) as b, open_ws(server, t, None) as spec:
        next_of(a, "welcome")
        sa = next_of(a, "state")
        sb = next_of(b, "state")
        watcher = next_of(spec, "state")
        assert watcher["view"]["hand"] is None and watcher["choices"] == [] and watcher["seat"] is None
        mover, other = (a, b) if sa["deciding"] == 0 else (b, a)
        first = sa if mover is a else sb
        assert first["choices"], "the deciding seat is told its choices"
        legal = [c["action"] for c in first["choices"]]
        other.send(json.dumps({"type": "act", "action": legal[0], "state_id": first["state_id"]}))
        refused = next_of(other, "error")
        assert refused["code"] == "not_your_turn"
        deciding = first["seats"][first["deciding"]]  # told by the seat's name, numbered from 1
        assert f"it is {deciding['name']}'s decision (seat {first['deciding'] + 1})" in refused["message"]
        mover.send(json.dumps({"type": "act", "action": legal[0], "state_id": first["state_id"] + 5}))
        assert next_of(mover, "error")["code"] == "stale_state"  # the error alone (issue 29, row 8):
        mover.send(json.dumps({"type": "act", "action": 10**6, "state_id": first["state_id"]}))
        assert next_of(mover, "error")["code"] == "illegal_action"
        spec.send(json.dumps({"type": "act", "action": legal[0], "state_id": 0}))
        assert next_of(spec, "error")["code"] == "read_only"
        for bad, code in (("{", "bad_json"), ("[]", "bad_message"), ('{"type": "dance"}', "bad_message"),
                          ('{"type": "act", "action": true, "state_id": 0}', "bad_message"),
                          ("x" * 9000, "too_large")):
            mover.send(bad)
            assert next_of(mover, "error")["code"] == code
        mover.send(json.dumps({"type": "act", "action": legal[0], "state_id": first["state_id"],
                               "narration": "It rained <b>all</b> day."}))
        after = next_of(mover, "state")
        assert after["state_id"] == first["state_id"] + 1
        said = [e["text"] for e in after["log"] if e["kind"] == "narration"]
        assert said == ["It rained <b>all</b> day."]  # stored as text; the page shows it as text


def test_rate_limit(server: ServerProcess) -> None:
    t = create(server)
    # a deep client queue, so unread replies do not hold up the closing handshake
    with open_ws(server, t, invite_token(t, 0), max_queue=512) as ws:
        for _ in range(70):  # a burst of 40 passes, the rest are refused (50 refusals would close)
            ws.send('{"type": "ping"}')
        ws.send('{"type": "ping"}')
        codes, pongs = [], 0
        for _ in range(80):
            msg = json.loads(ws.recv(timeout=10))
            if msg["type"] == "error":
                codes.append(msg["code"])
            pongs += msg["type"] == "pong"
            if pongs >= 40 and codes:
                break
        # one answer per run of refused messages (a burst across the counter's window
        # boundary may let a few more through, and so start a second run)
        assert set(codes) == {"rate_limited"} and len(codes) <= 2 and 40 <= pongs < 71


def test_static_page_and_i18n_fallback(server: ServerProcess) -> None:
    page = httpx.get(server.url + "/")
    assert page.status_code == 200 and "/static/app.js" in page.text
    for name in ("app.js", "i18n.js", "cards.js", "table.js", "lobby.js", "style.css"):
        assert httpx.get(f"{server.url}/static/{name}").status_code == 200, name
    assert httpx.get(server.url + "/table/whatever").status_code == 200
    assert httpx.get(server.url + "/api/i18n/xx").json() == {}
    assert_error(httpx.get(server.url + "/api/i18n/..%2Fsecrets"), 404, "not_found")


def test_games_offered(server: ServerProcess) -> None:
    info = httpx.get(server.url + "/api/games").json()
    names = [g["name"] for g in info["games"]]
    assert "gloom" in names and "creatures" in names
    assert info["levels"][0] == "random"


def test_database_file_is_where_asked(server: ServerProcess) -> None:
    assert Path(server.db).is_file()
