"""The server's log lines (issue 36; docs/deploy.md, "Logs"): a time stamp on every
line, ``--log-format json`` one JSON object a line, ``--access-log``, one line per
failure, and a database cut answered ``503 server_busy``, never ``500``."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from gloomtable.server.testing import ServerProcess
from pg_support import fresh_schema, require_postgres
from redis_support import StallingProxy
from server_support import create_table, invite_token, open_ws, post_table, read_until

STAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z [A-Z]+ \S+: ")
TWO = [{"kind": "person"}, {"kind": "person"}]


def _lines(path: Path) -> list[str]:
    return [line for line in path.read_text().splitlines() if line.strip()]


def test_json_lines_parse_and_carry_a_time_stamp_and_the_access_log(tmp_path: Path) -> None:
    log = tmp_path / "s.log"
    with ServerProcess(tmp_path / "t.db", log=log, args=["--log-format", "json", "--access-log"]) as srv:
        assert httpx.get(srv.url + "/api/games", timeout=30).status_code == 200
        assert httpx.get(srv.url + "/no-such-page", timeout=30).status_code == 404
        deadline = time.monotonic() + 10
        while "/no-such-page" not in log.read_text():
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
    records = [json.loads(line) for line in _lines(log)]  # every line is one JSON object
    assert records
    for r in records:
        assert {"time", "level", "logger", "message"} <= set(r), r
        assert re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", r["time"]), r
    assert any("serving at" in r["message"] for r in records), records
    access = [r for r in records if r["logger"] == "uvicorn.access"]
    assert any("/api/games" in r["message"] and "200" in r["message"] for r in access), access


def test_text_lines_are_stamped_and_the_access_log_is_off_by_default(tmp_path: Path) -> None:
    log = tmp_path / "s.log"
    with ServerProcess(tmp_path / "t.db", log=log) as srv:
        assert httpx.get(srv.url + "/api/games", timeout=30).status_code == 200
        create_table(srv)
    lines = _lines(log)
    assert lines and all(STAMP.match(line) for line in lines), lines
    assert not any("/api/games" in line for line in lines), lines


@pytest.mark.slow  # starts several processes
def test_log_level_warning_drops_info_lines(tmp_path: Path) -> None:
    log = tmp_path / "s.log"
    with ServerProcess(tmp_path / "t.db", log=log, args=["--log-level", "error"]):
        pass
    assert not any("resumed" in line for line in _lines(log)), _lines(log)
    quiet = tmp_path / "q.log"
    with ServerProcess(tmp_path / "t.db", log=quiet, args=["--log-level", "info"]):
        pass
    assert any("resumed" in line for line in _lines(quiet)), _lines(quiet)


def test_a_bad_log_level_is_one_clear_error(tmp_path: Path) -> None:
    srv = ServerProcess(tmp_path / "t.db", args=["--log-level", "loud"])
    with pytest.raises(RuntimeError, match="invalid choice: 'loud'"):
        srv.start()


@pytest.mark.slow
def test_a_database_cut_is_server_busy_everywhere_never_500_and_one_line_a_failure(tmp_path: Path) -> None:
    require_postgres()
    log = tmp_path / "s.log"
    with fresh_schema() as url, StallingProxy(("127.0.0.1", 5432)) as proxy:
        through = url.replace("127.0.0.1:5432", f"127.0.0.1:{proxy.port}")
        with ServerProcess(through, log=log, args=["--store-timeout", "1"]) as srv:
            table = create_table(srv)
            with open_ws(srv, table, invite_token(table, 0)) as ada, \
                    open_ws(srv, table, invite_token(table, 1)) as bo:
                states = [read_until(c, lambda m: m["type"] == "state") for c in (ada, bo)]
                mover, state = next((c, st) for c, st in zip((ada, bo), states, strict=True)
                                    if st.get("choices"))
                proxy.go_away()  # every connection closed, new ones refused
                for _ in range(3):
                    r = post_table(srv, timeout=10, seats=TWO)
                    assert r.status_code == 503 and r.json()["code"] == "server_busy", r.text
                    assert httpx.get(srv.url + f"/api/tables/{table['id']}", timeout=10
                                     ).status_code in (200, 503)
                    assert httpx.get(srv.url + "/readyz", timeout=10).status_code == 503
                mover.send(json.dumps({"type": "act", "action": state["choices"][0]["action"],
                                       "state_id": state["state_id"]}))
                refused = read_until(mover, lambda m: m["type"] == "error", timeout=10)
                assert refused["code"] == "server_busy", refused
    text = log.read_text()
    assert "Traceback" not in text and "server_error" not in text, text[-3000:]
    assert all(STAMP.match(line) for line in _lines(log)), text[-3000:]


@pytest.mark.parametrize("level", ["info", "debug"])
def test_a_failure_is_one_line_and_its_traceback_comes_only_at_debug(level: str) -> None:
    # in a process of its own: configuring logging in the test process would leave its
    # handlers on pytest's captured streams for every later test
    code = (
        "import logging\n"
        "from gloomtable.server.logs import configure\n"
        f"configure({level!r}, 'text')\n"
        "try:\n"
        "    raise ValueError('the first line\\nthe second line')\n"
        "except ValueError:\n"
        "    logging.getLogger('gloomtable.server').exception('handling a message failed')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    err = done.stderr
    lines = err.splitlines()
    assert STAMP.match(lines[0]) and "handling a message failed" in lines[0], err
    if level == "debug":
        assert "Traceback" in err and len(lines) > 2, err
    else:
        assert lines == [lines[0]] and "(ValueError: the first line the second line)" in lines[0], err
