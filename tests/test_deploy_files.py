"""The deploy files (issue 36; docs/deploy.md, "Containers", "systemd"): no
Docker engine runs here, so each is checked by the tool that reads it where the
machine has one (nginx -t, systemd-analyze verify) and by a parser otherwise."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from deploy_support import write_nginx_main

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"


def test_compose_names_the_services_and_wires_them() -> None:
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    services = compose["services"]
    assert set(services) == {"postgres", "redis", "gloom1", "gloom2", "nginx"}
    for name in ("gloom1", "gloom2"):
        s = services[name]
        assert s["build"] == "." and s["restart"] == "always"
        flags = dict(arg.removeprefix("--").split("=", 1) for arg in s["command"])
        assert flags["db"].startswith("postgresql://") and "@postgres/" in flags["db"]
        assert flags["rate-storage"].startswith("async+redis://redis:")
        assert flags["forwarded-allow-ips"] and flags["allowed-hosts"] and flags["rate-storage-prefix"]
        assert "ports" not in s  # only the proxy is reachable from outside
    mounts = services["nginx"]["volumes"]
    for mount in mounts:
        assert (ROOT / mount.split(":")[0]).is_file(), mount
    upstreams = (DEPLOY / "gloom-upstreams-compose.conf").read_text()
    assert re.findall(r"server (gloom\d):8000", upstreams) == ["gloom1", "gloom2"]


def test_dockerfile_is_slim_non_root_installs_the_wheel_and_checks_healthz() -> None:
    text = (ROOT / "Dockerfile").read_text()
    froms = re.findall(r"^FROM (\S+)", text, re.M)
    assert froms and all(f.endswith("-slim") for f in froms), froms
    final = text.split("\nFROM ")[-1]
    assert re.search(r"^USER (?!root)\w+", final, re.M)
    assert "pip wheel" in text and ".whl" in final
    health = re.search(r"^HEALTHCHECK .*\n.*", final, re.M)
    assert health and "/healthz" in health.group(0)
    for src in re.findall(r"^COPY (?!--from)(.+) \S+$", text, re.M):
        for item in src.split():
            assert list(ROOT.glob(item)), item  # every file the build copies is in the repo
    if shutil.which("hadolint"):
        out = subprocess.run(["hadolint", str(ROOT / "Dockerfile")], capture_output=True, text=True)
        assert out.returncode == 0, out.stdout


def test_the_systemd_unit_verifies(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed")
    gloom = Path(sys.executable).with_name("gloom")
    assert gloom.exists(), gloom
    unit = tmp_path / "gloomtable@8001.service"  # an instance, with this machine's gloom
    unit.write_text((DEPLOY / "gloomtable@.service").read_text().replace("/usr/local/bin/gloom", str(gloom)))
    out = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and not out.stderr.strip(), out.stderr


def test_the_nginx_config_is_accepted_by_nginx(tmp_path: Path) -> None:
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if nginx is None:
        pytest.skip("nginx is not installed (.ci/run installs it)")
    main = write_nginx_main(tmp_path, ["127.0.0.1:8001", "127.0.0.1:8002"], listen=18080)
    out = subprocess.run([nginx, "-t", "-p", str(tmp_path), "-c", str(main)], capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr

