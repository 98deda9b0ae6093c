"""docs/deploy.md, "Accounts behind a TLS proxy", run: a real nginx with the shipped
deploy/nginx.conf ends TLS (a self-signed certificate) in front of ``gloom serve
--forwarded-allow-ips``; a sign-up through HTTPS gets a ``Secure`` session cookie that
signs in through HTTPS, and the same site's plain HTTP port gets none (issue 31)."""

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

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
OPENSSL = shutil.which("openssl") or "/usr/bin/openssl"
PASSWORD = "correct horse 42"


def self_signed(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "site.crt", folder / "site.key"
    subprocess.run([OPENSSL, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                    "/CN=127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True, timeout=120)
    return cert, key


@contextlib.contextmanager
def tls_nginx(folder: Path, upstream: str) -> Iterator[tuple[int, int]]:
    """The shipped server block as it is, but for its ports: TLS on one, plain HTTP on
    the other (the redirect a site would put there is left out to compare them)."""
    tls, plain = free_port(), free_port()
    main = write_nginx_main(folder, [upstream], listen=tls)
    cert, key = self_signed(folder)
    site = folder / "gloom-site.conf"
    site.write_text(site.read_text().replace(
        f"listen 127.0.0.1:{tls};",
        f"listen 127.0.0.1:{tls} ssl;\n    listen 127.0.0.1:{plain};\n"
        f"    ssl_certificate {cert};\n    ssl_certificate_key {key};"))
    errors = folder / "logs" / "stderr.log"
    with open(errors, "wb") as err:
        proc = subprocess.Popen([NGINX, "-p", str(folder), "-c", str(main)], stdout=subprocess.DEVNULL,
                                stderr=err)
    try:
        deadline = time.monotonic() + 30
        for port in (tls, plain):
            while True:
                assert proc.poll() is None, errors.read_text()
                with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
                assert time.monotonic() < deadline, "nginx did not listen"
                time.sleep(0.1)
        yield tls, plain
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.mark.slow
def test_the_session_cookie_is_secure_through_a_tls_proxy(tmp_path: Path) -> None:
    if not Path(NGINX).exists() or not Path(OPENSSL).exists():
        pytest.skip("nginx or openssl is not installed (.ci/run installs Debian's nginx-light)")
    flags = ["--forwarded-allow-ips", "127.0.0.1", "--allowed-hosts", "127.0.0.1,localhost"]
    with ServerProcess(tmp_path / "t.db", log=tmp_path / "s.log", args=flags, shared_loopback=False) as srv, \
            tls_nginx(tmp_path / "nginx", f"127.0.0.1:{srv.port}") as (tls, plain), \
            httpx.Client(base_url=f"https://127.0.0.1:{tls}", verify=False, timeout=30) as browser:
        r = browser.post("/api/account/signup", json={"name": "tls_ada", "password": PASSWORD})
        assert r.status_code == 201, r.text
        cookie = r.headers["set-cookie"].lower()
        assert "gloom_session=" in cookie and "; secure" in cookie and "httponly" in cookie \
            and "samesite=lax" in cookie, cookie
        [jar] = [c for c in browser.cookies.jar if c.name == "gloom_session"]
        assert jar.secure
        assert browser.get("/api/account").json()["name"] == "tls_ada"  # the cookie signs in over TLS
        csrf = browser.get("/api/account").json()["csrf"]
        made = browser.post("/api/tables", json={"seats": [{"kind": "person"}, {"kind": "person"}]},
                            headers={"X-CSRF-Token": csrf})
        assert made.status_code == 201, made.text
        r = httpx.post(f"http://127.0.0.1:{plain}/api/account/signin",
                       json={"name": "tls_ada", "password": PASSWORD}, timeout=30)
        assert r.status_code == 200, r.text
        assert "secure" not in r.headers["set-cookie"].lower()  # plain HTTP: the site should redirect it
