"""PostgreSQL for tests: the server at 127.0.0.1:5432 (trust auth, database ``test``).

``fresh_schema()`` gives each test its own schema (dropped afterwards), so runs
and tests never see each other's tables. When nothing answers, the tests skip,
unless the CI variable is set: then they fail, so CI can never pass by skipping.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Iterator

import pytest

PG_BASE = os.environ.get("GLOOM_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")


def require_postgres() -> None:
    import psycopg

    try:
        psycopg.connect(PG_BASE, connect_timeout=3).close()
    except psycopg.Error as exc:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL at {PG_BASE} does not answer, and under CI it must: {exc}")
        pytest.skip(f"PostgreSQL at {PG_BASE} does not answer: {exc}")


@contextlib.contextmanager
def fresh_schema() -> Iterator[str]:
    """A ``postgresql://...?schema=t_<random>`` URL; the schema is dropped at the end."""
    import psycopg

    require_postgres()
    schema = "t_" + secrets.token_hex(6)
    try:
        yield f"{PG_BASE}?schema={schema}"
    finally:
        with psycopg.connect(PG_BASE, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
