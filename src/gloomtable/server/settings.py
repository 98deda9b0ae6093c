"""Where ``gloom serve``'s settings come from (docs/deploy.md, "Configuration"):
the command line, else a ``GLOOMTABLE_<FLAG>`` environment variable (``--store-timeout``
is ``GLOOMTABLE_STORE_TIMEOUT``), else the TOML file given by ``--config`` (keys are
the flags' names, ``store-timeout`` or ``store_timeout``), else the default.
``--print-config`` prints the result as TOML, passwords in URLs masked."""

from __future__ import annotations

import json
import os
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

ENV_PREFIX = "GLOOMTABLE_"
SECRET_IN_URL = re.compile(r"(://[^/:@\s]*:)[^@/\s]+@")
TRUE, FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


class SettingsError(ValueError):
    """A file or variable that cannot be used; the message says which and where."""


def env_name(flag: str) -> str:
    return ENV_PREFIX + flag.replace("-", "_").upper()


def read_file(path: str | Path) -> dict[str, Any]:
    """The TOML file's settings, keyed by flag name (dashes)."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise SettingsError(f"--config {path}: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(f"--config {path}: not TOML: {exc}") from None
    return {key.replace("_", "-"): value for key, value in data.items()}


def convert(value: Any, kind: type, where: str) -> Any:
    """``value`` (a string from the environment, or a TOML value) as ``kind``."""
    if kind is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in TRUE + FALSE:
            return value.strip().lower() in TRUE
        raise SettingsError(f"{where}: expected true or false, got {value!r}")
    if isinstance(value, bool) or (kind is str and not isinstance(value, str)):
        raise SettingsError(f"{where}: expected {kind.__name__}, got {value!r}")
    try:
        return kind(value)
    except (TypeError, ValueError):
        raise SettingsError(f"{where}: expected {kind.__name__}, got {value!r}") from None


def layered(flags: Mapping[str, type], config: str | None,
            environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The values the environment and the file give, by flag (the command line and the
    defaults are the caller's); an unknown key in the file is an error."""
    environ = os.environ if environ is None else environ
    found: dict[str, Any] = {}
    if config:
        data = read_file(config)
        unknown = sorted(set(data) - set(flags))
        if unknown:
            raise SettingsError(f"--config {config}: unknown setting(s) {', '.join(unknown)}")
        for flag, value in data.items():
            found[flag] = convert(value, flags[flag], f"--config {config}: {flag}")
    for flag, kind in flags.items():
        name = env_name(flag)
        if name in environ:
            found[flag] = convert(environ[name], kind, f"${name}")
    return found


def masked(value: Any) -> Any:
    return SECRET_IN_URL.sub(r"\1***@", value) if isinstance(value, str) else value


def as_toml(values: Mapping[str, Any]) -> str:
    """``values`` as TOML lines (secrets masked), for ``--print-config``."""
    lines = []
    for flag, value in values.items():
        shown = masked(value)
        text = ("true" if shown else "false") if isinstance(shown, bool) else \
            json.dumps(shown) if isinstance(shown, str) else repr(shown)
        lines.append(f"{flag} = {text}")
    return "\n".join(lines)
