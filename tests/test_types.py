"""The tooling gate runs with the tests: ``mypy --strict`` (pydantic plugin on, as
configured in pyproject.toml ``[tool.mypy]``) must report no error over the package,
nor over the test that checks both games against the engine protocol statically."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow  # a cold mypy run over the package takes tens of seconds
def test_mypy_strict_is_clean() -> None:
    proc = subprocess.run([sys.executable, "-m", "mypy", "--strict", "src/gloomtable",
                           "tests/test_game_protocol.py"],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Success: no issues found" in proc.stdout, proc.stdout
