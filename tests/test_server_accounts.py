"""Optional accounts against a real ``gloom serve`` on SQLite and on PostgreSQL (issue 31):
sign up and in, a second device finds and takes its seat from "My games" without the
link, sign out, CSRF, sign-in answers and limits, deleting an account."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from gloomtable.server.testing import LiveServer, ServerProcess, ServerThread
from server_support import assert_error, create_table, next_state, open_ws, play_to_end

pytestmark = pytest.mark.slow

PASSWORD = "correct horse 42"


@pytest.fixture
def server(where: str) -> Iterator[ServerThread]:
    with ServerThread(where) as srv:
        yield srv


OPEN: list[httpx.Client] = []


@pytest.fixture(autouse=True)
def _close_clients() -> Iterator[None]:
    yield
    while OPEN:
        OPEN.pop().close()


def client(server: LiveServer, **kw: object) -> httpx.Client:
    """One browser: its own cookie jar (closed at the test's end)."""
    c = httpx.Client(base_url=server.url, timeout=30, **kw)  # type: ignore[arg-type]
    OPEN.append(c)
    return c


def sign_up(c: httpx.Client, name: str, password: str = PASSWORD) -> str:
    """A new account signed in on ``c``; its CSRF token."""
    r = c.post("/api/account/signup", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    assert r.json()["signed_in"] and r.json()["name"] == name
    return str(r.json()["csrf"])


HOURLY = "10/hour"
"""The sign-in rates of the tests that count tries: the defaults' 10, but per hour. The
rates are ``limits``' sliding-window counters over windows aligned to the epoch: a run of
tries that straddles a window's end is counted partly in the older window, weighted
down, so "the 11th try" is exact only within one window. At 10 a minute a run had to
wait for a fresh minute four times in ten (12 s on average); within an hour, it waits
(at most 25 s) once in 144 runs."""


def within_one_window(needed: float = 25, window: float = 3600) -> None:
    """Start a run of tries with ``needed`` seconds of the rate's window left."""
    left = window - time.time() % window
    if left < needed:
        time.sleep(left + 0.05)


def sign_in(c: httpx.Client, name: str, password: str = PASSWORD) -> httpx.Response:
    return c.post("/api/account/signin", json={"name": name, "password": password})


def test_second_device_finds_and_takes_its_seat(server: LiveServer) -> None:
    laptop, phone = client(server), client(server)
    csrf = sign_up(laptop, "ada")
    cookie = laptop.cookies.jar
    set_cookie = next(c for c in cookie if c.name == "gloom_session")
    assert set_cookie.has_nonstandard_attr("HttpOnly") and not set_cookie.secure
    r = laptop.post("/api/tables", json={"seats": [{"kind": "person", "name": "Ada"},
                                                    {"kind": "person", "name": "Bo"}]},
                    headers={"X-CSRF-Token": csrf})
    assert r.status_code == 201, r.text
    table = r.json()
    # not signed in on the phone: "My games" needs a session
    assert_error(phone.get("/api/account/games"), 401, "not_signed_in")
    r = sign_in(phone, "ADA")  # names compare without case
    assert r.status_code == 200, r.text
    phone_csrf = r.json()["csrf"]
    assert phone.get("/api/account").json() == {"signed_in": True, "name": "ada", "csrf": phone_csrf}
    games = phone.get("/api/account/games").json()["games"]
    assert [(g["table"], g["seat"], g["over"]) for g in games] == [(table["id"], 0, False)]
    r = phone.post(f"/api/account/games/{table['id']}/seat", headers={"X-CSRF-Token": phone_csrf})
    assert r.status_code == 200, r.text
    assert r.json()["token"] == table["invites"][0]["token"]
    assert r.json()["link"] == table["invites"][0]["link"]
    with open_ws(server, table, r.json()["token"]) as ws:  # the seat plays from the phone
        assert next_state(ws)["seat"] == 0
    # another account has no seat there
    other = client(server)
    other_csrf = sign_up(other, "bo_b")
    assert_error(other.post(f"/api/account/games/{table['id']}/seat", headers={"X-CSRF-Token": other_csrf}),
                 404, "not_found")
    # sign out ends the phone's session, not the laptop's
    assert phone.post("/api/account/signout", headers={"X-CSRF-Token": phone_csrf}).status_code == 200
    assert phone.get("/api/account").json() == {"signed_in": False}
    assert_error(phone.get("/api/account/games"), 401, "not_signed_in")
    assert laptop.get("/api/account/games").json()["games"][0]["table"] == table["id"]


def test_joining_and_opening_a_link_record_the_seat(server: LiveServer) -> None:
    host = client(server)
    sign_up(host, "host_1")
    # a table made by nobody signed in: an invitee opening their link is recorded at that seat
    table = create_table(server)
    bo = client(server)
    sign_up(bo, "bo_2")
    token = table["invites"][1]["token"]
    headers = {"Cookie": "gloom_session=" + bo.cookies["gloom_session"]}
    with open_ws(server, table, token, additional_headers=headers) as ws:
        assert next_state(ws)["seat"] == 1
    assert [(g["table"], g["seat"]) for g in bo.get("/api/account/games").json()["games"]] == \
        [(table["id"], 1)]
    # an open seat taken from the lobby while signed in
    listed = create_table(server, seats=[{"kind": "person", "name": "X"}, {"kind": "open"}], listed=True)
    csrf = bo.get("/api/account").json()["csrf"]
    r = bo.post(f"/api/tables/{listed['id']}/join", json={"name": "Bo"}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200, r.text
    assert {(g["table"], g["seat"]) for g in bo.get("/api/account/games").json()["games"]} == \
        {(table["id"], 1), (listed["id"], 1)}
    # not signed in: exactly as before, nothing recorded anywhere
    anon = create_table(server, seats=[{"kind": "person"}, {"kind": "open"}], listed=True)
    r = httpx.post(server.url + f"/api/tables/{anon['id']}/join", json={"name": "Anon"})
    assert r.status_code == 200, r.text
    assert anon["id"] not in str(bo.get("/api/account/games").json())


def test_cookie_posts_without_csrf_are_refused(server: LiveServer) -> None:
    c = client(server)
    csrf = sign_up(c, "carol")
    for path, body in [("/api/account/signout", None), ("/api/account/password",
                                                         {"password": PASSWORD, "new_password": "x" * 12}),
                       ("/api/account/delete", {"password": PASSWORD}),
                       ("/api/tables", {"seats": [{"kind": "person"}, {"kind": "person"}]})]:
        for headers in ({}, {"X-CSRF-Token": csrf[:-1] + ("A" if csrf[-1] != "A" else "B")}):
            assert_error(c.post(path, json=body, headers=headers), 403, "bad_csrf")
    assert c.get("/api/account").json()["signed_in"]  # nothing happened
    # the page's own token passes
    r = c.post("/api/account/password", json={"password": PASSWORD, "new_password": "new password 1"},
               headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200, r.text
    assert sign_in(client(server), "carol", "new password 1").status_code == 200
    assert_error(sign_in(client(server), "carol"), 401, "bad_signin")


def test_sign_out_everywhere_ends_every_session(server: LiveServer) -> None:
    """Signed in on a laptop, a phone and a tablet: signing out everywhere from the phone
    ends all three; a plain sign-out before it ended only its own; a cookie-authorised
    sign-out without the CSRF token ends nothing."""
    laptop, phone, tablet, spare = (client(server) for _ in range(4))
    sign_up(laptop, "kira")
    csrf = {}
    for name, c in (("phone", phone), ("tablet", tablet), ("spare", spare)):
        r = sign_in(c, "kira")
        assert r.status_code == 200, r.text
        csrf[name] = r.json()["csrf"]
    assert spare.post("/api/account/signout", headers={"X-CSRF-Token": csrf["spare"]}).json() == \
        {"signed_in": False, "everywhere": False}
    assert spare.get("/api/account").json() == {"signed_in": False}
    assert laptop.get("/api/account").json()["signed_in"] and tablet.get("/api/account").json()["signed_in"]
    assert_error(phone.post("/api/account/signout", json={"everywhere": True}), 403, "bad_csrf")
    assert_error(phone.post("/api/account/signout", json={"everywhere": "yes"},
                            headers={"X-CSRF-Token": csrf["phone"]}), 400, "bad_account")
    assert phone.get("/api/account").json()["signed_in"]
    r = phone.post("/api/account/signout", json={"everywhere": True}, headers={"X-CSRF-Token": csrf["phone"]})
    assert r.status_code == 200 and r.json() == {"signed_in": False, "everywhere": True}, r.text
    for c in (laptop, phone, tablet):
        assert c.get("/api/account").json() == {"signed_in": False}
        assert_error(c.get("/api/account/games"), 401, "not_signed_in")
    assert sign_in(client(server), "kira").status_code == 200  # the account itself stays


def test_password_change_ends_other_sessions(server: LiveServer) -> None:
    a, b = client(server), client(server)
    csrf = sign_up(a, "dora")
    assert sign_in(b, "dora").status_code == 200
    r = a.post("/api/account/password", json={"password": PASSWORD, "new_password": "another one 2"},
               headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200, r.text
    assert a.get("/api/account").json()["signed_in"]
    assert b.get("/api/account").json() == {"signed_in": False}
    assert_error(a.post("/api/account/password", json={"password": "wrong one!", "new_password": "x" * 9},
                        headers={"X-CSRF-Token": csrf}), 403, "bad_password")


def test_sign_in_rotates_the_session(server: LiveServer) -> None:
    c = client(server)
    sign_up(c, "erin")
    first = c.cookies["gloom_session"]
    assert sign_in(c, "erin").status_code == 200
    second = c.cookies["gloom_session"]
    assert first != second
    stale = client(server, cookies={"gloom_session": first})
    assert stale.get("/api/account").json() == {"signed_in": False}


def test_wrong_name_and_wrong_password_alike_then_rate_limited(where: str) -> None:
    with ServerThread(where, args=["--signin-account-rate", HOURLY]) as server:
        wrong_name_and_wrong_password_alike_then_rate_limited(server)


def wrong_name_and_wrong_password_alike_then_rate_limited(server: LiveServer) -> None:
    sign_up(client(server), "frank")
    c = client(server)
    within_one_window()
    wrong_password = sign_in(c, "frank", "not the password")
    unknown = sign_in(c, "nobody_here", "not the password")
    assert wrong_password.status_code == unknown.status_code == 401
    assert wrong_password.json() == unknown.json()
    assert_error(unknown, 401, "bad_signin")
    assert "gloom_session" not in c.cookies
    # per account, from any address: 10 tries a window, the 11th is refused (even the right one)
    for _ in range(8):
        assert_error(sign_in(c, "frank", "still wrong"), 401, "bad_signin")
    assert sign_in(c, "frank").status_code == 200  # the 10th
    assert_error(sign_in(c, "frank"), 429, "rate_limited")
    # an unknown name is counted the same way
    within_one_window()
    for _ in range(10):
        assert_error(sign_in(c, "nobody_else", "x"), 401, "bad_signin")
    assert_error(sign_in(c, "nobody_else", "x"), 429, "rate_limited")


def test_sign_in_rate_per_address(where: str, tmp_path: Path) -> None:
    with ServerThread(where, args=["--signin-rate", HOURLY]) as srv:
        c = client(srv)
        within_one_window()
        for i in range(10):
            assert_error(sign_in(c, f"name{i}", "whatever1"), 401, "bad_signin")
        assert_error(sign_in(c, "name_new", "whatever1"), 429, "rate_limited")


def test_bad_names_and_passwords(server: LiveServer) -> None:
    c = client(server)
    for body in [{"name": "ab", "password": PASSWORD}, {"name": "a b c", "password": PASSWORD},
                 {"name": "x" * 25, "password": PASSWORD}, {"name": 5, "password": PASSWORD},
                 {"name": "gina", "password": "short"}, {"name": "gina", "password": "p" * 257},
                 {"name": "gina"}]:
        assert_error(c.post("/api/account/signup", json=body), 400, "bad_account")
    sign_up(c, "gina")
    assert_error(client(server).post("/api/account/signup", json={"name": "GINA", "password": PASSWORD}),
                 409, "name_taken")
    assert_error(client(server).post("/api/account/signup", content=b"name=x",
                                     headers={"Content-Type": "application/x-www-form-urlencoded"}),
                 415, "bad_content_type")


def test_deleting_an_account_keeps_its_games(server: LiveServer) -> None:
    c = client(server)
    csrf = sign_up(c, "hana")
    r = c.post("/api/tables", json={"seats": [{"kind": "person", "name": "Hana"},
                                              {"kind": "bot", "level": "random"}]},
               headers={"X-CSRF-Token": csrf})
    table = r.json()
    assert_error(c.post("/api/account/delete", json={"password": "wrong pass"},
                        headers={"X-CSRF-Token": csrf}), 403, "bad_password")
    r = c.post("/api/account/delete", json={"password": PASSWORD}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200, r.text
    assert c.get("/api/account").json() == {"signed_in": False}
    assert_error(sign_in(client(server), "hana"), 401, "bad_signin")
    summary = httpx.get(server.url + f"/api/tables/{table['id']}").json()
    assert summary["id"] == table["id"]
    assert "a former player" in str(summary)
    with open_ws(server, table, table["invites"][0]["token"]) as ws:  # the seat's link still plays
        assert next_state(ws)["seat"] == 0
    # the name is free again
    sign_up(client(server), "hana")


def test_a_deleted_accounts_finished_rated_game_stays_readable(server: LiveServer) -> None:
    """A rated game played to its end, then one player deletes the account: the game's
    summary and replay still read, with "a former player" at that seat; the other
    player keeps the rating, the history and the game on the profile. (Crazy Creatures
    has no chronicle: the next test reads a Gloom game's.)"""
    lea, max_ = client(server), client(server)
    csrf = sign_up(lea, "lea_d")
    sign_up(max_, "max_d")
    seats = [{"kind": "person", "name": "Lea"}, {"kind": "person", "name": "Max"}]
    body = {"game": "creatures", "config": {"players": 2, "rounds": 1}, "seats": seats}
    r = lea.post("/api/tables", json=body, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 201, r.text
    table = r.json()
    cookies = [{"Cookie": "gloom_session=" + c.cookies["gloom_session"]} for c in (lea, max_)]
    with open_ws(server, table, table["invites"][0]["token"], additional_headers=cookies[0]) as a, \
            open_ws(server, table, table["invites"][1]["token"], additional_headers=cookies[1]) as b:
        play_to_end([a, b])
    before = httpx.get(server.url + "/api/players/max_d").json()
    assert before["games"][0]["played"] == 1
    r = lea.post("/api/account/delete", json={"password": PASSWORD}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200, r.text
    assert_error(httpx.get(server.url + "/api/players/lea_d"), 404, "not_found")
    summary = httpx.get(server.url + f"/api/tables/{table['id']}").json()
    assert summary["over"] and [s["name"] for s in summary["seats"]] == ["a former player", "Max"]
    assert httpx.get(server.url + "/api/players/max_d").json()["finished"][0]["chronicle"] is None  # none
    with open_ws(server, table) as watcher:  # the replay: a spectator's view of the finished game
        assert next_state(watcher)["over"]
    after = httpx.get(server.url + "/api/players/max_d").json()
    assert (after["games"], after["history"]) == (before["games"], before["history"])
    assert [f["table"] for f in after["finished"]] == [table["id"]]
    rated = httpx.get(server.url + f"/api/tables/{table['id']}/ratings").json()["seats"]
    assert set(rated) == {"1"} and rated["1"]["account"] == "max_d"


def test_a_deleted_accounts_gloom_chronicle_names_a_former_player(server: LiveServer) -> None:
    """A finished Gloom game against a bot, then the account goes: the profile offered the
    chronicle, and it still reads, with "a former player" at that seat. (Telling a long
    game's chronicle may take more than the default 5 s on a busy machine: test servers
    wait longer, gloomtable.server.testing.PATIENT.)"""
    _gloom_chronicle_after_deleting(server)


def _gloom_chronicle_after_deleting(server: LiveServer) -> None:
    c = client(server)
    csrf = sign_up(c, "nell_d")
    body = {"game": "gloom", "bot_delay_ms": 0, "config": {"players": 2},
            "seats": [{"kind": "person", "name": "Nell"}, {"kind": "bot", "level": "random"}]}
    r = c.post("/api/tables", json=body, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 201, r.text
    table = r.json()
    with open_ws(server, table, table["invites"][0]["token"]) as ws:
        play_to_end([ws], timeout=300)
    [finished] = httpx.get(server.url + "/api/players/nell_d").json()["finished"]
    assert finished["chronicle"] == f"/api/tables/{table['id']}/chronicle.html"
    assert c.post("/api/account/delete", json={"password": PASSWORD},
                  headers={"X-CSRF-Token": csrf}).status_code == 200
    chronicle = httpx.get(server.url + finished["chronicle"], timeout=180)
    assert chronicle.status_code == 200, chronicle.text
    assert "a former player" in chronicle.text and "Nell" not in chronicle.text


def test_db_copy_carries_accounts_sessions_and_seats(tmp_path: Path) -> None:
    """SQLite to PostgreSQL: the account signs in with its password, its session still
    works and "My games" lists its table on the other side; a second copy adds nothing."""
    from gloomtable.server.copy import copy_tables
    from pg_support import fresh_schema

    sqlite_db = str(tmp_path / "before.db")
    with ServerProcess(sqlite_db) as srv:
        c = client(srv)
        csrf = sign_up(c, "ivan")
        table = c.post("/api/tables", json={"seats": [{"kind": "person"}, {"kind": "person"}]},
                       headers={"X-CSRF-Token": csrf}).json()
        cookie = c.cookies["gloom_session"]
    with fresh_schema() as url:
        report = copy_tables(sqlite_db, url)
        assert report.copied == [table["id"]] and report.account_rows == 3  # account, session, seat
        assert copy_tables(sqlite_db, url).account_rows == 0
        with ServerProcess(url, log=tmp_path / "pg.log") as srv:
            kept = client(srv, cookies={"gloom_session": cookie})
            assert kept.get("/api/account").json()["name"] == "ivan"
            assert [g["table"] for g in kept.get("/api/account/games").json()["games"]] == [table["id"]]
            assert sign_in(client(srv), "ivan").status_code == 200


def test_the_cookie_is_secure_over_tls_behind_a_trusted_proxy(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "t.db", args=["--forwarded-allow-ips", "127.0.0.1"]) as srv:
        r = httpx.post(srv.url + "/api/account/signup", json={"name": "tls_user", "password": PASSWORD},
                       headers={"X-Forwarded-Proto": "https"})
        assert r.status_code == 201, r.text
        cookie = r.headers["set-cookie"].lower()
        assert "; secure" in cookie and "httponly" in cookie and "samesite=lax" in cookie
        plain = httpx.post(srv.url + "/api/account/signin", json={"name": "tls_user", "password": PASSWORD})
        assert "secure" not in plain.headers["set-cookie"].lower()


def test_two_processes_share_accounts_sessions_and_seats(tmp_path: Path) -> None:
    """On one PostgreSQL: signed up through one process, signed in on the other; the
    table made through the first is in "My games" and its seat is taken through the second."""
    from pg_support import fresh_schema

    with fresh_schema() as url, ServerProcess(url, log=tmp_path / "a.log") as one, \
            ServerProcess(url, log=tmp_path / "b.log") as two:
        a = client(one)
        csrf = sign_up(a, "june")
        table = a.post("/api/tables", json={"seats": [{"kind": "person"}, {"kind": "person"}]},
                       headers={"X-CSRF-Token": csrf}).json()
        same = client(two, cookies={"gloom_session": a.cookies["gloom_session"]})
        assert same.get("/api/account").json()["name"] == "june"
        b = client(two)
        r = sign_in(b, "june")
        assert r.status_code == 200, r.text
        assert [g["table"] for g in b.get("/api/account/games").json()["games"]] == [table["id"]]
        seat = b.post(f"/api/account/games/{table['id']}/seat", headers={"X-CSRF-Token": r.json()["csrf"]})
        assert seat.json()["token"] == table["invites"][0]["token"]
        with open_ws(two, table, seat.json()["token"]) as ws:
            assert next_state(ws)["seat"] == 0
        session = b.cookies["gloom_session"]
        assert client(one, cookies={"gloom_session": session}).get("/api/account").json()["signed_in"]
        assert b.post("/api/account/signout", headers={"X-CSRF-Token": r.json()["csrf"]}).status_code == 200
        # signed out through one process: that session is gone on the other too
        assert client(one, cookies={"gloom_session": session}).get("/api/account").json() == \
            {"signed_in": False}
