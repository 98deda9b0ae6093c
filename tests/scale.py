"""The one switch between the suite's scale and the soak's.

``HYPOTHESIS_PROFILE`` picks the hypothesis profile registered in ``conftest.py``:
``ci`` (the default: every run of the suite) or ``long`` (``scripts/soak.py`` sets it).
The tests that loop by themselves (seeded games, SIGKILLs, bot tables, windows in a
browser) size their loops with :func:`scaled` from the same variable, read here only,
so one command runs everything at soak scale. docs/reliability.md lists what runs at
which scale.
"""

from __future__ import annotations

import os

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
LONG = PROFILE == "long"


def scaled(short: int, long: int) -> int:
    """``short`` in the suite (the ``ci`` profile), ``long`` in the soak (``long``)."""
    return long if LONG else short
