"""The server's log lines (docs/deploy.md, "Logs"): a time stamp on every line,
the level chosen by ``--log-level``, plain text or one JSON object a line
(``--log-format json``, by python-json-logger), and uvicorn's access log on
``--access-log``.

A failure is one line: below ``debug`` an exception logged with its traceback is
written as the log's message followed by ``(ExceptionType: what it said)``; at
``debug`` the traceback follows as well. So an outage writes one line per failure,
which a log search counts, and its tracebacks are there when asked for."""

from __future__ import annotations

import logging
import logging.config
import time
from typing import Any

LEVELS = ("debug", "info", "warning", "error")
FORMATS = ("text", "json")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class UtcFormatter(logging.Formatter):
    """Text lines stamped in UTC to the millisecond, ISO 8601 (``2026-12-01T22:40:16.123Z``)."""

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
        return f"{stamp}.{int(record.msecs):03d}Z"


class OneLineFailures(logging.Filter):
    """Unless at ``debug``, an exception's traceback becomes one clause of its line, and a
    message written over several lines is put on one."""

    def __init__(self, debug: bool) -> None:
        super().__init__()
        self.debug = debug

    def filter(self, record: logging.LogRecord) -> bool:
        if self.debug or not record.exc_info or record.exc_info[1] is None:
            message = record.getMessage()
            if "\n" in message:  # a library's message over lines (psycopg's "Is the server running")
                record.msg, record.args = " ".join(message.split()), None
            return True
        exc = record.exc_info[1]
        said = " ".join(str(exc).split())  # a multi-line message (psycopg's) on one line
        message = " ".join(record.getMessage().split())
        what = f"{type(exc).__name__}: {said}" if said else type(exc).__name__
        record.msg = f"{message} ({what})"
        record.args = None
        record.exc_info = None
        record.exc_text = None
        return True


def log_config(level: str = "info", fmt: str = "text") -> dict[str, Any]:
    """A :func:`logging.config.dictConfig` for our loggers and uvicorn's (uvicorn takes
    it as its ``log_config``), every line through one handler on standard error."""
    if level not in LEVELS:
        raise ValueError(f"--log-level must be one of {', '.join(LEVELS)}, got {level!r}")
    if fmt not in FORMATS:
        raise ValueError(f"--log-format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    formatter: dict[str, Any] = (
        {"()": "pythonjsonlogger.json.JsonFormatter",
         "fmt": "%(levelname)s %(name)s %(message)s", "timestamp": "time",
         "rename_fields": {"levelname": "level", "name": "logger"}}
        if fmt == "json" else {"()": UtcFormatter, "fmt": TEXT_FORMAT})
    upper = level.upper()
    quiet = "WARNING" if level in ("debug", "info") else upper
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"one_line": {"()": OneLineFailures, "debug": level == "debug"}},
        "formatters": {"main": formatter},
        "handlers": {"main": {"class": "logging.StreamHandler", "formatter": "main",
                              "filters": ["one_line"], "stream": "ext://sys.stderr"}},
        "root": {"handlers": ["main"], "level": upper},
        "loggers": {
            "gloomtable": {"handlers": [], "level": upper, "propagate": True},
            # uvicorn's own lines at info are one per websocket opened and closed: kept for debug
            "uvicorn": {"handlers": [], "level": upper if level == "debug" else quiet, "propagate": True},
            "uvicorn.error": {"handlers": [], "level": upper if level == "debug" else quiet,
                              "propagate": True},
            # one line a request when --access-log is on (uvicorn drops it otherwise)
            "uvicorn.access": {"handlers": [], "level": "INFO" if level in ("debug", "info") else upper,
                               "propagate": True},
        },
    }


def configure(level: str = "info", fmt: str = "text") -> dict[str, Any]:
    """Apply :func:`log_config` now (so start-up lines are stamped too) and return it."""
    config = log_config(level, fmt)
    logging.config.dictConfig(config)
    return config
