"""``gloom serve`` (and ``python -m gloomtable.server``) settings from a TOML file and
``GLOOMTABLE_*`` variables, under the command line (issue 36; docs/deploy.md,
"Configuration"). Every flag is set each way, iterating over the flag list that
``--print-config`` prints."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import httpx
import pytest

from gloomtable.server.settings import env_name
from gloomtable.server.testing import ServerProcess

CLIS = {"gloom serve": [sys.executable, "-m", "gloomtable.cli.main", "serve"],
        "python -m gloomtable.server": [sys.executable, "-m", "gloomtable.server"]}


def _clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GLOOMTABLE_")}
    return {**env, **extra}


def printed(cli: list[str], *args: str, env: dict[str, str] | None = None) -> dict[str, Any]:
    out = subprocess.run([*cli, "--print-config", *args], capture_output=True, text=True, timeout=60,
                         env=env or _clean_env())
    assert out.returncode == 0, out.stderr
    return tomllib.loads(out.stdout)


def other(flag: str, value: Any, n: int) -> Any:
    """A value of ``value``'s type unlike it (``n`` tells two such values apart)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + n if flag != "port" else 9000 + n
    if isinstance(value, float):
        return value + n + 0.5
    return f"{flag}-{n}"


@pytest.mark.slow  # starts several processes
@pytest.mark.parametrize("cli", list(CLIS))
def test_every_flag_is_settable_from_the_file_and_the_environment(cli: str, tmp_path: Path) -> None:
    defaults = printed(CLIS[cli])
    assert {"port", "db", "store-timeout", "log-format", "rate-storage-prefix", "forwarded-allow-ips"} \
        <= set(defaults)
    from_file = {flag: other(flag, v, 1) for flag, v in defaults.items()}
    site = tmp_path / "site.toml"
    site.write_text("".join(f"{flag.replace('-', '_') if i % 2 else flag} = {json.dumps(v)}\n"
                            for i, (flag, v) in enumerate(from_file.items())))  # either spelling
    assert printed(CLIS[cli], "--config", str(site)) == from_file

    from_env = {flag: other(flag, v, 2) for flag, v in defaults.items()}
    env = _clean_env(**{env_name(flag): str(v).lower() if isinstance(v, bool) else str(v)
                        for flag, v in from_env.items()})
    assert printed(CLIS[cli], "--config", str(site), env=env) == from_env  # the environment over the file
    ours = printed(CLIS[cli], "--config", str(site), "--port", "7000", "--store-timeout", "9.5", env=env)
    assert ours == {**from_env, "port": 7000, "store-timeout": 9.5}  # the command line over both


@pytest.mark.slow  # starts several processes
@pytest.mark.parametrize("cli", list(CLIS))
def test_secrets_are_masked_and_bad_settings_are_clear_errors(cli: str, tmp_path: Path) -> None:
    shown = printed(CLIS[cli], "--db", "postgresql://gloom:s3cret@db.internal/gloom",
                    "--rate-storage", "async+redis://:hush@127.0.0.1:6379")
    assert shown["db"] == "postgresql://gloom:***@db.internal/gloom"
    assert shown["rate-storage"] == "async+redis://:***@127.0.0.1:6379"
    for text, said in (("colour = 3\n", "unknown setting(s) colour"),
                       ('port = "eighty"\n', "port: expected int, got 'eighty'"),
                       ("port = \n", "not TOML")):
        bad = tmp_path / "bad.toml"
        bad.write_text(text)
        out = subprocess.run([*CLIS[cli], "--config", str(bad), "--print-config"], capture_output=True,
                             text=True, timeout=60, env=_clean_env())
        assert out.returncode == 2 and said in out.stderr and "bad.toml" in out.stderr, out.stderr
    out = subprocess.run([*CLIS[cli], "--print-config"], capture_output=True, text=True, timeout=60,
                         env=_clean_env(GLOOMTABLE_ACCESS_LOG="maybe"))
    assert out.returncode == 2 and "$GLOOMTABLE_ACCESS_LOG: expected true or false" in out.stderr


def test_a_server_runs_with_its_file(tmp_path: Path) -> None:
    site = tmp_path / "site.toml"
    site.write_text('log-format = "json"\naccess_log = true\n')
    log = tmp_path / "s.log"
    with ServerProcess(tmp_path / "t.db", log=log, args=["--config", str(site)]) as srv:
        assert httpx.get(srv.url + "/healthz", timeout=30).status_code == 200
    records = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    assert any("/healthz" in r["message"] for r in records), records
