"""docs/deploy.md's recipe, run: two ``gloom serve`` processes on one PostgreSQL and
one Redis behind a real nginx with the shipped deploy/nginx.conf (issue 36). A game
is played to its end through nginx, and per-client limits count each client nginx
names in X-Forwarded-For, not nginx's one address."""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from deploy_support import write_nginx_main
from gloomtable.server.testing import ServerProcess, free_port
from pg_support import fresh_schema
from redis_support import REDIS_URL, fresh_prefix, require_redis
from server_support import invite_token, next_state, open_ws, play_first_choice

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


class Proxy:
    """nginx's address, in the shape the test helpers take a server."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.ws_url = f"ws://127.0.0.1:{port}"
        self.hello = ServerProcess.hello


@contextlib.contextmanager
def nginx_in_front(folder: Path, upstreams: list[str]) -> Iterator[Proxy]:
    port = free_port()
    main = write_nginx_main(folder, upstreams, listen=port)
    errors = folder / "logs" / "stderr.log"
    with open(errors, "wb") as err:
        proc = subprocess.Popen([NGINX, "-p", str(folder), "-c", str(main)], stdout=subprocess.DEVNULL,
                                stderr=err)
    try:
        deadline = time.monotonic() + 20
        while True:
            assert proc.poll() is None, errors.read_text()
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
                break
            assert time.monotonic() < deadline, "nginx did not listen"
            time.sleep(0.1)
        yield Proxy(port)
    finally:
        proc.terminate()
        proc.wait(10)


def from_address(source: str) -> httpx.Client:
    """A client whose connections come from ``source`` (any 127.x.y.z is this machine)."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=source), timeout=20)


@pytest.mark.slow
def test_two_servers_behind_nginx_play_a_game_and_count_limits_per_client(tmp_path: Path) -> None:
    if not Path(NGINX).exists():
        pytest.skip("nginx is not installed (.ci/run installs Debian's nginx-light)")
    require_redis()
    flags = ["--forwarded-allow-ips", "127.0.0.1", "--allowed-hosts", "127.0.0.1,localhost",
             "--rate-storage", REDIS_URL, "--rate-storage-prefix", fresh_prefix(),
             "--create-rate", "3/hour"]
    with fresh_schema() as url, \
            ServerProcess(url, log=tmp_path / "a.log", args=flags, shared_loopback=False) as a, \
            ServerProcess(url, log=tmp_path / "b.log", args=flags, shared_loopback=False) as b, \
            nginx_in_front(tmp_path / "nginx", [f"127.0.0.1:{a.port}", f"127.0.0.1:{b.port}"]) as site:
        assert httpx.get(site.url + "/readyz", timeout=10).status_code == 200
        seats = [{"kind": "person", "name": "Ada"}, {"kind": "bot", "level": "random"}]
        with from_address("127.0.0.2") as ada_http:
            r = ada_http.post(site.url + "/api/tables", json={"seats": seats, "bot_delay_ms": 0, "seed": 5})
            assert r.status_code == 201, r.text
            table = r.json()
            for _ in range(2):
                assert ada_http.post(site.url + "/api/tables", json={"seats": seats}).status_code == 201
            refused = ada_http.post(site.url + "/api/tables", json={"seats": seats})
            assert refused.status_code == 429, refused.text  # her fourth in an hour, on either process
        with from_address("127.0.0.3") as bo_http:  # another client: her count is not his
            assert bo_http.post(site.url + "/api/tables", json={"seats": seats}).status_code == 201

        with open_ws(site, table, invite_token(table, 0)) as ada:  # type: ignore[arg-type]
            msg = next_state(ada, lambda m: m["choices"] or m["over"], fail_on_error=True)
            for _ in range(2000):
                if msg["over"]:
                    break
                time.sleep(0.06)  # within the messages a second a connection may send
                play_first_choice(ada, msg)
                msg = next_state(ada, lambda m, sid=msg["state_id"]: m["state_id"] > sid
                                 and (m["choices"] or m["over"]), timeout=30, fail_on_error=True)
            assert msg["over"]
        done = httpx.get(f"{site.url}/api/tables/{table['id']}", timeout=10).json()
        assert done["over"]
    access = (tmp_path / "nginx" / "logs" / "access.log").read_text()
    assert "/ws/" in access and " 101 " in access, access[-2000:]
