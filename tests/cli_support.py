"""Run a ``gloom`` command in this process, for the fast tier: the same app, arguments,
exit code and output as ``python -m gloomtable.cli.main``, without a new interpreter
importing everything again (about 0.7 s a call). Tests about the process itself (the
entry point, signals, a terminal) keep starting one (tests/test_cli.py)."""

from __future__ import annotations

import os
import subprocess
from contextlib import chdir
from pathlib import Path

from typer.testing import CliRunner

from gloomtable.cli.main import app


def gloom(*args: str, stdin: str | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``gloom ARGS`` run in-process, answered as :func:`subprocess.run` would."""
    runner = CliRunner()
    env = {"COLUMNS": "200", "LANG": os.environ.get("LANG", "C.UTF-8")}
    with chdir(cwd or Path.cwd()):
        result = runner.invoke(app, list(args), input=stdin, env=env, catch_exceptions=False)
    return subprocess.CompletedProcess(["gloom", *args], result.exit_code, result.stdout, result.stderr)
